//! `install` and `uninstall`: each agent's settings wired to `run --agent` and unwired again,
//! nothing else of the file touched; hostile settings files refused untouched.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestEnv, code, stderr};

/// A Claude Code project settings file as a person keeps it: other keys, a hook of their own,
/// four-space indentation, escapes and a number spelt their way.
const CLAUDE: &str = r#"{
    "permissions": {"allow": ["Bash(ls)"], "deny": []},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh \u00e9"}]}
        ]
    },
    "cleanupPeriodDays": 1.50,
    "model": "opus"
}
"#;

/// A Codex config.toml with comments, tables and a hook of the user's.
const CODEX: &str = r#"# my Codex settings
model = "o3"   # the model

[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "Bash"   # only the shell
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./mine.sh"

[projects."/somewhere"]
trust_level = "trusted"
"#;

/// A Gemini settings file with comments (Gemini strips them) and tabs.
const GEMINI: &str = "{\n\t// my theme\n\t\"ui\": {\"theme\": \"dark\"},\n\t/* hooks on */\n\t\"hooksConfig\": {\"enabled\": true}\n}\n";

/// A Cursor hooks.json with a hook of the user's.
const CURSOR: &str = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      {\"command\": \"./format.sh\"}\n    ]\n  }\n}\n";

/// A Copilot CLI hooks file (`install` writes its own, `hermes-hooks.json`; a person may have
/// put a hook of theirs in it).
const COPILOT: &str = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"postToolUse\": [\n      {\"type\": \"command\", \"bash\": \"./format.sh\", \"timeoutSec\": 10}\n    ]\n  }\n}\n";

/// A Factory Droid settings file with a custom model of the user's.
const DROID: &str = "{\n  \"customModels\": [{\"model\": \"m\", \"provider\": \"anthropic\"}]\n}\n";

/// A Qwen Code settings file with a comment and a model of the user's.
const QWEN: &str = "{\n  // my model\n  \"model\": {\"name\": \"qwen3-coder-plus\"}\n}\n";

/// The agents, their project settings file and a real-looking text for it.
fn agents() -> [(&'static str, &'static str, &'static str); 7] {
    [
        ("claude-code", ".claude/settings.json", CLAUDE),
        ("codex", ".codex/config.toml", CODEX),
        ("gemini", ".gemini/settings.json", GEMINI),
        ("cursor", ".cursor/hooks.json", CURSOR),
        ("copilot", ".github/hooks/hermes-hooks.json", COPILOT),
        ("droid", ".factory/settings.json", DROID),
        ("qwen", ".qwen/settings.json", QWEN),
    ]
}

/// The agent's user settings file under the home folder (the project's path, but for Copilot
/// CLI, whose user hooks live in `~/.copilot/hooks/`).
fn user_file<'a>(agent: &str, project_file: &'a str) -> &'a str {
    if agent == "copilot" {
        ".copilot/hooks/hermes-hooks.json"
    } else {
        project_file
    }
}

fn put(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Where the shell text install writes after the command, for a missing program, begins.
const MISSING_TAIL: &str = " ; s=$? ; ";

/// The events before a tool call, by each agent's name: the ones whose command carries the tail.
const BEFORE_A_TOOL: [&str; 4] = [
    "PreToolUse",
    "BeforeTool",
    "preToolUse",
    "PreSkillShellCommand",
];

/// `command` without the tail, having checked it has one exactly on an event before a tool call.
fn plain<'c>(event: &str, command: &'c str) -> &'c str {
    let (plain, tail) = command
        .split_once(MISSING_TAIL)
        .map_or((command, None), |(plain, tail)| (plain, Some(tail)));
    assert_eq!(
        tail.is_some(),
        BEFORE_A_TOOL.contains(&event),
        "{event}: {command}"
    );
    plain
}

/// `install` or `uninstall` as `args` say, into the project's settings unless they name a level
/// (the user's is the default, tested on its own).
fn wire(env: &TestEnv, args: &[&str]) -> std::process::Output {
    let mut cmd = env.cmd();
    cmd.args(args);
    let levelled = args
        .iter()
        .any(|a| a.starts_with("--user") || a.starts_with("--project"));
    if matches!(args.first(), Some(&"install" | &"uninstall"))
        && args
            .get(1)
            .is_some_and(|agent| !agent.starts_with('-') && *agent != "hermes")
        && !levelled
    {
        cmd.arg("--project");
    }
    cmd.output().unwrap()
}

fn ok(out: &std::process::Output) -> Value {
    assert_eq!(code(out), 0, "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// The commands of every hook entry in a settings file (JSON or TOML), by event.
fn commands(path: &Path) -> Vec<(String, String, Option<i64>)> {
    let text = fs::read_to_string(path).unwrap();
    let value: Value = if path.extension().is_some_and(|e| e == "toml") {
        toml_to_json(&text)
    } else {
        let stripped: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let stripped = regex_free_strip(&stripped);
        serde_json::from_str(&stripped).unwrap()
    };
    let mut found = Vec::new();
    let Some(hooks) = value.get("hooks").and_then(Value::as_object) else {
        return found;
    };
    for (event, groups) in hooks {
        for group in groups.as_array().unwrap() {
            let handlers = group
                .get("hooks")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_else(|| vec![group.clone()]);
            for handler in handlers {
                // Copilot CLI names them `bash` and `timeoutSec`.
                let command = handler.get("command").or_else(|| handler.get("bash"));
                let timeout = handler.get("timeout").or_else(|| handler.get("timeoutSec"));
                found.push((
                    event.clone(),
                    command.and_then(Value::as_str).unwrap().to_owned(),
                    timeout.and_then(Value::as_i64),
                ));
            }
        }
    }
    found
}

/// Drops `/* ... */` comments.
fn regex_free_strip(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").unwrap() + start + 2;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The `hooks` part of a TOML text as JSON (tables, arrays of tables, strings, integers).
fn toml_to_json(text: &str) -> Value {
    fn item(of: &toml_edit::Item) -> Value {
        match of {
            toml_edit::Item::Table(t) => {
                Value::Object(t.iter().map(|(k, v)| (k.to_owned(), item(v))).collect())
            }
            toml_edit::Item::ArrayOfTables(a) => Value::Array(
                a.iter()
                    .map(|t| item(&toml_edit::Item::Table(t.clone())))
                    .collect(),
            ),
            toml_edit::Item::Value(v) => match v {
                toml_edit::Value::String(s) => Value::from(s.value().as_str()),
                toml_edit::Value::Integer(i) => Value::from(*i.value()),
                _ => Value::Null,
            },
            toml_edit::Item::None => Value::Null,
        }
    }
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    item(doc.as_item())
}

#[test]
fn install_wires_every_event_with_a_counterpart_and_changes_nothing_else() {
    for (agent, file, text) in agents() {
        let env = TestEnv::new();
        let path = env.work().join(file);
        put(&path, text);
        let before = commands(&path);
        let report = ok(&wire(&env, &["install", agent, "--json"]));
        assert_eq!(report["changed"], true, "{agent}");
        let wired: Vec<_> = commands(&path)
            .into_iter()
            .filter(|(_, c, _)| c.starts_with("hermes-hooks "))
            .collect();
        let added: Vec<&str> = report["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"] != "left out")
            .map(|e| e["event"].as_str().unwrap())
            .collect();
        assert!(added.len() >= 7, "{agent}: {added:?}");
        assert_eq!(wired.len(), added.len(), "{agent}: {wired:?}");
        for (event, command, _) in &wired {
            assert_eq!(
                plain(event, command),
                format!("hermes-hooks run --agent {agent} {event}")
            );
        }
        // The user's own hook is still there, exactly.
        let theirs: Vec<_> = commands(&path)
            .into_iter()
            .filter(|(_, c, _)| !c.starts_with("hermes-hooks "))
            .collect();
        assert_eq!(theirs, before, "{agent}");
        // Everything install added goes again, to the byte, and so does install's backup,
        // which keeps nothing more.
        let report = ok(&wire(&env, &["uninstall", agent, "--json"]));
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "{agent}");
        assert!(!backup_of(&path).exists(), "{agent}");
        assert_eq!(
            report["removed"],
            serde_json::json!([backup_of(&path).display().to_string()]),
            "{agent}"
        );
    }
}

/// Every file and folder under `root`, but `.git`.
fn tree(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() {
                folders.push(path.clone());
            }
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
fn uninstall_after_install_leaves_no_trace_and_a_second_install_is_as_readable_as_the_first() {
    for (agent, file, _) in agents() {
        let env = TestEnv::new();
        let before = tree(&env.work());
        ok(&wire(&env, &["install", agent]));
        let first = fs::read_to_string(env.work().join(file)).unwrap();
        let report = ok(&wire(&env, &["uninstall", agent, "--json"]));
        // The file install made, and its folders, go: nothing for `git status` to show.
        assert_eq!(tree(&env.work()), before, "{agent}: {report}");
        assert_eq!(report["backup"], Value::Null, "{agent}");
        ok(&wire(&env, &["install", agent]));
        assert_eq!(
            fs::read_to_string(env.work().join(file)).unwrap(),
            first,
            "{agent}"
        );
    }
    // A file holding only `{}` is written out as a person would write it, not on one line.
    let env = TestEnv::new();
    let path = env.work().join(".claude/settings.json");
    put(&path, "{}\n");
    ok(&wire(&env, &["install", "claude-code"]));
    let wired = fs::read_to_string(&path).unwrap();
    assert!(wired.lines().count() > 20, "{wired}");
    ok(&wire(&env, &["uninstall", "claude-code"]));
    assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n");
    assert!(!backup_of(&path).exists());
}

#[test]
fn the_file_keeps_its_comments_order_and_indentation() {
    let env = TestEnv::new();
    let path = env.work().join(".gemini/settings.json");
    put(&path, GEMINI);
    ok(&wire(&env, &["install", "gemini", "--json"]));
    let after = fs::read_to_string(&path).unwrap();
    assert!(after.starts_with("{\n\t// my theme\n\t\"ui\": {\"theme\": \"dark\"},\n\t/* hooks on */\n\t\"hooksConfig\": {\"enabled\": true},\n\t\"hooks\": {\n\t\t\"SessionStart\": ["), "{after}");
    let env = TestEnv::new();
    let path = env.work().join(".codex/config.toml");
    put(&path, CODEX);
    ok(&wire(&env, &["install", "codex", "--json"]));
    let after = fs::read_to_string(&path).unwrap();
    for kept in [
        "# my Codex settings\nmodel = \"o3\"   # the model\n\n[features]\nhooks = true\n",
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"   # only the shell\n[[hooks.PreToolUse.hooks]]\n",
        "[projects.\"/somewhere\"]\ntrust_level = \"trusted\"\n",
    ] {
        assert!(after.contains(kept), "{after}");
    }
    assert!(after.contains("[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"hermes-hooks run --agent codex Stop\"\ntimeout = 65\n"), "{after}");
}

#[test]
fn a_second_install_changes_nothing_and_says_so() {
    for (agent, file, text) in agents() {
        let env = TestEnv::new();
        let path = env.work().join(file);
        put(&path, text);
        ok(&wire(&env, &["install", agent]));
        let once = fs::read(&path).unwrap();
        let backup = fs::read(backup_of(&path)).unwrap();
        let out = wire(&env, &["install", agent]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Nothing to change"),
            "{agent}"
        );
        assert_eq!(fs::read(&path).unwrap(), once, "{agent}");
        // Nothing written, so the backup still holds the file from before the first install.
        assert_eq!(fs::read(backup_of(&path)).unwrap(), backup, "{agent}");
        let report = ok(&wire(&env, &["install", agent, "--json"]));
        assert_eq!(report["changed"], false);
        assert!(
            report["events"]
                .as_array()
                .unwrap()
                .iter()
                .all(|e| e["action"] == "unchanged" || e["action"] == "left out")
        );
    }
}

fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap().to_os_string();
    name.push(".hermes-hooks.bak");
    path.with_file_name(name)
}

#[test]
fn the_file_as_it_was_is_kept_beside_it() {
    let env = TestEnv::new();
    let path = env.work().join(".claude/settings.json");
    put(&path, CLAUDE);
    let report = ok(&wire(&env, &["install", "claude-code", "--json"]));
    assert_eq!(report["backup"], backup_of(&path).display().to_string());
    assert_eq!(fs::read_to_string(backup_of(&path)).unwrap(), CLAUDE);
}

#[test]
fn a_dry_run_prints_the_diff_and_writes_nothing() {
    for (agent, file, text) in agents() {
        let env = TestEnv::new();
        let path = env.work().join(file);
        put(&path, text);
        let out = wire(&env, &["install", agent, "--dry-run"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(
            shown.contains(&format!("+++ {}", path.display())),
            "{shown}"
        );
        assert!(
            shown.contains(&format!("hermes-hooks run --agent {agent}")),
            "{shown}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert!(!backup_of(&path).exists());
        // A settings file that does not exist yet is not made either.
        let fresh = TestEnv::new();
        let out = wire(&fresh, &["install", agent, "--dry-run", "--json"]);
        assert_eq!(ok(&out)["changed"], true);
        assert!(!fresh.work().join(file).exists());
    }
}

#[test]
fn a_file_that_does_not_parse_is_refused_and_left_untouched() {
    let broken = [
        (
            "claude-code",
            ".claude/settings.json",
            "{\n  \"model\": \"opus\",\n  \"hooks\": {\n}",
        ),
        ("codex", ".codex/config.toml", "model = \"o3\"\n[hooks\n"),
        (
            "gemini",
            ".gemini/settings.json",
            "{\n  \"a\": 1,\n  \"a\": 2\n}\n",
        ),
        ("cursor", ".cursor/hooks.json", "{\"version\": 1,}\n"),
        // Comments are Gemini's, not Claude Code's.
        (
            "claude-code",
            ".claude/settings.json",
            "{\n  // mine\n  \"a\": 1\n}\n",
        ),
    ];
    for (agent, file, text) in broken {
        let env = TestEnv::new();
        let path = env.work().join(file);
        put(&path, text);
        for verb in ["install", "uninstall"] {
            let out = wire(&env, &[verb, agent]);
            assert_eq!(code(&out), 1, "{agent}: {text}");
            let err = stderr(&out);
            assert!(
                err.contains(&path.display().to_string()) && err.contains("line "),
                "{err}"
            );
            // Where the agent reads strict JSON, the file does nothing for it either.
            if Path::new(file).extension().is_some_and(|ext| ext == "json") && agent != "gemini" {
                assert!(err.contains("so it ignores the whole file"), "{err}");
            }
            assert_eq!(fs::read_to_string(&path).unwrap(), text);
            assert!(!backup_of(&path).exists());
        }
    }
}

#[test]
fn settings_of_the_wrong_shape_are_refused_untouched() {
    let hostile = [
        ("claude-code", ".claude/settings.json", "[1, 2]"),
        ("claude-code", ".claude/settings.json", "{\"hooks\": []}"),
        (
            "claude-code",
            ".claude/settings.json",
            "{\"hooks\": {\"PreToolUse\": \"x\"}}",
        ),
        (
            "cursor",
            ".cursor/hooks.json",
            "{\"hooks\": {\"stop\": {\"command\": \"x\"}}}",
        ),
        ("codex", ".codex/config.toml", "hooks = \"off\"\n"),
        ("codex", ".codex/config.toml", "[hooks]\nStop = 3\n"),
    ];
    for (agent, file, text) in hostile {
        let env = TestEnv::new();
        let path = env.work().join(file);
        put(&path, text);
        let out = wire(&env, &["install", agent]);
        assert_eq!(
            code(&out),
            1,
            "{agent}: {text}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(stderr(&out).contains("untouched"), "{}", stderr(&out));
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn a_project_settings_symlink_that_leaves_the_project_is_refused() {
    let env = TestEnv::new();
    let elsewhere = env.path("elsewhere.json");
    fs::write(&elsewhere, "{}\n").unwrap();
    fs::create_dir_all(env.work().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, env.work().join(".claude/settings.json")).unwrap();
    let out = wire(&env, &["install", "claude-code"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("outside the project"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "{}\n");
    // A folder symlink out of the project is refused the same way.
    let env = TestEnv::new();
    let outside = env.path("outside");
    fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, env.work().join(".cursor")).unwrap();
    assert_eq!(code(&wire(&env, &["install", "cursor"])), 1);
    assert!(!outside.join("hooks.json").exists());
}

#[test]
fn a_user_settings_symlink_is_written_through_and_stays_a_symlink() {
    let env = TestEnv::new();
    let dotfiles = env.path("dotfiles/claude.json");
    put(&dotfiles, "{\n  \"model\": \"opus\"\n}\n");
    fs::create_dir_all(env.home().join(".claude")).unwrap();
    let link = env.home().join(".claude/settings.json");
    std::os::unix::fs::symlink(&dotfiles, &link).unwrap();
    ok(&wire(&env, &["install", "claude-code", "--user", "--json"]));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&dotfiles)
            .unwrap()
            .contains("--agent claude-code")
    );
}

#[test]
fn user_settings_name_this_binary_and_project_settings_name_it_bare() {
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "cursor", "--user", "--json"]));
    let exe = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    let user = commands(&env.home().join(".cursor/hooks.json"));
    assert!(
        user.iter()
            .all(|(e, c, _)| plain(e, c) == format!("{} run --agent cursor {e}", exe.display())),
        "{user:?}"
    );
    let out = wire(&env, &["install", "cursor", "--also"]);
    assert_eq!(code(&out), 0);
    let project = commands(&env.work().join(".cursor/hooks.json"));
    assert!(
        project
            .iter()
            .all(|(_, c, _)| c.starts_with("hermes-hooks run --agent cursor "))
    );
    let text = fs::read_to_string(env.work().join(".cursor/hooks.json")).unwrap();
    assert!(
        text.starts_with("{\n  \"version\": 1,\n  \"hooks\": {"),
        "{text}"
    );
}

#[test]
fn wiring_an_agent_at_its_other_level_too_is_refused_unless_asked_for() {
    // Both levels wired: the agent runs every hook twice on each call.
    for (agent, file, _) in agents() {
        let env = TestEnv::new();
        ok(&wire(&env, &["install", agent, "--user", "--json"]));
        let user = env.home().join(user_file(agent, file));
        let project = env.work().join(file);
        for args in [&["install", agent][..], &["install", agent, "--dry-run"]] {
            let out = wire(&env, args);
            assert_eq!(code(&out), 1, "{agent} {args:?}");
            let err = stderr(&out);
            for said in [
                user.display().to_string().as_str(),
                "run every hook twice",
                &format!("hermes-hooks uninstall {agent} --user"),
                "--also",
            ] {
                assert!(err.contains(said), "{agent}: {said:?} in {err}");
            }
            assert!(!project.exists(), "{agent}: nothing written");
        }
        ok(&wire(&env, &["install", agent, "--also", "--json"]));
        assert!(project.exists());
        // The reverse: the project is wired, the user's settings are not.
        let env = TestEnv::new();
        ok(&wire(&env, &["install", agent, "--json"]));
        let out = wire(&env, &["install", agent, "--user"]);
        assert_eq!(code(&out), 1, "{agent}");
        assert!(
            stderr(&out).contains(&format!("hermes-hooks uninstall {agent} --project")),
            "{}",
            stderr(&out)
        );
        assert!(!env.home().join(user_file(agent, file)).exists());
        // Installing again where it is wired changes nothing and is not refused.
        ok(&wire(&env, &["install", agent, "--json"]));
    }
}

#[test]
fn the_agents_timeout_is_a_little_above_the_longest_hook_in_its_unit() {
    let env = TestEnv::new();
    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: 200\n");
    ok(&wire(&env, &["install", "gemini", "--json"]));
    ok(&wire(&env, &["install", "claude-code", "--json"]));
    let timeout = |file: &str, event: &str| {
        commands(&env.work().join(file))
            .into_iter()
            .find(|(e, _, _)| e == event)
            .and_then(|(_, _, t)| t)
    };
    assert_eq!(
        timeout(".gemini/settings.json", "BeforeTool"),
        Some(205_000)
    );
    assert_eq!(timeout(".gemini/settings.json", "AfterTool"), Some(65_000));
    assert_eq!(timeout(".claude/settings.json", "PreToolUse"), Some(205));
    // A longer hook later: install again raises the timeout in place.
    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: 300\n");
    let report = ok(&wire(&env, &["install", "claude-code", "--json"]));
    let updated: Vec<&Value> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "updated")
        .collect();
    // Claude Code's event for a tool call (a skill's shell command, the other one, is left out
    // here: the release assumed where none can be read does not take it).
    assert_eq!(updated.len(), 1, "{report}");
    assert_eq!(timeout(".claude/settings.json", "PreToolUse"), Some(305));
    assert_eq!(
        timeout(".claude/settings.json", "PreSkillShellCommand"),
        None
    );
}

#[test]
fn uninstall_leaves_an_entry_edited_by_hand_and_says_so() {
    let env = TestEnv::new();
    let path = env.work().join(".claude/settings.json");
    ok(&wire(&env, &["install", "claude-code"]));
    let text = fs::read_to_string(&path).unwrap();
    let edited = text.replace(
        "hermes-hooks run --agent claude-code Stop",
        "hermes-hooks run --agent claude-code --fail-closed Stop",
    );
    fs::write(&path, &edited).unwrap();
    let out = wire(&env, &["uninstall", "claude-code"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("changed by hand"), "{}", stderr(&out));
    let left = commands(&path);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].1.contains("--fail-closed"));
    // install does not add a second entry beside the one written by hand.
    let out = wire(&env, &["install", "claude-code", "--json"]);
    let stop = ok(&out)["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "Stop")
        .cloned()
        .unwrap();
    assert_eq!(stop["action"], "left as written");
    assert_eq!(
        commands(&path)
            .iter()
            .filter(|(e, _, _)| e == "Stop")
            .count(),
        1
    );
}

#[test]
fn install_says_what_the_agent_still_needs() {
    let env = TestEnv::new();
    let report = ok(&wire(&env, &["install", "codex", "--json"]));
    let needs = report["needs"].to_string();
    assert!(
        needs.contains("trust") && needs.contains("/hooks"),
        "{needs}"
    );
    let report = ok(&wire(&env, &["install", "gemini", "--json"]));
    assert!(report["needs"].to_string().contains("trusted folder"));
    let report = ok(&wire(&env, &["install", "cursor", "--json"]));
    assert!(report["needs"].to_string().contains("restart Cursor"));
    let report = ok(&wire(&env, &["install", "copilot", "--json"]));
    assert!(report["needs"].to_string().contains("--trust-folder"));
}

#[test]
fn copilot_is_wired_in_its_own_hook_file_with_its_own_event_names_and_keys() {
    // Copilot CLI reads every `*.json` of `.github/hooks/` (`~/.copilot/hooks/` for the user):
    // `bash` and `timeoutSec` (it ignores an entry that says `command`), and its camelCase
    // names, whose payload and answers are the ones `run --agent copilot` speaks.
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "copilot"]));
    let path = env.work().join(".github/hooks/hermes-hooks.json");
    let file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(file["version"], 1);
    let hooks = file["hooks"].as_object().unwrap();
    for event in [
        "sessionStart",
        "userPromptSubmitted",
        "preToolUse",
        "postToolUse",
        "agentStop",
    ] {
        let entry = &hooks[event][0];
        assert_eq!(entry["type"], "command", "{event}");
        assert_eq!(
            plain(event, entry["bash"].as_str().unwrap()),
            format!("hermes-hooks run --agent copilot {event}"),
            "{event}"
        );
        assert!(entry["timeoutSec"].as_u64().unwrap() >= 60, "{event}");
        assert!(entry.get("command").is_none(), "{event}");
    }
    for twice in ["PreToolUse", "Stop", "UserPromptSubmit"] {
        assert!(!hooks.contains_key(twice), "{twice} reports the same call");
    }
    ok(&wire(&env, &["uninstall", "copilot"]));
    assert!(!path.exists(), "the file install made goes with its wiring");
    // The user's wiring goes into Copilot's user hooks folder.
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "copilot", "--user"]));
    assert!(!commands(&env.home().join(".copilot/hooks/hermes-hooks.json")).is_empty());
}

#[test]
fn uninstall_where_nothing_was_installed_writes_nothing() {
    for (agent, file, text) in agents() {
        let env = TestEnv::new();
        let out = wire(&env, &["uninstall", agent]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(String::from_utf8_lossy(&out.stdout).contains("Nothing to change"));
        assert!(!env.work().join(".claude").exists() && !env.work().join(file).exists());
        let path = env.work().join(file);
        put(&path, text);
        ok(&wire(&env, &["uninstall", agent]));
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert!(!backup_of(&path).exists());
    }
}

#[test]
fn cursor_is_wired_once_per_call() {
    // `preToolUse` reports every tool call; `beforeShellExecution` and its kind report the same
    // calls again, so wiring both would run each guard twice.
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "cursor"]));
    let wired: Vec<String> = commands(&env.work().join(".cursor/hooks.json"))
        .into_iter()
        .map(|(event, _, _)| event)
        .collect();
    assert!(wired.iter().any(|e| e == "preToolUse"), "{wired:?}");
    for twice in [
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
    ] {
        assert!(!wired.iter().any(|e| e == twice), "{twice} in {wired:?}");
    }
    // And doctor does not call them unwired.
    let out = env
        .cmd()
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("beforeShellExecution"), "{text}");
}

/// The plugin's folder in the test's Hermes home.
fn plugin_folder(env: &TestEnv) -> PathBuf {
    env.hermes_home().join("plugins/hermes-hooks")
}

#[test]
fn install_hermes_writes_the_plugin_naming_this_binary_and_its_version() {
    let env = TestEnv::new();
    let report = ok(&wire(&env, &["install", "hermes", "--json"]));
    assert_eq!(report["changed"], true, "{report}");
    let folder = plugin_folder(&env);
    let manifest = fs::read_to_string(folder.join("plugin.yaml")).unwrap();
    let module = fs::read_to_string(folder.join("__init__.py")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        manifest.contains(&format!("version: \"{version}\"")),
        "{manifest}"
    );
    let exe = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    assert!(
        module.contains(&format!(
            "INSTALLED_BINARY = {}",
            serde_json::to_string(exe.to_str().unwrap()).unwrap()
        )),
        "the plugin names this binary's absolute path"
    );
    for text in [&manifest, &module] {
        assert!(!text.contains("@HERMES_HOOKS_"), "every mark is filled in");
    }
    let needs = report["needs"].to_string();
    assert!(
        needs.contains("hermes plugins enable hermes-hooks"),
        "{report}"
    );
    let again = ok(&wire(&env, &["install", "hermes", "--json"]));
    assert_eq!(
        again["changed"], false,
        "installing twice changes nothing: {again}"
    );
    env.config("plugins:\n  enabled:\n    - hermes-hooks\n");
    let enabled = ok(&wire(&env, &["install", "hermes", "--json"]));
    assert_eq!(enabled["enabled"], true, "{enabled}");
    assert_eq!(enabled["needs"], serde_json::json!([]), "{enabled}");
}

#[test]
fn install_hermes_dry_run_shows_the_files_and_writes_nothing() {
    let env = TestEnv::new();
    let out = wire(&env, &["install", "hermes", "--dry-run"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("+name: hermes-hooks"), "{shown}");
    assert!(
        shown.contains("hermes plugins enable hermes-hooks"),
        "{shown}"
    );
    assert!(!plugin_folder(&env).exists(), "nothing was written");
}

#[test]
fn uninstall_hermes_removes_only_what_install_wrote() {
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "hermes"]));
    let folder = plugin_folder(&env);
    put(
        &folder.join("__pycache__/__init__.cpython-311.pyc"),
        "compiled",
    );
    put(&folder.join("notes.txt"), "mine");
    let report = ok(&wire(&env, &["uninstall", "hermes", "--json"]));
    assert_eq!(report["changed"], true, "{report}");
    assert!(!folder.join("plugin.yaml").exists());
    assert!(!folder.join("__init__.py").exists());
    assert!(!folder.join("__pycache__").exists());
    assert_eq!(
        fs::read_to_string(folder.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(
        report["warnings"].to_string().contains("notes.txt"),
        "{report}"
    );
    fs::remove_file(folder.join("notes.txt")).unwrap();
    ok(&wire(&env, &["install", "hermes"]));
    ok(&wire(&env, &["uninstall", "hermes"]));
    assert!(!folder.exists(), "an emptied folder goes too");
    let again = ok(&wire(&env, &["uninstall", "hermes", "--json"]));
    assert_eq!(again["changed"], false, "{again}");
}

#[test]
fn install_hermes_never_writes_through_a_symlinked_plugin_folder() {
    let env = TestEnv::new();
    let elsewhere = env.path("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::create_dir_all(env.hermes_home().join("plugins")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, plugin_folder(&env)).unwrap();
    let out = wire(&env, &["install", "hermes"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn uninstall_hermes_advice_works_after_it_ran() {
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "hermes"]));
    env.config("plugins:\n  enabled:\n    - hermes-hooks\n");
    // Before: Hermes's own command, which needs the plugin's folder, still works.
    let dry = ok(&wire(&env, &["uninstall", "hermes", "--dry-run", "--json"]));
    assert!(
        dry["needs"][0]
            .as_str()
            .unwrap()
            .contains("run `hermes plugins disable hermes-hooks` before the uninstall"),
        "{dry}"
    );
    // After: that command would fail, so the advice is the entry to take out by hand.
    let report = ok(&wire(&env, &["uninstall", "hermes", "--json"]));
    let needs = report["needs"][0].as_str().unwrap();
    assert!(
        needs.contains("still lists hermes-hooks in plugins.enabled: take that entry out by hand"),
        "{report}"
    );
    assert!(!needs.contains("run `hermes plugins disable"), "{report}");
    assert!(!plugin_folder(&env).join("plugin.yaml").exists());
    // What `hermes plugins disable hermes-hooks` leaves: nothing more to do.
    ok(&wire(&env, &["install", "hermes"]));
    env.config("plugins:\n  enabled: []\n  disabled:\n    - hermes-hooks\n");
    let report = ok(&wire(&env, &["uninstall", "hermes", "--json"]));
    assert_eq!(report["needs"], serde_json::json!([]), "{report}");
}

/// The command `install` wrote for `event` in Claude Code's project settings of `env`.
fn claude_command(env: &TestEnv, event: &str) -> String {
    commands(&env.work().join(".claude/settings.json"))
        .into_iter()
        .find(|(e, _, _)| e == event)
        .map(|(_, command, _)| command)
        .unwrap()
}

/// Runs a wired `command` through `sh -c` as the agent does, with `path` as PATH.
fn as_the_agent_runs_it(env: &TestEnv, command: &str, path: &str) -> std::process::Output {
    let payload = serde_json::json!({
        "session_id": "s", "cwd": env.work(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    let mut sh = env.std_cmd_of(Path::new("/bin/sh"));
    sh.args(["-c", command]).env("PATH", path);
    assert_cmd::Command::from_std(sh)
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

#[test]
fn a_missing_program_blocks_each_tool_call_unless_the_person_chose_to_let_them_go() {
    let env = TestEnv::new();
    ok(&wire(&env, &["install", "claude-code", "--project", "."]));
    let guarded = claude_command(&env, "PreToolUse");
    let exe = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    let with_it = format!("{}:/usr/bin:/bin", exe.parent().unwrap().display());
    // Found: the call is decided as usual (nothing is approved here, so it goes on).
    let out = as_the_agent_runs_it(&env, &guarded, &with_it);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Gone: blocked, with one line on how to install it or unwire.
    let out = as_the_agent_runs_it(&env, &guarded, "/usr/bin:/bin");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("cannot be found or started, so this call is blocked"),
        "{said}"
    );
    assert!(said.contains("npm install -g hermes-hooks"), "{said}");
    // Other events go on as for any hook that cannot start.
    let stop = claude_command(&env, "Stop");
    assert!(!stop.contains(MISSING_TAIL), "{stop}");
    assert_eq!(
        code(&as_the_agent_runs_it(&env, &stop, "/usr/bin:/bin")),
        127
    );
    // `--if-missing allow`: the command alone, and the agent goes on.
    let report = ok(&wire(
        &env,
        &[
            "install",
            "claude-code",
            "--project",
            ".",
            "--if-missing",
            "allow",
            "--json",
        ],
    ));
    assert_eq!(report["if_missing"], "allow");
    let allowed = claude_command(&env, "PreToolUse");
    assert_eq!(allowed, "hermes-hooks run --agent claude-code PreToolUse");
    assert_eq!(
        code(&as_the_agent_runs_it(&env, &allowed, "/usr/bin:/bin")),
        127
    );
    // Installing again with the default puts the tail back; uninstall takes the entries out.
    let report = ok(&wire(
        &env,
        &["install", "claude-code", "--project", ".", "--json"],
    ));
    assert!(
        report["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "PreToolUse" && e["action"] == "updated"),
        "{report}"
    );
    assert_eq!(claude_command(&env, "PreToolUse"), guarded);
    ok(&wire(&env, &["uninstall", "claude-code", "--project", "."]));
    let settings = env.work().join(".claude/settings.json");
    assert!(
        !settings.exists() || commands(&settings).is_empty(),
        "{}",
        fs::read_to_string(&settings).unwrap_or_default()
    );
}

#[test]
fn install_from_npx_cache_refuses_and_says_what_to_do() {
    let env = TestEnv::new();
    let cached = env.path(".npm/_npx/0a1b2c/node_modules/@hermes-hooks/linux-x64/bin");
    fs::create_dir_all(&cached).unwrap();
    let copy = cached.join("hermes-hooks");
    fs::copy(assert_cmd::cargo::cargo_bin!("hermes-hooks"), &copy).unwrap();
    let out = crate::common::output_of_copy(env.std_cmd_of(&copy).args([
        "install",
        "claude-code",
        "--project",
        ".",
    ]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("npm install -g hermes-hooks"),
        "{}",
        stderr(&out)
    );
    assert!(!env.work().join(".claude").exists());
}

#[test]
fn install_wires_the_users_settings_unless_told_the_project() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["install", "claude-code", "--json"])
        .output()
        .unwrap();
    let report = ok(&out);
    assert_eq!(report["scope"], "user", "{report}");
    let user = env.home().join(".claude/settings.json");
    assert_eq!(report["file"], user.display().to_string());
    assert!(!commands(&user).is_empty());
    assert!(!env.work().join(".claude").exists());
    // The same default takes it away.
    let out = env
        .cmd()
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["uninstall", "claude-code", "--json"])
        .output()
        .unwrap();
    assert_eq!(ok(&out)["scope"], "user");
    assert!(!user.exists());
}

/// A folder with an executable named `name` in it, for PATH.
fn fake_program(env: &TestEnv, name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = env.home().join("fake-bin");
    fs::create_dir_all(&bin).unwrap();
    let path = bin.join(name);
    fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

#[test]
fn install_with_no_agent_wires_every_agent_found_and_names_the_rest() {
    let env = TestEnv::new();
    // Codex by its program on PATH, Gemini CLI by its user folder; nothing else is here.
    let bin = fake_program(&env, "codex");
    fs::create_dir_all(env.home().join(".gemini")).unwrap();
    let all = |args: &[&str]| {
        env.cmd()
            .env("PATH", &bin)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .args(args)
            .output()
            .unwrap()
    };
    let report = ok(&all(&["install", "--json"]));
    let wired: Vec<&str> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|doc| doc["agent"].as_str().unwrap())
        .collect();
    assert_eq!(wired, ["codex", "gemini"], "{report}");
    assert_eq!(report["found"][0]["by"], "program");
    assert_eq!(report["found"][1]["by"], "folder");
    for skipped in [
        "hermes",
        "claude-code",
        "cursor",
        "copilot",
        "droid",
        "qwen",
    ] {
        assert!(
            report["skipped"]
                .as_array()
                .unwrap()
                .contains(&Value::from(skipped)),
            "{report}"
        );
    }
    assert!(!commands(&env.home().join(".codex/config.toml")).is_empty());
    assert!(!commands(&env.home().join(".gemini/settings.json")).is_empty());
    // A second time, by a person: each agent's report, then what was wired and what was not.
    let out = all(&["install"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("Wired: Codex CLI, Gemini CLI."), "{shown}");
    assert!(
        shown.contains("Not found on this machine: Hermes, Claude Code,"),
        "{shown}"
    );
    // `uninstall --all` takes away every wiring of the level; a bare `uninstall` names none.
    let out = all(&["uninstall"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("or pass --all"), "{}", stderr(&out));
    let report = ok(&all(&["uninstall", "--all", "--json"]));
    assert_eq!(
        report["agents"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
    assert!(!env.home().join(".codex/config.toml").exists());
    let gemini = env.home().join(".gemini/settings.json");
    assert!(!gemini.exists() || commands(&gemini).is_empty());
}

#[test]
fn install_with_no_agent_found_says_where_it_looked_and_fails() {
    let env = TestEnv::new();
    let empty = env.home().join("empty-bin");
    fs::create_dir_all(&empty).unwrap();
    let out = env
        .cmd()
        .env("PATH", &empty)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .arg("install")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("No agent was found"), "{shown}");
}

/// A stand-in `claude` on PATH that says it is `version`, as Claude Code's `--version` does.
fn claude_of(env: &TestEnv, version: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = env.home().join("claude-bin");
    fs::create_dir_all(&bin).unwrap();
    fs::write(
        bin.join("claude"),
        format!("#!/bin/sh\necho '{version} (Claude Code)'\n"),
    )
    .unwrap();
    fs::set_permissions(bin.join("claude"), fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

#[test]
fn only_the_events_the_installed_claude_code_takes_are_written() {
    let env = TestEnv::new();
    let settings = env.work().join(".claude/settings.json");
    let install = |version: &str| {
        let out = env
            .cmd()
            .env("PATH", claude_of(&env, version))
            .args(["install", "claude-code", "--project", "--json"])
            .output()
            .unwrap();
        ok(&out)
    };
    let wired = || -> Vec<String> { commands(&settings).into_iter().map(|(e, _, _)| e).collect() };
    // The newest release takes the skill's shell command.
    let report = install("2.1.332");
    assert_eq!(report["version"], "2.1.332", "{report}");
    assert!(wired().contains(&"PreSkillShellCommand".to_owned()));
    // An older one warns about a key it does not know at every start: a new install takes it
    // out, and says from which release it comes.
    let report = install("2.1.197");
    assert!(
        !wired().contains(&"PreSkillShellCommand".to_owned()),
        "{:?}",
        wired()
    );
    assert!(wired().contains(&"PreToolUse".to_owned()));
    let left = report["left_out"].as_array().unwrap();
    assert_eq!(left.len(), 1, "{report}");
    assert_eq!(left[0]["event"], "PreSkillShellCommand");
    assert_eq!(left[0]["since"], "2.1.332");
    let out = env
        .cmd()
        .env("PATH", claude_of(&env, "2.1.197"))
        .args(["install", "claude-code", "--project"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains(
            "Left out: Claude Code 2.1.197 does not take PreSkillShellCommand from 2.1.332"
        ),
        "{shown}"
    );
    // Much older releases lack more: each from the release that brought it.
    install("2.0.50");
    let events = wired();
    for event in ["PostToolUseFailure", "PostCompact", "PreSkillShellCommand"] {
        assert!(!events.contains(&event.to_owned()), "{event}: {events:?}");
    }
    assert!(events.contains(&"SubagentStart".to_owned()));
    // Where the version cannot be read, the release the checks drive is assumed.
    let out = env
        .cmd()
        .env("PATH", env.home().join("nowhere"))
        .args(["install", "claude-code", "--project", "--json"])
        .output()
        .unwrap();
    let report = ok(&out);
    assert!(!wired().contains(&"PreSkillShellCommand".to_owned()));
    assert!(wired().contains(&"PostCompact".to_owned()));
    assert_eq!(
        report["version"], "2.1.197 (assumed: its version could not be read)",
        "{report}"
    );
}
