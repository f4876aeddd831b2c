//! Wiring an agent's settings file to `hermes-hooks run --agent`: where each agent keeps its
//! hooks and how one entry looks (data, in each agent's file), and the mechanics every agent
//! shares: reading a settings file as hostile input, finding the entries that call this tool,
//! adding, updating or removing exactly those, and writing the result atomically with a backup.
//! Nothing else of the file changes.

pub(crate) mod json;
pub(crate) mod toml;
mod write;

pub(crate) use write::{unwrite, write};

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, bail};
use serde_json::{Map, Value};

use super::{Agent, AgentEvent};

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
            .and_then(crate::env::var_os)
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

/// What a hook command asks of this tool, when it runs `hermes-hooks run`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    /// The word that names the program, as written.
    pub binary: String,
    /// `--agent`'s value.
    pub agent: Option<String>,
    /// The event named.
    pub event: Option<String>,
    /// Exactly `<binary> run --agent <agent> <event>`, nothing more.
    pub plain: bool,
}

/// The flags of `run` that take a value (the word after them is not the event).
const RUN_VALUE_FLAGS: &[&str] = &[
    "--agent",
    "--audit-log",
    "--gate-limit",
    "--hermes-home",
    "--config",
    "--user-hooks",
    "--project",
    "--color",
];

/// Reads `command` as a shell command line: `Some` when a word of it names a program called
/// `hermes-hooks` whose subcommand is `run`.
pub(crate) fn route(command: &str) -> Option<Route> {
    let words = shlex::split(command)?;
    let at = words.iter().position(|word| {
        Path::new(word)
            .file_name()
            .is_some_and(|n| n == "hermes-hooks")
    })?;
    let binary = words[at].clone();
    let rest = &words[at + 1..];
    let mut i = 0;
    // Global flags may come first.
    while i < rest.len() && rest[i].starts_with('-') {
        i += if RUN_VALUE_FLAGS.contains(&rest[i].as_str()) {
            2
        } else {
            1
        };
    }
    if rest.get(i).map(String::as_str) != Some("run") {
        return None;
    }
    let args = &rest[i + 1..];
    let mut agent = None;
    let mut event = None;
    let mut j = 0;
    while j < args.len() {
        let word = &args[j];
        if let Some(value) = word.strip_prefix("--agent=") {
            agent = Some(value.to_owned());
        } else if word == "--agent" {
            agent = args.get(j + 1).cloned();
            j += 1;
        } else if RUN_VALUE_FLAGS.contains(&word.as_str()) {
            j += 1;
        } else if !word.starts_with('-') && event.is_none() {
            event = Some(word.clone());
        }
        j += 1;
    }
    let plain = at == 0 && i == 0 && args.len() == 3 && args[0] == "--agent";
    Some(Route {
        binary,
        agent,
        event,
        plain,
    })
}

/// One hook handler found in a settings file.
#[derive(Clone, Debug)]
pub(crate) struct Handler {
    /// The event key it is under.
    pub event: String,
    /// Its group's (or, flat, its own) index in the event's list.
    pub group: usize,
    /// Its command.
    pub command: String,
    /// Its timeout, when it is a whole number.
    pub timeout: Option<u64>,
    /// Written exactly as install writes it (the whole group: no matcher, no other handler,
    /// no other key), for this agent and this event.
    pub ours: bool,
    /// The line of its group, when known.
    pub line: Option<usize>,
}

/// The hooks of one event key.
struct EventList {
    key: String,
    /// Its groups with their lines; `None` when the key does not hold a list.
    groups: Option<Vec<(Value, Option<usize>)>>,
}

/// A parsed settings file.
enum Doc {
    Json { text: String, comments: bool },
    Toml(toml::Toml),
}

/// A settings file read for editing (or only for reading).
pub(crate) struct Settings {
    /// The path as named (in the agent's folder).
    pub path: PathBuf,
    /// The file written: the path, or where its symlink leads.
    pub real: PathBuf,
    /// Its text as read; `None` when it does not exist.
    pub before: Option<String>,
    /// Its language.
    pub format: Format,
    doc: Doc,
}

/// Why a file's text cannot be used: the message names the file and the line.
fn refusal(path: &Path, what: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{}: {what}; it is left untouched", path.display())
}

/// The file a settings path leads to: itself, or where its symlink points. Within a project
/// (`inside`), the file and every folder on the way must stay inside the project (a cloned
/// repository could otherwise have install write into any file of yours); a symlink that leads
/// nowhere is refused (writing would create its target).
fn real_path(path: &Path, inside: Option<&Path>) -> Result<PathBuf> {
    let existing = path.ancestors().find(|p| fs::symlink_metadata(p).is_ok());
    let resolved = match existing {
        Some(found) => {
            let real = fs::canonicalize(found).map_err(|err| {
                refusal(
                    path,
                    format!("{} cannot be resolved ({err})", found.display()),
                )
            })?;
            match path.strip_prefix(found) {
                Ok(rest) if !rest.as_os_str().is_empty() => real.join(rest),
                _ => real,
            }
        }
        None => path.to_path_buf(),
    };
    if let Some(root) = inside {
        let root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        if !resolved.starts_with(&root) {
            bail!(refusal(
                path,
                format!(
                    "it leads to {}, outside the project {}: install writes a project's settings \
                     only inside the project",
                    resolved.display(),
                    root.display()
                )
            ));
        }
    }
    Ok(resolved)
}

impl Settings {
    /// Reads `path` (missing: an empty file to be made). Refused, naming the file and line: a
    /// file that is not a regular file, larger than [`SETTINGS_MAX`], not UTF-8, or not
    /// parseable in `format`, and any symlink [`real_path`] refuses.
    pub(crate) fn open(path: &Path, format: Format, inside: Option<&Path>) -> Result<Self> {
        let real = real_path(path, inside)?;
        let before = match crate::limits::read(&real, SETTINGS_MAX) {
            Ok(bytes) => {
                Some(String::from_utf8(bytes).map_err(|_| refusal(path, "not UTF-8 text"))?)
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) if err.kind() == io::ErrorKind::FileTooLarge => {
                bail!(refusal(
                    path,
                    format!("larger than {} MiB", SETTINGS_MAX / (1024 * 1024))
                ))
            }
            Err(err) => return Err(refusal(path, format!("cannot be read ({err})"))),
        };
        let text = before.clone().unwrap_or_default();
        let doc = match format {
            Format::Toml => Doc::Toml(
                toml::parse(&text)
                    .map_err(|err| refusal(path, format!("not valid TOML: {err}")))?,
            ),
            Format::Json | Format::JsonWithComments => {
                let comments = format == Format::JsonWithComments;
                // A new or blank file starts as an empty object laid out on lines.
                let text = if text.trim().is_empty() {
                    "{\n}\n".to_owned()
                } else {
                    text
                };
                let root = json::parse(&text, comments).map_err(|err| {
                    let agent = if comments {
                        ""
                    } else {
                        // The agent's own reader is as strict: the file does nothing now.
                        " (the agent reads this file as strict JSON as well, comments and \
                         trailing commas refused, so it ignores the whole file as it stands: \
                         fix it, then run this again)"
                    };
                    refusal(path, format!("not valid JSON: {err}{agent}"))
                })?;
                if root.members().is_none() {
                    bail!(refusal(
                        path,
                        format!("the file holds {}, not a JSON object", root.kind_name())
                    ));
                }
                Doc::Json { text, comments }
            }
        };
        Ok(Self {
            path: path.to_path_buf(),
            real,
            before,
            format,
            doc,
        })
    }

    /// The text as it would be written now.
    pub(crate) fn text(&self) -> String {
        match &self.doc {
            Doc::Json { text, .. } => text.clone(),
            Doc::Toml(toml) => toml.text(),
        }
    }

    /// Whether the file has a `hooks` key at all.
    pub(crate) fn has_hooks(&self) -> bool {
        self.lists().is_ok_and(|lists| !lists.is_empty())
    }

    /// Every event key under `hooks`, in order. `Err`: `hooks` is not an object (with its line).
    fn lists(&self) -> Result<Vec<EventList>, String> {
        match &self.doc {
            Doc::Json { text, comments } => {
                let root = json::parse(text, *comments).map_err(|e| e.to_string())?;
                let Some(hooks) = root.get("hooks") else {
                    return Ok(Vec::new());
                };
                let Some(members) = hooks.members() else {
                    let (line, _) = json::line_column(text, hooks.start);
                    return Err(format!(
                        "line {line}: `hooks` is {}, not an object",
                        hooks.kind_name()
                    ));
                };
                Ok(members
                    .iter()
                    .map(|member| EventList {
                        key: member.key.clone(),
                        groups: member.value.elements().map(|elements| {
                            elements
                                .iter()
                                .map(|e| (to_value(e), Some(json::line_column(text, e.start).0)))
                                .collect()
                        }),
                    })
                    .collect())
            }
            Doc::Toml(toml) => {
                let Some(hooks) = toml.hooks()? else {
                    return Ok(Vec::new());
                };
                Ok(hooks
                    .into_iter()
                    .map(|(key, value)| {
                        let groups = match value {
                            Value::Array(items) => Some(
                                items
                                    .into_iter()
                                    .enumerate()
                                    .map(|(i, item)| (item, toml.line(&key, i)))
                                    .collect(),
                            ),
                            _ => None,
                        };
                        EventList { key, groups }
                    })
                    .collect())
            }
        }
    }

    /// Every command handler under `hooks`, judged for `agent` and `shape`.
    pub(crate) fn handlers(&self, agent: Agent, shape: Shape) -> Result<Vec<Handler>, String> {
        let mut found = Vec::new();
        for list in self.lists()? {
            for (group, (value, line)) in list.groups.iter().flatten().enumerate() {
                let (handlers, whole) = commands_of(value, shape);
                for (command, timeout) in handlers {
                    let exact = route(&command).is_some_and(|r| {
                        r.plain
                            && r.agent.as_deref() == Some(agent.name())
                            && r.event.as_deref() == Some(list.key.as_str())
                    });
                    found.push(Handler {
                        event: list.key.clone(),
                        group,
                        command,
                        timeout,
                        ours: whole && exact,
                        line: *line,
                    });
                }
            }
        }
        Ok(found)
    }

    /// Adds `entry` to the list of `event` (made, with `hooks`, when missing; a new file gets
    /// `new_file`'s keys first).
    pub(crate) fn add(
        &mut self,
        event: &str,
        entry: &Value,
        new_file: &[(&str, i64)],
    ) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml.add(event, entry).map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                if self.before.is_none() {
                    for (key, value) in new_file {
                        json_edit(text, comments, &path, |text, root, style| {
                            (root.get(key).is_none()).then(|| {
                                json::add_member(text, root, key, &Value::from(*value), style)
                            })
                        })?;
                    }
                }
                json_edit(text, comments, &path, |text, root, style| {
                    root.get("hooks").is_none().then(|| {
                        json::add_member(text, root, "hooks", &Value::Object(Map::new()), style)
                    })
                })?;
                let mut wrong = None;
                json_edit(text, comments, &path, |text, root, style| {
                    let hooks = root.get("hooks")?;
                    match hooks.get(event) {
                        None => Some(json::add_member(
                            text,
                            hooks,
                            event,
                            &Value::Array(vec![entry.clone()]),
                            style,
                        )),
                        Some(list) if list.elements().is_some() => {
                            Some(json::add_element(text, list, entry, style))
                        }
                        Some(other) => {
                            wrong =
                                Some((other.kind_name(), json::line_column(text, other.start).0));
                            None
                        }
                    }
                })?;
                match wrong {
                    Some((kind, line)) => Err(refusal(
                        &path,
                        format!("line {line}: `hooks.{event}` is {kind}, not a list"),
                    )),
                    None => Ok(()),
                }
            }
        }
    }

    /// Sets the command and timeout of the handler of group `group` of `event` (one written as
    /// install writes it).
    pub(crate) fn update(
        &mut self,
        event: &str,
        group: usize,
        command: &str,
        timeout: u64,
        shape: Shape,
    ) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml
                .update(event, group, command, timeout)
                .map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                for (key, value) in [
                    (shape.command_key(), Value::from(command)),
                    (shape.timeout_key(), Value::from(timeout)),
                ] {
                    json_edit(text, comments, &path, |text, root, style| {
                        let entry = root.get("hooks")?.get(event)?.elements()?.get(group)?;
                        let handler = match shape {
                            Shape::Grouped => entry.get("hooks")?.elements()?.first()?,
                            Shape::Flat | Shape::Typed => entry,
                        };
                        Some(json::replace(text, handler.get(key)?, &value, style))
                    })?;
                }
                Ok(())
            }
        }
    }

    /// Removes group `group` of `event`; the event's key goes when its list is left empty, and
    /// `hooks` when it is left empty.
    pub(crate) fn remove(&mut self, event: &str, group: usize) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml.remove(event, group).map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                json_edit(text, comments, &path, |_, root, _| {
                    let list = root.get("hooks")?.get(event)?;
                    (group < list.elements()?.len()).then(|| json::remove_element(list, group))
                })?;
                json_edit(text, comments, &path, |_, root, _| {
                    let hooks = root.get("hooks")?;
                    let index = hooks.members()?.iter().position(|m| m.key == event)?;
                    let empty = hooks.members()?[index].value.elements()?.is_empty();
                    empty.then(|| json::remove_member(hooks, index))
                })?;
                json_edit(text, comments, &path, |_, root, _| {
                    let index = root.members()?.iter().position(|m| m.key == "hooks")?;
                    let empty = root.members()?[index].value.members()?.is_empty();
                    empty.then(|| json::remove_member(root, index))
                })
            }
        }
    }
}

/// Applies the splice `change` computes from the parsed `text`, when it computes one.
fn json_edit(
    text: &mut String,
    comments: bool,
    path: &Path,
    change: impl FnOnce(&str, &json::Node, &json::Style) -> Option<json::Splice>,
) -> Result<()> {
    let root = json::parse(text, comments).map_err(|e| refusal(path, e))?;
    let style = json::Style::of(text);
    if let Some(splice) = change(text, &root, &style) {
        *text = splice.apply(text);
    }
    Ok(())
}

/// A parsed node as a plain value (for reading the shape of entries).
fn to_value(node: &json::Node) -> Value {
    match &node.kind {
        json::Kind::Object(members) => Value::Object(
            members
                .iter()
                .map(|m| (m.key.clone(), to_value(&m.value)))
                .collect(),
        ),
        json::Kind::Array(elements) => Value::Array(elements.iter().map(to_value).collect()),
        json::Kind::String(text) => Value::from(text.as_str()),
        json::Kind::Number(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        json::Kind::Bool(b) => Value::from(*b),
        json::Kind::Null => Value::Null,
    }
}

/// The command handlers of one entry (command, whole-number timeout), and whether the entry is
/// exactly one handler shaped as install writes it.
fn commands_of(entry: &Value, shape: Shape) -> (Vec<(String, Option<u64>)>, bool) {
    let handler = |value: &Value| {
        let object = value.as_object()?;
        let command = object
            .get(shape.command_key())
            .or_else(|| object.get("command"))?
            .as_str()?
            .to_owned();
        let timeout = object.get(shape.timeout_key()).and_then(Value::as_u64);
        Some((command, timeout))
    };
    let keys = |value: &Value| -> Vec<String> {
        let mut keys: Vec<String> = value
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        keys
    };
    match shape {
        Shape::Flat => {
            let found: Vec<_> = handler(entry).into_iter().collect();
            let whole = keys(entry) == ["command", "timeout"]
                && found.first().is_some_and(|(_, t)| t.is_some());
            (found, whole)
        }
        Shape::Typed => {
            let found: Vec<_> = handler(entry).into_iter().collect();
            let whole = keys(entry) == ["bash", "timeoutSec", "type"]
                && entry.get("type").and_then(Value::as_str) == Some("command")
                && found.first().is_some_and(|(_, t)| t.is_some());
            (found, whole)
        }
        Shape::Grouped => {
            let handlers: &[Value] = entry
                .get("hooks")
                .and_then(Value::as_array)
                .map_or(&[], Vec::as_slice);
            let found: Vec<_> = handlers.iter().filter_map(handler).collect();
            let whole = keys(entry) == ["hooks"]
                && handlers.len() == 1
                && keys(&handlers[0]) == ["command", "timeout", "type"]
                && handlers[0].get("type").and_then(Value::as_str) == Some("command")
                && found.first().is_some_and(|(_, t)| t.is_some());
            (found, whole)
        }
    }
}

/// What install or uninstall did to one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// An entry was added.
    Added,
    /// The entry install wrote got a new command or timeout.
    Updated,
    /// The entry is as it should be.
    Unchanged,
    /// The entry install wrote was removed.
    Removed,
    /// An entry for it was written by hand: left as it is.
    LeftAsWritten,
}

impl Action {
    /// Its name in output.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Updated => "updated",
            Self::Unchanged => "unchanged",
            Self::Removed => "removed",
            Self::LeftAsWritten => "left as written",
        }
    }
}

/// The result of planning an edit: what happens to each event, and what to warn about.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Each event touched or looked at, in the agent's order.
    pub events: Vec<(String, Action)>,
    /// Things a person should know (entries left as written, wiring without `--agent`).
    pub warnings: Vec<String>,
}

/// Wires every event of `agent` that has a counterpart here into `settings`: `binary` names
/// the program, `timeout` gives the agent's timeout for each event (in its unit). Entries
/// install wrote for events it no longer routes are removed.
pub(crate) fn install(
    settings: &mut Settings,
    agent: Agent,
    wiring: &Wiring,
    binary: &str,
    timeout: impl Fn(&AgentEvent) -> u64,
) -> Result<Plan> {
    let handlers = settings
        .handlers(agent, wiring.shape)
        .map_err(|e| refusal(&settings.path, e))?;
    let mut plan = Plan::default();
    routed_elsewhere(&handlers, agent, &mut plan);
    for own in agent.events().iter().filter(|e| e.wired) {
        let want_command = command(binary, agent, own.name);
        let want_timeout = timeout(own);
        let ours: Vec<&Handler> = handlers
            .iter()
            .filter(|h| h.ours && h.event == own.name)
            .collect();
        let by_hand = handlers.iter().any(|h| {
            !h.ours
                && h.event == own.name
                && route(&h.command).is_some_and(|r| {
                    r.agent.as_deref() == Some(agent.name()) && r.event.as_deref() == Some(own.name)
                })
        });
        let action = match ours.first() {
            Some(first) if first.command == want_command && first.timeout == Some(want_timeout) => {
                Action::Unchanged
            }
            Some(first) => {
                settings.update(
                    own.name,
                    first.group,
                    &want_command,
                    want_timeout,
                    wiring.shape,
                )?;
                Action::Updated
            }
            None if by_hand => {
                plan.warnings.push(format!(
                    "{}: an entry for {} calling hermes-hooks was written by hand; it is left as \
                     it is",
                    settings.path.display(),
                    own.name
                ));
                Action::LeftAsWritten
            }
            None => {
                settings.add(
                    own.name,
                    &wiring.entry(&want_command, want_timeout),
                    wiring.new_file,
                )?;
                Action::Added
            }
        };
        if ours.len() > 1 || (!ours.is_empty() && by_hand) {
            plan.warnings.push(format!(
                "{}: {} calls hermes-hooks more than once, so every hook runs more than once there",
                settings.path.display(),
                own.name
            ));
        }
        plan.events.push((own.name.to_owned(), action));
    }
    // Entries install wrote under a name it no longer routes (an event the agent dropped).
    let routed = |name: &str| agent.events().iter().any(|e| e.name == name && e.wired);
    let mut stale: Vec<&Handler> = handlers
        .iter()
        .filter(|h| h.ours && !routed(&h.event))
        .collect();
    stale.sort_by(|a, b| (&b.event, b.group).cmp(&(&a.event, a.group)));
    for handler in stale {
        settings.remove(&handler.event, handler.group)?;
        plan.events.push((handler.event.clone(), Action::Removed));
    }
    Ok(plan)
}

/// Warns about entries that call `hermes-hooks run` for this file's agent in a form it cannot
/// read (no `--agent`, or another agent's).
fn routed_elsewhere(handlers: &[Handler], agent: Agent, plan: &mut Plan) {
    for handler in handlers {
        let Some(route) = route(&handler.command) else {
            continue;
        };
        match route.agent.as_deref() {
            None => plan.warnings.push(format!(
                "{} runs `hermes-hooks run` without --agent, so {} gets Hermes's answer: remove \
                 that entry (`hermes-hooks doctor` reports it as an error)",
                handler.event,
                agent.title()
            )),
            Some(other) if other != agent.name() => plan.warnings.push(format!(
                "{} runs `hermes-hooks run --agent {other}` in {}'s settings: remove that entry",
                handler.event,
                agent.title()
            )),
            Some(_) => {}
        }
    }
}

/// Removes every entry install wrote for `agent` from `settings`; entries that call
/// `hermes-hooks run --agent <agent>` but were changed by hand are left, with a warning.
pub(crate) fn uninstall(settings: &mut Settings, agent: Agent, wiring: &Wiring) -> Result<Plan> {
    let handlers = settings
        .handlers(agent, wiring.shape)
        .map_err(|e| refusal(&settings.path, e))?;
    let mut plan = Plan::default();
    let mut ours: Vec<&Handler> = handlers.iter().filter(|h| h.ours).collect();
    // Last first, so the indices of the ones still to go stay true.
    ours.sort_by(|a, b| (&b.event, b.group).cmp(&(&a.event, a.group)));
    for handler in &ours {
        settings.remove(&handler.event, handler.group)?;
    }
    for own in agent.events() {
        if ours.iter().any(|h| h.event == own.name) {
            plan.events.push((own.name.to_owned(), Action::Removed));
        }
    }
    for handler in ours
        .iter()
        .filter(|h| !agent.events().iter().any(|e| e.name == h.event))
    {
        plan.events.push((handler.event.clone(), Action::Removed));
    }
    for handler in handlers.iter().filter(|h| !h.ours) {
        if route(&handler.command).is_some_and(|r| r.agent.as_deref() == Some(agent.name())) {
            plan.events
                .push((handler.event.clone(), Action::LeftAsWritten));
            plan.warnings.push(format!(
                "{}{}: the entry for {} was changed by hand (`{}`); it is left as it is: remove \
                 it yourself if it should go",
                settings.path.display(),
                handler.line.map(|l| format!(":{l}")).unwrap_or_default(),
                handler.event,
                handler.command
            ));
        }
    }
    Ok(plan)
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

#[cfg(test)]
mod tests {
    use super::route;

    #[test]
    fn a_route_reads_the_agent_and_event_wherever_they_are() {
        let plain = route("hermes-hooks run --agent gemini BeforeTool").unwrap();
        assert!(plain.plain);
        assert_eq!(plain.agent.as_deref(), Some("gemini"));
        let other = route("'/opt/x y/hermes-hooks' run --fail-closed --agent=codex Stop").unwrap();
        assert!(!other.plain);
        assert_eq!(
            (other.agent.as_deref(), other.event.as_deref()),
            (Some("codex"), Some("Stop"))
        );
        let bare = route("env FOO=1 hermes-hooks run pre_tool_call").unwrap();
        assert_eq!(
            (bare.agent, bare.event.as_deref()),
            (None, Some("pre_tool_call"))
        );
        assert!(route("hermes-hooks doctor").is_none());
        assert!(route("my-guard.sh run").is_none());
    }
}
