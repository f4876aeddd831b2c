//! The decision audit log: opt-in, one whole JSON line per `run`, the script's sha256 and each
//! decision, no payload unless asked for, and no interleaving between concurrent runs.

use std::fs;
use std::process::Stdio;

use serde_json::Value;

use crate::common::{MAX_DEPTH, TestEnv, code, nested, stderr};

fn lines(path: &std::path::Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A guard that blocks `rm`, and an unapproved second hook.
fn guard(env: &TestEnv) -> String {
    let hook = env.script(
        "guard.sh",
        r#"grep -q '"rm' && printf '{"decision": "block", "reason": "no rm"}' || printf '{}'"#,
    );
    let command = hook.display().to_string();
    let other = env.script("other.sh", "printf '{}'").display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n    - command: {other}\n"
    ));
    env.approve("pre_tool_call", &command);
    command
}

#[test]
fn each_run_appends_one_line_with_every_decision_and_no_payload() {
    let env = TestEnv::new();
    let command = guard(&env);
    let log = env.path("audit.jsonl");
    let payload =
        r#"{"tool_name": "terminal", "args": {"command": "rm -rf /"}, "session_id": "s1"}"#;
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--audit-log"])
        .arg(&log)
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = env
        .cmd()
        .args(["run", "pre_tool_call"])
        .env("HERMES_HOOKS_AUDIT_LOG", &log)
        .write_stdin(r#"{"tool_name": "terminal", "args": {"command": "ls"}, "session_id": "s1"}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let lines = lines(&log);
    assert_eq!(lines.len(), 2);
    let first = &lines[0];
    assert!(first["time"].as_str().unwrap().ends_with('Z'));
    assert_eq!(first["event"], "pre_tool_call");
    assert_eq!(first["session_id"], "s1");
    assert_eq!(first["tool_name"], "terminal");
    assert_eq!(first["exit"], 2);
    assert_eq!(first["directive"]["action"], "block");
    let sha = hermes_hooks::sha256_file(std::path::Path::new(&command)).unwrap();
    assert_eq!(first["hooks"][0]["command"], command.as_str());
    assert_eq!(first["hooks"][0]["sha256"], sha.as_str());
    assert_eq!(first["hooks"][0]["status"], "blocked");
    assert_eq!(first["hooks"][0]["directive"]["message"], "no rm");
    assert_eq!(first["hooks"][1]["status"], "not_run");
    assert_eq!(lines[1]["exit"], 0);
    assert_eq!(lines[1]["hooks"][1]["status"], "unapproved");
    assert!(
        !fs::read_to_string(&log).unwrap().contains("rm -rf"),
        "no payload unless asked for"
    );
}

#[test]
fn the_payload_is_logged_only_when_asked_for() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--audit-payload", "--audit-log"])
        .arg(&log)
        .write_stdin(r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = &lines(&log)[0];
    assert_eq!(line["payload"]["tool_input"]["command"], "ls");
}

#[test]
fn a_payload_nested_as_deep_as_python_reads_it_is_logged_as_the_hooks_received_it() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    let args = nested(MAX_DEPTH - 2, r#""rm -rf /""#, "");
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--audit-payload", "--audit-log"])
        .arg(&log)
        .write_stdin(format!(
            r#"{{"tool_name": "terminal", "args": {{"x": {args}}}}}"#
        ))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = fs::read_to_string(&log).unwrap();
    assert!(
        text.contains(&format!(r#","tool_input":{{"x":{args}}},"session_id":"#)),
        "{text}"
    );
    assert!(text.contains(r#""exit":2,"#), "{text}");
}

#[test]
fn concurrent_runs_never_interleave_their_lines() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    // A long line each, so that interleaving would show.
    let payload = format!(
        r#"{{"tool_name": "terminal", "args": {{"command": "ls {}"}}}}"#,
        "x".repeat(20_000)
    );
    let children: Vec<_> = (0..20)
        .map(|_| {
            let mut child = env
                .std_cmd()
                .args(["run", "pre_tool_call", "--audit-payload", "--audit-log"])
                .arg(&log)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            std::io::Write::write_all(&mut stdin, payload.as_bytes()).unwrap();
            drop(stdin);
            child
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(lines(&log).len(), 20, "twenty whole JSON lines");
}
