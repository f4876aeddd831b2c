//! The parse memo: config.yaml is parsed once per content, and what a later command reads back
//! is what parsing gives; a memo that is not sound, not the user's own or in a folder that
//! cannot be written changes nothing.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

use crate::common::{TestEnv, code, json, stderr};

const OK: &str = "cat >/dev/null; printf '{}'";

/// A config with hooks of two events and a warning of each kind the reader gives.
fn config(env: &TestEnv) {
    let ok = env.script("ok.sh", OK).display().to_string();
    env.config(&format!(
        "model: gpt-4\nhooks_auto_accept: no\nhooks:\n  pre_tool_call:\n    - command: {ok}\n      matcher: terminal\n    - 42\n    - command: {ok} ${{UNSET_VAR}}\n    - command: {ok} zzfinal\n  pre_tools_call:\n    - command: {ok}\n  on_session_start:\n    - command: {ok} start\n      timeout: 0x10\n  post_tool_call: []\nhooks_auto_accept: no\nmodel: other\n"
    ));
}

fn memos(env: &TestEnv) -> Vec<PathBuf> {
    let folder = env.home().join(".cache/hermes-hooks/parsed");
    // `.swept` says when the folder was last swept of old memos: not a memo.
    let mut found: Vec<PathBuf> = fs::read_dir(folder)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|path| !path.ends_with(".swept"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// What `list --json` and `run` say, warnings included.
fn said(env: &TestEnv) -> Vec<String> {
    let list = env.cmd().args(["list", "--json"]).output().unwrap();
    assert_eq!(code(&list), 0, "{}", stderr(&list));
    let run = env.run("pre_tool_call", r#"{"tool_name":"terminal"}"#);
    let start = env.run("on_session_start", "{}");
    [list, run, start]
        .iter()
        .flat_map(|out| {
            [
                String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr(out),
            ]
        })
        .map(|text| strip_times(&text))
        .collect()
}

/// Outputs without their elapsed times.
fn strip_times(text: &str) -> String {
    text.split(',')
        .filter(|part| !part.contains("elapsed_ms"))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn what_is_read_back_is_what_parsing_gives() {
    let env = TestEnv::new();
    config(&env);
    let first = said(&env);
    assert!(first[0].contains("zzfinal"), "{}", first[0]);
    assert!(
        first[1].contains("UNSET_VAR"),
        "warnings are said: {}",
        first[1]
    );
    let kept = memos(&env);
    // One memo per event read, one for every event (`list`).
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert_eq!(said(&env), first, "read back from the memos");
    assert_eq!(memos(&env), kept, "nothing parsed again");
    for memo in &kept {
        let mode = fs::metadata(memo).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{} is private: {mode:o}", memo.display());
    }

    // Other bytes are another memo.
    let text = fs::read_to_string(env.hermes_home().join("config.yaml")).unwrap();
    env.config(
        &text
            .replace("{ok} zzfinal", "{ok} changed")
            .replace(" zzfinal\n", " zzchanged\n"),
    );
    let changed = said(&env);
    assert!(changed[0].contains("zzchanged") && !changed[0].contains("zzfinal"));
    assert_eq!(memos(&env).len(), 6);
}

/// How a memo ends: a line break and its keyed check in hex.
const CHECK_LEN: usize = 65;

/// Rewrites each memo with `edit`, applied to its text before its check, leaving the check as
/// it was (what a program without the key can do).
fn edit_memos(env: &TestEnv, edit: impl Fn(&str) -> String) {
    for memo in memos(env) {
        let text = fs::read_to_string(&memo).unwrap();
        let (body, check) = text.split_at(text.len() - CHECK_LEN);
        fs::write(&memo, edit(body) + check).unwrap();
    }
}

/// The key the memos of `env` are checked with.
fn memo_key(env: &TestEnv) -> [u8; 32] {
    let key = fs::read(env.home().join(".local/share/hermes-hooks/memo.key")).unwrap();
    key.try_into().unwrap()
}

/// Rewrites the memo at `memo` with `edit` applied to its bytes before the check, and a new
/// check made with the key: what a program that read the key can do.
pub(crate) fn forge(env: &TestEnv, memo: &std::path::Path, edit: impl Fn(&[u8]) -> Vec<u8>) {
    let bytes = fs::read(memo).unwrap();
    let body = edit(&bytes[..bytes.len() - CHECK_LEN]);
    let check = blake3::keyed_hash(&memo_key(env), &body);
    let mut out = body;
    out.push(b'\n');
    out.extend_from_slice(check.to_hex().as_bytes());
    fs::write(memo, out).unwrap();
}

/// Each memo rewritten with `edit` applied to its text, under a new check made with the key.
fn forge_memos(env: &TestEnv, edit: impl Fn(&str) -> String) {
    for memo in memos(env) {
        forge(env, &memo, |body| {
            edit(std::str::from_utf8(body).unwrap()).into_bytes()
        });
    }
}

#[test]
fn a_memo_is_believed_only_under_its_own_name_and_only_when_private() {
    let env = TestEnv::new();
    config(&env);
    let fresh = said(&env);
    // A memo rewritten without the key: its check does not hold, so it is not believed.
    edit_memos(&env, |text| text.replace(" zzfinal", " planted"));
    assert_eq!(said(&env), fresh);
    // Rewritten with the key in hand, under its own name: read back (the memo is what a
    // command uses; `doctor` is what compares it with the file).
    forge_memos(&env, |text| text.replace(" zzfinal", " planted"));
    let planted = said(&env);
    assert!(planted[0].contains("planted"), "{}", planted[0]);

    // Writable by others: ignored, parsed again, and replaced.
    for memo in memos(&env) {
        fs::set_permissions(&memo, fs::Permissions::from_mode(0o666)).unwrap();
    }
    assert_eq!(said(&env), fresh);
    for memo in memos(&env) {
        let mode = fs::metadata(&memo).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "replaced: {mode:o}");
    }

    // Under another name (the name inside differs): ignored.
    forge_memos(&env, |text| {
        text.replace(" zzfinal", " planted")
            .replacen("\"name\":\"", "\"name\":\"0", 1)
    });
    assert_eq!(said(&env), fresh);

    // Not JSON, or a symlink to a planted one: ignored.
    let kept = memos(&env);
    let planted_copy = env.path("planted.json");
    fs::write(
        &planted_copy,
        fs::read_to_string(&kept[0])
            .unwrap()
            .replace(" zzfinal", " planted"),
    )
    .unwrap();
    fs::set_permissions(&planted_copy, fs::Permissions::from_mode(0o600)).unwrap();
    for memo in &kept {
        fs::remove_file(memo).unwrap();
        std::os::unix::fs::symlink(&planted_copy, memo).unwrap();
    }
    assert_eq!(said(&env), fresh);
    edit_memos(&env, |_| "{\"name\": [".to_owned());
    assert_eq!(said(&env), fresh);
}

#[test]
fn a_cache_folder_that_cannot_be_written_costs_nothing() {
    let env = TestEnv::new();
    config(&env);
    let fresh = said(&env);
    let blocked = TestEnv::new();
    config(&blocked);
    // `.cache` is a file: no folder can be made under it.
    fs::write(blocked.home().join(".cache"), "not a folder").unwrap();
    let out = said(&blocked);
    let own = |text: &str| text.replace(&blocked.root().display().to_string(), "ROOT");
    let theirs = |text: &str| text.replace(&env.root().display().to_string(), "ROOT");
    assert_eq!(
        out.iter().map(|t| own(t)).collect::<Vec<_>>(),
        fresh.iter().map(|t| theirs(t)).collect::<Vec<_>>()
    );
    let run = blocked.run("pre_tool_call", r#"{"tool_name":"terminal"}"#);
    assert_eq!(code(&run), 0);
    assert!(json(&run)["hooks"].is_array());
}

/// The `memo` findings of `doctor --json`, and its exit code.
fn memo_findings(env: &TestEnv) -> (Vec<serde_json::Value>, i32) {
    let out = env
        .cmd()
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    let findings = json(&out)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "memo")
        .cloned()
        .collect();
    (findings, code(&out))
}

#[test]
fn doctor_finds_a_memo_that_says_something_else_and_mends_it() {
    let env = TestEnv::new();
    let ok = env.script("ok.sh", OK).display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {ok} guard\n  on_session_start:\n    - command: {ok} start\n"
    ));
    let fresh = said(&env);
    let (found, status) = memo_findings(&env);
    assert_eq!((found.len(), status), (0, 0), "{found:?}");

    // A guard taken out of the memos under their own names, with the key: the commands
    // believe them.
    forge_memos(&env, |text| text.replace(" guard", " silenced"));
    assert!(said(&env)[0].contains("silenced"));
    let (found, status) = memo_findings(&env);
    assert_eq!(status, 1, "an error: {found:?}");
    let events: Vec<&str> = found
        .iter()
        .map(|f| {
            assert_eq!(f["level"], "error");
            let message = f["message"].as_str().unwrap();
            assert!(
                message.contains("config.yaml") && message.contains("replaced"),
                "{message}"
            );
            assert!(
                f["at"].as_str().unwrap().contains("/hermes-hooks/parsed/"),
                "{f}"
            );
            if message.contains("every event") {
                "every"
            } else {
                "pre_tool_call"
            }
        })
        .collect();
    // The memo `list` read and the one `run pre_tool_call` read; on_session_start's memo names
    // no guard and says what the file says.
    assert_eq!(events.len(), 2, "{found:?}");
    assert!(events.contains(&"every") && events.contains(&"pre_tool_call"));

    // Mended: the commands see the file again, and the next doctor finds nothing.
    assert_eq!(said(&env), fresh);
    let (found, status) = memo_findings(&env);
    assert_eq!((found.len(), status), (0, 0), "{found:?}");
}

#[test]
fn a_memo_rewritten_without_the_key_is_not_believed_and_doctor_says_so() {
    let env = TestEnv::new();
    let ok = env.script("ok.sh", OK).display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {ok} guard\n"
    ));
    let fresh = said(&env);
    edit_memos(&env, |text| text.replace(" guard", " silenced"));
    let (found, status) = memo_findings(&env);
    assert_eq!(status, 1, "an error: {found:?}");
    assert!(!found.is_empty());
    assert_eq!(said(&env), fresh);
    let key = env.home().join(".local/share/hermes-hooks/memo.key");
    let mode = fs::metadata(&key).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

/// Replaces `from` with `to` (as long) wherever it is in `bytes`.
fn replaced(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(found) = out[at..].windows(from.len()).position(|w| w == from) {
        out[at + found..at + found + to.len()].copy_from_slice(to);
        at += found + to.len();
    }
    out
}

#[test]
fn a_rules_memo_rewritten_without_the_key_is_not_believed_and_doctor_removes_any_untrue_one() {
    let env = TestEnv::new();
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(
        &file,
        "rules:\n- name: no-rm-rf\n  tool: shell\n  when: {command: 'rm -rf'}\n  message: Blocked by a rule.\n",
    )
    .unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let message = || {
        let out = env.run(
            "pre_tool_call",
            r#"{"tool_name":"terminal","tool_input":{"command":"rm -rf /srv"}}"#,
        );
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        json(&out)["message"].as_str().unwrap().to_owned()
    };
    assert_eq!(message(), "Blocked by a rule.");
    // A file is known by its stamp once a second change could no longer leave it as it is.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(message(), "Blocked by a rule.");
    let bodies: Vec<PathBuf> = memos(&env)
        .into_iter()
        .filter(|m| m.extension().is_some_and(|e| e == "body"))
        .collect();
    assert!(!bodies.is_empty());
    // Without the key: not believed.
    for memo in &bodies {
        let bytes = fs::read(memo).unwrap();
        fs::write(memo, replaced(&bytes, b"by a rule", b"by a RULE")).unwrap();
    }
    assert_eq!(message(), "Blocked by a rule.");
    // With the key: believed, until `doctor` compares the memos with the file.
    for memo in memos(&env)
        .iter()
        .filter(|m| m.extension().is_some_and(|e| e == "body"))
    {
        forge(&env, memo, |body| {
            replaced(body, b"by a rule", b"by a RULE")
        });
    }
    assert_eq!(message(), "Blocked by a RULE.");
    let (found, status) = memo_findings(&env);
    assert_eq!(status, 1, "{found:?}");
    assert!(
        found.iter().all(|f| f["message"]
            .as_str()
            .unwrap()
            .contains("memo of the rules file")),
        "{found:?}"
    );
    assert_eq!(message(), "Blocked by a rule.");
    let (found, status) = memo_findings(&env);
    assert_eq!((found.len(), status), (0, 0), "{found:?}");
}
