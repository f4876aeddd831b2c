//! Tool matchers, as Hermes matches them: Python's `re.fullmatch` of the tool name (and
//! `re.search` for Agent Hooks `matcher.pattern`). A pattern Python's `re` would reject matches by
//! literal equality (a substring, for `matcher.pattern`), as Hermes falls back. A plain name is
//! compared as text, without a regex.

mod python;

pub(crate) use python::needed::{Needed, Packed};

use std::cell::OnceCell;
use std::sync::OnceLock;

use fancy_regex::{Regex, RegexBuilder};

/// A pattern with no character that means anything to the engine: searching for it is finding
/// its text.
pub(crate) fn literal_of(pattern: &str) -> Option<&str> {
    python::is_plain(pattern).then_some(pattern)
}

/// The words of a pattern that is only an anchored choice of plain words: `^rm$`, `^(rm|unlink)$`,
/// `^(?:cp|mv)$`, with `\.`, `\-` and `\+` read as the characters they escape; groups of such
/// choices, nested or made optional, are spelled out (`^((bsd|g)?tar|zip)(\.exe)?$`).
pub(crate) fn words_of(pattern: &str) -> Option<Box<[String]>> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let mut chars = inner.chars().peekable();
    // Without a group, `^a|b$` is `^a` or `b$`: not a choice of words.
    let words = choice(&mut chars, 0)?;
    let plain = chars.next().is_none() && words.len() <= SPELLED_MAX;
    (plain && words.iter().all(|word| !word.is_empty())).then(|| words.into_boxed_slice())
}

/// [`words_of`] for a pattern that ignores case as a whole (`(?i)^(del|erase)$`): the words, in
/// lowercase, when each is ASCII. A text of ASCII characters is among them when its lowercase
/// is (Python folds no ASCII letter to another outside ASCII's pairs); any other text is left to
/// the pattern, since Python pairs `k` with the Kelvin sign and `s` with the long s.
pub(crate) fn folded_words_of(pattern: &str) -> Option<Box<[String]>> {
    let words = words_of(pattern.strip_prefix("(?i)")?)?;
    words
        .iter()
        .all(|word| word.is_ascii())
        .then(|| words.iter().map(|word| word.to_ascii_lowercase()).collect())
}

/// The deepest nesting of groups [`words_of`] spells out: a pattern from a hostile file may
/// open thousands, and each is a level of recursion.
const NESTING_MAX: usize = 4;

/// The most words [`words_of`] spells out: `^(npm|pnpm|yarn)(\.cmd|\.exe)?$` is nine, and the
/// programs that print a file's text (the secrets pack) about eighty. A text is found among them
/// by one search of the joined words, which costs far less than reading an automaton.
const SPELLED_MAX: usize = 256;

/// The texts of a choice of sequences (`a|b(c|d)?`), up to its closing `)` when `depth` (how
/// many groups it is inside) is above 0, or `None` when it holds anything but plain characters,
/// groups and `?` after a group.
fn choice(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    depth: usize,
) -> Option<Vec<String>> {
    let grouped = depth > 0;
    let mut out = Vec::new();
    let mut texts = vec![String::new()];
    loop {
        match chars.next() {
            None if grouped => return None,
            None => {
                out.append(&mut texts);
                return Some(out);
            }
            Some(')') if grouped => {
                out.append(&mut texts);
                return Some(out);
            }
            Some('|') if grouped => {
                out.append(&mut std::mem::replace(&mut texts, vec![String::new()]));
            }
            Some('|') => return None,
            Some('(') => {
                if chars.peek() == Some(&'?') {
                    chars.next();
                    if chars.next() != Some(':') {
                        return None;
                    }
                }
                if depth == NESTING_MAX {
                    return None;
                }
                let mut inside = choice(chars, depth + 1)?;
                if chars.peek() == Some(&'?') {
                    chars.next();
                    inside.insert(0, String::new());
                }
                let mut joined = Vec::with_capacity(texts.len() * inside.len());
                for text in &texts {
                    for part in &inside {
                        joined.push(format!("{text}{part}"));
                    }
                }
                if joined.len() > SPELLED_MAX {
                    return None;
                }
                texts = joined;
            }
            Some('\\') => match chars.next()? {
                escaped @ ('.' | '-' | '+' | '/' | '_') => {
                    for text in &mut texts {
                        text.push(escaped);
                    }
                }
                _ => return None,
            },
            Some(c)
                if c.is_ascii_alphanumeric()
                    || matches!(c, '-' | '_' | '/' | ':' | '@' | '=' | ',') =>
            {
                for text in &mut texts {
                    text.push(c);
                }
            }
            Some(_) => return None,
        }
    }
}

/// Whether `text` is one of `words`, as `^(?:w1|w2)$` finds it: in a search, `$` also holds
/// before a final newline.
pub(crate) fn is_one_of<'w>(
    mut words: impl Iterator<Item = &'w [u8]>,
    text: &str,
    search: bool,
) -> bool {
    let text = text.as_bytes();
    let bare = search.then(|| text.strip_suffix(b"\n")).flatten();
    words.any(|word| word == text || bare == Some(word))
}

/// [`is_one_of`] for words joined by `|` in one text, found by looking for `text` in the list
/// (a fast search for the usual answer, no) instead of comparing each word in turn.
pub(crate) fn is_in_list(list: &str, text: &str, search: bool) -> bool {
    let one = |text: &str| {
        // No word holds a `|`: such a text would only be found across two words.
        if text.contains('|') || !list.contains(text) {
            return false;
        }
        let bytes = list.as_bytes();
        if text.is_empty() {
            return bytes.is_empty()
                || bytes[0] == b'|'
                || bytes[bytes.len() - 1] == b'|'
                || list.contains("||");
        }
        list.match_indices(text).any(|(at, _)| {
            let end = at + text.len();
            (at == 0 || bytes[at - 1] == b'|') && (end == bytes.len() || bytes[end] == b'|')
        })
    };
    one(text) || (search && text.strip_suffix('\n').is_some_and(one))
}

/// The largest automaton built ahead for a pattern, in bytes (the packs' take a few KB).
const AUTOMATON_MAX: usize = 256 * 1024;

/// A search pattern built ahead as a DFA and written out, for a pattern without look-around or
/// back references: a later process reads it back instead of building the pattern (which costs
/// a tenth of a millisecond or more). Made for texts of ASCII characters only, where the
/// pattern's ASCII translation is exact; `None` for a pattern it cannot be made for.
pub(crate) fn automaton(pattern: &str) -> Option<Vec<u8>> {
    use regex_automata::dfa::{StartKind, dense};
    if python::is_plain(pattern) || words_of(pattern).is_some() {
        return None;
    }
    let translated = python::translate(pattern, mode(true), python::Text::Ascii).ok()?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Unanchored)
                .dfa_size_limit(Some(AUTOMATON_MAX))
                .determinize_size_limit(Some(4 * AUTOMATON_MAX)),
        )
        .syntax(
            regex_automata::util::syntax::Config::new()
                .unicode(false)
                .utf8(false),
        )
        .build(&translated.pattern)
        .ok()?;
    // Sparse: a tenth of the dense table's size, read back in proportion.
    let bytes = dfa.to_sparse().ok()?.to_bytes_native_endian();
    (bytes.len() <= AUTOMATON_MAX / 4).then_some(bytes)
}

/// A pattern built ahead ([`automaton`]), read back and checked once.
#[derive(Clone)]
pub(crate) struct Automaton(regex_automata::dfa::sparse::DFA<Vec<u8>>);

impl std::fmt::Debug for Automaton {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Automaton")
    }
}

impl Automaton {
    /// The automaton `bytes` hold (`None`: they do not read back as one).
    pub(crate) fn read(bytes: &[u8]) -> Option<Self> {
        let (dfa, _) = regex_automata::dfa::sparse::DFA::from_bytes(bytes).ok()?;
        Some(Self(dfa.to_owned()))
    }

    /// Whether the pattern is found in `text`: `None` when the automaton cannot tell (a text
    /// that is not ASCII).
    pub(crate) fn decides(&self, text: &str) -> Option<bool> {
        use regex_automata::dfa::Automaton as _;
        if !text.is_ascii() {
            return None;
        }
        self.0
            .try_search_fwd(&regex_automata::Input::new(text))
            .ok()
            .map(|found| found.is_some())
    }
}

/// The most backtracking steps one match may take. A pattern that needs more (catastrophic
/// backtracking, where Python would run for ever) counts as matching: the hook runs and decides.
pub(crate) const BACKTRACK_LIMIT: usize = 100_000;

/// The most `\w` a pattern may read to be built for text that is not ASCII: each is Python's
/// class written out (about 11 KB of pattern), and a hostile HOOK.md could hold thousands.
/// Past it, such a text counts as matching (and `doctor` warns).
const WORDS_MAX: usize = 16;

/// A compiled `matcher`.
#[derive(Clone, Debug)]
pub struct Matcher {
    source: String,
    how: How,
    search: bool,
}

/// How a matcher compares: most patterns are plain tool names, which need no regex at all.
#[derive(Clone, Debug)]
enum How {
    /// No character special to Python's `re`: plain text comparison, what the regex would do.
    Plain,
    Regex(Box<Compiled>),
    /// Rejected by Python's `re`: literal comparison, as Hermes falls back.
    Invalid,
    /// `^(?:a|b|c)$` of plain words: one of them, compared as text (the commonest rule pattern
    /// on a command's program or subcommand), with no regex to build.
    Words(Box<[String]>),
}

/// A translated pattern, built for the texts it meets.
#[derive(Clone, Debug)]
struct Compiled {
    /// Exact on texts of ASCII characters only, where `\d \s \w` are their ASCII parts and
    /// `(?i)` pairs ASCII letters: quick to build (the Unicode `\w` alone takes a third of a
    /// millisecond).
    ascii: Regex,
    /// For any other text, when the two differ: built when first needed.
    /// `None` inside when it cannot be built: such a text counts as matching, as too much
    /// backtracking does.
    any: Option<OnceLock<Option<Regex>>>,
}

impl Matcher {
    /// Compiles `pattern` for a full match. A pattern Python would reject becomes a literal
    /// matcher, and the second value says why.
    pub fn compile(pattern: &str) -> (Self, Option<String>) {
        Self::build(pattern, false)
    }

    /// Compiles `pattern` to be searched anywhere in a text (Agent Hooks `matcher.pattern`). A
    /// pattern Python would reject becomes a plain substring search, and the second value says
    /// why.
    pub fn compile_search(pattern: &str) -> (Self, Option<String>) {
        Self::build(pattern, true)
    }

    fn build(pattern: &str, search: bool) -> (Self, Option<String>) {
        let (how, invalid) = if python::is_plain(pattern) {
            (How::Plain, None)
        } else if let Some(words) = words_of(pattern) {
            (How::Words(words), None)
        } else {
            match python::translate(pattern, mode(search), python::Text::Ascii) {
                Err(err) => (How::Invalid, Some(err.to_string())),
                Ok(translated) => match regex(&translated.pattern) {
                    Ok(ascii) => {
                        let any = translated.narrowed.then(|| {
                            if translated.words > WORDS_MAX {
                                OnceLock::from(None) // never written out: too large
                            } else {
                                OnceLock::new()
                            }
                        });
                        (How::Regex(Box::new(Compiled { ascii, any })), None)
                    }
                    Err(err) => (
                        How::Invalid,
                        Some(format!(
                            "valid in Python, but it cannot be matched here: {}",
                            one_line(&err.to_string())
                        )),
                    ),
                },
            }
        };
        let matcher = Self {
            source: pattern.to_owned(),
            how,
            search,
        };
        (matcher, invalid)
    }

    /// Whether the pattern is found in any scalar value of `input`, at any depth, rendered as
    /// text (`\\.py$` finds `{"path": "x.py"}`). Keys and nulls are not searched.
    pub fn matches_any_value(&self, input: &serde_json::Map<String, serde_json::Value>) -> bool {
        input.values().any(|value| self.matches_value(value))
    }

    fn matches_value(&self, value: &serde_json::Value) -> bool {
        use serde_json::Value;
        match value {
            Value::Null => false,
            Value::String(text) => self.matches_text(text),
            Value::Bool(b) => self.matches_text(&b.to_string()),
            Value::Number(n) => self.matches_text(&n.to_string()),
            Value::Array(items) => items.iter().any(|v| self.matches_value(v)),
            Value::Object(map) => map.values().any(|v| self.matches_value(v)),
        }
    }

    /// Too much backtracking counts as a match: the hook runs and decides.
    fn matches_text(&self, text: &str) -> bool {
        self.decides(text).unwrap_or(true)
    }

    /// Whether the pattern matches `text`, or `None` when that cannot be told (too much
    /// backtracking, or a text that is not ASCII for a pattern too large to build for one): a
    /// guard's condition then counts as matching, and an exception to a guard as not matching.
    pub fn decides(&self, text: &str) -> Option<bool> {
        match (&self.how, self.search) {
            (How::Regex(compiled), _) => self
                .regex_for(compiled, text)
                .and_then(|regex| regex.is_match(text).ok()),
            // `$` also holds before a final newline, in a search.
            (How::Words(words), search) => {
                Some(is_one_of(words.iter().map(String::as_bytes), text, search))
            }
            (How::Plain | How::Invalid, true) => Some(text.contains(&self.source)),
            (How::Plain | How::Invalid, false) => Some(text == self.source),
        }
    }

    /// The regex for `text`: the ASCII one, unless the text is not ASCII and the pattern reads
    /// classes (`None`: that one cannot be built).
    fn regex_for<'a>(&self, compiled: &'a Compiled, text: &str) -> Option<&'a Regex> {
        match &compiled.any {
            Some(any) if !text.is_ascii() => any
                .get_or_init(|| {
                    let translated =
                        python::translate(&self.source, mode(self.search), python::Text::Any);
                    translated.ok().and_then(|t| regex(&t.pattern).ok())
                })
                .as_ref(),
            _ => Some(&compiled.ascii),
        }
    }

    /// Whether the pattern can be matched on any text: false when its regex for text that is not
    /// ASCII exceeds the engine's limits (`\w{300}`), so such a text counts as matching. That
    /// regex is built here if it was not yet (an audit asks; `run` builds it only when needed).
    pub fn fits_any_text(&self) -> bool {
        match &self.how {
            How::Regex(compiled) => self.regex_for(compiled, "\u{80}").is_some(),
            How::Plain | How::Invalid | How::Words(_) => true,
        }
    }

    /// The first of `texts` on which one match takes the engine more than `steps` backtracking
    /// steps (or more stack than it has), if one does: a count, the same on any machine, where a
    /// time would depend on the machine and its load. A pattern without look-around or back
    /// references is run by an engine that never backtracks, and never does.
    pub fn backtracks_past(&self, steps: usize, texts: &[&str]) -> Option<usize> {
        let How::Regex(compiled) = &self.how else {
            return None;
        };
        let (ascii, any) = (OnceCell::new(), OnceCell::new());
        texts.iter().position(|text| {
            let Some(regex) = self.regex_for(compiled, text) else {
                return false;
            };
            // As `regex_for` picks.
            let cell = if compiled.any.is_some() && !text.is_ascii() {
                &any
            } else {
                &ascii
            };
            cell.get_or_init(|| {
                RegexBuilder::new(regex.as_str())
                    .backtrack_limit(steps)
                    .build()
                    .ok()
            })
            .as_ref()
            .is_some_and(|limited| limited.is_match(text).is_err())
        })
    }

    /// Whether some text can match the pattern: `Some(false)` when none ever can (`[^\s\S]`,
    /// `a^b`), `None` when that cannot be told here (lookaround, backreferences).
    pub fn can_match(&self) -> Option<bool> {
        match &self.how {
            How::Regex(compiled) => {
                let hir = regex_syntax::ParserBuilder::new()
                    .unicode(false)
                    .utf8(false)
                    .build()
                    .parse(compiled.ascii.as_str())
                    .ok()?;
                Some(hir.properties().minimum_len().is_some())
            }
            How::Plain | How::Invalid | How::Words(_) => Some(true),
        }
    }

    /// What a text must contain for the search pattern `pattern` to be found in it: a quick
    /// test that spares building the pattern for most texts (`None`: no such test).
    pub(crate) fn needed(pattern: &str) -> Option<Needed> {
        python::needed_for(pattern)
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether Python would reject the pattern, so it matches by literal equality.
    pub fn is_literal(&self) -> bool {
        matches!(self.how, How::Invalid)
    }

    /// Whether the tool name matches; a call without a tool name never matches.
    pub fn matches(&self, tool: Option<&str>) -> bool {
        tool.is_some_and(|tool| self.matches_text(tool))
    }
}

const fn mode(search: bool) -> python::Mode {
    if search {
        python::Mode::Search
    } else {
        python::Mode::Full
    }
}

fn regex(pattern: &str) -> Result<Regex, fancy_regex::Error> {
    RegexBuilder::new(pattern)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
}

/// The last non-empty line of a multi-line message (regex errors draw a caret diagram first).
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or(message)
        .to_owned()
}

#[cfg(test)]
mod tests;
