//! Running one hook: no shell, its own process group, the payload on stdin, bounded output, and a
//! deadline that ends the whole group. Nothing here interprets the answer (see `response`).

pub(crate) mod detach;
pub(crate) mod guard;
pub(crate) mod spawn;
mod supervise;

use std::fs::File;
use std::io::{self, Seek as _, Write};
use std::path::Path;

use crate::ground::interrupt;
use std::process::Stdio;
use std::time::{Duration, Instant};

pub(crate) use crate::ground::signal::describe_signal;

/// stdout kept from a hook; more makes its answer invalid.
pub(crate) const STDOUT_CAP: usize = 1024 * 1024;
/// stderr kept from a hook; the rest is read and dropped.
pub(crate) const STDERR_CAP: usize = 64 * 1024;
/// Time between SIGTERM and SIGKILL when a process group is ended.
pub(crate) const KILL_GRACE: Duration = Duration::from_secs(1);

/// Payloads up to this size are fed through a pipe from memory; larger ones are spooled to an
/// anonymous temporary file that becomes the hook's stdin, so `run` never holds them twice.
pub const SPOOL_LIMIT: usize = 256 * 1024;

/// A hook's stdin.
#[derive(Debug)]
pub(crate) enum Input {
    /// Fed through a pipe, then the pipe is closed.
    Bytes(Vec<u8>),
    /// An anonymous file, read from its start (a large payload, off the heap).
    File(File),
}

impl Input {
    /// Collects what `write` writes: in memory up to [`SPOOL_LIMIT`], else in an anonymous
    /// temporary file.
    pub(crate) fn spool(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<Self> {
        let mut spool = io::BufWriter::new(tempfile::SpooledTempFile::new(SPOOL_LIMIT));
        write(&mut spool)?;
        Ok(match spool.into_inner()?.into_inner() {
            tempfile::SpooledData::InMemory(cursor) => Self::Bytes(cursor.into_inner()),
            tempfile::SpooledData::OnDisk(mut file) => {
                file.rewind()?;
                Self::File(file)
            }
        })
    }

    /// An anonymous file with the payload at offset 0 (for a detached hook, which nobody feeds).
    fn to_file(&self) -> io::Result<File> {
        match self {
            Self::Bytes(bytes) => {
                let mut file = tempfile::tempfile()?;
                file.write_all(bytes)?;
                file.rewind()?;
                Ok(file)
            }
            Self::File(file) => {
                let mut file = file.try_clone()?;
                file.rewind()?;
                Ok(file)
            }
        }
    }

    /// The child's stdin, and its feeder. A payload that fits in the pipe is written before the
    /// start, so the hook reads it at once, however late this process is scheduled again; only
    /// the rest (if any) is fed as the hook reads.
    fn stdio(&self) -> io::Result<(Stdio, supervise::Feeder<'_>)> {
        match self {
            Self::Bytes(bytes) => {
                let (read, write) = io::pipe()?;
                Ok((
                    Stdio::from(read),
                    supervise::Feeder::new(Some(write), bytes),
                ))
            }
            Self::File(_) => Ok((
                Stdio::from(self.to_file()?),
                supervise::Feeder::new(None, &[]),
            )),
        }
    }
}

/// What to run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job<'a> {
    /// The command line, split like a POSIX shell splits words.
    pub command: &'a str,
    /// The exact argv, when it is known (then `command` is only for messages).
    pub argv: Option<&'a [String]>,
    /// The working directory.
    pub cwd: &'a Path,
    /// Variables added to the inherited environment.
    pub env: &'a [(&'a str, &'a str)],
    /// The payload on stdin.
    pub stdin: &'a Input,
    /// How long the hook may run.
    pub timeout: Duration,
}

/// How the hook's process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signaled(i32),
    /// It was still running at the deadline; its group was ended.
    TimedOut,
    /// It could not be started; the text says why.
    SpawnFailed(String),
    /// SIGINT or SIGTERM came while it ran; its group was ended.
    Interrupted,
}

/// What one run produced.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// How it ended.
    pub end: End,
    /// The first [`STDOUT_CAP`] bytes of stdout.
    pub stdout: Vec<u8>,
    /// stdout was longer than [`STDOUT_CAP`].
    pub stdout_overflow: bool,
    /// The first [`STDERR_CAP`] bytes of stderr.
    pub stderr: Vec<u8>,
    /// From spawn until the process and its group were gone.
    pub elapsed: Duration,
}

impl Outcome {
    /// A hook that could not be started, for `reason`.
    pub(crate) fn not_started(reason: String) -> Self {
        Self {
            end: End::SpawnFailed(reason),
            stdout: Vec::new(),
            stdout_overflow: false,
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// Runs `job` to completion (or to its deadline) and returns what happened. Never panics on a
/// misbehaving hook and never waits past the deadline plus the kill grace (twice, at most, if the
/// hook's group outlives the first grace).
pub(crate) fn run(job: &Job<'_>) -> Outcome {
    interrupt::arm();
    if interrupt::received().is_some() {
        return Outcome {
            end: End::Interrupted,
            ..Outcome::not_started(String::new())
        };
    }
    // From the spawn until the group is gone, a signal must end the group before the program.
    let _busy = interrupt::busy();
    let started = Instant::now();
    let words = match job.argv {
        Some(argv) if !argv.is_empty() => Ok(argv.to_vec()),
        _ => spawn::split(job.command),
    };
    let (child, feed) = match words
        .and_then(|words| spawn::build(&words, job.cwd, job.env))
        .and_then(|mut cmd| {
            let (stdio, feed) = job
                .stdin
                .stdio()
                .map_err(|err| format!("cannot hold the payload: {err}"))?;
            cmd.stdin(stdio);
            spawn::start(cmd).map(|child| (child, feed))
        }) {
        Ok(started_child) => started_child,
        Err(reason) => {
            return Outcome {
                elapsed: started.elapsed(),
                ..Outcome::not_started(reason)
            };
        }
    };
    let guard_at = guard::enabled().then(|| started + guard::GUARD_AFTER);
    let report = supervise::supervise(child, feed, started + job.timeout, guard_at);
    Outcome {
        end: report.end,
        stdout: report.stdout,
        stdout_overflow: report.stdout_overflow,
        stderr: report.stderr,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Input, SPOOL_LIMIT};
    use std::io::Read as _;

    #[test]
    fn small_payloads_stay_in_memory_large_ones_go_to_a_file() {
        let small = Input::spool(|out| out.write_all(b"{}")).unwrap();
        assert!(matches!(&small, Input::Bytes(bytes) if bytes == b"{}"));
        let big = vec![b'x'; SPOOL_LIMIT + 1];
        let spooled = Input::spool(|out| out.write_all(&big)).unwrap();
        assert!(matches!(spooled, Input::File(_)));
        let mut read = Vec::new();
        spooled.to_file().unwrap().read_to_end(&mut read).unwrap();
        assert_eq!(read, big, "the file is read from its start");
        let mut again = Vec::new();
        spooled.to_file().unwrap().read_to_end(&mut again).unwrap();
        assert_eq!(again, big, "and again for the next reader");
    }
}
