//! Ctrl-C (SIGINT) and SIGTERM while hooks run. A program opts in with [`enable`]; the handlers
//! are installed when the first hook starts, so a call that runs nothing pays nothing. A signal
//! sets a flag and makes a self-pipe readable for good, which wakes every supervision loop at
//! once; each ends its hook's process group, and the caller exits 130 or 143.

use std::io;
use std::os::fd::{AsFd as _, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};

/// Which signal asked the program to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// SIGINT (Ctrl-C): exit 130.
    Int,
    /// SIGTERM: exit 143.
    Term,
}

struct Handlers {
    wake: UnixStream,
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static HANDLERS: OnceLock<Option<Handlers>> = OnceLock::new();

/// Asks for SIGINT and SIGTERM to end running hooks instead of the program.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Installs the handlers if [`enable`] was called (once; later calls are free). Should that
/// fail, the signals keep their default action.
pub(super) fn arm() {
    if ENABLED.load(Ordering::Relaxed) {
        HANDLERS.get_or_init(|| install().ok());
    }
}

fn install() -> io::Result<Handlers> {
    let (wake, write) = UnixStream::pair()?;
    write.set_nonblocking(true)?;
    let int = Arc::new(AtomicBool::new(false));
    let term = Arc::new(AtomicBool::new(false));
    // The flag first, then the wake-up: a woken loop always finds the flag set.
    signal_hook::flag::register(SIGINT, Arc::clone(&int))?;
    signal_hook::flag::register(SIGTERM, Arc::clone(&term))?;
    signal_hook::low_level::pipe::register(SIGINT, write.try_clone()?)?;
    signal_hook::low_level::pipe::register(SIGTERM, write)?;
    Ok(Handlers { wake, int, term })
}

/// The signal received so far, if any (SIGINT wins when both came).
pub fn received() -> Option<Interrupt> {
    let handlers = HANDLERS.get()?.as_ref()?;
    if handlers.int.load(Ordering::SeqCst) {
        Some(Interrupt::Int)
    } else if handlers.term.load(Ordering::SeqCst) {
        Some(Interrupt::Term)
    } else {
        None
    }
}

/// A descriptor that becomes readable, and stays so, once a signal came.
pub(super) fn wake_fd() -> Option<BorrowedFd<'static>> {
    HANDLERS.get()?.as_ref().map(|h| h.wake.as_fd())
}
