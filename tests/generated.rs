//! Shell completions (`completions/`) and man pages (`man/`) are generated from the clap
//! definition and committed; this test fails when they are stale.
//! `SNAPSHOTS=overwrite cargo test generated` rewrites them.

use std::path::{Path, PathBuf};

fn rendered() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = hermes_hooks::command();
    cmd.build();
    let mut files = Vec::new();
    for (shell, name) in [
        ("bash", "hermes-hooks.bash"),
        ("zsh", "_hermes-hooks"),
        ("fish", "hermes-hooks.fish"),
        ("elvish", "hermes-hooks.elv"),
        ("powershell", "_hermes-hooks.ps1"),
    ] {
        let out = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("hermes-hooks"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "completions {shell}");
        files.push((root.join("completions").join(name), out.stdout));
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .unwrap();
    files.push((root.join("man/hermes-hooks.1"), page));
    for sub in cmd.get_subcommands().filter(|sub| sub.get_name() != "help") {
        // clap names are 'static; a few leaked strings in a test are fine.
        let name: &'static str =
            Box::leak(format!("hermes-hooks-{}", sub.get_name()).into_boxed_str());
        let mut page = Vec::new();
        clap_mangen::Man::new(sub.clone().name(name))
            .render(&mut page)
            .unwrap();
        files.push((root.join("man").join(format!("{name}.1")), page));
    }
    files
}

#[test]
fn completions_and_man_pages_are_current() {
    #[allow(clippy::disallowed_methods)]
    // the snapshot switch of the test suite, not a tool setting
    let overwrite = std::env::var_os("SNAPSHOTS").is_some_and(|v| v == "overwrite");
    let mut stale = Vec::new();
    for (path, content) in rendered() {
        if std::fs::read(&path).ok().as_deref() == Some(content.as_slice()) {
            continue;
        }
        if overwrite {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content).unwrap();
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (regenerate with `SNAPSHOTS=overwrite cargo test generated`): {stale:#?}"
    );
}

#[test]
fn help_keeps_global_flags_apart_and_leaves_out_those_a_command_ignores() {
    let env = crate::common::TestEnv::new();
    let help = |args: &[&str]| {
        let out = env.cmd().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let approve = help(&["approve", "--help"]);
    let (own, global) = approve.split_once("Global options:").unwrap();
    assert!(
        own.contains("--yes") && !own.contains("--hermes-home"),
        "{approve}"
    );
    assert!(global.contains("--hermes-home"), "{approve}");
    assert!(!approve.contains("--accept-hooks"), "{approve}");
    let run = help(&["run", "--help"]);
    assert!(
        run.contains("--accept-hooks") && !run.contains("--color"),
        "{run}"
    );
    let events = help(&["events", "--help"]);
    assert!(!events.contains("--hermes-home"), "{events}");
    // Hidden is not refused: scripts may put a global flag anywhere.
    let out = env
        .cmd()
        .args(["events", "--accept-hooks", "--hermes-home", "x", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

/// Writes `src/matcher/python/tables.rs` from Python 3.11's own `re` (Unicode 14.0): the
/// characters `\w`, `\d` and `\s` take, as ranges, and which characters `(?i)` takes for each
/// cased one, as `re` compiles it (the simple lower case, and `re._casefix`'s extra pairs).
const PYTHON_TABLES: &str = r#"
import re, sys, unicodedata, _sre
from re import _casefix
if unicodedata.unidata_version != "14.0.0":
    sys.exit(3)

def ranges(takes):
    out, start = [], None
    for code in range(0x110000):
        if takes(chr(code)):
            if start is None:
                start = code
        elif start is not None:
            out.append((start, code - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out

lower = _sre.unicode_tolower
lowered = {}
for code in range(0x110000):
    lowered.setdefault(lower(code), []).append(code)
pairs = []
for code in range(0x110000):
    if not _sre.unicode_iscased(code):
        continue
    low = lower(code)
    same = set()
    for key in (low,) + tuple(_casefix._EXTRA_CASES.get(low, ())):
        same.update(lowered.get(key, []))
    pairs.extend((code, other) for other in sorted(same) if other != code)

def table(name, doc, rows):
    print()
    print(doc)
    print(f"pub(super) const {name}: &[(u32, u32)] = &[")
    for a, b in rows:
        print(f"    (0x{a:X}, 0x{b:X}),")
    print("];")

print("//! Python 3.11's character classes for text (Unicode 14.0), and the letters its `(?i)` takes")
print("//! for one another. Generated by tests/generated.rs from Python's `re`; `SNAPSHOTS=overwrite")
print("//! cargo test generated` writes it again.")
table("WORD", "/// `\\w`: the characters `str.isalnum()` takes, and `_`; ranges in order.",
      ranges(re.compile(r"\w").fullmatch))
table("DIGIT", "/// `\\d`: the decimal digits (category Nd); ranges in order.",
      ranges(re.compile(r"\d").fullmatch))
table("SPACE", "/// `\\s`: Unicode's white space and U+001C..U+001F; ranges in order.",
      ranges(re.compile(r"\s").fullmatch))
table("CASE", "/// Under `(?i)`, each cased character with every other character it matches, in order of\n"
      "/// the first: those with the same simple lower case, and those `re._casefix` pairs with it.",
      pairs)
"#;

#[test]
fn pythons_tables_are_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/matcher/python/tables.rs");
    let out = match std::process::Command::new("python3.11")
        .args(["-c", PYTHON_TABLES])
        .output()
        .or_else(|_| {
            std::process::Command::new("python3")
                .args(["-c", PYTHON_TABLES])
                .output()
        }) {
        Ok(out) if out.status.success() => out.stdout,
        Ok(out) if out.status.code() == Some(3) => {
            eprintln!("skipped: no Python 3.11 here to take its tables from");
            return;
        }
        Ok(out) => panic!("{}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => {
            eprintln!("skipped: python3 is not installed");
            return;
        }
    };
    #[allow(clippy::disallowed_methods)] // the snapshot switch of the test suite
    let overwrite = std::env::var_os("SNAPSHOTS").is_some_and(|v| v == "overwrite");
    if std::fs::read(&path).ok().as_deref() != Some(out.as_slice()) {
        assert!(
            overwrite,
            "{} is stale: `SNAPSHOTS=overwrite cargo test generated` writes it again",
            path.display()
        );
        std::fs::write(&path, out).unwrap();
    }
}
