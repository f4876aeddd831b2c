//! `test <event>`: synthetic payloads, `--for-tool`, `--payload-file`, consent, `--expect`, and
//! the report in both forms. It never exits 2.

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, stderr};

/// A blocking guard on `terminal` and a recorder without a matcher, both approved.
fn setup(env: &TestEnv) -> std::path::PathBuf {
    let seen = env.path("seen.json");
    env.script(
        "guard.sh",
        "cat >/dev/null; echo 'no terminal today' >&2; exit 2",
    );
    env.script(
        "record.sh",
        &format!("cat > '{}'; printf '{{}}'", seen.display()),
    );
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/record.sh\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/record.sh");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/guard.sh");
    seen
}

#[test]
fn report_shows_each_hook_then_the_result() {
    let env = TestEnv::new();
    setup(&env);
    let out = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert_eq!(code(&out), 0, "test never exits 2: {}", stderr(&out));
    assert_data_eq!(
        String::from_utf8_lossy(&out.stdout).into_owned(),
        str![[r#"
test pre_tool_call: 2 hook(s), synthetic payload, all hooks (no --for-tool)

record.sh  ~/.hermes/agent-hooks/record.sh
  status:     ok  exit 0  [..] ms

guard.sh  ~/.hermes/agent-hooks/guard.sh
  status:     blocked  exit 2  [..] ms
  directive:  {"action":"block","message":"no terminal today"}
  message:    no terminal today
  stderr:     no terminal today

result: {"action":"block","message":"no terminal today"}

"#]]
    );
}

#[test]
fn hooks_get_the_synthetic_wire_payload() {
    let env = TestEnv::new();
    let seen = setup(&env);
    env.cmd().args(["test", "pre-tool-call"]).output().unwrap();
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_name"], "terminal");
    assert_eq!(wire["tool_input"]["command"], "echo hello");
    assert_eq!(wire["session_id"], "test-session");
    assert_eq!(wire["extra"]["task_id"], "test-task");
    assert_eq!(wire["extra"]["tool_call_id"], "test-call");
}

#[test]
fn for_tool_applies_matchers_and_payload_files_merge() {
    let env = TestEnv::new();
    let seen = setup(&env);
    let file = env.path("p.json");
    std::fs::write(
        &file,
        r#"{"args": {"command": "ls"}, "session_id": "mine"}"#,
    )
    .unwrap();
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--for-tool",
            "web_search",
            "--json",
            "--payload-file",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let statuses: Vec<&str> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ok", "not_matched"]);
    assert_eq!(doc["payload"]["tool_name"], "web_search");
    assert!(doc["directive"].as_object().unwrap().is_empty());
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(
        (
            wire["tool_input"]["command"].as_str(),
            wire["session_id"].as_str()
        ),
        (Some("ls"), Some("mine"))
    );

    // A captured wire payload (tool_input, extra) replaces the synthetic call's input too.
    std::fs::write(
        &file,
        r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}, "session_id": "w", "cwd": "/", "extra": {"task_id": "t9"}}"#,
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--json", "--payload-file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_input"]["command"], "rm -rf /");
    assert_eq!(wire["extra"]["task_id"], "t9");
    assert_eq!(wire["session_id"], "w");
    // An Agent Hooks payload too.
    let with_file = |content: &str| {
        std::fs::write(&file, content).unwrap();
        env.cmd()
            .args(["test", "pre_tool_call", "--payload-file"])
            .arg(&file)
            .output()
            .unwrap()
    };
    with_file(
        r#"{"event_type": "pre-tool-call", "tool_name": "Shell", "tool_input": {"command": "pwd"}, "tool_use_id": "u1"}"#,
    );
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_input"]["command"], "pwd");
    assert_eq!(wire["extra"]["tool_call_id"], "u1");

    // A broken file: the parser's reason once, with its place, not repeated as a cause.
    let out = with_file("{\"a\":\n\n");
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out).matches("EOF while parsing").count(),
        1,
        "{}",
        stderr(&out)
    );

    let out = with_file("[1]");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("must be a JSON object"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn expect_is_a_one_line_assertion() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "block"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--for-tool",
            "patch",
            "--expect",
            "block",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out).trim_end(),
        "hermes-hooks: error: test pre_tool_call: expected block, got none"
    );
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "maybe"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "a bad value is a usage error");
}

#[test]
fn consent_applies() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    env.script("new.sh", &format!("touch '{}'", marker.display()));
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let out = env
        .cmd()
        .args(["test", "on_session_start", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "unapproved");
    assert!(
        !marker.exists(),
        "testing a fresh config never runs unreviewed code"
    );
    // The report says why; stderr does not say it again.
    let message = doc["hooks"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("not approved, not run"), "{message}");
    assert!(!stderr(&out).contains("not approved"), "{}", stderr(&out));
    let human = env
        .cmd()
        .args(["test", "on_session_start"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&human.stdout);
    assert_eq!(shown.matches("not approved, not run").count(), 1, "{shown}");
    assert!(
        !stderr(&human).contains("not approved"),
        "{}",
        stderr(&human)
    );
    // `run` has only its JSON line: the notice goes to stderr too.
    let run = env.run("on_session_start", "{}");
    assert!(
        stderr(&run).contains("not approved, not run"),
        "{}",
        stderr(&run)
    );

    let out = env
        .cmd()
        .args(["test", "on_session_start", "--accept-hooks", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "ok");
    assert!(marker.exists());
    // What the report does not show (approved on the spot) is said on stderr.
    assert!(
        stderr(&out).contains("approved by --accept-hooks"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_event_and_bad_config() {
    let env = TestEnv::new();
    let out = env.cmd().args(["test", "pre_tool_cal"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("did you mean 'pre_tool_call'?"));
    env.config("hooks: {");
    let out = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("config.yaml:1:"), "{}", stderr(&out));
}

#[test]
fn color_always_colours_the_statuses() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--color", "always"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("status:     \u{1b}[32mok\u{1b}[0m"),
        "{text:?}"
    );
    assert!(text.contains("\u{1b}[33mblocked\u{1b}[0m"), "{text:?}");
    let plain = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert!(!plain.stdout.contains(&0x1b), "piped: no colour by default");
}
