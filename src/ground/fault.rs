//! Fault injection for the tests of the loading path: in a test build, the Nth file system
//! call of the current thread that passes through [`check`] fails with "too many open files";
//! in every other build [`check`] is nothing.

use std::io;

#[cfg(test)]
thread_local! {
    static CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static FAIL_AT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Counts one file system call; in a test that asked for it, fails the Nth.
#[inline]
#[cfg_attr(not(test), allow(clippy::unnecessary_wraps))] // it fails only in tests
pub(crate) fn check() -> io::Result<()> {
    #[cfg(test)]
    {
        let call = CALLS.get() + 1;
        CALLS.set(call);
        if FAIL_AT.get() == Some(call) {
            return Err(io::Error::from(rustix::io::Errno::MFILE));
        }
    }
    Ok(())
}

/// Starts counting calls anew; with `fail_at`, the call of that number fails.
#[cfg(test)]
pub(crate) fn plan(fail_at: Option<u64>) {
    CALLS.set(0);
    FAIL_AT.set(fail_at);
}

/// How many calls were counted since [`plan`].
#[cfg(test)]
pub(crate) fn calls() -> u64 {
    CALLS.get()
}
