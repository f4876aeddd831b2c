//! Pinning a bench and the servers it asks to one CPU, so a round trip times the work and the
//! pipes, not the wake-up of an idle CPU.

/// Runs `body` with this process and the processes `pids` on one CPU (the first this process
/// may use), then gives them all the CPUs this process had. A round trip between two processes
/// on two CPUs also pays the wake-up of an idle CPU, which a virtual machine that halts idle CPUs
/// makes cost tens of microseconds, as long as the work itself; on one CPU the figure is the
/// server's work and the two pipes. The flag says whether all were pinned.
pub(crate) fn on_one_cpu<T>(pids: &[u32], body: impl FnOnce() -> T) -> (T, bool) {
    use rustix::process::Pid;
    use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
    let Ok(mine) = sched_getaffinity(None) else {
        return (body(), false);
    };
    let Some(first) = (0..CpuSet::MAX_CPU).find(|&cpu| mine.is_set(cpu)) else {
        return (body(), false);
    };
    let mut one = CpuSet::new();
    one.set(first);
    let servers: Vec<Option<Pid>> = pids
        .iter()
        .map(|pid| i32::try_from(*pid).ok().and_then(Pid::from_raw))
        .collect();
    let mut pinned = sched_setaffinity(None, &one).is_ok();
    for server in &servers {
        pinned &= server.is_some_and(|server| sched_setaffinity(Some(server), &one).is_ok());
    }
    let result = body();
    let _ = sched_setaffinity(None, &mine);
    for server in servers.into_iter().flatten() {
        let _ = sched_setaffinity(Some(server), &mine);
    }
    (result, pinned)
}
