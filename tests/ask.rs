//! "Ask a person": both forms of the answer, how it combines with blocks and rewrites, what
//! `run`, `test --expect`, the audit log and each agent make of it, and that nothing lets a
//! call that waits for a person run unattended.

use std::fmt::Write as _;

use hermes_hooks::Event;
use serde_json::{Value, json};

use crate::common::{TestEnv, code, json, statuses, stderr};

/// Config hooks on `pre_tool_call`, one per body, all approved.
fn hooks(env: &TestEnv, bodies: &[&str]) {
    let mut yaml = "hooks:\n  pre_tool_call:\n".to_owned();
    for (i, body) in bodies.iter().enumerate() {
        let hook = env.script(&format!("h{i}.sh"), body).display().to_string();
        writeln!(yaml, "    - command: {hook}").unwrap();
        env.approve(Event::parse("pre_tool_call").unwrap().event.name(), &hook);
    }
    env.config(&yaml);
}

const HERMES_ASK: &str = r#"cat >/dev/null; printf '{"action": "approve", "message": "  deletes files  ", "rule_key": "rm:home"}'"#;
const AGENT_HOOKS_ASK: &str =
    r#"cat >/dev/null; printf '{"decision": "ask", "reason": "a person decides"}'"#;
const REWRITE: &str =
    r#"cat >/dev/null; printf '{"action": "modify", "args": {"command": "rm -ri build"}}'"#;
const BLOCK: &str = r#"cat >/dev/null; printf '{"action": "block", "message": "never"}'"#;
const CALL: &str = r#"{"tool_name": "terminal", "args": {"command": "rm -rf build", "cwd": "/w"}}"#;

#[test]
fn an_ask_holds_the_call_for_a_person_in_either_form() {
    for (body, message, rule_key) in [
        (HERMES_ASK, "deletes files", Some("rm:home")),
        (AGENT_HOOKS_ASK, "a person decides", None),
    ] {
        let env = TestEnv::new();
        hooks(&env, &[body]);
        let out = env.run("pre_tool_call", CALL);
        // A caller that reads only the exit status holds the call as it would a block.
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        let line = json(&out);
        assert_eq!(line["action"], "approve", "{line}");
        assert_eq!(line["message"], message);
        assert_eq!(line["rule_key"].as_str(), rule_key);
        assert!(line.get("args").is_none(), "no hook rewrote: {line}");
        assert_eq!(statuses(&line), ["asked"]);
        // What Hermes reads from the bridge's exit 2: a block saying a person must approve.
        assert!(
            stderr(&out).lines().last().unwrap().contains(&format!(
                "{message}; a person must approve this call, and Hermes cannot ask"
            )),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_block_beats_an_ask_and_an_ask_beats_a_rewrite_which_it_keeps() {
    let env = TestEnv::new();
    hooks(&env, &[REWRITE, HERMES_ASK]);
    let line = json(&env.run("pre_tool_call", CALL));
    assert_eq!(line["action"], "approve");
    assert_eq!(
        line["args"],
        json!({"command": "rm -ri build", "cwd": "/w"}),
        "what runs if the person says yes"
    );
    // The hooks after an ask still run: a later block wins.
    let env = TestEnv::new();
    hooks(&env, &[HERMES_ASK, BLOCK]);
    let out = env.run("pre_tool_call", CALL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(
        (line["action"].as_str(), line["message"].as_str()),
        (Some("block"), Some("never"))
    );
    assert_eq!(statuses(&line), ["asked", "blocked"]);
}

#[test]
fn claude_codes_decision_approve_is_an_allow_not_an_ask() {
    let env = TestEnv::new();
    hooks(
        &env,
        &[r#"cat >/dev/null; printf '{"decision": "approve", "reason": "fine"}'"#],
    );
    let out = env.run("pre_tool_call", CALL);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(json(&out).get("action").is_none());
}

#[test]
fn an_ask_counts_only_before_a_tool_call() {
    let env = TestEnv::new();
    let hook = env.script("ask.sh", HERMES_ASK).display().to_string();
    env.config(&format!(
        "hooks:\n  post_tool_call:\n    - command: {hook}\n"
    ));
    env.approve("post_tool_call", &hook);
    let out = env.run("post_tool_call", CALL);
    assert_eq!(code(&out), 0);
    let line = json(&out);
    assert!(line.get("action").is_none(), "{line}");
    assert_eq!(statuses(&line), ["ok"]);
}

#[test]
fn test_expect_ask_passes_on_an_ask_and_fails_on_a_block() {
    let env = TestEnv::new();
    hooks(&env, &[HERMES_ASK]);
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "ask"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "block"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
}

/// The agent's answer for one call (`payload` in its own shape).
fn agent_answer(env: &TestEnv, agent: &str, event: &str, payload: &Value) -> (i32, Value) {
    let out = env
        .cmd()
        .args(["run", "--agent", agent, event])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let value = if stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout).unwrap()
    };
    (code(&out), value)
}

#[test]
fn each_agent_asks_in_its_own_words_or_blocks_saying_a_person_must_approve() {
    let env = TestEnv::new();
    hooks(&env, &[REWRITE, AGENT_HOOKS_ASK]);
    let claude = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"}});
    let (status, out) = agent_answer(&env, "claude-code", "PreToolUse", &claude);
    assert_eq!(status, 0);
    let specific = &out["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "ask", "{out}");
    assert_eq!(specific["permissionDecisionReason"], "a person decides");
    assert_eq!(specific["updatedInput"]["command"], "rm -ri build");
    let gemini = json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": "/w",
        "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf build"}});
    let (_, out) = agent_answer(&env, "gemini", "BeforeTool", &gemini);
    assert_eq!(
        (out["decision"].as_str(), out["reason"].as_str()),
        (Some("ask"), Some("a person decides")),
        "{out}"
    );
    assert_eq!(
        out["hookSpecificOutput"]["tool_input"]["command"],
        "rm -ri build"
    );
    let cursor = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "s",
        "command": "rm -rf build", "cwd": "/w"});
    let env_ask_only = TestEnv::new();
    hooks(&env_ask_only, &[AGENT_HOOKS_ASK]);
    let (_, out) = agent_answer(&env_ask_only, "cursor", "beforeShellExecution", &cursor);
    assert_eq!(out["permission"], "ask", "{out}");
    // Codex has no way to ask: a deny whose reason says a person must approve the call.
    let codex = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"}});
    let (_, out) = agent_answer(&env, "codex", "PreToolUse", &codex);
    let specific = &out["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{out}");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "a person decides; a person must approve this call, and Codex CLI cannot ask"
        ),
        "{reason}"
    );
}

#[test]
fn the_audit_log_records_an_ask_and_log_shows_it() {
    let env = TestEnv::new();
    hooks(&env, &[AGENT_HOOKS_ASK]);
    let log = env.path("audit.jsonl");
    let out = env
        .cmd()
        .env("HERMES_HOOKS_AUDIT_LOG", &log)
        .args(["run", "pre_tool_call"])
        .write_stdin(CALL)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let line: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(line["directive"]["action"], "approve", "{line}");
    let shown = env
        .cmd()
        .env("HERMES_HOOKS_AUDIT_LOG", &log)
        .args(["log", "--blocked", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("\"asked\""), "{text}");
}

#[test]
fn doctor_warns_that_hermes_itself_ignores_a_config_hooks_ask() {
    let env = TestEnv::new();
    hooks(&env, &[AGENT_HOOKS_ASK]);
    let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Hermes ignores a config hook's approve answer and runs the call"),
        "{text}"
    );
}
