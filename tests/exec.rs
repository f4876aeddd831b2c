//! Execution under hostile hooks: no shell, `~` expansion, own process group, a deadline that
//! ends the whole group, bounded output, broken pipes, bad bytes, signals, missing programs.

use std::fs;
use std::time::Instant;

use serde_json::Value;

use crate::common::{PROMPTLY, TestEnv, alive, code, json, read_pid, stderr, wait_gone};

/// One hook on `event` running `body`, approved; returns the run's line.
fn run_hook(env: &TestEnv, event: &str, body: &str, extra: &str, payload: &str) -> Value {
    let hook = env.script("hook.sh", body).display().to_string();
    env.config(&format!(
        "hooks:\n  {event}:\n    - command: {hook}\n{extra}"
    ));
    env.approve(event, &hook);
    let out = env.run(event, payload);
    let line = json(&out);
    assert!(matches!(code(&out), 0 | 2), "{}", stderr(&out));
    line["hooks"][0].clone()
}

#[test]
fn no_shell_ever() {
    let env = TestEnv::new();
    let args = env.path("args.txt").display().to_string();
    let hook = env.script(
        "args.sh",
        &format!("for a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{args}'"),
    );
    let pwned = env.path("pwned");
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: \"{} 'a;b' $HOME `id` ; touch {}\"\n",
        hook.display(),
        pwned.display()
    ));
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&args).unwrap(),
        format!("a;b\n$HOME\n`id`\n;\ntouch\n{}\n", pwned.display())
    );
    assert!(!pwned.exists());
}

#[test]
fn tilde_expands_to_home() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    fs::write(
        env.home().join("home-hook.sh"),
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    fs::set_permissions(
        env.home().join("home-hook.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    env.config("hooks:\n  on_session_start:\n    - command: ~/home-hook.sh\n");
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["hooks"][0]["status"], "ok", "{}", stderr(&out));
    assert!(marker.exists());
    assert_eq!(env.approvals()[0]["command"], "~/home-hook.sh");
    assert_eq!(
        env.approvals()[0]["script"],
        env.home().join("home-hook.sh").display().to_string()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn runs_in_its_own_process_group() {
    let env = TestEnv::new();
    let ids = env.path("ids").display().to_string();
    // Fields 1 and 5 of /proc/self/stat are the pid and the process group.
    let hook = run_hook(
        &env,
        "on_session_start",
        &format!("cut -d' ' -f1,5 /proc/$$/stat > '{ids}'"),
        "",
        "{}",
    );
    assert_eq!(hook["status"], "ok");
    let text = fs::read_to_string(&ids).unwrap();
    let mut ids = text.split_whitespace();
    assert_eq!(ids.next(), ids.next(), "pid == pgid");
}

#[test]
fn deadline_kills_the_whole_group_and_returns() {
    let env = TestEnv::new();
    let pid_file = env.path("grandchild.pid");
    let started = Instant::now();
    let hook = run_hook(
        &env,
        "on_session_start",
        &format!(
            "sleep 1000 &\necho $! > '{}'\nsleep 1000",
            pid_file.display()
        ),
        "      timeout: 1\n",
        "{}",
    );
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(hook["status"], "timed_out");
    assert_eq!(hook["exit_code"], Value::Null);
    assert_eq!(hook["message"], "timed out after 1s");
    assert!(wait_gone(read_pid(&pid_file)), "the grandchild is gone");
}

#[test]
fn a_hook_ignoring_sigterm_is_killed_after_the_grace() {
    let env = TestEnv::new();
    let pid_file = env.path("stubborn.pid");
    let started = Instant::now();
    let hook = run_hook(
        &env,
        "on_session_start",
        &format!(
            "trap '' TERM\necho $$ > '{}'\nsleep 1000",
            pid_file.display()
        ),
        "      timeout: 1\n",
        "{}",
    );
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(hook["status"], "timed_out");
    assert!(wait_gone(read_pid(&pid_file)), "nothing is left behind");
}

#[test]
fn a_grandchild_holding_the_pipes_is_ended_when_the_hook_exits() {
    let env = TestEnv::new();
    let pid_file = env.path("grandchild.pid");
    let started = Instant::now();
    let hook = run_hook(
        &env,
        "on_session_start",
        &format!(
            "sleep 1000 &\necho $! > '{}'\nprintf '{{}}'",
            pid_file.display()
        ),
        "      timeout: 60\n",
        "{}",
    );
    assert!(
        started.elapsed() < PROMPTLY,
        "did not wait for the grandchild's pipes"
    );
    assert_eq!(hook["status"], "ok");
    assert_eq!(hook["exit_code"], 0);
    assert!(wait_gone(read_pid(&pid_file)));
}

#[test]
fn output_held_open_outside_the_group_is_not_waited_for() {
    if which::which("setsid").is_err() {
        eprintln!("skipped: no setsid(1) on this machine to leave the process group");
        return;
    }
    let env = TestEnv::new();
    let pid_file = env.path("detached.pid");
    let started = Instant::now();
    let hook = run_hook(
        &env,
        "on_session_start",
        &format!(
            "setsid sh -c 'echo $$ > \"{}\"; exec sleep 1000' &\nsleep 0.2\nprintf '{{}}'",
            pid_file.display()
        ),
        "      timeout: 60\n",
        "{}",
    );
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(hook["status"], "ok");
    let pid = read_pid(&pid_file);
    assert!(
        alive(pid),
        "a process that left the group is the hook's business"
    );
    let _ = rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid).unwrap(),
        rustix::process::Signal::KILL,
    );
}

#[test]
fn a_100_mb_flood_on_stdout_is_capped() {
    let env = TestEnv::new();
    let hook = run_hook(
        &env,
        "on_session_start",
        "dd if=/dev/zero bs=1048576 count=100 2>/dev/null",
        "",
        "{}",
    );
    assert_eq!(hook["status"], "invalid_output");
    assert_eq!(hook["message"], "stdout is larger than 1024 KiB");
}

#[test]
fn a_stderr_flood_is_read_and_dropped() {
    let env = TestEnv::new();
    let hook = run_hook(
        &env,
        "on_session_start",
        "dd if=/dev/zero bs=1048576 count=100 >&2 2>/dev/null; printf '{}'",
        "",
        "{}",
    );
    assert_eq!(hook["status"], "ok");
}

#[test]
fn a_hook_that_never_reads_stdin_is_fine() {
    let env = TestEnv::new();
    // Through the pipe (beyond its buffer) and from the spooled file.
    for size in [200 * 1024, 10 * 1024 * 1024] {
        let big = format!(
            r#"{{"tool_name": "terminal", "args": {{"blob": "{}"}}}}"#,
            "x".repeat(size)
        );
        let hook = run_hook(&env, "pre_tool_call", "exec 0<&-\nprintf '{}'", "", &big);
        assert_eq!(hook["status"], "ok");
        let hook = run_hook(&env, "pre_tool_call", "exit 0", "", &big);
        assert_eq!(hook["status"], "ok");
    }
}

#[test]
fn a_payload_beyond_the_pipe_and_an_answer_written_at_once_arrive_whole() {
    let env = TestEnv::new();
    // 200 KiB of payload: more than a pipe holds before the start, fed as the hook reads.
    let big = format!(
        r#"{{"tool_name": "terminal", "args": {{"blob": "{}"}}}}"#,
        "x".repeat(200 * 1024)
    );
    let hook = run_hook(
        &env,
        "pre_tool_call",
        r#"n=$(wc -c | tr -d ' '); printf '{"decision": "block", "reason": "read %s"}' "$n""#,
        "",
        &big,
    );
    let message = hook["message"].as_str().unwrap_or_default();
    let read: usize = message
        .rsplit("read ")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{hook}"));
    assert!(read > 200 * 1024, "{hook}");
    // An answer of 900 KiB, written in one go before a quick exit, is read to its end.
    let reason = "y".repeat(900 * 1024);
    let hook = run_hook(
        &env,
        "pre_tool_call",
        "cat >/dev/null; r=$(head -c 921600 /dev/zero | tr '\\0' y)\n\
         printf '{\"decision\": \"block\", \"reason\": \"%s\"}' \"$r\"",
        "",
        "{}",
    );
    assert_eq!(hook["status"], "blocked");
    assert_eq!(hook["message"].as_str().map(str::len), Some(reason.len()));
}

#[test]
fn non_utf8_output_is_read_lossily() {
    let env = TestEnv::new();
    let hook = run_hook(&env, "on_session_start", r"printf '\377\376'", "", "{}");
    assert_eq!(hook["status"], "invalid_output");
    let out = {
        let hook = env.script("bad.sh", r"printf 'bad \377 byte' >&2; exit 2");
        env.config(&format!(
            "hooks:\n  pre_tool_call:\n    - command: {}\n",
            hook.display()
        ));
        env.cmd()
            .args(["run", "pre_tool_call", "--accept-hooks"])
            .output()
            .unwrap()
    };
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["message"], "bad \u{fffd} byte");
}

#[test]
fn valid_json_followed_by_garbage_is_invalid_output() {
    let env = TestEnv::new();
    let hook = run_hook(
        &env,
        "pre_tool_call",
        r#"printf '{"decision": "block", "reason": "no"} trailing garbage'"#,
        "",
        r#"{"tool_name": "terminal"}"#,
    );
    assert_eq!(hook["status"], "invalid_output", "{hook}");
}

#[test]
fn killed_by_a_signal() {
    let env = TestEnv::new();
    let hook = run_hook(&env, "on_session_start", "kill -9 $$", "", "{}");
    assert_eq!(hook["status"], "failed");
    assert_eq!(hook["exit_code"], Value::Null);
    assert_eq!(hook["message"], "killed by signal 9 (SIGKILL)");
}

#[test]
fn missing_and_non_executable_programs() {
    let env = TestEnv::new();
    let plain = env.hermes_home().join("agent-hooks/plain.sh");
    fs::write(&plain, "echo hi").unwrap();
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: no-such-program-4711 --x\n    - command: {}\n    - command: /nonexistent/hook.sh\n",
        plain.display()
    ));
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "spawn failures fail open");
    let line = json(&out);
    let hooks = line["hooks"].as_array().unwrap();
    assert!(
        hooks.iter().all(|h| h["status"] == "spawn_failed"),
        "{line}"
    );
    assert_eq!(
        hooks[0]["message"],
        "command not found: no-such-program-4711"
    );
    assert_eq!(
        hooks[1]["message"],
        format!(
            "command not executable: {0} (make it executable: chmod +x {0})",
            plain.display()
        )
    );
    assert_eq!(
        hooks[2]["message"],
        "command not found: /nonexistent/hook.sh"
    );
}

#[test]
fn unparseable_commands_are_spawn_failures() {
    let env = TestEnv::new();
    env.config("hooks:\n  on_session_start:\n    - command: \"hook.sh 'unbalanced\"\n");
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    let line = json(&out);
    assert_eq!(line["hooks"][0]["status"], "spawn_failed");
    assert!(
        line["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("cannot be parsed")
    );
}

/// A hook that runs `hermes-hooks run` for its own event through a script of its own (where the
/// bridge's name cannot be seen) would start runs without end, each in a process group its
/// parent's deadline does not reach. Four runs deep, `run` refuses to start, says why, and the
/// chain unwinds at once.
#[test]
fn a_hook_that_runs_its_own_event_again_stops_four_runs_deep() {
    let env = TestEnv::new();
    let depths = env.path("depths.txt").display().to_string();
    let body = format!(
        "echo \"$HERMES_HOOKS_DEPTH\" >> '{depths}'\nexec '{}' run pre_tool_call",
        env!("CARGO_BIN_EXE_hermes-hooks")
    );
    let started = Instant::now();
    let hook = run_hook(
        &env,
        "pre_tool_call",
        &body,
        "",
        r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#,
    );
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(hook["status"], "ok", "{hook}");
    assert_eq!(fs::read_to_string(&depths).unwrap(), "1\n2\n3\n4\n");
    // The innermost run said why it did not start.
    let out = env
        .cmd()
        .env("HERMES_HOOKS_DEPTH", "4")
        .args(["run", "pre_tool_call"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("4 hermes-hooks runs deep"),
        "{}",
        stderr(&out)
    );
    assert!(
        json(&out)["error"]
            .as_str()
            .unwrap()
            .contains("HERMES_HOOKS_DEPTH=4")
    );
    let out = env
        .cmd()
        .env("HERMES_HOOKS_DEPTH", "4")
        .arg("serve")
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("runs without end"),
        "{}",
        stderr(&out)
    );
}
