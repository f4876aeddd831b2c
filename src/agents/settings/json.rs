//! JSON settings files edited in place: a parser that keeps where every value starts and ends,
//! and edits spliced into the text, so the rest of the file (key order, indentation, escapes,
//! number spellings, comments where the agent allows them) stays byte for byte as it was.

use std::fmt;

use serde_json::Value;

/// How deep values may nest before the file is refused (settings files are a few levels deep).
const DEPTH_MAX: usize = 256;

/// One parsed value and where it is in the text.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
}

/// A JSON value's kind, with its contents.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// An object's members, in order.
    Object(Vec<Member>),
    /// An array's elements, in order.
    Array(Vec<Node>),
    /// A string, unescaped.
    String(String),
    /// A number, as written.
    Number(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// One `"key": value` of an object.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    /// The key, unescaped.
    pub key: String,
    /// Byte offset of the key's opening quote.
    pub key_start: usize,
    /// The value.
    pub value: Node,
}

impl Node {
    /// The members, when this is an object.
    pub(crate) fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub(crate) fn elements(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(elements) => Some(elements),
            _ => None,
        }
    }

    /// The value of `key`, when this is an object that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// What kind of value this is, in words.
    pub(crate) fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Object(_) => "an object",
            Kind::Array(_) => "an array",
            Kind::String(_) => "a string",
            Kind::Number(_) => "a number",
            Kind::Bool(_) => "a boolean",
            Kind::Null => "null",
        }
    }
}

/// Why a file is not JSON this editor takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// The 1-based line and column of byte `at` in `text`.
pub(crate) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parses `text` as one JSON value (`//` and `/* */` comments taken as blanks when `comments`).
/// A key written twice in one object is refused: which of the two counts depends on the reader.
pub(crate) fn parse(text: &str, comments: bool) -> Result<Node, SyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        comments,
    };
    parser.blank()?;
    let node = parser.value(0)?;
    parser.blank()?;
    if parser.at < parser.bytes.len() {
        return Err(parser.error("more text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    comments: bool,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> SyntaxError {
        self.error_at(self.at, message)
    }

    fn error_at(&self, at: usize, message: impl Into<String>) -> SyntaxError {
        let (line, column) = line_column(self.text, at);
        SyntaxError {
            line,
            column,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips whitespace (and comments, where allowed).
    fn blank(&mut self) -> Result<(), SyntaxError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if self.comments => self.comment()?,
                _ => return Ok(()),
            }
        }
    }

    fn comment(&mut self) -> Result<(), SyntaxError> {
        let start = self.at;
        match self.bytes.get(self.at + 1) {
            Some(b'/') => {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.at += 1;
                }
                Ok(())
            }
            Some(b'*') => {
                let rest = &self.text[self.at + 2..];
                match rest.find("*/") {
                    Some(end) => {
                        self.at += 2 + end + 2;
                        Ok(())
                    }
                    None => Err(self.error_at(start, "a comment that is never closed")),
                }
            }
            _ => Err(self.error("unexpected '/'")),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if depth > DEPTH_MAX {
            return Err(self.error(format!("values nested more than {DEPTH_MAX} deep")));
        }
        let start = self.at;
        let kind = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => self.word("true", Kind::Bool(true))?,
            Some(b'f') => self.word("false", Kind::Bool(false))?,
            Some(b'n') => self.word("null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.error("expected a JSON value")),
            None => return Err(self.error("the file ends where a value should be")),
        };
        Ok(Node {
            start,
            end: self.at,
            kind,
        })
    }

    fn word(&mut self, word: &str, kind: Kind) -> Result<Kind, SyntaxError> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(kind)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn number(&mut self) -> Result<Kind, SyntaxError> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        let text = &self.text[start..self.at];
        // serde_json's reader is strict about the grammar (no `01`, no `1.`).
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Number(_)) => Ok(Kind::Number(text.to_owned())),
            _ => Err(self.error_at(start, format!("'{text}' is not a JSON number"))),
        }
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek() {
                None => return Err(self.error_at(start, "a string that is never closed")),
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(b) if b < 0x20 => {
                    return Err(self.error("a control character inside a string"));
                }
                Some(_) => self.at += 1,
            }
        }
        self.at += 1;
        let raw = self.text.get(start..self.at).unwrap_or_default();
        serde_json::from_str::<String>(raw)
            .map_err(|err| self.error_at(start, format!("a string that is not valid JSON: {err}")))
    }

    fn object(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.at += 1;
        let mut members: Vec<Member> = Vec::new();
        self.blank()?;
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.blank()?;
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key in double quotes"));
            }
            let key_start = self.at;
            let key = self.string()?;
            if members.iter().any(|m| m.key == key) {
                return Err(self.error_at(
                    key_start,
                    format!("the key \"{key}\" is written twice in one object"),
                ));
            }
            self.blank()?;
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after the key"));
            }
            self.at += 1;
            self.blank()?;
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                key_start,
                value,
            });
            self.blank()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.at += 1;
        let mut elements = Vec::new();
        self.blank()?;
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Kind::Array(elements));
        }
        loop {
            self.blank()?;
            elements.push(self.value(depth + 1)?);
            self.blank()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Kind::Array(elements));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }
}

/// How new text is laid out: one indentation step (`None`: the file is on one line, so new
/// values are written compact too).
#[derive(Debug, Clone)]
pub(crate) struct Style {
    unit: Option<String>,
}

impl Style {
    /// The style of `text`: the indentation of its first indented line, two spaces when the
    /// file is new, holds only an empty object, or nothing in it is indented but it spans lines.
    /// Only a file with content on one line is kept on one line.
    pub(crate) fn of(text: &str) -> Self {
        let trimmed = text.trim();
        let empty = trimmed
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'));
        if !trimmed.is_empty()
            && !trimmed.contains('\n')
            && empty.is_none_or(|inside| !inside.trim().is_empty())
        {
            return Self { unit: None };
        }
        let unit = text
            .lines()
            .skip(1)
            .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
            .find(|indent| !indent.is_empty())
            .unwrap_or("  ");
        Self {
            unit: Some(unit.to_owned()),
        }
    }

    /// `value` rendered to start at a line indented by `indent`.
    fn render(&self, value: &Value, indent: &str) -> String {
        let Some(unit) = &self.unit else {
            return value.to_string();
        };
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        serde::Serialize::serialize(value, &mut serializer).expect("a JSON value serializes");
        let text = String::from_utf8(out).expect("serde_json writes UTF-8");
        text.replace('\n', &format!("\n{indent}"))
    }
}

/// The whitespace that starts the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Whether bytes `a` and `b` are on one line.
fn same_line(text: &str, a: usize, b: usize) -> bool {
    !text[a.min(b)..a.max(b)].contains('\n')
}

/// One change to the text: replace `range` with `with`.
#[derive(Debug, Clone)]
pub(crate) struct Splice {
    start: usize,
    end: usize,
    with: String,
}

impl Splice {
    /// Applies the change to `text`.
    pub(crate) fn apply(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + self.with.len());
        out.push_str(&text[..self.start]);
        out.push_str(&self.with);
        out.push_str(&text[self.end..]);
        out
    }
}

/// The indentation of the children of `container`, and of the line it closes on.
fn child_indent(text: &str, container: &Node, first_child: Option<usize>, style: &Style) -> String {
    match first_child {
        Some(child) if !same_line(text, container.start, child) => {
            line_indent(text, child).to_owned()
        }
        _ => format!(
            "{}{}",
            line_indent(text, container.start),
            style.unit.as_deref().unwrap_or_default()
        ),
    }
}

/// Adds `"key": value` as the last member of `object`.
pub(crate) fn add_member(
    text: &str,
    object: &Node,
    key: &str,
    value: &Value,
    style: &Style,
) -> Splice {
    let members = object.members().unwrap_or_default();
    let indent = child_indent(text, object, members.first().map(|m| m.key_start), style);
    let key = Value::from(key).to_string();
    let rendered = style.render(value, &indent);
    add_item(
        text,
        object,
        members.last().map(|m| m.value.end),
        &indent,
        &format!("{key}: {rendered}"),
        style,
    )
}

/// Adds `value` as the last element of `array`.
pub(crate) fn add_element(text: &str, array: &Node, value: &Value, style: &Style) -> Splice {
    let elements = array.elements().unwrap_or_default();
    let indent = child_indent(text, array, elements.first().map(|e| e.start), style);
    let rendered = style.render(value, &indent);
    add_item(
        text,
        array,
        elements.last().map(|e| e.end),
        &indent,
        &rendered,
        style,
    )
}

fn add_item(
    text: &str,
    container: &Node,
    last_end: Option<usize>,
    indent: &str,
    item: &str,
    style: &Style,
) -> Splice {
    match (last_end, &style.unit) {
        (Some(end), Some(_)) => Splice {
            start: end,
            end,
            with: format!(",\n{indent}{item}"),
        },
        (Some(end), None) => Splice {
            start: end,
            end,
            with: format!(", {item}"),
        },
        (None, Some(_)) => Splice {
            start: container.start + 1,
            end: container.end - 1,
            with: format!("\n{indent}{item}\n{}", line_indent(text, container.start)),
        },
        (None, None) => Splice {
            start: container.start + 1,
            end: container.end - 1,
            with: item.to_owned(),
        },
    }
}

/// Replaces one value with `value` (rendered at the indentation of its line).
pub(crate) fn replace(text: &str, node: &Node, value: &Value, style: &Style) -> Splice {
    Splice {
        start: node.start,
        end: node.end,
        with: style.render(value, line_indent(text, node.start)),
    }
}

/// Removes item `index` of a container whose items start at `starts` and end at `ends`, with
/// the separator between it and its neighbour: the exact inverse of an add.
fn remove_item(container: &Node, starts: &[usize], ends: &[usize], index: usize) -> Splice {
    match (index, starts.len()) {
        (_, 1) => Splice {
            start: container.start + 1,
            end: container.end - 1,
            with: String::new(),
        },
        (0, _) => Splice {
            start: starts[0],
            end: starts[1],
            with: String::new(),
        },
        (i, _) => Splice {
            start: ends[i - 1],
            end: ends[i],
            with: String::new(),
        },
    }
}

/// Removes member `index` of `object`.
pub(crate) fn remove_member(object: &Node, index: usize) -> Splice {
    let members = object.members().unwrap_or_default();
    let starts: Vec<usize> = members.iter().map(|m| m.key_start).collect();
    let ends: Vec<usize> = members.iter().map(|m| m.value.end).collect();
    remove_item(object, &starts, &ends, index)
}

/// Removes element `index` of `array`.
pub(crate) fn remove_element(array: &Node, index: usize) -> Splice {
    let elements = array.elements().unwrap_or_default();
    let starts: Vec<usize> = elements.iter().map(|e| e.start).collect();
    let ends: Vec<usize> = elements.iter().map(|e| e.end).collect();
    remove_item(array, &starts, &ends, index)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Style, add_element, add_member, parse, remove_element, remove_member};

    #[test]
    fn an_added_member_is_removed_to_the_byte() {
        for text in [
            "{\n  \"a\": 1\n}\n",
            "{\n\t\"a\": [1, 2],\n\t\"b\": {}\n}",
            "{\"a\":1}",
            "{}",
        ] {
            let root = parse(text, false).unwrap();
            let style = Style::of(text);
            let added = add_member(text, &root, "hooks", &json!({"x": [1]}), &style).apply(text);
            let again = parse(&added, false).unwrap();
            let index = again.members().unwrap().len() - 1;
            let removed = remove_member(&again, index).apply(&added);
            if text == "{}" {
                assert_eq!(removed, "{}");
            } else {
                assert_eq!(removed, text, "{added}");
            }
        }
    }

    #[test]
    fn new_members_take_the_files_indentation() {
        let text = "{\n    \"a\": 1\n}";
        let root = parse(text, false).unwrap();
        let out = add_member(text, &root, "b", &json!([1]), &Style::of(text)).apply(text);
        assert_eq!(out, "{\n    \"a\": 1,\n    \"b\": [\n        1\n    ]\n}");
    }

    #[test]
    fn an_empty_object_on_one_line_is_written_out_indented() {
        for text in ["{}", "{ }\n"] {
            let root = parse(text, false).unwrap();
            let out = add_member(text, &root, "b", &json!([1]), &Style::of(text)).apply(text);
            assert_eq!(out.trim_end(), "{\n  \"b\": [\n    1\n  ]\n}", "{text:?}");
        }
        // Content on one line stays on one line.
        let text = "{\"a\": 1}";
        let root = parse(text, false).unwrap();
        let out = add_member(text, &root, "b", &json!([1]), &Style::of(text)).apply(text);
        assert_eq!(out, "{\"a\": 1, \"b\": [1]}");
    }

    #[test]
    fn an_element_added_then_removed_leaves_the_array_as_it_was() {
        let text = "[\n  1,\n  2\n]";
        let root = parse(text, false).unwrap();
        let added = add_element(text, &root, &json!({"k": true}), &Style::of(text)).apply(text);
        let again = parse(&added, false).unwrap();
        assert_eq!(remove_element(&again, 2).apply(&added), text);
        assert_eq!(
            remove_element(&again, 0).apply(&added),
            "[\n  2,\n  {\n    \"k\": true\n  }\n]"
        );
    }

    #[test]
    fn comments_are_blanks_only_where_allowed() {
        let text = "{\n  // note\n  \"a\": /* x */ 1\n}";
        assert!(parse(text, true).is_ok());
        let err = parse(text, false).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
    }

    #[test]
    fn a_key_written_twice_is_refused_with_its_line() {
        let err = parse("{\n\"a\": 1,\n\"a\": 2}", false).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("twice"), "{err}");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(10_000);
        assert!(parse(&deep, false).unwrap_err().message.contains("nested"));
    }
}
