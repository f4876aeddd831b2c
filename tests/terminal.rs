//! Tables on a real terminal (a pseudo-terminal of a given width): a name or path is never split,
//! a table that cannot fit becomes records, and a terminal that reports no size is not wrapped.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

use crate::common::{
    TestEnv, command_on_a_sized_terminal, on_a_sized_terminal, on_a_sized_terminal_asked,
};

/// The question `approve` asks.
const PROMPT: &str = "Approve? [y]es [n]o [a]ll [q]uit [v]iew script [d]iff (default: no)";

/// A project hook with a long name and a config hook with a long path, so no table fits in 60
/// columns.
fn long_names(env: &TestEnv) -> String {
    let deep = env.path("a/rather/deep/folder/of/hooks/for/testing");
    std::fs::create_dir_all(&deep).unwrap();
    let script = deep.join("guard-with-a-long-name.sh");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\n").unwrap();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n      matcher: terminal|Shell|Bash|write_file|patch\n",
        script.display()
    ));
    script.display().to_string()
}

#[test]
fn list_never_splits_a_path_and_falls_back_to_records() {
    let env = TestEnv::new();
    let path = long_names(&env);
    let wide = on_a_sized_terminal(&env, &["list", "--color", "never"], 250);
    assert!(wide.starts_with("EVENT "), "a table when it fits: {wide}");
    assert!(wide.contains(&path), "{wide}");

    // Records, the path broken only after a `/` where it is wider than the room for it.
    let narrow = on_a_sized_terminal(&env, &["list", "--color", "never"], 60);
    assert!(narrow.contains("hook:    /"), "{narrow}");
    assert!(narrow.contains("event:   pre_tool_call\n"), "{narrow}");
    assert_fits_with_names_whole(&narrow, 60, &path);

    // A terminal that reports no size is treated as not a terminal: one line per hook.
    let no_size = on_a_sized_terminal(&env, &["list", "--color", "never"], 0);
    assert!(no_size.starts_with("EVENT "), "{no_size}");
    assert!(
        no_size
            .lines()
            .any(|l| l.contains(&path) && l.contains("unapproved")),
        "{no_size}"
    );
}

#[test]
fn events_fits_the_width_without_splitting_names() {
    let env = TestEnv::new();
    let shown = on_a_sized_terminal(&env, &["events"], 100);
    let table: Vec<&str> = shown.lines().take_while(|l| !l.is_empty()).collect();
    assert!(table.len() > 40, "{shown}");
    for line in &table {
        assert!(line.chars().count() <= 100, "{line:?} in\n{shown}");
    }
    // Event names and aliases stay whole, in their columns.
    for name in [
        "on_kanban_worker_stale_claim",
        "post-tool-call-failure",
        "transform_api_error_classification",
    ] {
        assert!(
            table.iter().any(|l| l.contains(name)),
            "{name} whole in\n{shown}"
        );
    }
}

#[test]
fn doctor_wraps_between_words() {
    let env = TestEnv::new();
    let path = long_names(&env);
    let shown = on_a_sized_terminal(&env, &["doctor", "--color", "never"], 60);
    // The path, wider than the width, is broken after a `/`, never inside a name.
    assert_fits_with_names_whole(&shown, 60, &path);
}

/// No line of `shown` is wider than `cols`, and every name of `path` is whole on one line.
fn assert_fits_with_names_whole(shown: &str, cols: usize, path: &str) {
    for line in shown.lines() {
        assert!(line.chars().count() <= cols, "{line:?} in\n{shown}");
    }
    for name in path.split_inclusive('/') {
        assert!(shown.contains(name), "{name:?} split in\n{shown}");
    }
}

#[test]
fn test_wraps_a_message_between_words() {
    let env = TestEnv::new();
    env.script("new.sh", "cat >/dev/null");
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let shown = on_a_sized_terminal(&env, &["test", "on_session_start", "--color", "never"], 60);
    for line in shown.lines() {
        assert!(line.chars().count() <= 60, "{line:?} in\n{shown}");
    }
    // Split between words only: the script's path is whole on one line.
    assert!(
        shown
            .lines()
            .any(|l| l.contains("'~/.hermes/agent-hooks/new.sh';")),
        "{shown}"
    );
}

#[test]
fn test_names_the_hooks_that_did_not_run_between_words() {
    let env = TestEnv::new();
    env.script("a-guard-with-a-rather-long-name.sh", "cat >/dev/null");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/a-guard-with-a-rather-long-name.sh\n",
    );
    let shown = on_a_sized_terminal(&env, &["test", "pre_tool_call", "--color", "never"], 50);
    let said: Vec<&str> = shown
        .lines()
        .skip_while(|l| !l.starts_with("result:"))
        .collect();
    for line in &said {
        assert!(line.chars().count() <= 50, "{line:?} in\n{shown}");
    }
    assert!(
        said.iter()
            .any(|l| l.contains("a-guard-with-a-rather-long-name.sh")),
        "the name whole: {shown}"
    );
    assert!(
        said.iter().any(|l| l.contains("not the hooks' own answer")),
        "{shown}"
    );
}

#[test]
fn text_is_wrapped_by_the_width_it_is_shown_at() {
    let env = TestEnv::new();
    // A block message of ten words, each two letters and two zero-width spaces: nothing wide
    // as written, 18 columns each once the zero-width spaces are shown.
    let word = r"ab\342\200\213\342\200\213";
    let message = [word; 10].join(" ");
    env.script(
        "zw.sh",
        &format!("cat >/dev/null; printf '{{\"decision\":\"block\",\"reason\":\"{message}\"}}'"),
    );
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/zw.sh\n");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/zw.sh");
    let shown = on_a_sized_terminal(&env, &["test", "pre_tool_call", "--color", "never"], 60);
    let shown_word = r"ab\u{200b}\u{200b}";
    assert_eq!(shown.matches(shown_word).count(), 10, "{shown}");
    for line in shown.lines().filter(|l| l.contains(shown_word)) {
        assert!(line.chars().count() <= 60, "{line:?} in\n{shown}");
    }
}

/// A person's hooks under a home like `/home/alice`: two config hooks in
/// `~/.hermes/agent-hooks` (one declared by its absolute path), two HOOK.md folders in a project
/// at `~/src/app` and one in `~/.config/agents/hooks`; two of the five approved.
struct Alice {
    home: PathBuf,
    app: PathBuf,
    /// The config hook declared by its absolute path.
    guard: PathBuf,
}

impl Alice {
    fn new(env: &TestEnv) -> Self {
        let home = env.path("home/alice");
        let hooks = home.join(".hermes/agent-hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        let guard = hooks.join("guard.sh");
        for script in [&guard, &hooks.join("audit-writes.sh")] {
            std::fs::write(script, "#!/bin/sh\ncat >/dev/null\n").unwrap();
            std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::write(
            home.join(".hermes/config.yaml"),
            format!(
                "hooks:\n  pre_tool_call:\n    - command: {}\n      matcher: terminal|execute_code\n    \
                 - command: ~/.hermes/agent-hooks/audit-writes.sh\n      matcher: write_file|patch\n",
                guard.display()
            ),
        )
        .unwrap();
        let app = home.join("src/app");
        std::fs::create_dir_all(app.join(".git")).unwrap();
        let folder = |name: &str, trigger: &str, tool: &str| {
            format!(
                "name: {name}\ndescription: a guard\ntrigger: {trigger}\nmatcher:\n  tool: {tool}\n"
            )
        };
        let project = app.join(".agents/hooks");
        let user = home.join(".config/agents/hooks");
        for (level, name, trigger, tool) in [
            (
                &project,
                "block-rm-rf",
                "pre-tool-call",
                "terminal|execute_code",
            ),
            (&project, "no-secrets", "pre-tool-call", "write_file|patch"),
            (&user, "secrets-scan", "post-tool-call", "write_file|patch"),
        ] {
            let front = folder(name, trigger, tool);
            env.hook_md(level, name, &front, "cat >/dev/null");
        }
        let alice = Self { home, app, guard };
        for hook in ["block-rm-rf", "~/.hermes/agent-hooks/guard.sh"] {
            let out = alice
                .cmd(env, &["approve", "--yes", hook])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        alice
    }

    /// The command with this HOME, in the project.
    fn cmd(&self, env: &TestEnv, args: &[&str]) -> std::process::Command {
        let mut cmd = env.std_cmd();
        cmd.env("HOME", &self.home)
            .current_dir(&self.app)
            .args(args);
        cmd
    }

    /// What `args` print on a terminal `cols` wide.
    fn shown(&self, env: &TestEnv, args: &[&str], cols: u16) -> String {
        command_on_a_sized_terminal(self.cmd(env, args), cols)
    }
}

/// Every word of the table, split at `|`, is one of `whole` (so nothing was split), and no line
/// is wider than `cols`.
fn assert_whole_words(shown: &str, cols: usize, whole: &[&str]) {
    for line in shown.lines() {
        assert!(line.chars().count() <= cols, "{line:?} in\n{shown}");
        let parts = line.split_whitespace().flat_map(|w| w.split('|'));
        for part in parts.filter(|p| !p.is_empty()) {
            assert!(whole.contains(&part), "{part:?} is not whole in\n{shown}");
        }
    }
}

/// What the table of [`Alice`]'s hooks holds, word by word.
const ALICE_WORDS: &[&str] = &[
    "EVENT",
    "SOURCE",
    "HOOK",
    "MATCHER",
    "TIMEOUT",
    "CONSENT",
    "SCRIPT",
    "event:",
    "source:",
    "hook:",
    "matcher:",
    "timeout:",
    "consent:",
    "script:",
    "pre_tool_call",
    "post_tool_call",
    "config",
    "agent-hooks",
    "(project)",
    "(user)",
    "project",
    "user",
    "~/.hermes/agent-hooks/guard.sh",
    "~/.hermes/agent-hooks/audit-writes.sh",
    "block-rm-rf",
    "no-secrets",
    "secrets-scan",
    "terminal",
    "execute_code",
    "write_file",
    "patch",
    "60s",
    "30s",
    "approved",
    "unapproved",
    "ok",
];

/// The table (or records) of `list`, without the lines under it.
fn table_of(shown: &str) -> String {
    let mut table = String::new();
    for line in shown.lines() {
        if line.starts_with("Every hook:") || line.starts_with("Sources:") {
            continue;
        }
        if line.starts_with("Project:") {
            break;
        }
        table.push_str(line);
        table.push('\n');
    }
    table
}

#[test]
fn five_hooks_under_the_home_are_a_table_at_100_columns_with_nothing_split() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    for cols in [100, 120] {
        let shown = alice.shown(&env, &["list", "--color", "never"], cols);
        assert!(shown.starts_with("EVENT "), "a table at {cols}: {shown}");
        assert!(
            !shown.lines().any(|l| l.starts_with("hook:")),
            "no records at {cols}: {shown}"
        );
        assert_whole_words(&table_of(&shown), usize::from(cols), ALICE_WORDS);
        // Each hook on a line of its own, the path whole, as `approve` takes it.
        for hook in [
            "~/.hermes/agent-hooks/guard.sh ",
            "~/.hermes/agent-hooks/audit-writes.sh ",
            "block-rm-rf ",
            "no-secrets ",
            "secrets-scan ",
        ] {
            assert_eq!(shown.matches(hook).count(), 1, "{hook} at {cols}: {shown}");
        }
        assert!(shown.contains("Project: ~/src/app\n"), "{shown}");
    }
    // Where the table truly does not fit, records, still with every word whole.
    let narrow = alice.shown(&env, &["list", "--color", "never"], 80);
    assert!(
        narrow.contains("hook:    ~/.hermes/agent-hooks/guard.sh\n"),
        "{narrow}"
    );
    assert_whole_words(&table_of(&narrow), 80, ALICE_WORDS);
}

#[test]
fn what_every_hook_shares_is_said_once_when_the_table_would_not_fit() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let out = alice.cmd(&env, &["approve", "--yes"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = alice.shown(&env, &["list", "--color", "never"], 100);
    assert!(shown.starts_with("EVENT "), "{shown}");
    assert!(
        shown.contains("Every hook: consent approved, script ok.\n"),
        "{shown}"
    );
    let heading = shown.lines().next().unwrap_or_default();
    assert!(
        !heading.contains("CONSENT") && !heading.contains("SCRIPT"),
        "{shown}"
    );
    // Where everything fits, every column stays.
    let wide = alice.shown(&env, &["list", "--color", "never"], 200);
    assert!(
        wide.lines().next().unwrap_or_default().contains("CONSENT"),
        "{wide}"
    );
    assert!(!wide.contains("Every hook"), "{wide}");
}

#[test]
fn a_path_list_shows_is_one_approve_and_revoke_take() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let shown = alice.shown(&env, &["list", "--color", "never"], 100);
    let word = shown
        .split_whitespace()
        .find(|w| w.ends_with("guard.sh"))
        .unwrap_or_default()
        .to_owned();
    assert_eq!(word, "~/.hermes/agent-hooks/guard.sh", "{shown}");
    let out = alice.cmd(&env, &["revoke", &word]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = alice
        .cmd(&env, &["approve", "--yes", &word])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn json_and_long_keep_whole_paths() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let guard = alice.guard.display().to_string();
    let out = alice.cmd(&env, &["list", "--json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["command"], guard.as_str(), "{doc}");
    assert_eq!(doc["hooks"][0]["script"], guard.as_str(), "{doc}");
    assert_eq!(
        doc["project_root"],
        alice.app.display().to_string().as_str(),
        "{doc}"
    );
    let long = alice.shown(&env, &["list", "--long", "--color", "never"], 100);
    assert!(long.contains(&format!("  {guard}\n")), "{long}");
    let config = alice.home.join(".hermes/config.yaml");
    assert!(
        long.contains(&format!("declared at:  {}:3\n", config.display())),
        "{long}"
    );
}

#[test]
fn doctor_and_the_approve_summary_fit_without_splitting_a_path() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let home = alice.home.display().to_string();
    for cols in [80, 100, 120] {
        let shown = alice.shown(&env, &["doctor", "--no-exec", "--color", "never"], cols);
        for line in shown.lines() {
            assert!(
                line.chars().count() <= usize::from(cols),
                "{line:?} in\n{shown}"
            );
        }
        for path in [
            "~/.hermes/agent-hooks/guard.sh",
            "~/.config/agents/hooks/secrets-scan/scripts/run",
            ".agents/hooks/no-secrets/scripts/run",
            "(~/.hermes/config.yaml:3)",
        ] {
            assert!(shown.contains(path), "{path} whole at {cols}: {shown}");
        }
        assert!(!shown.contains(&home), "{shown}");
    }
    let summary = alice.shown(&env, &["approve", "--yes", "--color", "never"], 80);
    for line in summary.lines() {
        assert!(line.chars().count() <= 80, "{line:?} in\n{summary}");
    }
    for path in [
        "approved  pre_tool_call  ~/.hermes/agent-hooks/audit-writes.sh",
        "~/.config/agents/hooks/secrets-scan/scripts/run",
        "approved  pre_tool_call  .agents/hooks/no-secrets/scripts/run",
    ] {
        assert!(summary.contains(path), "{path} in\n{summary}");
    }
}

#[test]
fn a_path_is_shortened_only_to_what_it_truly_is() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    // A folder named `~` in the project, and a symlink out of it: their short forms would
    // read as the home, and as a file of the project.
    let tilde = alice.app.join("~/.hermes/agent-hooks");
    std::fs::create_dir_all(&tilde).unwrap();
    let elsewhere = env.path("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, alice.app.join("tools")).unwrap();
    let mut yaml = String::from("hooks:\n  on_session_start:\n");
    for script in [
        tilde.join("guard.sh"),
        alice.app.join("tools/lint.sh"),
        alice.app.join("ci/check\u{1b}[8m.sh"),
    ] {
        if let Some(dir) = script.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let command = script.display().to_string().replace('\u{1b}', "\\e");
        yaml.push_str("    - command: \"");
        yaml.push_str(&command);
        yaml.push_str("\"\n");
    }
    std::fs::write(alice.home.join(".hermes/config.yaml"), yaml).unwrap();
    let shown = alice.shown(&env, &["list", "--color", "never"], 250);
    assert!(
        shown.contains(" ~/src/app/~/.hermes/agent-hooks/guard.sh "),
        "{shown}"
    );
    let lint = alice.app.join("tools/lint.sh").display().to_string();
    assert!(shown.contains(&format!(" {lint} ")), "{shown}");
    // Shortened, and still escaped.
    assert!(shown.contains(" ci/check\\e[8m.sh "), "{shown}");
}

#[test]
fn the_hook_under_review_is_shown_without_splitting_a_path() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let home = alice.home.display().to_string();
    for cols in [80, 100] {
        // Config hooks only (the HOOK.md folders belong to the project, not read from here).
        let (shown, out) = on_a_sized_terminal_asked(
            &env,
            &["approve", "--color", "never"],
            &[("HOME", home.as_str())],
            cols,
            &[(PROMPT, b"q\r")],
        );
        assert_eq!(out.status.code(), Some(0), "{shown}");
        let review: Vec<&str> = shown.lines().take_while(|l| !l.contains(PROMPT)).collect();
        for line in &review {
            assert!(
                line.chars().count() <= usize::from(cols),
                "{line:?} in\n{shown}"
            );
        }
        assert!(
            review
                .iter()
                .any(|l| l.ends_with("declared at ~/.hermes/config.yaml:5")),
            "{shown}"
        );
        assert!(
            review
                .iter()
                .any(|l| l.ends_with("script:   ~/.hermes/agent-hooks/audit-writes.sh")),
            "{shown}"
        );
    }
}

/// `text` without its colour sequences.
fn without_colour(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // `ESC [ ... m`
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// The long words of `text` (paths, names, ids): what no width may split.
fn long_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| "(),;:'\"`{}[]".contains(c))
                .to_owned()
        })
        .filter(|w| w.chars().count() >= 12)
        // A time (a sample's timestamp) differs between two calls.
        .filter(|w| !(w.len() > 10 && w.as_bytes()[4] == b'-' && w.as_bytes()[10] == b'T'))
        .collect();
    words.sort();
    words.dedup();
    words
}

#[test]
fn every_human_output_fits_80_and_100_columns_with_nothing_split() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    // A decision in the default log, with a session id as agents make them.
    let session = "5b0e7c1a-93f4-4d2e-8a61-0c3f9b2d7e18";
    let mut run = alice.cmd(&env, &["run", "pre_tool_call"]);
    let mut child = run
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        format!(
            r#"{{"tool_name": "terminal", "tool_input": {{"command": "ls -la"}}, "session_id": "{session}"}}"#
        )
        .as_bytes(),
    )
    .unwrap();
    child.wait().unwrap();
    let outputs: &[&[&str]] = &[
        &["list"],
        &["list", "--long"],
        &["doctor", "--no-exec"],
        &["events"],
        &["events", "pre_tool_call"],
        &["events", "subagent_stop"],
        &["log"],
        &["log", "--all"],
        &["test", "pre_tool_call", "--for-tool", "terminal"],
        &["install", "claude-code", "--project", "--dry-run"],
        &["uninstall", "claude-code", "--project", "--dry-run"],
        &["approve", "--yes", "block-rm-rf"],
    ];
    for args in outputs {
        // Piped, nothing is wrapped: its long words are the ones to find whole on a terminal.
        let piped = alice.cmd(&env, args).output().unwrap();
        let words = long_words(&String::from_utf8_lossy(&piped.stdout));
        for cols in [80, 100] {
            let shown = without_colour(&alice.shown(&env, args, cols));
            // A diff shows the file's own lines as they are (copied, they are the file's text).
            let diff = |line: &str| line.starts_with(['+', '-', '@']);
            for line in shown.lines().filter(|line| !diff(line)) {
                assert!(
                    line.chars().count() <= usize::from(cols),
                    "{args:?} at {cols}: a line is cut or wraps: {line:?}\n{shown}"
                );
            }
            // A long value may break after a `/` or a `|`, never inside a name.
            for word in &words {
                for name in word.split_inclusive(['/', '|']) {
                    assert!(
                        shown.contains(name),
                        "{args:?} at {cols}: {name:?} of {word:?} is split or missing\n{shown}"
                    );
                }
            }
        }
    }
}

#[test]
fn install_and_uninstall_fit_80_and_100_columns_with_nothing_split() {
    let env = TestEnv::new();
    let alice = Alice::new(&env);
    let settings = alice
        .app
        .join(".claude/settings.json")
        .display()
        .to_string();
    for cols in [80, 100] {
        for verb in ["install", "uninstall"] {
            let shown =
                without_colour(&alice.shown(&env, &[verb, "claude-code", "--project"], cols));
            assert!(shown.contains("PostToolUseFailure"), "{verb}: {shown}");
            for line in shown.lines() {
                assert!(
                    line.chars().count() <= usize::from(cols),
                    "{verb} at {cols}: {line:?}\n{shown}"
                );
            }
            for name in settings.split_inclusive('/') {
                assert!(
                    shown.contains(name),
                    "{verb} at {cols}: {name:?} split\n{shown}"
                );
            }
        }
    }
}

/// Every command's `--help` fits: 100 columns when piped (a man page reader, a file), the
/// terminal's width on a terminal, with no word cut.
#[test]
fn every_help_fits_piped_and_on_a_terminal() {
    let env = TestEnv::new();
    let commands: &[&[&str]] = &[
        &["--help"],
        &["run", "--help"],
        &["serve", "--help"],
        &["list", "--help"],
        &["test", "--help"],
        &["approve", "--help"],
        &["revoke", "--help"],
        &["doctor", "--help"],
        &["events", "--help"],
        &["log", "--help"],
        &["new", "--help"],
        &["install", "--help"],
        &["uninstall", "--help"],
        &["setup", "--help"],
        &["completions", "--help"],
    ];
    for args in commands {
        let piped = env.cmd().args(*args).output().unwrap();
        assert!(piped.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&piped.stdout);
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{args:?} piped: {line:?}");
        }
        let shown = without_colour(&crate::common::on_a_sized_terminal(&env, args, 80));
        for line in shown.lines() {
            assert!(line.chars().count() <= 80, "{args:?} at 80: {line:?}");
        }
    }
}
