use super::{DEFAULT_TIMEOUT_SECS, parse};
use crate::config::{Event, WarningKind};
use std::path::Path;
use std::time::Duration;

fn load(yaml: &str) -> super::HermesConfig {
    parse(Path::new("config.yaml"), yaml.as_bytes(), None).unwrap()
}

fn warnings(yaml: &str) -> Vec<String> {
    load(yaml)
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn reads_entries_in_file_order() {
    let cfg = load(
        "model: x\nhooks:\n  pre_tool_call:\n    - matcher: ' terminal '\n      command: ~/a.sh --strict\n      timeout: 10\n      fail_closed: true\n    - command: b.sh\n  pre-agent-turn:\n    - command: /opt/c.sh\n",
    );
    let kinds: Vec<_> = cfg
        .warnings
        .iter()
        .map(|w| (w.kind, w.origin.line))
        .collect();
    assert_eq!(kinds, [(WarningKind::NotForHermes, Some(9))]);
    let names: Vec<_> = cfg
        .hooks
        .iter()
        .map(|h| (h.event.name(), h.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("pre_tool_call", "a.sh"),
            ("pre_tool_call", "b.sh"),
            ("pre_llm_call", "c.sh")
        ]
    );
    let first = &cfg.hooks[0];
    assert_eq!(first.matcher.as_ref().unwrap().source(), "terminal");
    assert_eq!(first.timeout, Duration::from_secs(10));
    assert!(first.fail_closed);
    assert_eq!(first.origin.line, Some(4));
    assert_eq!(
        cfg.hooks[1].timeout,
        Duration::from_secs(DEFAULT_TIMEOUT_SECS)
    );
}

#[test]
fn skipped_entries_name_file_and_line() {
    let w = warnings(
        "hooks:\n  pre_tool_call:\n    - just a string\n    - matcher: x\n    - command: '  '\n",
    );
    assert_eq!(
        w,
        [
            "config.yaml:3: hooks.pre_tool_call[0] must be a mapping with a 'command' key; got str (skipped)",
            "config.yaml:4: hooks.pre_tool_call[1] is missing a non-empty 'command' field (skipped)",
            "config.yaml:5: hooks.pre_tool_call[2] is missing a non-empty 'command' field (skipped)",
        ]
    );
}

#[test]
fn an_unknown_event_key_names_the_hooks_that_never_run() {
    let cfg = load(
        "hooks:\n  pre_tools_call:\n    - command: a.sh\n    - command: ' b.sh '\n    - 42\n  on_session_stop: []\n  7:\n    - command: c.sh\n",
    );
    assert!(cfg.hooks.is_empty());
    let w: Vec<_> = cfg
        .warnings
        .iter()
        .map(|w| (w.kind, w.to_string()))
        .collect();
    assert_eq!(
        w,
        [
            (
                WarningKind::UnknownEvent,
                "config.yaml:2: unknown event 'pre_tools_call' (did you mean 'pre_tool_call'?) in hooks:; its hooks never run, here or in Hermes: `a.sh` (line 3), `b.sh` (line 4)".to_owned()
            ),
            (
                WarningKind::UnknownEvent,
                "config.yaml:6: unknown event 'on_session_stop' (did you mean 'on_session_start'?) in hooks: (skipped)".to_owned()
            ),
            (
                WarningKind::UnknownEvent,
                "config.yaml:7: unknown hook event 7 in hooks:; its hooks never run, here or in Hermes: `c.sh` (line 8)".to_owned()
            ),
        ]
    );
}

#[test]
fn under_hooks_a_suggestion_is_always_a_hermes_name() {
    // Hermes fires only canonical names under `hooks:`: a name close to another spelling
    // (Claude Code's `SessionStart`, the alias `pre-tool-call`) suggests the Hermes name.
    for (typo, hermes) in [
        ("session_start", "on_session_start"),
        ("SessionStrat", "on_session_start"),
        ("pre-tool-cal", "pre_tool_call"),
        ("PreToolUs", "pre_tool_call"),
        ("before_tools", "pre_tool_call"),
    ] {
        let w = warnings(&format!("hooks:\n  {typo}:\n    - command: a.sh\n"));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains(&format!("(did you mean '{hermes}'?)")),
            "{typo}: {}",
            w[0]
        );
    }
}

#[test]
fn timeouts_follow_hermes() {
    let cfg = load(
        "hooks:\n  on_session_start:\n    - {command: a, timeout: 9999}\n    - {command: b, timeout: thirty}\n    - {command: c, timeout: 0}\n    - {command: d, timeout: '30'}\n    - {command: e, timeout: 2.5}\n",
    );
    let secs: Vec<_> = cfg.hooks.iter().map(|h| h.timeout.as_secs()).collect();
    assert_eq!(secs, [300, 60, 60, 30, 2]);
    assert_eq!(cfg.warnings.len(), 3);
}

#[test]
fn matcher_rules() {
    let cfg = load(
        "hooks:\n  pre_llm_call:\n    - {command: a, matcher: terminal}\n  pre_tool_call:\n    - {command: b, matcher: 'foo[bar'}\n    - {command: c, matcher: 5}\n    - {command: d, matcher: '   '}\n",
    );
    assert!(cfg.hooks[0].matcher.is_none());
    assert!(cfg.hooks[1].matcher.as_ref().unwrap().is_literal());
    assert!(cfg.hooks[2].matcher.is_none());
    assert!(cfg.hooks[3].matcher.is_none());
    assert_eq!(cfg.warnings.len(), 3, "{:?}", cfg.warnings);
    assert!(cfg.warnings[0].message.contains("is ignored"));
}

#[test]
fn fail_closed_rules() {
    let cfg = load(
        "hooks:\n  pre_tool_call:\n    - {command: a, failClosed: true}\n    - {command: b, fail_closed: false, failClosed: true}\n    - {command: c, fail_closed: 'yes'}\n  on_session_start:\n    - {command: d, fail_closed: true}\n",
    );
    let fc: Vec<_> = cfg.hooks.iter().map(|h| h.fail_closed).collect();
    assert_eq!(fc, [true, false, false, false]);
    assert_eq!(cfg.warnings.len(), 2);
}

#[test]
fn reserved_and_plugin_only_keys() {
    let cfg = load(
        "hooks:\n  output_spill: {max: 1}\n  outbound: [1]\n  transform_api_error_classification:\n    - command: a\n",
    );
    assert!(cfg.hooks.is_empty());
    assert_eq!(cfg.warnings.len(), 1);
    assert!(cfg.warnings[0].message.contains("Python-plugin-only"));
}

#[test]
fn values_that_are_not_lists_warn() {
    let w = warnings("hooks:\n  pre_tool_call: a.sh\n  post_tool_call:\n");
    assert_eq!(
        w,
        [
            "config.yaml:2: hooks.pre_tool_call must be a list of hook definitions; got str (skipped)"
        ]
    );
}

#[test]
fn errors_name_file_line_and_column() {
    let err = parse(Path::new("c.yaml"), b"hooks: [1, 2]\n", None).unwrap_err();
    assert!(err.to_string().starts_with("c.yaml:1:8: "), "{err}");
    let err = parse(Path::new("c.yaml"), b"a: b\n  c: d: e\n", None).unwrap_err();
    assert!(err.to_string().starts_with("c.yaml:2:4: "), "{err}");
    let err = parse(Path::new("c.yaml"), b"a: 1\nb: \xff\n", None).unwrap_err();
    assert_eq!(err.to_string(), "c.yaml:2: not valid UTF-8");
}

#[test]
fn an_error_anywhere_in_the_file_stops_every_command() {
    let event = Event::parse("pre_tool_call").unwrap().event;
    let text = b"providers:\n  a: : :\nhooks:\n  pre_tool_call:\n    - command: a.sh\n";
    assert!(parse(Path::new("c.yaml"), text, Some(event)).is_err());
    assert!(parse(Path::new("c.yaml"), text, None).is_err());
}

#[test]
fn empty_and_null_declare_nothing() {
    for yaml in ["", "hooks:\n", "model: x\n", "\u{feff}hooks: ~\n"] {
        let cfg = load(yaml);
        assert!(cfg.hooks.is_empty() && cfg.warnings.is_empty(), "{yaml:?}");
    }
}

#[test]
fn auto_accept_spellings() {
    assert!(load("hooks_auto_accept: true\n").auto_accept);
    assert!(load("hooks_auto_accept: '  TRUE  '\n").auto_accept);
    assert!(!load("hooks_auto_accept: 1\n").auto_accept);
    assert!(!load("hooks_auto_accept: 'no'\n").auto_accept);
}

#[test]
fn only_builds_the_requested_event() {
    let event = Event::parse("pre_llm_call").unwrap().event;
    let cfg = parse(
        Path::new("c.yaml"),
        b"hooks:\n  pre_tool_call:\n    - 42\n  pre_llm_call:\n    - command: a\n  typo_event: []\n",
        Some(event),
    )
    .unwrap();
    assert_eq!(cfg.hooks.len(), 1);
    assert_eq!(
        cfg.warnings.len(),
        1,
        "only the unknown key warns: {:?}",
        cfg.warnings
    );
}

#[test]
fn a_repeated_key_never_rejects_the_file_and_the_last_one_counts() {
    // A repeated `model:` is Hermes's business; a repeated event key keeps its first place and
    // takes its last list, as PyYAML's dict does, with a warning naming both lines.
    let cfg = load(
        "model: a\nmodel: b\nhooks:\n  pre_tool_call:\n    - command: first.sh\n  on_session_start:\n    - command: s.sh\n  pre_tool_call:\n    - command: second.sh\n      command: third.sh\n",
    );
    let hooks: Vec<_> = cfg.hooks.iter().map(|h| h.command.as_str()).collect();
    assert_eq!(hooks, ["third.sh", "s.sh"]);
    let w: Vec<_> = cfg.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        [
            "config.yaml:8: hooks.pre_tool_call is written twice (lines 4 and 8): Hermes keeps only the last, so the hooks of the first one never run: `first.sh` (line 5); merge the two lists into one",
            "config.yaml:10: hooks.pre_tool_call[0].command is written twice (lines 9 and 10): Hermes keeps only the last, so the hooks of the first one never run: `second.sh` (line 9); keep one command",
        ]
    );
    let kinds: Vec<_> = cfg.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [WarningKind::DroppedHooks, WarningKind::DroppedHooks]
    );
    // Another key of an entry written twice drops no hook.
    let cfg =
        load("hooks:\n  pre_tool_call:\n    - command: a.sh\n      timeout: 5\n      timeout: 9\n");
    let kinds: Vec<_> = cfg.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::RepeatedKey]);
    assert_eq!(cfg.hooks[0].timeout.as_secs(), 9);
}

#[test]
fn a_second_hooks_block_names_every_hook_of_the_first_it_drops() {
    // What `new --config >> config.yaml` makes of a file that already has hooks.
    let cfg = load(
        "hooks:\n  pre_tool_call:\n    - command: guard.sh\n      matcher: terminal\n  output_spill: {command: not-a-hook}\n  on_session_start:\n    - command: log.sh\n    - 42\nmodel: x\nhooks:\n  post_tool_call:\n    - command: new.sh\n",
    );
    let hooks: Vec<_> = cfg.hooks.iter().map(|h| h.command.as_str()).collect();
    assert_eq!(hooks, ["new.sh"], "read as Hermes reads it: the last block");
    let w: Vec<_> = cfg
        .warnings
        .iter()
        .map(|w| (w.kind, w.to_string()))
        .collect();
    assert_eq!(
        w,
        [(
            WarningKind::DroppedHooks,
            "config.yaml:10: hooks is written twice (lines 1 and 10): Hermes keeps only the last, so the hooks of the first one never run: pre_tool_call `guard.sh` (line 3), on_session_start `log.sh` (line 7); merge the two blocks into one".to_owned()
        )]
    );
    // A first block with no hooks drops none: a plain repeated key.
    let cfg = load("hooks:\nhooks:\n  pre_tool_call:\n    - command: a.sh\n");
    let kinds: Vec<_> = cfg.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::RepeatedKey]);
}

#[test]
fn yaml_1_1_values_are_read_as_pyyaml_reads_them() {
    let cfg = load(
        "hooks_auto_accept: on\nhooks:\n  pre_tool_call:\n    - {command: a, fail_closed: yes, timeout: 010}\n    - {command: b, timeout: 1e3}\n    - {command: c, timeout: '1_0'}\n    - {command: d, timeout: 1:30}\n    - {command: e, fail_closed: y}\n",
    );
    assert!(cfg.auto_accept);
    let got: Vec<_> = cfg
        .hooks
        .iter()
        .map(|h| (h.command.as_str(), h.timeout.as_secs(), h.fail_closed))
        .collect();
    assert_eq!(
        got,
        [
            ("a", 8, true),
            ("b", DEFAULT_TIMEOUT_SECS, false),
            ("c", 10, false),
            ("d", 90, false),
            ("e", DEFAULT_TIMEOUT_SECS, false),
        ]
    );
    let w: Vec<_> = cfg.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        w,
        [
            "hooks.pre_tool_call[1].timeout must be an integer (got '1e3'); using 60s",
            "hooks.pre_tool_call[4].fail_closed must be a boolean (got 'y'); failing open",
        ]
    );
    assert!(!load("hooks_auto_accept: off\n").auto_accept);
    assert!(!load("hooks_auto_accept: 'no'\n").auto_accept);
}

#[test]
fn identical_entries_are_one_hook() {
    let cfg = load(
        "hooks:\n  pre_tool_call:\n    - {command: g.sh, matcher: terminal, timeout: 5}\n    - {command: ' g.sh ', matcher: ' terminal', timeout: 9}\n    - {command: g.sh}\n  pre-tool-call:\n    - {command: g.sh}\n  on_session_start:\n    - {command: s.sh, matcher: x}\n    - {command: s.sh}\n",
    );
    let got: Vec<_> = cfg
        .hooks
        .iter()
        .map(|h| (h.event.name(), h.command.as_str(), h.timeout.as_secs()))
        .collect();
    assert_eq!(
        got,
        [
            ("pre_tool_call", "g.sh", 5),
            ("pre_tool_call", "g.sh", 60),
            ("on_session_start", "s.sh", 60),
        ]
    );
    let dups: Vec<_> = cfg
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::DuplicateEntry)
        .map(|w| (w.origin.line, w.message.as_str()))
        .collect();
    assert_eq!(dups.len(), 3, "{dups:?}");
    assert_eq!(dups[0].0, Some(4));
    assert!(
        dups[0].1.starts_with("the same hook as config.yaml:3 "),
        "{}",
        dups[0].1
    );
}

#[test]
fn names_hermes_ignores_run_with_a_warning() {
    let cfg = load(
        "hooks:\n  pre-tool-call:\n    - command: a.sh\n  before_tool:\n    - command: b.sh\n  pre-context-compact:\n    - command: c.sh\n",
    );
    assert_eq!(cfg.hooks.len(), 3);
    let w: Vec<_> = cfg.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        [
            "config.yaml:2: 'pre-tool-call' is not a Hermes event name: Hermes ignores these hooks, this tool runs them; write 'pre_tool_call' so both do",
            "config.yaml:4: 'before_tool' (a legacy name for 'pre-tool-call') is not a Hermes event name: Hermes ignores these hooks, this tool runs them; write 'pre_tool_call' so both do",
            "config.yaml:6: 'pre-context-compact' is an Agent Hooks event Hermes never fires: only `run pre-context-compact` runs these hooks",
        ]
    );
}

#[test]
fn variables_are_expanded_and_unset_ones_kept() {
    let path = crate::ground::env::var_os("PATH")
        .unwrap()
        .into_string()
        .unwrap();
    let cfg = load(
        "hooks:\n  pre_tool_call:\n    - command: '${PATH}/g.sh ${HERMES_HOOKS_UNSET_IN_TESTS}'\n      matcher: '${HERMES_HOOKS_UNSET_IN_TESTS}|x'\n",
    );
    assert_eq!(
        cfg.hooks[0].command,
        format!("{path}/g.sh ${{HERMES_HOOKS_UNSET_IN_TESTS}}")
    );
    assert_eq!(
        cfg.hooks[0].matcher.as_ref().unwrap().source(),
        "${HERMES_HOOKS_UNSET_IN_TESTS}|x"
    );
    let unset: Vec<_> = cfg
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::UnsetVariable)
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        unset,
        [
            "hooks.pre_tool_call[0].command: ${HERMES_HOOKS_UNSET_IN_TESTS} is not set (in the environment or .env); kept as written",
            "hooks.pre_tool_call[0].matcher: ${HERMES_HOOKS_UNSET_IN_TESTS} is not set (in the environment or .env); kept as written",
        ]
    );
}

#[test]
fn the_managed_config_wins_per_event() {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("config.yaml");
    let managed = dir.path().join("managed.yaml");
    std::fs::write(
        &user,
        "hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: mine.sh\n  on_session_start:\n    - command: start.sh\n",
    )
    .unwrap();
    std::fs::write(
        &managed,
        "hooks_auto_accept: false\nhooks:\n  pre_tool_call:\n    - command: audit.sh\n  subagent_stop:\n    - command: sub.sh\n",
    )
    .unwrap();
    let files = super::Files {
        config: &user,
        managed: Some(&managed),
        dotenv: None,
    };
    let cfg = super::load(files, None);
    assert!(cfg.errors.is_empty(), "{:?}", cfg.errors);
    let got: Vec<_> = cfg
        .hooks
        .iter()
        .map(|h| (h.command.as_str(), *h.origin.file == *managed))
        .collect();
    assert_eq!(
        got,
        [("audit.sh", true), ("start.sh", false), ("sub.sh", true)]
    );
    assert!(!cfg.auto_accept, "the managed value wins");
    let w: Vec<_> = cfg.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(&format!(
            "{}:3: hooks.pre_tool_call is replaced by the managed config's ({}:3)",
            user.display(),
            managed.display()
        )),
        "{}",
        w[0]
    );
}

#[test]
fn the_dotenv_file_supplies_variables() {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("config.yaml");
    let dotenv = dir.path().join(".env");
    std::fs::write(
        &user,
        "hooks:\n  pre_tool_call:\n    - command: ${HERMES_HOOKS_TEST_GUARD_DIR}/g.sh\n",
    )
    .unwrap();
    std::fs::write(&dotenv, "HERMES_HOOKS_TEST_GUARD_DIR=/opt/guards\n").unwrap();
    let files = super::Files {
        config: &user,
        managed: None,
        dotenv: Some(&dotenv),
    };
    let cfg = super::load(files, None);
    assert!(cfg.errors.is_empty(), "{:?}", cfg.errors);
    assert_eq!(cfg.hooks[0].command, "/opt/guards/g.sh");
    assert!(cfg.warnings.is_empty(), "{:?}", cfg.warnings);
}
