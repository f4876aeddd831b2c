//! `setup`: the recommended packs written, reviewed and approved, then every agent found wired
//! in its user settings; nothing wired when the rules are not approved.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::{TestEnv, code, stderr};

/// A folder for PATH with a program named `claude` in it (Claude Code, as `install` finds it).
fn claude_on_path(env: &TestEnv) -> PathBuf {
    let bin = env.path("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("claude"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn setup(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd()
        .env("PATH", claude_on_path(env))
        .env_remove("CLAUDE_CONFIG_DIR")
        .arg("setup")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn setup_writes_approves_and_wires_so_the_first_call_is_guarded() {
    let env = TestEnv::new();
    let out = setup(&env, &["--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout);
    for step in [
        "1. Rule packs",
        "2. Review",
        "3. Every agent",
        "Wired: Claude Code.",
    ] {
        assert!(shown.contains(step), "{step}: {shown}");
    }
    let rules = std::fs::read_to_string(env.hermes_home().join("hermes-hooks/rules.yaml")).unwrap();
    for pack in ["destructive-", "git-discard-", "force-push-", "secrets-"] {
        assert!(rules.contains(&format!("- name: {pack}")), "{pack}");
    }
    let settings = env.home().join(".claude/settings.json");
    let wired = std::fs::read_to_string(&settings).unwrap();
    assert!(
        wired.contains("run --agent claude-code PreToolUse"),
        "{wired}"
    );
    // The wiring's own call, from a project setup never saw: a rule of the packs blocks.
    let project = env.path("elsewhere");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let payload = serde_json::json!({
        "session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git reset --hard"}, "cwd": project,
    });
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    // A second setup writes nothing again and changes no wiring.
    let out = setup(&env, &["--yes", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["approved"], true);
    assert_eq!(report["rules"]["packs"], serde_json::json!([]), "{report}");
    assert_eq!(report["install"]["agents"][0]["changed"], false, "{report}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), wired);
}

#[test]
fn setup_without_a_terminal_or_for_json_needs_yes_and_writes_nothing() {
    let env = TestEnv::new();
    for args in [&[][..], &["--json"]] {
        let out = setup(&env, args);
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    }
    assert!(!env.hermes_home().join("hermes-hooks/rules.yaml").exists());
    assert!(!env.home().join(".claude").exists());
}

#[test]
fn setup_declined_on_a_terminal_wires_nothing_and_says_so() {
    let env = TestEnv::new();
    let path = claude_on_path(&env);
    let (shown, out) = crate::common::on_a_terminal_with(
        &env,
        &["setup", "--packs", "force-push"],
        &[("PATH", path.to_str().unwrap())],
        &[("[d]iff", b"n\r")],
    );
    assert_eq!(code(&out), 1, "{shown}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("no agent was wired"), "{said}");
    assert!(!env.home().join(".claude").exists());
    assert!(
        !env.allowlist_path().exists() || {
            let text = std::fs::read_to_string(env.allowlist_path()).unwrap();
            !text.contains("rules.yaml")
        }
    );
}

#[test]
fn install_with_nothing_approved_offers_setup() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["install", "claude-code"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`hermes-hooks setup`"),
        "{}",
        stderr(&out)
    );
}
