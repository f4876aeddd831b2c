//! What a text must contain for a pattern to be found in it: from the syntax tree, a set of
//! literal strings of which every match holds at least one (`\bgit\s+push` needs "push", or
//! "git"; `rm|unlink` needs one of the two). A text with none of them cannot match, so the
//! pattern need not even be built for it. `None` where no such set can be told (a pattern that
//! may match without a literal, `.*` or `[a-z]+`).

use super::{Alt, ClassItem, I, Node, Seq, combine};

/// At most this many strings in a set: past it, a test would cost what the pattern costs.
const MOST: usize = 64;

/// Literal strings of which every match of the pattern holds one; `fold`: compared without
/// regard to ASCII case (the strings are then lowercase).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Needed {
    pub any_of: Vec<String>,
    pub fold: bool,
}

/// [`Needed`] as a memo keeps it: the strings in one text, each ended by a NUL (no pattern
/// literal holds one), so reading it back makes one string instead of dozens.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Packed {
    any_of: String,
    fold: bool,
}

impl Needed {
    /// The set packed in one text; `None` when a string holds a NUL.
    pub(crate) fn packed(&self) -> Option<Packed> {
        if self.any_of.iter().any(|s| s.contains('\0')) {
            return None;
        }
        let mut any_of = String::new();
        for s in &self.any_of {
            any_of.push_str(s);
            any_of.push('\0');
        }
        Some(Packed {
            any_of,
            fold: self.fold,
        })
    }
}

impl Packed {
    /// [`Needed::may_match`].
    pub(crate) fn may_match(&self, text: &str) -> bool {
        let mut strings = self.any_of.split_terminator('\0');
        if self.fold {
            if !text.is_ascii() {
                return true;
            }
            let lower = text.to_ascii_lowercase();
            return strings.any(|s| lower.contains(s));
        }
        strings.any(|s| text.contains(s))
    }
}

/// The set for a whole pattern with its global `flags`.
pub(super) fn of(alt: &Alt, flags: u8) -> Option<Needed> {
    let needed = alternation(alt, flags)?;
    (!needed.any_of.is_empty() && needed.any_of.iter().all(|s| !s.is_empty())).then_some(needed)
}

fn alternation(alt: &Alt, flags: u8) -> Option<Needed> {
    let mut union = Needed {
        any_of: Vec::new(),
        fold: false,
    };
    for branch in &alt.0 {
        let one = sequence(branch, flags)?;
        union.fold |= one.fold;
        for text in one.any_of {
            if !union.any_of.contains(&text) {
                union.any_of.push(text);
            }
        }
    }
    if union.fold {
        union.any_of = union
            .any_of
            .iter()
            .map(|s| s.to_ascii_lowercase())
            .collect();
        union.any_of.dedup();
    }
    (union.any_of.len() <= MOST).then_some(union)
}

/// Of the sequence's parts (runs of literal characters, and the other nodes), the one whose
/// set is the best test: the longest shortest string, then the fewest strings.
fn sequence(seq: &Seq, flags: u8) -> Option<Needed> {
    let mut best: Option<Needed> = None;
    let mut consider = |candidate: Option<Needed>| {
        if let Some(candidate) = candidate
            && best.as_ref().is_none_or(|b| score(&candidate) > score(b))
        {
            best = Some(candidate);
        }
    };
    let mut run = String::new();
    for node in seq {
        if let Node::Lit(code) = node
            && let Some(c) = char::from_u32(*code)
            && (flags & I == 0 || c.is_ascii())
        {
            run.push(c);
            continue;
        }
        consider(literal(&mut run, flags));
        consider(one(node, flags));
    }
    consider(literal(&mut run, flags));
    best
}

/// The run of literal characters so far, as a set of one.
fn literal(run: &mut String, flags: u8) -> Option<Needed> {
    if run.is_empty() {
        return None;
    }
    let text = std::mem::take(run);
    let fold = flags & I != 0;
    Some(Needed {
        any_of: vec![if fold {
            text.to_ascii_lowercase()
        } else {
            text
        }],
        fold,
    })
}

fn one(node: &Node, flags: u8) -> Option<Needed> {
    match node {
        Node::Group { add, del, body, .. } => alternation(body, combine(flags, *add, *del)),
        // What a lookaround that must hold finds is in the text too.
        Node::Atomic(body)
        | Node::Look {
            negate: false,
            body,
            ..
        } => alternation(body, flags),
        Node::Repeat { min, item, .. } if *min >= 1 => one(item, flags),
        Node::Lit(_) => sequence(&vec![node.clone()], flags),
        Node::Class {
            negate: false,
            items,
        } => class(items, flags),
        _ => None,
    }
}

/// The most characters a class is spelled out to (`[$*?]` needs one of three).
const CLASS_MOST: u32 = 16;

/// A class of a few plain characters (`[$*?]`, `[0-3]`) as the set of its characters; `None`
/// for a category (`\s`) or many characters, and, without regard to case, for one outside ASCII.
fn class(items: &[ClassItem], flags: u8) -> Option<Needed> {
    let fold = flags & I != 0;
    let mut any_of: Vec<String> = Vec::new();
    for item in items {
        let (low, high) = match item {
            ClassItem::Lit(code) => (*code, *code),
            ClassItem::Range(low, high) if high.checked_sub(*low)? < CLASS_MOST => (*low, *high),
            _ => return None,
        };
        for code in low..=high {
            let c = char::from_u32(code)?;
            if fold && !c.is_ascii() {
                return None;
            }
            let text = if fold {
                c.to_ascii_lowercase().to_string()
            } else {
                c.to_string()
            };
            if !any_of.contains(&text) {
                any_of.push(text);
            }
            if any_of.len() > CLASS_MOST as usize {
                return None;
            }
        }
    }
    (!any_of.is_empty()).then_some(Needed { any_of, fold })
}

fn score(needed: &Needed) -> (usize, std::cmp::Reverse<usize>) {
    let shortest = needed
        .any_of
        .iter()
        .map(|s| s.chars().count())
        .min()
        .unwrap_or(0);
    (shortest, std::cmp::Reverse(needed.any_of.len()))
}

impl Needed {
    /// Whether `text` may match: it holds one of the strings (a folded set and a text that is
    /// not ASCII: always, since Python pairs a few letters with characters outside ASCII).
    #[cfg(test)]
    pub(crate) fn may_match(&self, text: &str) -> bool {
        if self.fold {
            if !text.is_ascii() {
                return true;
            }
            let lower = text.to_ascii_lowercase();
            return self.any_of.iter().any(|s| lower.contains(s.as_str()));
        }
        self.any_of.iter().any(|s| text.contains(s.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::parse::parse;
    use super::super::{Mode, Text, translate};
    use super::{Needed, of};

    const PIECES: &[&str] = &[
        "a", "b", "rm", "git", "(", ")", "(?:", "|", "*", "+", "?", "{2}", "\\s", "\\w", ".",
        "[ab]", "(?=", "(?!", "(?i)", "(?i:", "^", "$", "\\b", "-rf", " ", "K", "[kx]", "[a-c]",
        "[^a]", "[r-]",
    ];
    const TEXTS: &[&str] = &[
        "a", "b", "rm", "RM", "git", " ", "-rf", "k", "\u{212a}", "x",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Never a false "cannot match": wherever the pattern is found, the test lets the text
        /// through.
        #[test]
        fn the_test_never_turns_away_a_text_the_pattern_finds(
            picks in proptest::collection::vec(0..PIECES.len(), 1..10),
            words in proptest::collection::vec(0..TEXTS.len(), 0..8),
        ) {
            let pattern: String = picks.iter().map(|&i| PIECES[i]).collect();
            let Ok(translated) = translate(&pattern, Mode::Search, Text::Any) else {
                return Ok(());
            };
            let Ok(regex) = fancy_regex::Regex::new(&translated.pattern) else {
                return Ok(());
            };
            let (alt, flags) = parse(&pattern).unwrap();
            let Some(needed) = of(&alt, flags) else { return Ok(()) };
            let text: String = words.iter().map(|&i| TEXTS[i]).collect();
            if regex.is_match(&text).unwrap_or(false) {
                prop_assert!(needed.may_match(&text), "{pattern:?} finds {text:?}, {needed:?}");
                prop_assert!(needed.packed().is_some_and(|packed| packed.may_match(&text)));
            }
        }
    }

    fn needed(pattern: &str) -> Option<Needed> {
        let (alt, flags) = parse(pattern).unwrap();
        of(&alt, flags)
    }

    fn set(pattern: &str) -> Vec<String> {
        needed(pattern).unwrap().any_of
    }

    #[test]
    fn a_match_always_holds_one_of_the_strings() {
        assert_eq!(set(r"\bgit\s+push\b"), ["push"]);
        assert_eq!(set(r"(?:sudo\s+)?(?:rm|unlink)\s+"), ["rm", "unlink"]);
        // The longer literal is the better test.
        assert_eq!(set(r"(?:rm|unlink)\s+-rf"), ["-rf"]);
        assert_eq!(set("(?x) cat \\s+ \\.env"), [".env"]);
        assert_eq!(set("(?i)DROP TABLE"), ["drop table"]);
        assert!(needed("(?i)DROP").unwrap().fold);
        assert_eq!(set("a(?=secret)"), ["secret"]);
        assert_eq!(set("x(?:ab)+"), ["ab"]);
        // A class of a few characters needs one of them.
        assert_eq!(set(r"[$`*?]|[^\[]\[|\[[^\[\s]"), ["$", "`", "*", "?", "["]);
        assert_eq!(set("(?i)[a-c]"), ["a", "b", "c"]);
    }

    #[test]
    fn no_set_where_a_match_may_hold_no_literal() {
        for pattern in [
            ".*",
            "[a-z]+",
            "a|.",
            "(?:rm)?",
            r"\d+",
            "(?!rm)x?",
            r"(?:a)?\w",
            "[^a]",
            r"[\sx]",
            "[a-z]",
            "(?i)[\u{e9}]",
        ] {
            assert_eq!(needed(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn a_folded_set_lets_a_text_outside_ascii_through() {
        let needed = needed("(?i)kill").unwrap();
        assert!(needed.may_match("KILL -9 1"));
        assert!(!needed.may_match("ls -la"));
        let packed = needed.packed().unwrap();
        assert!(packed.may_match("KILL -9 1") && !packed.may_match("ls -la"));
        // The Kelvin sign is a K to Python's (?i).
        assert!(needed.may_match("\u{212a}ill"));
    }
}
