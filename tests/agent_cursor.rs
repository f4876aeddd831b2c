//! `run --agent cursor`: Cursor's events and payloads (as its hooks page documents them) go in,
//! and Cursor's own answer comes out: a deny, a rewrite, context, the stop follow-up, nothing
//! that grants a permission, and runner errors that fail open unless `--fail-closed`.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

/// A project guard for shell calls (any agent's shell tool), approved.
fn shell_guard(env: &TestEnv) {
    env.hook_md(
        &env.project_hooks(),
        "no-force-push",
        "name: no-force-push\ndescription: Refuses force pushes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        r#"grep -q -- '--force' && { echo 'force pushes are not allowed here' >&2; exit 2; }; exit 0"#,
    );
    approve_all(env);
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// `run --agent cursor <event>` with `payload` on stdin, started outside the project (as a
/// user-level Cursor hook runs, from `~/.cursor`): the project comes from the payload.
fn cursor(env: &TestEnv, flags: &[&str], event: &str, payload: &Value) -> Output {
    env.cmd()
        .current_dir(env.home())
        .args(["run", "--agent", "cursor"])
        .args(flags)
        .arg(event)
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

/// The whole of stdout, which must be one JSON object and nothing else.
fn answer(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("\"hooks\""),
        "our report stays off stdout: {text}"
    );
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

/// The fields every Cursor event carries.
fn common(event: &str, project: &Path) -> Value {
    json!({
        "conversation_id": "conv-1",
        "generation_id": "gen-1",
        "model": "claude-4-sonnet",
        "hook_event_name": event,
        "cursor_version": "2.4.0",
        "workspace_roots": [project],
        "user_email": null,
        "transcript_path": null,
    })
}

fn with(mut base: Value, fields: Value) -> Value {
    let (Value::Object(base_map), Value::Object(extra)) = (&mut base, fields) else {
        unreachable!()
    };
    base_map.extend(extra);
    base
}

fn before_shell(env: &TestEnv, command: &str, cwd: &str) -> Value {
    with(
        common("beforeShellExecution", &env.work()),
        json!({"command": command, "cwd": cwd, "sandbox": false}),
    )
}

fn pre_tool_use(env: &TestEnv, tool: &str, input: &Value) -> Value {
    with(
        common("preToolUse", &env.work()),
        json!({"tool_name": tool, "tool_input": input, "tool_use_id": "tu-1", "cwd": env.work()}),
    )
}

#[test]
fn a_project_shell_guard_denies_cursors_shell_call_in_cursors_words() {
    let env = TestEnv::new();
    shell_guard(&env);
    let work = env.work().display().to_string();
    let out = cursor(
        &env,
        &[],
        "beforeShellExecution",
        &before_shell(&env, "git push --force", &work),
    );
    assert_eq!(code(&out), 0, "Cursor reads the deny from JSON on exit 0");
    assert_eq!(
        answer(&out),
        json!({"permission": "deny", "user_message": "force pushes are not allowed here",
               "agent_message": "force pushes are not allowed here"})
    );
    let out = cursor(
        &env,
        &[],
        "preToolUse",
        &pre_tool_use(
            &env,
            "Shell",
            &json!({"command": "git push --force", "working_directory": work}),
        ),
    );
    assert_eq!(answer(&out)["permission"], "deny");
}

#[test]
fn an_empty_cwd_does_not_hide_the_project_guard() {
    let env = TestEnv::new();
    shell_guard(&env);
    // Cursor sends `"cwd": ""` at times; the workspace root is then the project.
    let out = cursor(
        &env,
        &[],
        "beforeShellExecution",
        &before_shell(&env, "git push --force", ""),
    );
    assert_eq!(answer(&out)["permission"], "deny", "{}", stderr(&out));
}

#[test]
fn nothing_leaves_cursors_own_decision_in_place() {
    let env = TestEnv::new();
    shell_guard(&env);
    let work = env.work().display().to_string();
    // The guard runs and lets the call pass; a read is not the guard's tool at all.
    for (event, payload) in [
        (
            "beforeShellExecution",
            before_shell(&env, "git status", &work),
        ),
        (
            "preToolUse",
            pre_tool_use(&env, "Read", &json!({"path": "README.md"})),
        ),
        (
            "beforeReadFile",
            with(
                common("beforeReadFile", &env.work()),
                json!({"file_path": env.work().join("README.md"), "content": "hi"}),
            ),
        ),
        (
            "beforeMCPExecution",
            with(
                common("beforeMCPExecution", &env.work()),
                json!({"tool_name": "query", "tool_input": "{}", "mcp_server_name": "db", "command": "db-server"}),
            ),
        ),
    ] {
        let out = cursor(&env, &[], event, &payload);
        assert_eq!(code(&out), 0, "{event}: {}", stderr(&out));
        assert_eq!(answer(&out), json!({}), "{event}: no permission is granted");
    }
    let prompt = with(
        common("beforeSubmitPrompt", &env.work()),
        json!({"prompt": "hello", "attachments": []}),
    );
    let out = cursor(&env, &[], "beforeSubmitPrompt", &prompt);
    assert_eq!(answer(&out), json!({"continue": true}));
}

#[test]
fn a_config_rewrite_is_updated_input_on_pre_tool_use_and_a_deny_where_cursor_cannot_apply_it() {
    let env = TestEnv::new();
    let command = "~/.hermes/agent-hooks/soften.sh";
    env.script(
        "soften.sh",
        r#"cat >/dev/null; echo '{"action": "modify", "args": {"command": "git push --force-with-lease"}}'"#,
    );
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - matcher: Shell\n      command: {command}\n"
    ));
    env.approve("pre_tool_call", command);
    let work = env.work().display().to_string();
    let out = cursor(
        &env,
        &[],
        "preToolUse",
        &pre_tool_use(
            &env,
            "Shell",
            &json!({"command": "git push --force", "working_directory": work}),
        ),
    );
    assert_eq!(
        answer(&out),
        json!({"permission": "allow", "updated_input":
               {"command": "git push --force-with-lease", "working_directory": work}})
    );
    // beforeShellExecution has no field for a rewrite: the original call must not run.
    let out = cursor(
        &env,
        &[],
        "beforeShellExecution",
        &before_shell(&env, "git push --force", &work),
    );
    let answer = answer(&out);
    assert_eq!(answer["permission"], "deny");
    assert!(answer.get("updated_input").is_none());
}

#[test]
fn context_reaches_the_model_at_session_start_and_after_a_tool() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "brief",
        "name: brief\ndescription: Says what the project is\ntrigger: pre-session\n",
        r#"cat >/dev/null; echo '{"context": "this repository deploys on push"}'"#,
    );
    env.hook_md(
        &env.project_hooks(),
        "after",
        "name: after\ndescription: Notes after a tool\ntrigger: post-tool-call\n",
        r#"cat >/dev/null; echo '{"context": "the tests are slow"}'"#,
    );
    approve_all(&env);
    let start = with(
        common("sessionStart", &env.work()),
        json!({"session_id": "conv-1", "is_background_agent": false, "composer_mode": "agent"}),
    );
    let out = cursor(&env, &[], "sessionStart", &start);
    assert_eq!(
        answer(&out),
        json!({"additional_context": "this repository deploys on push"}),
        "{}",
        stderr(&out)
    );
    let post = with(
        common("postToolUse", &env.work()),
        json!({"tool_name": "Shell", "tool_input": {"command": "npm test"},
               "tool_output": "{\"exitCode\":0}", "tool_use_id": "tu-1",
               "cwd": env.work(), "duration": 12}),
    );
    let out = cursor(&env, &[], "postToolUse", &post);
    assert_eq!(
        answer(&out),
        json!({"additional_context": "the tests are slow"})
    );
}

#[test]
fn plain_text_is_never_context_for_cursor() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "chatty",
        "name: chatty\ndescription: Prints text\ntrigger: pre-session\n",
        "cat >/dev/null; echo 'remember the deploy freeze'",
    );
    approve_all(&env);
    let start = with(
        common("sessionStart", &env.work()),
        json!({"session_id": "conv-1", "is_background_agent": false}),
    );
    let out = cursor(&env, &[], "sessionStart", &start);
    assert_eq!(answer(&out), json!({}), "{}", stderr(&out));
}

#[test]
fn a_gate_at_stop_is_cursors_follow_up_message() {
    let env = TestEnv::new();
    let command = "~/.hermes/agent-hooks/gate.sh";
    env.script(
        "gate.sh",
        r#"cat >/dev/null; echo '{"action": "continue", "message": "run the tests first"}'"#,
    );
    env.config(&format!(
        "hooks:\n  pre_verify:\n    - command: {command}\n"
    ));
    env.approve("pre_verify", command);
    let stop = with(
        common("stop", &env.work()),
        json!({"status": "completed", "loop_count": 0}),
    );
    let out = cursor(&env, &[], "stop", &stop);
    assert_eq!(code(&out), 0);
    assert_eq!(
        answer(&out),
        json!({"followup_message": "run the tests first"})
    );
}

#[test]
fn runner_errors_fail_open_and_fail_closed_gives_cursors_deny() {
    let env = TestEnv::new();
    shell_guard(&env);
    let bad = |flags: &[&str], event: &str| {
        env.cmd()
            .current_dir(env.home())
            .args(["run", "--agent", "cursor"])
            .args(flags)
            .arg(event)
            .write_stdin("{not json")
            .output()
            .unwrap()
    };
    let out = bad(&[], "beforeShellExecution");
    assert_eq!(
        code(&out),
        0,
        "Cursor would read another code as a failed hook"
    );
    assert_eq!(answer(&out), json!({}), "failing open grants nothing");
    assert!(stderr(&out).contains("bad payload"), "{}", stderr(&out));
    let out = cursor(&env, &[], "beforeNothing", &json!({}));
    assert_eq!((code(&out), answer(&out)), (0, json!({})));
    assert!(stderr(&out).contains("unknown event"), "{}", stderr(&out));

    let out = bad(&["--fail-closed"], "beforeShellExecution");
    assert_eq!(code(&out), 0);
    let deny = answer(&out);
    assert_eq!(deny["permission"], "deny");
    let message = deny["agent_message"].as_str().unwrap();
    assert!(
        message.starts_with("hermes-hooks could not check this call"),
        "{message}"
    );
}
