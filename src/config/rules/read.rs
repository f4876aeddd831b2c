//! A rules file's text read whole and checked: every rule of every event, each pattern built
//! once to be sure it can be, each mistake with its line. What comes out is plain data, kept as
//! a memo between commands (see [`super::load_file`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use std::borrow::Cow;
use std::sync::OnceLock;

use super::{
    Action, Condition, KEYS, PATTERN_MAX, RULES_MAX, TOOL_CLASSES, Undecidable, Vars, escape,
};
use crate::config::yaml;
use crate::config::{Event, SourceKind};
use crate::config::{glance, hook_md};
use crate::matcher::Matcher;

/// A file, read.
#[derive(Serialize, Deserialize, Default)]
pub(super) struct Read {
    /// The rules that can be used, in file order.
    pub rules: Vec<Kept>,
    /// Every rule's name, one after another: a rule has its place in this text.
    pub names: String,
    /// Softer problems: `(line, message)`.
    pub notes: Vec<(u64, String)>,
    /// Patterns naming a folder there is none of: `(line, message)`.
    pub no_folder: Vec<(u64, String)>,
    /// Rules skipped: `(line, message)`.
    pub skipped: Vec<(u64, String)>,
    /// Why the whole file cannot be used, with the line and column when known.
    pub unusable: Option<(Option<u64>, Option<u64>, String)>,
    /// Every condition's pattern, by [`Condition`]'s index: kept in a memo of their own,
    /// read only when a call could match one (most of a memo's bytes, and most of its reading).
    #[serde(skip)]
    pub patterns: Vec<String>,
}

impl Read {
    /// Gives every rule's body the memo this reading was just read back from (see
    /// [`super::body::Body::keep_in`]).
    pub(super) fn keep_bodies_in(&mut self, buffer: &std::sync::Arc<Vec<u8>>) {
        for rule in &mut self.rules {
            rule.body.keep_in(buffer);
        }
    }
}

/// One rule, checked.
#[derive(Serialize, Deserialize)]
pub(super) struct Kept {
    pub line: u64,
    /// Where its name is in [`Read::names`].
    pub name: (u32, u32),
    #[serde(with = "event_index")]
    pub event: Event,
    /// A tool name pattern (`tool:` that is not a class).
    pub tool: Option<String>,
    /// The tool class, by its index in [`TOOL_CLASSES`].
    pub tool_class: Option<u8>,
    /// `when`, `unless` and the message, read back from a memo only when a call needs them.
    pub body: super::body::Body,
    /// What the rule is about, as bits ([`super::masks_of`]).
    pub programs: Option<crate::shell::programs::Masks>,
    /// What a program must hold for the `when` on `program` to match, when that is a pattern
    /// ([`super::Rule::program_needed`]).
    pub program_needed: Option<crate::matcher::Packed>,
    pub action: Action,
    pub fail_closed: bool,
    pub priority: u16,
    pub undecidable: Undecidable,
}

/// A rule's event as a memo keeps it: its place in the table.
mod event_index {
    use crate::config::Event;

    // serde's `with` hands a field over by reference.
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub(crate) fn serialize<S: serde::Serializer>(event: &Event, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(event.index())
    }

    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Event, D::Error> {
        let index = <u8 as serde::Deserialize>::deserialize(d)?;
        Event::at(index).ok_or_else(|| serde::de::Error::custom("no such event"))
    }
}

/// A condition's field as a memo keeps it: read back without a copy when it is one this tool
/// knows, which nearly every one is.
pub(super) mod name {
    use std::borrow::Cow;

    use super::super::{COMMAND_FIELDS, TOOL_CLASSES};

    /// The fields a rule names most, besides the command fields.
    const FIELDS: [&str; 6] = ["command", "path", "file_path", "pattern", "glob", "include"];

    pub(crate) fn serialize<S: serde::Serializer>(name: &str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(name)
    }

    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Cow<'static, str>, D::Error> {
        d.deserialize_str(Visit)
    }

    struct Visit;

    impl serde::de::Visitor<'_> for Visit {
        type Value = Cow<'static, str>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a name")
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
            Ok(known(text).map_or_else(|| Cow::Owned(text.to_owned()), Cow::Borrowed))
        }
    }

    /// `text` as a name this tool has, when it is one.
    fn known(text: &str) -> Option<&'static str> {
        COMMAND_FIELDS
            .iter()
            .chain(&FIELDS)
            .chain(&TOOL_CLASSES)
            .copied()
            .find(|name| *name == text)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: Option<Vec<Spanned<Value>>>,
}

/// Why a rule is skipped.
struct Skip(String);

/// Where a rule's softer problems (and its patterns) go.
struct Notes<'a> {
    soft: &'a mut Vec<(u64, String)>,
    no_folder: &'a mut Vec<(u64, String)>,
    patterns: &'a mut Vec<String>,
}

/// Reads `bytes` as a rules file.
pub(super) fn read(bytes: &[u8], vars: Vars<'_>) -> Read {
    let mut out = Read::default();
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        out.unusable = Some((None, None, "it is not UTF-8 text".to_owned()));
        return out;
    };
    let raw = match yaml::parse::<Option<RawFile>>(text) {
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
            out.unusable = Some((
                line,
                column,
                format!("not a rules file: {}{hint}", err.message),
            ));
            return out;
        }
    };
    let items = raw.and_then(|raw| raw.rules).unwrap_or_default();
    if items.len() > RULES_MAX {
        out.unusable = Some((
            None,
            None,
            format!(
                "it holds {} rules, more than the {RULES_MAX} a file may hold",
                items.len()
            ),
        ));
        return out;
    }
    let mut names: Vec<String> = Vec::new();
    for item in &items {
        let line = item.referenced.line();
        let name = item.value.get("name").and_then(Value::as_str);
        let who = name.map_or_else(|| "a rule".to_owned(), |name| format!("rule '{name}'"));
        let mut notes = Notes {
            soft: &mut out.notes,
            no_folder: &mut out.no_folder,
            patterns: &mut out.patterns,
        };
        match rule(&item.value, line, vars, &mut names, &mut notes) {
            Ok((name, mut kept)) => {
                let start = out.names.len();
                out.names.push_str(&name);
                // A file is far smaller than 4 GiB (see `limits::MANIFEST_MAX`).
                let at = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
                kept.name = (at(start), at(out.names.len()));
                out.rules.push(kept);
            }
            Err(Skip(why)) => out.skipped.push((line, format!("{who} is skipped: {why}"))),
        }
    }
    out
}

fn rule(
    item: &Value,
    line: u64,
    vars: Vars<'_>,
    names: &mut Vec<String>,
    notes: &mut Notes<'_>,
) -> Result<(String, Kept), Skip> {
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
    let name = name(map, names)?;
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
    let mut fail_closed = flag(map.get("fail_closed"), "fail_closed")?;
    let priority = priority(map.get("priority"))?;
    let message = message(map.get("message"), action, &name)?;
    let (tool, tool_class) = tool(map.get("tool"), event)?;
    let undecidable = undecidable(map.get("undecidable"))?;
    let needs = match undecidable {
        Undecidable::Block => Action::Block,
        Undecidable::Ask => Action::Ask,
        Undecidable::Allow => action,
    };
    if !event.effects(SourceKind::Rules).contains(needs.needs()) {
        return Err(Skip(format!(
            "undecidable: {} is not possible on {event}",
            undecidable.as_str()
        )));
    }
    let when = conditions(map.get("when"), "when", line, vars, notes)?;
    let unless = conditions(map.get("unless"), "unless", line, vars, notes)?;
    if fail_closed && action == Action::Context {
        notes.soft.push((
            line,
            format!("rule '{name}': fail_closed is ignored, a context rule cannot block"),
        ));
        fail_closed = false;
    }
    let programs = super::masks_of(&when);
    let program_needed = when
        .iter()
        .find(|c| c.field == "program")
        .filter(|c| c.words.is_none())
        .and_then(|c| c.needed.clone());
    let kept = Kept {
        line,
        name: (0, 0),
        event,
        tool,
        tool_class,
        body: super::body::Body::new(when, unless, message),
        programs,
        program_needed,
        action,
        fail_closed,
        priority,
        undecidable,
    };
    Ok((name, kept))
}

fn undecidable(raw: Option<&Value>) -> Result<Undecidable, Skip> {
    match raw {
        None | Some(Value::Null) => Ok(Undecidable::Allow),
        Some(Value::String(text)) => match text.trim() {
            "block" => Ok(Undecidable::Block),
            "ask" => Ok(Undecidable::Ask),
            "allow" => Ok(Undecidable::Allow),
            other => Err(Skip(format!(
                "undecidable '{other}' is not one of block, ask, allow"
            ))),
        },
        Some(other) => Err(Skip(format!(
            "undecidable is block, ask or allow, not {}",
            kind(other)
        ))),
    }
}

fn name(map: &Map<String, Value>, names: &mut Vec<String>) -> Result<String, Skip> {
    let name = match map.get("name") {
        Some(Value::String(name)) => name.trim(),
        Some(other) => return Err(Skip(format!("name must be text, not {}", kind(other)))),
        None => return Err(Skip("it has no name".to_owned())),
    };
    if !glance::is_spec_name(name) {
        return Err(Skip(format!(
            "name '{name}' must be lowercase letters and digits, with single hyphens between \
             them"
        )));
    }
    if names.iter().any(|seen| seen == name) {
        return Err(Skip(format!(
            "the name '{name}' is used by an earlier rule of this file"
        )));
    }
    names.push(name.to_owned());
    Ok(name.to_owned())
}

/// `when` or `unless`: a mapping from field to pattern, or a list of such mappings.
fn conditions(
    raw: Option<&Value>,
    key: &str,
    line: u64,
    vars: Vars<'_>,
    notes: &mut Notes<'_>,
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
        let (pattern, missing) = put_in(pattern, vars);
        if let Some(missing) = missing {
            notes.no_folder.push((
                line,
                format!(
                    "{key}.{field}: {missing} stands for no folder here (none was found from \
                     where this runs), so no path counts as inside it"
                ),
            ));
        }
        if pattern.len() > PATTERN_MAX {
            return Err(Skip(format!(
                "{key}.{field}: the pattern is longer than {PATTERN_MAX} bytes"
            )));
        }
        // Built once here, so a pattern that reads is one that can be used later.
        let (_, invalid) = Matcher::compile_search(&pattern);
        if let Some(why) = invalid {
            return Err(Skip(format!("{key}.{field}: {why}")));
        }
        let words = crate::matcher::words_of(&pattern).map(|words| words.join("|"));
        let folded = words
            .is_none()
            .then(|| crate::matcher::folded_words_of(&pattern).map(|words| words.join("|")))
            .flatten();
        let literal = crate::matcher::literal_of(&pattern).map(str::to_owned);
        conditions.push(Condition {
            field: Cow::Owned(field.clone()),
            needed: if words.is_some() || literal.is_some() {
                None
            } else {
                Matcher::needed(&pattern).and_then(|needed| needed.packed())
            },
            fold: folded.is_some(),
            words: words.or(folded),
            literal,
            pattern: notes.patterns.len(),
            patterns: None,
            matcher: OnceLock::new(),
            automaton: OnceLock::new(),
        });
        notes.patterns.push(pattern);
    }
    Ok(conditions)
}

/// `pattern` with `${project}` and `${home}` replaced by their folders, escaped for a pattern (a
/// variable without a folder matches nothing); the second value names such a variable.
fn put_in(pattern: &str, vars: Vars<'_>) -> (String, Option<&'static str>) {
    let mut pattern = pattern.to_owned();
    let mut missing = None;
    for (name, value) in [("${project}", vars.project), ("${home}", vars.home)] {
        if pattern.contains(name) {
            let text = if let Some(dir) = value {
                escape(&crate::ground::paths::normalized(dir).to_string_lossy())
            } else {
                missing = Some(name);
                "(?!)".to_owned()
            };
            pattern = pattern.replace(name, &text);
        }
    }
    (pattern, missing)
}

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
fn tool(raw: Option<&Value>, event: Event) -> Result<(Option<String>, Option<u8>), Skip> {
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
    if let Some(class) = TOOL_CLASSES.iter().position(|class| *class == text) {
        return Ok((None, u8::try_from(class).ok()));
    }
    match Matcher::compile(text) {
        (_, Some(why)) => Err(Skip(format!("tool: {why}"))),
        (_, None) => Ok((Some(text.to_owned()), None)),
    }
}
