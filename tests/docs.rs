//! The pages under docs/ say what is true: their commands run as written (in a scratch home,
//! against the bundled example), their samples load, every `hermes-hooks ...` they quote parses
//! with today's flags, and the source map in docs/development.md names files that exist.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::TestEnv;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page(name: &str) -> String {
    std::fs::read_to_string(repo().join("docs").join(name)).unwrap()
}

/// The fenced blocks of `text` in `language`, in order.
fn blocks(text: &str, language: &str) -> Vec<String> {
    let fence = format!("```{language}\n");
    text.split(&fence)
        .skip(1)
        .map(|block| block.split("```").next().unwrap().to_owned())
        .collect()
}

/// The README and every page under docs/.
fn every_page() -> Vec<String> {
    let mut pages = vec![std::fs::read_to_string(repo().join("README.md")).unwrap()];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        pages.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    pages
}

fn bin() -> &'static Path {
    assert_cmd::cargo::cargo_bin!("hermes-hooks")
}

/// The binary, in the repository, with nothing of this machine's Hermes or agents and no audit
/// log (the example's home is part of the checkout).
fn tool(env: &TestEnv) -> Command {
    let mut cmd = Command::new(bin());
    cmd.current_dir(repo())
        .env("HOME", env.home())
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .env_remove("HERMES_HOME")
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_HOOKS_ACCEPT")
        .env_remove("HERMES_SAFE_MODE")
        .env_remove("CLAUDE_PROJECT_DIR");
    cmd
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// docs/agent-hooks.md's walk-through of the example project, as written: `cargo run -q --` is
/// the binary just built, and each line whose comment names an exit status exits with it.
#[test]
fn the_agent_hooks_walk_through_runs_as_written() {
    let block = &blocks(&page("agent-hooks.md"), "sh")[0];
    let mut script = String::new();
    let mut expected = Vec::new();
    for line in block
        .replace("cargo run -q --", &bin().display().to_string())
        .lines()
    {
        let status = line
            .split_once("# ")
            .and_then(|(code, comment)| Some((code, comment.rsplit_once("exit ")?.1)));
        if let Some((code, status)) = status {
            expected.push(format!("exit={}", status.trim()));
            writeln!(script, "{code}; echo \"exit=$?\"").unwrap();
        } else {
            writeln!(script, "{line}").unwrap();
        }
    }
    assert_eq!(expected.len(), 2, "{block}");
    let env = TestEnv::new();
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &script])
        .current_dir(repo())
        .env("HOME", env.home())
        .env("TMPDIR", env.root())
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .env_remove("HERMES_HOME")
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE")
        .output()
        .unwrap();
    let said = text(&out);
    let statuses: Vec<&str> = said.lines().filter(|l| l.starts_with("exit=")).collect();
    assert_eq!(statuses, expected, "{script}\n---\n{said}");
    assert!(
        said.contains("no-force-push") && said.contains("tests-before-stop"),
        "{said}"
    );
}

/// docs/agent-hooks.md's annotated HOOK.md is a hook that loads without a warning.
#[test]
fn the_annotated_hook_md_loads() {
    let frontmatter = &blocks(&page("agent-hooks.md"), "markdown")[0];
    let env = TestEnv::new();
    let folder = env.user_hooks().join("no-force-push");
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::write(folder.join("HOOK.md"), frontmatter).unwrap();
    env.script("unused.sh", "true");
    let run = folder.join("scripts/run");
    std::fs::write(&run, "#!/bin/sh\ncat >/dev/null\n").unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&run).unwrap().permissions(),
        0o755,
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["warnings"].as_array().map(Vec::len), Some(0), "{list}");
    let hook = list["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "no-force-push")
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(hook["timeout_ms"], 5000, "{hook}");
}

/// docs/configuration.md's config sample loads whole, and its payload sample gets the answer
/// the page shows (from the bundled example's guard).
#[test]
fn the_configuration_samples_load_and_answer_as_shown() {
    let doc = page("configuration.md");
    let env = TestEnv::new();
    env.config(&blocks(&doc, "yaml")[0]);
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["warnings"].as_array().map(Vec::len), Some(0), "{list}");
    let events: Vec<&str> = list["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["event"].as_str())
        .collect();
    assert_eq!(events, ["pre_tool_call", "pre_llm_call"], "{list}");

    let json = blocks(&doc, "json");
    let payload = env.path("payload.json");
    std::fs::write(&payload, &json[0]).unwrap();
    let out = tool(&env)
        .args([
            "--hermes-home",
            "examples/hermes-home",
            "run",
            "pre_tool_call",
        ])
        .arg("--payload-file")
        .arg(&payload)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown: Value = serde_json::from_str(&json[1]).unwrap();
    for key in ["event", "action", "message"] {
        assert_eq!(got[key], shown[key], "{key}: {got}");
    }
    assert_eq!(got["hooks"][0]["status"], shown["hooks"][0]["status"]);
}

/// docs/rules.md's annotated rule loads as a rules file with no mistake, and so does the
/// list-of-conditions form it shows.
#[test]
fn the_rules_samples_load() {
    let doc = page("rules.md");
    let yaml = blocks(&doc, "yaml");
    let either = format!(
        "rules:\n- name: pipe-to-shell\n  tool: shell\n{}  message: Not piped into a shell.\n",
        yaml[1]
    );
    for rules in [yaml[0].clone(), either] {
        let env = TestEnv::new();
        let folder = env.hermes_home().join("hermes-hooks");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("rules.yaml"), &rules).unwrap();
        let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
        let said = text(&out);
        let doctor: Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{rules}\n---\n{said}"));
        let errors: Vec<&Value> = doctor["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["level"] == "error"
                    && f["at"].as_str().is_some_and(|at| at.contains("rules.yaml"))
            })
            .collect();
        assert!(errors.is_empty(), "{rules}\n---\n{errors:?}");
    }
}

/// docs/serve.md's exchange, as shown (`[...]` stands for the hooks' list).
#[test]
fn the_serve_exchange_is_as_shown() {
    let block = &blocks(&page("serve.md"), "console")[0];
    let lines: Vec<&str> = block.lines().skip(1).collect();
    let requests = lines
        .iter()
        .step_by(2)
        .fold(String::new(), |mut all, line| {
            writeln!(all, "{line}").unwrap();
            all
        });
    let env = TestEnv::new();
    let mut child = tool(&env)
        .args(["--hermes-home", "examples/hermes-home", "serve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), requests.as_bytes()).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let answers: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    let shown: Vec<&str> = lines.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(answers.len(), shown.len(), "{}", text(&out));
    for (got, shown) in answers.iter().zip(shown) {
        let (head, _) = shown.split_once("\"hooks\":[...]").unwrap();
        assert!(got.starts_with(head), "{got}\nshown: {shown}");
    }
}

/// docs/hermes.md's `install hermes` writes the plugin where the page says; the config sample
/// there loads. (`hermes plugins enable` is Hermes's own command: the interop suite runs it.)
#[test]
fn the_hermes_page_installs_and_its_sample_loads() {
    let doc = page("hermes.md");
    let console = &blocks(&doc, "console")[0];
    let install = console.lines().next().unwrap();
    let words: Vec<&str> = install
        .trim_start_matches("$ ")
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(words[..2], ["hermes-hooks", "install"]);
    let env = TestEnv::new();
    let out = env.cmd().args(&words[1..]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        env.hermes_home()
            .join("plugins/hermes-hooks/plugin.yaml")
            .is_file()
    );

    let env = TestEnv::new();
    env.config(&blocks(&doc, "yaml")[0]);
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["hooks"].as_array().map(Vec::len), Some(2), "{list}");
}

/// docs/agents.md's first commands wire every agent found (here Claude Code, on PATH) and then
/// Claude Code by name, in the user's settings; the settings it shows for Claude Code, Gemini
/// and Copilot route to events those agents have.
#[test]
fn the_agents_page_installs_and_its_settings_route_to_real_events() {
    use std::os::unix::fs::PermissionsExt as _;
    let doc = page("agents.md");
    let env = TestEnv::new();
    let bin = env.path("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("claude"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    for line in blocks(&doc, "sh")[0].lines() {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        assert_eq!(words[..2], ["hermes-hooks", "install"], "{line}");
        let out = env
            .cmd()
            .env("PATH", &bin)
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(&words[1..])
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {}", text(&out));
    }
    assert!(env.home().join(".claude/settings.json").is_file());
    assert!(!env.work().join(".claude").exists());

    for sample in blocks(&doc, "json") {
        let settings: Value = serde_json::from_str(&sample).unwrap();
        let text = settings.to_string();
        let at = text.find("run --agent ").unwrap();
        let words: Vec<&str> = text[at..]
            .split('"')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        let out = tool(&env)
            .args(["run", "--dry-run", "--agent", words[2], words[3]])
            .output()
            .unwrap();
        assert!(
            out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("unknown"),
            "{sample}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every `hermes-hooks ...` the README and the docs quote in backticks parses with today's
/// command line (placeholders such as `<event>` and `...` aside).
#[test]
fn every_quoted_command_parses() {
    let pages = every_page();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for text in &pages {
        for (i, quoted) in text.split('`').enumerate() {
            let quoted = quoted.trim();
            if i % 2 == 0
                || !quoted.starts_with("hermes-hooks ")
                || quoted.contains(['<', '[', '|', '$', '\n', '*'])
                || quoted.contains("...")
                || quoted.contains('…')
            {
                continue;
            }
            let Some(words) = shlex::split(quoted) else {
                continue;
            };
            // A placeholder in capitals (EVENT, NAME) stands for a value.
            if words
                .iter()
                .any(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
            {
                continue;
            }
            checked += 1;
            // A command named without its value (`hermes-hooks run`) is a mention, not a call.
            if let Err(err) = hermes_hooks::command().try_get_matches_from(&words)
                && err.kind() != clap::error::ErrorKind::MissingRequiredArgument
            {
                wrong.push(format!("{quoted}: {}", err.kind()));
            }
        }
    }
    assert!(checked > 30, "only {checked} commands found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every source file or folder the README and the docs name (`src/...`, `tests/...`,
/// `benches/...`) exists, docs/development.md's map of the source first among them.
#[test]
fn every_source_path_named_exists() {
    let pages = every_page();
    let mut named = 0;
    let mut missing = Vec::new();
    for text in &pages {
        for word in text.split(|c: char| c.is_whitespace() || "`()[],;:\"'".contains(c)) {
            let path = word.trim_end_matches('.');
            let source = ["src/", "tests/", "benches/"]
                .iter()
                .any(|top| path.starts_with(top));
            // `src/app/` stands for a subfolder of the reader's own project.
            if !source || path.contains(['<', '*']) || path == "src/app/" {
                continue;
            }
            named += 1;
            if !repo().join(path).exists() {
                missing.push(path.to_owned());
            }
        }
    }
    assert!(named > 50, "only {named} paths found");
    assert!(missing.is_empty(), "named but missing: {missing:?}");
}

/// The README's own rule (`no-prod-db`), approved: it blocks what its comment says in Claude
/// Code's shell and in Hermes's, and lets `--read-only` through.
#[test]
fn the_readmes_rule_guards_every_agents_shell() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let rules = blocks(&readme, "yaml")
        .into_iter()
        .find(|block| block.contains("no-prod-db"))
        .unwrap();
    let env = TestEnv::new();
    let folder = env.hermes_home().join("hermes-hooks");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("rules.yaml"), &rules).unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    for (agent, event, tool) in [
        ("claude-code", "PreToolUse", "Bash"),
        ("hermes", "pre_tool_call", "terminal"),
        ("gemini", "BeforeTool", "run_shell_command"),
    ] {
        let call = |command: &str| {
            let payload = serde_json::json!({
                "hook_event_name": event, "tool_name": tool,
                "tool_input": {"command": command}, "session_id": "s",
            });
            env.cmd()
                .args(["run", "--agent", agent, event])
                .write_stdin(payload.to_string())
                .output()
                .unwrap()
        };
        let blocked = text(&call("psql -h prod -c 'select 1'"));
        assert!(
            blocked.contains("The production database is off limits here."),
            "{agent}: {blocked}"
        );
        let read_only = text(&call("psql -h prod --read-only -c 'select 1'"));
        assert!(!read_only.contains("off limits"), "{agent}: {read_only}");
    }
}

/// Each fenced example of the README and the pages under docs/, by its first line: the test
/// that runs it as written, or why it is not run here. An example added without a line here
/// fails, and so does a line whose example is gone.
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "pip install hermes-hooks        # or: npm",
        "not run: fetches from a package registry; packaging/check.sh installs the built packages and runs setup's steps",
    ),
    (
        "README.md",
        "# 1. Run the bundled example",
        "example::blocks_rm_rf_with_the_committed_approval_and_writes_nothing (the first line; the second is the suite itself)",
    ),
    (
        "README.md",
        "{\"event\":\"pre_tool_call\",\"action\":\"block\"",
        "example::blocks_rm_rf_with_the_committed_approval_and_writes_nothing",
    ),
    (
        "README.md",
        "pip install hermes-hooks          # or: pipx",
        "not run: fetches from a package registry; packaging/check.sh installs the built packages",
    ),
    (
        "README.md",
        "cargo install --path .",
        "not run: compiles the whole tool again; CI builds it",
    ),
    (
        "README.md",
        "hermes-hooks setup      #",
        "example::the_readme_rules_walk_through_works_as_written",
    ),
    (
        "README.md",
        "hermes-hooks new --rules destructive",
        "example::the_readme_rules_walk_through_works_as_written",
    ),
    (
        "README.md",
        "echo '{\"tool_name\": \"Bash\"",
        "example::the_readme_rules_walk_through_works_as_written",
    ),
    (
        "README.md",
        "rules:",
        "docs::the_readmes_rule_guards_every_agents_shell",
    ),
    (
        "README.md",
        "export HERMES_HOME=$(mktemp -d)",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "mkdir -p \"$HERMES_HOME/agent-hooks\"",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "hermes-hooks list ",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "mkdir -p .agents/hooks/no-force-push/scripts",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "hermes-hooks new log-subagents",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "hermes-hooks doctor ",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "hermes-hooks doctor --strict --accept-hooks",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "README.md",
        "# Every hook: scripts, config mistakes",
        "example::the_readme_walk_through_works_as_written",
    ),
    (
        "docs/agent-hooks.md",
        "~/.config/agents/hooks/<name>/HOOK.md",
        "not run: a map of folders, not a command",
    ),
    (
        "docs/agent-hooks.md",
        "---",
        "docs::the_annotated_hook_md_loads",
    ),
    (
        "docs/agent-hooks.md",
        "home=$(mktemp -d)",
        "docs::the_agent_hooks_walk_through_runs_as_written",
    ),
    (
        "docs/agents.md",
        "hermes-hooks install ",
        "docs::the_agents_page_installs_and_its_settings_route_to_real_events",
    ),
    (
        "docs/agents.md",
        "{\"hooks\": {\"PreToolUse\"",
        "docs::the_agents_page_installs_and_its_settings_route_to_real_events",
    ),
    (
        "docs/agents.md",
        "{\"hooks\": {\"BeforeTool\"",
        "docs::the_agents_page_installs_and_its_settings_route_to_real_events",
    ),
    (
        "docs/agents.md",
        "{\"version\": 1, \"hooks\": {\"preToolUse\"",
        "docs::the_agents_page_installs_and_its_settings_route_to_real_events",
    ),
    (
        "docs/configuration.md",
        "hooks:",
        "docs::the_configuration_samples_load_and_answer_as_shown",
    ),
    (
        "docs/configuration.md",
        "{\"hook_event_name\": \"pre_tool_call\"",
        "docs::the_configuration_samples_load_and_answer_as_shown",
    ),
    (
        "docs/configuration.md",
        "{\"event\":\"pre_tool_call\",\"action\":\"block\"",
        "docs::the_configuration_samples_load_and_answer_as_shown",
    ),
    (
        "docs/development.md",
        "floor            folder",
        "docs::every_source_path_named_exists",
    ),
    (
        "docs/hermes.md",
        "$ hermes-hooks install hermes",
        "docs::the_hermes_page_installs_and_its_sample_loads",
    ),
    (
        "docs/hermes.md",
        "hooks:",
        "docs::the_hermes_page_installs_and_its_sample_loads",
    ),
    ("docs/rules.md", "rules:", "docs::the_rules_samples_load"),
    ("docs/rules.md", "  when:", "docs::the_rules_samples_load"),
    (
        "docs/serve.md",
        "$ hermes-hooks serve",
        "docs::the_serve_exchange_is_as_shown",
    ),
];

#[test]
fn every_fenced_example_is_run_or_says_why_not() {
    let mut pages = vec!["README.md".to_owned()];
    let mut names: Vec<String> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|entry| format!("docs/{}", entry.unwrap().file_name().to_string_lossy()))
        .collect();
    names.sort();
    pages.extend(names);
    let mut found: Vec<(String, String)> = Vec::new();
    for name in &pages {
        let text = std::fs::read_to_string(repo().join(name)).unwrap();
        let mut inside = false;
        let mut first: Option<String> = None;
        for line in text.lines() {
            if line.starts_with("```") {
                if inside {
                    found.push((name.clone(), first.take().unwrap_or_default()));
                }
                inside = !inside;
            } else if inside && first.is_none() && !line.trim().is_empty() {
                first = Some(line.to_owned());
            }
        }
    }
    let covered = |(page, line): &(String, String)| {
        EXAMPLES
            .iter()
            .any(|(p, start, _)| p == page && line.starts_with(start))
    };
    let missing: Vec<&(String, String)> =
        found.iter().filter(|example| !covered(example)).collect();
    assert!(
        missing.is_empty(),
        "examples no test runs (add a test, or a line to EXAMPLES saying why not): {missing:#?}"
    );
    for (page, start, by) in EXAMPLES {
        assert!(
            found
                .iter()
                .any(|(p, line)| p == page && line.starts_with(start)),
            "{page}: no example starts with {start:?} any more"
        );
        // The test named is there.
        if let Some(test) = by.split_whitespace().next().filter(|t| t.contains("::")) {
            let (file, name) = test.split_once("::").unwrap();
            let source =
                std::fs::read_to_string(repo().join("tests").join(format!("{file}.rs"))).unwrap();
            assert!(
                source.contains(&format!("fn {name}(")),
                "{test} does not exist"
            );
        }
    }
}
