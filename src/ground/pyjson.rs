//! JSON as Python's `json` module reads and writes it, byte for byte where Hermes relies on it:
//! the payload (`json.dumps(..., ensure_ascii=False)`), the allowlist
//! (`json.dumps(..., indent=2, sort_keys=True)`), and reading what Python may have written
//! (`json.loads` also takes `NaN`, `Infinity`, `-Infinity` and lone surrogate escapes).
//!
//! Numbers keep their digits (`serde_json`'s `arbitrary_precision`): an integer of any size is
//! written as it was read, a float as Python's `repr` spells it. Text is read as deep as
//! `json.loads` reads it ([`MAX_DEPTH`]), whatever the stack of the thread that reads it.

mod nesting;

use std::io;

use serde::{Deserialize as _, Serialize};
use serde_json::ser::{Formatter, PrettyFormatter};
use serde_json::{Map, Value};

pub(crate) use nesting::members;

/// `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` separators, non-ASCII kept as
/// UTF-8, no trailing newline.
pub(crate) fn to_compact<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write_compact(&mut out, value).expect("serialising JSON values into memory cannot fail");
    out
}

/// [`to_compact`], written to `out` as it goes.
pub(crate) fn write_compact<W: io::Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Compact);
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// `json.dumps(value, indent=2, sort_keys=True)`: keys sorted at every level, everything
/// outside printable ASCII written as `\uXXXX`, no trailing newline.
pub(crate) fn to_indented_sorted(object: &Map<String, Value>) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    let mut ser = serde_json::Serializer::with_formatter(
        &mut out,
        Indented(PrettyFormatter::with_indent(b"  ")),
    );
    SortedMap(object)
        .serialize(&mut ser)
        .expect("serialising JSON values into memory cannot fail");
    out
}

/// How deep [`from_slice`] reads. Python's `json.loads` stops at the interpreter's recursion
/// limit (1,000 frames): 3.11 reads 994 nested arrays or objects when called from a script's top
/// level, fewer from deeper in a program. A payload Hermes sends has been through `json.loads`
/// and `json.dumps`, so it never nests deeper than this.
pub(crate) const MAX_DEPTH: usize = 1_000;

/// Why a text was not read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JsonError {
    /// Not JSON, even with Python's extensions; the message gives line and column.
    #[error(transparent)]
    Invalid(serde_json::Error),
    /// Nested deeper than the reader goes.
    #[error("nested deeper than {} levels at line {} column {}", .0.limit, .0.line, .0.column)]
    TooDeep(TooDeep),
}

/// Where a text first nests deeper than `limit` levels: the line and column (1-based, in bytes,
/// as `serde_json` counts them) of the bracket that opens the level after the last one read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooDeep {
    pub(crate) limit: usize,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl TooDeep {
    /// The bracket at `offset` in `text` goes deeper than `limit`.
    fn at(text: &[u8], offset: usize, limit: usize) -> Self {
        let lines = text[..offset].split(|b| *b == b'\n');
        let (count, last) = lines.fold((0, &[][..]), |(count, _), line| (count + 1, line));
        Self {
            limit,
            line: count,
            column: last.len() + 1,
        }
    }
}

/// `json.loads`: strict JSON first; when that fails, again with Python's extensions, which
/// become what JSON can hold: `NaN`, `Infinity` and `-Infinity` are read as null, and a lone
/// surrogate escape as U+FFFD. Values nest up to [`MAX_DEPTH`] levels. An error always
/// describes the text as given.
pub(crate) fn from_slice(bytes: &[u8]) -> Result<Value, JsonError> {
    from_slice_within(bytes, MAX_DEPTH)
}

/// [`from_slice`], reading up to `limit` levels (at least [`MAX_DEPTH`]).
///
/// `serde_json` recurses once per level, a few hundred bytes of stack each (kilobytes in a
/// debug build), and stops at 128 levels to stay within any thread's stack. Every payload an
/// agent really sends is read that way, at no extra cost. Only text that fails there and nests
/// deeper is walked for its depth (without recursion), refused beyond `limit`, and otherwise
/// read again without `serde_json`'s limit on a thread whose stack is sized for its depth.
pub(crate) fn from_slice_within(bytes: &[u8], limit: usize) -> Result<Value, JsonError> {
    debug_assert!(
        limit >= MAX_DEPTH,
        "serde_json reads shallow text on its own"
    );
    let err = match loads(bytes, shallow) {
        Ok(value) => return Ok(value),
        Err(err) => err,
    };
    let depth = nesting::nesting(bytes, limit);
    if let Some(offset) = depth.beyond {
        return Err(JsonError::TooDeep(TooDeep::at(bytes, offset, limit)));
    }
    if depth.deepest < SHALLOW {
        return Err(JsonError::Invalid(err));
    }
    read_deep(bytes, depth.deepest)
        .unwrap_or(Err(err))
        .map_err(JsonError::Invalid)
}

/// Text nesting less than this was read whole by `serde_json` on its own (it stops at 128).
const SHALLOW: usize = 100;

/// The stack a thread reading deep text starts with, and what it adds per level: 8 KiB is more
/// than twice what `serde_json` takes per level in a debug build.
const READER_STACK: usize = 256 * 1024;
const READER_STACK_PER_LEVEL: usize = 8 * 1024;

/// Reads `bytes`, which nest `depth` levels, without `serde_json`'s depth limit, on a thread of
/// its own with a stack sized for that depth. `None` when no thread could be started.
fn read_deep(bytes: &[u8], depth: usize) -> Option<serde_json::Result<Value>> {
    let stack = READER_STACK + depth * READER_STACK_PER_LEVEL;
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("deep-json".to_owned())
            .stack_size(stack)
            .spawn_scoped(scope, || loads(bytes, unbounded))
            .ok()?;
        Some(
            reader
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    })
}

/// Strict JSON with `read`, then Python's extensions; the error is the strict one.
fn loads(bytes: &[u8], read: fn(&[u8]) -> serde_json::Result<Value>) -> serde_json::Result<Value> {
    match read(bytes) {
        Ok(value) => Ok(value),
        Err(err) => match relaxed(bytes) {
            Some(text) => read(&text).map_err(|_| err),
            None => Err(err),
        },
    }
}

/// `serde_json`, with its limit of 128 levels.
fn shallow(bytes: &[u8]) -> serde_json::Result<Value> {
    serde_json::from_slice(bytes)
}

/// `serde_json` without its depth limit: only for text whose depth was checked, on a stack
/// made for it.
fn unbounded(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    reader.disable_recursion_limit();
    let value = Value::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// The text with Python's extensions replaced, or `None` when there are none.
fn relaxed(bytes: &[u8]) -> Option<Vec<u8>> {
    const CONSTANTS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut changed = false;
    let mut i = 0;
    'outer: while i < bytes.len() {
        if bytes[i] == b'"' {
            out.push(b'"');
            i += 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' if bytes.get(i + 1) == Some(&b'u') => {
                        let (len, lone) = surrogate_escape(&bytes[i..]);
                        if lone {
                            out.extend_from_slice(b"\\ufffd");
                            changed = true;
                        } else {
                            out.extend_from_slice(&bytes[i..i + len]);
                        }
                        i += len;
                    }
                    b'\\' => {
                        let end = (i + 2).min(bytes.len());
                        out.extend_from_slice(&bytes[i..end]);
                        i = end;
                    }
                    b'"' => {
                        out.push(b'"');
                        i += 1;
                        continue 'outer;
                    }
                    other => {
                        out.push(other);
                        i += 1;
                    }
                }
            }
            continue;
        }
        for constant in CONSTANTS {
            if bytes[i..].starts_with(constant) {
                out.extend_from_slice(b"null");
                i += constant.len();
                changed = true;
                continue 'outer;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    changed.then_some(out)
}

/// For text starting with `\u`: how many bytes the escape (or surrogate pair) takes, and whether
/// it is a lone surrogate.
fn surrogate_escape(text: &[u8]) -> (usize, bool) {
    let unit = |at: usize| {
        let hex = text.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let Some(first) = unit(2) else {
        return (2.min(text.len()), false);
    };
    match first {
        0xD800..=0xDBFF => {
            let pair = text.get(6..8) == Some(b"\\u") && unit(8).is_some_and(is_low_surrogate);
            if pair { (12, false) } else { (6, true) }
        }
        0xDC00..=0xDFFF => (6, true),
        _ => (6, false),
    }
}

const fn is_low_surrogate(unit: u16) -> bool {
    matches!(unit, 0xDC00..=0xDFFF)
}

/// Python's `repr` of a float, as `json.dumps` writes it: the shortest digits that round-trip,
/// positional when the decimal exponent is in -4..16, else scientific with a signed, at least
/// two-digit exponent; `NaN`, `Infinity`, `-Infinity` for the values JSON lacks.
pub(crate) fn python_float(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let sci = format!("{:e}", value.abs());
    let (mantissa, exponent) = sci.split_once('e').expect("{:e} always has an exponent");
    let exponent: i32 = exponent.parse().expect("{:e} writes an integer exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if !(-4..16).contains(&exponent) {
        let sign_exp = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{mantissa}e{sign_exp}{:02}", exponent.unsigned_abs());
    }
    let point = usize::try_from(exponent + 1).unwrap_or(0);
    if exponent < 0 {
        let zeros = "0".repeat(exponent.unsigned_abs() as usize - 1);
        format!("{sign}0.{zeros}{digits}")
    } else if digits.len() <= point {
        format!("{sign}{digits}{}.0", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// A number as Python writes it back: integers with their digits (`-0` is `0`), floats in
/// `repr` form.
fn python_number(text: &str) -> String {
    if text.contains(['.', 'e', 'E']) {
        // Every JSON number parses as an f64; a huge one becomes infinity, as in Python.
        return python_float(text.parse().unwrap_or(f64::NAN));
    }
    let digits = text.trim_start_matches('-');
    if digits.bytes().all(|b| b == b'0') {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn write_python_number<W: ?Sized + io::Write>(w: &mut W, text: &str) -> io::Result<()> {
    w.write_all(python_number(text).as_bytes())
}

/// The payload format: compact, with Python's separators and numbers.
struct Compact;

impl Formatter for Compact {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        w.write_all(python_float(value).as_bytes())
    }

    fn write_number_str<W: ?Sized + io::Write>(&mut self, w: &mut W, text: &str) -> io::Result<()> {
        write_python_number(w, text)
    }
}

/// The allowlist format: two-space indent, `ensure_ascii`, Python's numbers.
struct Indented<'a>(PrettyFormatter<'a>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name<W: ?Sized + io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.0.$name(w $(, $arg)*)
        })*
    };
}

impl Formatter for Indented<'_> {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        w.write_all(python_float(value).as_bytes())
    }

    fn write_number_str<W: ?Sized + io::Write>(&mut self, w: &mut W, text: &str) -> io::Result<()> {
        write_python_number(w, text)
    }

    /// `ensure_ascii`: everything outside `' '..='~'` as `\uXXXX` (UTF-16 units, lower-case hex).
    /// `serde_json` has already escaped quotes, backslashes and C0 controls the way Python does.
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(|c: char| !(' '..='~').contains(&c)) {
            w.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().expect("found at a char boundary");
            let mut units = [0_u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(w, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
}

/// An object serialised with its keys in sorted order, at every level.
struct SortedMap<'a>(&'a Map<String, Value>);

impl Serialize for SortedMap<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut pairs: Vec<_> = self.0.iter().collect();
        pairs.sort_by(|a, b| a.0.cmp(b.0));
        serializer.collect_map(pairs.into_iter().map(|(k, v)| (k, Sorted(v))))
    }
}

/// A value serialised with its object keys in sorted order (code point order, as Python sorts
/// `str`), at every level.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => SortedMap(map).serialize(serializer),
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(serializer),
        }
    }
}

/// Python's truthiness of a JSON value (`bool(x)`).
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// Python's `obj.get(first) or obj.get(second)`: the first key's value when it is truthy, else
/// the second's.
pub(crate) fn get_or<'a>(
    obj: &'a serde_json::Map<String, Value>,
    first: &str,
    second: &str,
) -> Option<&'a Value> {
    obj.get(first)
        .filter(|v| truthy(v))
        .or_else(|| obj.get(second))
}

#[cfg(test)]
mod tests {
    use super::{
        JsonError, MAX_DEPTH, TooDeep, from_slice, python_float, to_compact, to_indented_sorted,
    };
    use serde_json::json;

    /// `levels` arrays and objects in turn around `inner`.
    fn nested(levels: usize, inner: &str) -> String {
        let mut text = String::new();
        for level in 0..levels {
            text.push_str(if level % 2 == 0 { "[" } else { "{\"k\": " });
        }
        text.push_str(inner);
        for level in (0..levels).rev() {
            text.push(if level % 2 == 0 { ']' } else { '}' });
        }
        text
    }

    /// Runs `read` on a thread with far less stack than `serde_json` takes to read a thousand
    /// levels (about 3 MiB in a debug build): reading must not recurse on the caller's stack.
    fn on_a_small_stack<T: Send>(read: impl FnOnce() -> T + Send) -> T {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(1024 * 1024)
                .spawn_scoped(scope, read)
                .unwrap()
                .join()
                .unwrap()
        })
    }

    #[test]
    fn text_is_read_as_deep_as_python_reads_it_without_the_callers_stack() {
        // CPython 3.11's json.loads reads 994 levels from a script's top level.
        let text = nested(MAX_DEPTH - 1, "[1.50, NaN, \"\\ud800\"]");
        let read = on_a_small_stack(|| from_slice(text.as_bytes())).unwrap();
        assert_eq!(
            String::from_utf8(to_compact(&read)).unwrap(),
            nested(MAX_DEPTH - 1, "[1.5, null, \"\u{fffd}\"]")
        );
    }

    #[test]
    fn text_deeper_than_that_is_refused_with_where_it_goes_too_deep() {
        for levels in [MAX_DEPTH + 1, MAX_DEPTH + 2, 100_000] {
            let text = format!("\n  {}", nested(levels, "0"));
            let err = on_a_small_stack(|| from_slice(text.as_bytes())).unwrap_err();
            let JsonError::TooDeep(at) = err else {
                panic!("{levels}: {err}");
            };
            // Level 1,001 opens after 500 `[` and 500 `{"k": ` (6 bytes each).
            let column = 3 + MAX_DEPTH / 2 + MAX_DEPTH / 2 * 6;
            assert_eq!(
                at,
                TooDeep {
                    limit: MAX_DEPTH,
                    line: 2,
                    column
                },
                "{levels}"
            );
            assert_eq!(
                err.to_string(),
                format!("nested deeper than 1000 levels at line 2 column {column}")
            );
        }
    }

    #[test]
    fn a_mistake_in_deep_text_is_reported_as_the_mistake() {
        let mut text = nested(500, "1");
        text.pop();
        let err = from_slice(text.as_bytes()).unwrap_err();
        assert!(
            matches!(err, JsonError::Invalid(_))
                && err.to_string().starts_with("EOF while parsing"),
            "{err}"
        );
        // serde_json's own limit is 128 levels; this is where the text goes wrong.
        let err = from_slice(nested(500, "nan").as_bytes()).unwrap_err();
        assert_eq!(err.to_string(), "expected ident at line 1 column 1752");
    }

    #[test]
    fn floats_are_spelled_like_python() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (42.5, "42.5"),
            (1_756_000_001.234, "1756000001.234"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.234e-7, "1.234e-07"),
            (-0.0, "-0.0"),
            (-2.5, "-2.5"),
            (123_456_789_012_345_680.0, "1.2345678901234568e+17"),
        ];
        for (value, want) in cases {
            assert_eq!(python_float(value), want, "{value}");
        }
        assert_eq!(
            String::from_utf8(to_compact(&json!({"a": [1, 2.0], "b": {}}))).unwrap(),
            r#"{"a": [1, 2.0], "b": {}}"#
        );
    }

    #[test]
    fn numbers_keep_their_digits_and_floats_take_python_form() {
        let text = br#"{"big": 100000000000000000000, "neg": -123456789012345678901234567890,
            "zero": -0, "f": 1E5, "g": 1.50, "h": 1e400, "i": -1e400, "j": 0.1}"#;
        let value = from_slice(text).unwrap();
        assert_eq!(
            String::from_utf8(to_compact(&value)).unwrap(),
            r#"{"big": 100000000000000000000, "neg": -123456789012345678901234567890, "zero": 0, "f": 100000.0, "g": 1.5, "h": Infinity, "i": -Infinity, "j": 0.1}"#
        );
    }

    #[test]
    fn python_extensions_are_read() {
        let value =
            from_slice(br#"{"a": NaN, "b": [Infinity, -Infinity], "s": "NaN \" Infinity"}"#)
                .unwrap();
        assert_eq!(
            value,
            json!({"a": null, "b": [null, null], "s": "NaN \" Infinity"})
        );
        let value = from_slice(br#"{"lone": "x\ud800y", "low": "\udc00", "pair": "\ud83d\ude00"}"#)
            .unwrap();
        assert_eq!(
            value,
            json!({"lone": "x\u{fffd}y", "low": "\u{fffd}", "pair": "😀"})
        );
        let err = from_slice(b"{\"a\": nan}").unwrap_err();
        assert!(err.to_string().contains("line 1 column"), "{err}");
    }

    #[test]
    fn the_allowlist_form_is_pythons() {
        let value =
            json!({"z": 1, "a": {"é": "naïve \u{7f} 😀 \u{1} \"q\" \\", "b": []}, "m": 2.50});
        // json.dumps(value, indent=2, sort_keys=True) in CPython 3.11:
        let want = "{\n  \"a\": {\n    \"b\": [],\n    \"\\u00e9\": \"na\\u00efve \\u007f \\ud83d\\ude00 \\u0001 \\\"q\\\" \\\\\"\n  },\n  \"m\": 2.5,\n  \"z\": 1\n}";
        assert_eq!(
            String::from_utf8(to_indented_sorted(value.as_object().unwrap())).unwrap(),
            want
        );
    }
}
