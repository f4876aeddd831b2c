//! Signal numbers as people read them: "killed by signal 9 (SIGKILL)".

use rustix::process::Signal;

const NAMES: &[(Signal, &str)] = &[
    (Signal::HUP, "SIGHUP"),
    (Signal::INT, "SIGINT"),
    (Signal::QUIT, "SIGQUIT"),
    (Signal::ILL, "SIGILL"),
    (Signal::TRAP, "SIGTRAP"),
    (Signal::ABORT, "SIGABRT"),
    (Signal::BUS, "SIGBUS"),
    (Signal::FPE, "SIGFPE"),
    (Signal::KILL, "SIGKILL"),
    (Signal::USR1, "SIGUSR1"),
    (Signal::SEGV, "SIGSEGV"),
    (Signal::USR2, "SIGUSR2"),
    (Signal::PIPE, "SIGPIPE"),
    (Signal::ALARM, "SIGALRM"),
    (Signal::TERM, "SIGTERM"),
    (Signal::XCPU, "SIGXCPU"),
    (Signal::XFSZ, "SIGXFSZ"),
    (Signal::SYS, "SIGSYS"),
];

/// "SIGKILL" for 9, when the number has a known name.
pub(crate) fn signal_name(number: i32) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|(signal, _)| signal.as_raw() == number)
        .map(|(_, name)| *name)
}

/// "signal 9 (SIGKILL)", or "signal N" for a number without a known name.
pub(crate) fn describe_signal(number: i32) -> String {
    match NAMES.iter().find(|(signal, _)| signal.as_raw() == number) {
        Some((_, name)) => format!("signal {number} ({name})"),
        None => format!("signal {number}"),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_signal;
    use rustix::process::Signal;

    #[test]
    fn names_known_signals() {
        assert_eq!(describe_signal(Signal::KILL.as_raw()), "signal 9 (SIGKILL)");
        assert_eq!(
            describe_signal(Signal::TERM.as_raw()),
            "signal 15 (SIGTERM)"
        );
        assert_eq!(describe_signal(64), "signal 64");
    }
}
