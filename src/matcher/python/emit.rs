//! Writing a parsed pattern in `fancy-regex` syntax, so it matches what Python matches.

use std::fmt::Write as _;

use super::word::WORD;
use super::{A, Alt, At, Cat, ClassItem, Greed, I, M, MAXREPEAT, Mode, Node, S, Text, combine};

/// A flag of the writing alone (Python's flags use the lower seven bits): the text is ASCII, so
/// `\d \s \w` are written as their ASCII parts.
const ASCII_TEXT: u8 = 128;

/// The pattern for `mode` on `text`: anchored at both ends for a full match.
pub(super) fn pattern(alt: &Alt, flags: u8, mode: Mode, text: Text, len: usize) -> String {
    let flags = match text {
        Text::Ascii => flags | ASCII_TEXT,
        Text::Any => flags,
    };
    let mut out = String::with_capacity(len * 2 + 16);
    let case = unicode_case(flags);
    match mode {
        Mode::Full => {
            out.push_str(if case { r"\A(?i:" } else { r"\A(?:" });
            emit_alt(alt, &mut out, flags, Tail::Full);
            out.push_str(r")\z");
        }
        Mode::Search => {
            out.push_str(if case { "(?i:" } else { "(?:" });
            emit_alt(alt, &mut out, flags, Tail::Search);
            out.push(')');
        }
    }
    out
}

/// Whether the node being written ends the whole match: a `$` there can be written without a
/// look-ahead.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// Not at the end.
    No,
    /// At the end of a full match (nothing may follow).
    Full,
    /// At the end of a search (anything may follow, only whether it matches counts).
    Search,
}

fn emit_alt(alt: &Alt, out: &mut String, flags: u8, tail: Tail) {
    for (i, seq) in alt.0.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        emit_seq(seq, out, flags, tail);
    }
}

fn emit_seq(seq: &[Node], out: &mut String, flags: u8, tail: Tail) {
    for (i, node) in seq.iter().enumerate() {
        let tail = if i + 1 == seq.len() { tail } else { Tail::No };
        emit_node(node, out, flags, tail);
    }
}

fn emit_node(node: &Node, out: &mut String, flags: u8, tail: Tail) {
    match node {
        Node::Lit(c) => emit_literal(*c, out, flags),
        Node::Any => out.push_str(if flags & S != 0 { "(?s:.)" } else { r"[^\n]" }),
        Node::Cat(cat) => emit_lone_category(*cat, out, flags),
        Node::Class { negate, items } => emit_class(*negate, items, out, flags),
        Node::At(at) => out.push_str(match at {
            At::Beginning if flags & M != 0 => "(?m:^)",
            At::Beginning | At::BeginningString => r"\A",
            At::End if flags & M != 0 => "(?m:$)",
            At::End => match tail {
                Tail::Full => r"\z",
                Tail::Search => r"\n?\z",
                Tail::No => r"(?=\n?\z)",
            },
            At::EndString => r"\z",
            At::Boundary if flags & A != 0 => r"(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))",
            At::NonBoundary if flags & A != 0 => r"(?:(?!\A\z)(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_])))",
            At::Boundary => r"\b",
            // Python's `\B` never holds in an empty string.
            At::NonBoundary => r"(?:(?!\A\z)\B)",
        }),
        Node::Group {
            capture,
            add,
            del,
            body,
        } => {
            let inner = combine(flags, *add, *del);
            if *capture {
                out.push('(');
            } else if unicode_case(inner) != unicode_case(flags) {
                out.push_str(if unicode_case(inner) { "(?i:" } else { "(?-i:" });
            } else {
                out.push_str("(?:");
            }
            emit_alt(body, out, inner, tail);
            out.push(')');
        }
        Node::Atomic(body) => {
            out.push_str("(?>");
            emit_alt(body, out, flags, Tail::No);
            out.push(')');
        }
        Node::Look {
            behind,
            negate,
            body,
        } => {
            out.push_str(match (behind, negate) {
                (false, false) => "(?=",
                (false, true) => "(?!",
                (true, false) => "(?<=",
                (true, true) => "(?<!",
            });
            emit_alt(body, out, flags, Tail::No);
            out.push(')');
        }
        Node::Repeat {
            min,
            max,
            greed,
            item,
        } => {
            if only_assertions(item) {
                // Repeating what consumes nothing: zero times is always possible when `min` is
                // 0, and once is as good as many otherwise (`fancy-regex` refuses to repeat it).
                if *min > 0 {
                    emit_node(item, out, flags, Tail::No);
                }
                return;
            }
            out.push_str("(?:");
            emit_node(item, out, flags, Tail::No);
            out.push(')');
            if *max == MAXREPEAT {
                let _ = write!(out, "{{{min},}}");
            } else {
                let _ = write!(out, "{{{min},{max}}}");
            }
            match greed {
                Greed::Greedy => {}
                Greed::Lazy => out.push('?'),
                Greed::Possessive => out.push('+'),
            }
        }
        // The engine's own case-insensitive comparison, closest to Python's ASCII one.
        Node::GroupRef(gid) if ascii_case(flags) => {
            let _ = write!(out, r"(?i:\{gid})");
        }
        Node::GroupRef(gid) => {
            let _ = write!(out, r"(?:\{gid})");
        }
        Node::Cond { group, yes, no } => {
            let _ = write!(out, "(?({group})");
            emit_seq(yes, out, flags, Tail::No);
            out.push('|');
            if let Some(no) = no {
                emit_seq(no, out, flags, Tail::No);
            }
            out.push(')');
        }
    }
}

/// How many times the pattern reads `\d \s \w` or their negations, and how many of those are
/// `\w` or `\W` (each written out as Python's class of 734 ranges on text that is not ASCII).
pub(super) fn classes_read(alt: &Alt) -> (usize, usize) {
    alt.0.iter().flatten().map(class_reads).fold((0, 0), add)
}

const fn add(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
}

fn class_reads(node: &Node) -> (usize, usize) {
    let of = |cat: &Cat| (1, usize::from(matches!(cat, Cat::Word(_))));
    match node {
        Node::Cat(cat) => of(cat),
        Node::Class { items, .. } => items
            .iter()
            .filter_map(|item| match item {
                ClassItem::Cat(cat) => Some(of(cat)),
                _ => None,
            })
            .fold((0, 0), add),
        Node::Group { body, .. } | Node::Atomic(body) | Node::Look { body, .. } => {
            classes_read(body)
        }
        Node::Repeat { item, .. } => class_reads(item),
        Node::Cond { yes, no, .. } => yes
            .iter()
            .chain(no.iter().flatten())
            .map(class_reads)
            .fold((0, 0), add),
        Node::Lit(_) | Node::Any | Node::At(_) | Node::GroupRef(_) => (0, 0),
    }
}

/// Whether `node` never consumes a character: assertions, empty groups, groups of those.
fn only_assertions(node: &Node) -> bool {
    match node {
        Node::At(_) | Node::Look { .. } => true,
        Node::Group { body, .. } | Node::Atomic(body) => {
            body.0.iter().all(|seq| seq.iter().all(only_assertions))
        }
        Node::Repeat { max, item, .. } => *max == 0 || only_assertions(item),
        _ => false,
    }
}

/// A class that matches nothing: what a surrogate stands for (no Rust string holds one).
const NOTHING: &str = r"[^\x{0}-\x{10ffff}]";

/// `I i İ ı`: one letter to Python's `(?i)` (Unicode), which takes two characters to be the same
/// when their lower cases are, or their upper cases; Unicode's case folding, which the regex
/// engine uses, keeps `İ` and `ı` apart from `i`. Every other cased character of Python's
/// tables folds alike in both.
const DOTTED_DOTLESS: [u32; 4] = [0x49, 0x69, 0x130, 0x131];
/// The four as a class (under `(?i)`).
const DOTTED_DOTLESS_CLASS: &str = r"[Ii\x{130}\x{131}]";

/// Whether the pattern is case-insensitive for all of Unicode: the engine's `(?i)`, with the
/// four letters above made one.
const fn unicode_case(flags: u8) -> bool {
    flags & I != 0 && flags & A == 0
}

/// Whether the pattern is case-insensitive for ASCII letters only (`(?a)` with `(?i)`): the
/// engine has no such mode, so each letter is written with its other case, and no other
/// character is folded.
const fn ascii_case(flags: u8) -> bool {
    flags & I != 0 && flags & A != 0
}

/// The ASCII letters of `lo..=hi` in their other case, as class items.
fn other_ascii_case(lo: u32, hi: u32, body: &mut String) {
    for (from, to) in [(0x61, 0x7a), (0x41, 0x5a)] {
        let (a, b) = (lo.max(from), hi.min(to));
        if a <= b {
            // Lower and upper case are 32 apart.
            let shift = |c: u32| char::from_u32(c ^ 0x20).unwrap_or_default();
            body.push(shift(a));
            body.push('-');
            body.push(shift(b));
        }
    }
}

/// One character of the pattern (a surrogate matches nothing).
fn emit_literal(c: u32, out: &mut String, flags: u8) {
    let Some(ch) = char::from_u32(c) else {
        out.push_str(NOTHING);
        return;
    };
    if unicode_case(flags) && DOTTED_DOTLESS.contains(&c) {
        out.push_str(DOTTED_DOTLESS_CLASS);
    } else if ascii_case(flags) && ch.is_ascii_alphabetic() {
        out.push('[');
        out.push(ch);
        other_ascii_case(c, c, out);
        out.push(']');
    } else {
        emit_char(ch, out);
    }
}

fn emit_class(negate: bool, items: &[ClassItem], out: &mut String, flags: u8) {
    let mut body = String::new();
    // A class holding one of the four holds them all, before it is negated.
    let holds = |lo: u32, hi: u32| DOTTED_DOTLESS.iter().any(|c| (lo..=hi).contains(c));
    if unicode_case(flags)
        && items.iter().any(|item| match *item {
            ClassItem::Lit(c) => holds(c, c),
            ClassItem::Range(lo, hi) => holds(lo, hi),
            ClassItem::Cat(_) => false,
        })
    {
        body.push_str(&DOTTED_DOTLESS_CLASS[1..DOTTED_DOTLESS_CLASS.len() - 1]);
    }
    // A class holding an ASCII letter holds its other case, before it is negated.
    if ascii_case(flags) {
        for item in items {
            match *item {
                ClassItem::Lit(c) => other_ascii_case(c, c, &mut body),
                ClassItem::Range(lo, hi) => other_ascii_case(lo, hi, &mut body),
                ClassItem::Cat(_) => {}
            }
        }
    }
    for item in items {
        match *item {
            ClassItem::Lit(c) => {
                if let Some(c) = char::from_u32(c) {
                    emit_char(c, &mut body);
                }
            }
            ClassItem::Range(lo, hi) => {
                // Surrogates are not characters here: the range keeps the characters it holds.
                let lo = if (0xD800..=0xDFFF).contains(&lo) {
                    0xE000
                } else {
                    lo
                };
                let hi = if (0xD800..=0xDFFF).contains(&hi) {
                    0xD7FF
                } else {
                    hi
                };
                if let (Some(lo), Some(hi)) = (char::from_u32(lo), char::from_u32(hi))
                    && lo <= hi
                {
                    emit_char(lo, &mut body);
                    body.push('-');
                    emit_char(hi, &mut body);
                }
            }
            ClassItem::Cat(cat) => emit_category(cat, &mut body, flags),
        }
    }
    match (body.is_empty(), negate) {
        (true, false) => out.push_str(NOTHING),
        (true, true) => out.push_str(r"(?s:.)"),
        (false, _) => {
            out.push('[');
            if negate {
                out.push('^');
            }
            out.push_str(&body);
            out.push(']');
        }
    }
}

/// A literal: letters, digits and `_` as they are, everything else as `\x{..}`, so no character
/// is ever read as syntax.
fn emit_char(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() || c == '_' {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:x}}}", u32::from(c));
    }
}

/// A category outside a class. Python's `\w` is no case-insensitive class, so it is written
/// without `(?i)` here (a class as a whole is folded, which adds U+0345 to it).
fn emit_lone_category(cat: Cat, out: &mut String, flags: u8) {
    let unfolded = unicode_case(flags) && matches!(cat, Cat::Word(_));
    if unfolded {
        out.push_str("(?-i:");
    }
    emit_category(cat, out, flags);
    if unfolded {
        out.push(')');
    }
}

/// `\d \D \s \S \w \W`; a bracketed form nests inside a class too.
fn emit_category(cat: Cat, out: &mut String, flags: u8) {
    let ascii = flags & A != 0;
    let ascii_text = flags & ASCII_TEXT != 0;
    // Python's `\s` is Unicode's White_Space plus the four separators U+001C..U+001F, which are
    // ASCII; its `\w` is `str.isalnum()` and `_`, not the engine's `\w`.
    let (positive, negative) = match cat {
        Cat::Digit(_) if ascii || ascii_text => ("[0-9]", "[^0-9]"),
        Cat::Digit(_) => (r"\d", r"\D"),
        Cat::Word(_) if ascii || ascii_text => ("[0-9A-Za-z_]", "[^0-9A-Za-z_]"),
        Cat::Word(wanted) => {
            out.push_str(if wanted { "[" } else { "[^" });
            // The table holds characters only (no surrogate is a word character).
            let char_of = |code| char::from_u32(code).unwrap_or_default();
            for &(lo, hi) in WORD {
                emit_char(char_of(lo), out);
                if hi != lo {
                    out.push('-');
                    emit_char(char_of(hi), out);
                }
            }
            out.push(']');
            return;
        }
        Cat::Space(_) if ascii => (r"[\t-\r ]", r"[^\t-\r ]"),
        Cat::Space(_) if ascii_text => (r"[\t-\r\x{1c}-\x{1f} ]", r"[^\t-\r\x{1c}-\x{1f} ]"),
        Cat::Space(_) => (r"[\s\x{1c}-\x{1f}]", r"[^\s\x{1c}-\x{1f}]"),
    };
    let (Cat::Digit(wanted) | Cat::Word(wanted) | Cat::Space(wanted)) = cat;
    out.push_str(if wanted { positive } else { negative });
}
