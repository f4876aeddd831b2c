//! The README's first command on the bundled example: blocks `rm -rf /` without writing anything.

use std::path::Path;
use std::process::Command;

use crate::common::{code, json, statuses, stderr};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn example(event: &str, payload: &str) -> std::process::Output {
    Command::new(assert_cmd::cargo::cargo_bin!("hermes-hooks"))
        .current_dir(repo())
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE")
        .args([
            "--hermes-home",
            "examples/hermes-home",
            "run",
            event,
            "--payload-file",
            payload,
        ])
        .output()
        .unwrap()
}

#[test]
fn blocks_rm_rf_with_the_committed_approval_and_writes_nothing() {
    let allowlist = repo().join("examples/hermes-home/shell-hooks-allowlist.json");
    let before = std::fs::read(&allowlist).unwrap();
    let out = example("pre_tool_call", "examples/payloads/rm-rf.json");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["action"], "block");
    assert_eq!(line["message"], "rm -rf / is not permitted");
    assert_eq!(
        statuses(&line),
        ["blocked"],
        "the committed pin matches the script"
    );
    assert_eq!(
        stderr(&out).lines().last(),
        Some("rm -rf / is not permitted")
    );
    assert_eq!(std::fs::read(&allowlist).unwrap(), before);
    assert!(
        !repo()
            .join("examples/hermes-home/shell-hooks-allowlist.json.lock")
            .exists()
    );
}

#[test]
fn lets_harmless_commands_through_and_adds_context() {
    let out = example("pre_tool_call", "examples/payloads/ls.json");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["ok"]);
    let out = example("pre-tool-call", "examples/payloads/wire-rm-rf.json");
    assert_eq!(code(&out), 2, "the wire shape blocks too");
    let out = example("pre-agent-turn", "examples/payloads/turn.json");
    assert_eq!(code(&out), 0);
    assert!(
        json(&out)["context"]
            .as_str()
            .unwrap()
            .starts_with("Today is ")
    );
}

/// The README's Agent Hooks example: approvals go to a scratch Hermes home, never the checkout.
#[test]
fn the_project_example_guards_and_gates() {
    let home = tempfile::tempdir().unwrap();
    let cmd = |args: &[&str]| {
        Command::new(assert_cmd::cargo::cargo_bin!("hermes-hooks"))
            .current_dir(repo())
            .env_remove("HERMES_ACCEPT_HOOKS")
            .env_remove("HERMES_SAFE_MODE")
            .arg("--hermes-home")
            .arg(home.path())
            .args([
                "--user-hooks",
                "/nonexistent",
                "--project",
                "examples/project",
            ])
            .args(args)
            .output()
            .unwrap()
    };
    let out = cmd(&["approve", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = cmd(&[
        "run",
        "pre-tool-call",
        "--payload-file",
        "examples/payloads/force-push.json",
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        json(&out)["message"],
        "Force-pushing is not allowed here; push a new branch instead."
    );
    let out = cmd(&[
        "run",
        "pre-tool-call",
        "--payload-file",
        "examples/payloads/ls.json",
    ]);
    assert_eq!(
        (code(&out), statuses(&json(&out))),
        (0, vec!["not_matched".to_owned()])
    );
    let out = cmd(&[
        "run",
        "pre-agent-turn-stop",
        "--payload-file",
        "examples/payloads/stop.json",
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(json(&out)["action"], "continue");
    assert!(
        !repo()
            .join("examples/project/shell-hooks-allowlist.json")
            .exists()
    );
}
