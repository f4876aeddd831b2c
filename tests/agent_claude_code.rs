//! `run --agent claude-code`: the answers Claude Code 2.1.197 was seen to act on (its harness is
//! tests/agents/claude-code/), and the payload fields it names its own way.

use std::fs;
use std::process::Output;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

fn claude(env: &TestEnv, event: &str, payload: &Value) -> Output {
    env.cmd()
        .args(["run", "--agent", "claude-code", event])
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

fn answer(out: &Output) -> Value {
    assert_eq!(code(out), 0, "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is not one JSON document ({err}): {:?}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// A project hook for `trigger` whose script runs `body`, approved.
fn hook(env: &TestEnv, name: &str, trigger: &str, body: &str) {
    env.hook_md(
        &env.project_hooks(),
        name,
        &format!("name: {name}\ndescription: For Claude Code\ntrigger: {trigger}\n"),
        body,
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

fn tool_call(env: &TestEnv, tool: &str, command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.work(),
           "permission_mode": "default", "tool_name": tool,
           "tool_input": {"command": command, "description": "tidy"}, "tool_use_id": "t1"})
}

#[test]
fn a_rewrite_is_the_whole_new_input_and_approves_nothing() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "soften",
        "name: soften\ndescription: Turns deletes into a marker\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"touch marker"}}'"#,
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = answer(&claude(
        &env,
        "PreToolUse",
        &tool_call(&env, "Bash", "rm -rf keep"),
    ));
    // Claude Code replaces the input with updatedInput (so the keys the hook kept are there),
    // and `permissionDecision: allow` would also skip the question it asks about the new call.
    assert_eq!(
        got,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
               "updatedInput": {"command": "touch marker", "description": "tidy"}}})
    );
}

#[test]
fn every_claude_code_tool_that_runs_a_command_meets_the_shell_guard() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        "name: no-rm\ndescription: Refuses deletes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        r#"cat >/dev/null; echo '{"decision":"block","reason":"not here"}'"#,
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for tool in ["Bash", "PowerShell", "Monitor"] {
        let got = answer(&claude(
            &env,
            "PreToolUse",
            &tool_call(&env, tool, "rm -rf keep"),
        ));
        assert_eq!(
            got["hookSpecificOutput"]["permissionDecision"], "deny",
            "{tool}: {got}"
        );
    }
    let out = claude(&env, "PreToolUse", &tool_call(&env, "Read", "rm -rf keep"));
    assert_eq!((code(&out), out.stdout.is_empty()), (0, true), "{out:?}");
}

#[test]
fn a_block_at_session_start_is_a_blocking_decision_the_model_reads() {
    let env = TestEnv::new();
    hook(
        &env,
        "not-here",
        "pre-session",
        r#"cat >/dev/null; echo '{"decision":"block","reason":"this folder is read-only"}'"#,
    );
    let payload = json!({"hook_event_name": "SessionStart", "session_id": "s",
                         "cwd": env.work(), "source": "startup"});
    assert_eq!(
        answer(&claude(&env, "SessionStart", &payload)),
        json!({"decision": "block", "reason": "this folder is read-only"})
    );
}

#[test]
fn context_after_a_tool_call_reaches_claude_code() {
    let env = TestEnv::new();
    hook(
        &env,
        "after",
        "post-tool-call",
        r#"cat >/dev/null; echo '{"context":"the tests are in t/"}'"#,
    );
    let mut payload = tool_call(&env, "Bash", "ls");
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"stdout": "a b", "stderr": ""});
    assert_eq!(
        answer(&claude(&env, "PostToolUse", &payload)),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
               "additionalContext": "the tests are in t/"}})
    );
}

#[test]
fn hooks_read_claude_codes_fields_under_the_hermes_names_too() {
    let env = TestEnv::new();
    let seen = env.path("seen.json");
    hook(
        &env,
        "gate",
        "pre-agent-turn-stop",
        &format!("cat > '{}'", seen.display()),
    );
    let payload = json!({"hook_event_name": "Stop", "session_id": "s", "cwd": env.work(),
                         "stop_hook_active": false, "last_assistant_message": "All done."});
    let out = claude(&env, "Stop", &payload);
    assert_eq!((code(&out), out.stdout.is_empty()), (0, true), "{out:?}");
    let got: Value = serde_json::from_slice(&fs::read(&seen).unwrap()).unwrap();
    assert_eq!(got["assistant_response"], "All done.", "{got}");
    assert_eq!(got["last_assistant_message"], "All done.", "{got}");
}

#[test]
fn post_compact_runs_the_post_context_compact_hooks() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    hook(
        &env,
        "after-compact",
        "post-context-compact",
        &format!("cat >/dev/null; touch '{}'", marker.display()),
    );
    let payload = json!({"hook_event_name": "PostCompact", "session_id": "s",
                         "cwd": env.work(), "trigger": "auto", "compact_summary": "..."});
    let out = claude(&env, "PostCompact", &payload);
    assert_eq!((code(&out), out.stdout.is_empty()), (0, true), "{out:?}");
    assert!(marker.exists());
}

#[test]
fn claude_codes_events_without_a_counterpart_run_nothing_and_answer_nothing() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    hook(
        &env,
        "any",
        "pre-tool-call",
        &format!("cat >/dev/null; touch '{}'", marker.display()),
    );
    for event in ["TaskCreated", "Setup", "PermissionDenied", "PostToolBatch"] {
        let payload = json!({"hook_event_name": event, "session_id": "s", "cwd": env.work()});
        let out = claude(&env, event, &payload);
        assert_eq!(
            (code(&out), out.stdout.is_empty()),
            (0, true),
            "{event}: {out:?}"
        );
    }
    assert!(!marker.exists());
}

fn repl_call(env: &TestEnv, code: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.work(),
           "permission_mode": "default", "tool_name": "REPL",
           "tool_input": {"code": code, "description": "tidy"}, "tool_use_id": "t1"})
}

fn shell_guard(env: &TestEnv, body: &str) {
    env.hook_md(
        &env.project_hooks(),
        "shell-guard",
        "name: shell-guard\ndescription: Guards the shell\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        body,
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn repl_code_reaches_a_shell_guard_as_the_command() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"grep -q '"command": *"o.x=sh(.rm -rf' && echo '{"decision": "block", "reason": "no rm"}'"#,
    );
    let got = answer(&claude(
        &env,
        "PreToolUse",
        &repl_call(&env, "o.x=sh('rm -rf keep')"),
    ));
    assert_eq!(
        got["hookSpecificOutput"]["permissionDecision"], "deny",
        "{got}"
    );
}

#[test]
fn a_shell_rewrite_of_repl_code_blocks_rather_than_run_as_javascript() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"touch marker"}}'"#,
    );
    let got = answer(&claude(
        &env,
        "PreToolUse",
        &repl_call(&env, "o.x=sh('rm -rf keep')"),
    ));
    assert_eq!(
        got["hookSpecificOutput"]["permissionDecision"], "deny",
        "{got}"
    );
}

#[test]
fn a_rewrite_of_repl_leaves_its_input_in_its_own_keys() {
    let env = TestEnv::new();
    shell_guard(
        &env,
        r#"cat >/dev/null; echo '{"action":"modify","args":{"description":"looked at"}}'"#,
    );
    let got = answer(&claude(
        &env,
        "PreToolUse",
        &repl_call(&env, "o.x=sh('ls')"),
    ));
    assert_eq!(
        got["hookSpecificOutput"]["updatedInput"],
        json!({"code": "o.x=sh('ls')", "description": "looked at"})
    );
}

/// A skill's `` !`cmd` `` shell command (Claude Code's `PreSkillShellCommand`) is a shell call
/// for every guard: a block is a deny, and a rewrite, which Claude Code cannot apply there, is a
/// deny that says so.
#[test]
fn a_skills_shell_command_meets_every_shell_guard() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "no-deletes",
        "name: no-deletes\ndescription: Refuses deletes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "grep -q 'rm -rf' && { echo 'deletes are not allowed' >&2; exit 2; }; exit 0",
    );
    env.hook_md(
        &env.project_hooks(),
        "soften",
        "name: soften\ndescription: Turns listings long\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        r#"grep -q '"ls"' && echo '{"action":"modify","args":{"command":"ls -l"}}'; exit 0"#,
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let skill = |command: &str, tool: Option<&str>| {
        let mut payload = json!({"hook_event_name": "PreSkillShellCommand", "session_id": "s",
            "cwd": env.work(), "tool_input": {"command": command}, "tool_use_id": "t9",
            "command_name": "wipe", "invoked_by": "user"});
        if let Some(tool) = tool {
            payload["tool_name"] = json!(tool);
        }
        answer(&claude(&env, "PreSkillShellCommand", &payload))
    };
    for tool in [Some("Bash"), None] {
        let got = skill("rm -rf ../victim", tool);
        let output = &got["hookSpecificOutput"];
        assert_eq!(output["hookEventName"], "PreSkillShellCommand", "{got}");
        assert_eq!(output["permissionDecision"], "deny", "{got}");
        assert_eq!(
            output["permissionDecisionReason"],
            "deletes are not allowed"
        );
    }
    let got = skill("ls", Some("Bash"));
    assert_eq!(
        got["hookSpecificOutput"]["permissionDecision"], "deny",
        "{got}"
    );
    assert!(
        got["hookSpecificOutput"].get("updatedInput").is_none(),
        "{got}"
    );
    let harmless = claude(
        &env,
        "PreSkillShellCommand",
        &json!({"hook_event_name": "PreSkillShellCommand", "session_id": "s", "cwd": env.work(),
                "tool_name": "Bash", "tool_input": {"command": "pwd"}}),
    );
    assert_eq!(code(&harmless), 0);
    assert!(harmless.stdout.is_empty(), "{harmless:?}");
}
