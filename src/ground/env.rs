//! Every environment variable the tool reads or sets, and the only place that reads them.

use std::ffi::OsString;

/// Hermes's home folder (config.yaml, the allowlist); default `~/.hermes`.
pub(crate) const HERMES_HOME: &str = "HERMES_HOME";
/// Hermes's consent bypass (1/true/yes/on): approves unapproved or changed config hooks on the
/// spot, never an Agent Hooks hook (Hermes's one-shot mode sets it for its own hooks).
pub(crate) const HERMES_ACCEPT_HOOKS: &str = "HERMES_ACCEPT_HOOKS";
/// This tool's consent bypass (1/true/yes/on): approves unapproved or changed hooks of every
/// source on the spot, as `--accept-hooks` does.
pub(crate) const HERMES_HOOKS_ACCEPT: &str = "HERMES_HOOKS_ACCEPT";
/// Safe mode: no hook runs (1/true/yes/on).
pub(crate) const HERMES_SAFE_MODE: &str = "HERMES_SAFE_MODE";
/// The managed scope's folder (else `/etc/hermes`).
pub(crate) const HERMES_MANAGED_DIR: &str = "HERMES_MANAGED_DIR";
/// Base of the user-level Agent Hooks folder (`$XDG_CONFIG_HOME/agents/hooks`).
pub(crate) const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";
/// A folder OpenCode reads its configuration (and plugins) from, beside the others.
pub(crate) const OPENCODE_CONFIG_DIR: &str = "OPENCODE_CONFIG_DIR";
/// A folder Kilo Code reads its configuration (and plugins) from, beside the others.
pub(crate) const KILO_CONFIG_DIR: &str = "KILO_CONFIG_DIR";
/// Cline's own folder, in place of `~/.cline` (its user hooks are under it).
pub(crate) const CLINE_DIR: &str = "CLINE_DIR";
/// Pi's own folder, in place of `~/.pi/agent` (its user extensions are under it).
pub(crate) const PI_CODING_AGENT_DIR: &str = "PI_CODING_AGENT_DIR";
/// Disables colour in human output when set to anything.
pub(crate) const NO_COLOR: &str = "NO_COLOR";
/// The decision audit log of `run` (a file path), when `--audit-log` is not given.
pub(crate) const HERMES_HOOKS_AUDIT_LOG: &str = "HERMES_HOOKS_AUDIT_LOG";
/// Also write the payload into the audit log (1/true/yes/on).
pub(crate) const HERMES_HOOKS_AUDIT_PAYLOAD: &str = "HERMES_HOOKS_AUDIT_PAYLOAD";
/// The loop guard's limit: "keep working" answers honoured in a row per session (0: off).
pub(crate) const HERMES_HOOKS_GATE_LIMIT: &str = "HERMES_HOOKS_GATE_LIMIT";
/// Fail-closed mode: a call the runner cannot check is blocked (as `run --fail-closed`).
pub(crate) const HERMES_HOOKS_FAIL_CLOSED: &str = "HERMES_HOOKS_FAIL_CLOSED";
/// The most files and folders one `serve` watches with inotify (default: a sixteenth of
/// `fs.inotify.max_user_watches`, at most 1,024); past it, files are statted on each request.
pub(crate) const HERMES_HOOKS_WATCH_LIMIT: &str = "HERMES_HOOKS_WATCH_LIMIT";
/// Set for every hook: the canonical name of the event it runs for.
pub(crate) const HERMES_HOOK_EVENT: &str = "HERMES_HOOK_EVENT";
/// Set for every hook: how many `hermes-hooks` runs it lies under (1 for a hook of a run that no
/// hook started). See [`nested_too_deep`].
pub(crate) const HERMES_HOOKS_DEPTH: &str = "HERMES_HOOKS_DEPTH";
/// The depth at which `run` and `serve` refuse to start: a hook that runs `hermes-hooks` for
/// its own event (through a script of its own, where the bridge's name is not seen) would
/// otherwise start runs without end, each in a process group of its own that its parent's
/// deadline does not reach.
pub(crate) const DEPTH_LIMIT: u32 = 4;
/// The pager `approve` shows a whole script or diff in (default `less`).
pub(crate) const PAGER: &str = "PAGER";
/// Options for `less`; set to `FRX` for the pager when unset.
pub(crate) const LESS: &str = "LESS";
/// The project directory Claude Code names in a hook's environment.
pub(crate) const CLAUDE_PROJECT_DIR: &str = "CLAUDE_PROJECT_DIR";
/// The project directory Gemini CLI names in a hook's environment.
pub(crate) const GEMINI_PROJECT_DIR: &str = "GEMINI_PROJECT_DIR";
/// The project directory GitHub Copilot CLI names in a hook's environment.
pub(crate) const COPILOT_PROJECT_DIR: &str = "COPILOT_PROJECT_DIR";
/// The project directory Factory Droid names in a hook's environment (it sets
/// `CLAUDE_PROJECT_DIR` too, to the same directory).
pub(crate) const FACTORY_PROJECT_DIR: &str = "FACTORY_PROJECT_DIR";
/// The project directory Qwen Code names in a hook's environment (its `QWEN_CODE_PROJECT_DIR`
/// is its own data folder for the project, not the project).
pub(crate) const QWEN_PROJECT_DIR: &str = "QWEN_PROJECT_DIR";
/// Claude Code's settings folder, instead of `~/.claude` (read by `install` and `doctor`).
pub(crate) const CLAUDE_CONFIG_DIR: &str = "CLAUDE_CONFIG_DIR";
/// Codex's home folder, instead of `~/.codex` (read by `install` and `doctor`).
pub(crate) const CODEX_HOME: &str = "CODEX_HOME";
/// Gemini CLI's system settings file, instead of `/etc/gemini-cli/settings.json` (read by
/// `doctor`, for settings that switch hooks off).
pub(crate) const GEMINI_CLI_SYSTEM_SETTINGS_PATH: &str = "GEMINI_CLI_SYSTEM_SETTINGS_PATH";

/// A debug build's test switch (1/true/yes/on): the process tree is not searched for an agent,
/// so the test suite can run inside one. A release build never reads it.
pub(crate) const HERMES_HOOKS_TEST_NO_ANCESTORS: &str = "HERMES_HOOKS_TEST_NO_ANCESTORS";

/// A completion request: the shell whose script calls back (`COMPLETE=bash hermes-hooks -- ...`).
pub(crate) const COMPLETE: &str = "COMPLETE";
/// Set by the completion scripts: which word is being completed.
pub(crate) const CLAP_COMPLETE_INDEX: &str = "_CLAP_COMPLETE_INDEX";
/// Set by the completion scripts: the separator between candidates.
pub(crate) const CLAP_IFS: &str = "_CLAP_IFS";

/// The value of `name`, or `None` when it is unset or empty.
#[allow(clippy::disallowed_methods)] // this module is the one reader of the environment
pub(crate) fn var_os(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|value| !value.is_empty())
}

/// Whether `name` is set to a truthy value (1, true, yes, on; any case, surrounding spaces ignored).
pub(crate) fn flag(name: &str) -> bool {
    var_os(name).is_some_and(|value| is_truthy(&value.to_string_lossy()))
}

/// The truthy spellings Hermes accepts for its switches.
pub(crate) fn is_truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// How many `hermes-hooks` runs this process lies under (0 where no hook of one started it).
pub(crate) fn depth() -> u32 {
    var_os(HERMES_HOOKS_DEPTH)
        .and_then(|value| value.to_str()?.trim().parse().ok())
        .unwrap_or(0)
}

/// The value of [`HERMES_HOOKS_DEPTH`] for the hooks this process starts.
pub(crate) fn depth_for_hooks() -> &'static str {
    static DEPTH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DEPTH.get_or_init(|| depth().saturating_add(1).to_string())
}

/// Why `run` or `serve` will not start here: it lies under [`DEPTH_LIMIT`] runs already.
pub(crate) fn nested_too_deep() -> Option<String> {
    let depth = depth();
    (depth >= DEPTH_LIMIT).then(|| {
        format!(
            "not started: this call comes from a hook {depth} hermes-hooks runs deep \
             ({HERMES_HOOKS_DEPTH}={depth}); a hook that runs hermes-hooks for its own event \
             would start runs without end"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::is_truthy;

    #[test]
    fn truthy_spellings() {
        for yes in ["1", "true", "  TRUE  ", "yes", "On"] {
            assert!(is_truthy(yes), "{yes}");
        }
        for no in ["", "0", "false", "no", "off", "2", "y"] {
            assert!(!is_truthy(no), "{no}");
        }
    }
}
