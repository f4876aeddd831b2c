//! `run`'s output contract: one JSON line, exit codes 0/1/2 (a usage error is 1), errors as
//! `{"event","error"}` on stdout, and the block message as the last stderr line.

use serde_json::json;

use crate::common::{TestEnv, code, json, stderr};

#[test]
fn usage_errors_exit_1_never_2() {
    let env = TestEnv::new();
    for args in [
        vec!["run"],
        vec!["run", "pre_tool_call", "--bogus"],
        vec!["nope"],
        vec![],
    ] {
        let out = env.cmd().args(&args).output().unwrap();
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
    }
    let out = env.cmd().arg("--help").output().unwrap();
    assert_eq!(code(&out), 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: hermes-hooks"));
    let out = env.cmd().arg("--version").output().unwrap();
    assert_eq!(code(&out), 0);
}

#[test]
fn one_line_with_the_directive_then_the_hooks() {
    let env = TestEnv::new();
    let hook = env.script(
        "b.sh",
        r#"cat >/dev/null; printf '{"action": "block", "message": "stop"}'"#,
    );
    env.one_approved_hook(&hook);
    let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
    assert_eq!(code(&out), 2);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(text.starts_with(r#"{"event":"pre_tool_call","action":"block","message":"stop","hooks":[{"name":"b.sh","source":"config","command":"#), "{text}");
    let line = json(&out);
    let hook = &line["hooks"][0];
    assert_eq!(hook["status"], "blocked");
    assert_eq!(hook["exit_code"], 0);
    assert!(hook["elapsed_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(stderr(&out).lines().last(), Some("stop"));
}

#[test]
fn no_hooks_means_the_empty_directive() {
    let env = TestEnv::new();
    let out = env.run("post_llm_call", "{}");
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out), json!({"event": "post_llm_call", "hooks": []}));
    assert_eq!(stderr(&out), "");
}

#[test]
fn failing_hooks_fail_open_with_exit_0() {
    let env = TestEnv::new();
    let hook = env.script("f.sh", "cat >/dev/null; echo boom >&2; exit 1");
    env.one_approved_hook(&hook);
    let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
    assert_eq!(code(&out), 0);
    let line = json(&out);
    assert_eq!(line["hooks"][0]["status"], "failed");
    assert_eq!(line["hooks"][0]["exit_code"], 1);
    assert_eq!(line["hooks"][0]["message"], "exited with code 1: boom");
    assert!(line.get("action").is_none());
    let config = env.hermes_home().join("config.yaml");
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "hermes-hooks: warning: hook f.sh ({}:3): exited with code 1: boom (failing open)",
            config.display()
        )
    );
}
