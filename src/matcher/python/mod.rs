//! Python's `re` syntax (as Python 3.11's `re._parser` reads it), translated into the syntax of
//! `fancy-regex`, so a matcher means what it means in Hermes: the same patterns are rejected (with
//! Python's message), and the accepted ones match the same text. What differs is spelled out:
//! `$` (end, or before a final newline), `\Z` (end only), classes (`[[:alpha:]]` is a set of
//! characters, `&&` and `--` are literal), `{,n}`, `\d \s \w` (Python's own classes), the `a`
//! flag (with `(?i)`: ASCII letters only), `(?i)` (the characters Python's `re` pairs, written
//! out), and named groups (renamed to numbers, so any identifier works).

mod emit;
pub(crate) mod needed;
mod parse;
mod tables;
mod tokenizer;

use std::fmt;

/// Why Python's `re` would reject a pattern, in Python's words.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct PyError {
    message: String,
    position: Option<usize>,
    pattern_lines: Option<(usize, usize)>,
}

impl fmt::Display for PyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(position) = self.position {
            write!(f, " at position {position}")?;
            if let Some((line, column)) = self.pattern_lines {
                write!(f, " (line {line}, column {column})")?;
            }
        }
        Ok(())
    }
}

/// How the translated pattern is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// `re.fullmatch`.
    Full,
    /// `re.search`.
    Search,
}

/// The texts a translation is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Text {
    /// Texts of ASCII characters only, as most tool names are: there `\d \s \w` are their
    /// ASCII parts, which the engine builds in a fraction of the time of Unicode classes.
    Ascii,
    /// Any text: `\d \s \w` are Python's own classes (`tables.rs`).
    Any,
}

/// A pattern in `fancy-regex` syntax.
#[derive(Debug)]
pub(super) struct Translation {
    /// The pattern.
    pub pattern: String,
    /// Whether the translation for [`Text::Any`] differs from this one (for [`Text::Ascii`]): it
    /// reads `\d \s \w`, or `(?i)` takes characters outside ASCII for one of its letters.
    pub narrowed: bool,
    /// How many times it reads `\w` or `\W`, which [`Text::Any`] writes out as Python's class.
    pub words: usize,
}

/// The `fancy-regex` pattern that matches as `pattern` does in Python with `mode`, on `text`.
pub(super) fn translate(pattern: &str, mode: Mode, text: Text) -> Result<Translation, PyError> {
    let (alt, flags) = parse::parse(pattern)?;
    let (pattern, narrowed) = emit::pattern(&alt, flags, mode, text, pattern.len());
    Ok(Translation {
        pattern,
        narrowed,
        words: emit::words_read(&alt),
    })
}

/// What a text must contain for `pattern` to be found in it (see [`needed`]); `None` when no
/// such set can be told, or Python rejects the pattern.
pub(super) fn needed_for(pattern: &str) -> Option<needed::Needed> {
    let (alt, flags) = parse::parse(pattern).ok()?;
    needed::of(&alt, flags)
}

/// Whether `pattern` holds no character that is special to Python's `re` (outside verbose mode,
/// which needs `(?x)` and so a special character): it then matches only itself.
pub(super) fn is_plain(pattern: &str) -> bool {
    !pattern.contains(['.', '\\', '[', '{', '(', ')', '*', '+', '?', '^', '$', '|'])
}

/// `_combine_flags`.
const fn combine(flags: u8, add: u8, del: u8) -> u8 {
    let flags = if add & TYPE_FLAGS != 0 {
        flags & !TYPE_FLAGS
    } else {
        flags
    };
    (flags | add) & !del
}

fn plain_error(message: &str) -> PyError {
    PyError {
        message: message.to_owned(),
        position: None,
        pattern_lines: None,
    }
}

// Flags, as in `re._constants` (only the ones a str pattern can carry).
const I: u8 = 1;
const M: u8 = 2;
const S: u8 = 4;
const X: u8 = 8;
const A: u8 = 16;
const U: u8 = 32;
const T: u8 = 64;
const TYPE_FLAGS: u8 = A | U;

const MAXREPEAT: u64 = 4_294_967_295;
const MAXGROUPS: usize = 1_073_741_823;
const MAXWIDTH: u128 = 1 << 64;
const MAXCODE: u128 = (1 << 32) - 1;

/// `\d \D \s \S \w \W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cat {
    Digit(bool),
    Space(bool),
    Word(bool),
}

/// Zero-width positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Beginning,
    End,
    BeginningString,
    EndString,
    Boundary,
    NonBoundary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Greed {
    Greedy,
    Lazy,
    Possessive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ClassItem {
    Lit(u32),
    Range(u32, u32),
    Cat(Cat),
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A code point is a `u32`: Python's `\ud800` is a valid pattern character that no Rust string
/// holds.
enum Node {
    Lit(u32),
    Any,
    Class {
        negate: bool,
        items: Vec<ClassItem>,
    },
    Cat(Cat),
    At(At),
    Group {
        capture: bool,
        add: u8,
        del: u8,
        body: Alt,
    },
    Atomic(Alt),
    Look {
        behind: bool,
        negate: bool,
        body: Alt,
    },
    Repeat {
        min: u64,
        max: u64,
        greed: Greed,
        item: Box<Node>,
    },
    GroupRef(usize),
    Cond {
        group: usize,
        yes: Seq,
        no: Option<Seq>,
    },
}

type Seq = Vec<Node>;

/// Branches (one for a plain sequence).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Alt(Vec<Seq>);

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Mode, Text, translate};

    fn error(pattern: &str) -> String {
        translate(pattern, Mode::Full, Text::Any)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn python_rejects_what_it_rejects_with_its_own_words() {
        // Each message as CPython 3.11's `re.compile` words it.
        let cases = [
            (r"\1(a)", "invalid group reference 1 at position 1"),
            ("a{2}{3}", "multiple repeat at position 4"),
            ("a**", "multiple repeat at position 2"),
            ("(?<=a|bc)", "look-behind requires fixed-width pattern"),
            (r"[\d-z]", r"bad character range \d-z at position 1"),
            (r"[a-\d]", r"bad character range a-\d at position 1"),
            (r"\8", "invalid group reference 8 at position 1"),
            (
                "a(?i)",
                "global flags not at the start of the expression at position 1",
            ),
            (
                "(?au)x",
                "bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4",
            ),
            (
                "(?-a:x)",
                "bad inline flags: cannot turn off flags 'a', 'u' and 'L' at position 4",
            ),
            (
                "(?i-i:x)",
                "bad inline flags: flag turned on and off at position 5",
            ),
            (
                "(?L)x",
                "bad inline flags: cannot use 'L' flag with a str pattern at position 3",
            ),
            ("foo[bar", "unterminated character set at position 3"),
            ("*a", "nothing to repeat at position 0"),
            ("^*", "nothing to repeat at position 1"),
            (r"\q", r"bad escape \q at position 0"),
            ("a)", "unbalanced parenthesis at position 1"),
            ("(a", "missing ), unterminated subpattern at position 0"),
            (r"a\", "bad escape (end of pattern) at position 1"),
            ("a{3,2}", "min repeat greater than max repeat at position 2"),
            (&"(".repeat(100_000), "the pattern nests too deeply"),
            (r"\p{L}", r"bad escape \p at position 0"),
        ];
        for (pattern, want) in cases {
            assert_eq!(error(pattern), want, "{pattern}");
        }
    }

    #[test]
    fn python_only_syntax_is_translated() {
        for pattern in [
            "(?=a)*",
            "a{,3}",
            "(?(1)a|b)(x)",
            "(a)\\1",
            "(?i)(?m)a",
            "(?x) a b # c",
            "[[:alpha:]]",
            r"\Z",
            "(?P<n>a)(?P=n)",
            "(?#x)a",
            "a{1,2",
            "(?a:x)",
            "(?( 1)a)(b)",
            "(?P<é>x)",
        ] {
            let translated = translate(pattern, Mode::Full, Text::Any);
            assert!(translated.is_ok(), "{pattern}: {translated:?}");
            let compiled = fancy_regex::Regex::new(&translated.unwrap().pattern);
            assert!(compiled.is_ok(), "{pattern}: {compiled:?}");
        }
    }

    #[test]
    fn a_class_under_i_names_each_character_once() {
        // What `(?i)` adds is only what the class does not hold already, so a wide class stays
        // small however many times a pattern repeats it.
        let written = |pattern: &str| translate(pattern, Mode::Full, Text::Any).unwrap().pattern;
        assert_eq!(
            written(r"(?i)[\x00-\U0010ffff]"),
            r"\A(?:[\x{0}-\x{10ffff}])\z"
        );
        assert_eq!(
            written("(?i)[A-Z]"),
            r"\A(?:[A-Za-z\x{130}-\x{131}\x{17f}\x{212a}])\z"
        );
        assert_eq!(written("(?i)[^k]"), r"\A(?:[^kK\x{212a}])\z");
        // A class repeating itself (as a hostile HOOK.md may) adds each character once.
        let many = written(&format!("(?i)[{}]", "a".repeat(100_000)));
        assert_eq!(many, format!(r"\A(?:[{}A])\z", "a".repeat(100_000)));
        let wide = written(&format!("(?i)[{}]", r"\x00-\U0010ffff".repeat(1000)));
        assert!(!wide.contains(r"\x{212a}"));
    }

    /// Pieces of Python patterns, escapes and flags among them (`\p` is an error in Python).
    const PIECES: &[&str] = &[
        "a", "K", "\u{e9}", "\u{212a}", "\u{3a3}", "0", "1", "x", "p", "P", "L", "N", "u", "\\",
        "{", "}", "{2}", "{L}", "(", ")", "(?i)", "(?a)", "(?u)", "(?x)", "(?s)", "(?m)", "(?i:",
        "[", "]", "^", "$", "-", "|", "*", "+", "?", ".", " ", "#", "\\d", "\\w", "\\s", "\\b",
        "\\B", "\\Z", "\\A", "\\p", "\\N", "\\x41", "\\u00e9",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The binary carries none of the engine's Unicode tables but those of `\b` (see
        /// Cargo.toml): a translation never asks for `\d \s \w`, `\p{..}` or the engine's
        /// case folding (`(?i)` is written out, but for a back reference).
        #[test]
        fn translations_need_only_the_shipped_unicode_tables(
            picks in proptest::collection::vec(0..PIECES.len(), 1..12)
        ) {
            let pattern: String = picks.iter().map(|&i| PIECES[i]).collect();
            for mode in [Mode::Full, Mode::Search] {
                for text in [Text::Ascii, Text::Any] {
                    let Ok(translated) = translate(&pattern, mode, text) else { continue };
                    let translated = translated.pattern;
                    let mut chars = translated.chars();
                    while let Some(c) = chars.next() {
                        if c == '\\' {
                            let escape = chars.next();
                            prop_assert!(
                                escape.is_some_and(|e| "xbBAzntr123456789".contains(e)),
                                "{pattern:?} became {translated:?}"
                            );
                        }
                    }
                    for (at, _) in translated.match_indices("(?i") {
                        let rest = &translated[at + 3..];
                        prop_assert!(
                            rest.starts_with(":\\") && rest[2..].starts_with(|c: char| c.is_ascii_digit()),
                            "{pattern:?} became {translated:?}"
                        );
                    }
                }
            }
        }
    }
}
