//! `log`: recent decisions from the audit log as a table or JSON, filtered by event, session,
//! status and `--blocked`; what it says when no log is configured.

use std::fs;

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, redacted, stderr};

/// A log of three runs (one of them a block), a torn line and a blank one.
const LOG: &str = r#"{"time":"2026-11-20T10:00:00.123456Z","event":"pre_tool_call","session_id":"sess-1","tool_name":"terminal","exit":2,"directive":{"action":"block","message":"Force pushes are not allowed here"},"hooks":[{"name":"guard","source":"agent-hooks","command":"/p/.agents/hooks/guard/scripts/run","sha256":"ab","status":"blocked","directive":{"action":"block","message":"Force pushes are not allowed here"}},{"name":"later","source":"config","command":"later.sh","sha256":null,"status":"not_run","directive":{}}]}
{"time":"2026-11-20T10:00:05Z","event":"pre_tool_call","session_id":"sess-2","tool_name":"read_file","exit":0,"directive":{},"hooks":[{"name":"guard","source":"agent-hooks","command":"/p/.agents/hooks/guard/scripts/run","sha256":null,"status":"not_matched","directive":{}},{"name":"later","source":"config","command":"later.sh","sha256":null,"status":"unapproved","directive":{},"message":"not approved: run `hermes-hooks approve later.sh`"}]}
{"time":"2026-11-20T10:01:00Z","event":"pre_llm_call","session_id":"sess-1","exit":0,"directive":{"context":"Uses tabs"},"hooks":[{"name":"ctx","source":"config","command":"ctx.sh","sha256":"cd","status":"context","directive":{"context":"Uses tabs"}}]}
{"time":"2026-11-20T10:0
"#;

fn log(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd()
        .arg("log")
        .args(args)
        .env("HERMES_HOOKS_AUDIT_LOG", env.path("audit.jsonl"))
        .output()
        .unwrap()
}

#[test]
fn log_shows_recent_decisions_as_a_table() {
    let env = TestEnv::new();
    fs::write(env.path("audit.jsonl"), format!("{LOG}\n")).unwrap();
    let out = log(&env, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           EVENT          SESSION  HOOK   STATUS      DIRECTIVE  MESSAGE
2026-11-20 10:00:00  pre_tool_call  sess-1   guard  blocked     block      Force pushes are not allowed here
2026-11-20 10:00:00  pre_tool_call  sess-1   later  not_run     -
2026-11-20 10:00:05  pre_tool_call  sess-2   later  unapproved  -          not approved: run `hermes-hooks approve later.sh`
2026-11-20 10:01:00  pre_llm_call   sess-1   ctx    context     context    Uses tabs

"#]]
    );
    assert!(
        stderr(&out).contains("1 line(s) are not audit entries and were skipped (line 4)"),
        "{}",
        stderr(&out)
    );

    let out = log(&env, &["--blocked"]);
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           EVENT          SESSION  HOOK   STATUS   DIRECTIVE  MESSAGE
2026-11-20 10:00:00  pre_tool_call  sess-1   guard  blocked  block      Force pushes are not allowed here

"#]]
    );
}

#[test]
fn log_filters_and_json() {
    let env = TestEnv::new();
    fs::write(env.path("audit.jsonl"), LOG).unwrap();
    let rows = |args: &[&str]| -> Vec<Value> {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = log(&env, &all);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["schema_version"], 1);
        assert_eq!(doc["skipped_lines"], 1);
        doc["rows"].as_array().unwrap().clone()
    };
    let hooks = |rows: &[Value]| -> Vec<String> {
        rows.iter()
            .map(|r| {
                format!(
                    "{}:{}",
                    r["hook"].as_str().unwrap(),
                    r["status"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        hooks(&rows(&[])),
        [
            "guard:blocked",
            "later:not_run",
            "later:unapproved",
            "ctx:context"
        ]
    );
    let blocked = rows(&["--blocked"]);
    assert_eq!(hooks(&blocked), ["guard:blocked"]);
    assert_eq!(blocked[0]["message"], "Force pushes are not allowed here");
    assert_eq!(blocked[0]["directive"], "block");
    assert_eq!(blocked[0]["exit"], 2);
    assert_eq!(blocked[0]["tool_name"], "terminal");
    assert_eq!(hooks(&rows(&["--session", "sess-2"])), ["later:unapproved"]);
    assert_eq!(
        hooks(&rows(&["--event", "UserPromptSubmit"])),
        ["ctx:context"]
    );
    assert_eq!(
        hooks(&rows(&["--status", "not_matched"])),
        ["guard:not_matched"]
    );
    assert_eq!(hooks(&rows(&["-n", "1"])), ["ctx:context"]);
    assert_eq!(hooks(&rows(&["--limit", "0"])).len(), 4);

    let out = log(&env, &["--status", "nope"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("invalid value 'nope' for '--status <STATUS>'")
            && stderr(&out).contains("possible values: ok, blocked"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn log_reads_what_run_writes() {
    let env = TestEnv::new();
    let hook = env.script(
        "guard.sh",
        r#"grep -q 'force' && { echo 'no force pushes' >&2; exit 2; }; exit 0"#,
    );
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    env.approve("pre_tool_call", &command);
    for args in ["git push --force", "ls"] {
        env.cmd()
            .args(["run", "pre_tool_call", "--audit-log"])
            .arg(env.path("audit.jsonl"))
            .write_stdin(format!(
                r#"{{"tool_name": "terminal", "args": {{"command": "{args}"}}, "session_id": "s"}}"#
            ))
            .output()
            .unwrap();
    }
    let out = env
        .cmd()
        .args(["log", "--json", "--audit-log"])
        .arg(env.path("audit.jsonl"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{doc}");
    assert_eq!(rows[0]["status"], "blocked");
    assert_eq!(rows[0]["message"], "no force pushes");
    assert_eq!(rows[0]["command"], command.as_str());
    assert_eq!(rows[1]["status"], "ok");
    assert_eq!(doc["skipped_lines"], 0);
}

#[test]
fn log_says_how_to_turn_it_on() {
    let env = TestEnv::new();
    let out = env.cmd().arg("log").output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no audit log is configured")
            && stderr(&out).contains("HERMES_HOOKS_AUDIT_LOG=FILE"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());

    let out = log(&env, &[]);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("does not exist yet"),
        "{}",
        stderr(&out)
    );
    let out = log(&env, &["--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["rows"], serde_json::json!([]));

    std::fs::create_dir(env.path("audit.jsonl")).unwrap();
    let out = log(&env, &[]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot read the audit log"),
        "{}",
        stderr(&out)
    );
}
