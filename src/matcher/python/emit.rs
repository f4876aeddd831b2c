//! Writing a parsed pattern in `fancy-regex` syntax, so it matches what Python matches. The
//! engine's own Unicode tables are never asked for: `\d \s \w` and what `(?i)` takes are
//! written out from Python's (`tables.rs`), which also keeps those tables out of the binary.

use std::fmt::Write as _;

use super::tables::{CASE, DIGIT, SPACE, WORD};
use super::{A, Alt, At, Cat, ClassItem, Greed, I, M, MAXREPEAT, Mode, Node, S, Text, combine};

/// A flag of the writing alone (Python's flags use the lower seven bits): the text is ASCII, so
/// `\d \s \w` are written as their ASCII parts, and `(?i)` pairs only ASCII characters.
const ASCII_TEXT: u8 = 128;

/// The pattern being written, and whether writing it for ASCII text left out something that
/// other text needs (so the translation for any text differs).
struct Writer {
    out: String,
    narrowed: bool,
}

/// The pattern for `mode` on `text`, anchored at both ends for a full match; and whether it was
/// narrowed to ASCII text.
pub(super) fn pattern(alt: &Alt, flags: u8, mode: Mode, text: Text, len: usize) -> (String, bool) {
    let flags = match text {
        Text::Ascii => flags | ASCII_TEXT,
        Text::Any => flags,
    };
    let mut w = Writer {
        out: String::with_capacity(len * 2 + 16),
        narrowed: false,
    };
    match mode {
        Mode::Full => {
            w.out.push_str(r"\A(?:");
            emit_alt(alt, &mut w, flags, Tail::Full);
            w.out.push_str(r")\z");
        }
        Mode::Search => {
            w.out.push_str("(?:");
            emit_alt(alt, &mut w, flags, Tail::Search);
            w.out.push(')');
        }
    }
    (w.out, w.narrowed)
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

fn emit_alt(alt: &Alt, w: &mut Writer, flags: u8, tail: Tail) {
    for (i, seq) in alt.0.iter().enumerate() {
        if i > 0 {
            w.out.push('|');
        }
        emit_seq(seq, w, flags, tail);
    }
}

fn emit_seq(seq: &[Node], w: &mut Writer, flags: u8, tail: Tail) {
    for (i, node) in seq.iter().enumerate() {
        let tail = if i + 1 == seq.len() { tail } else { Tail::No };
        emit_node(node, w, flags, tail);
    }
}

fn emit_node(node: &Node, w: &mut Writer, flags: u8, tail: Tail) {
    match node {
        Node::Lit(c) => emit_literal(*c, w, flags),
        Node::Any => w.out.push_str(if flags & S != 0 { "(?s:.)" } else { r"[^\n]" }),
        Node::Cat(cat) => emit_category(*cat, &mut w.out, &mut w.narrowed, flags),
        Node::Class { negate, items } => emit_class(*negate, items, w, flags),
        Node::At(at) => w.out.push_str(match at {
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
            w.out.push_str(if *capture { "(" } else { "(?:" });
            emit_alt(body, w, inner, tail);
            w.out.push(')');
        }
        Node::Atomic(body) => {
            w.out.push_str("(?>");
            emit_alt(body, w, flags, Tail::No);
            w.out.push(')');
        }
        Node::Look {
            behind,
            negate,
            body,
        } => {
            w.out.push_str(match (behind, negate) {
                (false, false) => "(?=",
                (false, true) => "(?!",
                (true, false) => "(?<=",
                (true, true) => "(?<!",
            });
            emit_alt(body, w, flags, Tail::No);
            w.out.push(')');
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
                    emit_node(item, w, flags, Tail::No);
                }
                return;
            }
            w.out.push_str("(?:");
            emit_node(item, w, flags, Tail::No);
            w.out.push(')');
            if *max == MAXREPEAT {
                let _ = write!(w.out, "{{{min},}}");
            } else {
                let _ = write!(w.out, "{{{min},{max}}}");
            }
            match greed {
                Greed::Greedy => {}
                Greed::Lazy => w.out.push('?'),
                Greed::Possessive => w.out.push('+'),
            }
        }
        // The engine's own case-insensitive comparison: Python's for ASCII letters; other
        // letters must be the same character.
        Node::GroupRef(gid) if flags & I != 0 => {
            let _ = write!(w.out, r"(?i:\{gid})");
        }
        Node::GroupRef(gid) => {
            let _ = write!(w.out, r"(?:\{gid})");
        }
        Node::Cond { group, yes, no } => {
            let _ = write!(w.out, "(?({group})");
            emit_seq(yes, w, flags, Tail::No);
            w.out.push('|');
            if let Some(no) = no {
                emit_seq(no, w, flags, Tail::No);
            }
            w.out.push(')');
        }
    }
}

/// How many times the pattern reads `\w` or `\W` (each written out as Python's class of 734
/// ranges on text that is not ASCII).
pub(super) fn words_read(alt: &Alt) -> usize {
    alt.0
        .iter()
        .flatten()
        .map(word_reads)
        .fold(0, usize::saturating_add)
}

fn word_reads(node: &Node) -> usize {
    match node {
        Node::Cat(cat) => usize::from(matches!(cat, Cat::Word(_))),
        Node::Class { items, .. } => items
            .iter()
            .filter(|item| matches!(item, ClassItem::Cat(Cat::Word(_))))
            .count(),
        Node::Group { body, .. } | Node::Atomic(body) | Node::Look { body, .. } => words_read(body),
        Node::Repeat { item, .. } => word_reads(item),
        Node::Cond { yes, no, .. } => yes
            .iter()
            .chain(no.iter().flatten())
            .map(word_reads)
            .fold(0, usize::saturating_add),
        Node::Lit(_) | Node::Any | Node::At(_) | Node::GroupRef(_) => 0,
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

/// Whether the pattern is case-insensitive for all of Unicode: each cased character is written
/// with the others Python's `(?i)` takes for it (`CASE`).
const fn unicode_case(flags: u8) -> bool {
    flags & I != 0 && flags & A == 0
}

/// Whether the pattern is case-insensitive for ASCII letters only (`(?a)` with `(?i)`): each
/// letter is written with its other case, and no other character is folded.
const fn ascii_case(flags: u8) -> bool {
    flags & I != 0 && flags & A != 0
}

/// Adds to `into` the other characters `(?i)` takes for those of `lo..=hi`; for ASCII text,
/// only the ASCII ones (`narrowed` says when others were left out).
fn case_partners(lo: u32, hi: u32, flags: u8, narrowed: &mut bool, into: &mut Vec<u32>) {
    let start = CASE.partition_point(|&(c, _)| c < lo);
    for &(_, other) in CASE[start..].iter().take_while(|&&(c, _)| c <= hi) {
        if flags & ASCII_TEXT != 0 && other >= 0x80 {
            *narrowed = true;
        } else {
            into.push(other);
        }
    }
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
fn emit_literal(c: u32, w: &mut Writer, flags: u8) {
    let Some(ch) = char::from_u32(c) else {
        w.out.push_str(NOTHING);
        return;
    };
    let mut others = Vec::new();
    if unicode_case(flags) {
        case_partners(c, c, flags, &mut w.narrowed, &mut others);
    } else if ascii_case(flags) && ch.is_ascii_alphabetic() {
        others.push(c ^ 0x20);
    }
    if others.is_empty() {
        emit_char(ch, &mut w.out);
    } else {
        w.out.push('[');
        emit_char(ch, &mut w.out);
        emit_set(&mut others, &mut w.out);
        w.out.push(']');
    }
}

fn emit_class(negate: bool, items: &[ClassItem], w: &mut Writer, flags: u8) {
    let mut body = String::new();
    // What `(?i)` adds to a class is added before it is negated, as Python does.
    let mut others = if unicode_case(flags) {
        class_partners(items, flags, &mut w.narrowed)
    } else {
        Vec::new()
    };
    for item in items {
        match *item {
            ClassItem::Lit(c) => {
                if ascii_case(flags) {
                    other_ascii_case(c, c, &mut body);
                }
                if let Some(c) = char::from_u32(c) {
                    emit_char(c, &mut body);
                }
            }
            ClassItem::Range(lo, hi) => {
                if ascii_case(flags) {
                    other_ascii_case(lo, hi, &mut body);
                }
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
            // Python tests a class's categories on the lower case of the character when the
            // class holds a cased one; no character's lower case is in a category it is not in.
            ClassItem::Cat(cat) => emit_category(cat, &mut body, &mut w.narrowed, flags),
        }
    }
    emit_set(&mut others, &mut body);
    match (body.is_empty(), negate) {
        (true, false) => w.out.push_str(NOTHING),
        (true, true) => w.out.push_str(r"(?s:.)"),
        (false, _) => {
            w.out.push('[');
            if negate {
                w.out.push('^');
            }
            w.out.push_str(&body);
            w.out.push(']');
        }
    }
}

/// The characters `(?i)` adds to a class: those it takes for the class's characters and ranges
/// that the class does not hold already (`(?i)[\x00-\x{10ffff}]` adds none). The class's own
/// characters are merged into ranges first, so each pair of `CASE` is looked at once however
/// many times a hostile class repeats itself.
fn class_partners(items: &[ClassItem], flags: u8, narrowed: &mut bool) -> Vec<u32> {
    let mut held: Vec<(u32, u32)> = items
        .iter()
        .filter_map(|item| match *item {
            ClassItem::Lit(c) => Some((c, c)),
            ClassItem::Range(lo, hi) => Some((lo, hi)),
            ClassItem::Cat(_) => None,
        })
        .collect();
    held.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(held.len());
    for (lo, hi) in held {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    let mut others = Vec::new();
    for &(lo, hi) in &merged {
        case_partners(lo, hi, flags, narrowed, &mut others);
    }
    others.retain(|&c| {
        let after = merged.partition_point(|&(lo, _)| lo <= c);
        after == 0 || merged[after - 1].1 < c
    });
    others
}

/// Characters as class items, in order, each run of neighbours as one range.
fn emit_set(chars: &mut [u32], body: &mut String) {
    chars.sort_unstable();
    let mut rest = chars.iter().copied().peekable();
    while let Some(lo) = rest.next() {
        let mut hi = lo;
        while let Some(&next) = rest.peek() {
            if next > hi.saturating_add(1) {
                break;
            }
            hi = next;
            rest.next();
        }
        emit_range(lo, hi, body);
    }
}

/// `lo..=hi` as class items (`lo` alone when they are one); both are characters.
fn emit_range(lo: u32, hi: u32, body: &mut String) {
    let char_of = |code| char::from_u32(code).unwrap_or_default();
    emit_char(char_of(lo), body);
    if hi != lo {
        body.push('-');
        emit_char(char_of(hi), body);
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

/// `\d \D \s \S \w \W`, as a bracketed class (which nests inside a class too): Python's own
/// (`tables.rs`), their ASCII parts with the `a` flag, and for ASCII text (`narrowed`).
fn emit_category(cat: Cat, out: &mut String, narrowed: &mut bool, flags: u8) {
    let (Cat::Digit(wanted) | Cat::Word(wanted) | Cat::Space(wanted)) = cat;
    let ascii = flags & A != 0;
    let ascii_text = flags & ASCII_TEXT != 0;
    let ascii_part = match cat {
        Cat::Digit(_) if ascii || ascii_text => Some("0-9"),
        Cat::Word(_) if ascii || ascii_text => Some("0-9A-Za-z_"),
        Cat::Space(_) if ascii => Some(r"\t-\r "),
        Cat::Space(_) if ascii_text => Some(r"\t-\r\x{1c}-\x{1f} "),
        Cat::Digit(_) | Cat::Word(_) | Cat::Space(_) => None,
    };
    out.push_str(if wanted { "[" } else { "[^" });
    if let Some(part) = ascii_part {
        *narrowed |= !ascii;
        out.push_str(part);
    } else {
        let table = match cat {
            Cat::Digit(_) => DIGIT,
            Cat::Space(_) => SPACE,
            Cat::Word(_) => WORD,
        };
        for &(lo, hi) in table {
            emit_range(lo, hi, out);
        }
    }
    out.push(']');
}
