//! Loose YAML values: what config files hold, typed only as far as Hermes's loose reading needs
//! (collections are skipped), so a wrong type becomes a warning instead of an error.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Any YAML value, kept only as far as Hermes's loose typing needs (collections are skipped).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Loose {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List,
    Map,
}

impl Loose {
    /// The Python type name Hermes's messages use.
    pub(crate) const fn type_name(&self) -> &'static str {
        match self {
            Self::Null => "NoneType",
            Self::Bool(_) => "bool",
            Self::Int(_) => "int",
            Self::Float(_) => "float",
            Self::Str(_) => "str",
            Self::List => "list",
            Self::Map => "dict",
        }
    }

    /// What Python's `int()` would make of it.
    pub(crate) fn as_python_int(&self) -> Option<i64> {
        match self {
            Self::Bool(value) => Some(i64::from(*value)),
            Self::Int(value) => Some(*value),
            #[allow(clippy::cast_possible_truncation)] // saturating, as intended
            Self::Float(value) if value.is_finite() => Some(value.trunc() as i64),
            Self::Str(text) => crate::python_int::python_int(text)
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
            Self::List | Self::Map => write!(f, "a {}", self.type_name()),
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
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose::Map)
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor)
    }
}

/// Deserialises the shapes that are not the expected one into "a value of type X", so the caller
/// can warn and go on; `expected` says what the caller wanted.
macro_rules! other_shapes {
    ($value:ty, $other:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Ok($other("bool"))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Ok($other("int"))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Ok($other("int"))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Ok($other("float"))
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$value, E> {
            Ok($other("str"))
        }
    };
}

pub(crate) use other_shapes;
