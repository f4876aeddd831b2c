//! SIGINT and SIGTERM to a command that runs hooks: the hooks' process groups are ended, the exit
//! code is 130 or 143, and stdout stays empty (never half an answer).

use std::io::Read as _;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};

use crate::common::{PROMPTLY, TestEnv, await_pid, wait_gone};

/// A hook that records its pid in `pid_file`, ignores SIGTERM and sleeps "forever".
fn stubborn(env: &TestEnv, name: &str) -> String {
    let pid_file = env.path(&format!("{name}.pid"));
    env.script(
        &format!("{name}.sh"),
        &format!(
            "trap '' TERM\necho $$ > '{}'\nsleep 1000",
            pid_file.display()
        ),
    )
    .display()
    .to_string()
}

/// Starts `args` with the payload `{}` on stdin (closed at once), stdout and stderr piped.
fn start(env: &TestEnv, args: &[&str]) -> Child {
    let mut child = env
        .std_cmd()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    child
}

/// Sends `signal` to `child` and returns its exit code, stdout and stderr.
fn signal_and_wait(child: &mut Child, signal: Signal) -> (i32, String, String) {
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    kill_process(pid, signal).unwrap();
    let until = Instant::now() + PROMPTLY;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < until, "the command did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code().unwrap_or(-1), out, err)
}

#[test]
fn sigint_during_a_gating_hook_ends_its_group_and_exits_130_with_no_answer() {
    let env = TestEnv::new();
    let hook = stubborn(&env, "guard");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {hook}\n      timeout: 300\n"
    ));
    env.approve("pre_tool_call", &hook);
    let mut child = start(&env, &["run", "pre_tool_call"]);
    let pid = await_pid(&env.path("guard.pid"), PROMPTLY);
    let (code, out, err) = signal_and_wait(&mut child, Signal::INT);
    assert_eq!(code, 130, "{err}");
    assert_eq!(out, "", "no half answer on stdout");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    assert!(wait_gone(pid), "the hook, deaf to SIGTERM, was killed");
}

#[test]
fn sigterm_during_concurrent_observers_ends_every_group_and_exits_143() {
    let env = TestEnv::new();
    let hooks: Vec<String> = ["a", "b", "c"].iter().map(|n| stubborn(&env, n)).collect();
    let entries = hooks
        .iter()
        .map(|hook| format!("    - command: {hook}\n      timeout: 300\n"))
        .collect::<Vec<_>>()
        .concat();
    env.config(&format!("hooks:\n  on_session_end:\n{entries}"));
    for hook in &hooks {
        env.approve("on_session_end", hook);
    }
    let mut child = start(&env, &["run", "on_session_end"]);
    let pids: Vec<i32> = ["a", "b", "c"]
        .iter()
        .map(|n| await_pid(&env.path(&format!("{n}.pid")), PROMPTLY))
        .collect();
    let (code, out, err) = signal_and_wait(&mut child, Signal::TERM);
    assert_eq!(code, 143, "{err}");
    assert_eq!(out, "");
    for pid in pids {
        assert!(wait_gone(pid), "hook {pid} is gone");
    }
}

#[test]
fn sigint_during_test_exits_130_too() {
    let env = TestEnv::new();
    let hook = stubborn(&env, "slow");
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {hook}\n      timeout: 300\n"
    ));
    env.approve("on_session_start", &hook);
    let mut child = start(&env, &["test", "on_session_start", "--json"]);
    let pid = await_pid(&env.path("slow.pid"), PROMPTLY);
    let (code, out, err) = signal_and_wait(&mut child, Signal::INT);
    assert_eq!(code, 130, "{err}");
    assert_eq!(out, "");
    assert!(wait_gone(pid));
}
