//! Event names: canonical, alias and Claude Code names run the same hooks; typos get a
//! suggestion; `events` prints the table, and `events EVENT` an event's payloads and answers.

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, json, redacted, statuses, stderr};

#[test]
fn canonical_and_alias_run_the_same_hooks() {
    let env = TestEnv::new();
    let hook = env.script("ctx.sh", r#"cat >/dev/null; printf '{"context": "hi"}'"#);
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_llm_call:\n    - command: {command}\n  pre-agent-turn:\n    - command: {command} again\n"
    ));
    env.approve("pre_llm_call", &command);
    env.approve("pre_llm_call", &format!("{command} again"));
    for name in ["pre_llm_call", "pre-agent-turn"] {
        let out = env.run(name, "{}");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let line = json(&out);
        assert_eq!(line["event"], "pre_llm_call");
        assert_eq!(statuses(&line), ["context", "context"]);
        assert_eq!(line["context"], "hi\n\nhi");
    }
}

#[test]
fn typo_suggests_and_exits_1() {
    let env = TestEnv::new();
    let out = env.run("pre_tool_cal", "{}");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("did you mean 'pre_tool_call'?"),
        "{}",
        stderr(&out)
    );
    let line = json(&out);
    assert_eq!(line["event"], "pre_tool_cal");
    assert!(line["error"].as_str().unwrap().contains("unknown event"));
    let out = env.run("post-tool-cal-failure", "{}");
    assert!(stderr(&out).contains("did you mean 'post-tool-call-failure'?"));
}

#[test]
fn legacy_names_run_with_a_warning() {
    let env = TestEnv::new();
    let out = env.run("before_tool", "{}");
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out)["event"], "pre_tool_call");
    assert!(stderr(&out).contains("use 'pre-tool-call'"));
}

#[test]
fn events_table_and_json() {
    let env = TestEnv::new();
    let out = env.cmd().arg("events").output().unwrap();
    assert_eq!(code(&out), 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("pre_tool_call"))
        .unwrap();
    assert!(
        row.contains("pre-tool-call") && row.contains("block, ask, modify"),
        "{row}"
    );
    assert!(text.contains("transform_api_error_classification") && text.contains("refused"));

    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    let rows: Vec<Value> = doc["events"].as_array().unwrap().clone();
    assert_eq!(
        rows.iter().filter(|r| r["canonical"].is_string()).count(),
        42
    );
    let verify = rows
        .iter()
        .find(|r| r["canonical"] == "pre_verify")
        .unwrap();
    assert_eq!(verify["aliases"][0], "pre-agent-turn-stop");
    assert_eq!(verify["config"][0], "gate");
    assert!(
        rows.iter()
            .any(|r| r["canonical"].is_null() && r["aliases"][0] == "pre-context-compact")
    );
}

#[test]
fn every_event_runs() {
    let env = TestEnv::new();
    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    let rows: Vec<Value> = doc["events"].as_array().unwrap().clone();
    for row in rows {
        let name = row["canonical"]
            .as_str()
            .or_else(|| row["aliases"][0].as_str())
            .unwrap();
        let out = env.run(name, "{}");
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        assert_eq!(json(&out)["event"], name);
    }
}

#[test]
fn claude_code_names_run_the_same_hooks_and_near_misses_suggest_them() {
    let env = TestEnv::new();
    let hook = env.script(
        "guard.sh",
        r#"cat >/dev/null; printf '{"action": "block", "message": "no"}'"#,
    );
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  PreToolUse:\n    - command: {command}\n"
    ));
    env.approve("pre_tool_call", &command);
    let out = env.run("PreToolUse", r#"{"tool_name": "terminal"}"#);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["event"], "pre_tool_call");
    assert_eq!(statuses(&line), ["blocked"]);
    assert!(
        stderr(&out).contains(
            "'PreToolUse' (Claude Code's name for 'pre_tool_call') is not a Hermes event name: \
             Hermes ignores these hooks, this tool runs them; write 'pre_tool_call' so both do"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&env.run("pre_tool_call", "{}")), 2);

    let out = env.run("PreToolUs", "{}");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("did you mean 'PreToolUse'?"));
    let out = env
        .cmd()
        .args(["list", "--event", "PreToolUse", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_claude_code_trigger_in_hook_md_runs_with_a_warning() {
    let env = TestEnv::new();
    let failed = env.path("failed");
    env.hook_md(
        &env.user_hooks(),
        "on-failure",
        "name: on-failure\ndescription: d\ntrigger: PostToolUseFailure\n",
        &format!("cat > {}", failed.display()),
    );
    let out = env
        .cmd()
        .args(["run", "PostToolUse", "--accept-hooks"])
        .write_stdin(r#"{"tool_name": "terminal", "status": "ok"}"#)
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["not_matched"]);
    assert!(
        stderr(&out).contains(
            "trigger 'PostToolUseFailure' is Claude Code's name; other Agent Hooks runners know \
             it as 'post-tool-call-failure'"
        ),
        "{}",
        stderr(&out)
    );
    let out = env
        .cmd()
        .args(["run", "PostToolUseFailure", "--accept-hooks"])
        .write_stdin(r#"{"tool_name": "terminal"}"#)
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["ok"], "{}", stderr(&out));
    let received = std::fs::read_to_string(&failed).unwrap();
    assert!(received.starts_with(r#"{"event_type": "post-tool-call-failure""#));
}

/// `events EVENT --json`.
fn detail(env: &TestEnv, event: &str) -> Value {
    let out = env
        .cmd()
        .args(["events", event, "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// An Agent Hooks payload with its timestamp taken out (it is the time of the call).
fn untimed(payload: &str) -> String {
    let mut value: Value = serde_json::from_str(payload).unwrap();
    value.as_object_mut().unwrap().remove("timestamp");
    value.to_string()
}

#[test]
fn events_shows_the_payload_each_source_reads_byte_for_byte() {
    let env = TestEnv::new();
    let events: Vec<&str> = vec![
        "pre_tool_call",
        "post_tool_call",
        "PostToolUseFailure",
        "pre_llm_call",
        "post_llm_call",
        "pre_verify",
        "on_session_start",
        "on_session_end",
        "subagent_start",
        "subagent_stop",
        "post_api_request",
        "pre-context-compact",
    ];
    for event in events {
        let doc = detail(&env, event);
        let config_file = env.path("config-payload");
        let agent_file = env.path("agent-payload");
        let _ = std::fs::remove_file(&config_file);
        let _ = std::fs::remove_file(&agent_file);
        let script = env.script("dump.sh", &format!("cat > {}", config_file.display()));
        env.config(&format!(
            "hooks:\n  {}:\n    - command: {}\n",
            doc["event"].as_str().unwrap(),
            script.display()
        ));
        let trigger = doc["payload"]["agent_hooks"].as_str().unwrap();
        let trigger: Value = serde_json::from_str(trigger).unwrap();
        let _ = std::fs::remove_dir_all(env.user_hooks());
        env.hook_md(
            &env.user_hooks(),
            "dump",
            &format!(
                "name: dump\ndescription: d\ntrigger: {}\n",
                trigger["event_type"].as_str().unwrap()
            ),
            &format!("cat > {}", agent_file.display()),
        );
        let out = env
            .cmd()
            .args(["test", event, "--accept-hooks"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{event}: {}", stderr(&out));
        assert_eq!(
            std::fs::read_to_string(&config_file).unwrap(),
            doc["payload"]["config"].as_str().unwrap(),
            "{event}"
        );
        assert_eq!(
            untimed(&std::fs::read_to_string(&agent_file).unwrap()),
            untimed(doc["payload"]["agent_hooks"].as_str().unwrap()),
            "{event}"
        );
    }
}

#[test]
fn events_json_names_every_dialect_and_answer() {
    let env = TestEnv::new();
    let doc = detail(&env, "Stop");
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["event"], "pre_verify");
    assert_eq!(doc["called_as"], "Stop");
    assert_eq!(doc["names"]["agent_hooks"][0], "pre-agent-turn-stop");
    assert_eq!(doc["names"]["claude_code"][0], "Stop");
    assert_eq!(doc["can"]["config"][0], "gate");
    let effects: Vec<&str> = doc["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["effect"].as_str().unwrap())
        .collect();
    assert_eq!(effects, ["nothing", "gate"]);
    assert_eq!(
        doc["answers"][1]["agent_hooks"]["stdout"],
        r#"{"decision": "block", "reason": "Run the tests before you stop"}"#
    );
    let post = detail(&env, "post_tool_call");
    assert_eq!(
        post["answers"][1]["sources"],
        serde_json::json!(["agent-hooks"])
    );
    assert_eq!(post["can"]["config"], serde_json::json!([]));
}

#[test]
fn events_detail_for_a_person() {
    let env = TestEnv::new();
    let out = env.cmd().args(["events", "PreToolUse"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
pre_tool_call
  Agent Hooks: pre-tool-call
  Claude Code: PreToolUse, PreSkillShellCommand
  Codex CLI: PreToolUse
  Gemini CLI: BeforeTool
  Cursor: preToolUse, beforeShellExecution, beforeMCPExecution, beforeReadFile
  GitHub Copilot CLI: preToolUse, PreToolUse
  Factory Droid: PreToolUse
  Qwen Code: PreToolUse
  OpenCode: tool.execute.before
  Kilo Code: tool.execute.before
  Pi: tool_call
  Cline: PreToolUse
Tool matchers apply: a config hook's `matcher`, a HOOK.md's `matcher.tool` and `matcher.pattern`.

What hooks can do here
  config hooks       block, ask, modify (Hermes honours all but ask, which only hermes-hooks reads from a config hook)
  agent-hooks hooks  block, ask, modify
  rules              block, ask

What a config hook reads on stdin (one line, no newline at the end):
{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "echo hello"}, "session_id": "test-session", "cwd": "[ROOT]/work", "profile": "default", "extra": {"task_id": "test-task", "tool_call_id": "test-call"}}

What an agent-hooks hook reads on stdin (the timestamp is the time of the call):
{"event_type": "pre-tool-call", "timestamp": "[..]", "session_id": "test-session", "work_dir": "[ROOT]/work", "context": {}, "tool_name": "terminal", "tool_input": {"command": "echo hello"}, "tool_use_id": "test-call", "tool_class": "shell", "task_id": "test-task", "tool_call_id": "test-call"}

How to answer (hermes-hooks reads either form; Hermes reads only its own):
  nothing: let it go on unchanged
    Hermes form:
      print {"action": "allow"}
    Agent Hooks form:
      exit 0, print nothing
  block: stop what is about to happen, with a reason
    Hermes form:
      print {"action": "block", "message": "Not allowed here: say why"}
    Agent Hooks form:
      exit 2, reason on stderr: Not allowed here: say why
  ask: let a person decide before it runs
    Hermes form:
      print {"action": "approve", "message": "This deletes files: a person should decide"}
    Agent Hooks form:
      print {"decision": "ask", "reason": "This deletes files: a person should decide"}
  modify: rewrite the tool input (merged over the current one)
    Hermes form:
      print {"action": "modify", "args": {"command": "timeout 60 echo hello"}}
    Agent Hooks form:
      print {"decision": "allow", "modified_input": {"command": "timeout 60 echo hello"}}

Or, with no script, a rule (in rules.yaml; `hermes-hooks new --rules` starts one):
  rules:
  - name: no-force-push
    event: pre_tool_call
    tool: shell
    when:
      command: '/bgit/s+push/b.*/s(-f|--force)/b'
    action: block
    message: Force pushes are not allowed here.

"#]]
    );
}
