//! Event names: canonical and alias both run; typos get a suggestion; `events` prints the table.

use serde_json::Value;

use crate::common::{TestEnv, code, json, statuses, stderr};

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
        row.contains("pre-tool-call") && row.contains("block, modify"),
        "{row}"
    );
    assert!(text.contains("transform_api_error_classification") && text.contains("refused"));

    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    let rows: Vec<Value> = doc["events"].as_array().unwrap().clone();
    assert_eq!(
        rows.iter().filter(|r| r["canonical"].is_string()).count(),
        39
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
