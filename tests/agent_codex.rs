//! `run --agent codex`: Codex CLI's event names and payload in, answers that Codex 0.169.0
//! accepts out (it drops any answer outside its schema, and then runs the call).

use std::process::Output;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

fn guard(env: &TestEnv, trigger: &str, matcher: &str, body: &str) {
    let frontmatter =
        format!("name: guard\ndescription: A Codex guard\ntrigger: {trigger}\n{matcher}");
    env.hook_md(&env.project_hooks(), "guard", &frontmatter, body);
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// A payload as Codex sends it (every field its input schema requires).
fn payload(env: &TestEnv, event: &str, extra: &Value) -> String {
    let mut value = json!({
        "session_id": "019a-session", "turn_id": "019a-turn", "transcript_path": null,
        "cwd": env.work(), "hook_event_name": event, "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
    });
    value
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    value.to_string()
}

fn shell_call(env: &TestEnv, command: &str) -> String {
    payload(
        env,
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"}),
    )
}

fn run(env: &TestEnv, event: &str, input: &str) -> Output {
    env.cmd()
        .args(["run", "--agent", "codex", event])
        .write_stdin(input)
        .output()
        .unwrap()
}

fn answer(out: &Output) -> Value {
    assert_eq!(
        code(out),
        0,
        "Codex reads its answer on exit 0: {}",
        stderr(out)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON answer on stdout")
}

#[test]
fn a_shell_class_guard_denies_codex_bash_in_codex_own_shape() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "keep/ must stay"}'"#,
    );
    let out = run(&env, "PreToolUse", &shell_call(&env, "rm -r keep"));
    assert_eq!(
        answer(&out),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "keep/ must stay"}})
    );
}

#[test]
fn a_guard_that_gives_a_blank_reason_still_blocks_codex() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "   "}'"#,
    );
    let value = answer(&run(&env, "PreToolUse", &shell_call(&env, "rm -r keep")));
    let specific = &value["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{value}");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(
        !reason.trim().is_empty(),
        "Codex ignores a deny with a blank reason: {value}"
    );
}

#[test]
fn a_guard_that_says_nothing_leaves_codex_stdout_empty() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        "cat >/dev/null",
    );
    let out = run(&env, "PreToolUse", &shell_call(&env, "ls"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn plain_text_from_a_prompt_guard_is_context_for_codex() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-agent-turn",
        "",
        "cat >/dev/null; echo 'The tests live in tests/.'",
    );
    let input = payload(&env, "UserPromptSubmit", &json!({"prompt": "fix it"}));
    assert_eq!(
        answer(&run(&env, "UserPromptSubmit", &input)),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
            "additionalContext": "The tests live in tests/."}})
    );
}

#[test]
fn codex_events_beyond_the_table_are_accepted_and_answer_nothing() {
    let env = TestEnv::new();
    for (event, extra) in [
        ("SessionEnd", json!({"reason": "other"})),
        ("Interrupt", json!({})),
        (
            "PermissionRequest",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        ),
    ] {
        let out = run(&env, event, &payload(&env, event, &extra));
        assert_eq!(code(&out), 0, "{event}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{event}: {:?}", out.stdout);
    }
}

/// A Codex session transcript holding one `exec_command` call, as Codex 0.169 writes it before
/// the call's `PreToolUse` hook runs.
fn transcript(env: &TestEnv, call: &str, arguments: &Value) -> String {
    let line = json!({"timestamp": "2026-11-27T17:33:20.310Z", "type": "response_item",
        "payload": {"type": "function_call", "id": "fc_1", "name": "exec_command",
            "arguments": arguments.to_string(), "call_id": call}});
    let path = env.path("rollout.jsonl");
    std::fs::write(&path, format!("{line}\n")).unwrap();
    path.display().to_string()
}

fn terminal_call(env: &TestEnv, tty: bool) -> String {
    let transcript = transcript(env, "call_7", &json!({"cmd": "bash", "tty": tty}));
    payload(
        env,
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "bash"}, "tool_use_id": "call_7",
            "transcript_path": transcript}),
    )
}

#[test]
fn a_terminal_the_model_could_type_past_a_shell_guard_into_is_refused() {
    let env = TestEnv::new();
    let seen = env.path("seen.json");
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        &format!("cat > {}", seen.display()),
    );
    let value = answer(&run(&env, "PreToolUse", &terminal_call(&env, true)));
    assert_eq!(
        value["hookSpecificOutput"]["permissionDecision"], "deny",
        "{value}"
    );
    assert!(
        value["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("without tty"),
        "{value}"
    );
    let seen: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(seen["tool_input"], json!({"command": "bash", "tty": true}));
    // Without a tty the command is all there is to check: the guard's answer stands.
    let out = run(&env, "PreToolUse", &terminal_call(&env, false));
    assert_eq!((code(&out), out.stdout.is_empty()), (0, true), "{out:?}");
}

#[test]
fn a_terminal_no_guard_watches_is_left_to_codex() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: edit\n",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "no edits"}'"#,
    );
    let out = run(&env, "PreToolUse", &terminal_call(&env, true));
    assert_eq!((code(&out), out.stdout.is_empty()), (0, true), "{out:?}");
}

#[test]
fn input_typed_into_a_shell_reaches_a_shell_guard_as_the_command() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        r#"grep -q '"command": *"rm -rf' && echo '{"decision": "block", "reason": "typed rm"}'"#,
    );
    let typed = payload(
        &env,
        "PreToolUse",
        &json!({"tool_name": "write_stdin", "tool_use_id": "call_2",
            "tool_input": {"session_id": 3, "chars": "rm -rf keep\n"}}),
    );
    let value = answer(&run(&env, "PreToolUse", &typed));
    assert_eq!(
        value["hookSpecificOutput"]["permissionDecisionReason"], "typed rm",
        "{value}"
    );
}

#[test]
fn a_workdir_holding_an_empty_hooks_folder_does_not_switch_the_project_guard_off() {
    let env = TestEnv::new();
    guard(
        &env,
        "pre-tool-call",
        "matcher:\n  tool: shell\n",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "keep/ must stay"}'"#,
    );
    // `exec_command` with `workdir: "sub"`: Codex reports it as the payload's `cwd`, and runs
    // the hook in the session's directory, the project.
    let sub = env.work().join("sub");
    std::fs::create_dir_all(sub.join(".agents").join("hooks")).unwrap();
    let call = payload(
        &env,
        "PreToolUse",
        &json!({"cwd": sub, "tool_name": "Bash", "tool_input": {"command": "rm -r ../keep"},
            "tool_use_id": "call_1"}),
    );
    let value = answer(&run(&env, "PreToolUse", &call));
    assert_eq!(
        value["hookSpecificOutput"]["permissionDecision"], "deny",
        "{value}"
    );
}
