//! When the runner itself cannot decide (a file it cannot parse, a payload it cannot read, an
//! allowlist it cannot read): every other guard still guards, the answer says what could not be
//! read, and fail-closed mode turns the doubt into a block.

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common::{MAX_DEPTH, TestEnv, code, json, nested, stderr};

/// A config.yaml with one indentation mistake (`PyYAML` refuses it too).
const BROKEN_CONFIG: &str =
    "hooks:\n  pre_tool_call:\n    - command: /bin/true\n   matcher: terminal\n";

const FORCE_PUSH: &str =
    r#"{"tool_name": "terminal", "tool_input": {"command": "git push --force origin main"}}"#;
const RM_RF: &str = r#"{"tool_name": "terminal", "tool_input": {"command": "rm -rf /srv/data"}}"#;
const LS: &str = r#"{"tool_name": "terminal", "tool_input": {"command": "ls"}}"#;

/// A user-level HOOK.md guard against `rm -rf` and a project `fail_closed` guard against force
/// pushes, both approved; returns their entry scripts.
fn two_guards(env: &TestEnv) -> (PathBuf, PathBuf) {
    let user = env.hook_md(
        &env.user_hooks(),
        "no-rm-rf",
        "name: no-rm-rf\ndescription: d\ntrigger: pre-tool-call\nmatcher:\n  pattern: 'rm\\s+-rf'\n",
        "cat >/dev/null; echo 'rm -rf is not allowed' >&2; exit 2",
    );
    let project = env.hook_md(
        &env.project_hooks(),
        "no-force-push",
        "name: no-force-push\ndescription: d\ntrigger: pre-tool-call\nfail_closed: true\n\
         matcher:\n  pattern: 'git\\s+push\\s.*--force'\n",
        "cat >/dev/null; echo 'no force pushes' >&2; exit 2",
    );
    for entry in [&user, &project] {
        env.approve("pre_tool_call", &entry.display().to_string());
    }
    (user, project)
}

/// The binary with `args` (`run EVENT` and its options), `payload` on stdin.
fn run_with(env: &TestEnv, args: &[&str], payload: &str) -> Output {
    env.cmd().args(args).write_stdin(payload).output().unwrap()
}

fn errors(line: &Value) -> Vec<(String, String)> {
    line["errors"].as_array().map_or_else(Vec::new, |errors| {
        errors
            .iter()
            .map(|e| {
                (
                    e["source"].as_str().unwrap().to_owned(),
                    e["file"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect()
    })
}

#[test]
fn a_broken_config_does_not_switch_off_the_other_guards() {
    let env = TestEnv::new();
    two_guards(&env);
    env.config(BROKEN_CONFIG);
    let config = env.hermes_home().join("config.yaml").display().to_string();

    for (payload, message) in [
        (FORCE_PUSH, "no force pushes"),
        (RM_RF, "rm -rf is not allowed"),
    ] {
        let out = env.run("pre_tool_call", payload);
        let line = json(&out);
        assert_eq!(code(&out), 2, "{line} {}", stderr(&out));
        assert_eq!(line["message"], message, "{line}");
        assert_eq!(errors(&line), [("config".to_owned(), config.clone())]);
        assert_eq!(line["errors"][0]["line"], 4, "{line}");
        assert!(
            stderr(&out).contains(&format!("error: {config}:4:")),
            "{}",
            stderr(&out)
        );
    }
    // A harmless call goes on, and still says what could not be read.
    let out = env.run("pre_tool_call", LS);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(errors(&json(&out)).len(), 1);
}

#[test]
fn a_broken_managed_config_leaves_the_users_hooks_and_the_reverse() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    let hook = env.script(
        "mark.sh",
        &format!("cat >/dev/null; echo x >> {}", marker.display()),
    );
    let config = format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        hook.display()
    );
    env.approve("on_session_start", &hook.display().to_string());

    env.config(&config);
    let managed = env.managed_config("hooks: [\n");
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["hooks"][0]["status"], "ok", "{}", stderr(&out));
    assert_eq!(
        errors(&json(&out)),
        [("config".to_owned(), managed.display().to_string())]
    );

    env.config("hooks: [\n");
    env.managed_config(&config);
    let out = env.run("on_session_start", "{}");
    assert_eq!(json(&out)["hooks"][0]["status"], "ok", "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&marker).unwrap(), "x\nx\n");
}

#[test]
fn fail_closed_mode_blocks_a_call_the_runner_could_not_check() {
    let env = TestEnv::new();
    two_guards(&env);
    env.config(BROKEN_CONFIG);
    let flag = run_with(&env, &["run", "pre_tool_call", "--fail-closed"], LS);
    let by_env = env
        .cmd()
        .env("HERMES_HOOKS_FAIL_CLOSED", "1")
        .args(["run", "pre_tool_call"])
        .write_stdin(LS)
        .output()
        .unwrap();
    for out in [&flag, &by_env] {
        let line = json(out);
        assert_eq!(code(out), 2, "{line}");
        let message = line["message"].as_str().unwrap();
        assert!(
            message.starts_with("hermes-hooks could not check this call: ")
                && message.contains("config.yaml:4:"),
            "{message}"
        );
        assert_eq!(
            stderr(out).lines().last(),
            Some(message),
            "the block is the last line on stderr"
        );
        // The guards that could be checked still ran.
        assert_eq!(line["hooks"].as_array().unwrap().len(), 2, "{line}");
    }
    // Where nothing the broken file could hold can block, nothing is blocked: config hooks
    // cannot block post_llm_call.
    let out = run_with(&env, &["run", "post_llm_call", "--fail-closed"], "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(errors(&json(&out)).len(), 1);

    // A HOOK.md that cannot be read could hold a guard of any event.
    env.config("");
    let folder = env.project_hooks().join("typo");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        "---\nname: typo\ntrigger: pre-tool-cal\n---\n",
    )
    .unwrap();
    let out = run_with(&env, &["run", "pre_tool_call", "--fail-closed"], LS);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(json(&out)["errors"][0]["source"], "agent-hooks");
    let out = env.run("pre_tool_call", LS);
    assert_eq!(
        code(&out),
        0,
        "without fail-closed mode the doubt is reported, not enforced"
    );
}

#[test]
fn a_known_fail_closed_guard_blocks_a_call_whose_payload_cannot_be_read() {
    let env = TestEnv::new();
    two_guards(&env);
    // The project is found from the working directory when the payload gives none.
    // Arguments nested deeper than Python reads them are a payload that cannot be read too.
    let too_deep = format!(
        r#"{{"tool_name": "terminal", "args": {{"x": {}}}}}"#,
        nested(MAX_DEPTH + 1, "1", " ")
    );
    for payload in [
        r#"{"tool_name": "terminal", "#,
        "[1, 2]",
        "\u{0}",
        &too_deep,
    ] {
        let out = env.run("pre_tool_call", payload);
        let line = json(&out);
        assert_eq!(code(&out), 2, "{line}");
        let message = line["message"].as_str().unwrap();
        assert_eq!(message.matches("no-force-push").count(), 1, "{message}");
        assert!(message.ends_with("(fail_closed)"), "{message}");
        assert!(line["error"].is_string(), "{line}");
        assert_eq!(line["errors"][0]["source"], "payload", "{line}");
        assert!(
            line["hooks"]
                .as_array()
                .unwrap()
                .iter()
                .all(|h| h["status"] == "not_run"),
            "{line}"
        );
    }
}

#[test]
fn an_unreadable_payload_without_a_guard_fails_open_unless_fail_closed_mode() {
    let env = TestEnv::new();
    let out = env.run("pre_tool_call", "{not json");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(json(&out)["error"].is_string());
    let out = run_with(
        &env,
        &["run", "pre_tool_call", "--fail-closed"],
        "{not json",
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        json(&out)["message"]
            .as_str()
            .unwrap()
            .starts_with("hermes-hooks could not check this call: bad payload"),
        "{}",
        json(&out)
    );
    // An event no hook can block is never blocked.
    let out = run_with(
        &env,
        &["run", "on_session_finalize", "--fail-closed"],
        "{not json",
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // An unknown event is a usage error, never a block.
    let out = run_with(&env, &["run", "pre_tool_cal", "--fail-closed"], "{}");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
}

#[test]
fn an_unreadable_allowlist_is_reported_and_closes_in_fail_closed_mode() {
    let env = TestEnv::new();
    let hook = env.script("log.sh", "cat >/dev/null");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        hook.display()
    ));
    fs::write(env.allowlist_path(), "{ not json").unwrap();
    let out = env.run("pre_tool_call", LS);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["hooks"][0]["status"], "unapproved", "{line}");
    assert_eq!(line["errors"][0]["source"], "allowlist", "{line}");
    let out = run_with(&env, &["run", "pre_tool_call", "--fail-closed"], LS);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(env.allowlist_path()).unwrap(),
        "{ not json",
        "never overwritten"
    );
}

#[test]
fn the_audit_log_records_what_could_not_be_read() {
    let env = TestEnv::new();
    two_guards(&env);
    env.config(BROKEN_CONFIG);
    let log = env.path("audit.jsonl");
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--audit-log"])
        .arg(&log)
        .write_stdin(FORCE_PUSH)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let line: Value = serde_json::from_str(fs::read_to_string(&log).unwrap().trim()).unwrap();
    assert_eq!(line["errors"][0]["source"], "config", "{line}");
    assert_eq!(line["exit"], 2, "{line}");
}

#[test]
fn list_test_and_doctor_show_what_loaded_and_fail_on_what_did_not() {
    let env = TestEnv::new();
    two_guards(&env);
    env.config(BROKEN_CONFIG);
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"].as_array().unwrap().len(), 2, "{doc}");
    assert_eq!(doc["errors"][0]["line"], 4, "{doc}");

    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("config.yaml:4:"), "{}", stderr(&out));

    let out = env
        .cmd()
        .args(["doctor", "--json", "--no-exec"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        !stderr(&out).contains("config.yaml:4:"),
        "a finding, said once: {}",
        stderr(&out)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(
            |f| f["level"] == "error" && f["at"].as_str().unwrap().ends_with("config.yaml:4:4")
        ),
        "{doc}"
    );
    assert!(
        findings.iter().any(|f| f["check"] == "consent"
            && f["hook"]
                .as_str()
                .unwrap_or_default()
                .contains("no-force-push")),
        "the other hooks are still checked: {doc}"
    );
}
