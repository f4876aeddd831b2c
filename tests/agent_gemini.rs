//! `run --agent gemini`: Gemini CLI's event names and payloads in, its own answers out (JSON on
//! stdout with exit 0, since Gemini reads stdout before the exit code), for one set of hooks.

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

/// `run --agent gemini <event>` with `payload` (its `cwd` set to the project) on stdin.
fn gemini(env: &TestEnv, event: &str, mut payload: Value, extra: &[&str]) -> Output {
    payload["cwd"] = json!(env.work());
    payload["hook_event_name"] = json!(event);
    payload["session_id"] = json!("gemini-session");
    env.cmd()
        .args(["run", "--agent", "gemini", event])
        .args(extra)
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
    json!({"tool_name": "run_shell_command", "tool_input": {"command": command}})
}

const BLOCK_RM: &str =
    r#"case "$(cat)" in *"rm -rf"*) echo '{"decision":"block","reason":"no rm -rf"}' ;; esac"#;

/// An approved project guard on the shell class that blocks `rm -rf`.
fn no_rm_guard(env: &TestEnv) {
    let extra = "matcher:\n  tool: shell\n";
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        &fm("no-rm", "pre_tool_call", extra),
        BLOCK_RM,
    );
    approve_all(env);
}

#[test]
fn a_shell_guard_blocks_run_shell_command_with_a_deny_on_stdout_and_exit_0() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let out = gemini(&env, "BeforeTool", shell_call("rm -rf keep"), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"decision": "deny", "reason": "no rm -rf"})
    );
}

#[test]
fn a_search_guard_sees_gemini_grep_search_under_its_current_and_its_old_name() {
    let env = TestEnv::new();
    let body = r#"cat >/dev/null; echo '{"decision":"block","reason":"no searching"}'"#;
    let extra = "matcher:\n  tool: search\n";
    env.hook_md(
        &env.project_hooks(),
        "no-search",
        &fm("no-search", "pre_tool_call", extra),
        body,
    );
    approve_all(&env);
    for tool in ["grep_search", "search_file_content", "glob"] {
        let call = json!({"tool_name": tool, "tool_input": {"pattern": "secret"}});
        let out = gemini(&env, "BeforeTool", call, &[]);
        assert_eq!(answer(&out)["decision"], "deny", "{tool}: {}", stderr(&out));
    }
}

#[test]
fn a_rewrite_hands_gemini_every_argument_because_gemini_replaces_them_whole() {
    let env = TestEnv::new();
    let body = r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"true"}}'"#;
    let extra = "matcher:\n  tool: shell\n";
    env.hook_md(
        &env.project_hooks(),
        "defuse",
        &fm("defuse", "pre_tool_call", extra),
        body,
    );
    approve_all(&env);
    let call = json!({"tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf keep", "dir_path": "sub", "is_background": false}});
    let out = gemini(&env, "BeforeTool", call, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["tool_input"],
        json!({"command": "true", "dir_path": "sub", "is_background": false})
    );
}

#[test]
fn context_before_the_agent_and_at_session_start_is_additional_context() {
    let env = TestEnv::new();
    let say = |word: &str| format!(r#"cat >/dev/null; echo '{{"context":"{word}"}}'"#);
    let level = env.project_hooks();
    env.hook_md(
        &level,
        "prompt",
        &fm("prompt", "pre_llm_call", ""),
        &say("on prompt"),
    );
    env.hook_md(
        &level,
        "session",
        &fm("session", "pre-session", ""),
        &say("at start"),
    );
    approve_all(&env);
    for (event, payload, text) in [
        ("BeforeAgent", json!({"prompt": "hello"}), "on prompt"),
        ("SessionStart", json!({"source": "startup"}), "at start"),
    ] {
        let out = gemini(&env, event, payload, &[]);
        let specific = &answer(&out)["hookSpecificOutput"];
        assert_eq!(
            specific["additionalContext"],
            text,
            "{event}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn context_after_a_tool_reaches_gemini_which_appends_it_to_the_result() {
    let env = TestEnv::new();
    let body = r#"cat >/dev/null; echo '{"context":"the build is red"}'"#;
    env.hook_md(
        &env.project_hooks(),
        "note",
        &fm("note", "post-tool-call", ""),
        body,
    );
    approve_all(&env);
    let call = json!({"tool_name": "run_shell_command", "tool_input": {"command": "make"},
        "tool_response": {"llmContent": "Exit Code: 2", "returnDisplay": ""}});
    let out = gemini(&env, "AfterTool", call, &[]);
    let specific = &answer(&out)["hookSpecificOutput"];
    assert_eq!(
        specific["additionalContext"],
        "the build is red",
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_tool_call_gemini_reports_as_failed_runs_the_failure_hooks() {
    let env = TestEnv::new();
    let log = env.path("ran.log").display().to_string();
    let note = |word: &str| format!("cat >/dev/null; echo {word} >> '{log}'");
    let level = env.project_hooks();
    env.hook_md(
        &level,
        "ok",
        &fm("ok", "post-tool-call", ""),
        &note("success"),
    );
    env.hook_md(
        &level,
        "failed",
        &fm("failed", "post-tool-call-failure", ""),
        &note("failure"),
    );
    approve_all(&env);
    let failed = json!({"tool_name": "read_file", "tool_input": {"file_path": "missing"},
        "tool_response": {"llmContent": "no file", "returnDisplay": "File not found.",
            "error": {"message": "File not found", "type": "file_not_found"}}});
    let out = gemini(&env, "AfterTool", failed, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let worked = json!({"tool_name": "read_file", "tool_input": {"file_path": "there"},
        "tool_response": {"llmContent": "text", "returnDisplay": ""}});
    gemini(&env, "AfterTool", worked, &[]);
    assert_eq!(fs::read_to_string(&log).unwrap(), "failure\nsuccess\n");
}

#[test]
fn nothing_to_say_is_exit_0_and_a_guard_that_allows_changes_nothing() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let out = gemini(&env, "BeforeTool", shell_call("ls"), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_payload_that_cannot_be_read_fails_open_or_denies_when_failing_closed() {
    let env = TestEnv::new();
    let run = |extra: &[&str]| {
        env.cmd()
            .args(["run", "--agent", "gemini", "BeforeTool"])
            .args(extra)
            .write_stdin("{")
            .output()
            .unwrap()
    };
    // Exit 1 with nothing on stdout: a warning to Gemini, never a block.
    let open = run(&[]);
    assert_eq!(code(&open), 1);
    assert!(open.stdout.is_empty());
    let closed = run(&["--fail-closed"]);
    assert_eq!(code(&closed), 0, "{}", stderr(&closed));
    assert_eq!(answer(&closed)["decision"], "deny");
}
