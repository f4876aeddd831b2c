//! What the newest Hermes changed in how it reads config hooks, held here: a `fail_closed` guard
//! must answer, the model reads a hook's name without its command line, and several rewrites
//! add up over the original input.

use std::fmt::Write as _;

use serde_json::json;

use crate::common::{TestEnv, code, json, statuses, stderr};

const CALL: &str = r#"{"tool_name": "terminal", "args": {"command": "ls", "cwd": "/w"}}"#;

/// One approved config hook on `pre_tool_call` running `body`, `fail_closed` as given.
fn guard(env: &TestEnv, body: &str, fail_closed: bool) -> String {
    let hook = env.script("guard.sh", body).display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {hook}\n      fail_closed: {fail_closed}\n"
    ));
    env.approve("pre_tool_call", &hook);
    hook
}

#[test]
fn a_fail_closed_config_guard_that_does_not_answer_blocks() {
    for (case, body, says) in [
        (
            "a failing exit, whatever it printed",
            r#"cat >/dev/null; printf '{"action": "modify", "args": {"command": "true"}}'; exit 1"#,
            "crashed (exited with code 1 without giving an answer)",
        ),
        ("nothing on stdout", "cat >/dev/null", "gave no answer"),
        (
            "an answer that is no directive",
            r#"cat >/dev/null; printf '{"context": "hello"}'"#,
            "gave an answer that is not allow, block or modify",
        ),
        (
            "a Python crash",
            "cat >/dev/null; printf 'Traceback (most recent call last):\\n  File \"g.py\"\\nModuleNotFoundError: No module named \\047rules\\047 (TOKEN=s3cret)\\n' >&2; exit 1",
            "crashed (ModuleNotFoundError: it could not import `rules`)",
        ),
        (
            "a signal",
            "cat >/dev/null; kill -9 $$",
            "crashed (it was killed by a signal)",
        ),
    ] {
        let env = TestEnv::new();
        guard(&env, body, true);
        let out = env.run("pre_tool_call", CALL);
        assert_eq!(code(&out), 2, "{case}: {}", stderr(&out));
        let line = json(&out);
        let message = line["message"].as_str().unwrap();
        assert!(
            message.starts_with("hook guard.sh#") && message.contains(says),
            "{case}: {message}"
        );
        assert!(!message.contains("s3cret"), "{case}: {message}");
        assert!(
            message.ends_with("so this call was blocked (fail_closed)"),
            "{case}: {message}"
        );
    }
}

#[test]
fn a_fail_closed_config_guard_that_says_go_on_lets_the_call_run() {
    for body in [
        r#"cat >/dev/null; printf '{}'"#,
        r#"cat >/dev/null; printf '{"action": "allow"}'"#,
        r#"cat >/dev/null; printf '{"decision": "allow"}'"#,
        r#"cat >/dev/null; printf '{"action": "modify", "args": {}}'"#,
    ] {
        let env = TestEnv::new();
        guard(&env, body, true);
        let out = env.run("pre_tool_call", CALL);
        assert_eq!(code(&out), 0, "{body}: {}", stderr(&out));
    }
    // Without fail_closed, silence is "go on", as it always was.
    let env = TestEnv::new();
    guard(&env, "cat >/dev/null", false);
    assert_eq!(code(&env.run("pre_tool_call", CALL)), 0);
}

#[test]
fn an_agent_hooks_guard_keeps_its_formats_reading_of_silence() {
    let env = TestEnv::new();
    let level = env.user_hooks();
    env.hook_md(
        &level,
        "quiet",
        "name: quiet\ndescription: d\ntrigger: pre-tool-call\nfail_closed: true\n",
        "cat >/dev/null\n",
    );
    let approve = env
        .cmd()
        .args(["approve", "--all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(
        code(&approve),
        0,
        "{}",
        String::from_utf8_lossy(&approve.stderr)
    );
    let out = env.run("pre_tool_call", CALL);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn the_model_never_reads_a_config_hooks_command_line() {
    let env = TestEnv::new();
    let script = env.script("check.sh", "cat >/dev/null; exit 2");
    let command = format!("env TOKEN=s3cret {}", script.display());
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n      fail_closed: true\n"
    ));
    env.approve("pre_tool_call", &command);
    let out = env.run("pre_tool_call", CALL);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    let message = line["message"].as_str().unwrap();
    assert!(message.starts_with("Blocked by hook env#"), "{message}");
    assert!(!message.contains("s3cret"), "{message}");
    // Claude Code's reason for the model too.
    let claude = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w",
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let out = env
        .cmd()
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .write_stdin(claude.to_string())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("env#") && !text.contains("s3cret"), "{text}");
}

#[test]
fn rewrites_add_up_over_the_original_input_and_a_later_block_still_wins() {
    let env = TestEnv::new();
    let mut yaml = "hooks:\n  pre_tool_call:\n".to_owned();
    for (i, body) in [
        r#"cat >/dev/null; printf '{"action": "modify", "args": {"command": "ls -a", "timeout": 5}}'"#,
        r#"cat >/dev/null; printf '{"decision": "modify", "tool_input": {"timeout": 9}}'"#,
    ]
    .iter()
    .enumerate()
    {
        let hook = env.script(&format!("r{i}.sh"), body).display().to_string();
        writeln!(yaml, "    - command: {hook}").unwrap();
        env.approve("pre_tool_call", &hook);
    }
    env.config(&yaml);
    let line = json(&env.run("pre_tool_call", CALL));
    assert_eq!(line["action"], "modify");
    assert_eq!(
        line["args"],
        json!({"command": "ls -a", "cwd": "/w", "timeout": 9}),
        "the original's keys, each rewrite over it, the later one winning a shared key"
    );
    let blocker = env
        .script(
            "b.sh",
            r#"cat >/dev/null; printf '{"action": "block", "message": "no"}'"#,
        )
        .display()
        .to_string();
    writeln!(yaml, "    - command: {blocker}").unwrap();
    env.approve("pre_tool_call", &blocker);
    env.config(&yaml);
    let out = env.run("pre_tool_call", CALL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(line["action"], "block");
    assert!(line.get("args").is_none());
    assert_eq!(statuses(&line), ["modified", "modified", "blocked"]);
}
