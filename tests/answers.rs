//! Reading answers and combining them: both block dialects and exit 2, `modify` chained in order,
//! contexts joined, the quality gate, `fail_closed`, order on gating events, concurrency on
//! observer events.

use std::fmt::Write as _;
use std::fs;

use hermes_hooks::Event;
use serde_json::json;

use crate::common::{MAX_DEPTH, TestEnv, code, json, nested, statuses, stderr};

/// Config hooks for `event`, one per body, all approved (bodies get the payload on stdin).
fn hooks(env: &TestEnv, event: &str, bodies: &[&str]) {
    let mut yaml = format!("hooks:\n  {event}:\n");
    for (i, body) in bodies.iter().enumerate() {
        let hook = env.script(&format!("h{i}.sh"), body).display().to_string();
        writeln!(yaml, "    - command: {hook}").unwrap();
        env.approve(Event::parse(event).unwrap().event.name(), &hook);
    }
    env.config(&yaml);
}

const TERMINAL: &str =
    r#"{"tool_name": "terminal", "args": {"command": "rm -rf /", "cwd": "/tmp"}}"#;

#[test]
fn hermes_dialect_blocks() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_tool_call",
        &[r#"cat >/dev/null; printf '{"action": "block", "message": "no way"}'"#],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(
        (line["action"].as_str(), line["message"].as_str()),
        (Some("block"), Some("no way"))
    );
    assert_eq!(stderr(&out).lines().last(), Some("no way"));
}

#[test]
fn claude_dialect_blocks() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_tool_call",
        &[r#"cat >/dev/null; printf '{"decision": "deny", "reason": "denied"}'"#],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["message"], "denied");
}

#[test]
fn exit_2_blocks_with_stderr() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_tool_call",
        &["cat >/dev/null; echo 'Dangerous command blocked' >&2; exit 2"],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(line["message"], "Dangerous command blocked");
    assert_eq!(line["hooks"][0]["exit_code"], 2);
    assert_eq!(line["hooks"][0]["status"], "blocked");
}

#[test]
fn modify_chains_in_order() {
    let env = TestEnv::new();
    let seen = env.path("seen.json").display().to_string();
    hooks(
        &env,
        "pre_tool_call",
        &[
            r#"cat >/dev/null; printf '{"action": "modify", "args": {"command": "ls -la"}}'"#,
            &format!(
                r#"cat > '{seen}'; printf '{{"decision": "allow", "modified_input": {{"dry_run": true}}}}'"#
            ),
        ],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["action"], "modify");
    assert_eq!(
        line["args"],
        json!({"command": "ls -la", "cwd": "/tmp", "dry_run": true})
    );
    assert_eq!(statuses(&line), ["modified", "modified"]);
    let second: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(
        second["tool_input"],
        json!({"command": "ls -la", "cwd": "/tmp"}),
        "the second hook saw the rewrite"
    );
}

#[test]
fn a_block_after_a_modify_wins() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_tool_call",
        &[
            r#"cat >/dev/null; printf '{"action": "modify", "args": {"command": "ls"}}'"#,
            "cat >/dev/null; exit 2",
        ],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(line["action"], "block");
    // The model reads a config hook's name as `<label>#<sha8>`, never its command line.
    let message = line["message"].as_str().unwrap();
    assert!(message.starts_with("Blocked by hook h1.sh#"), "{message}");
    assert_eq!(
        message.len(),
        "Blocked by hook h1.sh#".len() + 8,
        "{message}"
    );
    assert!(line.get("args").is_none());
}

#[test]
fn contexts_join_with_a_blank_line() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_llm_call",
        &[
            r#"cat >/dev/null; printf '{"context": "first"}'"#,
            "cat >/dev/null; printf '{}'",
            r#"cat >/dev/null; printf '{"context": "second\\nline"}'"#,
        ],
    );
    let out = env.run(
        "pre_llm_call",
        r#"{"session_id": "s", "user_message": "hi"}"#,
    );
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out)["context"], "first\n\nsecond\nline");
}

#[test]
fn config_hooks_cannot_block_a_turn() {
    let env = TestEnv::new();
    hooks(
        &env,
        "pre_llm_call",
        &["cat >/dev/null; echo no >&2; exit 2"],
    );
    let out = env.run("pre_llm_call", "{}");
    assert_eq!(
        code(&out),
        0,
        "exit 2 where a hook cannot block is a failure, not a block"
    );
    assert_eq!(statuses(&json(&out)), ["failed"]);
}

#[test]
fn quality_gate_keeps_the_agent_working() {
    let env = TestEnv::new();
    // A config hook's exit 2 is no gate (Hermes counts it on pre_tool_call only), and the hook's
    // entry says how to ask instead.
    hooks(
        &env,
        "pre_verify",
        &["cat >/dev/null; echo 'tests are failing' >&2; exit 2"],
    );
    let out = env.run(
        "pre_verify",
        r#"{"session_id": "s", "assistant_response": "done"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["failed"]);
    assert!(
        stderr(&out).contains("only on pre_tool_call"),
        "{}",
        stderr(&out)
    );
    hooks(
        &env,
        "pre_verify",
        &[r#"cat >/dev/null; echo '{"action": "continue", "message": "tests are failing"}'"#],
    );
    let out = env.run(
        "pre_verify",
        r#"{"session_id": "s", "assistant_response": "done"}"#,
    );
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(
        (line["action"].as_str(), line["message"].as_str()),
        (Some("continue"), Some("tests are failing"))
    );
    assert_eq!(statuses(&line), ["gated"]);

    hooks(
        &env,
        "pre-agent-turn-stop",
        &[r#"cat >/dev/null; printf '{"decision": "block", "reason": "add tests"}'"#],
    );
    let out = env.run("pre-agent-turn-stop", "{}");
    assert_eq!(
        (code(&out), json(&out)["action"].as_str()),
        (2, Some("continue"))
    );
    assert_eq!(json(&out)["message"], "add tests");
}

#[test]
fn fail_closed_blocks_on_timeout_and_bad_output() {
    let env = TestEnv::new();
    let slow = env.script("slow.sh", "sleep 30").display().to_string();
    let bad = env
        .script(
            "bad.sh",
            "cat >/dev/null; echo 'Traceback (most recent call last):'",
        )
        .display()
        .to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {bad}\n    - command: {slow}\n      timeout: 1\n      fail_closed: true\n"
    ));
    env.approve("pre_tool_call", &bad);
    env.approve("pre_tool_call", &slow);
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(
        statuses(&line),
        ["invalid_output", "timed_out"],
        "bad output without fail_closed fails open"
    );
    let message = line["message"].as_str().unwrap();
    assert!(
        message.starts_with("hook slow.sh#")
            && message.ends_with(" timed out after 1s, so this call was blocked (fail_closed)"),
        "{message}"
    );
    // The hook's own entry and its stderr line name the hook once.
    assert_eq!(
        line["hooks"][1]["message"],
        "failed closed: timed out after 1s"
    );
    assert!(
        stderr(&out).contains("hook slow.sh (") && !stderr(&out).contains("): hook slow.sh"),
        "{}",
        stderr(&out)
    );

    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {bad}\n      failClosed: true\n"
    ));
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    let message = line["message"].as_str().unwrap();
    assert!(
        message.starts_with("hook bad.sh#")
            && message.ends_with(
                " gave an answer that could not be read, so this call was blocked (fail_closed)"
            ),
        "{message}"
    );
    // The person (stderr, the hook's entry) is told what to do about it.
    assert!(
        line["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("print a JSON object or nothing on stdout, and send logs to stderr"),
        "{line}"
    );
}

#[test]
fn answers_are_read_as_deep_as_python_reads_them_and_deeper_ones_are_bad_output() {
    let env = TestEnv::new();
    let answer = |name: &str, text: String| {
        let file = env.path(name);
        fs::write(&file, text).unwrap();
        format!("cat >/dev/null; cat '{}'", file.display())
    };
    let deep = answer(
        "deep.json",
        format!(
            r#"{{"action": "block", "message": "deep no", "x": {}}}"#,
            nested(MAX_DEPTH - 1, "0", " ")
        ),
    );
    let deeper = answer(
        "deeper.json",
        format!(
            r#"{{"action": "block", "x": {}}}"#,
            nested(100_000, "0", "")
        ),
    );
    let rewrite = answer(
        "rewrite.json",
        format!(
            r#"{{"action": "modify", "args": {{"x": {}}}}}"#,
            nested(MAX_DEPTH - 2, "0", "")
        ),
    );
    // A payload as deep as it may be, too.
    let call = format!(
        r#"{{"tool_name": "terminal", "args": {{"x": {}}}}}"#,
        nested(MAX_DEPTH - 2, "0", "")
    );

    hooks(&env, "pre_tool_call", &[&deep]);
    let out = env.run("pre_tool_call", &call);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(json(&out)["message"], "deep no");

    hooks(&env, "pre_tool_call", &[&deeper]);
    let out = env.run("pre_tool_call", &call);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(statuses(&line), ["invalid_output"]);
    let message = line["hooks"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("nested deeper than 1000 levels at line 1 column"),
        "{message}"
    );

    hooks(&env, "pre_tool_call", &[&rewrite]);
    let out = env.run("pre_tool_call", &call);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!(
            r#"{{"event":"pre_tool_call","action":"modify","args":{{"x":{}}},"hooks":"#,
            nested(MAX_DEPTH - 2, "0", "")
        )),
        "{text}"
    );

    // Observers run side by side, each on a thread of its own.
    hooks(&env, "post_tool_call", &[&deep, &deeper, &deep, &deeper]);
    let out = env.run("post_tool_call", &call);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        statuses(&json(&out)),
        ["ok", "invalid_output", "ok", "invalid_output"]
    );
}

#[test]
fn gating_events_run_in_order_and_stop_at_the_first_block() {
    let env = TestEnv::new();
    let log = env.path("order.log").display().to_string();
    hooks(
        &env,
        "pre_tool_call",
        &[
            &format!("cat >/dev/null; echo one >> '{log}'; printf '{{}}'"),
            &format!("cat >/dev/null; echo two >> '{log}'; exit 2"),
            &format!("cat >/dev/null; echo three >> '{log}'; printf '{{}}'"),
        ],
    );
    let out = env.run("pre_tool_call", TERMINAL);
    assert_eq!(code(&out), 2);
    assert_eq!(statuses(&json(&out)), ["ok", "blocked", "not_run"]);
    assert_eq!(fs::read_to_string(&log).unwrap(), "one\ntwo\n");
}

#[test]
fn observer_events_run_concurrently() {
    // Each hook marks itself started, then waits for the other two: run one after another, the
    // first would wait out its timeout.
    let env = TestEnv::new();
    let dir = env.path("barrier");
    fs::create_dir_all(&dir).unwrap();
    let dir = dir.display().to_string();
    let body = |i: usize| {
        format!(
            "cat >/dev/null; touch '{dir}/{i}'; n=0; while [ \"$(ls '{dir}' | wc -l)\" -lt 3 ]; do n=$((n+1)); [ $n -gt 2000 ] && exit 1; sleep 0.01; done; printf '{{}}'"
        )
    };
    let bodies: Vec<String> = (0..3).map(body).collect();
    let refs: Vec<&str> = bodies.iter().map(String::as_str).collect();
    hooks(&env, "post_tool_call", &refs);
    let out = env.run(
        "post_tool_call",
        r#"{"tool_name": "terminal", "result": "{}"}"#,
    );
    assert_eq!(code(&out), 0);
    assert_eq!(statuses(&json(&out)), ["ok", "ok", "ok"]);
}

#[test]
fn matchers_pick_the_hooks_of_a_tool() {
    let env = TestEnv::new();
    let block = env
        .script("b.sh", "cat >/dev/null; exit 2")
        .display()
        .to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - matcher: 'write_file|patch'\n      command: {block}\n    - matcher: terminal\n      command: {block} t\n"
    ));
    env.approve("pre_tool_call", &block);
    env.approve("pre_tool_call", &format!("{block} t"));
    let out = env.run("pre_tool_call", r#"{"tool_name": "patch"}"#);
    assert_eq!(statuses(&json(&out)), ["blocked", "not_matched"]);
    let out = env.run("pre_tool_call", r#"{"tool_name": "web_search"}"#);
    assert_eq!(code(&out), 0);
    assert_eq!(statuses(&json(&out)), ["not_matched", "not_matched"]);
    let out = env.run("pre_tool_call", "{}");
    assert_eq!(
        statuses(&json(&out)),
        ["not_matched", "not_matched"],
        "no tool name never matches"
    );
}

#[test]
fn an_empty_rewrite_is_no_answer() {
    // agent/shell_hooks.py `_parse_response` takes a rewrite only when `args` is a non-empty
    // dict (`if isinstance(args, dict) and args`): `{}` leaves the call as it is, like `{}`.
    let env = TestEnv::new();
    for answer in [
        r#"{"action": "modify", "args": {}}"#,
        r#"{"decision": "allow", "tool_input": {}}"#,
    ] {
        hooks(
            &env,
            "pre_tool_call",
            &[&format!("cat >/dev/null; printf '{answer}'")],
        );
        // A call that leaves the guard's files alone (`rm -rf /` would be blocked for them).
        let out = env.run(
            "pre_tool_call",
            r#"{"tool_name": "terminal", "args": {"command": "rm -rf build", "cwd": "/tmp"}}"#,
        );
        assert_eq!(code(&out), 0, "{answer}: {}", stderr(&out));
        let line = json(&out);
        assert!(line.get("action").is_none(), "{answer}: {line}");
        assert!(line.get("args").is_none(), "{answer}: {line}");
        assert_ne!(statuses(&line), ["modified"], "{answer}: {line}");
    }
}
