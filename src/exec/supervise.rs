//! Watching a started hook from one thread: feed stdin, drain stdout and stderr (capped), notice
//! the exit (a pidfd on Linux, a short backing-off tick elsewhere), enforce the deadline, and end
//! whatever is left of the hook's process group.
//!
//! With a pidfd, the output pipes start quiet: they are made large and looked into on a slow
//! tick, not waited on, so a hook that writes a little and exits wakes this process once (at
//! its exit) instead of at each write and at each pipe's close. A pipe found with anything in
//! it is waited on from then on, as it is where there is no pidfd.

use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::ExitStatusExt as _;
use std::process::{Child, ChildStderr, ChildStdout, ExitStatus};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

use super::{End, KILL_GRACE, STDERR_CAP, STDOUT_CAP, guard, interrupt};

/// Reads per wake-up before the deadline is looked at again (a flooding hook cannot starve it).
const READS_PER_WAKE: usize = 16;
/// Bytes per `read`: small enough that zeroing the buffer costs no page faults a trivial hook
/// would notice, large enough that a flood takes few calls per wake-up.
const READ_CHUNK: usize = 8 * 1024;
/// Longest sleep between exit checks where there is no `pidfd`.
const MAX_TICK: Duration = Duration::from_millis(25);
/// The size asked for a quiet pipe: all of what stdout may hold, so a hook writing its answer
/// never waits for this process (the kernel may give less; the tick then finds it full).
const QUIET_PIPE: usize = super::STDOUT_CAP;
/// The first look into quiet pipes after the start, and the longest time between two looks.
const FIRST_LOOK: Duration = Duration::from_millis(5);
const LAST_LOOK: Duration = Duration::from_millis(100);
/// Poll interval while waiting for a group sent SIGTERM to go away.
const GROUP_TICK: Duration = Duration::from_millis(10);

/// What the supervision saw.
pub(super) struct Report {
    pub(super) end: End,
    pub(super) stdout: Vec<u8>,
    pub(super) stdout_overflow: bool,
    pub(super) stderr: Vec<u8>,
}

/// Watches `child` until it ends or `deadline` passes, then makes sure its group is gone, feeding
/// its stdin what did not fit in the pipe before the start. From `guard_at` on (if the
/// hook still runs then), the guard watches the group too, in case this program is killed
/// outright.
pub(super) fn supervise(
    mut child: Child,
    stdin: Feeder<'_>,
    deadline: Instant,
    guard_at: Option<Instant>,
) -> Report {
    let pid = Pid::from_child(&child);
    let pidfd = open_pidfd(pid);
    let quiet = pidfd.is_some();
    let mut watch = Watch {
        guard_at,
        guarded: false,
        pidfd,
        pid,
        stdin,
        out: Capture::new(child.stdout.take(), STDOUT_CAP, quiet),
        err: Capture::new(child.stderr.take(), STDERR_CAP, quiet),
        buf: vec![0; READ_CHUNK],
        look: (Instant::now() + FIRST_LOOK, FIRST_LOOK),
        child,
    };
    let end = match watch.pump_until(deadline, true) {
        Pumped::Exited(status) => {
            watch.end_leftovers();
            end_of(status)
        }
        Pumped::Deadline => {
            watch.end_after_deadline();
            End::TimedOut
        }
        Pumped::Interrupted => {
            watch.end_after_deadline();
            End::Interrupted
        }
    };
    if watch.guarded {
        guard::release(pid);
    }
    // Whatever is still buffered in the pipes, without waiting for writers outside the group.
    watch.out.drain_all(&mut watch.buf);
    watch.err.drain_all(&mut watch.buf);
    Report {
        end,
        stdout: watch.out.kept,
        stdout_overflow: watch.out.overflow,
        stderr: watch.err.kept,
    }
}

fn end_of(status: ExitStatus) -> End {
    match (status.code(), status.signal()) {
        (Some(code), _) => End::Exited(code),
        (None, Some(signal)) => End::Signaled(signal),
        (None, None) => End::Exited(-1),
    }
}

#[cfg(target_os = "linux")]
fn open_pidfd(pid: Pid) -> Option<OwnedFd> {
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(target_os = "linux"))]
fn open_pidfd(_: Pid) -> Option<OwnedFd> {
    None
}

/// Asks for a pipe of [`QUIET_PIPE`] bytes. Refused (a limit on pipe memory), the tick finds the
/// pipe full all the same.
#[cfg(target_os = "linux")]
fn enlarge(pipe: &impl AsFd) {
    let _ = rustix::pipe::fcntl_setpipe_size(pipe, QUIET_PIPE);
}

/// Pipes keep their size here (quiet pipes are Linux's: they need a pidfd).
#[cfg(not(target_os = "linux"))]
fn enlarge(_: &impl AsFd) {}

struct Watch<'a> {
    /// When to hand the group to the guard, if not yet done.
    guard_at: Option<Instant>,
    /// The guard has the group.
    guarded: bool,
    child: Child,
    pid: Pid,
    pidfd: Option<OwnedFd>,
    stdin: Feeder<'a>,
    out: Capture<ChildStdout>,
    err: Capture<ChildStderr>,
    buf: Vec<u8>,
    /// When to look into the quiet pipes next, and the step after that.
    look: (Instant, Duration),
}

/// A descriptor to watch, what to wait for, and which it is.
type Watched<'a> = (Option<BorrowedFd<'a>>, PollFlags, Source);

/// What a watched descriptor is. The pidfd and the interrupt's wake-up only wake the loop
/// (which then reaps, or stops), so their readiness is not recorded.
#[derive(Clone, Copy)]
enum Source {
    Stdin,
    Stdout,
    Stderr,
    Exit,
    Wake,
}

/// Which watched descriptors are ready.
#[derive(Default)]
struct Ready {
    stdin: bool,
    stdout: bool,
    stderr: bool,
}

/// Why [`Watch::pump_until`] returned.
enum Pumped {
    /// The main process exited.
    Exited(ExitStatus),
    /// The time was up.
    Deadline,
    /// SIGINT or SIGTERM came (see [`interrupt`]).
    Interrupted,
}

impl Watch<'_> {
    /// Moves data until the hook's main process exits, `until` passes, or (when `interruptible`)
    /// the program is asked to stop.
    fn pump_until(&mut self, until: Instant, interruptible: bool) -> Pumped {
        let mut tick = Duration::from_millis(1);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Pumped::Exited(status);
            }
            if interruptible && interrupt::received().is_some() {
                return Pumped::Interrupted;
            }
            let now = Instant::now();
            if now >= until {
                return Pumped::Deadline;
            }
            let mut wait = until - now;
            if let Some(at) = self.guard_at {
                if now >= at {
                    self.guard_at = None;
                    self.guarded = guard::watch(self.pid);
                } else {
                    wait = wait.min(at - now);
                }
            }
            if self.pidfd.is_none() {
                wait = wait.min(tick);
                tick = (tick * 2).min(MAX_TICK);
            }
            if !(self.out.watched && self.err.watched) {
                if now >= self.look.0 {
                    self.look_into_quiet_pipes(now);
                }
                wait = wait.min(self.look.0.saturating_duration_since(now));
            }
            let ready = self.poll(wait, true, interruptible);
            if ready.stdin {
                self.stdin.feed();
            }
            if ready.stdout {
                self.out.drain(&mut self.buf);
            }
            if ready.stderr {
                self.err.drain(&mut self.buf);
            }
        }
    }

    /// Reads what the quiet pipes hold; one that held anything is waited on from now on.
    fn look_into_quiet_pipes(&mut self, now: Instant) {
        self.out.look(&mut self.buf);
        self.err.look(&mut self.buf);
        let step = self.look.1;
        self.look = (now + step, (step * 2).min(LAST_LOOK));
    }

    /// The main process exited in time: end anything still running in its group (TERM, grace,
    /// KILL), reading the pipes meanwhile so nothing blocks on a full pipe.
    fn end_leftovers(&mut self) {
        self.stdin.close();
        if kill_process_group(self.pid, Signal::TERM).is_err() {
            return; // nothing left in the group
        }
        let until = Instant::now() + KILL_GRACE;
        while Instant::now() < until {
            if test_kill_process_group(self.pid).is_err() {
                return;
            }
            self.poll_pipes(GROUP_TICK);
        }
        let _ = kill_process_group(self.pid, Signal::KILL);
    }

    /// The deadline passed with the main process still running: TERM the group, give it the
    /// grace to exit, then KILL the group and reap.
    fn end_after_deadline(&mut self) {
        self.stdin.close();
        self.out.watched = true;
        self.err.watched = true;
        let _ = kill_process_group(self.pid, Signal::TERM);
        if !matches!(
            self.pump_until(Instant::now() + KILL_GRACE, false),
            Pumped::Exited(_)
        ) {
            let _ = kill_process_group(self.pid, Signal::KILL);
            let _ = self.child.wait();
        }
        // Members that ignored TERM have had their grace.
        let _ = kill_process_group(self.pid, Signal::KILL);
    }

    fn poll_pipes(&mut self, wait: Duration) {
        let ready = self.poll(wait, false, false);
        if ready.stdout {
            self.out.drain(&mut self.buf);
        }
        if ready.stderr {
            self.err.drain(&mut self.buf);
        }
    }

    /// One `poll` over the open descriptors (and the pidfd when `exit` is wanted, and the
    /// interrupt's wake-up when `wake` is). While the main process runs (`exit`), quiet pipes
    /// are left out.
    fn poll(&self, wait: Duration, exit: bool, wake: bool) -> Ready {
        let pidfd = if exit {
            self.pidfd.as_ref().map(AsFd::as_fd)
        } else {
            None
        };
        let wake = if wake { interrupt::wake_fd() } else { None };
        let candidates: [Watched<'_>; 5] = [
            (self.stdin.fd(), PollFlags::OUT, Source::Stdin),
            (self.out.fd_to_wait_on(exit), PollFlags::IN, Source::Stdout),
            (self.err.fd_to_wait_on(exit), PollFlags::IN, Source::Stderr),
            (pidfd, PollFlags::IN, Source::Exit),
            (wake, PollFlags::IN, Source::Wake),
        ];
        let mut fds = Vec::with_capacity(candidates.len());
        let mut slots = Vec::with_capacity(candidates.len());
        for (fd, flags, source) in candidates {
            if let Some(fd) = fd {
                fds.push(PollFd::from_borrowed_fd(fd, flags));
                slots.push(source);
            }
        }
        let mut ready = Ready::default();
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => {
                for (fd, source) in fds.iter().zip(&slots) {
                    if !fd.revents().is_empty() {
                        match source {
                            Source::Stdin => ready.stdin = true,
                            Source::Stdout => ready.stdout = true,
                            Source::Stderr => ready.stderr = true,
                            Source::Exit | Source::Wake => {}
                        }
                    }
                }
            }
            Err(rustix::io::Errno::INTR) => {}
            // Should poll itself fail, back off rather than spin until the deadline.
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
        ready
    }
}

/// Writes the payload to the hook's stdin as fast as it reads, then closes it: what the pipe
/// takes at once when made (before the start), the rest as the hook reads. A hook that exits or
/// closes stdin early is fine: the rest is dropped.
pub(super) struct Feeder<'a> {
    pipe: Option<io::PipeWriter>,
    data: &'a [u8],
    written: usize,
}

impl<'a> Feeder<'a> {
    pub(super) fn new(pipe: Option<io::PipeWriter>, data: &'a [u8]) -> Self {
        let pipe = pipe.filter(|p| !data.is_empty() && rustix::io::ioctl_fionbio(p, true).is_ok());
        let mut feeder = Self {
            pipe,
            data,
            written: 0,
        };
        feeder.feed();
        feeder
    }

    fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.pipe.as_ref().map(AsFd::as_fd)
    }

    fn feed(&mut self) {
        while let Some(pipe) = self.pipe.as_mut() {
            match pipe.write(&self.data[self.written..]) {
                Ok(n) => {
                    self.written += n;
                    if n == 0 || self.written == self.data.len() {
                        self.close();
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => self.close(), // EPIPE: the hook does not want the rest
            }
        }
    }

    fn close(&mut self) {
        self.pipe = None;
    }
}

/// Keeps the first `cap` bytes of a stream and drops the rest, reading without blocking.
struct Capture<R> {
    pipe: Option<R>,
    kept: Vec<u8>,
    cap: usize,
    overflow: bool,
    /// The loop waits on this pipe's readiness (else it is quiet: looked into on a tick).
    watched: bool,
}

impl<R: Read + AsFd> Capture<R> {
    /// `quiet`: the pipe is made as large as the kernel allows up to [`QUIET_PIPE`] and is not
    /// waited on until it holds something.
    fn new(pipe: Option<R>, cap: usize, quiet: bool) -> Self {
        let pipe = pipe.filter(|p| rustix::io::ioctl_fionbio(p, true).is_ok());
        if let Some(pipe) = pipe.as_ref().filter(|_| quiet) {
            enlarge(pipe);
        }
        Self {
            pipe,
            kept: Vec::new(),
            cap,
            overflow: false,
            watched: !quiet,
        }
    }

    fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.pipe.as_ref().map(AsFd::as_fd)
    }

    /// The pipe, when the main loop (`running`) waits on it, or always once the hook exited.
    fn fd_to_wait_on(&self, running: bool) -> Option<BorrowedFd<'_>> {
        if running && !self.watched {
            return None;
        }
        self.fd()
    }

    /// Reads what is available now (a bounded amount); closes the pipe at end of file. Returns
    /// whether anything was read.
    fn drain(&mut self, buf: &mut [u8]) -> bool {
        self.drain_reads(buf, READS_PER_WAKE)
    }

    /// Reads all the pipe holds (bounded by what a quiet pipe can hold), as the hook is gone.
    fn drain_all(&mut self, buf: &mut [u8]) {
        self.drain_reads(buf, QUIET_PIPE / READ_CHUNK + READS_PER_WAKE);
    }

    /// Reads a quiet pipe; one that held anything (or ended) is waited on from now on.
    fn look(&mut self, buf: &mut [u8]) {
        if !self.watched && (self.drain(buf) || self.pipe.is_none()) {
            self.watched = true;
        }
    }

    fn drain_reads(&mut self, buf: &mut [u8], reads: usize) -> bool {
        let mut read = false;
        for _ in 0..reads {
            let Some(pipe) = self.pipe.as_mut() else {
                break;
            };
            match pipe.read(buf) {
                Ok(0) => self.pipe = None,
                Ok(n) => {
                    read = true;
                    let take = n.min(self.cap - self.kept.len());
                    self.kept.extend_from_slice(&buf[..take]);
                    self.overflow |= take < n;
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => self.pipe = None,
            }
        }
        read
    }
}
