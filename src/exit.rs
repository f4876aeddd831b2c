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
    /// 130: interrupted by SIGINT.
    Interrupted,
    /// 143: terminated by SIGTERM.
    Terminated,
}

impl ExitStatus {
    /// The process exit code.
    pub const fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Error => 1,
            Self::Blocked => 2,
            Self::Interrupted => 130,
            Self::Terminated => 143,
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
        assert_eq!(ExitStatus::Interrupted.code(), 130);
        assert_eq!(ExitStatus::Terminated.code(), 143);
    }
}
