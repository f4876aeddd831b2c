//! Newer Hermes events and payload fields: the auxiliary-call observers, `pre_tts_synthesis`
//! (fired by Hermes for Python plugins only) and the fields newer payloads carry.

use serde_json::Value;

use crate::common::{TestEnv, code, json, statuses, stderr};

/// A hook that saves its stdin to `name`.in next to it and answers nothing.
fn recorder(env: &TestEnv, name: &str) -> String {
    let out = env.path(&format!("{name}.in"));
    env.script(name, &format!("cat > '{}'", out.display()))
        .display()
        .to_string()
}

fn recorded(env: &TestEnv, name: &str) -> Value {
    let text = std::fs::read_to_string(env.path(&format!("{name}.in"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn doc(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn auxiliary_call_events_are_known_to_list_doctor_and_run() {
    let env = TestEnv::new();
    let pre = recorder(&env, "pre.sh");
    let post = recorder(&env, "post.sh");
    env.config(&format!(
        "hooks:\n  pre_auxiliary_call:\n    - command: {pre}\n  post_auxiliary_call:\n    - command: {post}\n"
    ));
    let list = env.cmd().args(["list", "--json"]).output().unwrap();
    let list = doc(&list);
    assert_eq!(list["warnings"], Value::Array(vec![]), "{list}");
    let events: Vec<&str> = list["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["pre_auxiliary_call", "post_auxiliary_call"]);
    let doctor = env
        .cmd()
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    assert_eq!(doc(&doctor)["summary"]["errors"], 0, "{}", doc(&doctor));
    env.approve("pre_auxiliary_call", &pre);
    let out = env.run("pre_auxiliary_call", r#"{"aux_task": "title_generation"}"#);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("unknown event"), "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["ok"]);
    assert_eq!(
        recorded(&env, "pre.sh")["extra"]["aux_task"],
        "title_generation"
    );
}

#[test]
fn auxiliary_call_hooks_are_observers_whatever_they_answer() {
    let env = TestEnv::new();
    let guard = env.script(
        "guard.sh",
        r#"cat >/dev/null; printf '{"action": "block", "message": "no"}'; exit 2"#,
    );
    let command = guard.display().to_string();
    env.config(&format!(
        "hooks:\n  post_auxiliary_call:\n    - command: {command}\n"
    ));
    env.approve("post_auxiliary_call", &command);
    let out = env.run("post_auxiliary_call", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(json(&out).get("action").is_none(), "{}", json(&out));
    let rows = env.cmd().args(["events", "--json"]).output().unwrap();
    let rows = doc(&rows);
    for name in ["pre_auxiliary_call", "post_auxiliary_call"] {
        let row = rows["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["canonical"] == name)
            .unwrap();
        assert_eq!(row["config"], Value::Array(vec![]), "{row}");
        assert_eq!(row["agent_hooks"], Value::Array(vec![]), "{row}");
    }
}

#[test]
fn test_sends_hermes_own_auxiliary_call_payload() {
    let env = TestEnv::new();
    let hook = recorder(&env, "aux.sh");
    env.config(&format!(
        "hooks:\n  post_auxiliary_call:\n    - command: {hook}\n"
    ));
    let out = env
        .cmd()
        .args(["test", "post_auxiliary_call", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let wire = std::fs::read_to_string(env.path("aux.sh.in")).unwrap();
    assert!(
        wire.contains(r#""extra": {"aux_task": "title_generation", "task_id": "test-task", "turn_id": "test-turn", "api_request_id": "aux-0123abcd", "platform": "cli", "model": "claude-haiku-4-5""#),
        "{wire}"
    );
    assert!(
        wire.contains(r#""error": null, "error_type": null}"#),
        "{wire}"
    );
}

/// The newer kwargs, a multimodal `user_message` among them.
const NEWER_KWARGS: &str = r#"{"session_id": "s", "turn_id": "turn-7", "tool_call_id": "call-3", "retry_count": 2, "sender_id": "user-42", "user_message": [{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}], "is_first_turn": false}"#;

#[test]
fn newer_fields_reach_config_hooks_in_extra_unchanged() {
    let env = TestEnv::new();
    let hook = recorder(&env, "cfg.sh");
    env.config(&format!("hooks:\n  pre_llm_call:\n    - command: {hook}\n"));
    env.approve("pre_llm_call", &hook);
    let out = env.run("pre_llm_call", NEWER_KWARGS);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let sent: Value = serde_json::from_str(NEWER_KWARGS).unwrap();
    let got = recorded(&env, "cfg.sh");
    assert_eq!(got["session_id"], "s");
    for key in [
        "turn_id",
        "tool_call_id",
        "retry_count",
        "sender_id",
        "user_message",
    ] {
        assert_eq!(got["extra"][key], sent[key], "{key}: {got}");
    }
}

#[test]
fn newer_fields_reach_agent_hooks_at_the_top_level_unchanged() {
    let env = TestEnv::new();
    let saved = env.path("turn.in");
    env.hook_md(
        &env.project_hooks(),
        "turn",
        "name: turn\ndescription: d\ntrigger: pre-agent-turn\n",
        &format!("cat > '{}'", saved.display()),
    );
    let out = env
        .cmd()
        .args(["run", "pre_llm_call", "--accept-hooks"])
        .write_stdin(NEWER_KWARGS)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let sent: Value = serde_json::from_str(NEWER_KWARGS).unwrap();
    let got: Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(got["event_type"], "pre-agent-turn");
    for key in [
        "turn_id",
        "tool_call_id",
        "retry_count",
        "sender_id",
        "user_message",
    ] {
        assert_eq!(got[key], sent[key], "{key}: {got}");
    }
}

#[test]
fn a_parent_session_is_the_config_session_and_an_agent_hooks_field() {
    let env = TestEnv::new();
    let hook = recorder(&env, "cfg.sh");
    env.config(&format!(
        "hooks:\n  subagent_stop:\n    - command: {hook}\n"
    ));
    env.approve("subagent_stop", &hook);
    let saved = env.path("sub.in");
    env.hook_md(
        &env.project_hooks(),
        "sub",
        "name: sub\ndescription: d\ntrigger: post-subagent\n",
        &format!("cat > '{}'", saved.display()),
    );
    let out = env
        .cmd()
        .args(["run", "subagent_stop", "--accept-hooks"])
        .write_stdin(r#"{"parent_session_id": "parent-9", "child_status": "completed"}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Hermes keeps `parent_session_id` out of `extra`: it is the session's fallback.
    let config = recorded(&env, "cfg.sh");
    assert_eq!(config["session_id"], "parent-9");
    assert!(
        config["extra"].get("parent_session_id").is_none(),
        "{config}"
    );
    let agent: Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(agent["parent_session_id"], "parent-9", "{agent}");
}

#[test]
fn a_multimodal_prompt_from_another_agent_is_the_user_message_unchanged() {
    let env = TestEnv::new();
    let saved = env.path("turn.in");
    env.hook_md(
        &env.project_hooks(),
        "turn",
        "name: turn\ndescription: d\ntrigger: pre-agent-turn\n",
        &format!("cat > '{}'", saved.display()),
    );
    env.cmd().args(["approve", "--yes"]).assert().success();
    let prompt = serde_json::json!([{"type": "text", "text": "hi"}, {"type": "image", "source": {"data": "AAAA"}}]);
    let payload = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": prompt});
    let out = env
        .cmd()
        .args(["run", "--agent", "claude-code", "UserPromptSubmit"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(got["user_message"], prompt, "{got}");
}

/// A config hook on `pre_tts_synthesis` that answers `answer`, approved.
fn tts_hook(env: &TestEnv, name: &str, answer: &str) -> String {
    let hook = env
        .script(name, &format!("cat >/dev/null; printf '%s' '{answer}'"))
        .display()
        .to_string();
    env.approve("pre_tts_synthesis", &hook);
    hook
}

#[test]
fn a_tts_config_hook_loads_with_a_warning_that_hermes_never_runs_it() {
    let env = TestEnv::new();
    let hook = recorder(&env, "tts.sh");
    env.config(&format!(
        "hooks:\n  pre_tts_synthesis:\n    - command: {hook}\n"
    ));
    let said = "Hermes fires 'pre_tts_synthesis' for Python plugins only and does not run config hooks for it";
    let list = env.cmd().args(["list", "--json"]).output().unwrap();
    let listed = doc(&list);
    assert_eq!(listed["hooks"][0]["event"], "pre_tts_synthesis", "{listed}");
    assert_eq!(listed["warnings"][0]["kind"], "not_for_hermes");
    assert!(stderr(&list).contains(said), "{}", stderr(&list));
    assert!(!stderr(&list).contains("unknown event"));
    let doctor = env
        .cmd()
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    let report = doc(&doctor).to_string();
    assert!(report.contains(said), "{report}");
    assert!(!report.contains("unknown event"), "{report}");
    env.approve("pre_tts_synthesis", &hook);
    let out = env.run(
        "pre_tts_synthesis",
        r#"{"text": "Deploy finished.", "provider": "edge"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["ok"]);
    let got = recorded(&env, "tts.sh");
    assert_eq!(
        (&got["extra"]["text"], &got["extra"]["provider"]),
        (&Value::from("Deploy finished."), &Value::from("edge"))
    );
}

#[test]
fn a_tts_hook_replaces_the_text_the_last_one_winning_and_a_block_beating_it() {
    let env = TestEnv::new();
    let first = tts_hook(&env, "first.sh", r#"{"text": "One."}"#);
    let second = tts_hook(&env, "second.sh", r#"{"text": "Two."}"#);
    let odd = tts_hook(&env, "odd.sh", r#"{"text": "Three.", "action": "allow"}"#);
    env.config(&format!(
        "hooks:\n  pre_tts_synthesis:\n    - command: {first}\n    - command: {second}\n    - command: {odd}\n"
    ));
    let out = env.run(
        "pre_tts_synthesis",
        r#"{"text": "Zero.", "provider": "edge"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["text"], "Two.", "{line}");
    assert!(line.get("action").is_none(), "{line}");
    assert_eq!(statuses(&line), ["modified", "modified", "ok"]);
    assert!(
        stderr(&out).contains("exactly {\"text\""),
        "{}",
        stderr(&out)
    );

    let guard = tts_hook(
        &env,
        "guard.sh",
        r#"{"action": "block", "message": "No secrets aloud"}"#,
    );
    env.config(&format!(
        "hooks:\n  pre_tts_synthesis:\n    - command: {first}\n    - command: {guard}\n"
    ));
    let out = env.run("pre_tts_synthesis", r#"{"text": "Zero."}"#);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(
        (&line["action"], &line["message"]),
        (&Value::from("block"), &Value::from("No secrets aloud"))
    );
    assert!(line.get("text").is_none(), "{line}");
}

#[test]
fn test_runs_a_tts_hook_on_a_text_and_a_provider() {
    let env = TestEnv::new();
    let hook = tts_hook(&env, "say.sh", r#"{"text": "Shorter."}"#);
    env.config(&format!(
        "hooks:\n  pre_tts_synthesis:\n    - command: {hook}\n"
    ));
    let out = env
        .cmd()
        .args(["test", "pre_tts_synthesis", "--expect", "text", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = doc(&out);
    assert_eq!(report["directive"]["text"], "Shorter.", "{report}");
    assert_eq!(
        report["payload"],
        serde_json::json!({"text": "Your build passed.", "provider": "edge"})
    );
}
