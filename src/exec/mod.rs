//! Running one hook: no shell, its own process group, the payload on stdin, bounded output, and a
//! deadline that ends the whole group. Nothing here interprets the answer (see `response`).

pub mod detach;
mod signal;
pub mod spawn;
mod supervise;

use std::path::Path;
use std::time::{Duration, Instant};

pub use signal::describe_signal;

/// stdout kept from a hook; more makes its answer invalid.
pub const STDOUT_CAP: usize = 1024 * 1024;
/// stderr kept from a hook; the rest is read and dropped.
pub const STDERR_CAP: usize = 64 * 1024;
/// Time between SIGTERM and SIGKILL when a process group is ended.
pub const KILL_GRACE: Duration = Duration::from_secs(1);

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The command line, split like a POSIX shell splits words.
    pub command: &'a str,
    /// The exact argv, when it is known (then `command` is only for messages).
    pub argv: Option<&'a [String]>,
    /// The working directory.
    pub cwd: &'a Path,
    /// Variables added to the inherited environment.
    pub env: &'a [(&'a str, &'a str)],
    /// The payload written to stdin (then stdin is closed).
    pub stdin: &'a [u8],
    /// How long the hook may run.
    pub timeout: Duration,
}

/// How the hook's process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signaled(i32),
    /// It was still running at the deadline; its group was ended.
    TimedOut,
    /// It could not be started; the text says why.
    SpawnFailed(String),
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct Outcome {
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

/// Runs `job` to completion (or to its deadline) and returns what happened. Never panics on a
/// misbehaving hook and never waits past the deadline plus the kill grace (twice, at most, if the
/// hook's group outlives the first grace).
pub fn run(job: &Job<'_>) -> Outcome {
    let started = Instant::now();
    let words = match job.argv {
        Some(argv) if !argv.is_empty() => Ok(argv.to_vec()),
        _ => spawn::split(job.command),
    };
    let child = match words
        .and_then(|words| spawn::build(&words, job.cwd, job.env))
        .and_then(spawn::start)
    {
        Ok(child) => child,
        Err(reason) => {
            return Outcome {
                end: End::SpawnFailed(reason),
                stdout: Vec::new(),
                stdout_overflow: false,
                stderr: Vec::new(),
                elapsed: started.elapsed(),
            };
        }
    };
    let report = supervise::supervise(child, job.stdin, started + job.timeout);
    Outcome {
        end: report.end,
        stdout: report.stdout,
        stdout_overflow: report.stdout_overflow,
        stderr: report.stderr,
        elapsed: started.elapsed(),
    }
}
