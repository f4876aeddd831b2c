//! The trust boundary, stated as promises: what a cloned project, a crafted file or a dying
//! caller can never do (silence a guard, hang the tool, run what nobody approved, write raw
//! bytes to a terminal, turn a block into a pass).

use std::io::Read as _;
use std::process::Stdio;

use crate::common::{TestEnv, code, json, stderr};

/// Bytes a terminal would act on: C0 controls other than newline, DEL, and the C1 controls and
/// bidirectional overrides as UTF-8.
pub fn raw_control(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    text.chars()
        .find(|c| {
            (c.is_control() && *c != '\n')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .map(|c| format!("{c:?} in {text:?}"))
}

#[test]
fn run_list_and_doctor_read_the_same_config_so_a_crafted_quote_hides_nothing() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    let hook = env.script("sneaky.sh", &format!("touch '{}'", marker.display()));
    // A double-quoted value whose last character is an escaped quote does not close on its line:
    // everything up to the next quote belongs to it. A reader that judged "closed" by the last
    // character saw an auto-accepted hook here that YAML (and Hermes) do not see.
    env.config(&format!(
        "model: \"x\\\"\nhooks_auto_accept: true\nhooks:\n  on_session_start:\n    - command: {}\nend: \"\n",
        hook.display()
    ));
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        json(&out)["hooks"],
        serde_json::json!([]),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists(), "no hook ran");
    let listed = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(doc["hooks"], serde_json::json!([]), "list agrees");

    // And a file the audit side cannot read stops `run` too, instead of running what nobody
    // can review.
    env.config(&format!(
        "providers:\n  a: : :\nhooks_auto_accept: true\nhooks:\n  on_session_start:\n    - command: {}\n",
        hook.display()
    ));
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        json(&out)["error"]
            .as_str()
            .unwrap()
            .contains("config.yaml:2")
    );
    assert!(!marker.exists(), "no hook ran");
    let listed = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&listed), 1);
}

#[test]
fn a_block_is_exit_2_even_when_nobody_reads_stdout() {
    let env = TestEnv::new();
    let hook = env.script(
        "guard.sh",
        "cat >/dev/null; echo 'no, not this' >&2; exit 2",
    );
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        hook.display()
    ));
    env.approve("pre_tool_call", &hook.display().to_string());
    let mut child = env
        .std_cmd()
        .args(["run", "pre_tool_call"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before the answer is written
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert_eq!(err.lines().last(), Some("no, not this"), "{err}");
}

/// A project hook whose folder name, name and description carry terminal escapes (conceal,
/// clear screen, bell, a bidi override), as a cloned repository could ship it.
fn hostile_project_hook(env: &TestEnv) -> String {
    let folder = "evil\u{1b}[8m\u{7}\u{202e}";
    env.hook_md(
        &env.project_hooks(),
        folder,
        "name: \"x\\e[2J\\a\"\ndescription: \"d\\e[8mhidden\\u202e\"\ntrigger: pre-session\n",
        "cat >/dev/null; printf '{}'",
    );
    folder.to_owned()
}

#[test]
fn nothing_a_file_supplies_reaches_the_terminal_raw() {
    let env = TestEnv::new();
    hostile_project_hook(&env);
    let hook = env.script("plain.sh", "cat >/dev/null; printf '\\033[8m' >&2; exit 1");
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n  \"bad\\e[8m\": []\n",
        hook.display()
    ));
    env.approve("on_session_start", &hook.display().to_string());
    let commands: [&[&str]; 9] = [
        &["list"],
        &["list", "--json"],
        &["doctor"],
        &["doctor", "--json"],
        &["test", "on_session_start", "--accept-hooks"],
        &["test", "on_session_start", "--json"],
        &["run", "on_session_start"],
        &["run", "on_session_start", "--dry-run"],
        &["approve", "--yes"],
    ];
    for args in commands {
        let out = env.cmd().args(args).write_stdin("{}").output().unwrap();
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            assert_eq!(raw_control(bytes), None, "{args:?} {stream}");
        }
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("\\e[8m")
                || String::from_utf8_lossy(&out.stdout).contains("\\u001b[8m")
                || String::from_utf8_lossy(&out.stderr).contains("\\e[8m"),
            "{args:?}: the escape is shown, visibly: {}{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    }
}

#[test]
fn a_hostile_folder_name_cannot_conceal_what_approve_shows_on_a_terminal() {
    let env = TestEnv::new();
    let folder = hostile_project_hook(&env);
    let shown = crate::common::on_a_terminal(&env, &["approve"], "Approve this hook?", b"n\n");
    assert!(!shown.contains("\u{1b}[8m"), "{shown:?}");
    assert!(
        !shown.contains('\u{7}') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );
    assert!(
        shown.contains("evil\\e[8m\\x07\\u{202e}"),
        "the folder name is shown with its escapes visible: {shown}"
    );
    assert!(!folder.is_empty());
    assert!(!env.allowlist_path().exists(), "declined: nothing recorded");
}
