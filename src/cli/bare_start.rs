//! What the standard library's start-up does that this program needs, for the binary entered
//! without it on GNU/Linux (`src/main.rs`): the three standard descriptors held open, a broken
//! pipe made an error rather than a death, and a panic ending the process with std's status 101.
//!
//! std's start-up also reads `/proc/self/maps` and maps an alternate signal stack, to print a
//! message when the main thread overflows its stack (without it, such a process ends on
//! `SIGSEGV` instead of `SIGABRT`). Leaving that out takes about 0.1 ms off every start
//! (docs/performance.md, "std's start-up left out"). Arguments need nothing here: on glibc, std
//! reads them from the loader's call of its `.init_array` entry, which runs either way.

use std::io::{self, Write as _};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rustix::event::{PollFd, PollFlags, Timespec, poll};

/// The status std gives a `main` that panicked.
const PANICKED: i32 = 101;

/// Runs `main` as std's start-up would have, and returns the status for C's `main` to return:
/// the descriptors and `SIGPIPE` first, a panic turned into status 101 (std's panic hook has
/// printed it), and stdout flushed at the end, which std does at exit and the C library does not.
pub(crate) fn run(main: fn() -> u8) -> i32 {
    hold_standard_descriptors();
    if let Err(err) = survive_broken_pipes() {
        let _ = writeln!(io::stderr(), "hermes-hooks: cannot catch SIGPIPE: {err}");
        return 1;
    }
    let code = std::panic::catch_unwind(main).map_or(PANICKED, i32::from);
    // A closed stdout is not an error here either (the exit policy in `cli`).
    let _ = io::stdout().flush();
    code
}

/// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, so that no file this
/// process opens later takes one of their numbers (an answer printed into the audit log, a
/// config read from the agent's pipe). std's start-up does the same.
fn hold_standard_descriptors() {
    let (stdin, stdout, stderr) = (io::stdin(), io::stdout(), io::stderr());
    let mut fds = [
        PollFd::new(&stdin, PollFlags::empty()),
        PollFd::new(&stdout, PollFlags::empty()),
        PollFd::new(&stderr, PollFlags::empty()),
    ];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let closed = match poll(&mut fds, Some(&now)) {
        Ok(_) => fds.map(|fd| fd.revents().contains(PollFlags::NVAL)),
        // Where poll cannot say (too little memory), each descriptor is asked on its own.
        Err(_) => [is_closed(&stdin), is_closed(&stdout), is_closed(&stderr)],
    };
    for (number, closed) in closed.into_iter().enumerate() {
        if closed && !reopen_on(number) {
            // std aborts here too: a process that cannot hold its descriptors must not go on.
            std::process::abort();
        }
    }
}

/// Whether a standard handle's descriptor is closed.
fn is_closed(handle: &impl std::os::fd::AsFd) -> bool {
    rustix::io::fcntl_getfd(handle).is_err_and(|err| err == rustix::io::Errno::BADF)
}

/// Opens `/dev/null` and keeps it open for good, as descriptor `number` (the lowest free one,
/// the lower ones being open already). False when that fails or lands elsewhere.
fn reopen_on(number: usize) -> bool {
    use std::os::fd::{AsRawFd as _, IntoRawFd as _};
    let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    else {
        return false;
    };
    if usize::try_from(null.as_raw_fd()) != Ok(number) {
        return false;
    }
    // Kept open for the life of the process, as std's start-up keeps it.
    let _ = null.into_raw_fd();
    true
}

/// A write to a pipe whose reader is gone returns an error (`EPIPE`) instead of killing the
/// process: a hook that closes its stdin early, an agent that stops reading. std ignores
/// `SIGPIPE` for the same reason; a handler that does nothing has that effect without `unsafe`,
/// and, unlike an ignored signal, is not handed on to the hooks (std sets it back for them
/// either way).
fn survive_broken_pipes() -> Result<(), io::Error> {
    signal_hook::flag::register(
        signal_hook::consts::SIGPIPE,
        Arc::new(AtomicBool::new(false)),
    )
    .map(drop)
}
