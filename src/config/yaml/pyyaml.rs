//! YAML as Hermes reads config.yaml: `PyYAML`'s safe loader. YAML 1.1 scalars (`yes`/`on` are
//! booleans, `010` is octal, `1e3` is a string, `1:30` is 90), a repeated key keeps its first
//! place and its last value (and is reported with both lines), merge keys (`<<`), one document.
//! Read by a port of `PyYAML`'s own reader, scanner and parser (`scanner`, `parser`), with the
//! rules of its C loader (libyaml, the one Hermes reads config.yaml with) where the two differ,
//! so every character means what it means to Hermes (a line break is `\r`, `\n`, U+0085, U+2028
//! or U+2029; a tab after a value separates) and every value keeps its line; aliases are
//! bounded, so no file can make the tree grow without end.

#[cfg(test)]
mod differential;
mod parser;
mod scanner;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use self::parser::{EventKind, Parser};
use self::scanner::Mark;
use super::YamlError;

/// The most nodes a document may hold, counting every copy an alias makes.
const MAX_NODES: usize = 1_000_000;
/// The deepest nesting of collections.
const MAX_DEPTH: usize = 256;

/// Where a node starts (`PyYAML`'s start mark).
type Span = Mark;

impl YamlError {
    fn at(mark: Mark, message: impl Into<String>) -> Self {
        marked(None, message, mark)
    }
}

/// An error at `at` (and what was being read, from where), as `PyYAML`'s marked errors say
/// it.
fn marked(context: Option<(&str, Mark)>, problem: impl Into<String>, at: Mark) -> YamlError {
    let problem = problem.into();
    let message = match context {
        None => problem,
        Some((context, from)) if (from.line, from.column) == (at.line, at.column) => {
            format!("{context}: {problem}")
        }
        Some((context, from)) => format!(
            "{context} (from line {}, column {}): {problem}",
            from.line + 1,
            from.column + 1
        ),
    };
    YamlError {
        at: Some((at.line + 1, at.column + 1)),
        message,
    }
}

/// A value with the line it starts on. It serialises (short names) for the parse memo
/// (`config::memo`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Node {
    #[serde(rename = "v")]
    pub(crate) value: Value,
    #[serde(rename = "l")]
    pub(crate) line: u64,
    /// The 1-based column it starts at.
    #[serde(rename = "c")]
    pub(crate) column: u64,
    /// How many nodes this one holds, itself included (what an alias of it costs). Only loading
    /// counts it; a node read back from the memo says 0.
    #[serde(skip)]
    size: usize,
}

/// A value as `PyYAML`'s safe loader constructs it.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum Value {
    #[serde(rename = "n")]
    Null,
    #[serde(rename = "b")]
    Bool(bool),
    /// A Python `int`; beyond `i128`, saturated (only its size matters to the readers).
    #[serde(rename = "i")]
    Int(i128),
    /// Kept as its bits: JSON has no NaN or infinity.
    #[serde(rename = "f", serialize_with = "float_bits")]
    Float(f64),
    #[serde(rename = "s")]
    Str(String),
    /// A value of another Python type (`datetime`, `date`, `bytes`, `set`): its type name and
    /// its text.
    #[serde(rename = "o")]
    Other(&'static str, String),
    #[serde(rename = "q")]
    Seq(Vec<Node>),
    #[serde(rename = "m")]
    Map(Mapping),
    /// `<<`, before it is merged away (only valid as a key).
    #[serde(rename = "M")]
    Merge,
    /// A plain `=` (YAML 1.1's value key): a string as a key, an error anywhere else.
    #[serde(rename = "E")]
    Equals,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes the field by reference
fn float_bits<S: serde::Serializer>(value: &f64, to: S) -> Result<S::Ok, S::Error> {
    to.serialize_u64(value.to_bits())
}

/// [`Value`] as the memo stores it: the float as its bits, the other type's name as text.
#[derive(Deserialize)]
enum Stored {
    #[serde(rename = "n")]
    Null,
    #[serde(rename = "b")]
    Bool(bool),
    #[serde(rename = "i")]
    Int(i128),
    #[serde(rename = "f")]
    Float(u64),
    #[serde(rename = "s")]
    Str(String),
    #[serde(rename = "o")]
    Other(String, String),
    #[serde(rename = "q")]
    Seq(Vec<Node>),
    #[serde(rename = "m")]
    Map(Mapping),
    #[serde(rename = "M")]
    Merge,
    #[serde(rename = "E")]
    Equals,
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        Self::try_from(Stored::deserialize(from)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<Stored> for Value {
    type Error = String;

    fn try_from(stored: Stored) -> Result<Self, String> {
        Ok(match stored {
            Stored::Null => Self::Null,
            Stored::Bool(value) => Self::Bool(value),
            Stored::Int(value) => Self::Int(value),
            Stored::Float(bits) => Self::Float(f64::from_bits(bits)),
            Stored::Str(text) => Self::Str(text),
            Stored::Other(name, text) => {
                let kind = ["bytes", "datetime", "date", "set", "list"]
                    .into_iter()
                    .find(|kind| *kind == name)
                    .ok_or_else(|| format!("unknown value type {name:?}"))?;
                Self::Other(kind, text)
            }
            Stored::Seq(items) => Self::Seq(items),
            Stored::Map(mapping) => Self::Map(mapping),
            Stored::Merge => Self::Merge,
            Stored::Equals => Self::Equals,
        })
    }
}

/// A mapping in first-appearance order, each key once (its last value), as a Python dict.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Mapping {
    #[serde(rename = "e")]
    pub(crate) entries: Vec<(Node, Node)>,
    /// Keys written more than once in this mapping.
    #[serde(rename = "r", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) repeated: Vec<Repeated>,
}

impl Mapping {
    /// The value of the string key `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        self.entries
            .iter()
            .find(|(k, _)| matches!(&k.value, Value::Str(text) if text == key))
            .map(|(_, v)| v)
    }
}

/// A key written twice in one mapping: the later value is the one kept.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Repeated {
    /// The key, as Python would print it.
    pub(crate) key: String,
    /// The line of its first appearance.
    pub(crate) first: u64,
    /// The line of the appearance that wins.
    pub(crate) last: u64,
    /// The value the later one replaced, which Hermes never sees.
    #[serde(rename = "d")]
    pub(crate) dropped: Node,
}

impl Value {
    /// The Python type name, as Hermes's messages say it.
    pub(crate) const fn type_name(&self) -> &'static str {
        match self {
            Self::Null => "NoneType",
            Self::Bool(_) => "bool",
            Self::Int(_) => "int",
            Self::Float(_) => "float",
            Self::Str(_) => "str",
            Self::Other(name, _) => name,
            Self::Seq(_) => "list",
            Self::Map(_) => "dict",
            Self::Merge => "merge",
            Self::Equals => "value",
        }
    }

    /// What Python's `int()` makes of it; `None` where Python raises.
    pub(crate) fn as_python_int(&self) -> Option<i128> {
        match self {
            Self::Bool(value) => Some(i128::from(*value)),
            Self::Int(value) => Some(*value),
            #[allow(clippy::cast_possible_truncation)] // saturating, and only the size matters
            Self::Float(value) if value.is_finite() => Some(value.trunc() as i128),
            Self::Str(text) => crate::ground::python_int::python_int(text),
            _ => None,
        }
    }

    /// A key as messages name it: a string as it is, anything else as Python prints it.
    pub(crate) fn key_text(&self) -> String {
        match self {
            Self::Str(text) => text.clone(),
            other => other.to_string(),
        }
    }

    /// Whether two keys name the same entry, as the messages compare them.
    pub(crate) fn same_key(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Str(a), Self::Str(b)) => a == b,
            _ => self.to_string() == other.to_string(),
        }
    }
}

impl fmt::Display for Value {
    /// As Python's `repr` shows it in a message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("None"),
            Self::Bool(true) => f.write_str("True"),
            Self::Bool(false) => f.write_str("False"),
            Self::Int(value) => write!(f, "{value}"),
            Self::Float(value) => f.write_str(&crate::ground::pyjson::python_float(*value)),
            Self::Str(text) => write!(f, "'{text}'"),
            Self::Other(name, text) => write!(f, "{name} {text}"),
            Self::Seq(_) | Self::Map(_) | Self::Merge | Self::Equals => {
                write!(f, "a {}", self.type_name())
            }
        }
    }
}

/// Reads one YAML document as `yaml.safe_load` does. `Ok(None)` for an empty stream.
pub(crate) fn load(text: &str) -> Result<Option<Node>, YamlError> {
    let mut parser = Parser::new(text)?;
    let mut builder = Builder::default();
    let mut documents = 0;
    while let Some(event) = parser.next_event()? {
        let span = event.start;
        match event.kind {
            EventKind::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError::at(
                        span,
                        "expected a single document in the stream, but found another document",
                    ));
                }
            }
            EventKind::Scalar {
                anchor,
                tag,
                implicit,
                value,
                ..
            } => {
                let value = scalar(&value, implicit, tag.as_deref(), span)?;
                builder.push(leaf(value, span), anchor, span)?;
            }
            EventKind::SequenceStart { anchor, tag } => {
                let kind = collection_tag(tag.as_deref(), "seq", span)?;
                builder.open(Frame::Seq(Vec::new()), anchor, kind, span)?;
            }
            EventKind::MappingStart { anchor, tag } => {
                let kind = collection_tag(tag.as_deref(), "map", span)?;
                builder.open(Frame::Map(Vec::new()), anchor, kind, span)?;
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => builder.close(span)?,
            EventKind::Alias(name) => {
                let node = builder.alias(&name, span)?;
                builder.push(node, None, span)?;
            }
            EventKind::StreamStart | EventKind::StreamEnd | EventKind::DocumentEnd => {}
        }
    }
    Ok(builder.root)
}

fn leaf(value: Value, span: Span) -> Node {
    Node {
        value,
        line: line_of(span),
        column: column_of(span),
        size: 1,
    }
}

fn line_of(span: Span) -> u64 {
    u64::try_from(span.line + 1).unwrap_or(u64::MAX)
}

fn column_of(span: Span) -> u64 {
    u64::try_from(span.column + 1).unwrap_or(u64::MAX)
}

/// A collection being built.
enum Frame {
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

struct Open {
    frame: Frame,
    anchor: Option<String>,
    /// The collection's explicit type, when it has one (`!!set`, `!!omap`, `!!pairs`).
    kind: Option<&'static str>,
    span: Span,
    pending_key: Option<Node>,
    size: usize,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    anchors: HashMap<String, Node>,
    /// Anchors of the collections still open.
    opening: HashSet<String>,
    root: Option<Node>,
    nodes: usize,
}

impl Builder {
    fn count(&mut self, size: usize, span: Span) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(size);
        if self.nodes > MAX_NODES {
            return Err(YamlError::at(
                span,
                "the YAML is too large or expands too far (an alias bomb?)",
            ));
        }
        Ok(())
    }

    /// The node an alias stands for.
    fn alias(&self, name: &str, span: Span) -> Result<Node, YamlError> {
        if let Some(node) = self.anchors.get(name) {
            return Ok(node.clone());
        }
        let message = if self.opening.contains(name) {
            "found an alias to an anchor that is not complete (recursive aliases are not supported)"
                .to_owned()
        } else {
            format!("found undefined alias '{name}'")
        };
        Err(YamlError::at(span, message))
    }

    /// An anchor may be defined once in a document, as `PyYAML`'s composer has it.
    fn claim(&mut self, anchor: Option<&String>, span: Span) -> Result<(), YamlError> {
        match anchor {
            Some(name) if self.anchors.contains_key(name) || self.opening.contains(name) => Err(
                YamlError::at(span, format!("found duplicate anchor '{name}'")),
            ),
            _ => Ok(()),
        }
    }

    fn open(
        &mut self,
        frame: Frame,
        anchor: Option<String>,
        kind: Option<&'static str>,
        span: Span,
    ) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::at(
                span,
                format!("the YAML nests deeper than the recursion limit ({MAX_DEPTH} levels)"),
            ));
        }
        self.claim(anchor.as_ref(), span)?;
        if let Some(name) = &anchor {
            self.opening.insert(name.clone());
        }
        self.stack.push(Open {
            frame,
            anchor,
            kind,
            span,
            pending_key: None,
            size: 1,
        });
        Ok(())
    }

    fn close(&mut self, span: Span) -> Result<(), YamlError> {
        let Some(open) = self.stack.pop() else {
            return Err(YamlError::at(span, "unbalanced collection end"));
        };
        let value = match open.frame {
            Frame::Seq(items) => match open.kind {
                Some(kind) => Value::Other(kind, String::new()),
                None => Value::Seq(items),
            },
            Frame::Map(pairs) => {
                let mapping = construct_mapping(pairs, open.span)?;
                match open.kind {
                    Some(kind) => Value::Other(kind, String::new()),
                    None => Value::Map(mapping),
                }
            }
        };
        let node = Node {
            value,
            line: line_of(open.span),
            column: column_of(open.span),
            size: open.size,
        };
        if let Some(name) = &open.anchor {
            self.opening.remove(name);
        }
        self.finish(node, open.anchor, span)
    }

    /// Adds a scalar or an alias's copy.
    fn push(&mut self, node: Node, anchor: Option<String>, span: Span) -> Result<(), YamlError> {
        self.claim(anchor.as_ref(), span)?;
        self.count(node.size, span)?;
        self.finish(node, anchor, span)
    }

    fn finish(
        &mut self,
        mut node: Node,
        anchor: Option<String>,
        span: Span,
    ) -> Result<(), YamlError> {
        if let Some(name) = anchor {
            self.anchors.insert(name, node.clone());
        }
        let is_key = self
            .stack
            .last()
            .is_some_and(|top| matches!(top.frame, Frame::Map(_)) && top.pending_key.is_none());
        match node.value {
            Value::Equals if is_key => node.value = Value::Str("=".to_owned()),
            Value::Merge if is_key => {}
            Value::Equals | Value::Merge => {
                return Err(no_constructor(node.value.type_name(), span));
            }
            _ => {}
        }
        let Some(top) = self.stack.last_mut() else {
            self.root = Some(node);
            return Ok(());
        };
        top.size = top.size.saturating_add(node.size);
        match &mut top.frame {
            Frame::Seq(items) => items.push(node),
            Frame::Map(pairs) => match top.pending_key.take() {
                None => top.pending_key = Some(node),
                Some(key) => pairs.push((key, node)),
            },
        }
        Ok(())
    }
}

fn no_constructor(tag: &str, span: Span) -> YamlError {
    YamlError::at(
        span,
        format!("could not determine a constructor for the tag 'tag:yaml.org,2002:{tag}'"),
    )
}

/// `flatten_mapping` then the dict: merged keys first, explicit keys after them (so they win),
/// each key kept once, at its first place, with its last value.
fn construct_mapping(pairs: Vec<(Node, Node)>, span: Span) -> Result<Mapping, YamlError> {
    let (ordered, from_merge) = if pairs
        .iter()
        .any(|(key, _)| matches!(key.value, Value::Merge))
    {
        flatten(pairs, span)?
    } else {
        (pairs, 0)
    };
    // Where each pair goes: the index of the first pair with the same key.
    let mut first_of: Vec<usize> = Vec::with_capacity(ordered.len());
    {
        let mut nans = 0;
        let mut ids: Vec<KeyId<'_>> = Vec::with_capacity(ordered.len());
        for (key, _) in &ordered {
            ids.push(key_id(&key.value, &mut nans).ok_or_else(|| {
                YamlError::at(
                    span,
                    "found unhashable key (a list or mapping used as a key)",
                )
            })?);
        }
        if ids.len() <= SMALL_MAPPING {
            for (i, id) in ids.iter().enumerate() {
                first_of.push(ids[..i].iter().position(|seen| seen == id).unwrap_or(i));
            }
        } else {
            let mut index: HashMap<&KeyId<'_>, usize> = HashMap::with_capacity(ids.len());
            for (i, id) in ids.iter().enumerate() {
                first_of.push(*index.entry(id).or_insert(i));
            }
        }
    }
    let mut mapping = Mapping::default();
    // The entry each first pair became, and whether its key was written in this mapping (not
    // brought in by a merge).
    let mut slot: Vec<usize> = Vec::with_capacity(ordered.len());
    let mut written: Vec<bool> = Vec::new();
    for (i, (key, value)) in ordered.into_iter().enumerate() {
        let here = i >= from_merge;
        if first_of[i] == i {
            slot.push(mapping.entries.len());
            mapping.entries.push((key, value));
            written.push(here);
            continue;
        }
        let at = slot[first_of[i]];
        slot.push(at);
        let (first, old) = &mut mapping.entries[at];
        let first = first.line;
        let dropped = std::mem::replace(old, value);
        // An explicit key over a merged one is what merging is for: no repeat.
        if here && written[at] {
            mapping.repeated.push(Repeated {
                key: key.value.key_text(),
                first,
                last: key.line,
                dropped,
            });
        }
        written[at] |= here;
    }
    Ok(mapping)
}

/// Mappings up to this many keys find repeated keys by comparing each with those before it.
const SMALL_MAPPING: usize = 16;

/// The pairs with every `<<` replaced by the pairs it merges, those first; and how many they
/// are.
fn flatten(pairs: Vec<(Node, Node)>, span: Span) -> Result<(Vec<(Node, Node)>, usize), YamlError> {
    let mut merged: Vec<(Node, Node)> = Vec::new();
    let mut explicit: Vec<(Node, Node)> = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        if !matches!(key.value, Value::Merge) {
            explicit.push((key, value));
            continue;
        }
        match value.value {
            Value::Map(mapping) => merged.extend(mapping.entries),
            Value::Seq(items) => {
                let mut each = Vec::with_capacity(items.len());
                for item in items {
                    let Value::Map(mapping) = item.value else {
                        return Err(YamlError::at(
                            span,
                            format!(
                                "expected a mapping for merging, but found {}",
                                item.value.type_name()
                            ),
                        ));
                    };
                    each.push(mapping.entries);
                }
                // Earlier mappings in the list win: they are added last.
                for entries in each.into_iter().rev() {
                    merged.extend(entries);
                }
            }
            other => {
                return Err(YamlError::at(
                    span,
                    format!(
                        "expected a mapping or list of mappings for merging, but found {}",
                        other.type_name()
                    ),
                ));
            }
        }
    }
    let from_merge = merged.len();
    merged.extend(explicit);
    Ok((merged, from_merge))
}

/// Python's dict identity of a key: `True == 1 == 1.0`, every NaN its own key.
#[derive(Hash, PartialEq, Eq)]
enum KeyId<'a> {
    Null,
    Int(i128),
    Float(u64),
    Nan(usize),
    Str(&'a str),
    Other(&'static str, &'a str),
}

#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)] // exact for integral floats in range
fn key_id<'a>(value: &'a Value, nans: &mut usize) -> Option<KeyId<'a>> {
    Some(match value {
        Value::Null => KeyId::Null,
        Value::Bool(b) => KeyId::Int(i128::from(*b)),
        Value::Int(i) => KeyId::Int(*i),
        Value::Float(f) if f.is_nan() => {
            *nans += 1;
            KeyId::Nan(*nans)
        }
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e38 => KeyId::Int(*f as i128),
        Value::Float(f) => KeyId::Float(f.to_bits()),
        Value::Str(s) => KeyId::Str(s),
        Value::Other(name, text) => KeyId::Other(name, text),
        Value::Seq(_) | Value::Map(_) | Value::Merge | Value::Equals => return None,
    })
}

/// The explicit type of a collection: `None` for a plain list or mapping, the Python type for
/// the others; an unknown tag is an error, as `PyYAML`'s safe loader has no constructor for it.
fn collection_tag(
    tag: Option<&str>,
    plain: &str,
    span: Span,
) -> Result<Option<&'static str>, YamlError> {
    let Some(full) = tag else { return Ok(None) };
    match full.strip_prefix("tag:yaml.org,2002:") {
        Some(name) if name == plain => Ok(None),
        Some("set") => Ok(Some("set")),
        Some("omap" | "pairs") => Ok(Some("list")),
        _ if full == "!" => Ok(None),
        _ => Err(YamlError::at(
            span,
            format!("could not determine a constructor for the tag '{full}'"),
        )),
    }
}

/// A scalar, resolved and constructed as `PyYAML`'s safe loader does: without a tag (or
/// with the tag `!`), a plain scalar's type comes from its text, any other is a string.
fn scalar(text: &str, implicit: bool, tag: Option<&str>, span: Span) -> Result<Value, YamlError> {
    let full = match tag {
        None | Some("!") if implicit => return Ok(resolve_plain(text)),
        None | Some("!") => return Ok(Value::Str(text.to_owned())),
        Some(full) => full,
    };
    let bad = || {
        YamlError::at(
            span,
            format!("cannot construct a value of the tag '{full}' from '{text}'"),
        )
    };
    Ok(match full.strip_prefix("tag:yaml.org,2002:") {
        Some("str") => Value::Str(text.to_owned()),
        Some("null") => Value::Null,
        Some("bool") => match text.to_lowercase().as_str() {
            "yes" | "true" | "on" => Value::Bool(true),
            "no" | "false" | "off" => Value::Bool(false),
            _ => return Err(bad()),
        },
        Some("int") => construct_int(text).ok_or_else(bad)?,
        Some("float") => construct_float(text).ok_or_else(bad)?,
        Some("binary") => Value::Other("bytes", text.to_owned()),
        Some("timestamp") => Value::Other("datetime", text.to_owned()),
        Some("merge") => Value::Merge,
        _ => {
            return Err(YamlError::at(
                span,
                format!("could not determine a constructor for the tag '{full}'"),
            ));
        }
    })
}

/// The implicit resolvers of `PyYAML` (YAML 1.1), in its order, for a plain scalar.
fn resolve_plain(text: &str) -> Value {
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Value::Null;
    }
    match text {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Value::Bool(true);
        }
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Value::Bool(false);
        }
        "<<" => return Value::Merge,
        "=" => return Value::Equals,
        _ => {}
    }
    if is_yaml11_float(text)
        && let Some(value) = construct_float(text)
    {
        return value;
    }
    if is_yaml11_int(text)
        && let Some(value) = construct_int(text)
    {
        return value;
    }
    if is_timestamp(text) {
        let kind = if text.len() == 10 { "date" } else { "datetime" };
        return Value::Other(kind, text.to_owned());
    }
    Value::Str(text.to_owned())
}

/// A run of `[0-9_]`-like characters: the index after the longest prefix of `rest` whose
/// bytes satisfy `ok`.
fn span_of(rest: &[u8], ok: impl Fn(u8) -> bool) -> usize {
    rest.iter().position(|b| !ok(*b)).unwrap_or(rest.len())
}

fn strip_sign(text: &[u8]) -> &[u8] {
    match text.first() {
        Some(b'-' | b'+') => &text[1..],
        _ => text,
    }
}

const fn digit_(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `(?::[0-5]?[0-9])+` at the start of `rest`: the length it takes, or 0.
fn sexagesimal(rest: &[u8]) -> usize {
    let mut at = 0;
    loop {
        if rest.get(at) != Some(&b':') {
            return at;
        }
        let digits = span_of(&rest[at + 1..], |b| b.is_ascii_digit());
        let ok = match digits {
            1 => true,
            2 => rest[at + 1] <= b'5',
            _ => false,
        };
        if !ok {
            return at;
        }
        at += 1 + digits;
    }
}

/// `PyYAML`'s float resolver.
fn is_yaml11_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let unsigned = strip_sign(bytes);
    if matches!(unsigned, b".inf" | b".Inf" | b".INF") {
        return true;
    }
    let exponent = |rest: &[u8]| -> bool {
        // (?:[eE][-+][0-9]+)? then the end.
        rest.is_empty()
            || (rest.len() >= 3
                && matches!(rest[0], b'e' | b'E')
                && matches!(rest[1], b'-' | b'+')
                && rest[2..].iter().all(u8::is_ascii_digit))
    };
    // \.[0-9][0-9_]*(exp)?  (no sign)
    if let Some(rest) = bytes.strip_prefix(b".") {
        if rest.first().is_some_and(u8::is_ascii_digit) {
            let n = span_of(rest, digit_);
            return exponent(&rest[n..]);
        }
        return false;
    }
    // [-+]?[0-9][0-9_]* then either \.[0-9_]*(exp)? or (:[0-5]?[0-9])+\.[0-9_]*
    if !unsigned.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let n = span_of(unsigned, digit_);
    let rest = &unsigned[n..];
    if let Some(after) = rest.strip_prefix(b".") {
        let m = span_of(after, digit_);
        return exponent(&after[m..]);
    }
    let s = sexagesimal(rest);
    if s == 0 {
        return false;
    }
    match rest[s..].strip_prefix(b".") {
        Some(after) => after.iter().all(|b| digit_(*b)),
        None => false,
    }
}

/// `PyYAML`'s int resolver.
fn is_yaml11_int(text: &str) -> bool {
    let unsigned = strip_sign(text.as_bytes());
    if let Some(rest) = unsigned.strip_prefix(b"0b") {
        return !rest.is_empty() && rest.iter().all(|b| matches!(b, b'0' | b'1' | b'_'));
    }
    if let Some(rest) = unsigned.strip_prefix(b"0x") {
        return !rest.is_empty() && rest.iter().all(|b| b.is_ascii_hexdigit() || *b == b'_');
    }
    if unsigned == b"0" {
        return true;
    }
    if let Some(rest) = unsigned.strip_prefix(b"0") {
        return rest.iter().all(|b| matches!(b, b'0'..=b'7' | b'_'));
    }
    if !unsigned.first().is_some_and(|b| matches!(b, b'1'..=b'9')) {
        return false;
    }
    let n = span_of(unsigned, digit_);
    let rest = &unsigned[n..];
    rest.is_empty() || (sexagesimal(rest) == rest.len())
}

/// `PyYAML`'s timestamp resolver.
fn is_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    if b.len() == 10 {
        return digits(&b[0..4])
            && b[4] == b'-'
            && digits(&b[5..7])
            && b[7] == b'-'
            && digits(&b[8..10]);
    }
    // YYYY-M?M-D?D ([Tt]|[ \t]+) H?H:MM:SS(.fraction)? ([ \t]*(Z|[-+]H?H(:MM)?))?
    let mut at = 0;
    let take = |min: usize, max: usize, at: &mut usize| -> bool {
        let n = span_of(&b[*at..], |c| c.is_ascii_digit()).min(max);
        *at += n;
        n >= min
    };
    let lit = |c: u8, at: &mut usize| -> bool {
        if b.get(*at) == Some(&c) {
            *at += 1;
            true
        } else {
            false
        }
    };
    if !(take(4, 4, &mut at) && lit(b'-', &mut at) && take(1, 2, &mut at) && lit(b'-', &mut at)) {
        return false;
    }
    if !take(1, 2, &mut at) {
        return false;
    }
    if matches!(b.get(at), Some(b'T' | b't')) {
        at += 1;
    } else {
        let n = span_of(&b[at..], |c| c == b' ' || c == b'\t');
        if n == 0 {
            return false;
        }
        at += n;
    }
    if !(take(1, 2, &mut at)
        && lit(b':', &mut at)
        && take(2, 2, &mut at)
        && lit(b':', &mut at)
        && take(2, 2, &mut at))
    {
        return false;
    }
    if lit(b'.', &mut at) {
        at += span_of(&b[at..], |c| c.is_ascii_digit());
    }
    at += span_of(&b[at..], |c| c == b' ' || c == b'\t');
    if at == b.len() {
        return true;
    }
    if lit(b'Z', &mut at) {
        return at == b.len();
    }
    if !(lit(b'-', &mut at) || lit(b'+', &mut at)) || !take(1, 2, &mut at) {
        return false;
    }
    if lit(b':', &mut at) && !take(2, 2, &mut at) {
        return false;
    }
    at == b.len()
}

/// `SafeConstructor.construct_yaml_int`.
fn construct_int(text: &str) -> Option<Value> {
    let cleaned: String = text.chars().filter(|c| *c != '_').collect();
    let (negative, digits) = match cleaned.as_bytes().first()? {
        b'-' => (true, &cleaned[1..]),
        b'+' => (false, &cleaned[1..]),
        _ => (false, cleaned.as_str()),
    };
    let parse = python_int;
    let value = if digits == "0" {
        0
    } else if let Some(bin) = digits.strip_prefix("0b") {
        parse(bin, 2)?
    } else if let Some(hex) = digits.strip_prefix("0x") {
        parse(hex, 16)?
    } else if digits.starts_with('0') {
        parse(digits, 8)?
    } else if digits.contains(':') {
        digits.split(':').try_fold(0_i128, |acc, part| {
            Some(acc.saturating_mul(60).saturating_add(parse(part, 10)?))
        })?
    } else {
        parse(digits, 10)?
    };
    Some(Value::Int(if negative { -value } else { value }))
}

/// Python's `int(text, radix)`, which `construct_yaml_int` calls: blanks around the number
/// (a tab in `!!int '10<TAB>'`) and a sign go, and base 2, 8 or 16 takes its `0b`, `0o` or
/// `0x` prefix. ASCII digits only (Python also takes other scripts' decimal digits).
fn python_int(text: &str, radix: u32) -> Option<i128> {
    let text = text.trim_matches(is_python_space);
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let prefix = match radix {
        2 => "0b",
        8 => "0o",
        16 => "0x",
        _ => "",
    };
    let digits = match digits.get(..2) {
        Some(head) if !prefix.is_empty() && head.eq_ignore_ascii_case(prefix) => &digits[2..],
        _ => digits,
    };
    if digits.is_empty() {
        return None;
    }
    let value = digits.chars().try_fold(0_i128, |acc, c| {
        Some(
            acc.saturating_mul(i128::from(radix))
                .saturating_add(i128::from(c.to_digit(radix)?)),
        )
    })?;
    Some(if negative { -value } else { value })
}

/// Python's `float(text)`, which `construct_yaml_float` calls: blanks around the number go.
fn python_float(text: &str) -> Option<f64> {
    text.trim_matches(is_python_space).parse::<f64>().ok()
}

/// What Python's `str.strip()` takes away.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1C}'..='\u{1F}').contains(&c)
}

/// `SafeConstructor.construct_yaml_float`.
fn construct_float(text: &str) -> Option<Value> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_lowercase();
    let (sign, rest) = match cleaned.as_bytes().first()? {
        b'-' => (-1.0, &cleaned[1..]),
        b'+' => (1.0, &cleaned[1..]),
        _ => (1.0, cleaned.as_str()),
    };
    let value = if rest == ".inf" {
        f64::INFINITY
    } else if rest == ".nan" {
        return Some(Value::Float(f64::NAN));
    } else if rest.contains(':') {
        rest.split(':')
            .try_fold(0.0, |acc: f64, part| Some(acc * 60.0 + python_float(part)?))?
    } else {
        python_float(rest)?
    };
    Some(Value::Float(sign * value))
}

#[cfg(test)]
mod tests {
    use super::{SMALL_MAPPING, Value, load};
    use std::fmt::Write as _;

    fn scalar(text: &str) -> Value {
        let node = load(&format!("k: {text}\n")).unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!("not a map")
        };
        map.entries[0].1.value.clone()
    }

    #[test]
    fn scalars_resolve_as_pyyaml_resolves_them() {
        // Each expectation is what yaml.safe_load (`PyYAML` 6.0.3) returns.
        let cases: &[(&str, &str)] = &[
            ("yes", "True"),
            ("On", "True"),
            ("OFF", "False"),
            ("y", "'y'"),
            ("n", "'n'"),
            ("yEs", "'yEs'"),
            ("010", "8"),
            ("0o10", "'0o10'"),
            ("0x1F", "31"),
            ("0b101", "5"),
            ("1_000", "1000"),
            ("1e3", "'1e3'"),
            ("1.0e3", "'1.0e3'"),
            ("1.0e+3", "1000.0"),
            ("1.5", "1.5"),
            (".5", "0.5"),
            ("1:30", "90"),
            ("1:30.5", "90.5"),
            ("0:30", "'0:30'"),
            (".inf", "inf"),
            ("-.INF", "-inf"),
            ("~", "None"),
            ("", "None"),
            ("Null", "None"),
            ("'yes'", "'yes'"),
            ("\"010\"", "'010'"),
            ("!!str 010", "'010'"),
            ("!!int '12'", "12"),
            // Python's `int()` and `float()` read what the tag gives them.
            ("!!int '\t10 '", "10"),
            ("!!int '- -3'", "3"),
            ("!!int '0o7'", "7"),
            ("!!int ' 010'", "10"),
            ("!!float ' 1.5\t'", "1.5"),
            ("99999999999999999999999", "99999999999999999999999"),
            ("2001-12-14", "date 2001-12-14"),
            (
                "2001-12-14t21:59:43.10-05:00",
                "datetime 2001-12-14t21:59:43.10-05:00",
            ),
        ];
        for (text, want) in cases {
            let got = match scalar(text) {
                Value::Float(f) if f.is_infinite() => {
                    if f > 0.0 { "inf" } else { "-inf" }.to_owned()
                }
                other => other.to_string(),
            };
            assert_eq!(&got, want, "{text}");
        }
    }

    #[test]
    fn repeated_keys_keep_their_first_place_and_last_value() {
        let node = load("a: 1\nb: 2\na: 3\n").unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        let keys: Vec<_> = map
            .entries
            .iter()
            .map(|(k, v)| (k.value.to_string(), v.value.to_string()))
            .collect();
        assert_eq!(
            keys,
            [
                ("'a'".to_owned(), "3".to_owned()),
                ("'b'".to_owned(), "2".to_owned())
            ]
        );
        assert_eq!(map.repeated.len(), 1);
        assert_eq!((map.repeated[0].first, map.repeated[0].last), (1, 3));
        // `yes` and `true` are the same key, as are 1 and 1.0.
        let node = load("yes: a\ntrue: b\n1: c\n1.0: d\n").unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        assert_eq!(map.entries.len(), 1);
        assert_eq!(map.entries[0].1.value.to_string(), "'d'");
    }

    #[test]
    fn large_mappings_find_repeated_keys_as_small_ones_do() {
        use std::fmt::Write as _;
        // Past `SMALL_MAPPING` keys, repeats are found by hashing: the same answer.
        for filler in [0, SMALL_MAPPING * 2] {
            let mut text = String::from("yes: a\n");
            for n in 0..filler {
                let _ = writeln!(text, "k{n}: {n}");
            }
            text.push_str("1.0: b\n.nan: c\n.nan: d\nk0: e\n");
            let Value::Map(map) = load(&text).unwrap().unwrap().value else {
                panic!()
            };
            // True (1.0 is the same key), k0.., and each NaN; `k0` is new when there is no filler.
            let expected_keys = 1 + filler + 2 + usize::from(filler == 0);
            assert_eq!(map.entries.len(), expected_keys, "{filler}");
            assert_eq!(map.entries[0].0.value.to_string(), "True");
            assert_eq!(map.entries[0].1.value.to_string(), "'b'");
            let repeated: Vec<_> = map
                .repeated
                .iter()
                .map(|r| (r.key.as_str(), r.first, r.last))
                .collect();
            let mut want = vec![("1.0", 1, filler as u64 + 2)];
            if filler > 0 {
                want.push(("k0", 2, filler as u64 + 5));
                assert_eq!(map.get("k0").unwrap().value.to_string(), "'e'");
            }
            assert_eq!(repeated, want, "{filler}");
        }
    }

    #[test]
    fn merge_keys_merge_and_explicit_keys_win() {
        let node = load("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n")
            .unwrap()
            .unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        let Value::Map(used) = &map.get("use").unwrap().value else {
            panic!()
        };
        let pairs: Vec<_> = used
            .entries
            .iter()
            .map(|(k, v)| format!("{}={}", k.value, v.value))
            .collect();
        assert_eq!(pairs, ["'x'=1", "'y'=3"]);
        assert!(used.repeated.is_empty(), "{:?}", used.repeated);
    }

    #[test]
    fn what_pyyaml_c_loader_refuses_is_refused() {
        // Each is refused by `yaml.load(text, Loader=yaml.CSafeLoader)` (libyaml 0.2.5); the
        // last ones the Python loader reads.
        for text in [
            "a: 1\n---\nb: 2\n",
            "? [a]\n: 1\n",
            "a: !foo x\n",
            "a: =\n",
            "a: <<\n",
            "a: !!int x\n",
            "a: &x 1\nb: &x 2\n",
            "a: *nowhere\n",
            "a: \"\\u0001\" \u{1}\n",
            "a: \"\\U00110000\"\n",
            "\ta: 1\n",
            "a:\n\t- b\n",
            "- \tx\n",
            "a: !!str,x\n",
            "a: \"\\ud800\"\n",
            "%FOO\n--- a\n",
            "%YAML 1.3\n--- a\n",
            "a: [x:, y]\n",
        ] {
            assert!(load(text).is_err(), "{text:?}");
        }
    }

    /// The value of the top-level key `a`, and the line each top-level key is on.
    fn read(text: &str) -> (Option<Value>, Vec<(String, u64)>) {
        let Value::Map(map) = load(text).unwrap().unwrap().value else {
            panic!("not a mapping: {text:?}")
        };
        let lines = map
            .entries
            .iter()
            .map(|(key, _)| (key.value.key_text(), key.line))
            .collect();
        (map.get("a").map(|node| node.value.clone()), lines)
    }

    /// Every line break `PyYAML` knows, and the text it stands for inside a value.
    const BREAKS: [(&str, &str); 6] = [
        ("\n", "\n"),
        ("\r", "\n"),
        ("\r\n", "\n"),
        ("\u{85}", "\n"),
        ("\u{2028}", "\u{2028}"),
        ("\u{2029}", "\u{2029}"),
    ];

    #[test]
    fn every_line_break_pyyaml_knows_ends_a_comment_and_a_line() {
        for (line_break, _) in BREAKS {
            let text = format!("a: 1 # note{line_break}hooks_auto_accept: true{line_break}c: 3");
            let (a, lines) = read(&text);
            assert_eq!(a.map(|v| v.to_string()), Some("1".to_owned()), "{text:?}");
            let want = [("a", 1), ("hooks_auto_accept", 2), ("c", 3)];
            let want: Vec<_> = want.iter().map(|(k, l)| ((*k).to_owned(), *l)).collect();
            assert_eq!(lines, want, "{text:?}");
        }
        // `\r` then U+0085 are two line breaks; `\r\n` is one.
        let (_, lines) = read("a: 1\r\u{85}b: 2\r\nc: 3\n");
        assert_eq!(lines[1..], [("b".to_owned(), 3), ("c".to_owned(), 4)]);
    }

    #[test]
    fn scalars_fold_every_line_break_as_pyyaml_folds_it() {
        // Each expectation is what `yaml.safe_load` (`PyYAML` 6.0.3, its Python and its C loader
        // alike) returns: a first `\n` between two lines becomes a space, U+2028 and U+2029
        // stay as they are.
        for (line_break, kept) in BREAKS {
            let folded = if kept == "\n" { " " } else { kept };
            let cases = [
                (format!("a: x{line_break}  y\n"), format!("x{folded}y")),
                (format!("a: 'x{line_break}  y'\n"), format!("x{folded}y")),
                (format!("a: \"x{line_break}  y\"\n"), format!("x{folded}y")),
                (format!("a: \"x\\{line_break}  y\"\n"), "xy".to_owned()),
                // Of two line breaks, a first `\n` goes.
                (
                    format!("a: x{line_break}{line_break}  y\n"),
                    if kept == "\n" {
                        "x\ny".to_owned()
                    } else {
                        format!("x{kept}{kept}y")
                    },
                ),
                (format!("a: |\n  x{line_break}  y\n"), format!("x{kept}y\n")),
                (
                    format!("a: >\n  x{line_break}  y\n  z\n"),
                    format!("x{folded}y z\n"),
                ),
                (format!("a: |-\n  x{line_break}"), "x".to_owned()),
            ];
            for (text, want) in cases {
                let (a, _) = read(&text);
                assert_eq!(a.map(|v| v.key_text()), Some(want), "{text:?}");
            }
        }
    }

    #[test]
    fn a_key_may_hold_a_line_break_only_after_a_question_mark() {
        for (line_break, kept) in BREAKS {
            let folded = if kept == "\n" { " " } else { kept };
            let (_, lines) = read(&format!("? a{line_break}  b\n: 1\n"));
            assert_eq!(lines, [(format!("a{folded}b"), 1)]);
            assert!(
                load(&format!("a{line_break}: 1\n")).is_err(),
                "{line_break:?}"
            );
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped_where_it_starts_a_line_and_takes_a_column() {
        // As `yaml.load(text, Loader=yaml.CSafeLoader)` reads them: libyaml skips a byte-order
        // mark that starts a line, and counts it as a column (the Python loader reads one past
        // the first character as text).
        let (a, _) = read("\u{FEFF}a: 1\n");
        assert_eq!(a.map(|v| v.to_string()), Some("1".to_owned()));
        let (a, lines) = read("\u{FEFF}\u{FEFF}a: 1\n");
        assert_eq!(a.map(|v| v.to_string()), Some("1".to_owned()));
        assert_eq!(lines, [("a".to_owned(), 1)]);
        // Skipped on a later line, it leaves the key one column in: no key of the mapping.
        for text in [
            "a: 1\n\u{FEFF}hooks_auto_accept: true\n",
            "a: 1\u{2028}\u{FEFF}b: 2\n",
        ] {
            assert!(load(text).is_err(), "{text:?}");
        }
        let node = load("a:\n  \u{FEFF}b: 1\n").unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        let Value::Map(inner) = &map.entries[0].1.value else {
            panic!()
        };
        let (key, value) = &inner.entries[0];
        assert_eq!(key.value.key_text(), "\u{FEFF}b");
        assert_eq!((value.line, value.column), (2, 7));
        // Inside a quoted scalar it is text.
        let (a, _) = read("a: \"x\u{FEFF}y\"\n");
        assert_eq!(a.map(|v| v.key_text()), Some("x\u{FEFF}y".to_owned()));
    }

    #[test]
    fn a_tab_where_a_block_scalar_finds_its_indentation_is_refused() {
        // PyYAML's Python loader reads "\tx"; its C loader refuses the file.
        let err = load("a: |\n  \tx\n").unwrap_err();
        assert!(err.message.contains("tab character"), "{err}");
        let (a, _) = read("a: |\n  x\ty\n  \tz\n");
        assert_eq!(a.map(|v| v.key_text()), Some("x\ty\n\tz\n".to_owned()));
    }

    /// The items of a sequence, as text, joined by commas.
    fn seq_text(items: &[super::Node]) -> String {
        let texts: Vec<String> = items.iter().map(|i| i.value.key_text()).collect();
        texts.join(",")
    }

    #[test]
    fn a_tab_libyaml_accepts_is_read_as_hermes_reads_it() {
        // Each expectation is what `yaml.load(text, Loader=yaml.CSafeLoader)` (PyYAML 6.0.3,
        // libyaml 0.2.5) returns for `a`; PyYAML's Python loader refuses every one of them.
        let cases: &[(&str, &str)] = &[
            ("a: guard.sh\t# note\n", "guard.sh"),
            ("a\t: value\n", "value"),
            ("a:\tvalue\n", "value"),
            ("a: x\ty\n", "x\ty"),
            ("a: x \t\n  y\n", "x y"),
            ("a:\n  x\n \ty\n", "x y"),
            ("a: &x\tv\n", "v"),
            ("a: !!str\t1\n", "1"),
            ("a: !\tv\n", "v"),
            ("a: |\t# note\n  x\n", "x\n"),
            ("a: >-#note\n  x\n  y\n", "x y"),
            ("%YAML\t1.1\t# c\n---\na: 1\n", "1"),
        ];
        for (text, want) in cases {
            let (a, _) = read(text);
            assert_eq!(a.map(|v| v.key_text()).as_deref(), Some(*want), "{text:?}");
        }
        // In the flow context a tab separates as a space does.
        let node = load("a: [x,\ty]\nb: {k:\tv}\n").unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        let texts: Vec<String> = map
            .entries
            .iter()
            .map(|(_, v)| match &v.value {
                Value::Seq(items) => seq_text(items),
                Value::Map(m) => {
                    let pairs: Vec<String> = m
                        .entries
                        .iter()
                        .map(|(k, v)| format!("{}={}", k.value.key_text(), v.value.key_text()))
                        .collect();
                    pairs.join(",")
                }
                other => other.key_text(),
            })
            .collect();
        assert_eq!(texts, ["x,y", "k=v"]);
        // A tab in the indentation of a plain scalar's next line, less indented than the
        // scalar may be, is refused, as libyaml refuses it.
        let err = load("a: x\n\ty\n").unwrap_err();
        assert!(err.message.contains("violates indentation"), "{err}");
    }

    #[test]
    fn flow_collections_and_tags_read_as_libyaml_reads_them() {
        // What `yaml.load(text, Loader=yaml.CSafeLoader)` returns; the Python loader refuses
        // the first two and reads the last two as null.
        let cases: &[(&str, &str)] = &[
            ("a: [x?y]\n", "x?y"),
            ("a: [!!str, x]\n", ",x"),
            ("a: !\n", ""),
            ("a: ! \n# c\n", ""),
        ];
        for (text, want) in cases {
            let (a, _) = read(text);
            let got = match a {
                Some(Value::Seq(items)) => seq_text(&items),
                Some(other) => other.key_text(),
                None => panic!("{text:?}"),
            };
            assert_eq!(got, *want, "{text:?}");
        }
        // libyaml takes the token after an empty `?` in a flow sequence with it: `[? ]]` is
        // `[{None: None}]`, and `[? : x]` is refused (the Python loader refuses the first and
        // reads the second).
        let (a, _) = read("a: [? ]]\n");
        let Some(Value::Seq(items)) = a else {
            panic!("{a:?}")
        };
        let Value::Map(pair) = &items[0].value else {
            panic!("{items:?}")
        };
        assert_eq!(items.len(), 1);
        assert!(matches!(
            (&pair.entries[0].0.value, &pair.entries[0].1.value),
            (Value::Null, Value::Null)
        ));
        assert!(load("a: [? : x]\n").is_err());
        // `!` on an empty value is an empty string, an empty value without it is null.
        let (a, _) = read("a: !\n");
        assert!(matches!(a, Some(Value::Str(text)) if text.is_empty()));
        let (a, _) = read("a: &x\n");
        assert!(matches!(a, Some(Value::Null)));
    }

    #[test]
    fn a_missing_value_at_the_end_of_the_file_is_on_the_next_line() {
        // libyaml ends the stream on a line of its own: the value `? k` lacks is on line 2
        // (column 1) for the C loader, on line 1 for the Python loader.
        let node = load("? k").unwrap().unwrap();
        let Value::Map(map) = node.value else {
            panic!()
        };
        let value = &map.entries[0].1;
        assert_eq!((value.line, value.column), (2, 1));
    }

    #[test]
    fn alias_bombs_are_bounded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = i - 1;
            let refs = vec![format!("*a{prev}"); 10].join(", ");
            let _ = writeln!(text, "a{i}: &a{i} [{refs}]");
        }
        let err = load(&text).unwrap_err();
        assert!(err.message.contains("alias bomb"), "{}", err.message);
    }
}
