//! The quality-gate loop guard: past N "keep working" answers in a row in one session, `run` lets
//! the agent stop, says so, and starts counting again; other sessions are not affected.

use crate::common::{TestEnv, code, json, stderr};

fn gate(env: &TestEnv) {
    let hook = env.script(
        "gate.sh",
        "cat >/dev/null\necho '{\"action\": \"continue\", \"message\": \"tests are failing\"}'",
    );
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_verify:\n    - command: {command}\n"
    ));
    env.approve("pre_verify", &command);
}

fn verify(env: &TestEnv, session: &str, extra: &[&str]) -> std::process::Output {
    env.cmd()
        .args(["run", "pre_verify"])
        .args(extra)
        .write_stdin(format!(r#"{{"session_id": "{session}"}}"#))
        .output()
        .unwrap()
}

#[test]
fn past_the_limit_the_agent_may_stop_then_the_count_restarts() {
    let env = TestEnv::new();
    gate(&env);
    for _ in 0..2 {
        let out = verify(&env, "s1", &["--gate-limit", "2"]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert_eq!(json(&out)["action"], "continue");
    }
    assert_eq!(code(&verify(&env, "s2", &["--gate-limit", "2"])), 2);
    let out = verify(&env, "s1", &["--gate-limit", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert!(line.get("action").is_none(), "{line}");
    assert_eq!(line["loop_guard"]["consecutive"], 3);
    assert_eq!(line["loop_guard"]["limit"], 2);
    assert_eq!(
        line["hooks"][0]["status"], "gated",
        "the hook's own answer is kept"
    );
    assert!(
        stderr(&out).contains("3 times in a row in session 's1'"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        code(&verify(&env, "s1", &["--gate-limit", "2"])),
        2,
        "restarted"
    );
    assert_eq!(
        code(&verify(&env, "s2", &["--gate-limit", "2"])),
        2,
        "2 of 2"
    );
}

#[test]
fn the_default_limit_is_eight_and_the_environment_or_zero_changes_it() {
    let env = TestEnv::new();
    gate(&env);
    for _ in 0..8 {
        assert_eq!(code(&verify(&env, "s", &[])), 2);
    }
    assert_eq!(code(&verify(&env, "s", &[])), 0, "the ninth is let through");
    let with_env = || {
        env.cmd()
            .args(["run", "pre_verify"])
            .env("HERMES_HOOKS_GATE_LIMIT", "1")
            .write_stdin(r#"{"session_id": "e"}"#)
            .output()
            .unwrap()
    };
    assert_eq!(code(&with_env()), 2);
    assert_eq!(code(&with_env()), 0);
    for _ in 0..12 {
        assert_eq!(code(&verify(&env, "off", &["--gate-limit", "0"])), 2);
    }
}
