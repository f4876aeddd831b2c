//! `load` against `PyYAML` itself: random documents made of the pieces where YAML readers part
//! ways (every line break `PyYAML` knows, tabs, quotes, escapes, block scalars, byte-order
//! marks, anchors) are read here and by `yaml.load` with both of `PyYAML`'s safe loaders: the
//! Python one (Hermes's managed config) and, when it is installed, the C one (Hermes's
//! config.yaml). Skipped, with a message, without `python3` and `PyYAML`.

use std::io::Write as _;
use std::process::{Command, Stdio};

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Value as Json, json};

use super::{Node, Value, load};

/// Prints, for each JSON-encoded document read from stdin, what each loader makes of it:
/// `{"ok": value}` in the shape [`shape`] gives, or `{"err": ...}`.
const SCRIPT: &str = r#"
import json, sys, yaml

def shape(v, seen=()):
    if id(v) in seen:
        raise RecursionError("a recursive alias")
    seen = seen + (id(v),)
    if v is None or isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, list):
        return [shape(x, seen) for x in v]
    if isinstance(v, dict):
        return {"m": [[shape(k, seen), shape(x, seen)] for k, x in v.items()]}
    return {"o": type(v).__name__}

def read(doc, loader):
    try:
        value = yaml.load(doc, Loader=loader)
    except Exception as e:
        return {"err": type(e).__name__}
    try:
        return {"ok": shape(value)}
    except RecursionError:
        return {"recursive": True}

c = getattr(yaml, "CSafeLoader", None)
for line in sys.stdin:
    doc = json.loads(line)
    print(json.dumps([read(doc, yaml.SafeLoader), read(doc, c) if c else None]))
"#;

/// What the two loaders make of each document (the C one's `None` when it is not installed);
/// `None` when `python3` with `PyYAML` cannot be run.
fn pyyaml_readings(docs: &[String]) -> Option<Vec<(Json, Option<Json>)>> {
    let ready = Command::new("python3")
        .args(["-c", "import yaml"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ready {
        return None;
    }
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = String::new();
    for doc in docs {
        input.push_str(&serde_json::to_string(doc).unwrap());
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 failed");
    let readings = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let Json::Array(pair) = serde_json::from_str(line).unwrap() else {
                panic!("not a pair: {line}")
            };
            let c = (!pair[1].is_null()).then(|| pair[1].clone());
            (pair[0].clone(), c)
        })
        .collect();
    Some(readings)
}

/// A value in the shape the script gives Python's.
fn shape(node: &Node) -> Json {
    match &node.value {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!({ "i": i.to_string() }),
        Value::Float(f) => json!({ "f": crate::pyjson::python_float(*f) }),
        Value::Str(s) => json!(s),
        Value::Other(kind, _) => json!({ "o": kind }),
        Value::Seq(items) => Json::Array(items.iter().map(shape).collect()),
        Value::Map(map) => {
            let pairs: Vec<Json> = map
                .entries
                .iter()
                .map(|(k, v)| json!([shape(k), shape(v)]))
                .collect();
            json!({ "m": pairs })
        }
        Value::Merge | Value::Equals => json!({ "o": node.value.type_name() }),
    }
}

/// What this reader makes of a document, in the script's shape.
fn reading(doc: &str) -> Json {
    match load(doc) {
        Ok(node) => json!({ "ok": node.as_ref().map_or(Json::Null, shape) }),
        Err(err) => json!({ "err": err.to_string() }),
    }
}

/// The refusals that are this reader's own: where `PyYAML`'s two loaders read a file
/// differently.
fn refused_as_loaders_differ(ours: &Json) -> bool {
    ours["err"].as_str().is_some_and(|err| {
        err.contains("byte-order mark")
            || err.contains("tab character where an indentation")
            || err.contains("on an empty value")
            || err.contains("which is no character")
    })
}

const BREAKS: &[&str] = &["\n", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"];

const PIECES: &[&str] = &[
    "a",
    "b",
    "hooks",
    "x y",
    "1",
    "yes",
    "~",
    "é",
    ": ",
    ":",
    "- ",
    "-",
    "? ",
    "#",
    " #c",
    " ",
    "  ",
    "\t",
    " \t",
    "'",
    "\"",
    "\\",
    "\\n",
    "\\L",
    "\\x85",
    "\\u2028",
    "\\ud800",
    "\\U0001F600",
    "\\\n",
    "|",
    ">",
    "|-",
    ">+",
    "|2",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "! ",
    "---",
    "...",
    "command: x",
    "\u{a0}",
    "\u{FEFF}",
    "%YAML 1.1",
];

/// A document: pieces, and line breaks each followed by some indentation.
fn document() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(PIECES).prop_map(str::to_owned);
    let line = (
        prop::sample::select(BREAKS),
        prop::sample::select(&[0_usize, 0, 1, 2, 4][..]),
    )
        .prop_map(|(line_break, indent)| format!("{line_break}{}", " ".repeat(indent)));
    vec(prop_oneof![3 => piece, 2 => line], 1..16).prop_map(|parts| parts.concat())
}

/// A config-like document: lines of keys, list items, scalars of each style and comments,
/// each ended by any line break.
fn config_like() -> impl Strategy<Value = String> {
    let value = prop::sample::select(
        &[
            "",
            " x",
            " x y",
            " 'q r'",
            " \"q\\\" r\"",
            " |",
            " >-",
            " # note",
            " [a, b]",
            " &a {b: 1}",
            " *a",
            " yes",
            " 010",
        ][..],
    );
    let head = prop::sample::select(
        &[
            "hooks:",
            "hooks_auto_accept:",
            "pre_tool_call:",
            "- command:",
            "- ",
            "command:",
            "  ",
            "? k",
        ][..],
    );
    let line = (
        prop::sample::select(&[0_usize, 2, 4, 6][..]),
        head,
        value,
        prop::sample::select(BREAKS),
    )
        .prop_map(|(indent, head, value, line_break)| {
            format!("{}{head}{value}{line_break}", " ".repeat(indent))
        });
    vec(line, 1..8).prop_map(|lines| lines.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 8,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn documents_read_as_pyyaml_reads_them(
        docs in vec(prop_oneof![document(), config_like()], 150)
    ) {
        let Some(readings) = pyyaml_readings(&docs) else {
            eprintln!("skipped: python3 with PyYAML is not installed, so there is nothing to compare with");
            return Ok(());
        };
        prop_assert_eq!(readings.len(), docs.len());
        for (doc, (python, c)) in docs.iter().zip(readings) {
            let ours = reading(doc);
            if ours.get("ok").is_some() {
                // What this reader reads, PyYAML's Python loader reads the same.
                prop_assert_eq!(&ours, &python, "{:?}", doc);
                if let Some(c) = &c && c.get("ok").is_some() {
                    prop_assert_eq!(&ours, c, "the C loader: {:?}", doc);
                }
            } else if python.get("ok").is_some() {
                // Refused here, read by the Python loader: only where the C loader reads it
                // otherwise.
                prop_assert!(refused_as_loaders_differ(&ours), "{:?}: {}", doc, ours);
                if let Some(c) = &c {
                    prop_assert_ne!(c, &python, "the two loaders agree on {:?}", doc);
                }
            } else if python.get("recursive").is_some() {
                // A recursive alias is refused here (no tree can hold it).
                prop_assert!(ours["err"].as_str().is_some_and(|e| e.contains("recursive")), "{:?}", doc);
            }
        }
    }
}
