//! The guard: a process of its own that ends the hooks' process groups should this program be
//! killed outright (SIGKILL cannot be caught, and an agent that times out does exactly that).
//! It is started once a hook has run for [`GUARD_AFTER`] (quick hooks never pay for it), in its
//! own process group, and is told over a pipe which groups to end (`+PGID`) and which are gone
//! (`-PGID`). When the pipe closes, because this program ended however it ended, the guard ends
//! every group still on its list (TERM, the grace, KILL) and exits.
//!
//! Without a guard (not enabled, or it could not start) a killed program leaves its hooks to end
//! by themselves; `run`'s own deadlines still hold as long as it lives.

use std::collections::BTreeSet;
use std::io::PipeWriter;
use std::io::{self, BufRead as _, Write as _};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

use super::KILL_GRACE;

/// How long a hook runs before the guard watches its group.
pub(crate) const GUARD_AFTER: Duration = Duration::from_millis(100);

/// The arguments that turn this program into the guard (set by [`enable`]).
static ARGS: OnceLock<Vec<String>> = OnceLock::new();
/// The pipe to the running guard, once started.
static PIPE: Mutex<Option<PipeWriter>> = Mutex::new(None);

/// Asks for a guard: this program's own executable, run with `args`, serves as one (see
/// [`serve`]).
pub(crate) fn enable(args: &[&str]) {
    let _ = ARGS.set(args.iter().map(|a| (*a).to_owned()).collect());
}

/// Whether a guard was asked for.
pub(super) fn enabled() -> bool {
    ARGS.get().is_some()
}

/// Puts `group` on the guard's list, starting the guard first if need be. Returns whether the
/// guard has it.
pub(super) fn watch(group: Pid) -> bool {
    let line = format!("+{}\n", group.as_raw_nonzero());
    let mut pipe = PIPE.lock().unwrap_or_else(PoisonError::into_inner);
    if pipe.is_none() {
        // The first group is in the pipe before the guard exists: there is no moment when a
        // guard runs without knowing it.
        *pipe = start(&line).ok();
        return pipe.is_some();
    }
    tell(&mut pipe, &line)
}

/// Takes `group` off the guard's list (it is gone).
pub(super) fn release(group: Pid) {
    let mut pipe = PIPE.lock().unwrap_or_else(PoisonError::into_inner);
    tell(&mut pipe, &format!("-{}\n", group.as_raw_nonzero()));
}

/// Writes one line to the guard without ever blocking; a guard that is gone or stuck is
/// dropped (and started anew for the next hook that needs one).
fn tell(pipe: &mut Option<PipeWriter>, line: &str) -> bool {
    let Some(writer) = pipe.as_mut() else {
        return false;
    };
    if writer.write_all(line.as_bytes()).is_ok() {
        return true;
    }
    *pipe = None;
    false
}

/// Starts the guard with `first` already written into its pipe.
fn start(first: &str) -> io::Result<PipeWriter> {
    let args = ARGS.get().ok_or_else(|| io::Error::other("no guard"))?;
    let (reader, mut writer) = io::pipe()?;
    writer.write_all(first.as_bytes())?;
    let child = Command::new(std::env::current_exe()?)
        .args(args)
        .stdin(reader)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    rustix::io::ioctl_fionbio(&writer, true)?;
    // The guard outlives this program by design; it is not waited for.
    drop(child);
    Ok(writer)
}

/// The guard's work: read `+PGID` and `-PGID` lines from stdin until it closes, then end every
/// group still listed. Only real process groups other than its own are ever signalled (never 0,
/// 1, or a negative number, which would reach far more than one group).
pub(crate) fn serve() {
    let own = rustix::process::getpgrp();
    let mut groups = BTreeSet::new();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (add, number) = match line.split_at_checked(1) {
            Some(("+", number)) => (true, number),
            Some(("-", number)) => (false, number),
            _ => continue,
        };
        let Some(group) = valid_group(number, own) else {
            continue;
        };
        if add {
            groups.insert(group.as_raw_nonzero());
        } else {
            groups.remove(&group.as_raw_nonzero());
        }
    }
    let groups: Vec<Pid> = groups
        .into_iter()
        .filter_map(|raw| Pid::from_raw(raw.get()))
        .collect();
    end_groups(&groups);
}

/// `number` as a process group this program may signal: above 1 and not its own group.
pub(crate) fn valid_group(number: &str, own: Pid) -> Option<Pid> {
    let raw: i32 = number.trim().parse().ok().filter(|raw| *raw > 1)?;
    let group = Pid::from_raw(raw)?;
    (group != own).then_some(group)
}

/// TERM to each group, the grace for all of them, then KILL to what is left.
pub(super) fn end_groups(groups: &[Pid]) {
    for group in groups {
        let _ = kill_process_group(*group, Signal::TERM);
    }
    let until = Instant::now() + KILL_GRACE;
    while Instant::now() < until
        && groups
            .iter()
            .any(|group| test_kill_process_group(*group).is_ok())
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    for group in groups {
        let _ = kill_process_group(*group, Signal::KILL);
    }
}

#[cfg(test)]
mod tests {
    use super::valid_group;
    use rustix::process::Pid;

    #[test]
    fn only_real_groups_other_than_its_own() {
        let own = Pid::from_raw(4242).unwrap();
        assert_eq!(valid_group("1234", own), Pid::from_raw(1234));
        for bad in ["0", "1", "-1", "-5", "4242", "x", "", "99999999999"] {
            assert_eq!(valid_group(bad, own), None, "{bad}");
        }
    }
}
