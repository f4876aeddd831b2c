//! Consent needs a person: what grants, widens or removes protection refuses inside an agent's
//! tool call (a variable the agent sets for its tools, or an agent up the process tree), and
//! `run` sets the consent switches aside there instead of letting a call through.

use std::os::unix::fs::PermissionsExt as _;

use crate::common::{TestEnv, code, json, statuses, stderr};

/// A variable each agent sets in its tools' environment, and the agent's name as the refusal
/// gives it.
const AGENTS: [(&str, &str); 8] = [
    ("CLAUDECODE", "Claude Code"),
    ("CODEX_THREAD_ID", "Codex"),
    ("CODEX_CI", "Codex"),
    ("GEMINI_CLI", "Gemini CLI"),
    ("QWEN_CODE", "Qwen Code"),
    ("COPILOT_CLI", "GitHub Copilot CLI"),
    ("FACTORY_EXEC_TARGET_AUTONOMY", "Factory Droid"),
    ("HERMES_SESSION_ID", "Hermes"),
];

/// A config hook that blocks every call, not approved.
fn blocking_hook(env: &TestEnv) -> String {
    let script = env
        .script(
            "deny.sh",
            "cat >/dev/null; printf '{\"action\":\"block\",\"message\":\"denied\"}'",
        )
        .display()
        .to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {script}\n"
    ));
    script
}

fn refused(out: &std::process::Output, agent: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 1, "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        err.contains("refused") && err.contains(agent) && err.contains("person"),
        "{err}"
    );
}

#[test]
fn approve_yes_in_each_agents_tool_call_is_refused_and_approves_nothing() {
    for (variable, agent) in AGENTS {
        let env = TestEnv::new();
        blocking_hook(&env);
        let out = env
            .cmd()
            .args(["approve", "--yes"])
            .env(variable, "1")
            .output()
            .unwrap();
        refused(&out, agent);
        assert!(stderr(&out).contains(variable), "{}", stderr(&out));
        assert!(
            !env.allowlist_path().exists(),
            "{variable}: nothing approved"
        );
    }
    // A person's script, outside any agent, still approves.
    let env = TestEnv::new();
    blocking_hook(&env);
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(env.approvals().len(), 1);
}

#[test]
fn revoke_install_uninstall_and_new_rules_refuse_in_a_tool_call_and_change_nothing() {
    let env = TestEnv::new();
    let script = blocking_hook(&env);
    env.approve("pre_tool_call", &script);
    let allowlist = std::fs::read(env.allowlist_path()).unwrap();
    let inside = |args: &[&str]| {
        env.cmd()
            .args(args)
            .env("CLAUDECODE", "1")
            .output()
            .unwrap()
    };
    refused(&inside(&["revoke", &script]), "Claude Code");
    assert_eq!(std::fs::read(env.allowlist_path()).unwrap(), allowlist);

    refused(
        &inside(&["install", "claude-code", "--project", "."]),
        "Claude Code",
    );
    assert!(!env.work().join(".claude").exists());

    // Wired by the person, then the model tries to unwire it.
    let out = env
        .cmd()
        .args(["install", "claude-code", "--project", "."])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let settings = env.work().join(".claude/settings.json");
    let wired = std::fs::read(&settings).unwrap();
    refused(
        &inside(&["uninstall", "claude-code", "--project", "."]),
        "Claude Code",
    );
    assert_eq!(std::fs::read(&settings).unwrap(), wired);

    refused(&inside(&["new", "--rules", "destructive"]), "Claude Code");
    assert!(!env.hermes_home().join("hermes-hooks/rules.yaml").exists());

    refused(&inside(&["setup", "--yes"]), "Claude Code");
    refused(&inside(&["install"]), "Claude Code");
    refused(&inside(&["uninstall", "--all"]), "Claude Code");
    assert!(!env.hermes_home().join("hermes-hooks/rules.yaml").exists());
    assert_eq!(std::fs::read(&settings).unwrap(), wired);
}

#[test]
fn the_consent_switches_refuse_on_other_commands_in_a_tool_call() {
    let env = TestEnv::new();
    blocking_hook(&env);
    for args in [
        &["list", "--accept-hooks"][..],
        &["test", "pre_tool_call", "--accept-hooks"],
    ] {
        let out = env
            .cmd()
            .args(args)
            .env("GEMINI_CLI", "1")
            .write_stdin("{}")
            .output()
            .unwrap();
        refused(&out, "Gemini CLI");
    }
    let out = env
        .cmd()
        .args(["doctor"])
        .env("GEMINI_CLI", "1")
        .env("HERMES_HOOKS_ACCEPT", "1")
        .output()
        .unwrap();
    refused(&out, "Gemini CLI");
    // Reading stays allowed.
    let out = env
        .cmd()
        .args(["list"])
        .env("GEMINI_CLI", "1")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn run_sets_the_switches_aside_in_a_tool_call_and_the_hook_stays_unapproved() {
    let env = TestEnv::new();
    blocking_hook(&env);
    let payload = r#"{"tool_name":"terminal","tool_input":{"command":"ls"}}"#;
    for switch in ["flag", "variable"] {
        let mut cmd = env.cmd();
        cmd.env("CLAUDECODE", "1");
        if switch == "flag" {
            cmd.args(["run", "--accept-hooks", "pre_tool_call"]);
        } else {
            cmd.args(["run", "pre_tool_call"])
                .env("HERMES_HOOKS_ACCEPT", "1");
        }
        let out = cmd.write_stdin(payload).output().unwrap();
        assert_eq!(code(&out), 0, "{switch}: {}", stderr(&out));
        assert_eq!(statuses(&json(&out)), ["unapproved"], "{switch}");
        assert!(stderr(&out).contains("set aside"), "{}", stderr(&out));
        assert!(!env.allowlist_path().exists(), "{switch}: nothing approved");
    }
    // Outside an agent the switch approves the hook on the spot, and it blocks.
    let out = env
        .cmd()
        .args(["run", "--accept-hooks", "pre_tool_call"])
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

/// The model unsets the agent's variable (`env -u CLAUDECODE ...`): the agent is still up the
/// process tree. A copy of the shell named `claude` stands for it.
#[test]
fn an_agent_up_the_process_tree_is_found_without_its_variable() {
    let env = TestEnv::new();
    blocking_hook(&env);
    let agent = env.path("claude");
    std::fs::copy("/bin/sh", &agent).unwrap();
    std::fs::set_permissions(&agent, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    let mut cmd = env.std_cmd_of(&agent);
    cmd.env_remove("HERMES_HOOKS_TEST_NO_ANCESTORS");
    cmd.args(["-c", &format!("'{}' approve --yes", bin.display())]);
    let out = crate::common::output_of_copy(&mut cmd);
    refused(&out, "Claude Code");
    assert!(stderr(&out).contains("process"), "{}", stderr(&out));
    assert!(!env.allowlist_path().exists());
}
