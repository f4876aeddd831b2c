//! Wiring an agent's settings file to `hermes-hooks run --agent`. Here: the shape of the wiring
//! data (where each agent keeps its hooks and how one entry looks; the data itself is in each
//! agent's file). The mechanics every agent shares, each in its own file: [`route`](mod@route) (which
//! commands are this tool's), [`read`] (a settings file as hostile input, and its handlers),
//! [`edit`] (adding, updating or removing exactly this tool's entries), [`write`](mod@write) (the atomic
//! write with a backup, and the removal that leaves no trace). Nothing else of the file changes.

mod edit;
pub(crate) mod json;
mod read;
mod route;
pub(crate) mod toml;
mod write;

pub(crate) use edit::{Action, Plan, install, uninstall};
pub(crate) use read::{Handler, Settings};
pub(crate) use route::{Route, route};
pub(crate) use write::{unwrite, write};

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::Agent;

/// Where and how an agent keeps its hooks.
pub(crate) struct Wiring {
    /// The folder of the user settings, under the home folder (`.claude`).
    pub user_dir: &'static str,
    /// The variable that names the user settings folder instead, when the agent has one.
    pub user_dir_env: Option<&'static str>,
    /// The folder of a project's settings, under the project root.
    pub project_dir: &'static str,
    /// The files of that folder that may hold hooks; a new wiring goes into the first one that
    /// already has hooks, else the first.
    pub files: &'static [SettingsFile],
    /// How one entry looks.
    pub shape: Shape,
    /// The unit of its `timeout`.
    pub unit: Unit,
    /// Top-level keys a new file starts with (`"version": 1`).
    pub new_file: &'static [(&'static str, i64)],
    /// What the agent needs beyond its user settings file before the hooks run.
    pub needs_user: &'static [&'static str],
    /// What the agent needs beyond a project's settings file.
    pub needs_project: &'static [&'static str],
    /// Settings that switch hooks off for this agent wherever the file applies (the user's
    /// hooks included), each with the line it is on: `doctor` reports them where the agent is
    /// wired, since every guard is then silent there.
    pub switched_off: Option<SwitchedOff>,
    /// Files of the same folders the agent reads settings from but that install never writes
    /// (Claude Code's `settings.local.json`): read only for what switches hooks off.
    pub switch_files: &'static [SettingsFile],
    /// The machine's managed (system, policy) settings files, read for the same: a path, the
    /// variable the agent reads that names it instead (when it has one), and the format.
    pub managed: &'static [ManagedFile],
}

/// A managed settings file of an agent.
pub(crate) struct ManagedFile {
    /// Its path.
    pub path: &'static str,
    /// The variable that names it instead, when the agent has one.
    pub env: Option<&'static str>,
    /// Its language.
    pub format: Format,
}

impl ManagedFile {
    /// Where the agent reads it now.
    pub(crate) fn resolve(&self) -> PathBuf {
        self.env
            .and_then(crate::ground::env::var_os)
            .filter(|v| !v.is_empty())
            .map_or_else(|| PathBuf::from(self.path), PathBuf::from)
    }
}

/// Where a settings file sits: what may be switched off from it differs (a policy key counts
/// only in the managed file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layer {
    /// The user's or a project's settings.
    Person,
    /// The machine's managed settings.
    Managed,
}

/// Finds, in a settings file's text (in its format), what switches hooks off, with each line
/// and what to change.
pub(crate) type SwitchedOff = fn(&str, Format, Layer) -> Vec<(usize, String)>;

impl Settings {
    /// What in this file switches the agent's hooks off (see [`Wiring::switched_off`]).
    pub(crate) fn switched_off(&self, wiring: &Wiring, layer: Layer) -> Vec<(usize, String)> {
        match (wiring.switched_off, &self.before) {
            (Some(find), Some(text)) => find(text, self.format, layer),
            _ => Vec::new(),
        }
    }
}

/// One file an agent reads hooks from.
pub(crate) struct SettingsFile {
    /// Its name in the settings folder.
    pub name: &'static str,
    /// How it is written.
    pub format: Format,
}

/// A settings file's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Strict JSON.
    Json,
    /// JSON with `//` and `/* */` comments (the agent strips them before parsing).
    JsonWithComments,
    /// TOML.
    Toml,
}

impl Format {
    /// Its name, for people and `--json`.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::JsonWithComments => "json with comments",
            Self::Toml => "toml",
        }
    }
}

/// How one hook entry looks under `hooks.<Event>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{"hooks": [{"type": "command", "command": C, "timeout": T}]}` (a matcher group with
    /// no matcher: every call).
    Grouped,
    /// `{"command": C, "timeout": T}`.
    Flat,
    /// `{"type": "command", "bash": C, "timeoutSec": T}` (GitHub Copilot CLI).
    Typed,
}

impl Shape {
    /// The key of a handler's command.
    pub(crate) const fn command_key(self) -> &'static str {
        match self {
            Self::Grouped | Self::Flat => "command",
            Self::Typed => "bash",
        }
    }

    /// The key of a handler's timeout.
    pub(crate) const fn timeout_key(self) -> &'static str {
        match self {
            Self::Grouped | Self::Flat => "timeout",
            Self::Typed => "timeoutSec",
        }
    }
}

/// The unit of an agent's `timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Milliseconds,
}

impl Unit {
    /// `duration` in this unit, rounded up.
    pub(crate) fn count(self, duration: Duration) -> u64 {
        match self {
            Self::Seconds => duration
                .as_millis()
                .div_ceil(1000)
                .try_into()
                .unwrap_or(u64::MAX),
            Self::Milliseconds => duration.as_millis().try_into().unwrap_or(u64::MAX),
        }
    }

    /// `count` of this unit as a duration.
    pub(crate) fn duration(self, count: u64) -> Duration {
        match self {
            Self::Seconds => Duration::from_secs(count),
            Self::Milliseconds => Duration::from_millis(count),
        }
    }

    /// The unit's symbol.
    pub(crate) const fn symbol(self) -> &'static str {
        match self {
            Self::Seconds => "s",
            Self::Milliseconds => "ms",
        }
    }
}

/// Whose settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The user's own settings.
    User,
    /// The settings of the project rooted here.
    Project(PathBuf),
}

impl Scope {
    /// `user` or `project`.
    pub(crate) const fn as_str(&self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project(_) => "project",
        }
    }
}

/// How far above a hook's own timeout the agent's timeout is set: the runner ends the hook at
/// its deadline and still has to answer.
pub(crate) const TIMEOUT_MARGIN: Duration = Duration::from_secs(5);

/// The largest settings file read (real ones are a few kilobytes).
pub(crate) const SETTINGS_MAX: u64 = 4 * 1024 * 1024;

impl Wiring {
    /// The settings folder for `scope` (`home`: the user's home folder; `dir_env`: the value of
    /// [`Wiring::user_dir_env`], when set and not empty).
    pub(crate) fn folder(&self, scope: &Scope, home: &Path, dir_env: Option<PathBuf>) -> PathBuf {
        match scope {
            Scope::User => dir_env.unwrap_or_else(|| home.join(self.user_dir)),
            Scope::Project(root) => root.join(self.project_dir),
        }
    }

    /// The first settings file in `folder` whose hooks run `hermes-hooks run` (for any agent,
    /// or none): the agent is wired there. A file that cannot be read counts as not wired.
    pub(crate) fn wired_in(&self, agent: Agent, folder: &Path) -> Option<PathBuf> {
        self.files.iter().find_map(|file| {
            let path = folder.join(file.name);
            if !path.is_file() {
                return None;
            }
            let handlers = Settings::open(&path, file.format, None)
                .ok()?
                .handlers(agent, self.shape)
                .ok()?;
            handlers
                .iter()
                .any(|h| route(&h.command).is_some())
                .then_some(path)
        })
    }

    /// What the agent needs beyond the file, for `scope`.
    pub(crate) fn needs(&self, scope: &Scope) -> &'static [&'static str] {
        match scope {
            Scope::User => self.needs_user,
            Scope::Project(_) => self.needs_project,
        }
    }

    /// One entry that runs `command` with `timeout` (in the agent's unit).
    pub(crate) fn entry(&self, command: &str, timeout: u64) -> Value {
        match self.shape {
            Shape::Grouped => serde_json::json!({
                "hooks": [{"type": "command", "command": command, "timeout": timeout}]
            }),
            Shape::Flat => serde_json::json!({"command": command, "timeout": timeout}),
            Shape::Typed => {
                serde_json::json!({"type": "command", "bash": command, "timeoutSec": timeout})
            }
        }
    }
}

/// The command that routes `event` of `agent` to this tool, `binary` naming the program (a
/// shell word).
pub(crate) fn command(binary: &str, agent: Agent, event: &str) -> String {
    format!("{binary} run --agent {} {event}", agent.name())
}

/// What the wiring does when hermes-hooks cannot be found or started (the package removed, a
/// teammate without it, `npx` gone): the agent runs hooks through a shell, which then exits 127
/// or 126, a failed hook that lets the call go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum IfMissing {
    /// Each call the guards would check is blocked, with one line saying how to install or
    /// unwire (the other events go on, as for any hook that cannot start).
    #[default]
    Block,
    /// The command alone: the agent goes on as it does for any hook that cannot start.
    Allow,
}

impl IfMissing {
    /// The value's name, as `--if-missing` and `install --json` spell it.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Allow => "allow",
        }
    }
}

/// The shell text after the command, on an event that guards calls: an exit of 126 or more
/// (cannot be found, cannot be started) becomes exit 2, the block of every agent wired here.
pub(crate) const BLOCK_TAIL: &str = " ; s=$? ; [ \"$s\" -lt 126 ] && exit \"$s\" ; echo \
'hermes-hooks cannot be found or started, so this call is blocked: install it again (npm install \
-g hermes-hooks, pip install hermes-hooks or cargo install hermes-hooks), or remove its entries \
from this settings file' >&2 ; exit 2";

/// The command install writes for `own`, with the tail `if_missing` asks for.
pub(crate) fn wired_command(
    binary: &str,
    agent: Agent,
    own: &crate::agents::AgentEvent,
    if_missing: IfMissing,
) -> String {
    let plain = command(binary, agent, own.name);
    if if_missing == IfMissing::Allow {
        return plain;
    }
    let guards = own
        .table
        .and_then(|t| crate::config::Event::parse(t).ok())
        .is_some_and(|r| r.event == crate::config::Event::PRE_TOOL_CALL);
    if guards { plain + BLOCK_TAIL } else { plain }
}

/// The longest hook timeout of each event of `set`.
pub(crate) fn longest(
    set: &crate::config::HookSet,
) -> std::collections::HashMap<crate::config::Event, Duration> {
    let mut longest = std::collections::HashMap::new();
    for hook in &set.hooks {
        let slot: &mut Duration = longest.entry(hook.event).or_default();
        *slot = (*slot).max(hook.timeout);
    }
    longest
}

/// The agent's timeout for a hook run that may take `longest`: `longest` plus
/// [`TIMEOUT_MARGIN`], in the agent's unit.
pub(crate) fn timeout_for(longest: Duration, unit: Unit) -> u64 {
    unit.count(longest + TIMEOUT_MARGIN)
}
