//! Shell completion through the binary: the script `completions bash` prints, loaded into bash,
//! offers what the command line and the hook set hold; the README's install line works on a
//! fresh home.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{PROMPTLY, TestEnv, code};

/// A word as bash reads it back: between single quotes.
fn sh_quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// `PATH` with the binary first, then the system's tools.
fn path_with_binary() -> String {
    let bin = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    format!("{}:/usr/bin:/bin", bin.parent().unwrap().display())
}

/// bash with the test's home and working directory, and the binary on `PATH`.
fn bash(env: &TestEnv) -> Command {
    let mut cmd = Command::new("bash");
    for name in [
        "HERMES_HOME",
        "HERMES_ACCEPT_HOOKS",
        "XDG_CONFIG_HOME",
        "COMPLETE",
    ] {
        cmd.env_remove(name);
    }
    cmd.env("HOME", env.home())
        .env("HERMES_MANAGED_DIR", env.managed_dir())
        .env("PATH", path_with_binary())
        .current_dir(env.work());
    cmd
}

/// What bash offers when Tab is pressed after `words` (the last one being completed, as typed:
/// quotes and all), with the script `completions bash` prints loaded as a user's shell loads it.
fn bash_offers(env: &TestEnv, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|word| sh_quoted(word)).collect();
    let program = format!(
        r#"source <(hermes-hooks completions bash)
COMP_WORDS=({words})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
function=$(complete -p hermes-hooks | sed -E 's/.* -F ([^ ]+) .*/\1/')
"$function" hermes-hooks "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        words = quoted.join(" ")
    );
    let out = bash(env)
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Each event's name, as `events --json` lists them: the canonical one, else (for an event only
/// Agent Hooks have) its one Agent Hooks name.
fn canonical_names(env: &TestEnv) -> Vec<String> {
    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let table: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    table["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| {
            let name = event["canonical"].as_str().or(event["aliases"][0].as_str());
            name.unwrap().to_owned()
        })
        .collect()
}

#[test]
fn bash_completes_subcommands_their_flags_and_fixed_values() {
    let env = TestEnv::new();
    let offers = |words: &[&str]| bash_offers(&env, words);
    assert_eq!(offers(&["hermes-hooks", "ru"]), ["run"]);
    assert_eq!(offers(&["hermes-hooks", "comp"]), ["completions"]);
    // A subcommand by its name; an alias once only it fits.
    assert_eq!(offers(&["hermes-hooks", "re"]), ["revoke"]);
    assert_eq!(offers(&["hermes-hooks", "rm"]), ["rm"]);
    let flags = offers(&["hermes-hooks", "doctor", "--"]);
    for flag in ["--strict", "--no-exec", "--json", "--hermes-home"] {
        assert!(flags.iter().any(|f| f == flag), "{flag} in {flags:?}");
    }
    assert_eq!(
        offers(&["hermes-hooks", "test", "pre_tool_call", "--expect", ""]),
        [
            "block", "ask", "modify", "context", "continue", "text", "none"
        ]
    );
    assert_eq!(
        offers(&["hermes-hooks", "list", "--color", ""]),
        ["auto", "always", "never"]
    );
    assert_eq!(
        offers(&["hermes-hooks", "new", "x", "--lang", ""]),
        ["sh", "python"]
    );
    assert_eq!(
        offers(&["hermes-hooks", "log", "--status", "time"]),
        ["timed_out"]
    );
    assert_eq!(
        offers(&["hermes-hooks", "new", "--rules", "se"]),
        ["services", "secrets", "secret-stores"]
    );
    assert_eq!(
        offers(&["hermes-hooks", "new", "--rules", "git-discard,c"]),
        ["git-discard,containers", "git-discard,cloud"]
    );
    assert!(offers(&["hermes-hooks", "new", "--rules", ""]).starts_with(&["all".to_owned()]));
    let new = offers(&["hermes-hooks", "new", "x", "--"]);
    for flag in ["--event", "--matcher", "--project", "--user", "--config"] {
        assert!(new.iter().any(|f| f == flag), "{flag} in {new:?}");
    }
}

#[test]
fn an_event_completes_to_canonical_names_and_to_other_spellings_only_when_typed() {
    let env = TestEnv::new();
    let offers = |words: &[&str]| bash_offers(&env, words);
    // Nothing typed: each event once, by its canonical name, and no flags.
    assert_eq!(offers(&["hermes-hooks", "run", ""]), canonical_names(&env));
    // A prefix of Claude Code's names: those names.
    let claude = offers(&["hermes-hooks", "run", "Pre"]);
    assert!(
        claude.contains(&"PreToolUse".to_owned()) && claude.iter().all(|n| n.starts_with("Pre")),
        "{claude:?}"
    );
    assert_eq!(
        offers(&["hermes-hooks", "events", "PreTool"]),
        ["PreToolUse"]
    );
    // A prefix of canonical names: only those.
    let canonical = offers(&["hermes-hooks", "run", "pre_"]);
    assert!(
        canonical.contains(&"pre_tool_call".to_owned()),
        "{canonical:?}"
    );
    assert!(
        canonical.iter().all(|n| n.starts_with("pre_")),
        "{canonical:?}"
    );
    // A word in Agent Hooks spelling: Agent Hooks names, wherever an event is named.
    let kebab = offers(&["hermes-hooks", "list", "--event", "pre-tool"]);
    assert_eq!(kebab, ["pre-tool-call"]);
    // Flags still complete after the event.
    let flags = offers(&["hermes-hooks", "run", "pre_tool_call", "--d"]);
    assert_eq!(flags, ["--dry-run"]);
}

/// A config hook, an Agent Hooks hook, and an approval of a command no longer declared.
fn hook_set(env: &TestEnv) {
    env.script("guard.sh", "exit 0");
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n");
    env.hook_md(
        &env.user_hooks(),
        "no-secrets",
        "name: no-secrets\ndescription: Keeps secrets out\ntrigger: pre-tool-call\n",
        "exit 0",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/old.sh");
}

#[test]
fn approve_and_revoke_complete_the_hooks_list_shows() {
    let env = TestEnv::new();
    hook_set(&env);
    let mut approve = bash_offers(&env, &["hermes-hooks", "approve", ""]);
    approve.sort();
    // A `~` is kept as written (quoted), as the command is declared and approved.
    assert_eq!(approve, ["'~/.hermes/agent-hooks/guard.sh'", "no-secrets"]);
    assert_eq!(
        bash_offers(&env, &["hermes-hooks", "approve", "no"]),
        ["no-secrets"]
    );
    // `revoke` also takes a command as approved, declared or not.
    let mut revoke = bash_offers(&env, &["hermes-hooks", "revoke", "~"]);
    revoke.sort();
    assert_eq!(
        revoke,
        [
            "'~/.hermes/agent-hooks/guard.sh'",
            "'~/.hermes/agent-hooks/old.sh'"
        ]
    );
    // The global flags typed before the hook choose the hooks read, as in the command.
    let other = TestEnv::new();
    other.config("hooks:\n  on_session_end:\n    - command: elsewhere.sh\n");
    let home = other.hermes_home().display().to_string();
    let chosen = bash_offers(
        &env,
        &["hermes-hooks", "--hermes-home", &home, "approve", ""],
    );
    assert!(
        chosen.contains(&"elsewhere.sh".to_owned())
            && !chosen.contains(&"'~/.hermes/agent-hooks/guard.sh'".to_owned()),
        "{chosen:?}"
    );
}

#[test]
fn a_word_that_reads_as_an_option_is_never_offered_for_approve_or_revoke() {
    // Completing `approve <TAB>` to `--yes` would approve every hook.
    let env = TestEnv::new();
    hook_set(&env);
    env.config("hooks:\n  pre_tool_call:\n    - command: --yes\n    - command: -a\n");
    env.hook_md(
        &env.user_hooks(),
        "yes",
        "name: --yes\ndescription: d\ntrigger: pre-tool-call\n",
        "exit 0",
    );
    env.approve("pre_tool_call", "--all");
    assert_eq!(
        bash_offers(&env, &["hermes-hooks", "approve", ""]),
        ["no-secrets"],
        "the other hooks are still offered"
    );
    let mut revoke = bash_offers(&env, &["hermes-hooks", "revoke", ""]);
    revoke.sort();
    assert_eq!(revoke, ["'~/.hermes/agent-hooks/old.sh'", "no-secrets"]);
    // `revoke` has no flag `--all`: only a hook could complete to it.
    let flags = bash_offers(&env, &["hermes-hooks", "revoke", "--al"]);
    assert!(!flags.iter().any(|w| w.contains("--all")), "{flags:?}");
}

#[test]
fn a_config_that_cannot_be_read_completes_the_other_hooks() {
    let env = TestEnv::new();
    hook_set(&env);
    env.config("hooks: [");
    assert_eq!(
        bash_offers(&env, &["hermes-hooks", "approve", ""]),
        ["no-secrets"]
    );
}

#[test]
fn a_hostile_hook_command_is_offered_as_one_quoted_word() {
    let env = TestEnv::new();
    let marker = env.path("pwned");
    let hostile = format!(
        "x $(touch {}) *; touch {}",
        marker.display(),
        marker.display()
    );
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: '{hostile}'\n    - command: \"y\\ntouch {}\"\n",
        marker.display()
    ));
    std::fs::write(env.work().join("x-file"), "").unwrap();
    let offered = bash_offers(&env, &["hermes-hooks", "approve", ""]);
    // The command with a line break cannot be typed as one word: it is left out.
    assert_eq!(offered.len(), 1, "{offered:?}");
    // The word bash would insert reads back, as the shell parses it, as the command exactly,
    // and running it as a line does nothing but print it.
    let out = bash(&env)
        .args([
            "--norc",
            "--noprofile",
            "-c",
            &format!("printf '%s\\n' {}", offered[0]),
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{hostile}\n"));
    assert!(!marker.exists());
    // Typed with an opening quote, the word still completes.
    let typed = bash_offers(&env, &["hermes-hooks", "approve", "'x $("]);
    assert_eq!(typed, offered);
}

#[test]
fn a_hook_command_like_a_file_pattern_is_offered_as_written() {
    let env = TestEnv::new();
    env.config("hooks:\n  pre_tool_call:\n    - command: '*'\n");
    // A file the quoted pattern `'*'` would match, were bash to expand it.
    std::fs::write(env.work().join("'; touch pwned; '"), "").unwrap();
    assert_eq!(bash_offers(&env, &["hermes-hooks", "approve", ""]), ["'*'"]);
}

#[test]
fn a_completion_variable_left_in_the_environment_does_not_switch_off_a_guard() {
    let env = TestEnv::new();
    env.script("deny.sh", r#"echo '{"decision": "block", "reason": "no"}'"#);
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/deny.sh\n");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/deny.sh");
    let out = env
        .cmd()
        .args(["run", "pre_tool_call"])
        .env("COMPLETE", "bash")
        .write_stdin(r#"{"tool_name": "terminal", "tool_input": {"command": "ls"}}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
}

/// The README's line that sets up bash completion.
fn readme_install_line() -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("## Install").unwrap();
    let section = &readme[start..start + readme[start..].find("\n## ").unwrap()];
    section
        .lines()
        .find(|line| line.contains("completions bash"))
        .unwrap()
        .to_owned()
}

/// A tmux server of its own (ended when dropped), running a shell for `home` in `env`'s working
/// directory, with the binary on `PATH`.
struct Tmux {
    socket: PathBuf,
    home: PathBuf,
    work: PathBuf,
}

impl Tmux {
    fn start(env: &TestEnv, home: &Path, shell: &str) -> Self {
        let tmux = Self {
            socket: env.root().join("tmux.sock"),
            home: home.to_owned(),
            work: env.work(),
        };
        let size = ["-x", "200", "-y", "50"];
        tmux.run(
            &["-f", "/dev/null", "new-session", "-d", "-s", "t"]
                .into_iter()
                .chain(size)
                .chain([shell])
                .collect::<Vec<_>>(),
        );
        tmux
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env("HOME", &self.home)
            .env("PATH", path_with_binary())
            .env("TERM", "xterm")
            .env_remove("TMUX")
            .current_dir(&self.work)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        self.run(&[&["send-keys", "-t", "t"][..], keys].concat());
    }

    /// Waits until the screen shows `text` (anything, when it is empty), and returns the screen.
    fn shows(&self, text: &str) -> String {
        let until = std::time::Instant::now() + PROMPTLY;
        loop {
            let screen = self.run(&["capture-pane", "-p", "-t", "t"]);
            if screen.contains(text) && !screen.trim().is_empty() {
                return screen;
            }
            assert!(std::time::Instant::now() < until, "no {text:?} on {screen}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[test]
fn the_readme_install_line_sets_up_completion_on_a_fresh_home() {
    let env = TestEnv::new();
    let home = env.root().join("fresh-home");
    std::fs::create_dir(&home).unwrap();
    let line = readme_install_line();
    let out = bash(&env)
        .env("HOME", &home)
        .args(["--norc", "--noprofile", "-c", &format!("set -e\n{line}")])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A new interactive shell of that user, on a terminal, without the bash-completion package.
    let rcfile = home.join(".bashrc");
    let shell = format!("bash --noprofile --rcfile {} -i", rcfile.display());
    if Command::new("tmux").arg("-V").output().is_err() {
        crate::common::say_skipped("tmux is not installed: the interactive shell is not tried");
        return;
    }
    let tmux = Tmux::start(&env, &home, &shell);
    tmux.shows("");
    tmux.keys(&["hermes-hooks ru", "Tab"]);
    tmux.shows("hermes-hooks run");
    // The space after `run` came with the completion.
    tmux.keys(&["PreTo", "Tab"]);
    tmux.shows("hermes-hooks run PreToolUse");
}

/// After `run --agent X`, an event completes to that agent's own names only.
#[test]
fn run_with_an_agent_completes_that_agents_event_names() {
    let env = TestEnv::new();
    let offered = bash_offers(
        &env,
        &["hermes-hooks", "run", "--agent", "claude-code", "Pre"],
    );
    for name in ["PreToolUse", "PreSkillShellCommand", "PreCompact"] {
        assert!(offered.contains(&name.to_owned()), "{offered:?}");
    }
    assert!(
        !offered.iter().any(|name| name.contains('_')),
        "{offered:?}"
    );
    assert!(
        !offered.contains(&"PreCompress".to_owned()),
        "Gemini's: {offered:?}"
    );
    let offered = bash_offers(&env, &["hermes-hooks", "run", "--agent=gemini", "Pre"]);
    assert!(offered.contains(&"PreCompress".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"PreToolUse".to_owned()), "{offered:?}");
    let offered = bash_offers(&env, &["hermes-hooks", "run", "--agent=gemini", "B"]);
    assert!(offered.contains(&"BeforeTool".to_owned()), "{offered:?}");
    assert!(
        !offered.contains(&"beforeShellExecution".to_owned()),
        "{offered:?}"
    );
    let offered = bash_offers(&env, &["hermes-hooks", "run", "--agent", "cursor", "b"]);
    assert!(
        offered.contains(&"beforeShellExecution".to_owned()),
        "{offered:?}"
    );
    assert!(!offered.contains(&"BeforeTool".to_owned()), "{offered:?}");
}
