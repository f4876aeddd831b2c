//! `list`: every hook grouped by event in run order, with consent and script state; `--json`;
//! no colour off a terminal.

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, json, redacted, stderr};

fn setup(env: &TestEnv) {
    env.script("ok.sh", "cat >/dev/null; printf '{}'");
    let edited = env.script("edited.sh", "printf '{}'");
    std::fs::write(env.hermes_home().join("agent-hooks/plain.sh"), "echo").unwrap();
    env.config(
        "hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/ok.sh start\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/ok.sh\n      timeout: 5\n    - command: ~/.hermes/agent-hooks/edited.sh\n    - command: ~/.hermes/agent-hooks/plain.sh\n    - command: ~/.hermes/agent-hooks/gone.sh\n  pre_tools_call: []\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/ok.sh");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/edited.sh");
    std::fs::write(&edited, "#!/bin/sh\necho edited\n").unwrap();
    env.hermes_approval(
        "on_session_start",
        "~/.hermes/agent-hooks/ok.sh start",
        None,
    );
}

#[test]
fn table_groups_by_event_in_run_order() {
    let env = TestEnv::new();
    setup(&env);
    let out = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&out), 0);
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
EVENT             SOURCE  HOOK                               MATCHER   TIMEOUT  CONSENT     SCRIPT
pre_tool_call     config  ~/.hermes/agent-hooks/ok.sh        terminal  5s       approved    ok
pre_tool_call     config  ~/.hermes/agent-hooks/edited.sh    -         60s      changed     ok
pre_tool_call     config  ~/.hermes/agent-hooks/plain.sh     -         60s      unapproved  not executable
pre_tool_call     config  ~/.hermes/agent-hooks/gone.sh      -         60s      unapproved  missing
on_session_start  config  ~/.hermes/agent-hooks/ok.sh start  -         60s      unpinned    ok

Project: none (no .agents/hooks from here up to the repository root)

"#]]
    );
    assert!(
        stderr(&out).contains("unknown event 'pre_tools_call'"),
        "{}",
        stderr(&out)
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains('\u{1b}'),
        "no ANSI codes off a terminal"
    );
}

#[test]
fn color_always_and_no_color() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["ls", "--color", "always"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\u{1b}["));
    let out = env
        .cmd()
        .args(["ls", "--color", "auto"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
}

#[test]
fn json_and_event_filter() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["list", "--json", "--event", "pre-tool-call"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hooks = doc["hooks"].as_array().unwrap();
    let states: Vec<(&str, &str)> = hooks
        .iter()
        .map(|h| {
            (
                h["consent"].as_str().unwrap(),
                h["script_state"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("approved", "ok"),
            ("changed", "ok"),
            ("unapproved", "not executable"),
            ("unapproved", "missing")
        ]
    );
    assert_eq!(hooks[0]["matcher"], "terminal");
    assert_eq!(hooks[0]["timeout_ms"], 5000);
    assert!(
        hooks[0]["declared_at"]
            .as_str()
            .unwrap()
            .ends_with("config.yaml:5")
    );
    assert_eq!(doc["warnings"][0]["kind"], "unknown_event");

    let out = env
        .cmd()
        .args(["list", "--event", "nope"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("unknown event 'nope'"));
}

#[test]
fn empty_config_and_bad_input() {
    let env = TestEnv::new();
    let out = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&out), 0);
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
No hooks in [ROOT]/home/.hermes/config.yaml.
Project: none (no .agents/hooks from here up to the repository root)

"#]]
    );

    env.config("hooks: [");
    let out = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&out), 1);
    // The end of the file, which PyYAML's C loader (as Hermes) puts on a line of its own.
    assert!(
        stderr(&out).contains("config.yaml:2:1:"),
        "{}",
        stderr(&out)
    );
    // It says the file did not parse, never that it holds no hooks.
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("No hooks shown: ")
            && String::from_utf8_lossy(&out.stdout).contains("config.yaml did not parse"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // An indentation mistake: PyYAML's words and position, then what they mean.
    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n   matcher: x\n");
    let out = env.cmd().arg("list").output().unwrap();
    assert!(
        stderr(&out).contains(
            "config.yaml:4:4: while parsing a block mapping (from line 2, column 3): expected \
             <block end>, but found '<block mapping start>'; that is, line 4 starts at column 4, \
             where no mapping above it has its keys"
        ),
        "{}",
        stderr(&out)
    );

    env.config("hooks:\n  pre_tool_call:\n    - command: x.sh\n");
    std::fs::write(env.allowlist_path(), "not json").unwrap();
    let out = env.cmd().arg("list").output().unwrap();
    assert_eq!(
        code(&out),
        0,
        "a read-only view survives a corrupt allowlist"
    );
    assert!(
        stderr(&out).contains("not a valid allowlist"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn long_shows_a_record_per_hook_with_what_run_would_do() {
    let env = TestEnv::new();
    let guard = env.script("guard.sh", "cat >/dev/null\necho '{}'");
    env.script("new.sh", "cat >/dev/null");
    env.config(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n    - command: ~/.hermes/agent-hooks/new.sh\n",
    );
    // Approved through `approve`, so the approved bytes are kept and the edit shows as a diff.
    let out = env
        .cmd()
        .args(["approve", "--yes", "~/.hermes/agent-hooks/guard.sh"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    std::fs::write(
        &guard,
        "#!/bin/sh\ncat >/dev/null\necho '{\"decision\": \"block\"}'\n",
    )
    .unwrap();
    let out = env.cmd().args(["list", "--long"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
pre_tool_call  config  ~/.hermes/agent-hooks/guard.sh
  declared at:  [ROOT]/home/.hermes/config.yaml:3
  matcher:      terminal
  timeout:      60s
  script:       [ROOT]/home/.hermes/agent-hooks/guard.sh (ok)
  consent:      changed
  approved at:  [..]Z
  sha256:       [..]
  approved as:  [..]
  run would:    refuse it: changed since approval
  changes since it was approved:
    --- approved
    +++ now
    @@ -1,3 +1,3 @@
     #!/bin/sh
     cat >/dev/null
    -echo '{}'
    +echo '{"decision": "block"}'

pre_tool_call  config  ~/.hermes/agent-hooks/new.sh
  declared at:  [ROOT]/home/.hermes/config.yaml:5
  matcher:      -
  timeout:      60s
  script:       [ROOT]/home/.hermes/agent-hooks/new.sh (ok)
  consent:      unapproved
  sha256:       [..]
  run would:    skip it: not approved

Project: none (no .agents/hooks from here up to the repository root)

"#]]
    );
}

#[test]
fn long_names_the_project_hook_that_overrides_a_user_hook() {
    let env = TestEnv::new();
    std::fs::create_dir(env.work().join(".git")).unwrap();
    let front = "name: guard\ndescription: d\ntrigger: pre-tool-call\n";
    env.hook_md(&env.user_hooks(), "guard", front, "exit 0");
    env.hook_md(&env.project_hooks(), "guard", front, "exit 0");
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = env
        .cmd()
        .args(["list", "--long", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["hooks"].as_array().unwrap();
    let would: Vec<&str> = rows
        .iter()
        .map(|r| r["run_would"].as_str().unwrap())
        .collect();
    assert_eq!(would.len(), 2, "{doc}");
    assert!(would[0].starts_with("skip it: overridden by"), "{would:?}");
    assert_eq!(would[1], "run it");
    let out = env.cmd().args(["list", "--long"]).output().unwrap();
    let text = redacted(&env, &out.stdout);
    assert!(
        text.contains("  declared at:  [ROOT]/home/.config/agents/hooks/guard/HOOK.md:1"),
        "{text}"
    );
    assert!(
        text.contains("  run would:    skip it: overridden by"),
        "{text}"
    );
}

#[test]
fn a_plugin_is_one_row_for_people_and_one_entry_per_event_in_json() {
    let env = TestEnv::new();
    let out = env.cmd().args(["install", "hermes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plugin_rows = |args: &[&str]| -> Vec<String> {
        let out = env.cmd().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|line| line.contains(" plugin "))
            .map(str::to_owned)
            .collect()
    };
    let rows = plugin_rows(&["list"]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].contains(" events "), "{rows:?}");
    let rows = plugin_rows(&["list", "--event", "pre_tool_call"]);
    assert!(
        rows.len() == 1 && rows[0].starts_with("pre_tool_call"),
        "{rows:?}"
    );
    let out = env.cmd().args(["list", "--long"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("events:       pre_tool_call, "),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let entries = json(&out)["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|hook| hook["source"] == "plugin")
        .count();
    assert!(entries > 1, "one entry per event in JSON");
}
