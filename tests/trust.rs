//! The trust boundary, stated as promises: what a cloned project, a crafted file or a dying
//! caller can never do (silence a guard, hang the tool, run what nobody approved, write raw
//! bytes to a terminal, turn a block into a pass).

use std::fs;
use std::process::Stdio;

use crate::common::{TestEnv, code, json, stderr};

/// Bytes a terminal would act on or show as nothing: C0 controls other than newline, DEL, the
/// C1 controls, bidirectional overrides and invisible characters as UTF-8.
pub fn raw_control(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    text.chars()
        .find(|c| {
            (c.is_control() && *c != '\n')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
                || invisible(*c)
        })
        .map(|c| format!("{c:?} in {text:?}"))
}

/// Whether `c` prints as nothing: Unicode's default-ignorable code points, as
/// DerivedCoreProperties.txt lists them.
pub fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// One character of each kind that prints as nothing.
pub const INVISIBLE: [char; 20] = [
    '\u{ad}',    // soft hyphen
    '\u{34f}',   // combining grapheme joiner
    '\u{61c}',   // Arabic letter mark
    '\u{115f}',  // Hangul choseong filler
    '\u{3164}',  // Hangul filler
    '\u{ffa0}',  // halfwidth Hangul filler
    '\u{17b4}',  // Khmer inherent vowel
    '\u{180e}',  // Mongolian vowel separator
    '\u{200b}',  // zero-width space
    '\u{200c}',  // zero-width non-joiner
    '\u{200d}',  // zero-width joiner
    '\u{2060}',  // word joiner
    '\u{2064}',  // invisible plus
    '\u{fe0f}',  // variation selector 16
    '\u{feff}',  // zero-width no-break space
    '\u{1bca0}', // shorthand format letter overlap
    '\u{1d173}', // musical symbol begin beam
    '\u{e0001}', // language tag
    '\u{e0067}', // tag latin small letter g
    '\u{e0100}', // variation selector 17
];

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

    // And what the audit side cannot read, `run` does not run either (nor does it honour the
    // file's `hooks_auto_accept`): the answer names the file instead.
    env.config(&format!(
        "providers:\n  a: : :\nhooks_auto_accept: true\nhooks:\n  on_session_start:\n    - command: {}\n",
        hook.display()
    ));
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["hooks"], serde_json::json!([]), "{line}");
    assert_eq!(line["errors"][0]["line"], 2, "{line}");
    assert!(!marker.exists(), "no hook ran");
    assert!(!marker.exists(), "no hook ran");
    let listed = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&listed), 1);
}

#[test]
fn what_follows_a_unicode_line_break_in_a_comment_is_live_for_run_list_and_doctor() {
    // PyYAML, so Hermes, ends a comment (and a line) at U+0085, U+2028 and U+2029: a setting or
    // a hook after one is live for Hermes, and so it is here, for every command.
    let env = TestEnv::new();
    let marker = env.path("ran");
    let hook = env.script("hidden.sh", &format!("touch '{}'", marker.display()));
    env.config(&format!(
        "model: x # a note\u{85}hooks_auto_accept: true\nhooks: # none yet\u{2028}  on_session_start:\n    - command: {}\n",
        hook.display()
    ));
    let listed = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let config = env.hermes_home().join("config.yaml");
    assert_eq!(doc["hooks"][0]["command"], hook.display().to_string());
    assert_eq!(
        doc["hooks"][0]["declared_at"],
        format!("{}:5", config.display())
    );
    let out = env
        .cmd()
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["hook"] == hook.display().to_string()),
        "{doc:#}"
    );
    // `hooks_auto_accept: true` counts: the hook runs without an approval.
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        crate::common::statuses(&json(&out)),
        ["ok"],
        "{}",
        stderr(&out)
    );
    assert!(marker.exists());

    // The managed config is read the same way.
    let managed = env.managed_config(
        "hooks: # managed\u{2029}  pre_tool_call:\n    - command: /bin/managed-guard\n",
    );
    let listed = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let row = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["command"] == "/bin/managed-guard")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(row["scope"], "managed");
    assert_eq!(row["declared_at"], format!("{}:3", managed.display()));
}

#[test]
fn a_block_is_exit_2_even_when_nobody_reads_stdout() {
    let env = TestEnv::new();
    let hook = env.script(
        "guard.sh",
        "cat >/dev/null; echo 'no, not this' >&2; exit 2",
    );
    env.one_approved_hook(&hook);
    let mut child = env
        .std_cmd()
        .args(["run", "pre_tool_call"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before the answer is written
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
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
    let (shown, _) = crate::common::on_a_terminal(&env, &["approve"], &[("[d]iff", b"n\r")]);
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

/// `gu<c>ard`, as it must be shown.
fn shown_as(c: char) -> String {
    format!("gu\\u{{{:x}}}ard", u32::from(c))
}

#[test]
fn a_name_with_a_character_that_prints_as_nothing_never_passes_for_another() {
    let env = TestEnv::new();
    user_guard(&env);
    // A project hook for each invisible character, named `gu<c>ard` (folder and name).
    for c in INVISIBLE {
        let escaped = format!("\\U{:08x}", u32::from(c));
        env.hook_md(
            &env.project_hooks(),
            &format!("gu{c}ard"),
            &format!(
                "name: \"gu{escaped}ard\"\ndescription: \"a{escaped}b\"\ntrigger: pre-tool-call\n"
            ),
            "cat >/dev/null; printf '{}'",
        );
    }
    let steps: Vec<(&str, &[u8])> = INVISIBLE.iter().map(|_| ("[d]iff", &b"n\r"[..])).collect();
    let (review, _) = crate::common::on_a_terminal(&env, &["approve"], &steps);
    assert!(!review.chars().any(invisible), "{review:?}");
    let table = crate::common::on_a_sized_terminal(&env, &["list", "--color", "never"], 120);
    assert_eq!(raw_control(table.as_bytes()), None);
    // JSON escapes them too, and reads back as the name itself.
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    assert_eq!(raw_control(&out.stdout), None);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["name"].as_str())
        .collect();
    for c in INVISIBLE {
        assert!(names.contains(&format!("gu{c}ard").as_str()), "{names:?}");
    }
    for args in [
        &["list"][..],
        &["list", "--long"],
        &["doctor", "--no-exec"],
        &["approve", "--yes"],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            assert_eq!(raw_control(bytes), None, "{args:?} {stream}");
        }
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        for c in INVISIBLE {
            assert!(text.contains(&shown_as(c)), "{args:?} shows {c:?}: {text}");
            assert!(
                review.contains(&shown_as(c)),
                "approve shows {c:?}: {review}"
            );
            assert!(table.contains(&shown_as(c)), "whole in the table: {table}");
        }
    }
}

/// A user-level guard named `guard` that blocks every tool call, approved.
fn user_guard(env: &TestEnv) {
    env.hook_md(
        &env.user_hooks(),
        "guard",
        "name: guard\ndescription: blocks\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo 'blocked by the user guard' >&2; exit 2",
    );
    let entry = env.user_hooks().join("guard/scripts/run");
    env.approve("pre_tool_call", &entry.display().to_string());
}

fn mkfifo(path: &std::path::Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
}

/// Gives a test environment a project folder named like the user guard, broken in one way.
type Setup = fn(&TestEnv, &dyn Fn(&TestEnv, &str) -> std::path::PathBuf);

#[test]
fn a_project_folder_cannot_silence_a_user_guard() {
    let project = |env: &TestEnv, frontmatter: &str| {
        env.hook_md(
            &env.project_hooks(),
            "guard",
            frontmatter,
            "cat >/dev/null; printf '{}'",
        )
    };
    let cases: [(&str, Setup); 8] = [
        ("unapproved", |env, p| {
            p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
            );
        }),
        ("no script", |env, p| {
            let entry = p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
            );
            fs::remove_dir_all(entry.parent().unwrap()).unwrap();
        }),
        ("unknown trigger", |env, p| {
            p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-nothing\n",
            );
        }),
        ("another event", |env, p| {
            let entry = p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-session\n",
            );
            env.approve("on_session_start", &entry.display().to_string());
        }),
        ("no frontmatter", |env, p| {
            let entry = p(env, "name: guard\n");
            fs::write(
                entry.parent().unwrap().parent().unwrap().join("HOOK.md"),
                "name: guard\n",
            )
            .unwrap();
        }),
        ("HOOK.md is a FIFO", |env, p| {
            let entry = p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
            );
            let hook_md = entry.parent().unwrap().parent().unwrap().join("HOOK.md");
            fs::remove_file(&hook_md).unwrap();
            mkfifo(&hook_md);
        }),
        ("script is /dev/zero", |env, p| {
            let entry = p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
            );
            fs::remove_file(&entry).unwrap();
            std::os::unix::fs::symlink("/dev/zero", &entry).unwrap();
        }),
        ("changed since approval", |env, p| {
            let entry = p(
                env,
                "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
            );
            env.approve("pre_tool_call", &entry.display().to_string());
            fs::write(&entry, "#!/bin/sh\ncat >/dev/null; printf '{}' # edited\n").unwrap();
        }),
    ];
    for (case, setup) in cases {
        let env = TestEnv::new();
        user_guard(&env);
        setup(&env, &project);
        let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
        assert_eq!(
            code(&out),
            2,
            "{case}: the guard still blocks: {}",
            stderr(&out)
        );
        let line = json(&out);
        assert_eq!(line["action"], "block", "{case}");
        assert_eq!(line["hooks"][0]["status"], "blocked", "{case}: {line}");
        // `list` says the user hook runs, and names the project folder that does not replace it.
        let listed = env.cmd().args(["list", "--json"]).output().unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        let user = doc["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["scope"] == "user")
            .unwrap();
        assert_eq!(user["consent"], "approved", "{case}: {user}");
        assert!(
            user["not_replaced_by"][0]["why"].is_string(),
            "{case}: the namesake is shown: {user}"
        );
    }
}

#[test]
fn a_replacement_that_changes_before_it_starts_gives_the_guard_back() {
    let env = TestEnv::new();
    user_guard(&env);
    let entry = env.hook_md(
        &env.project_hooks(),
        "guard",
        "name: guard\ndescription: mine\ntrigger: pre-tool-call\n",
        "cat >/dev/null; printf '{}'",
    );
    env.approve("pre_tool_call", &entry.display().to_string());
    // A config hook runs first and edits the approved project script: when the project hook's
    // turn comes, its pin no longer matches, so it does not start, and the user guard runs.
    let editor = env.script(
        "editor.sh",
        &format!(
            "cat >/dev/null; echo '# edited' >> '{}'; printf '{{}}'",
            entry.display()
        ),
    );
    env.one_approved_hook(&editor);
    let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
    let line = json(&out);
    assert_eq!(code(&out), 2, "{line}");
    assert_eq!(
        crate::common::statuses(&line),
        ["ok", "blocked", "changed"],
        "{line}"
    );
}

#[test]
fn a_fail_closed_guard_blocks_however_it_fails_to_answer() {
    type Break = fn(&TestEnv, &std::path::Path);
    let cases: [(&str, &str, Break); 5] = [
        ("never approved", "unapproved", |_, _| {}),
        ("edited", "changed", |env, script| {
            env.approve("pre_tool_call", &script.display().to_string());
            fs::write(script, "#!/bin/sh\nexit 0\n").unwrap();
        }),
        ("deleted", "changed", |env, script| {
            env.approve("pre_tool_call", &script.display().to_string());
            fs::remove_file(script).unwrap();
        }),
        (
            "made unreadable by a FIFO",
            "spawn_failed",
            |env, script| {
                env.approve("pre_tool_call", &script.display().to_string());
                fs::remove_file(script).unwrap();
                mkfifo(script);
            },
        ),
        (
            "Hermes approval, then deleted",
            "spawn_failed",
            |env, script| {
                env.hermes_approval("pre_tool_call", &script.display().to_string(), None);
                fs::remove_file(script).unwrap();
            },
        ),
    ];
    for (case, status, break_it) in cases {
        let env = TestEnv::new();
        let script = env.script("guard.sh", "cat >/dev/null; printf '{}'");
        env.config(&format!(
            "hooks:\n  pre_tool_call:\n    - command: {}\n      fail_closed: true\n",
            script.display()
        ));
        break_it(&env, &script);
        let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
        let line = json(&out);
        assert_eq!(code(&out), 2, "{case}: {line} {}", stderr(&out));
        assert_eq!(line["hooks"][0]["status"], status, "{case}: {line}");
        // One sentence for the model: the hook named once, no command to run.
        let message = line["message"].as_str().unwrap();
        assert!(
            message.starts_with("hook guard.sh#")
                && message.ends_with(", so this call was blocked (fail_closed)"),
            "{case}: {line}"
        );
        assert_eq!(message.matches("guard.sh").count(), 1, "{case}: {message}");
        assert!(!message.contains("hermes-hooks"), "{case}: {message}");
        // A dry run says so, and decides nothing.
        let out = env
            .cmd()
            .args(["run", "pre_tool_call", "--dry-run"])
            .write_stdin("{}")
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{case}");
        assert!(
            json(&out)["hooks"][0]["message"]
                .as_str()
                .unwrap()
                .ends_with("fail_closed: a run would block"),
            "{case}"
        );
    }
}

#[test]
fn a_script_that_is_not_a_regular_file_hangs_nothing_and_is_never_read() {
    let env = TestEnv::new();
    let fifo_entry = env.hook_md(
        &env.project_hooks(),
        "fifo",
        "name: fifo\ndescription: d\ntrigger: pre-tool-call\n",
        "",
    );
    fs::remove_file(&fifo_entry).unwrap();
    mkfifo(&fifo_entry);
    let zero_entry = env.hook_md(
        &env.project_hooks(),
        "zero",
        "name: zero\ndescription: d\ntrigger: pre-tool-call\n",
        "",
    );
    fs::remove_file(&zero_entry).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &zero_entry).unwrap();
    let big = env.hook_md(
        &env.project_hooks(),
        "big",
        "name: big\ndescription: d\ntrigger: pre-tool-call\n",
        "",
    );
    fs::File::create(&big)
        .unwrap()
        .set_len(20 * 1024 * 1024 * 1024)
        .unwrap(); // sparse: 20 GiB that cost nothing
    // With a bypass, every hook would be approved and run on the spot: nothing is.
    for args in [
        &["run", "pre_tool_call", "--accept-hooks"][..],
        &["list"],
        &["doctor"],
        &["approve", "--yes"],
        &["test", "pre_tool_call", "--accept-hooks"],
    ] {
        let out = crate::common::bounded(&env, args, "{}");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_ne!(code(&out), 2, "{args:?}: {text}");
        if args[0] == "run" {
            let line = json(&out);
            assert_eq!(
                crate::common::statuses(&line),
                ["spawn_failed"; 3],
                "{text}"
            );
            let messages = line["hooks"].to_string();
            assert!(messages.contains("larger than 16 MiB"), "{messages}");
            assert!(
                messages.contains("a FIFO (named pipe), not a regular file"),
                "{messages}"
            );
            assert!(
                messages.contains("a character device, not a regular file"),
                "{messages}"
            );
        }
    }
    assert!(
        !env.allowlist_path().exists(),
        "nothing that cannot be read is ever approved"
    );
}

/// A hook on `pre_tool_call` that records its pid in `<name>.pid` and sleeps in a child process
/// (so its group has two members); approved.
fn sleeper(env: &TestEnv, name: &str) -> std::path::PathBuf {
    let pid_file = env.path(&format!("{name}.pid"));
    let hook = env.script(
        &format!("{name}.sh"),
        &format!("echo $$ > '{}'\nsleep 1000", pid_file.display()),
    );
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n      timeout: 300\n",
        hook.display()
    ));
    env.approve("pre_tool_call", &hook.display().to_string());
    pid_file
}

fn start_run(env: &TestEnv) -> std::process::Child {
    env.std_cmd()
        .args(["run", "pre_tool_call"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Whether a live process (not a zombie waiting to be reaped) is in process group `pgid`.
fn group_alive(pgid: i32) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return rustix::process::test_kill_process_group(
            rustix::process::Pid::from_raw(pgid).unwrap(),
        )
        .is_ok();
    };
    entries.flatten().any(|entry| {
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let mut fields = stat
            .rsplit(')')
            .next()
            .unwrap_or_default()
            .split_whitespace();
        let state = fields.next();
        let group = fields.nth(1).and_then(|g| g.parse::<i32>().ok());
        group == Some(pgid) && state != Some("Z")
    })
}

/// Waits (up to `PROMPTLY`) until no live process is left in group `pgid`.
fn group_gone(pgid: i32) -> bool {
    let until = std::time::Instant::now() + crate::common::PROMPTLY;
    while std::time::Instant::now() < until {
        if !group_alive(pgid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

#[test]
fn every_terminating_signal_ends_the_hooks_first_and_exits_128_plus_n() {
    use rustix::process::Signal;
    for signal in [
        Signal::HUP,
        Signal::QUIT,
        Signal::USR1,
        Signal::USR2,
        Signal::ALARM,
    ] {
        let env = TestEnv::new();
        let pid_file = sleeper(&env, "hook");
        let child = start_run(&env);
        let pgid = crate::common::await_pid(&pid_file, crate::common::PROMPTLY);
        let run = rustix::process::Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
        rustix::process::kill_process(run, signal).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(128 + signal.as_raw()),
            "{signal:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{signal:?}: no half answer");
        assert!(
            group_gone(pgid),
            "{signal:?}: the hook's whole group was ended"
        );
    }
}

#[test]
fn a_signal_while_no_hook_runs_is_answered_at_once() {
    let env = TestEnv::new();
    let marker = env.path("first.ran");
    let first = env.script(
        "first.sh",
        &format!(
            "cat >/dev/null; touch '{}'; printf '{{}}'",
            marker.display()
        ),
    );
    let second = env.script("second.sh", "cat >/dev/null; printf '{}'");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n    - command: {}\n",
        first.display(),
        second.display()
    ));
    env.approve("pre_tool_call", &first.display().to_string());
    // Approved by Hermes (no pin): `run` records the pin first, under the allowlist's lock,
    // which this test holds, so `run` waits there once the first hook has run.
    env.hermes_approval("pre_tool_call", &second.display().to_string(), None);
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(env.hermes_home().join("shell-hooks-allowlist.json.lock"))
        .unwrap();
    lock.lock().unwrap();
    let child = start_run(&env);
    let until = std::time::Instant::now() + crate::common::PROMPTLY;
    while !marker.exists() {
        assert!(
            std::time::Instant::now() < until,
            "the first hook never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let run = rustix::process::Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    rustix::process::kill_process(run, rustix::process::Signal::TERM).unwrap();
    // Before, the flag was set and nobody looked: `run` waited on the lock for ever.
    let watchdog = std::thread::spawn(move || {
        let until = std::time::Instant::now() + crate::common::PROMPTLY;
        while std::time::Instant::now() < until {
            if rustix::process::test_kill_process(run).is_err() {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = rustix::process::kill_process(run, rustix::process::Signal::KILL);
        true
    });
    let out = child.wait_with_output().unwrap();
    assert!(!watchdog.join().unwrap(), "run did not answer the signal");
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    drop(lock);
}

/// Whether some process whose parent is `parent` runs with `arg` on its command line.
fn has_child_with(parent: u32, arg: &str) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let dir = entry.path();
        let stat = fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        ppid == Some(parent)
            && fs::read(dir.join("cmdline"))
                .unwrap_or_default()
                .split(|b| *b == 0)
                .any(|word| word == arg.as_bytes())
    })
}

#[test]
fn a_killed_run_leaves_no_hook_behind() {
    let env = TestEnv::new();
    let pid_file = sleeper(&env, "hook");
    let mut child = start_run(&env);
    let pgid = crate::common::await_pid(&pid_file, crate::common::PROMPTLY);
    // Once a hook has run a moment, a guard process watches its group.
    let until = std::time::Instant::now() + crate::common::PROMPTLY;
    while !has_child_with(child.id(), "__guard") {
        assert!(std::time::Instant::now() < until, "no guard was started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: nothing in `run` gets to act
    let _ = child.wait();
    assert!(group_gone(pgid), "the hook and its child were ended");
}

#[test]
fn the_hidden_watchdog_refuses_groups_that_reach_every_process() {
    let env = TestEnv::new();
    for pgid in ["0", "1", "-1", "x"] {
        let out = env.cmd().args(["__watch", pgid, "100"]).output().unwrap();
        assert_eq!(code(&out), 1, "__watch {pgid}");
    }
}

#[test]
fn the_audit_log_keeps_payloads_from_other_eyes_and_never_follows_a_link() {
    use std::os::unix::fs::PermissionsExt as _;
    let env = TestEnv::new();
    let hook = env.script("ok.sh", "cat >/dev/null; printf '{}'");
    env.one_approved_hook(&hook);
    let run_with_log = |log: &std::path::Path| {
        env.cmd()
            .args(["run", "pre_tool_call", "--audit-payload", "--audit-log"])
            .arg(log)
            .write_stdin(r#"{"tool_name": "terminal", "args": {"secret": "hunter2"}}"#)
            .output()
            .unwrap()
    };
    let fresh = env.path("fresh.log");
    run_with_log(&fresh);
    assert_eq!(
        fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(fs::read_to_string(&fresh).unwrap().contains("hunter2"));

    let shared = env.path("shared.log");
    fs::write(&shared, "").unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o644)).unwrap();
    let out = run_with_log(&shared);
    assert!(
        stderr(&out).contains("the payload was left out"),
        "{}",
        stderr(&out)
    );
    let text = fs::read_to_string(&shared).unwrap();
    assert!(
        text.contains("\"event\"") && !text.contains("hunter2"),
        "{text}"
    );

    let target = env.path("elsewhere.log");
    let link = env.path("link.log");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run_with_log(&link);
    assert_eq!(
        code(&out),
        0,
        "a log that cannot be written never changes the decision"
    );
    assert!(
        stderr(&out).contains("cannot append to the audit log"),
        "{}",
        stderr(&out)
    );
    assert!(!target.exists(), "nothing was created through the link");
}

#[test]
fn a_dangling_lock_link_is_refused_and_creates_nothing() {
    let env = TestEnv::new();
    let hook = env.script("ok.sh", "cat >/dev/null; printf '{}'");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        hook.display()
    ));
    let target = env.path("planted");
    std::os::unix::fs::symlink(
        &target,
        env.hermes_home().join("shell-hooks-allowlist.json.lock"),
    )
    .unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot open the lock"),
        "{}",
        stderr(&out)
    );
    assert!(!target.exists());
}

#[test]
fn an_approval_holds_from_every_directory_and_spelling() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "check",
        "name: check\ndescription: d\ntrigger: pre-tool-call\n",
        "cat >/dev/null; printf '{}'",
    );
    let out = env
        .cmd()
        .args(["--project", "../work/./", "approve", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let command = env.approvals()[0]["command"].as_str().unwrap().to_owned();
    assert!(
        !command.contains("/../") && !command.contains("/./"),
        "{command}"
    );
    let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
    assert_eq!(
        crate::common::statuses(&json(&out)),
        ["ok"],
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_null_or_empty_pin_is_pinned_on_first_use() {
    let env = TestEnv::new();
    let hook = env.script("ok.sh", "cat >/dev/null; printf '{}'");
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    for pin in [serde_json::Value::Null, serde_json::json!("")] {
        fs::write(
            env.allowlist_path(),
            serde_json::json!({"approvals": [{"command": command, "event": "pre_tool_call",
                "approved_at": "2026-01-01T00:00:00Z", "script_sha256": pin}]})
            .to_string(),
        )
        .unwrap();
        let out = env.run("pre_tool_call", "{}");
        assert_eq!(crate::common::statuses(&json(&out)), ["ok"]);
        assert_eq!(
            env.approvals()[0]["script_sha256"].as_str().unwrap().len(),
            64
        );
        fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
        let out = env.run("pre_tool_call", "{}");
        assert_eq!(
            crate::common::statuses(&json(&out)),
            ["changed"],
            "the pin holds now"
        );
        fs::write(&hook, "#!/bin/sh\ncat >/dev/null; printf '{}'\n").unwrap();
    }
}
