//! The tool's exit statuses and their process codes: one enum, so every exit is easy to find.

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: the command did what was asked (for `run`: nothing blocked).
    Success,
    /// 1: bad usage, bad input, an I/O error, or problems found.
    Error,
    /// 2: only from `run`: a hook blocked, or the quality gate asked to keep working.
    Blocked,
    /// 128 + N: a terminating signal N asked the program to stop (130 for SIGINT, 143 for
    /// SIGTERM, 129 for SIGHUP); the running hooks' process groups were ended first.
    Signaled(u8),
}

impl ExitStatus {
    /// The process exit code.
    pub const fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Error => 1,
            Self::Blocked => 2,
            Self::Signaled(code) => code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ExitStatus;

    #[test]
    fn codes_are_stable() {
        assert_eq!(ExitStatus::Success.code(), 0);
        assert_eq!(ExitStatus::Error.code(), 1);
        assert_eq!(ExitStatus::Blocked.code(), 2);
        assert_eq!(ExitStatus::Signaled(130).code(), 130);
    }
}
