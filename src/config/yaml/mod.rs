//! YAML mechanics, so the readers of each source are about that source's rules:
//! - [`pyyaml`]: config.yaml read as Hermes reads it (`PyYAML`'s safe loader, every value with
//!   its line);
//! - here: the YAML of HOOK.md frontmatter and plugin manifests through `serde-saphyr`, a loose
//!   value that makes a wrong type a warning rather than an error, the frontmatter slicer, and
//!   one error type with the line and column for both.

pub(crate) mod plain;
pub(crate) mod pyyaml;

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Why a document could not be read, and where (1-based line and column, when known).
#[derive(Debug)]
pub(crate) struct YamlError {
    pub(crate) at: Option<(usize, usize)>,
    pub(crate) message: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match self.at {
            Some((line, column)) => write!(f, " at line {line}, column {column}"),
            None => Ok(()),
        }
    }
}

/// Parses `text` (one YAML document) into `T` with `serde-saphyr`.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_saphyr::from_str(text).map_err(|err| {
        // The formatter for users: the default one gives hints about the library's own settings.
        let full = err
            .without_snippet()
            .render_with_formatter(&serde_saphyr::UserMessageFormatter);
        let Some(at) = err.location() else {
            return YamlError {
                at: None,
                message: full,
            };
        };
        let (line, column) = (at.line(), at.column());
        let suffix = format!(" at line {line}, column {column}");
        match full.strip_suffix(&suffix) {
            Some(message) => YamlError {
                at: usize::try_from(line).ok().zip(usize::try_from(column).ok()),
                message: message.to_owned(),
            },
            None => YamlError {
                at: None,
                message: full,
            },
        }
    })
}

/// Why a Markdown file has no frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoFrontmatter {
    /// The first line is not `---`.
    Missing,
    /// No second `---` line.
    Unclosed,
}

/// The frontmatter of a Markdown file: the text between a first line `---` and the next `---`
/// line (its first line is the file's line 2).
pub(crate) fn frontmatter(text: &str) -> Result<&str, NoFrontmatter> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "---" {
        return Err(NoFrontmatter::Missing);
    }
    let start = first.len();
    let mut offset = start;
    for line in lines {
        if line.trim_end() == "---" {
            return Ok(&text[start..offset]);
        }
        offset += line.len();
    }
    Err(NoFrontmatter::Unclosed)
}

/// Any YAML value, kept only as far as a loose reading needs: scalars, and the string-keyed
/// entries of a mapping (in file order; other keys and list items are skipped).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Loose {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List,
    Map(Vec<(String, Loose)>),
}

impl Loose {
    /// The value of entry `key` of a mapping.
    pub(crate) fn get(&self, key: &str) -> Option<&Self> {
        match self {
            Self::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The Python type name Hermes's messages use.
    pub(crate) const fn type_name(&self) -> &'static str {
        match self {
            Self::Null => "NoneType",
            Self::Bool(_) => "bool",
            Self::Int(_) => "int",
            Self::Float(_) => "float",
            Self::Str(_) => "str",
            Self::List => "list",
            Self::Map(_) => "dict",
        }
    }

    /// What Python's `int()` would make of it.
    pub(crate) fn as_python_int(&self) -> Option<i64> {
        match self {
            Self::Bool(value) => Some(i64::from(*value)),
            Self::Int(value) => Some(*value),
            #[allow(clippy::cast_possible_truncation)] // saturating, as intended
            Self::Float(value) if value.is_finite() => Some(value.trunc() as i64),
            Self::Str(text) => crate::ground::python_int::python_int(text)
                .map(|n| i64::try_from(n).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX })),
            _ => None,
        }
    }
}

impl fmt::Display for Loose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Bool(value) => write!(f, "{value}"),
            Self::Int(value) => write!(f, "{value}"),
            Self::Float(value) => write!(f, "{value}"),
            Self::Str(text) => write!(f, "'{text}'"),
            Self::List | Self::Map(_) => write!(f, "a {}", self.type_name()),
        }
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Loose, D::Error> {
        inner.deserialize_any(self)
    }
    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(value))
    }
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Loose, E> {
        Ok(Loose::Int(value))
    }
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Loose, E> {
        Ok(Loose::Int(i64::try_from(value).unwrap_or(i64::MAX)))
    }
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Loose, E> {
        Ok(Loose::Float(value))
    }
    fn visit_str<E: de::Error>(self, value: &str) -> Result<Loose, E> {
        Ok(Loose::Str(value.to_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose::List)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Self::Value>()? {
            match key {
                Loose::Str(key) => entries.push((key, map.next_value()?)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Loose::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::{Loose, NoFrontmatter, frontmatter, parse};

    #[test]
    fn a_mapping_keeps_its_string_keyed_entries() {
        let value: Loose = parse("tool: b\n1: skipped\npattern: [x]\n").unwrap();
        assert_eq!(value.get("tool"), Some(&Loose::Str("b".to_owned())));
        assert_eq!(value.get("pattern"), Some(&Loose::List));
        assert_eq!(value.get("1"), None);
        assert_eq!(Loose::Int(3).get("tool"), None);
        let nested: Loose = parse("tool: {a: 1}\n").unwrap();
        assert_eq!(nested.get("tool").map(Loose::type_name), Some("dict"));
    }

    #[test]
    fn errors_carry_their_place_apart_from_the_message() {
        let err = parse::<Loose>("a: [1,\n").unwrap_err();
        let (line, column) = err.at.expect("a located error");
        assert!(line >= 1 && column >= 1, "{err:?}");
        assert!(!err.message.contains(" at line "), "{}", err.message);
        assert!(
            err.to_string()
                .ends_with(&format!(" at line {line}, column {column}"))
        );
    }

    #[test]
    fn the_frontmatter_is_between_the_first_two_rule_lines() {
        assert_eq!(frontmatter("---\na: 1\n---\nbody\n"), Ok("a: 1\n"));
        assert_eq!(frontmatter("---\r\na: 1\r\n---\r\n"), Ok("a: 1\r\n"));
        assert_eq!(frontmatter("a: 1\n---\n"), Err(NoFrontmatter::Missing));
        assert_eq!(frontmatter("---\na: 1\n"), Err(NoFrontmatter::Unclosed));
    }
}
