//! `run --agent copilot`: GitHub Copilot CLI's camelCase events and payloads (`toolName`,
//! `toolArgs`) in, the answers Copilot reads at the top level out (a deny, `modifiedArgs`,
//! `additionalContext`, `decision: block` on `agentStop`); its Claude Code names get Claude
//! Code's answers; a runner error never exits non-zero, which Copilot would read as a deny.

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

/// `run --agent copilot <event>` with `payload` (Copilot's common fields added) on stdin.
fn copilot(env: &TestEnv, event: &str, mut payload: Value, extra: &[&str]) -> Output {
    payload["cwd"] = json!(env.work());
    payload["sessionId"] = json!("copilot-session");
    payload["timestamp"] = json!(1_795_804_499_097_u64);
    env.cmd()
        .args(["run", "--agent", "copilot", event])
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

/// A `bash` call as Copilot 1.0.102 sends it: `toolArgs` an object.
fn bash_call(command: &str) -> Value {
    json!({"toolName": "bash", "toolArgs": {"command": command, "description": "Run it"}})
}

const BLOCK_RM: &str =
    r#"case "$(cat)" in *"rm -rf"*) echo '{"decision":"block","reason":"no rm -rf"}' ;; esac"#;

/// An approved project guard on the shell class that blocks `rm -rf`.
fn no_rm_guard(env: &TestEnv) {
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        &fm("no-rm", "pre_tool_call", "matcher:\n  tool: shell\n"),
        BLOCK_RM,
    );
    approve_all(env);
}

fn hook(env: &TestEnv, name: &str, trigger: &str, body: &str) {
    env.hook_md(&env.project_hooks(), name, &fm(name, trigger, ""), body);
    approve_all(env);
}

#[test]
fn a_shell_guard_blocks_copilots_bash_with_a_top_level_deny_and_exit_0() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let out = copilot(&env, "preToolUse", bash_call("rm -rf keep"), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"})
    );
}

#[test]
fn tool_args_sent_as_a_json_text_are_read_as_the_tools_input() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let args = json!({"command": "rm -rf keep", "description": "Run it"}).to_string();
    let call = json!({"toolName": "bash", "toolArgs": args});
    let out = copilot(&env, "preToolUse", call, &[]);
    assert_eq!(
        answer(&out)["permissionDecision"],
        "deny",
        "{}",
        stderr(&out)
    );
}

#[test]
fn input_typed_into_a_shell_session_is_guarded_as_a_shell_command() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let call =
        json!({"toolName": "write_bash", "toolArgs": {"shellId": "0", "input": "rm -rf keep\n"}});
    let out = copilot(&env, "preToolUse", call, &[]);
    assert_eq!(
        answer(&out)["permissionDecision"],
        "deny",
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_rewrite_is_modified_args_carrying_every_argument() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "defuse",
        &fm("defuse", "pre_tool_call", "matcher:\n  tool: shell\n"),
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"true"}}'"#,
    );
    approve_all(&env);
    let out = copilot(&env, "preToolUse", bash_call("rm -rf keep"), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"modifiedArgs": {"command": "true", "description": "Run it"}})
    );
}

#[test]
fn context_is_additional_context_at_the_top_level_where_copilot_reads_it() {
    let env = TestEnv::new();
    let say = |word: &str| format!(r#"cat >/dev/null; echo '{{"context":"{word}"}}'"#);
    hook(&env, "prompt", "pre_llm_call", &say("on prompt"));
    hook(&env, "after", "post_tool_call", &say("after tool"));
    let out = copilot(
        &env,
        "userPromptSubmitted",
        json!({"prompt": "Tidy up"}),
        &[],
    );
    assert_eq!(answer(&out), json!({"additionalContext": "on prompt"}));
    let mut result = bash_call("echo hi");
    result["toolResult"] = json!({"resultType": "success", "textResultForLlm": "hi"});
    let out = copilot(&env, "postToolUse", result, &[]);
    assert_eq!(answer(&out), json!({"additionalContext": "after tool"}));
}

#[test]
fn the_gate_on_agent_stop_is_a_block_whose_reason_copilot_sends_as_the_next_prompt() {
    let env = TestEnv::new();
    hook(
        &env,
        "gate",
        "pre_verify",
        r#"cat >/dev/null; echo '{"action":"continue","message":"run the tests"}'"#,
    );
    let stop = json!({"stopReason": "end_turn", "stop_hook_active": false});
    let out = copilot(&env, "agentStop", stop, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"decision": "block", "reason": "run the tests"})
    );
}

#[test]
fn nothing_to_say_is_exit_0_with_nothing_on_stdout() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let out = copilot(&env, "preToolUse", bash_call("ls"), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn the_claude_code_names_copilot_also_fires_get_claude_codes_answers() {
    let env = TestEnv::new();
    no_rm_guard(&env);
    let call = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf keep", "description": "Run it"}});
    let out = copilot(&env, "PreToolUse", call, &[]);
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_payload_that_cannot_be_read_fails_open_with_exit_0_or_denies_when_failing_closed() {
    let env = TestEnv::new();
    let run = |extra: &[&str]| {
        env.cmd()
            .args(["run", "--agent", "copilot", "preToolUse"])
            .args(extra)
            .write_stdin("{")
            .output()
            .unwrap()
    };
    // Copilot denies a tool call whose hook exits non-zero: failing open is exit 0.
    let open = run(&[]);
    assert_eq!(code(&open), 0, "{}", stderr(&open));
    assert!(open.stdout.is_empty());
    let closed = run(&["--fail-closed"]);
    assert_eq!(code(&closed), 0, "{}", stderr(&closed));
    assert_eq!(answer(&closed)["permissionDecision"], "deny");
}
