//! Long human output on a terminal goes through `$PAGER` (`less` with `LESS=FRX` by default):
//! `events`, `list`, `doctor`, `log`, only when taller than the terminal, never with
//! `--no-pager`, `--json`, `PAGER=cat` or a stdout that is not a terminal.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::common::{TestEnv, on_a_terminal_sized};

/// A terminal the size people often have.
const SIZE: (u16, u16) = (80, 24);

/// A pager that keeps what it was given (`<script>.text`) and the `LESS` it saw
/// (`<script>.env`), and says on the terminal that it ran.
fn fake_pager(env: &TestEnv) -> PathBuf {
    env.script(
        "pager.sh",
        "printf '%s\\n' \"LESS=${LESS-unset}\" > \"$0.env\"\ncat > \"$0.text\"\necho PAGED",
    )
}

/// What the pager was given, if it ran.
fn paged(pager: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(pager.with_extension("sh.text")).ok();
    let _ = std::fs::remove_file(pager.with_extension("sh.text"));
    text
}

/// Ten approved hooks, so that `list --long` and `doctor` are taller than the terminal.
fn ten_hooks(env: &TestEnv) {
    let mut yaml = String::from("hooks:\n  pre_tool_call:\n");
    for i in 0..10 {
        let hook = env.script(&format!("guard{i}.sh"), "cat >/dev/null; printf '{}'");
        writeln!(yaml, "    - command: {}\n      timeout: 10", hook.display()).unwrap();
        env.approve("pre_tool_call", &hook.display().to_string());
    }
    env.config(&yaml);
}

/// `text` with the time of a sample payload left out.
fn untimed(text: &str) -> String {
    let key = "\"timestamp\": \"";
    match text.find(key) {
        Some(at) => {
            let rest = &text[at + key.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            format!("{}{key}{}", &text[..at], &rest[end..])
        }
        None => text.to_owned(),
    }
}

#[test]
fn long_output_on_a_terminal_goes_through_the_pager_whole() {
    let env = TestEnv::new();
    ten_hooks(&env);
    let pager = fake_pager(&env);
    let via = pager.display().to_string();
    let log = audit_log(&env, 30);
    for args in [
        &["events"][..],
        &["events", "pre_tool_call"],
        &["list", "--long"],
        &["doctor", "--no-exec"],
        &["log", "-n", "0"],
    ] {
        let shown = on_a_terminal_sized(
            &env,
            args,
            SIZE,
            &[
                ("PAGER", &via),
                ("LESS", ""),
                ("HERMES_HOOKS_AUDIT_LOG", &log),
            ],
        );
        assert!(shown.contains("PAGED"), "{args:?}: {shown}");
        let text = paged(&pager).unwrap_or_default();
        let mut plain = args.to_vec();
        plain.push("--no-pager");
        let direct = on_a_terminal_sized(
            &env,
            &plain,
            SIZE,
            &[("PAGER", &via), ("HERMES_HOOKS_AUDIT_LOG", &log)],
        );
        assert!(!direct.contains("PAGED"), "{plain:?}: {direct}");
        assert!(paged(&pager).is_none(), "{plain:?} paged");
        assert_eq!(
            untimed(&text),
            untimed(&direct),
            "{args:?}: the pager gets what the terminal would"
        );
    }
}

/// An audit log of `runs` decisions, written by `run`; its path.
fn audit_log(env: &TestEnv, runs: usize) -> String {
    let log = env.path("audit.jsonl").display().to_string();
    for _ in 0..runs {
        let out = env
            .cmd()
            .args(["run", "pre_tool_call", "--audit-log", &log])
            .write_stdin(r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#)
            .output()
            .unwrap();
        assert!(out.status.code().is_some_and(|c| c == 0), "{out:?}");
    }
    log
}

#[test]
fn the_default_pager_quits_when_the_text_fits_and_keeps_colour() {
    let env = TestEnv::new();
    let pager = fake_pager(&env);
    let via = pager.display().to_string();
    on_a_terminal_sized(&env, &["events"], SIZE, &[("PAGER", &via)]);
    let seen = std::fs::read_to_string(pager.with_extension("sh.env")).unwrap();
    assert_eq!(seen.trim(), "LESS=FRX");
    // A LESS of one's own is kept.
    on_a_terminal_sized(&env, &["events"], SIZE, &[("PAGER", &via), ("LESS", "-S")]);
    let seen = std::fs::read_to_string(pager.with_extension("sh.env")).unwrap();
    assert_eq!(seen.trim(), "LESS=-S");
}

#[test]
fn short_output_json_and_pipes_never_page() {
    let env = TestEnv::new();
    let pager = fake_pager(&env);
    let via = pager.display().to_string();
    let hook = env.script("guard.sh", "cat >/dev/null");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n      timeout: 10\n",
        hook.display()
    ));
    // Fits on the terminal.
    let shown = on_a_terminal_sized(&env, &["list"], SIZE, &[("PAGER", &via)]);
    assert!(
        !shown.contains("PAGED") && shown.contains("guard.sh"),
        "{shown}"
    );
    // Data is never paged.
    let shown = on_a_terminal_sized(&env, &["events", "--json"], SIZE, &[("PAGER", &via)]);
    assert!(
        !shown.contains("PAGED") && shown.starts_with('{'),
        "{shown}"
    );
    // `cat` asks for no pager.
    let shown = on_a_terminal_sized(&env, &["events"], SIZE, &[("PAGER", "cat")]);
    assert!(shown.contains("pre_tool_call"), "{shown}");
    // A pipe is not a terminal.
    let out = env
        .std_cmd()
        .arg("events")
        .env("PAGER", &via)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("PAGED"));
    assert!(paged(&pager).is_none(), "something was paged");
}
