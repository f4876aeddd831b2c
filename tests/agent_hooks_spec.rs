//! The Agent Hooks specification's newer parts: `metadata` in HOOK.md, the limits on name,
//! description and timeout (each message naming file and line), `additional_context` in an
//! answer, and the spec's payload fields on the events this tool knows.

use serde_json::Value;

use crate::common::{TestEnv, code, json, statuses, stderr};

/// `list --json`'s loaded hook names and its stderr.
fn listed(env: &TestEnv) -> (Vec<String>, String) {
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_owned())
        .collect();
    (names, stderr(&out))
}

#[test]
fn metadata_of_strings_is_accepted_quietly() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "tagged",
        "name: tagged\ndescription: d\ntrigger: pre-session\nmetadata:\n  author: me\n  version: \"1.0\"\n",
        "cat >/dev/null",
    );
    let (names, err) = listed(&env);
    assert_eq!(names, ["tagged"]);
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn metadata_that_is_not_strings_warns_with_file_and_line_and_keeps_the_hook() {
    let env = TestEnv::new();
    let level = env.project_hooks();
    env.hook_md(
        &level,
        "listy",
        "name: listy\ndescription: d\ntrigger: pre-session\nmetadata: [a, b]\n",
        "cat >/dev/null",
    );
    env.hook_md(
        &level,
        "numbers",
        "name: numbers\ndescription: d\ntrigger: pre-session\nmetadata:\n  author: me\n  version: 1\n  tags: [x]\n",
        "cat >/dev/null",
    );
    let (names, err) = listed(&env);
    assert_eq!(names, ["listy", "numbers"], "{err}");
    for expected in [
        ".agents/hooks/listy/HOOK.md:5: metadata must be a mapping of names to strings, not a list",
        ".agents/hooks/numbers/HOOK.md:7: metadata.version must be a string (got 1)",
        ".agents/hooks/numbers/HOOK.md:8: metadata.tags must be a string (got a list)",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }
}

#[test]
fn name_description_and_timeout_limits_hold_at_their_edges() {
    let env = TestEnv::new();
    let level = env.project_hooks();
    let long_name = "a".repeat(65);
    let edge_name = "b".repeat(64);
    for (folder, frontmatter) in [
        (
            edge_name.clone(),
            format!(
                "name: {edge_name}\ndescription: {}\ntrigger: pre-session\ntimeout: 100\n",
                "d".repeat(1024)
            ),
        ),
        (
            "longest".to_owned(),
            "name: longest\ndescription: d\ntrigger: pre-session\ntimeout: 600000\n".to_owned(),
        ),
        (
            long_name.clone(),
            format!(
                "name: {long_name}\ndescription: {}\ntrigger: pre-session\ntimeout: 99\n",
                "d".repeat(1025)
            ),
        ),
        (
            "typed".to_owned(),
            "name: 12\ndescription: 5\ntrigger: pre-session\ntimeout: 600001\n".to_owned(),
        ),
    ] {
        env.hook_md(&level, &folder, &frontmatter, "cat >/dev/null");
    }
    let (names, err) = listed(&env);
    assert_eq!(names.len(), 4, "every hook still loads: {names:?}\n{err}");
    let md = |folder: &str| format!(".agents/hooks/{folder}/HOOK.md");
    for expected in [
        format!("{}:2: name must be 1 to 64 characters", md(&long_name)),
        format!(
            "{}:3: description must be 1 to 1024 characters",
            md(&long_name)
        ),
        format!(
            "{}:5: timeout 99 ms is outside 100..600000; using 100 ms",
            md(&long_name)
        ),
        format!(
            "{}:2: name must be a string of 1 to 64 characters (got 12)",
            md("typed")
        ),
        format!(
            "{}:3: description must be a string of 1 to 1024 characters (got 5)",
            md("typed")
        ),
        format!(
            "{}:5: timeout 600001 ms is outside 100..600000; using 600000 ms",
            md("typed")
        ),
    ] {
        assert!(err.contains(&expected), "missing {expected:?} in:\n{err}");
    }
    for quiet in [md(&edge_name), md("longest")] {
        assert!(
            !err.contains(&quiet),
            "{quiet} is within the limits:\n{err}"
        );
    }
}

#[test]
fn additional_context_in_an_agent_hooks_answer_is_context() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "ctx",
        "name: ctx\ndescription: d\ntrigger: pre-agent-turn\n",
        r#"cat >/dev/null; printf '{"decision": "allow", "additional_context": "It is Friday."}'"#,
    );
    let out = env
        .cmd()
        .args(["run", "pre_llm_call", "--accept-hooks"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(statuses(&line), ["context"], "{line}");
    assert_eq!(line["context"], "It is Friday.");
}

/// An Agent Hooks hook `name` on `trigger` that saves its stdin to `name.in`.
fn recording_hook(env: &TestEnv, name: &str, trigger: &str) {
    let saved = env.path(&format!("{name}.in"));
    env.hook_md(
        &env.project_hooks(),
        name,
        &format!("name: {name}\ndescription: d\ntrigger: {trigger}\n"),
        &format!("cat > '{}'", saved.display()),
    );
}

fn received(env: &TestEnv, name: &str) -> Value {
    let text = std::fs::read_to_string(env.path(&format!("{name}.in"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_hermes_subagent_goal_is_the_spec_task_description_never_over_a_given_one() {
    let env = TestEnv::new();
    recording_hook(&env, "sub", "pre-subagent");
    approve_all(&env);
    let out = env.run(
        "subagent_start",
        r#"{"parent_session_id": "parent-1", "child_role": "leaf", "child_goal": "Summarise the log"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = received(&env, "sub");
    assert_eq!(got["task_description"], "Summarise the log", "{got}");
    assert_eq!(got["child_goal"], "Summarise the log");
    assert_eq!(got["parent_session_id"], "parent-1");
    assert_eq!(got["session_id"], "parent-1");
    // A role is not a type: Hermes's `child_role` is not taken as `subagent_type`.
    assert!(got.get("subagent_type").is_none(), "{got}");
    let out = env.run(
        "subagent_start",
        r#"{"session_id": "s", "child_goal": "g", "task_description": "own"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(received(&env, "sub")["task_description"], "own");
}

#[test]
fn claude_codes_agent_type_and_end_reason_are_the_spec_fields() {
    let env = TestEnv::new();
    recording_hook(&env, "sub", "pre-subagent");
    recording_hook(&env, "end", "post-session");
    approve_all(&env);
    let claude = |event: &str, payload: &str| {
        env.cmd()
            .args(["run", "--agent", "claude-code", event])
            .write_stdin(payload)
            .output()
            .unwrap()
    };
    let out = claude(
        "SubagentStart",
        r#"{"hook_event_name": "SubagentStart", "session_id": "s", "agent_id": "a1", "agent_type": "Explore"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(received(&env, "sub")["subagent_type"], "Explore");
    let out = claude(
        "SessionEnd",
        r#"{"hook_event_name": "SessionEnd", "session_id": "s", "reason": "prompt_input_exit"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(received(&env, "end")["exit_reason"], "prompt_input_exit");
}

#[test]
fn spec_fields_the_payload_carries_reach_agent_hooks_at_the_top_level() {
    let env = TestEnv::new();
    recording_hook(&env, "end", "post-session");
    recording_hook(&env, "gate", "pre-agent-turn-stop");
    approve_all(&env);
    let out = env.run(
        "on_session_end",
        r#"{"session_id": "s", "duration_seconds": 12.5, "total_steps": 7, "exit_reason": "user_exit"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = received(&env, "end");
    assert_eq!(
        (
            &got["duration_seconds"],
            &got["total_steps"],
            &got["exit_reason"]
        ),
        (
            &Value::from(12.5),
            &Value::from(7),
            &Value::from("user_exit")
        )
    );
    let out = env.run(
        "pre_verify",
        r#"{"session_id": "s", "stop_reason": "no_tool_calls", "step_count": 3, "final_message": {"role": "assistant", "content": "done"}}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = received(&env, "gate");
    assert_eq!(got["stop_reason"], "no_tool_calls");
    assert_eq!(got["step_count"], 3);
    assert_eq!(got["final_message"]["content"], "done");
}
