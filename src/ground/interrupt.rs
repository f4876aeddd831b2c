//! Terminating signals (INT, TERM, HUP, QUIT, USR1, USR2, ALRM) while hooks run. A program opts
//! in with [`enable`]; the handlers are installed when the first hook starts, so a call that runs
//! nothing pays nothing (until then a signal ends the program by its default action). While a
//! hook runs, a signal sets a flag and makes a self-pipe readable for good, which wakes every
//! supervision loop at once; each ends its hook's process group, and the caller exits 128+N.
//! While no hook runs (between hooks, reading a script for its pin, waiting for a lock), there is
//! nothing to end, so the program exits 128+N at once: a signal is never left unanswered.
//!
//! SIGPIPE is not among them: it is raised by the program's own writes to a hook that closed its
//! stdin, or to a caller that closed stdout, in the normal course of a run, so it stays ignored
//! (as in every Rust program) and such writes fail with an error instead.

use std::io;
use std::os::fd::{AsFd as _, BorrowedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};

/// The signals that ask the program to stop, SIGINT first (it wins when several came).
pub(crate) const SIGNALS: [i32; 7] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM];

/// A signal that asked the program to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupt(i32);

impl Interrupt {
    /// The exit code for it: 128 + N.
    pub fn exit_code(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(u8::MAX)
    }

    /// Its name (SIGINT), or "signal N".
    pub fn name(self) -> String {
        super::signal::signal_name(self.0)
            .map_or_else(|| format!("signal {}", self.0), str::to_owned)
    }
}

struct Handlers {
    wake: std::io::PipeReader,
    flags: Vec<(i32, Arc<AtomicBool>)>,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static HANDLERS: OnceLock<Option<Handlers>> = OnceLock::new();
/// True while no hook runs: a signal then ends the program at once.
static IDLE: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// How many hooks run now (under this lock, [`IDLE`] is kept equal to "none").
static RUNNING: Mutex<usize> = Mutex::new(0);

fn idle_flag() -> &'static Arc<AtomicBool> {
    IDLE.get_or_init(|| Arc::new(AtomicBool::new(true)))
}

/// Asks for the terminating signals to end running hooks instead of the program.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Installs the handlers if [`enable`] was called (once; later calls are free). Should that
/// fail, the signals keep their default action.
pub(crate) fn arm() {
    if ENABLED.load(Ordering::Relaxed) {
        HANDLERS.get_or_init(|| install().ok());
    }
}

/// The self-pipe: a pipe, not a socket pair, which costs a start a third as much. A handler's
/// write never waits: once the pipe is full (a flood of signals, never read), the byte is
/// dropped, and the pipe stays readable.
fn wake_pipe() -> io::Result<(std::io::PipeReader, std::io::PipeWriter)> {
    let (wake, write) = std::io::pipe()?;
    rustix::io::ioctl_fionbio(&write, true)?;
    Ok((wake, write))
}

fn install() -> io::Result<Handlers> {
    let (wake, write) = wake_pipe()?;
    let mut flags = Vec::with_capacity(SIGNALS.len());
    for signal in SIGNALS {
        let flag = Arc::new(AtomicBool::new(false));
        // The flag first, then the wake-up: a woken loop always finds the flag set. With no
        // hook running, the program ends at once instead.
        signal_hook::flag::register(signal, Arc::clone(&flag))?;
        signal_hook::low_level::pipe::register(signal, write.try_clone()?)?;
        signal_hook::flag::register_conditional_shutdown(
            signal,
            128 + signal,
            Arc::clone(idle_flag()),
        )?;
        flags.push((signal, flag));
    }
    Ok(Handlers { wake, flags })
}

/// The signal received so far, if any.
pub(crate) fn received() -> Option<Interrupt> {
    let handlers = HANDLERS.get()?.as_ref()?;
    handlers
        .flags
        .iter()
        .find(|(_, flag)| flag.load(Ordering::SeqCst))
        .map(|(signal, _)| Interrupt(*signal))
}

/// A descriptor that becomes readable, and stays so, once a signal came.
pub(crate) fn wake_fd() -> Option<BorrowedFd<'static>> {
    HANDLERS.get()?.as_ref().map(|h| h.wake.as_fd())
}

/// Marks a stretch during which a signal must not end the program at once (a hook runs and its
/// group must be ended first, or a line of output is half written); it ends when dropped.
#[must_use = "the stretch ends when the guard is dropped"]
pub(crate) struct Busy(());

/// Starts a [`Busy`] stretch.
pub(crate) fn busy() -> Busy {
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    *running += 1;
    idle_flag().store(false, Ordering::SeqCst);
    Busy(())
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        *running = running.saturating_sub(1);
        idle_flag().store(*running == 0, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    /// A flood of signals fills the pipe; the handler's next write fails at once instead of
    /// blocking inside the signal handler.
    #[test]
    fn a_full_wake_pipe_never_blocks_a_write() {
        let (_wake, mut write) = super::wake_pipe().expect("pipe");
        let flags = rustix::fs::fcntl_getfl(&write).expect("flags");
        assert!(flags.contains(rustix::fs::OFlags::NONBLOCK));
        let chunk = [b'X'; 4096];
        let mut written = 0;
        let full = loop {
            match write.write(&chunk) {
                Ok(n) => written += n,
                Err(err) => break err,
            }
            assert!(
                written < 64 << 20,
                "a pipe never filled: the write end blocks or grows"
            );
        };
        assert_eq!(full.kind(), std::io::ErrorKind::WouldBlock);
        assert!(written > 0);
    }
}
