//! Rules files (`<home>/hermes-hooks/rules.yaml`, `<project>/.agents/rules.yaml`): guards written
//! as patterns, evaluated without a process. Read with the limits of HOOK.md; a rule with a
//! mistake is skipped with a message naming the file and its line, and a file that cannot be read
//! takes out only its own rules.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::Spanned;
use sha2::{Digest as _, Sha256};

use super::{Effects, Event, HookSpec, LoadError, Origin, Scope, Source, SourceKind, Warning};
use super::{WarningKind, hook_md, yaml};
use crate::matcher::Matcher;

/// The event a rules file's approval is recorded under: the file is approved as one unit.
pub(crate) const CONSENT_EVENT: &str = "rules";
/// A rules file's name, in `<home>/hermes-hooks/` and in a project's `.agents/`.
pub(crate) const FILE_NAME: &str = "rules.yaml";
/// The most rules one file may hold.
pub(crate) const RULES_MAX: usize = 1000;
/// The longest pattern, in bytes (after `${project}` and `${home}` are put in).
pub(crate) const PATTERN_MAX: usize = 4096;
/// The keys a rule may have.
pub(crate) const KEYS: [&str; 9] = [
    "name",
    "event",
    "tool",
    "when",
    "unless",
    "action",
    "message",
    "fail_closed",
    "priority",
];

/// What a rule does when it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Blocks the call (or the event), with the rule's message.
    Block,
    /// Asks a person to approve the call.
    Ask,
    /// Adds the rule's message as context for the model.
    Context,
}

impl Action {
    /// The name a rules file uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Ask => "ask",
            Self::Context => "context",
        }
    }

    /// What the event must allow for this action.
    const fn needs(self) -> Effects {
        match self {
            Self::Block => Effects::BLOCK,
            Self::Ask => Effects::ASK,
            Self::Context => Effects::CONTEXT,
        }
    }
}

/// One condition: a field, by dotted path, and a pattern searched in it.
#[derive(Clone, Debug)]
pub struct Condition {
    /// The field (`command`, `path`, or a dotted path into the tool input or the payload).
    pub field: String,
    /// The pattern, as written (with `${project}` and `${home}` put in).
    pub pattern: String,
    /// The pattern, compiled to be searched anywhere in the field's text.
    pub matcher: Matcher,
}

/// What a rules file declares for one rule beyond the common fields.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rules file, absolute and normalised: what the approval names and pins.
    pub file: PathBuf,
    /// The sha256 of the file's bytes as they were read: the rules evaluated are exactly the
    /// ones this pin covers.
    pub sha256: String,
    /// The level of the file.
    pub scope: Scope,
    /// The tool class the rule is for (`tool: shell`), when it names a class.
    pub tool_class: Option<&'static str>,
    /// Every one must match for the rule to apply.
    pub when: Vec<Condition>,
    /// When every one matches (and there is one), the rule does not apply.
    pub unless: Vec<Condition>,
    /// What it does.
    pub action: Action,
    /// What the model (or the person, for `ask`) reads.
    pub message: String,
    /// Higher comes first within its file.
    pub priority: u16,
}

/// What `${project}` and `${home}` stand for in a pattern.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Vars<'a> {
    /// The project folder, absolute.
    pub project: Option<&'a Path>,
    /// The user's home folder.
    pub home: Option<&'a Path>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: Option<Vec<Spanned<Value>>>,
}

/// The actions a rule may take on `event`, by name.
pub(crate) fn actions_on(event: Event) -> Vec<&'static str> {
    [Action::Block, Action::Ask, Action::Context]
        .into_iter()
        .filter(|action| event.effects(SourceKind::Rules).contains(action.needs()))
        .map(Action::as_str)
        .collect()
}

/// A rule for `event` to start from, as a rules file writes it (`None` where a rule can do
/// nothing).
pub(crate) fn example(event: Event) -> Option<String> {
    let actions = actions_on(event);
    let name = event.name();
    if event.is_tool_event() && actions.contains(&"block") {
        return Some(format!(
            "rules:\n- name: no-force-push\n  event: {name}\n  tool: shell\n  when:\n    \
             command: '\\bgit\\s+push\\b.*\\s(-f|--force)\\b'\n  action: block\n  message: \
             Force pushes are not allowed here.\n"
        ));
    }
    if actions.contains(&"context") {
        return Some(format!(
            "rules:\n- name: house-style\n  event: {name}\n  action: context\n  message: \
             Answer in British English.\n"
        ));
    }
    actions.contains(&"block").then(|| {
        format!(
            "rules:\n- name: not-in-ci\n  event: {name}\n  when:\n    session_id: '^ci-'\n  \
             action: block\n  message: Not in CI sessions.\n"
        )
    })
}

/// The `tool:` of a rule as written: its class, or its tool name pattern.
pub(crate) fn tool_shown(hook: &HookSpec) -> Option<&str> {
    let rule = hook.rule()?;
    rule.tool_class
        .or_else(|| hook.matcher.as_ref().map(Matcher::source))
}

/// Whether `file` is a rules file (by its name): its warnings are the `rules` source's.
pub(crate) fn is_rules_file(file: &Path) -> bool {
    file.file_name().is_some_and(|name| name == FILE_NAME)
}

/// The rules of one file for `only` (every event's with `None`), in the order they are
/// evaluated: higher priority first, then file order. A file that does not exist holds none.
pub(crate) fn load_file(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    vars: Vars<'_>,
    warnings: &mut Vec<Warning>,
    errors: &mut Vec<LoadError>,
) -> Vec<HookSpec> {
    let mut fail = |line: Option<u64>, column: Option<u64>, message: String| {
        errors.push(LoadError {
            source: SourceKind::Rules,
            origin: Origin {
                file: file.to_path_buf(),
                line,
            },
            column,
            message: format!("{message}; none of its rules are used"),
        });
    };
    let mut bytes = match crate::limits::read(file, crate::limits::MANIFEST_MAX) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(err) => {
            fail(None, None, format!("cannot read it: {err}"));
            return Vec::new();
        }
    };
    let sha256 = crate::consent::fingerprint::hex(&Sha256::digest(&bytes));
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let Ok(text) = String::from_utf8(bytes) else {
        fail(None, None, "it is not UTF-8 text".to_owned());
        return Vec::new();
    };
    let raw = match yaml::parse::<Option<RawFile>>(&text) {
        Ok(raw) => raw,
        Err(err) => {
            let (line, column) = err.at.map_or((None, None), |(line, column)| {
                (u64::try_from(line).ok(), u64::try_from(column).ok())
            });
            let hint = if err.message.contains("unknown field") {
                " (a rules file holds one key, `rules:`, a list of rules)"
            } else {
                ""
            };
            fail(
                line,
                column,
                format!("not a rules file: {}{hint}", err.message),
            );
            return Vec::new();
        }
    };
    let items = raw.and_then(|raw| raw.rules).unwrap_or_default();
    if items.len() > RULES_MAX {
        fail(
            None,
            None,
            format!(
                "it holds {} rules, more than the {RULES_MAX} a file may hold",
                items.len()
            ),
        );
        return Vec::new();
    }
    let absolute = std::path::absolute(file).map_or_else(
        |_| crate::paths::normalized(file),
        |path| crate::paths::normalized(&path),
    );
    let mut reader = Reader {
        file,
        absolute: &absolute,
        sha256: &sha256,
        scope,
        vars,
        warnings,
        errors,
        names: Vec::new(),
    };
    let mut rules: Vec<HookSpec> = items
        .iter()
        .filter_map(|item| reader.rule(item, only))
        .collect();
    // Stable: equal priorities keep their file order.
    rules.sort_by_key(|hook| std::cmp::Reverse(hook.rule().map_or(0, |rule| rule.priority)));
    rules
}

/// Reads the rules of one file.
struct Reader<'a> {
    file: &'a Path,
    absolute: &'a Path,
    sha256: &'a str,
    scope: Scope,
    vars: Vars<'a>,
    warnings: &'a mut Vec<Warning>,
    errors: &'a mut Vec<LoadError>,
    /// The names seen so far (every rule's, whatever its event, so a repeat is found).
    names: Vec<String>,
}

/// Why a rule is skipped.
struct Skip(String);

impl Reader<'_> {
    /// One rule, or `None` when it is skipped (with an error naming its line) or is for another
    /// event than `only`.
    fn rule(&mut self, item: &Spanned<Value>, only: Option<Event>) -> Option<HookSpec> {
        let line = item.referenced.line();
        let name = item
            .value
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match self.read(&item.value, line, only) {
            Ok(hook) => hook,
            Err(Skip(why)) => {
                let who = name.map_or_else(|| "a rule".to_owned(), |name| format!("rule '{name}'"));
                let message = format!("{who} is skipped: {why}");
                self.warnings.push(Warning {
                    kind: WarningKind::SkippedEntry,
                    origin: self.origin(line),
                    message: message.clone(),
                });
                // A rule that could not be read may have been a guard of any event.
                self.errors.push(LoadError {
                    source: SourceKind::Rules,
                    origin: self.origin(line),
                    column: None,
                    message,
                });
                None
            }
        }
    }

    fn origin(&self, line: u64) -> Origin {
        Origin {
            file: self.file.to_path_buf(),
            line: Some(line),
        }
    }

    fn read(
        &mut self,
        item: &Value,
        line: u64,
        only: Option<Event>,
    ) -> Result<Option<HookSpec>, Skip> {
        let Value::Object(map) = item else {
            return Err(Skip(format!(
                "a rule is a mapping with a name, not {}",
                kind(item)
            )));
        };
        if let Some(unknown) = map.keys().find(|key| !KEYS.contains(&key.as_str())) {
            return Err(Skip(format!(
                "unknown key '{unknown}' (a rule has {})",
                KEYS.join(", ")
            )));
        }
        let name = self.name(map)?;
        let event = match map.get("event") {
            None => Event::PRE_TOOL_CALL,
            Some(Value::String(text)) => Event::parse(text.trim())
                .map(|resolved| resolved.event)
                .map_err(|unknown| Skip(format!("event: {unknown}")))?,
            Some(other) => return Err(Skip(format!("event must be a name, not {}", kind(other)))),
        };
        let action = action(map.get("action"))?;
        if !event.effects(SourceKind::Rules).contains(action.needs()) {
            return Err(Skip(format!(
                "action {} is not possible on {event}",
                action.as_str()
            )));
        }
        let fail_closed = flag(map.get("fail_closed"), "fail_closed")?;
        let priority = priority(map.get("priority"))?;
        let message = message(map.get("message"), action, &name)?;
        if only.is_some_and(|only| only != event) {
            return Ok(None);
        }
        let (matcher, tool_class) = tool(map.get("tool"), event)?;
        let when = self.conditions(map.get("when"), "when", line)?;
        let unless = self.conditions(map.get("unless"), "unless", line)?;
        if fail_closed && action == Action::Context {
            self.warnings.push(Warning {
                kind: WarningKind::InvalidValue,
                origin: self.origin(line),
                message: format!(
                    "rule '{name}': fail_closed is ignored, a context rule cannot block"
                ),
            });
        }
        let rule = Rule {
            file: self.absolute.to_path_buf(),
            sha256: self.sha256.to_owned(),
            scope: self.scope,
            tool_class,
            when,
            unless,
            action,
            message,
            priority,
        };
        let command = self.absolute.to_string_lossy().into_owned();
        Ok(Some(HookSpec {
            matcher,
            // Nothing runs: there is nothing to wait for.
            timeout: std::time::Duration::ZERO,
            fail_closed: fail_closed && action != Action::Context,
            ..HookSpec::new(
                event,
                Source::Rules(Box::new(rule)),
                name,
                command,
                self.origin(line),
            )
        }))
    }

    fn name(&mut self, map: &Map<String, Value>) -> Result<String, Skip> {
        let name = match map.get("name") {
            Some(Value::String(name)) => name.trim(),
            Some(other) => return Err(Skip(format!("name must be text, not {}", kind(other)))),
            None => return Err(Skip("it has no name".to_owned())),
        };
        if !hook_md::is_spec_name(name) {
            return Err(Skip(format!(
                "name '{name}' must be lowercase letters and digits, with single hyphens \
                 between them"
            )));
        }
        if self.names.iter().any(|seen| seen == name) {
            return Err(Skip(format!(
                "the name '{name}' is used by an earlier rule of this file"
            )));
        }
        self.names.push(name.to_owned());
        Ok(name.to_owned())
    }

    /// `when` or `unless`: a mapping from field to pattern, or a list of such mappings.
    fn conditions(
        &mut self,
        raw: Option<&Value>,
        key: &str,
        line: u64,
    ) -> Result<Vec<Condition>, Skip> {
        let mappings: Vec<&Map<String, Value>> = match raw {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Object(map)) => vec![map],
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| {
                    item.as_object().ok_or_else(|| {
                        Skip(format!(
                            "{key}: each item is a mapping from a field to a pattern, not {}",
                            kind(item)
                        ))
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(Skip(format!(
                    "{key} is a mapping from a field to a pattern, not {}",
                    kind(other)
                )));
            }
        };
        let mut conditions = Vec::new();
        for (field, pattern) in mappings.into_iter().flatten() {
            let Value::String(pattern) = pattern else {
                return Err(Skip(format!(
                    "{key}.{field}: a pattern is text (quote it), not {}",
                    kind(pattern)
                )));
            };
            if field.is_empty() || field.split('.').any(str::is_empty) {
                return Err(Skip(format!("{key}: '{field}' is not a field path")));
            }
            let (pattern, missing) = self.put_in(pattern);
            if let Some(missing) = missing {
                self.warnings.push(Warning {
                    kind: WarningKind::InvalidValue,
                    origin: self.origin(line),
                    message: format!(
                        "{key}.{field}: {missing} stands for no folder here, so the pattern \
                         matches nothing"
                    ),
                });
            }
            if pattern.len() > PATTERN_MAX {
                return Err(Skip(format!(
                    "{key}.{field}: the pattern is longer than {PATTERN_MAX} bytes"
                )));
            }
            let (matcher, invalid) = Matcher::compile_search(&pattern);
            if let Some(why) = invalid {
                return Err(Skip(format!("{key}.{field}: {why}")));
            }
            conditions.push(Condition {
                field: field.clone(),
                pattern,
                matcher,
            });
        }
        Ok(conditions)
    }

    /// `pattern` with `${project}` and `${home}` replaced by their folders, escaped for a
    /// pattern (a variable without a folder matches nothing).
    /// The second value names a variable that stands for no folder here.
    fn put_in(&self, pattern: &str) -> (String, Option<&'static str>) {
        let mut pattern = pattern.to_owned();
        let mut missing = None;
        for (name, value) in [
            ("${project}", self.vars.project),
            ("${home}", self.vars.home),
        ] {
            if pattern.contains(name) {
                let text = if let Some(dir) = value {
                    escape(&crate::paths::normalized(dir).to_string_lossy())
                } else {
                    missing = Some(name);
                    "(?!)".to_owned()
                };
                pattern = pattern.replace(name, &text);
            }
        }
        (pattern, missing)
    }
}

/// `text` escaped for a Python `re` pattern (every ASCII punctuation character but `/`, which
/// paths are full of and neither engine needs escaped).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii_punctuation() && c != '/' && c != '_' || c.is_ascii_whitespace() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The tool classes a `tool:` may name (the agents' classes, by name).
pub(crate) const TOOL_CLASSES: [&str; 6] = ["shell", "edit", "write", "read", "search", "web"];

/// What a YAML value is, in a message.
const fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn action(raw: Option<&Value>) -> Result<Action, Skip> {
    match raw {
        None => Ok(Action::Block),
        Some(Value::String(text)) => match text.trim() {
            "block" => Ok(Action::Block),
            "ask" => Ok(Action::Ask),
            "context" => Ok(Action::Context),
            other => Err(Skip(format!(
                "action '{other}' is not one of block, ask, context"
            ))),
        },
        Some(other) => Err(Skip(format!(
            "action is block, ask or context, not {}",
            kind(other)
        ))),
    }
}

fn flag(raw: Option<&Value>, key: &str) -> Result<bool, Skip> {
    match raw {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(value)) => Ok(*value),
        Some(other) => Err(Skip(format!("{key} is true or false, not {}", kind(other)))),
    }
}

fn priority(raw: Option<&Value>) -> Result<u16, Skip> {
    match raw {
        None | Some(Value::Null) => Ok(hook_md::DEFAULT_PRIORITY),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .filter(|n| *n <= hook_md::MAX_PRIORITY)
            .ok_or_else(|| {
                Skip(format!(
                    "priority is a whole number from 0 to {}, not {n}",
                    hook_md::MAX_PRIORITY
                ))
            }),
        Some(other) => Err(Skip(format!(
            "priority is a whole number, not {}",
            kind(other)
        ))),
    }
}

fn message(raw: Option<&Value>, action: Action, name: &str) -> Result<String, Skip> {
    match raw {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.trim().to_owned()),
        None | Some(Value::Null | Value::String(_)) => match action {
            Action::Block => Ok(format!("blocked by rule {name}")),
            Action::Ask => Ok(format!("rule {name} asks a person to approve this call")),
            Action::Context => Err(Skip(
                "a context rule needs a message: the text the model is given".to_owned(),
            )),
        },
        Some(other) => Err(Skip(format!("message is text, not {}", kind(other)))),
    }
}

/// `tool`: a tool class (`shell`), else a pattern the tool name must match in full.
fn tool(
    raw: Option<&Value>,
    event: Event,
) -> Result<(Option<Matcher>, Option<&'static str>), Skip> {
    let text = match raw {
        None | Some(Value::Null) => return Ok((None, None)),
        Some(Value::String(text)) => text.trim(),
        Some(other) => {
            return Err(Skip(format!(
                "tool is a tool name pattern or a class, not {}",
                kind(other)
            )));
        }
    };
    if !event.is_tool_event() {
        return Err(Skip(format!(
            "tool only applies to tool events, and {event} is not one"
        )));
    }
    if let Some(class) = TOOL_CLASSES.iter().find(|class| **class == text) {
        return Ok((None, Some(*class)));
    }
    let (matcher, invalid) = Matcher::compile(text);
    match invalid {
        Some(why) => Err(Skip(format!("tool: {why}"))),
        None => Ok((Some(matcher), None)),
    }
}
