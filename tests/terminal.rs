//! Tables on a real terminal (a pseudo-terminal of a given width): a name or path is never split,
//! a table that cannot fit becomes records, and a terminal that reports no size is not wrapped.

use crate::common::{TestEnv, on_a_sized_terminal};

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

    let narrow = on_a_sized_terminal(&env, &["list", "--color", "never"], 60);
    assert!(narrow.contains(&format!("hook:    {path}\n")), "{narrow}");
    assert!(narrow.contains("event:   pre_tool_call\n"), "{narrow}");

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
    // Only a line holding the one word longer than the width (the path, whole) is wider.
    for line in shown.lines() {
        assert!(
            line.chars().count() <= 60 || line.contains(&path),
            "{line:?} in\n{shown}"
        );
    }
    assert!(shown.lines().any(|l| l.contains(&path)), "{shown}");
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
