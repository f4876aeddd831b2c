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

/// The shell blocks of the README's section from `start` to `end`, as one script (`set -e`,
/// and `approve --yes`, `setup --yes` for the questions a person answers).
fn readme_section(start: &str, end: &str) -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let from = readme.find(start).unwrap();
    let to = from + readme[from..].find(end).unwrap();
    let mut script = String::from("set -e\n");
    for block in readme[from..to].split("```sh\n").skip(1) {
        let code = block.split("```").next().unwrap();
        script.push_str(
            &code
                .replace("hermes-hooks approve ", "hermes-hooks approve --yes ")
                .replace("hermes-hooks setup ", "hermes-hooks setup --yes "),
        );
    }
    script
}

/// Runs `script` with bash in `env`'s scratch home and working directory, with nothing of this
/// machine's Hermes or agent settings.
/// With `agent`, a stand-in for Claude Code is on PATH.
fn run_script(env: &crate::common::TestEnv, script: &str, agent: bool) -> std::process::Output {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    // An agent to wire (a stand-in named `claude`, as `install` finds Claude Code).
    let agents = env.path("agents-bin");
    std::fs::create_dir_all(&agents).unwrap();
    if agent {
        std::fs::write(agents.join("claude"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            agents.join("claude"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    // The binary first, then the agent, then the system's tools the walk-throughs use (mktemp,
    // cat, chmod, git).
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        bin.parent().unwrap().display(),
        agents.display()
    );
    Command::new("bash")
        .args(["--norc", "--noprofile", "-c", script])
        .env("HOME", env.home())
        .env("PATH", path)
        .env("TMPDIR", env.root())
        .env_remove("HERMES_HOME")
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(env.work())
        .output()
        .unwrap()
}

/// The README's "Guards without scripts" section, run as written (with `approve --yes`): the
/// pack's rule denies the call it shows, with no hook script anywhere.
#[test]
fn the_readme_rules_walk_through_works_as_written() {
    let script = readme_section("## Guards without scripts", "\n## Your first hook");
    let env = crate::common::TestEnv::new();
    let out = run_script(&env, &script, true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script}\n---\n{text}");
    assert!(
        stdout.contains(r#""permissionDecision":"deny""#)
            // Its home is under the temporary folder here, which the pack's home rule names.
            && (stdout.contains("Deleting outside the project")
                || stdout.contains("Deleting the home folder")),
        "{text}"
    );
    assert!(stdout.contains("result: none"), "{text}");
}

/// The README's "Your first hook" walk-through, run as written (with `approve --yes` for the
/// questions a person answers), in a scratch home: every `test --expect` in it must hold.
#[test]
fn the_readme_walk_through_works_as_written() {
    let script = readme_section("## Your first hook", "\n## Read more");
    // The walk-through's `run` exits 2 (blocked): the script goes on to say so.
    let script = script.replace(
        "| hermes-hooks run pre_tool_call\n",
        "| hermes-hooks run pre_tool_call || true\n",
    );
    let env = crate::common::TestEnv::new();
    let out = run_script(&env, &script, false);
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script}\n---\n{text}");
    assert!(text.contains("0 error(s), 0 warning(s)"), "{text}");
}
