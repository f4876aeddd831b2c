//! Reading a settings file as hostile input: where it really leads (never outside a project),
//! its size, its text in its own language (JSON, JSON with comments, TOML), and the hook
//! handlers under its `hooks`, each judged as written by `install` or by hand.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde_json::Value;

use super::route::route;
use super::{Format, SETTINGS_MAX, Shape, json, toml};
use crate::agents::Agent;

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
pub(super) enum Doc {
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
    pub(super) doc: Doc,
}

/// Why a file's text cannot be used: the message names the file and the line.
pub(super) fn refusal(path: &Path, what: impl std::fmt::Display) -> anyhow::Error {
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
        let before = match crate::ground::limits::read(&real, SETTINGS_MAX) {
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
