//! `run --agent qwen`: Qwen Code's event names and payloads in (Claude Code's, with Gemini CLI's
//! tool names), Claude Code's answers out, except a rewrite, which Qwen Code ignores and so gets
//! a deny; and a `UserPromptSubmit` it repeats within a turn runs no hook.

use std::fs;
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

/// `run --agent qwen <event>` with `payload` (its `cwd` set to the project) on stdin.
fn qwen(env: &TestEnv, event: &str, mut payload: Value) -> Output {
    payload["cwd"] = json!(env.work());
    payload["hook_event_name"] = json!(event);
    payload["session_id"] = json!("qwen-session");
    payload["permission_mode"] = json!("yolo");
    env.cmd()
        .args(["run", "--agent", "qwen", event])
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

/// The whole of stdout, which must be one JSON object.
fn answer(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

fn shell_call(command: &str) -> Value {
    json!({"tool_name": "run_shell_command", "tool_input": {"command": command},
           "tool_use_id": "toolu_1", "tool_call_id": "call_1"})
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
fn a_shell_guard_blocks_run_shell_command_with_claude_codes_deny() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"case "$(cat)" in *"rm -rf"*) echo '{"decision":"block","reason":"no rm -rf"}' ;; esac"#,
    );
    let out = qwen(&env, "PreToolUse", shell_call("rm -rf keep"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let specific = &answer(&out)["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny");
    assert_eq!(specific["permissionDecisionReason"], "no rm -rf");
}

#[test]
fn a_rewrite_is_a_deny_because_qwen_would_run_the_original_call() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"mkdir -p rewritten"}}'"#,
    );
    let out = qwen(&env, "PreToolUse", shell_call("rm -rf keep"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let specific = &answer(&out)["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{specific}");
    assert!(specific.get("updatedInput").is_none(), "{specific}");
    assert!(
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("cannot apply a rewrite"),
        "{specific}"
    );
}

#[test]
fn a_pre_agent_turn_hook_runs_once_per_turn_not_before_every_model_call() {
    let env = TestEnv::new();
    let ran = env.path("ran");
    env.hook_md(
        &env.project_hooks(),
        "turn",
        &fm("turn", "pre_llm_call", ""),
        &format!(
            r#"cat >/dev/null; echo x >> '{}'; echo '{{"context":"house rules"}}'"#,
            ran.display()
        ),
    );
    approve_all(&env);
    let first = qwen(
        &env,
        "UserPromptSubmit",
        json!({"prompt": "tidy up", "submitted_prompt": "tidy up", "prompt_id": "p#0"}),
    );
    assert_eq!(
        answer(&first)["hookSpecificOutput"]["additionalContext"],
        "house rules",
        "{}",
        stderr(&first)
    );
    // The calls after a tool result and after a stop hook's reason, in the same turn.
    for prompt in ["", "run the tests first"] {
        let again = qwen(
            &env,
            "UserPromptSubmit",
            json!({"prompt": prompt, "prompt_id": "p#0"}),
        );
        assert_eq!(code(&again), 0, "{}", stderr(&again));
        assert!(
            again.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
    assert_eq!(fs::read_to_string(&ran).unwrap().lines().count(), 1);
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
    let out = qwen(&env, "SessionStart", json!({"source": "startup"}));
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "note from start",
        "{}",
        stderr(&out)
    );
    let mut after = shell_call("ls");
    after["tool_response"] = json!({"llmContent": "a\nb\n", "returnDisplay": ""});
    let out = qwen(&env, "PostToolUse", after);
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
    let out = qwen(
        &env,
        "Stop",
        json!({"stop_hook_active": false, "last_assistant_message": "Done."}),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"decision": "block", "reason": "run the tests first"})
    );
}
