//! `new`: a scaffolded hook passes `doctor --strict` and `test --expect none` as it is, for every
//! event where a hook can do something, in both languages and both sources; it never overwrites;
//! its human and JSON output.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::process::Command;

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{OTHER_UID, TestEnv, code, give_away_all, redacted, stderr};

fn python3() -> bool {
    Command::new("python3")
        .args(["-c", "import json, sys"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The events where a hook of either source can change something, by the name `new` is given,
/// with whether a `config` hook can be declared there.
fn events_with_an_effect(env: &TestEnv) -> Vec<(String, bool)> {
    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut events = Vec::new();
    for row in doc["events"].as_array().unwrap() {
        let can = |key: &str| !row[key].as_array().unwrap().is_empty();
        if !can("config") && !can("agent_hooks") {
            continue;
        }
        let hermes = row["canonical"].is_string()
            && !row["plugin_only"].as_bool().unwrap()
            && !row["plugin_fired"].as_bool().unwrap();
        let name = row["canonical"]
            .as_str()
            .or_else(|| row["aliases"][0].as_str())
            .unwrap();
        events.push((name.to_owned(), hermes));
    }
    events.push(("post-tool-call-failure".to_owned(), false));
    events
}

fn new(env: &TestEnv, args: &[&str]) -> Value {
    let out = env
        .cmd()
        .arg("new")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "new {args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_scaffold_passes_doctor_and_test_as_it_is() {
    let env = TestEnv::new();
    fs::create_dir(env.work().join(".git")).unwrap();
    let mut langs = vec!["sh"];
    if python3() {
        langs.push("python");
    } else {
        eprintln!("python3 is not installed: only the sh scaffolds are checked");
    }
    let events = events_with_an_effect(&env);
    assert!(events.len() >= 12, "{events:?}");
    // Config entries grouped by event key, as they are pasted into one hooks: block.
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    for (index, (event, hermes)) in events.iter().enumerate() {
        for lang in &langs {
            let name = format!("e{index}-{lang}");
            let mut args = vec![name.as_str(), "--event", event, "--lang", lang];
            if event.contains("tool") {
                args.extend(["--matcher", "terminal"]);
            }
            let made = new(&env, &args);
            assert_eq!(made["scope"], "project");
            for file in made["files"].as_array().unwrap() {
                assert!(fs::metadata(file.as_str().unwrap()).is_ok(), "{file}");
            }
            let run = env.work().join(format!(".agents/hooks/{name}/scripts/run"));
            assert_ne!(fs::metadata(&run).unwrap().permissions().mode() & 0o111, 0);
            if !hermes {
                continue;
            }
            let mut config_args = args.clone();
            let config_name = format!("c{index}-{lang}");
            config_args[0] = &config_name;
            config_args.push("--config");
            let made = new(&env, &config_args);
            let entry = made["entry"].as_str().unwrap();
            let mut lines = entry.lines().skip(1);
            let key = lines.next().unwrap().to_owned();
            let items: Vec<String> = lines.map(str::to_owned).collect();
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.extend(items),
                None => entries.push((key, items)),
            }
        }
    }
    let mut yaml = String::from("hooks:\n");
    for (key, items) in &entries {
        yaml.push_str(key);
        yaml.push('\n');
        for item in items {
            yaml.push_str(item);
            yaml.push('\n');
        }
    }
    env.config(&yaml);

    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = env.cmd().args(["doctor", "--strict"]).output().unwrap();
    assert_eq!(
        code(&out),
        0,
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );
    for (index, (event, _)) in events.iter().enumerate() {
        let out = env
            .cmd()
            .args(["test", event, "--expect", "none", "--json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{event}: {}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        // The event's own scaffolds ran and let everything go on (on post_tool_call the
        // failure alias's hooks wait for a failed call).
        let ours: Vec<&Value> = report["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|hook| {
                let command = hook["command"].as_str().unwrap();
                [format!("/e{index}-"), format!("/c{index}-")]
                    .iter()
                    .any(|prefix| command.contains(prefix.as_str()))
            })
            .collect();
        assert!(!ours.is_empty(), "{event}: {report}");
        for hook in ours {
            assert_eq!(hook["status"], "ok", "{event}: {hook}");
        }
    }
}

#[test]
fn new_never_overwrites() {
    let env = TestEnv::new();
    new(&env, &["guard", "--event", "pre_tool_call"]);
    let entry = env.work().join(".agents/hooks/guard/scripts/run");
    fs::write(&entry, "#!/bin/sh\nexit 2\n").unwrap();
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_llm_call"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("already exists: `new` never overwrites"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&entry).unwrap(), "#!/bin/sh\nexit 2\n");

    let script = env.hermes_home().join("agent-hooks/mine.sh");
    fs::write(&script, "keep").unwrap();
    let out = env
        .cmd()
        .args(["new", "mine", "--event", "pre_tool_call", "--config"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_eq!(fs::read_to_string(&script).unwrap(), "keep");
    assert!(!env.hermes_home().join("config.yaml").exists());
}

#[test]
fn new_writes_a_project_hook_only_inside_its_project() {
    let env = TestEnv::new();
    let project = env.work().join("cloned");
    fs::create_dir_all(project.join(".git")).unwrap();
    // A repository can carry `.agents` as a symlink out of itself: into your user-level hooks,
    // or anywhere else.
    let outside = env.root().join("outside");
    fs::create_dir_all(outside.join("hooks")).unwrap();
    std::os::unix::fs::symlink(&outside, project.join(".agents")).unwrap();
    let refused = |out: &std::process::Output, how: &str| {
        assert_eq!(code(out), 1, "{how}: {}", stderr(out));
        assert!(
            stderr(out).contains("outside the project"),
            "{how}: {}",
            stderr(out)
        );
        assert_eq!(
            fs::read_dir(outside.join("hooks")).unwrap().count(),
            0,
            "{how}: written outside the project"
        );
    };
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    refused(&out, "named with --project");
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["new", "guard", "--event", "pre_tool_call"])
        .output()
        .unwrap();
    refused(&out, "found from the current directory");

    // `.agents/hooks` as the link, too.
    fs::remove_file(project.join(".agents")).unwrap();
    fs::create_dir(project.join(".agents")).unwrap();
    std::os::unix::fs::symlink(outside.join("hooks"), project.join(".agents/hooks")).unwrap();
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    refused(&out, "a symlinked .agents/hooks");

    // A symlink that stays inside the project is followed.
    fs::remove_file(project.join(".agents/hooks")).unwrap();
    fs::create_dir_all(project.join("config/hooks")).unwrap();
    std::os::unix::fs::symlink("../config/hooks", project.join(".agents/hooks")).unwrap();
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(project.join("config/hooks/guard/HOOK.md").is_file());
}

#[test]
fn new_never_writes_into_a_project_another_user_owns() {
    let env = TestEnv::new();
    fs::create_dir_all(env.work().join(".agents/hooks")).unwrap();
    if !give_away_all(&env.work().join(".agents"), OTHER_UID) {
        return;
    }
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("uid {OTHER_UID}")),
        "{}",
        stderr(&out)
    );
    assert!(!env.work().join(".agents/hooks/guard").exists());
    // Named, it is trusted as named.
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call", "--project", "."])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn new_refuses_what_cannot_work() {
    let env = TestEnv::new();
    let refused = |args: &[&str], expected: &str| {
        let out = env.cmd().arg("new").args(args).output().unwrap();
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    };
    refused(
        &["Guard", "--event", "pre_tool_call"],
        "'Guard' cannot name a hook",
    );
    refused(
        &["../up", "--event", "pre_tool_call"],
        "'../up' cannot name a hook",
    );
    refused(
        &["g", "--event", "pre_llm_call", "--matcher", "x"],
        "--matcher applies to tool events only",
    );
    refused(
        &["g", "--event", "pre_tool_call", "--matcher", "("],
        "--matcher \"(\"",
    );
    refused(
        &["g", "--event", "PreCompact", "--config"],
        "Hermes never fires pre-context-compact",
    );
    refused(
        &[
            "g",
            "--event",
            "transform_api_error_classification",
            "--config",
        ],
        "Python plugins only",
    );
    refused(
        &["g", "--event", "pre_tts_synthesis", "--config"],
        "runs no config hook for it",
    );
    refused(&["g", "--event", "PreToolUs"], "did you mean 'PreToolUse'?");
    refused(
        &["g", "--event", "pre_tool_call", "--user", "--config"],
        "cannot be used with",
    );
    assert!(!env.work().join(".agents").exists());
}

#[test]
fn new_project_hook_for_a_person() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args([
            "new",
            "block-force-push",
            "--event",
            "PreToolUse",
            "--matcher",
            "terminal",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
Created project hook 'block-force-push' for pre-tool-call:
  .agents/hooks/block-force-push/HOOK.md
  .agents/hooks/block-force-push/scripts/run

Edit scripts/run (its comments show every answer this event allows) and the
description in HOOK.md, then:
  hermes-hooks approve block-force-push
  hermes-hooks test pre-tool-call --expect none
  hermes-hooks doctor

"#]]
    );
    assert_data_eq!(
        fs::read_to_string(env.work().join(".agents/hooks/block-force-push/HOOK.md")).unwrap(),
        str![[r#"
---
name: block-force-push
description: Say in one line what this hook does (list and approve show it)
trigger: pre-tool-call
matcher:
  tool: "terminal"
timeout: 30000
# If this hook cannot give its answer (unapproved, edited since approval, missing,
# timed out, invalid output), the call is blocked; set false to let calls through.
fail_closed: true
---

# block-force-push

Say here, for the people who review and approve this hook, what it checks and why.

- Runs on `pre-tool-call` (Hermes: pre_tool_call; Claude Code: PreToolUse).
- Only for tools whose whole name matches `terminal`.
- Entry: `scripts/run` (sh). `hermes-hooks events pre-tool-call` shows what it reads.

"#]]
    );
}

#[test]
fn new_config_hook_for_a_person() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["new", "log-stops", "--event", "subagent_stop", "--config"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r##"
# Wrote [ROOT]/home/.hermes/agent-hooks/log-stops.sh.
# Add this to [ROOT]/home/.hermes/config.yaml (merge it into its hooks: block; hermes-hooks never edits that file):
hooks:
  subagent_stop:
    - command: "~/.hermes/agent-hooks/log-stops.sh"
      timeout: 60
# Then:
#   hermes-hooks approve '~/.hermes/agent-hooks/log-stops.sh'
#   hermes-hooks test subagent_stop --expect none
#   hermes-hooks doctor

"##]]
    );
    assert_data_eq!(
        fs::read_to_string(env.hermes_home().join("agent-hooks/log-stops.sh")).unwrap(),
        str![[r#"
#!/bin/sh
# log-stops: runs on subagent_stop (Agent Hooks: post-subagent; Claude Code: SubagentStop).
# Made by `hermes-hooks new`: make it yours.
#
# stdin: one JSON object with hook_event_name, tool_name, tool_input, session_id, cwd,
# profile, extra (child_role, child_summary, child_status, tool_call_history,
# duration_ms).
# See a whole one with: hermes-hooks events subagent_stop
#
# Nothing a hook answers here changes what the agent does: use it to log or notify,
# and exit 0.

set -eu

# The whole payload as text. Match on it with `case`, or pick fields out with jq
# or python3, which read JSON more safely than a pattern does.
payload=$(cat)

# Log or notify here: what this hook prints is not read.
exit 0

"#]]
    );
}

#[test]
fn new_user_hook_as_json() {
    let env = TestEnv::new();
    let made = new(
        &env,
        &["gate", "--event", "Stop", "--user", "--lang", "python"],
    );
    assert_eq!(made["scope"], "user");
    assert_eq!(made["event"], "pre_verify");
    assert_eq!(made["declared_as"], "pre-agent-turn-stop");
    assert!(made["entry"].is_null());
    let folder = env.user_hooks().join("gate");
    assert_eq!(
        made["files"],
        serde_json::json!([
            folder.join("HOOK.md").display().to_string(),
            folder.join("scripts/run").display().to_string()
        ])
    );
    assert_eq!(made["next"][0], "hermes-hooks approve gate");
    let script = fs::read_to_string(folder.join("scripts/run")).unwrap();
    assert!(script.starts_with("#!/usr/bin/env python3\n"), "{script}");
    assert!(
        script.contains(
            r#"print('{"decision": "block", "reason": "Run the tests before you stop"}'); sys.exit(0)"#
        ),
        "{script}"
    );
}

#[test]
fn a_scaffolded_guard_fails_closed_unless_its_author_chooses_otherwise() {
    // A guard that cannot give its answer (not approved yet, edited since approval) blocks the
    // call rather than letting it through.
    let env = TestEnv::new();
    fs::create_dir(env.work().join(".git")).unwrap();
    new(&env, &["guard", "--event", "pre_tool_call"]);
    let hook_md = env.work().join(".agents/hooks/guard/HOOK.md");
    let text = fs::read_to_string(&hook_md).unwrap();
    assert!(text.contains("\nfail_closed: true\n"), "{text}");
    assert!(text.contains("the call is blocked; set false"), "{text}");
    let payload = r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#;
    let out = env.run("pre_tool_call", payload);
    assert_eq!(code(&out), 2, "unapproved: {}", stderr(&out));
    assert!(
        stderr(&out).contains("not approved, so this call was blocked (fail_closed)"),
        "{}",
        stderr(&out)
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        code(&env.run("pre_tool_call", payload)),
        0,
        "approved, it answers"
    );
    let script = env.work().join(".agents/hooks/guard/scripts/run");
    let edited = fs::read_to_string(&script).unwrap() + "\n# edited\n";
    fs::write(&script, edited).unwrap();
    assert_eq!(code(&env.run("pre_tool_call", payload)), 2, "edited");
    // The config entry says the same; on an event where nothing can block, nothing is written.
    let made = new(&env, &["c-guard", "--event", "pre_tool_call", "--config"]);
    let entry = made["entry"].as_str().unwrap();
    assert!(entry.ends_with("      fail_closed: true\n"), "{entry}");
    let made = new(&env, &["c-after", "--event", "post_tool_call", "--config"]);
    assert!(
        !made["entry"].as_str().unwrap().contains("fail_closed"),
        "{made}"
    );
}

/// The user's rules file, as `new --rules` finds it.
fn user_rules_file(env: &TestEnv) -> std::path::PathBuf {
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    file
}

/// The names of the rules `list` reads from the rules files.
fn listed_rules(env: &TestEnv) -> Vec<String> {
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names: Vec<String> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|hook| hook["source"] == "rules")
        .map(|hook| hook["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn new_rules_appends_a_pack_to_a_rules_file_in_any_block_style_keeping_every_byte() {
    // (what a person wrote, what of it must stay as it is)
    let styles: [(&str, &str); 9] = [
        (
            "rules:\n  - name: mine\n    tool: shell\n    when:\n      command: 'x'\n",
            "",
        ),
        (
            "# top\nrules: # the list\n  # before\n  - name: mine # inline\n    # inside\n    \
             when: {command: x}\n# trailing, at the first column\n",
            "",
        ),
        (
            "rules:\n- name: mine\n  when: {command: x}\n# the end, no newline",
            "",
        ),
        ("rules:\n- name: mine\n  when: {command: x}", ""),
        (
            "rules:\r\n    - name: mine\r\n      when: {command: x}\r\n",
            "",
        ),
        (
            "\u{feff}rules:\n   - name: mine\n     message: |\n       a block\n       \
             scalar\n",
            "",
        ),
        ("rules: []\n", "rules:\n"),
        (
            "# mine, soon\nrules: [] # none yet",
            "# mine, soon\nrules: # none yet",
        ),
        ("# nothing yet\n", ""),
    ];
    for (text, kept) in styles {
        let env = TestEnv::new();
        let file = user_rules_file(&env);
        fs::write(&file, text).unwrap();
        let mine: Vec<String> = listed_rules(&env);
        let out = env
            .cmd()
            .args(["new", "--rules", "force-push", "--json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{text:?}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["created"], false);
        let pack: Vec<String> = doc["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| name.as_str().unwrap().to_owned())
            .collect();
        assert!(!pack.is_empty());
        let now = fs::read_to_string(&file).unwrap();
        let kept = if kept.is_empty() { text } else { kept };
        assert!(now.starts_with(kept), "{text:?} became {now:?}");
        if text.contains("\r\n") {
            assert!(
                !now.replace("\r\n", "").contains('\n'),
                "the file's own line ends: {now:?}"
            );
        }
        let mut want = [mine, pack].concat();
        want.sort();
        assert_eq!(listed_rules(&env), want, "{text:?} became {now:?}");
        let warned = stderr(&env.cmd().args(["list"]).output().unwrap());
        assert!(!warned.contains("rules.yaml"), "{warned}");
    }
}

#[test]
fn new_rules_refuses_a_file_it_cannot_append_to_safely_naming_its_line() {
    for (text, at) in [
        ("rules: [{name: mine, when: {command: x}}]\n", ":1"),
        (
            "# a flow list\nrules: [\n  {name: mine, when: {command: x}}\n]\n",
            ":2",
        ),
        (
            "rules:\n- name: mine\n  when: {command: x}\nother: 1\n",
            ":4",
        ),
    ] {
        let env = TestEnv::new();
        let file = user_rules_file(&env);
        fs::write(&file, text).unwrap();
        let out = env
            .cmd()
            .args(["new", "--rules", "force-push"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 1, "{text:?}");
        let said = stderr(&out);
        assert!(
            said.contains(&format!("{}{at}", file.display())) && said.contains("left as it is"),
            "{text:?}: {said}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), text);
    }
}
