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
