//! `log`: recent decisions from the audit log as a table or JSON, each decision's hooks together
//! under its run id, filtered by event, session, status, `--blocked` or `--run`; lines of older
//! versions and hostile lines read without harm; memory bounded whatever the log's size; what it
//! says when no log is configured.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, redacted, stderr};

/// A log of three runs (one of them a block; the second from a version without run ids), a torn
/// line and a blank one.
const LOG: &str = r#"{"time":"2026-11-20T10:00:00.123456Z","run_id":"k3v9d2m1a7qe","event":"pre_tool_call","session_id":"sess-1","tool_name":"terminal","tool_command":"git push --force origin main","exit":2,"directive":{"action":"block","message":"Force pushes are not allowed here"},"hooks":[{"name":"guard","source":"agent-hooks","command":"/p/.agents/hooks/guard/scripts/run","sha256":"ab","status":"blocked","directive":{"action":"block","message":"Force pushes are not allowed here"}},{"name":"later","source":"config","command":"later.sh","sha256":null,"status":"not_run","directive":{}}]}
{"time":"2026-11-20T10:00:05Z","event":"pre_tool_call","session_id":"sess-2","tool_name":"read_file","exit":0,"directive":{},"hooks":[{"name":"guard","source":"agent-hooks","command":"/p/.agents/hooks/guard/scripts/run","sha256":null,"status":"not_matched","directive":{}},{"name":"later","source":"config","command":"later.sh","sha256":null,"status":"unapproved","directive":{},"message":"not approved: run `hermes-hooks approve later.sh`"}]}
{"time":"2026-11-20T10:01:00Z","run_id":"k3v0aa11bb22","event":"pre_llm_call","session_id":"sess-1","exit":0,"directive":{"context":"Uses tabs"},"hooks":[{"name":"ctx","source":"config","command":"ctx.sh","sha256":"cd","status":"context","directive":{"context":"Uses tabs"}}]}
{"time":"2026-11-20T10:0
"#;

fn log(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd()
        .arg("log")
        .args(args)
        .env("HERMES_HOOKS_AUDIT_LOG", env.path("audit.jsonl"))
        .output()
        .unwrap()
}

#[test]
fn log_shows_each_decision_with_its_run_id_and_tool_over_its_hooks() {
    let env = TestEnv::new();
    fs::write(env.path("audit.jsonl"), format!("{LOG}\n")).unwrap();
    let out = log(&env, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           RUN           EVENT          DECISION  SESSION  TOOL
  HOOK   STATUS      DIRECTIVE  MESSAGE
2026-11-20 10:00:00  k3v9d2m1a7qe  pre_tool_call  block     sess-1   terminal: git push --force origin main
  guard  blocked     block      Force pushes are not allowed here
2026-11-20 10:00:05  -             pre_tool_call  ok        sess-2   read_file
  later  unapproved  -          not approved: run `hermes-hooks approve later.sh`
2026-11-20 10:01:00  k3v0aa11bb22  pre_llm_call   context   sess-1
  ctx    context     context    Uses tabs

"#]]
    );
    assert!(
        stderr(&out).contains("1 line(s) are not audit entries and were skipped (line 4)"),
        "{}",
        stderr(&out)
    );

    let out = log(&env, &["--blocked"]);
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           RUN           EVENT          DECISION  SESSION  TOOL
  HOOK   STATUS   DIRECTIVE  MESSAGE
2026-11-20 10:00:00  k3v9d2m1a7qe  pre_tool_call  block     sess-1   terminal: git push --force origin main
  guard  blocked  block      Force pushes are not allowed here

"#]]
    );

    let out = log(&env, &["--all", "-n", "0"]);
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           RUN           EVENT          DECISION  SESSION  TOOL
  HOOK   STATUS       DIRECTIVE  MESSAGE
2026-11-20 10:00:00  k3v9d2m1a7qe  pre_tool_call  block     sess-1   terminal: git push --force origin main
  guard  blocked      block      Force pushes are not allowed here
  later  not_run      -
2026-11-20 10:00:05  -             pre_tool_call  ok        sess-2   read_file
  guard  not_matched  -
  later  unapproved   -          not approved: run `hermes-hooks approve later.sh`
2026-11-20 10:01:00  k3v0aa11bb22  pre_llm_call   context   sess-1
  ctx    context      context    Uses tabs

"#]]
    );
}

#[test]
fn log_filters_and_json() {
    let env = TestEnv::new();
    fs::write(env.path("audit.jsonl"), LOG).unwrap();
    let rows = |args: &[&str]| -> Vec<Value> {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = log(&env, &all);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["schema_version"], 1);
        assert_eq!(doc["skipped_lines"], 1);
        doc["rows"].as_array().unwrap().clone()
    };
    let hooks = |rows: &[Value]| -> Vec<String> {
        rows.iter()
            .map(|r| {
                format!(
                    "{}:{}",
                    r["hook"].as_str().unwrap(),
                    r["status"].as_str().unwrap()
                )
            })
            .collect()
    };
    let all = rows(&[]);
    assert_eq!(
        hooks(&all),
        ["guard:blocked", "later:unapproved", "ctx:context"],
        "not_run and not_matched hooks stay out unless asked for"
    );
    assert_eq!(all[0]["run_id"], "k3v9d2m1a7qe");
    assert_eq!(all[0]["tool_command"], "git push --force origin main");
    assert_eq!(all[1]["run_id"], Value::Null, "a line of an older version");
    assert_eq!(
        hooks(&rows(&["--all"])),
        [
            "guard:blocked",
            "later:not_run",
            "guard:not_matched",
            "later:unapproved",
            "ctx:context"
        ]
    );
    assert_eq!(hooks(&rows(&["--status", "not_run"])), ["later:not_run"]);
    let blocked = rows(&["--blocked"]);
    assert_eq!(hooks(&blocked), ["guard:blocked"]);
    assert_eq!(blocked[0]["message"], "Force pushes are not allowed here");
    assert_eq!(blocked[0]["directive"], "block");
    assert_eq!(blocked[0]["exit"], 2);
    assert_eq!(blocked[0]["tool_name"], "terminal");
    assert_eq!(hooks(&rows(&["--session", "sess-2"])), ["later:unapproved"]);
    assert_eq!(
        hooks(&rows(&["--event", "UserPromptSubmit"])),
        ["ctx:context"]
    );
    assert_eq!(
        hooks(&rows(&["--status", "not_matched"])),
        ["guard:not_matched"]
    );
    assert_eq!(hooks(&rows(&["-n", "1"])), ["ctx:context"]);
    assert_eq!(
        hooks(&rows(&["-n", "2"])),
        ["later:unapproved", "ctx:context"]
    );
    assert_eq!(hooks(&rows(&["--limit", "0"])).len(), 3);
    assert_eq!(hooks(&rows(&["--limit", "0", "--all"])).len(), 5);

    let out = log(&env, &["--status", "nope"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("invalid value 'nope' for '--status <STATUS>'")
            && stderr(&out).contains("possible values: ok, blocked"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn log_reads_what_run_writes() {
    let env = TestEnv::new();
    let hook = env.script(
        "guard.sh",
        r#"grep -q 'force' && { echo 'no force pushes' >&2; exit 2; }; exit 0"#,
    );
    let command = hook.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    env.approve("pre_tool_call", &command);
    for args in ["git push --force", "ls"] {
        env.cmd()
            .args(["run", "pre_tool_call", "--audit-log"])
            .arg(env.path("audit.jsonl"))
            .write_stdin(format!(
                r#"{{"tool_name": "terminal", "args": {{"command": "{args}"}}, "session_id": "s"}}"#
            ))
            .output()
            .unwrap();
    }
    let out = env
        .cmd()
        .args(["log", "--json", "--audit-log"])
        .arg(env.path("audit.jsonl"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{doc}");
    assert_eq!(rows[0]["status"], "blocked");
    assert_eq!(rows[0]["message"], "no force pushes");
    assert_eq!(rows[0]["command"], command.as_str());
    assert_eq!(rows[1]["status"], "ok");
    assert_eq!(doc["skipped_lines"], 0);
    assert_eq!(rows[0]["tool_command"], "git push --force");
    let id = rows[0]["run_id"].as_str().unwrap();
    assert_ne!(Some(id), rows[1]["run_id"].as_str());

    let out = env
        .cmd()
        .args(["log", "--run", &id[..6], "--audit-log"])
        .arg(env.path("audit.jsonl"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        // The other row's call, not the bare word: a run id may hold the letters `ls`.
        shown.contains(id)
            && shown.contains("terminal: git push --force")
            && !shown.contains("terminal: ls"),
        "{shown}"
    );
}

#[test]
fn decisions_are_recorded_by_default_and_off_turns_it_off() {
    let env = TestEnv::new();
    let default = env.hermes_home().join("hermes-hooks/audit.jsonl");
    let out = env.cmd().arg("log").output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no decisions recorded yet")
            && stderr(&out).contains(&default.display().to_string()),
        "{}",
        stderr(&out)
    );
    let guard = env.work().join("guard.sh");
    std::fs::write(&guard, "#!/bin/sh\necho no >&2\nexit 2\n").unwrap();
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {}\n    \
         - matcher: write_file\n      command: {}\n",
        guard.display(),
        guard.display()
    ));
    env.approve("pre_tool_call", guard.to_str().unwrap());
    let call = |tool: &str| format!(r#"{{"tool_name": "{tool}", "tool_input": {{}}}}"#);
    // Nothing applies: nothing is recorded.
    assert_eq!(code(&env.run("pre_tool_call", &call("read_file"))), 0);
    assert!(!default.exists());
    assert_eq!(code(&env.run("pre_tool_call", &call("terminal"))), 2);
    let mode = std::fs::metadata(&default).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // Only the hooks that applied are written down.
    let line: Value = serde_json::from_str(
        std::fs::read_to_string(&default)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(line["hooks"].as_array().unwrap().len(), 1, "{line}");
    let out = env.cmd().args(["log", "--json"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!(doc["rows"][0]["status"], "blocked", "{doc}");
    // Off: nothing is written, and `log` says so.
    let before = std::fs::read(&default).unwrap();
    let out = env
        .cmd()
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .args(["run", "pre_tool_call"])
        .write_stdin(call("terminal"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(std::fs::read(&default).unwrap(), before);
    let out = env
        .cmd()
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .arg("log")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("the audit log is off"),
        "{}",
        stderr(&out)
    );
    // Past its bound the log starts anew, its older lines kept beside it.
    let mut big = before.clone();
    while big.len() < 8 * 1024 * 1024 {
        big.extend_from_slice(&before);
    }
    std::fs::write(&default, &big).unwrap();
    assert_eq!(code(&env.run("pre_tool_call", &call("terminal"))), 2);
    let fresh = std::fs::read_to_string(&default).unwrap();
    assert_eq!(fresh.lines().count(), 1, "{fresh}");
    let older = env.hermes_home().join("hermes-hooks/audit.jsonl.1");
    assert_eq!(std::fs::read(&older).unwrap(), big);
}

#[test]
fn a_log_named_that_does_not_exist_yet_is_said_and_read_as_empty() {
    let env = TestEnv::new();
    let out = log(&env, &[]);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("no decisions recorded yet"),
        "{}",
        stderr(&out)
    );
    let out = log(&env, &["--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["rows"], serde_json::json!([]));

    std::fs::create_dir(env.path("audit.jsonl")).unwrap();
    let out = log(&env, &["--json"]);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty(), "no half document");
    assert!(
        stderr(&out).contains("cannot read the audit log"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn run_shows_one_decision_whole_by_its_id_or_a_prefix_that_names_one() {
    let env = TestEnv::new();
    fs::write(env.path("audit.jsonl"), LOG).unwrap();
    let out = log(&env, &["--run", "k3v9"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
TIME (UTC)           RUN           EVENT          DECISION  SESSION  TOOL
  HOOK   STATUS   DIRECTIVE  MESSAGE
2026-11-20 10:00:00  k3v9d2m1a7qe  pre_tool_call  block     sess-1   terminal: git push --force origin main
  guard  blocked  block      Force pushes are not allowed here
  later  not_run  -

"#]]
    );
    let out = log(&env, &["--run", "k3v9d2m1a7qe", "--json", "-n", "1"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "the whole decision, whatever -n says: {doc}");
    assert!(rows.iter().all(|row| row["run_id"] == "k3v9d2m1a7qe"));

    let out = log(&env, &["--run", "k3v"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("2 decisions have a run id starting with \"k3v\"")
            && stderr(&out).contains("k3v9d2m1a7qe")
            && stderr(&out).contains("k3v0aa11bb22"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    let out = log(&env, &["--run", "zz", "--json"]);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty(), "no half document");
    assert!(
        stderr(&out).contains("no decision in the log has a run id starting with \"zz\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_hostile_line_is_shown_escaped_or_skipped_never_raw() {
    let env = TestEnv::new();
    let hook = r#"{"name":"h","source":"config","command":"h.sh","sha256":null,"status":"ok","directive":{}}"#;
    let mut text = Vec::new();
    for line in [
        format!(
            r#"{{"time":"2026-11-20T10:00:00Z","run_id":"\u001b[31mred","event":"pre_tool_call","session_id":"s","tool_name":"terminal","tool_command":"ls \u001b]0;title\u0007 \u202e","exit":0,"directive":{{}},"hooks":[{hook}]}}"#
        ),
        format!(
            r#"{{"time":"2026-11-20T10:00:01Z","run_id":7,"event":"pre_tool_call","session_id":"s","agent":["x"],"tool_command":{{"a":1}},"exit":0,"directive":{{}},"hooks":[{hook}]}}"#
        ),
        format!(
            r#"{{"time":"2026-11-20T10:00:02Z","event":"pre_tool_call","exit":999,"hooks":[{hook}]}}"#
        ),
        "[1,2]".to_owned(),
        "null".to_owned(),
        r#""text""#.to_owned(),
    ] {
        text.extend_from_slice(line.as_bytes());
        text.push(b'\n');
    }
    text.extend_from_slice(b"{\"time\":\"\xff\xfe\"}\n\x1b[2J\n");
    fs::write(env.path("audit.jsonl"), &text).unwrap();
    for limit in ["20", "0"] {
        let out = log(&env, &["-n", limit]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let shown = String::from_utf8(out.stdout.clone()).unwrap();
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{7}') && !shown.contains('\u{202e}'),
            "{shown:?}"
        );
        assert!(
            shown.contains("\\e[31mred") && shown.contains("ls \\e]0;title\\x07 \\u{202e}"),
            "{shown}"
        );
        assert_eq!(
            shown.lines().filter(|l| l.starts_with("  h ")).count(),
            2,
            "{shown}"
        );
        assert!(
            stderr(&out).contains(
                "6 line(s) are not audit entries and were skipped (line 3, 4, 5, 6, 7, ...)"
            ),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains('\u{1b}'));
        let out = log(&env, &["-n", limit, "--json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(!out.stdout.contains(&0x1b), "{:?}", out.stdout);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["rows"].as_array().unwrap().len(), 2);
        assert_eq!(doc["rows"][0]["run_id"], "\u{1b}[31mred");
        assert_eq!(doc["rows"][1]["run_id"], Value::Null);
        assert_eq!(doc["skipped_lines"], 6);
    }
}

#[test]
fn what_was_decided_on_and_why_are_shown_whole_between_words_at_any_width() {
    let env = TestEnv::new();
    let command = format!("git commit --message {}", "many words here ".repeat(12));
    let command = command.trim_end();
    let message = format!(
        "Commits need review: {}",
        "please ask a maintainer ".repeat(6)
    );
    let message = message.trim_end();
    fs::write(
        env.path("audit.jsonl"),
        format!(
            r#"{{"time":"2026-11-20T10:00:00Z","run_id":"k3v9d2m1a7qe","event":"pre_tool_call","session_id":"s","tool_name":"terminal","tool_command":"{command}","exit":2,"directive":{{"action":"block","message":"{message}"}},"hooks":[{{"name":"h","source":"config","command":"h.sh","sha256":null,"status":"blocked","directive":{{"action":"block","message":"{message}"}},"message":"{message}"}}]}}
{{"time":"2026-11-20T10:00:01Z","run_id":"k3v9d2m1a7qf","event":"pre_tool_call","session_id":"s","tool_name":"terminal","tool_command":"ls","exit":0,"directive":{{}},"hooks":[{{"name":"h","source":"config","command":"h.sh","sha256":null,"status":"ok","directive":{{}}}}]}}"#
        ) + "\n",
    )
    .unwrap();
    let path = env.path("audit.jsonl").display().to_string();
    let words = |text: &str| {
        text.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    for cols in [80_u16, 100, 120] {
        let shown = uncoloured(&crate::common::on_a_sized_terminal(
            &env,
            &["log", "--audit-log", &path],
            cols,
        ));
        for line in shown.lines() {
            assert!(
                unicode_width::UnicodeWidthStr::width(line) <= usize::from(cols),
                "{cols}: {line:?} is wider than the terminal\n{shown}"
            );
        }
        // A short tool stays on its decision's line where there is room for it.
        assert!(
            cols < 100
                || shown
                    .lines()
                    .any(|l| l.contains("k3v9d2m1a7qf") && l.ends_with("terminal: ls")),
            "{cols}: {shown}"
        );
        // The long command and the message are there whole, word after word.
        let all = words(&shown);
        for text in [command, message] {
            let want = words(text);
            assert!(
                all.windows(want.len()).any(|w| w == want.as_slice())
                    || all
                        .iter()
                        .filter(|w| *w != "tool:")
                        .cloned()
                        .collect::<Vec<_>>()
                        .windows(want.len())
                        .any(|w| w == want.as_slice()),
                "{cols}: {text:?} not whole in\n{shown}"
            );
        }
    }
}

/// `text` without its colour escapes.
fn uncoloured(text: &str) -> String {
    let mut plain = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        rest = rest[at..].find('m').map_or("", |end| &rest[at + end + 1..]);
    }
    plain.push_str(rest);
    plain
}

/// A field of a `/proc/<pid>/` file (`VmHWM` in `status`, `rchar` in `io`), as a number.
fn proc_field(pid: u32, file: &str, field: &str) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/{file}")).ok()?;
    let value = text.lines().find_map(|line| line.strip_prefix(field))?;
    value
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The highest resident set size, in KiB, `child` had reached once it had read `read_at_least`
/// bytes: the kernel's high-water mark (`VmHWM`, so a peak between two readings still counts),
/// taken while it runs. `None` when the OS gives no such number, or the child was done before
/// one was taken that late.
fn peak_rss_kib(
    mut child: std::process::Child,
    read_at_least: u64,
) -> (Option<u64>, std::process::ExitStatus) {
    let pid = child.id();
    let mut peak = None;
    loop {
        let hwm = proc_field(pid, "status", "VmHWM");
        let read = proc_field(pid, "io", "rchar");
        if let (Some(hwm), Some(read)) = (hwm, read)
            && read >= read_at_least
        {
            peak = peak.max(Some(hwm));
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (peak, status);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn log_memory_stays_bounded_whatever_the_log_size() {
    use std::io::Write as _;
    let env = TestEnv::new();
    let path = env.path("audit.jsonl");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let message = "a reason given at some length, as hooks do when they explain a block ".repeat(3);
    let mut size = 0;
    let mut n = 0_u64;
    while size < 24 * 1024 * 1024 {
        let line = format!(
            r#"{{"time":"2026-11-20T10:00:00Z","run_id":"{n:012}","event":"pre_tool_call","session_id":"session-{n}","tool_name":"terminal","tool_command":"git status --short {n}","exit":2,"directive":{{"action":"block","message":"{message}"}},"hooks":[{{"name":"guard","source":"config","command":"/some/where/guard.sh","sha256":"{sha}","status":"blocked","directive":{{"action":"block","message":"{message}"}}}},{{"name":"later","source":"config","command":"later.sh","sha256":null,"status":"not_run","directive":{{}}}}]}}"#,
            sha = "ab".repeat(32)
        );
        writeln!(file, "{line}").unwrap();
        size += line.len() + 1;
        n += 1;
    }
    file.flush().unwrap();
    drop(file);
    // Below the log's own size (holding it whole, let alone its rows, goes over).
    let bound_kib = 20 * 1024;
    for args in [
        &["-n", "0"][..],
        &["-n", "0", "--json", "--all"],
        &["--run", "000000000001"],
    ] {
        let child = env
            .std_cmd()
            .arg("log")
            .args(args)
            .arg("--audit-log")
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (peak, status) = peak_rss_kib(child, size as u64 / 2);
        assert!(status.success(), "{args:?}");
        let Some(peak) = peak else {
            println!(
                "skipped: no peak memory of `log {args:?}` read once half the log was read \
                 (no /proc VmHWM or rchar here)"
            );
            continue;
        };
        println!("log {args:?}: peak RSS {peak} KiB");
        assert!(
            peak < bound_kib,
            "log {args:?} over a {size}-byte log took {peak} KiB at its peak"
        );
    }
}

#[test]
fn a_long_listing_is_titled_once_and_never_splits_a_decision() {
    let env = TestEnv::new();
    let hook = |name: &str| {
        format!(
            r#"{{"name":"{name}","source":"config","command":"{name}.sh","sha256":null,"status":"ok","directive":{{}}}}"#
        )
    };
    let hooks = [hook("h1"), hook("h2"), hook("h3")].join(",");
    let text: String = (0..300)
        .map(|n| {
            format!(
                r#"{{"time":"2026-11-20T10:00:00Z","run_id":"run{n:09}","event":"pre_tool_call","session_id":"s","exit":0,"directive":{{}},"hooks":[{hooks}]}}"#
            ) + "\n"
        })
        .collect();
    fs::write(env.path("audit.jsonl"), text).unwrap();
    let out = log(&env, &["-n", "0"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("TIME (UTC)")).count(),
        1
    );
    let decisions: Vec<usize> = (0..lines.len())
        .filter(|&at| lines[at].starts_with("2026-"))
        .collect();
    assert_eq!(decisions.len(), 300, "each decision once");
    for at in decisions {
        let under: Vec<&str> = lines[at + 1..at + 4]
            .iter()
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(under, ["h1", "h2", "h3"], "{}", lines[at]);
    }

    let out = log(&env, &["-n", "4"]);
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("run000000298")
            && shown.contains("run000000299")
            && !shown.contains("run000000297"),
        "the last 4 rows: {shown}"
    );
}
