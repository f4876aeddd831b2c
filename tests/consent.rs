//! Consent: a Hermes-compatible allowlist, the sha256 pin checked before each spawn, bypasses that
//! record the hash, locked atomic writes, and a corrupt file that is never overwritten.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, json, statuses, stderr};

/// One `on_session_start` hook that touches `ran`; returns (command, marker).
fn marker_hook(env: &TestEnv) -> (String, std::path::PathBuf) {
    let marker = env.path("ran");
    let hook = env.script("mark.sh", &format!("touch '{}'", marker.display()));
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {command}\n"
    ));
    (command, marker)
}

#[test]
fn unapproved_hooks_do_not_run_and_say_how_to_approve() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0);
    assert_eq!(statuses(&json(&out)), ["unapproved"]);
    assert!(!marker.exists());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&command) && err.contains("hermes-hooks approve --event on_session_start"),
        "{err}"
    );
    assert!(
        !env.allowlist_path().exists(),
        "nothing written without a bypass"
    );
}

#[test]
fn every_bypass_approves_and_records_the_hash() {
    for bypass in ["flag", "env", "hermes-env", "config"] {
        let env = TestEnv::new();
        let (command, marker) = marker_hook(&env);
        let mut cmd = env.cmd();
        cmd.args(["run", "on_session_start"]);
        match bypass {
            "flag" => {
                cmd.arg("--accept-hooks");
            }
            "env" => {
                cmd.env("HERMES_HOOKS_ACCEPT", "yes");
            }
            "hermes-env" => {
                cmd.env("HERMES_ACCEPT_HOOKS", "yes");
            }
            _ => env.config(&format!(
                "hooks_auto_accept: true\nhooks:\n  on_session_start:\n    - command: {command}\n"
            )),
        }
        let out = cmd.output().unwrap();
        assert_eq!(statuses(&json(&out)), ["ok"], "{bypass}: {}", stderr(&out));
        assert!(marker.exists());
        assert!(
            stderr(&out).contains("approved by"),
            "{bypass}: {}",
            stderr(&out)
        );
        let entry = &env.approvals()[0];
        let sha = hermes_hooks::sha256_file(std::path::Path::new(&command)).unwrap();
        assert_eq!(entry["script_sha256"], sha.as_str(), "{bypass}");
        assert_eq!(entry["event"], "on_session_start");
        assert_eq!(entry["command"], command.as_str());
        assert!(entry["approved_at"].as_str().unwrap().ends_with('Z'));
        assert!(
            entry["script_mtime_at_approval"]
                .as_str()
                .unwrap()
                .ends_with('Z')
        );
        let mode = fs::metadata(env.allowlist_path())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
    }
}

#[test]
fn an_edited_script_does_not_run_until_reapproved() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    env.approve("on_session_start", &command);
    fs::write(
        &command,
        format!(
            "#!/bin/sh\ntouch '{}'\necho tampered >&2\n",
            marker.display()
        ),
    )
    .unwrap();
    let out = env.run("on_session_start", "{}");
    assert_eq!(statuses(&json(&out)), ["changed"]);
    assert!(!marker.exists());
    let err = stderr(&out);
    assert!(
        err.contains(&command) && err.contains("re-approve"),
        "{err}"
    );

    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["ok"]);
    assert!(marker.exists());
    assert_eq!(env.approvals().len(), 1, "re-approval replaces the entry");
}

#[test]
fn hermes_written_approvals_are_honoured_and_pinned_on_first_use() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    fs::write(
        env.allowlist_path(),
        format!(
            "\u{feff}{{\"approvals\": [{{\"approved_at\": \"2026-04-17T09:30:00Z\", \"command\": \"{command}\", \"event\": \"on_session_start\", \"script_mtime_at_approval\": null}}, \"junk\"], \"version\": 3}}"
        ),
    )
    .unwrap();
    let out = env.run("on_session_start", "{}");
    assert_eq!(statuses(&json(&out)), ["ok"], "{}", stderr(&out));
    assert!(marker.exists());
    let list = env.allowlist();
    assert_eq!(list["version"], 3, "other keys are kept");
    assert_eq!(
        list["approvals"][1], "junk",
        "entries it does not understand are kept"
    );
    assert_eq!(list["approvals"][0]["approved_at"], "2026-04-17T09:30:00Z");
    assert_eq!(
        list["approvals"][0]["script_sha256"]
            .as_str()
            .unwrap()
            .len(),
        64
    );

    fs::remove_file(&marker).unwrap();
    fs::write(&command, "#!/bin/sh\necho changed\n").unwrap();
    assert_eq!(
        statuses(&json(&env.run("on_session_start", "{}"))),
        ["changed"],
        "a later edit is caught"
    );
}

#[test]
fn written_like_hermes_writes_it() {
    let env = TestEnv::new();
    let (command, _) = marker_hook(&env);
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let text = fs::read_to_string(env.allowlist_path()).unwrap();
    assert!(
        text.starts_with("{\n  \"approvals\": [\n    {\n      \"approved_at\": "),
        "{text}"
    );
    assert!(!text.ends_with('\n'));
    let keys: Vec<String> = env.approvals()[0]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        [
            "approved_at",
            "command",
            "event",
            "script",
            "script_mtime_at_approval",
            "script_sha256"
        ],
        "sorted keys"
    );
    assert_eq!(env.approvals()[0]["command"], command.as_str());
    let leftovers: Vec<_> = fs::read_dir(env.hermes_home())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            std::path::Path::new(n)
                .extension()
                .is_some_and(|e| e == "tmp")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_corrupt_allowlist_is_never_overwritten() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    fs::write(env.allowlist_path(), "{\"approvals\": [").unwrap();
    let out = env.run("on_session_start", "{}");
    assert_eq!(statuses(&json(&out)), ["unapproved"], "treated as empty");
    assert!(
        stderr(&out).contains("not a valid allowlist"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists());

    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["ok"], "the bypass still runs it");
    assert!(marker.exists());
    assert!(
        stderr(&out).contains("approval was not recorded"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(env.allowlist_path()).unwrap(),
        "{\"approvals\": ["
    );
    let _ = command;
}

#[test]
fn a_read_only_home_still_runs_with_a_bypass() {
    let env = TestEnv::new();
    let (_, marker) = marker_hook(&env);
    if rustix::process::geteuid().is_root() {
        eprintln!("skipped: root ignores folder permissions");
        return;
    }
    fs::set_permissions(env.hermes_home(), fs::Permissions::from_mode(0o555)).unwrap();
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    fs::set_permissions(env.hermes_home(), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(statuses(&json(&out)), ["ok"]);
    assert!(marker.exists());
    assert!(stderr(&out).contains("approval was not recorded"));
}

#[test]
fn safe_mode_runs_nothing() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    env.approve("on_session_start", &command);
    let out = env
        .cmd()
        .env("HERMES_SAFE_MODE", "1")
        .args(["run", "on_session_start"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(
        json(&out),
        json!({"event": "on_session_start", "hooks": []})
    );
    assert!(!marker.exists());
}

#[test]
fn twenty_concurrent_approvals_lose_nothing() {
    let env = TestEnv::new();
    let hook = env
        .script("n.sh", "cat >/dev/null; printf '{}'")
        .display()
        .to_string();
    let mut children = Vec::new();
    for i in 0..20 {
        let config = env.path(&format!("config-{i}.yaml"));
        fs::write(
            &config,
            format!("hooks:\n  on_session_start:\n    - command: {hook} {i}\n"),
        )
        .unwrap();
        let child = env
            .std_cmd()
            .args([
                "run",
                "on_session_start",
                "--accept-hooks",
                "-q",
                "--config",
            ])
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        children.push(child);
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(statuses(&json(&out)), ["ok"]);
    }
    let mut commands: Vec<String> = env
        .approvals()
        .iter()
        .map(|e| e["command"].as_str().unwrap().to_owned())
        .collect();
    commands.sort();
    let mut expected: Vec<String> = (0..20).map(|i| format!("{hook} {i}")).collect();
    expected.sort();
    assert_eq!(commands, expected);
}

#[test]
fn dry_run_checks_consent_and_runs_nothing() {
    let env = TestEnv::new();
    let (command, marker) = marker_hook(&env);
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--dry-run", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let line = json(&out);
    assert_eq!(statuses(&line), ["not_run"]);
    assert!(!marker.exists());
    assert!(!env.allowlist_path().exists(), "a dry run writes nothing");
    assert!(stderr(&out).contains("would approve"), "{}", stderr(&out));

    env.approve("on_session_start", &command);
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["hooks"][0]["message"], "dry run: would run");
    assert!(!marker.exists());
}

#[test]
fn a_missing_tilde_script_says_tilde_is_home_not_the_hermes_home() {
    let env = TestEnv::new();
    let elsewhere = env.path("hermes");
    fs::create_dir_all(elsewhere.join("agent-hooks")).unwrap();
    let meant = elsewhere.join("agent-hooks/guard.sh");
    fs::write(&meant, "#!/bin/sh\ncat >/dev/null\n").unwrap();
    fs::set_permissions(&meant, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(
        elsewhere.join("config.yaml"),
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n",
    )
    .unwrap();
    let out = env
        .cmd()
        .env("HERMES_HOME", &elsewhere)
        .args(["run", "pre_tool_call"])
        .write_stdin("{}")
        .output()
        .unwrap();
    let text = stderr(&out);
    assert!(text.contains("`~` in a command is $HOME"), "{text}");
    assert!(
        text.contains(&format!("write {} to run that file", meant.display())),
        "{text}"
    );
    assert!(
        !text.contains("hermes-hooks approve"),
        "approving it would fail: {text}"
    );
    let out = env
        .cmd()
        .env("HERMES_HOME", &elsewhere)
        .args(["approve", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("`~` in a command is $HOME"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(stderr(&out).contains("exit status 1: 1 hook could not be approved"));
}

/// Hermes's own switches (`HERMES_ACCEPT_HOOKS`, which `hermes -z` and `hermes --accept-hooks`
/// export for Hermes's shell hooks, and `hooks_auto_accept`) approve config hooks only: an Agent
/// Hooks hook that arrived with a pull neither runs nor gets approved, and an approved guard
/// someone edited is not re-approved at its new content. The tool's own switches still do.
#[test]
fn hermes_switches_never_approve_an_agent_hooks_hook() {
    let env = TestEnv::new();
    let marker = env.path("sneaky-ran");
    env.hook_md(
        &env.project_hooks(),
        "sneaky",
        "name: sneaky\ndescription: Arrives with a pull\ntrigger: pre-tool-call\n",
        &format!("touch {}", marker.display()),
    );
    let guard = env.hook_md(
        &env.project_hooks(),
        "typo-guard",
        "name: typo-guard\ndescription: Blocks\ntrigger: pre-tool-call\nfail_closed: true\n",
        "echo '{\"decision\":\"block\",\"reason\":\"no\"}'",
    );
    let approved = env
        .cmd()
        .args(["approve", "typo-guard", "--yes"])
        .output()
        .unwrap();
    assert!(approved.status.success(), "{}", stderr(&approved));
    let pin = |env: &TestEnv| {
        env.approvals()
            .iter()
            .map(|a| a["script_sha256"].as_str().unwrap_or("").to_owned())
            .collect::<Vec<_>>()
    };
    let pinned = pin(&env);
    // The person fixes a typo in the guard.
    fs::write(
        &guard,
        "#!/bin/sh\necho '{\"decision\":\"block\",\"reason\":\"no!\"}'\n",
    )
    .unwrap();
    let config_marker = env.path("config-ran");
    let config_hook = env.script("mine.sh", &format!("touch {}", config_marker.display()));
    env.config(&format!(
        "hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: {}\n",
        config_hook.display()
    ));
    let call = r#"{"tool_name":"terminal","tool_input":{"command":"ls"}}"#;
    for (how, serve) in [("run", false), ("serve", true)] {
        let mut cmd = env.cmd();
        cmd.env("HERMES_ACCEPT_HOOKS", "1");
        let out = if serve {
            let request = format!(r#"{{"id":1,"event":"pre_tool_call","payload":{call}}}"#);
            cmd.arg("serve").write_stdin(request).output().unwrap()
        } else {
            cmd.args(["run", "pre_tool_call"])
                .write_stdin(call)
                .output()
                .unwrap()
        };
        let line: Value =
            serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap_or_default())
                .unwrap();
        assert!(
            !marker.exists(),
            "{how}: an unreviewed project hook ran: {line}"
        );
        assert_eq!(
            line["action"], "block",
            "{how}: the edited fail_closed guard blocks: {line}"
        );
        let status = |name: &str| {
            line["hooks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|h| h["name"] == name)
                .map(|h| h["status"].clone())
        };
        assert_eq!(
            status("typo-guard"),
            Some("changed".into()),
            "{how}: {line}"
        );
        assert_eq!(status("sneaky"), Some("unapproved".into()), "{how}: {line}");
        assert!(
            config_marker.exists(),
            "{how}: Hermes's switch still approves config hooks"
        );
        let approvals = Value::from(env.approvals()).to_string();
        assert!(
            !approvals.contains("sneaky"),
            "{how}: the allowlist gained an approval nobody gave: {approvals}"
        );
        assert_eq!(
            pin(&env)[..pinned.len()],
            pinned[..],
            "{how}: the edited guard was re-approved at its new content"
        );
        fs::remove_file(&config_marker).unwrap();
    }
    doctor_warns_of_hermes_switches(&env);
    the_tools_own_switch_covers_every_source(&env, call, &marker);
}

/// `doctor` says a bypass is on, wherever it is set (here the variable and the config key).
fn doctor_warns_of_hermes_switches(env: &TestEnv) {
    let out = env
        .cmd()
        .env("HERMES_ACCEPT_HOOKS", "1")
        .args(["doctor", "--json", "--no-exec"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bypasses: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "bypass")
        .collect();
    assert_eq!(
        bypasses.len(),
        2,
        "the variable and hooks_auto_accept: {doc}"
    );
    assert!(bypasses.iter().all(|f| f["level"] == "warning"), "{doc}");
}

/// The tool's own switch is a person's choice for every source.
fn the_tools_own_switch_covers_every_source(env: &TestEnv, call: &str, marker: &std::path::Path) {
    let out = env
        .cmd()
        .env("HERMES_HOOKS_ACCEPT", "1")
        .args(["run", "pre_tool_call"])
        .write_stdin(call)
        .output()
        .unwrap();
    assert!(
        marker.exists(),
        "HERMES_HOOKS_ACCEPT runs it: {}",
        stderr(&out)
    );
}
