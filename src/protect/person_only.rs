//! The commands only a person may run, whatever the folder: hermes-hooks's approving and
//! wiring commands, an interpreter's code that runs them, and each agent's own way to start
//! or go on without its hooks.

use serde_json::{Map, Value};

use crate::shell::{Command, Unknown};

/// What in the command's text (not its reading) is only a person's to run: setting
/// `HERMES_HOOKS_ACCEPT` or `HERMES_HOOKS_DEPTH`, and an assignment in front of a command (which
/// the reading drops) that starts OpenCode or Kilo Code with no plugin.
pub(super) fn raw_text_person_only(input: Option<&Map<String, Value>>) -> Option<String> {
    let text = raw_command(input)?;
    if text.contains("HERMES_HOOKS_ACCEPT=") {
        return Some("a command that sets HERMES_HOOKS_ACCEPT (approving on the spot)".to_owned());
    }
    if text.contains(&format!("{}=", crate::ground::env::HERMES_HOOKS_DEPTH)) {
        return Some(format!(
            "a command that sets {} (hermes-hooks then refuses to run the hooks of what it starts)",
            crate::ground::env::HERMES_HOOKS_DEPTH
        ));
    }
    ["OPENCODE_PURE", "KILO_PURE"]
        .into_iter()
        .find(|name| text.contains(&format!("{name}=")))
        .map(|name| format!("a command that sets {name} (an agent started with no plugin)"))
}

/// The shell command as given (a string), for what the reading leaves out.
fn raw_command(input: Option<&Map<String, Value>>) -> Option<&str> {
    input?.get("command")?.as_str()
}

/// Why `command` is only a person's to run: `hermes-hooks approve`, `revoke`, `install`,
/// `uninstall`, `new --rules`, or any with `--accept-hooks`; or an agent's own command that turns
/// its hooks off (see [`switches_hooks_off`]).
pub(super) fn person_only(command: &Command) -> Option<&'static str> {
    if switches_hooks_off(command) {
        return Some("turns an agent's hooks off, a person's decision");
    }
    // Its own words: after the program, or after the package a runner fetches and starts
    // (`npx hermes-hooks@latest approve`, `pipx run hermes-hooks approve`, `uv tool run ...`).
    let words: &[String] = if matches!(command.program.as_str(), "hermes-hooks" | "hermes_hooks") {
        &command.args
    } else if RUNNERS.contains(&command.program.as_str())
        && let Some(at) = command.args.iter().position(|arg| is_ours(arg))
    {
        &command.args[at + 1..]
    } else if matches!(command.unknown, Some(Unknown::Program(_))) {
        // A program known only when it runs (`$(which hermes-hooks) approve`, `$h revoke`),
        // given the words of a command only a person may run: taken as ours.
        let first = command.args.iter().find(|arg| !arg.starts_with('-'));
        let ours = command.args.iter().any(|arg| arg == "--accept-hooks")
            || first
                .is_some_and(|word| matches!(word.as_str(), "approve" | "revoke" | "uninstall"));
        if !ours {
            return None;
        }
        &command.args
    } else {
        return None;
    };
    if words.iter().any(|arg| arg == "--accept-hooks") {
        return Some("approves hooks on the spot (`--accept-hooks`)");
    }
    let sub = words.iter().find(|arg| !arg.starts_with('-'))?;
    match sub.as_str() {
        "approve" => Some("approves hooks, a person's decision"),
        "revoke" => Some("revokes approvals, a person's decision"),
        "install" => Some("changes an agent's wiring, a person's decision"),
        "uninstall" => Some("unwires an agent, a person's decision"),
        "setup" => Some("approves rules and wires agents, a person's decision"),
        "new"
            if words
                .iter()
                .any(|arg| arg == "--rules" || arg.starts_with("--rules=")) =>
        {
            Some("adds a rules pack, a person's decision")
        }
        _ => None,
    }
}

/// The programs that fetch a package and start its program with the words after it.
const RUNNERS: &[&str] = &[
    "npx", "pnpx", "bunx", "uvx", "pipx", "npm", "pnpm", "yarn", "bun", "uv", "pip-run",
];

/// Whether a runner's word names this package (`hermes-hooks`, `hermes-hooks@1.2`,
/// `hermes_hooks==1.2`).
fn is_ours(word: &str) -> bool {
    ["hermes-hooks", "hermes_hooks"].iter().any(|name| {
        word.strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['@', '=', '<', '>', '~', '[']))
    })
}

/// The programs that run text they are given as a command, with no shell word for it to be
/// read by: a terminal recorder or multiplexer, a remote or sandboxed shell, a scheduler.
const RUN_TEXT: &[&str] = &[
    "script",
    "expect",
    "tmux",
    "screen",
    "ssh",
    "sshpass",
    "systemd-run",
    "at",
    "batch",
    "xvfb-run",
    "dbus-run-session",
    "bwrap",
    "firejail",
    "unshare",
    "nsenter",
    "chroot",
    "sg",
    "flatpak-spawn",
    "distrobox-enter",
    "toolbox",
    "nix-shell",
    "nix",
    "direnv",
    "poetry",
    "pipenv",
    "conda",
    "mamba",
    "micromamba",
    "pixi",
];

/// Why `command`, an interpreter given code on its command line (`python3 -c`, `node -e`,
/// `perl -e`, ...), is only a person's to run: the code names hermes-hooks with a command only a
/// person may run (`os.system("hermes-hooks revoke ...")`). The shell reader cannot follow a
/// program's own code, so the code is read as text; without a person-only word it goes on.
pub(super) fn runs_ours_inside(command: &Command) -> Option<&'static str> {
    let program = command.program.rsplit('/').next().unwrap_or_default();
    let interpreter = RUN_TEXT.contains(&program)
        || RUNNERS.contains(&program)
        || program.starts_with("python")
        || program.starts_with("pypy")
        || matches!(
            program,
            "node"
                | "nodejs"
                | "deno"
                | "bun"
                | "perl"
                | "ruby"
                | "php"
                | "lua"
                | "Rscript"
                | "osascript"
                | "tclsh"
                | "pwsh"
                | "powershell"
                | "awk"
                | "gawk"
        );
    if !interpreter {
        return None;
    }
    let code = command.args.join(" ");
    let at = code
        .find("hermes-hooks")
        .or_else(|| code.find("hermes_hooks"))?;
    let after = &code[at..];
    let person = [
        "approve",
        "revoke",
        "install",
        "uninstall",
        "setup",
        "--accept-hooks",
        "--rules",
    ];
    after
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .any(|word| person.contains(&word))
        .then_some("runs hermes-hooks from a program's code with a command only a person may run")
}

/// Whether `command` is an agent's own way to run without hooks: `codex features disable
/// hooks` (or `--disable hooks`, `-c features.hooks=false`, a session started so),
/// `hermes plugins disable|remove|uninstall hermes-hooks`, `hermes config set|unset hooks...`
/// or `hermes config edit`, a `claude` given settings with
/// `disableAllHooks`, OpenCode or Kilo started `--pure` (or a command given the variable that
/// means it, as `export` is; an assignment in front of a command is found in the raw text),
/// Pi started `--no-extensions`: each runs the agent with no plugin.
fn switches_hooks_off(command: &Command) -> bool {
    let has = |word: &str| command.args.iter().any(|arg| arg == word);
    let mentions = |text: &str| command.args.iter().any(|arg| arg.contains(text));
    if [
        "OPENCODE_PURE",
        "KILO_PURE",
        crate::ground::env::HERMES_HOOKS_DEPTH,
    ]
    .iter()
    .any(|name| mentions(name))
    {
        return true;
    }
    match command.program.as_str() {
        "opencode" | "kilo" | "kilocode" => has("--pure"),
        "pi" => has("--no-extensions"),
        "codex" => {
            ((has("disable") || has("--disable")) && has("hooks"))
                || has("--disable=hooks")
                || command.args.iter().any(|arg| {
                    let arg = arg.replace(' ', "");
                    arg.contains("hooks=false") || arg.contains("hooks=0")
                })
        }
        // Hermes's own command that rewrites config.yaml's hooks (`hermes config set
        // hooks_auto_accept true`, `hermes config unset hooks`), or edits it in an editor.
        "hermes" => {
            let plugin_off = has("plugins")
                && (has("disable") || has("remove") || has("uninstall") || has("rm"))
                && mentions("hermes-hooks");
            let config_hooks = has("config")
                && (has("edit")
                    || ((has("set") || has("unset"))
                        && command.args.iter().any(|arg| arg.starts_with("hooks"))));
            plugin_off || config_hooks
        }
        "claude" => mentions("disableAllHooks"),
        _ => false,
    }
}
