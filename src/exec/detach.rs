//! `async` hooks: started detached with the payload on stdin, never waited for, and ended at
//! their deadline by a watchdog process that outlives `run` (the caller's own program, re-run in
//! its watch mode), so nothing is left running past the deadline.

use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

use super::{Job, spawn};

/// How often the watchdog looks whether the group is gone.
const WATCH_TICK: Duration = Duration::from_millis(50);

/// The watchdog to start for a detached hook: `program args... <pgid> <timeout_ms>`.
#[derive(Clone, Copy, Debug)]
pub struct Watchdog<'a> {
    /// The program (for the CLI: its own executable).
    pub program: &'a Path,
    /// Arguments before the process group and the timeout (for the CLI: its hidden subcommand).
    pub args: &'a [&'a str],
}

/// Starts `job` detached in its own process group, with a watchdog that ends the group at the
/// deadline. Returns the hook's pid. Without a watchdog the hook is ended at once and the start
/// counts as failed: nothing may outlive its deadline.
pub(crate) fn start(job: &Job<'_>, watchdog: &Watchdog<'_>) -> Result<u32, String> {
    // A signal between the two starts must not leave the hook without its watchdog.
    let _busy = crate::ground::interrupt::busy();
    let words = match job.argv {
        Some(argv) if !argv.is_empty() => argv.to_vec(),
        _ => spawn::split(job.command)?,
    };
    let mut cmd = spawn::build(&words, job.cwd, job.env)?;
    let stdin = job
        .stdin
        .to_file()
        .map_err(|err| format!("cannot hold the payload: {err}"))?;
    cmd.stdin(Stdio::from(stdin))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = spawn::start(cmd)?;
    let pid = child.id();
    let started = Command::new(watchdog.program)
        .args(watchdog.args)
        .arg(pid.to_string())
        .arg(job.timeout.as_millis().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    if let Err(err) = started {
        let _ = kill_process_group(Pid::from_child(&child), Signal::KILL);
        return Err(format!("cannot start the watchdog of an async hook: {err}"));
    }
    Ok(pid)
}

/// The watchdog's work: wait until `timeout` has passed or the group is gone; then TERM the
/// group, give it the grace, and KILL what is left. `pgid` must name a process group other than
/// the watchdog's own, above 1 (0, 1 and negative numbers would reach far more than one group);
/// anything else is refused (`false`).
pub(crate) fn watch(pgid: &str, timeout: Duration) -> bool {
    let Some(group) = super::guard::valid_group(pgid, rustix::process::getpgrp()) else {
        return false;
    };
    let gone = || test_kill_process_group(group).is_err();
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if gone() {
            return true;
        }
        std::thread::sleep(WATCH_TICK.min(deadline.saturating_duration_since(Instant::now())));
    }
    super::guard::end_groups(&[group]);
    true
}
