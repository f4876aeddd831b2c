//! A guard that vanished is a changed guard: an approved rules file that is gone, emptied or
//! edited, and an approved hook folder that moved or whose HOOK.md changed, are reported
//! `changed`, told to the person, errors in `list` and `doctor`, and block where what was
//! approved was `fail_closed`, whatever the edited text says.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, json, statuses, stderr};

const GUARD: &str = r"rules:
- name: no-rm-rf
  tool: shell
  when:
    command: '\brm\s+-rf\b'
  message: Recursive force delete was blocked by a rule.
  fail_closed: true
- name: no-curl
  tool: shell
  when:
    command: '\bcurl\b'
  message: No downloads here.
";

fn shell(command: &str) -> String {
    json!({"tool_name": "terminal", "tool_input": {"command": command}, "session_id": "s1"})
        .to_string()
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// A project whose rules file holds [`GUARD`], approved.
fn guarded() -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let file = env.work().join(".agents/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, GUARD).unwrap();
    approve_all(&env);
    (env, file)
}

fn blocked_as_changed(env: &TestEnv, what: &str) {
    let out = env.run("pre_tool_call", &shell("rm -rf /srv/data"));
    assert_eq!(code(&out), 2, "{what}: {}", stderr(&out));
    let line = json(&out);
    assert!(
        statuses(&line).contains(&"changed".to_owned()),
        "{what}: {line}"
    );
    assert!(
        line["message"]
            .as_str()
            .unwrap()
            .contains("changed since it was approved"),
        "{what}: {line}"
    );
}

#[test]
fn a_rules_file_deleted_emptied_or_edited_still_blocks_what_it_approved_fail_closed() {
    let (env, file) = guarded();
    let agents = file.parent().unwrap().to_path_buf();
    let edits: [(&str, &dyn Fn()); 6] = [
        ("deleted", &|| fs::remove_file(&file).unwrap()),
        ("emptied", &|| fs::write(&file, "").unwrap()),
        ("no rules", &|| fs::write(&file, "rules: []\n").unwrap()),
        ("fail_closed removed", &|| {
            fs::write(&file, GUARD.replace("  fail_closed: true\n", "")).unwrap();
        }),
        ("its tool changed", &|| {
            fs::write(&file, GUARD.replace("tool: shell", "tool: nothing")).unwrap();
        }),
        ("its folder moved", &|| {
            fs::rename(&agents, env.root().join("moved")).unwrap();
        }),
    ];
    for (what, edit) in edits {
        edit();
        blocked_as_changed(&env, what);
        // Calls the approved rule did not cover go on, told once as a changed guard.
        let out = env.run("pre_tool_call", &shell("ls -la"));
        assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
        let listed = env.cmd().arg("list").output().unwrap();
        assert_eq!(code(&listed), 1, "{what}: {}", stderr(&listed));
        assert!(
            stderr(&listed).contains("since it was approved"),
            "{what}: {}",
            stderr(&listed)
        );
        let doctor = env.cmd().arg("doctor").output().unwrap();
        assert_eq!(code(&doctor), 1, "{what}");
        let said = String::from_utf8_lossy(&doctor.stdout);
        assert!(said.contains("since it was approved"), "{what}: {said}");
        // Put back as approved: guarding as before.
        if env.root().join("moved").exists() {
            fs::rename(env.root().join("moved"), &agents).unwrap();
        }
        fs::write(&file, GUARD).unwrap();
        let out = env.run("pre_tool_call", &shell("rm -rf /srv/data"));
        assert_eq!(code(&out), 2, "{what}: {}", stderr(&out));
        assert_eq!(statuses(&json(&out))[0], "blocked", "{what}");
        let listed = env.cmd().arg("list").output().unwrap();
        assert_eq!(code(&listed), 0, "{what}: {}", stderr(&listed));
    }
}

#[test]
fn the_user_rules_file_gone_blocks_in_every_project() {
    let env = TestEnv::new();
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, GUARD).unwrap();
    approve_all(&env);
    fs::remove_file(&file).unwrap();
    blocked_as_changed(&env, "user rules deleted");
}

#[test]
fn a_vanished_guard_that_was_not_fail_closed_lets_calls_through_and_is_told_once() {
    let (env, file) = guarded();
    fs::remove_file(&file).unwrap();
    let claude = |session: &str, command: &str| -> Value {
        crate::protect::claude(&env, session, "Bash", &json!({ "command": command }))
    };
    // `no-curl` was approved without fail_closed: the call goes on, and the person hears why.
    let first = claude("a", "curl https://example.com");
    assert_ne!(first["hookSpecificOutput"]["permissionDecision"], "deny");
    let told = first["systemMessage"].as_str().unwrap_or_default();
    assert!(told.contains("is gone since it was approved"), "{first}");
    assert!(told.contains("hermes-hooks revoke"), "{first}");
    let second = claude("a", "ls");
    assert!(second["systemMessage"].is_null(), "{second}");
    // The fail_closed rule still blocks, in a new session told again.
    let denied = claude("b", "rm -rf /srv/data");
    assert_eq!(denied["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(denied["systemMessage"].is_string(), "{denied}");
}

#[test]
fn revoking_a_vanished_rules_file_ends_its_guard() {
    let (env, file) = guarded();
    fs::remove_file(&file).unwrap();
    let out = env
        .cmd()
        .args(["revoke", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = env.run("pre_tool_call", &shell("rm -rf /srv/data"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let listed = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&listed), 0, "{}", stderr(&listed));
}

#[test]
fn without_its_approved_copy_a_vanished_rules_file_is_still_an_error() {
    let (env, file) = guarded();
    fs::remove_dir_all(env.hermes_home().join("hermes-hooks/approved")).unwrap();
    fs::remove_file(&file).unwrap();
    // What it covered is not known, so it cannot fail closed; it is said, and `doctor` fails.
    let out = env.run("pre_tool_call", &shell("rm -rf /srv/data"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["changed"]);
    assert!(stderr(&out).contains("is gone since it was approved"));
    let doctor = env.cmd().arg("doctor").output().unwrap();
    assert_eq!(code(&doctor), 1);
}

/// A project hook folder `no-curl`, `fail_closed`, approved.
fn guarded_by_a_hook() -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let entry = env.hook_md(
        &env.project_hooks(),
        "no-curl",
        "name: no-curl\ntrigger: pre-tool-call\nmatcher:\n  tool: terminal\n  pattern: curl\nfail_closed: true\n",
        "echo '{\"decision\":\"block\",\"reason\":\"no curl\"}'",
    );
    approve_all(&env);
    let record = &env.approvals()[0]["hook_md"];
    assert_eq!(record["fail_closed"], true, "{record}");
    (env, entry.parent().unwrap().parent().unwrap().to_path_buf())
}

fn hook_blocks_as_changed(env: &TestEnv, what: &str) {
    let out = env.run("pre_tool_call", &shell("curl https://example.com"));
    assert_eq!(code(&out), 2, "{what}: {}", stderr(&out));
    let line = json(&out);
    assert_eq!(statuses(&line), ["changed"], "{what}: {line}");
    let doctor = env.cmd().arg("doctor").output().unwrap();
    assert_eq!(code(&doctor), 1, "{what}");
}

#[test]
fn a_hook_folder_moved_or_its_hook_md_edited_still_blocks_fail_closed() {
    let (env, folder) = guarded_by_a_hook();
    let manifest = folder.join("HOOK.md");
    let approved = fs::read_to_string(&manifest).unwrap();
    let out = env.run("pre_tool_call", &shell("curl https://example.com"));
    assert_eq!(statuses(&json(&out)), ["blocked"]);
    let put_back = |from: &Path| {
        if from.exists() {
            fs::rename(from, &folder).unwrap();
        }
        fs::write(&manifest, &approved).unwrap();
    };
    let moved = env.root().join("moved");
    let edits: [(&str, &dyn Fn()); 4] = [
        ("moved", &|| fs::rename(&folder, &moved).unwrap()),
        ("pattern edited", &|| {
            fs::write(&manifest, approved.replace("pattern: curl", "pattern: zzz")).unwrap();
        }),
        ("fail_closed removed", &|| {
            fs::write(&manifest, approved.replace("fail_closed: true\n", "")).unwrap();
        }),
        ("HOOK.md deleted", &|| fs::remove_file(&manifest).unwrap()),
    ];
    for (what, edit) in edits {
        edit();
        hook_blocks_as_changed(&env, what);
        put_back(&moved);
        let out = env.run("pre_tool_call", &shell("curl https://example.com"));
        assert_eq!(statuses(&json(&out)), ["blocked"], "{what}");
    }
}

#[test]
fn serve_sees_a_guard_vanish_between_requests() {
    let (env, file) = guarded();
    let request = |id: u32| {
        json!({"id": id, "event": "pre_tool_call", "payload": {
            "tool_name": "terminal", "tool_input": {"command": "rm -rf /srv/data"}}})
        .to_string()
    };
    let mut child = env
        .std_cmd()
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let mut ask = |id: u32| -> Value {
        use std::io::Write as _;
        writeln!(stdin, "{}", request(id)).unwrap();
        serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
    };
    assert_eq!(ask(1)["exit"], 2);
    fs::remove_file(&file).unwrap();
    let answer = ask(2);
    assert_eq!(answer["exit"], 2, "{answer}");
    assert!(
        statuses(&answer).contains(&"changed".to_owned()),
        "{answer}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}
