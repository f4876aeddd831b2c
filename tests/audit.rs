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
    let payload = r#"{"tool_name": "terminal", "args": {"command": "rm -rf /", "workdir": "/secret-place"},
        "session_id": "s1", "extra": {"note": "private words"}}"#;
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
    assert_eq!(first["tool_command"], "rm -rf /", "what was decided on");
    let text = fs::read_to_string(&log).unwrap();
    assert!(
        first.get("payload").is_none()
            && !text.contains("secret-place")
            && !text.contains("private words"),
        "no payload unless asked for: {text}"
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

/// Each line's `run_id`.
fn run_ids(log: &std::path::Path) -> Vec<String> {
    lines(log)
        .iter()
        .map(|line| {
            line["run_id"]
                .as_str()
                .expect("every line has a run_id")
                .to_owned()
        })
        .collect()
}

#[test]
fn every_run_gets_a_run_id_of_its_own() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    for _ in 0..5 {
        let out = env
            .cmd()
            .args(["run", "pre_tool_call", "--audit-log"])
            .arg(&log)
            .write_stdin(r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#)
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let ids = run_ids(&log);
    assert_eq!(ids.len(), 5);
    for id in &ids {
        assert!(
            id.len() == 12
                && id
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()),
            "{id}"
        );
    }
    let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "{ids:?}");
}

#[test]
fn each_serve_request_gets_a_run_id_of_its_own() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    let mut requests = String::new();
    for id in 0..50 {
        // An event without hooks: answered well within a millisecond.
        let request = serde_json::json!({"id": id, "event": "on_session_start",
            "payload": {"session_id": "s"}});
        requests.push_str(&request.to_string());
        requests.push('\n');
    }
    let out = env
        .cmd()
        .args(["serve", "--audit-log"])
        .arg(&log)
        .write_stdin(requests)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let ids = run_ids(&log);
    assert_eq!(ids.len(), 50);
    let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "{ids:?}");
}

#[test]
fn a_shell_call_logs_its_command_only_into_a_log_its_owner_alone_reads() {
    let env = TestEnv::new();
    guard(&env);
    let log = env.path("audit.jsonl");
    let run = |payload: &str| {
        let out = env
            .cmd()
            .args(["run", "pre_tool_call", "--audit-log"])
            .arg(&log)
            .write_stdin(payload.to_owned())
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    };
    // A harmless head, and what the call really does at its end.
    let words = format!("echo {}; rm -rf ~/work", "word ".repeat(100));
    run(&format!(
        r#"{{"tool_name": "terminal", "args": {{"command": "{words}"}}}}"#
    ));
    run(r#"{"tool_name": "read_file", "args": {"path": "/etc/hosts", "command": "no"}}"#);
    fs::set_permissions(&log, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    run(r#"{"tool_name": "terminal", "args": {"command": "ls -la"}}"#);

    let lines = lines(&log);
    let kept = lines[0]["tool_command"].as_str().unwrap();
    let (head, tail) = kept.split_once(" … ").unwrap();
    assert_eq!((head.len(), tail.len()), (120, 120), "{kept}");
    assert!(words.starts_with(head), "{kept}");
    assert!(
        tail.ends_with("; rm -rf ~/work"),
        "the tail is kept: {kept}"
    );
    assert_eq!(lines[0]["tool_command_chars"], words.len());
    fs::write(env.path("command"), &words).unwrap();
    let digest = hermes_hooks::sha256_file(&env.path("command")).unwrap();
    assert_eq!(lines[0]["tool_command_sha256"], digest);
    // `log` shows both ends, and says what was left out.
    let out = env
        .cmd()
        .args(["log", "--audit-log"])
        .arg(&log)
        .args(["--all", "-n", "0"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("rm -rf ~/work"), "{shown}");
    assert!(
        shown.contains(&format!(
            "{} characters, the middle left out; sha256 {digest}",
            words.len()
        )),
        "{shown}"
    );
    assert!(lines[1].get("tool_command").is_none(), "{}", lines[1]);
    assert!(lines[2].get("tool_command").is_none(), "{}", lines[2]);
    assert!(!fs::read_to_string(&log).unwrap().contains("ls -la"));
}

/// Started with its standard descriptors closed (a caller that closed them before the exec),
/// `run` holds them open on `/dev/null` before it opens any file, as std's start-up does: its
/// answer and its talk go nowhere, never into the audit log, whose every line stays its own.
#[test]
fn run_started_with_its_standard_descriptors_closed_writes_into_no_file() {
    let env = TestEnv::new();
    let hook = env.script(
        "ok.sh",
        "cat >/dev/null\necho 'from the hook' >&2\nprintf '{}'",
    );
    env.one_approved_hook(&hook);
    let log = env.path("audit.jsonl");
    let payload = env.path("payload.json");
    fs::write(
        &payload,
        r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#,
    )
    .unwrap();
    let binary = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    for closing in ["<&- >&- 2>&-", "<\"$1\" >&- 2>&-", "<\"$1\" >&-"] {
        let status = env
            .std_cmd_of(std::path::Path::new("/bin/sh"))
            .arg("-c")
            .arg(format!("exec \"$0\" run pre_tool_call {closing}"))
            .arg(binary)
            .arg(&payload)
            .env("HERMES_HOOKS_AUDIT_LOG", &log)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(
            status.code().is_some(),
            "{closing}: ended by a signal: {status}"
        );
    }
    let written = lines(&log);
    assert_eq!(written.len(), 3, "{written:?}");
    for line in &written {
        assert!(
            line["time"].is_string() && line["run_id"].is_string(),
            "{line}"
        );
    }
}
