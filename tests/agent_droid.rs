//! `run --agent droid`: Factory Droid's event names and payloads in (Claude Code's, with the
//! shell tool named `Execute`), Claude Code's answers out, for one set of hooks.

use std::process::Output;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

fn fm(name: &str, trigger: &str, extra: &str) -> String {
    format!("name: {name}\ndescription: A test hook\ntrigger: {trigger}\n{extra}")
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// `run --agent droid <event>` with `payload` (its `cwd` set to the project) on stdin.
fn droid(env: &TestEnv, event: &str, mut payload: Value) -> Output {
    payload["cwd"] = json!(env.work());
    payload["hook_event_name"] = json!(event);
    payload["session_id"] = json!("droid-session");
    payload["permission_mode"] = json!("auto-high");
    env.cmd()
        .args(["run", "--agent", "droid", event])
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

/// The whole of stdout, which must be one JSON object.
fn answer(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

/// Droid's `Execute` call as its hooks receive it (the model fills in a summary and a risk).
fn execute(command: &str) -> Value {
    json!({"tool_name": "Execute", "tool_input": {"command": command,
           "summary": "Run the command", "riskLevel": "low",
           "riskLevelReason": "Touches scratch files."}})
}

/// An approved project hook on the shell class, with `body` as its script.
fn shell_guard(env: &TestEnv, body: &str) {
    env.hook_md(
        &env.project_hooks(),
        "guard",
        &fm("guard", "pre_tool_call", "matcher:\n  tool: shell\n"),
        body,
    );
    approve_all(env);
}

#[test]
fn a_shell_guard_blocks_droids_execute_with_claude_codes_deny() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"case "$(cat)" in *"rm -rf"*) echo '{"decision":"block","reason":"no rm -rf"}' ;; esac"#,
    );
    let out = droid(&env, "PreToolUse", execute("rm -rf keep"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let specific = &answer(&out)["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny");
    assert_eq!(specific["permissionDecisionReason"], "no rm -rf");
    let harmless = droid(&env, "PreToolUse", execute("ls"));
    assert_eq!(code(&harmless), 0, "{}", stderr(&harmless));
    assert!(harmless.stdout.is_empty());
}

#[test]
fn a_rewrite_is_updated_input_with_every_argument_of_the_call() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"mkdir -p rewritten"}}'"#,
    );
    let out = droid(&env, "PreToolUse", execute("rm -rf keep"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let specific = &answer(&out)["hookSpecificOutput"];
    assert_eq!(specific["updatedInput"]["command"], "mkdir -p rewritten");
    assert_eq!(specific["updatedInput"]["summary"], "Run the command");
    assert!(specific.get("permissionDecision").is_none(), "{specific}");
}

#[test]
fn context_at_session_start_and_after_a_tool_is_additional_context() {
    let env = TestEnv::new();
    for (name, trigger) in [("start", "on_session_start"), ("after", "post_tool_call")] {
        env.hook_md(
            &env.project_hooks(),
            name,
            &fm(name, trigger, ""),
            &format!(r#"cat >/dev/null; echo '{{"context":"note from {name}"}}'"#),
        );
    }
    approve_all(&env);
    let out = droid(&env, "SessionStart", json!({"source": "startup"}));
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "note from start",
        "{}",
        stderr(&out)
    );
    let mut after = execute("ls");
    after["tool_response"] = json!("a\nb\n");
    let out = droid(&env, "PostToolUse", after);
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "note from after",
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_gate_at_stop_is_claude_codes_decision_block() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "gate",
        &fm("gate", "pre_verify", ""),
        r#"cat >/dev/null; echo '{"action":"continue","message":"run the tests first"}'"#,
    );
    approve_all(&env);
    let out = droid(&env, "Stop", json!({"stop_hook_active": false}));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"decision": "block", "reason": "run the tests first"})
    );
}

#[test]
fn a_payload_that_cannot_be_read_fails_open_or_denies_when_failing_closed() {
    let env = TestEnv::new();
    let open = env
        .cmd()
        .args(["run", "--agent", "droid", "PreToolUse"])
        .write_stdin("not json")
        .output()
        .unwrap();
    assert_eq!(code(&open), 1, "{}", stderr(&open));
    assert!(open.stdout.is_empty());
    let closed = env
        .cmd()
        .args(["run", "--agent", "droid", "PreToolUse", "--fail-closed"])
        .write_stdin("not json")
        .output()
        .unwrap();
    assert_eq!(
        answer(&closed)["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        stderr(&closed)
    );
}
