//! Racing writers on one allowlist: concurrent `run --accept-hooks`, `approve --yes` and `revoke`
//! lose nothing, and a writer killed mid-write never leaves a truncated or empty file.

use std::collections::BTreeSet;
use std::process::{Child, Stdio};

use hermes_hooks::Approval;
use rustix::process::{Pid, Signal, kill_process};

use crate::common::{TestEnv, stderr};

/// `count` approvable hooks on `event`, named `<prefix><i>.sh`; returns their commands.
fn hooks(env: &TestEnv, event: &str, prefix: &str, count: usize) -> (Vec<String>, String) {
    let mut commands = Vec::new();
    let mut yaml = format!("  {event}:\n");
    for i in 0..count {
        let command = env
            .script(&format!("{prefix}{i}.sh"), "printf '{}'")
            .display()
            .to_string();
        yaml.push_str("    - command: ");
        yaml.push_str(&command);
        yaml.push('\n');
        commands.push(command);
    }
    (commands, yaml)
}

fn spawn(env: &TestEnv, args: &[&str]) -> Child {
    env.std_cmd()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn pairs(env: &TestEnv) -> BTreeSet<(String, String)> {
    env.approvals()
        .iter()
        .map(|a| {
            assert!(
                a["script_sha256"].is_string(),
                "every approval is pinned: {a}"
            );
            (
                a["event"].as_str().unwrap().to_owned(),
                a["command"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn fifty_concurrent_writers_leave_exactly_the_expected_approvals() {
    let env = TestEnv::new();
    let (by_run, a) = hooks(&env, "on_session_start", "run", 10);
    let (by_approve, b) = hooks(&env, "on_session_end", "approve", 20);
    let (revoked, c) = hooks(&env, "pre_llm_call", "revoke", 15);
    let (kept, d) = hooks(&env, "subagent_stop", "keep", 5);
    env.config(&format!("hooks:\n{a}{b}{c}{d}"));
    for command in &revoked {
        env.approve("pre_llm_call", command);
    }
    for command in &kept {
        env.approve("subagent_stop", command);
    }

    let mut children = Vec::new();
    for _ in 0..15 {
        children.push(spawn(&env, &["run", "on_session_start", "--accept-hooks"]));
    }
    for command in &by_approve {
        children.push(spawn(
            &env,
            &["approve", "--yes", "--event", "on_session_end", command],
        ));
    }
    for command in &revoked {
        children.push(spawn(&env, &["revoke", "--event", "pre_llm_call", command]));
    }
    assert_eq!(children.len(), 50);
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }

    let expected: BTreeSet<(String, String)> = by_run
        .iter()
        .map(|c| ("on_session_start".to_owned(), c.clone()))
        .chain(
            by_approve
                .iter()
                .map(|c| ("on_session_end".to_owned(), c.clone())),
        )
        .chain(kept.iter().map(|c| ("subagent_stop".to_owned(), c.clone())))
        .collect();
    assert_eq!(pairs(&env), expected);
    assert_eq!(env.approvals().len(), expected.len(), "no duplicates");
}

#[test]
fn a_writer_killed_mid_write_never_leaves_a_broken_allowlist() {
    let env = TestEnv::new();
    let (commands, yaml) = hooks(&env, "on_session_start", "h", 1);
    env.config(&format!("hooks:\n{yaml}"));
    env.approve("on_session_start", &commands[0]);
    // A large file, so that a write takes long enough to be interrupted.
    let filler: Vec<Approval> = (0..2000)
        .map(|i| Approval {
            event: "on_session_end".to_owned(),
            command: format!("/opt/hooks/filler-{i:04}.sh --with some arguments"),
            script: None,
            sha256: Some("0".repeat(64)),
            mtime: None,
            manifest: None,
        })
        .collect();
    hermes_hooks::record(&env.allowlist_path(), &filler).unwrap();
    let before = pairs(&env);
    assert_eq!(before.len(), 2001);

    // How long one whole rewrite takes, so the kills land all over it, the write included.
    let started = std::time::Instant::now();
    let out = spawn(&env, &["approve", "--yes", "--all"])
        .wait_with_output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let whole = started.elapsed();
    for round in 0..30u32 {
        let mut child = spawn(&env, &["approve", "--yes", "--all"]);
        std::thread::sleep(whole * round / 30);
        let pid = Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
        let _ = kill_process(pid, Signal::KILL);
        let _ = child.wait();
        assert_eq!(pairs(&env), before, "round {round}: the allowlist is whole");
    }
    // The next write clears what killed writers left behind.
    let out = spawn(&env, &["approve", "--yes", "--all"])
        .wait_with_output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let temps: Vec<String> = std::fs::read_dir(env.hermes_home())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| std::path::Path::new(name).extension() == Some("tmp".as_ref()))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}
