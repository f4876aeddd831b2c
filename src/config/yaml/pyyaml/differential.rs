//! `load` against `PyYAML` itself: random documents made of the pieces where YAML readers part
//! ways (every line break `PyYAML` knows, tabs in each place libyaml and the Python scanner treat
//! differently, quotes, escapes, block scalars, byte-order marks, anchors, tags, directives) are
//! read here and by `yaml.load` with `PyYAML`'s C loader (`CSafeLoader`, libyaml: the one Hermes
//! reads config.yaml with), which is the reference: the same documents are read, to the same
//! values, and their nodes start at the same lines and columns. Skipped, with a message, without
//! `python3`, `PyYAML` or its C loader.

use std::io::Write as _;
use std::process::{Command, Stdio};

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Value as Json, json};

use super::parser::{EventKind, Parser};
use super::{Node, Value, load};

/// Prints, for each JSON-encoded document read from stdin, what the C loader makes of it:
/// `[reading, events]`, the reading `{"ok": value}` in the shape [`shape`] gives, or
/// `{"err": ...}`; the events each node's kind and start (line, column), or `null` where the
/// document does not parse.
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

def read(doc):
    try:
        value = yaml.load(doc, Loader=yaml.CSafeLoader)
    except Exception as e:
        return {"err": type(e).__name__}
    try:
        return {"ok": shape(value)}
    except RecursionError:
        return {"recursive": True}

KINDS = {"ScalarEvent": "scalar", "SequenceStartEvent": "seq",
         "MappingStartEvent": "map", "AliasEvent": "alias"}

def events(doc):
    try:
        return [[KINDS[type(e).__name__], e.start_mark.line, e.start_mark.column]
                for e in yaml.parse(doc, Loader=yaml.CSafeLoader)
                if type(e).__name__ in KINDS]
    except Exception:
        return None

for line in sys.stdin:
    doc = json.loads(line)
    print(json.dumps([read(doc), events(doc)]))
"#;

/// What the C loader makes of each document: its reading and its events; `None` when
/// `python3` with `PyYAML` and its C loader cannot be run.
fn libyaml_readings(docs: &[String]) -> Option<Vec<(Json, Json)>> {
    let ready = Command::new("python3")
        .args(["-c", "import yaml; yaml.CSafeLoader"])
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
    // Written from a thread: Python answers while it reads, and a full pipe either way would
    // stop both.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "python3 failed");
    let readings = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let Json::Array(pair) = serde_json::from_str(line).unwrap() else {
                panic!("not a pair: {line}")
            };
            (pair[0].clone(), pair[1].clone())
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
        Value::Float(f) => json!({ "f": crate::ground::pyjson::python_float(*f) }),
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

/// The events this parser makes of a document, in the script's shape; `null` where it does
/// not parse.
fn events(doc: &str) -> Json {
    let Ok(mut parser) = Parser::new(doc) else {
        return Json::Null;
    };
    let mut seen = Vec::new();
    loop {
        match parser.next_event() {
            Ok(None) => return Json::Array(seen),
            Ok(Some(event)) => {
                let kind = match event.kind {
                    EventKind::Scalar { .. } => "scalar",
                    EventKind::SequenceStart { .. } => "seq",
                    EventKind::MappingStart { .. } => "map",
                    EventKind::Alias(_) => "alias",
                    _ => continue,
                };
                seen.push(json!([kind, event.start.line, event.start.column]));
            }
            Err(_) => return Json::Null,
        }
    }
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
    "?",
    "#",
    " #c",
    " ",
    "  ",
    "\t",
    "\t",
    " \t",
    "\t ",
    "\t#c",
    "a\tb",
    ":\t",
    "-\t",
    ",\t",
    "'",
    "\"",
    "\\",
    "\\n",
    "\\\t",
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
    "|\t",
    "|#c",
    ">-\t#c",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":,",
    "&a ",
    "&a\t",
    "*a",
    "!!str ",
    "!!str\t",
    "!!str,",
    "!<tag:yaml.org,2002:str>",
    "! ",
    "!",
    "---",
    "...",
    "command: x",
    "\u{a0}",
    "\u{FEFF}",
    "%YAML 1.1",
    "%YAML\t1.2\t#c",
    "%YAML 1.3",
    "%TAG ! tag:yaml.org,2002:",
    "%FOO",
];

/// A document: pieces, and line breaks each followed by some indentation (spaces, or a tab
/// among them).
fn document() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(PIECES).prop_map(str::to_owned);
    let line = (
        prop::sample::select(BREAKS),
        prop::sample::select(&["", "", " ", "  ", "    ", "\t", " \t", "  \t"][..]),
    )
        .prop_map(|(line_break, indent)| format!("{line_break}{indent}"));
    vec(prop_oneof![3 => piece, 2 => line], 1..16).prop_map(|parts| parts.concat())
}

/// A config-like document: lines of keys, list items, scalars of each style and comments,
/// with tabs where a hand-written config.yaml may hold them, each line ended by any line break.
fn config_like() -> impl Strategy<Value = String> {
    let value = prop::sample::select(
        &[
            "",
            " x",
            " x y",
            " x\ty",
            "\tx",
            " x\t# note",
            " x \t",
            " 'q r'",
            " \"q\\\" r\"",
            " |",
            " >-",
            " |\t# note",
            " # note",
            "\t# note",
            " [a, b]",
            " [a,\tb]",
            " [a: , b]",
            " [? , a]",
            " [? : a]",
            " [? ]]",
            " {a: , ? : b}",
            " {a:\tb}",
            " &a {b: 1}",
            " &a\tx",
            " *a",
            " !!str\tx",
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
            "command\t:",
            "  ",
            "? k",
        ][..],
    );
    let line = (
        prop::sample::select(&["", "  ", "    ", "      ", "\t", "  \t", " "][..]),
        head,
        value,
        prop::sample::select(BREAKS),
    )
        .prop_map(|(indent, head, value, line_break)| format!("{indent}{head}{value}{line_break}"));
    vec(line, 1..8).prop_map(|lines| lines.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 8,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn documents_read_as_pyyaml_c_loader_reads_them(
        docs in vec(prop_oneof![document(), config_like()], 200)
    ) {
        let Some(readings) = libyaml_readings(&docs) else {
            eprintln!("skipped: python3 with PyYAML's C loader is not installed, so there is nothing to compare with");
            return Ok(());
        };
        prop_assert_eq!(readings.len(), docs.len());
        for (doc, (c, c_events)) in docs.iter().zip(readings) {
            let ours = reading(doc);
            if c.get("recursive").is_some() {
                // A recursive alias is refused here (no tree can hold it).
                prop_assert!(ours["err"].as_str().is_some_and(|e| e.contains("recursive")), "{:?}", doc);
            } else if c.get("ok").is_some() {
                // What the C loader reads, this reader reads to the same value.
                prop_assert_eq!(&ours, &c, "{:?}", doc);
            } else {
                // What the C loader refuses, this reader refuses.
                prop_assert!(ours.get("err").is_some(), "{:?}: the C loader refuses it, here {}", doc, ours);
            }
            // Each node starts where the C loader says (its line and column), and what it
            // cannot parse does not parse here.
            prop_assert_eq!(&events(doc), &c_events, "the nodes of {:?}", doc);
        }
    }
}
