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
/// `^(?:cp|mv)$`, with `\.`, `\-` and `\+` read as the characters they escape.
pub(crate) fn words_of(pattern: &str) -> Option<Box<[String]>> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let grouped = inner
        .strip_prefix("(?:")
        .or_else(|| inner.strip_prefix('('))
        .and_then(|rest| rest.strip_suffix(')'));
    // Without a group, `^a|b$` is `^a` or `b$`: not a choice of words.
    let inner = match grouped {
        Some(inner) => inner,
        None if inner.contains('|') => return None,
        None => inner,
    };
    let mut words = Vec::new();
    for alternative in inner.split('|') {
        let mut word = String::with_capacity(alternative.len());
        let mut chars = alternative.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next()? {
                    escaped @ ('.' | '-' | '+' | '/' | '_') => word.push(escaped),
                    _ => return None,
                },
                c if c.is_ascii_alphanumeric()
                    || matches!(c, '-' | '_' | '/' | ':' | '@' | '=' | ',') =>
                {
                    word.push(c);
                }
                _ => return None,
            }
        }
        if word.is_empty() {
            return None;
        }
        words.push(word);
    }
    Some(words.into_boxed_slice())
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
mod tests {
    use super::{How, Matcher};

    proptest::proptest! {
        /// Looking for the text in the joined list finds what comparing each word finds.
        #[test]
        fn a_text_is_in_the_joined_list_when_it_is_one_of_its_words(
            words in proptest::collection::vec("[ab|\n]{0,3}", 1..4),
            text in "[ab|\n]{0,4}",
            search: bool,
        ) {
            let words: Vec<String> = words
                .iter()
                .flat_map(|w| w.split('|').map(str::to_owned).collect::<Vec<_>>())
                .collect();
            let list = words.join("|");
            let each = words.iter().map(String::as_bytes);
            proptest::prop_assert_eq!(
                super::is_in_list(&list, &text, search),
                super::is_one_of(each, &text, search),
                "list {:?}, text {:?}", list, text
            );
        }
    }

    #[test]
    fn an_anchored_choice_of_words_compares_as_text_like_the_regex_would() {
        let texts = [
            "rm", "rm\n", "rmdir", "xrm", "unlink", "", "a.b", "axb", "RM", "rm\n\n",
        ];
        for pattern in [
            "^rm$",
            "^(rm|unlink)$",
            "^(?:rm|unlink)$",
            "^(a\\.b|c-d)$",
            "^rm|unlink$",
        ] {
            for search in [true, false] {
                let words = Matcher::build(pattern, search).0;
                let regex = Matcher {
                    source: pattern.to_owned(),
                    how: How::Invalid,
                    search,
                };
                let regex = match Matcher::build(&format!("(?:){pattern}"), search).0.how {
                    how @ How::Regex(_) => Matcher { how, ..regex },
                    _ => unreachable!("{pattern}"),
                };
                for text in texts {
                    assert_eq!(
                        words.decides(text),
                        regex.decides(text),
                        "{pattern} {search} {text:?}"
                    );
                }
            }
        }
        assert!(matches!(
            Matcher::compile_search("^(rm|unlink)$").0.how,
            How::Words(_)
        ));
        assert!(matches!(
            Matcher::compile_search("^rm|unlink$").0.how,
            How::Regex(_)
        ));
    }

    #[test]
    fn alternation_is_a_full_match() {
        let (m, warning) = Matcher::compile("terminal|file");
        assert!(warning.is_none());
        assert!(m.matches(Some("terminal")));
        assert!(m.matches(Some("file")));
        assert!(!m.matches(Some("write_file")));
        assert!(!m.matches(Some("terminal2")));
    }

    #[test]
    fn plain_names_compare_as_text_like_the_regex_would() {
        for (pattern, text) in [
            ("terminal", "terminal"),
            ("terminal", "terminal2"),
            ("terminal", "Terminal"),
            ("write_file", "write_file"),
            ("", ""),
            ("", "x"),
            ("café", "café"),
            ("web-search", "web-search"),
            ("web-search", "websearch"),
        ] {
            let (m, warning) = Matcher::compile(pattern);
            assert!(warning.is_none() && !m.is_literal(), "{pattern}");
            let regex = |mode| {
                let translated = super::python::translate(pattern, mode, super::python::Text::Any);
                fancy_regex::Regex::new(&translated.unwrap().pattern).unwrap()
            };
            let full = regex(super::python::Mode::Full);
            assert_eq!(
                m.matches(Some(text)),
                full.is_match(text).unwrap(),
                "{pattern} ~ {text}"
            );
            let (s, _) = Matcher::compile_search(pattern);
            let anywhere = regex(super::python::Mode::Search);
            assert_eq!(
                s.matches(Some(text)),
                anywhere.is_match(text).unwrap(),
                "{pattern} in {text}"
            );
        }
    }

    #[test]
    fn invalid_regex_is_literal() {
        let (m, warning) = Matcher::compile("foo[bar");
        assert!(m.is_literal());
        assert!(warning.is_some_and(|w| !w.contains('\n')));
        assert!(m.matches(Some("foo[bar")));
        assert!(!m.matches(Some("foob")));
    }

    #[test]
    fn unicode_property_classes_are_literal_as_in_python() {
        // Python's `re` has no `\p{..}`: Hermes falls back to literal equality for these.
        let (m, warning) = Matcher::compile(r"\p{Greek}+");
        assert_eq!(warning.as_deref(), Some(r"bad escape \p at position 0"));
        assert!(m.is_literal());
        assert!(!m.matches(Some("αβγ")));
        assert!(m.matches(Some(r"\p{Greek}+")));
        let (n, _) = Matcher::compile(r"x\PL");
        assert!(n.is_literal());
        // An escaped backslash followed by `p` is no property class.
        let (e, warning) = Matcher::compile(r"a\\p");
        assert!(!e.is_literal() && warning.is_none());
        assert!(e.matches(Some(r"a\p")));
        // Unicode `\w` and case folding stay, as in Python 3.
        let (w, _) = Matcher::compile(r"(?i)\w+_É");
        assert!(w.matches(Some("ÿß_é")));
    }

    #[test]
    fn classes_are_pythons_on_any_text() {
        // Python 3.11's `re.fullmatch` on each: its `\w` is `str.isalnum()` and `_` (`²` is,
        // a combining accent is not), its `\s` takes U+001C..U+001F.
        agree_with_python(&[
            (r"\w", "²", true),
            (r"\w", "½", true),
            (r"\w", "\u{301}", false),
            (r"\w", "\u{203f}", false),
            (r"\w", "\u{200d}", false),
            (r"\w", "Ⓐ", false),
            (r"\w", "\u{e0100}", false),
            (r"\w", "_", true),
            (r"e\w", "e\u{301}", false),
            (r"\W", "\u{301}", true),
            (r"(?i)\w", "\u{345}", false),
            (r"[\w]", "²", true),
            (r"[^\w]", "\u{301}", true),
            (r"(?a)\w", "²", false),
            (r"\s", "\u{1c}", true),
            (r"\S", "\u{1c}", false),
            (r"[\s]", "\u{1f}", true),
            (r"x\s", "x\u{1d}", true),
            (r"\d", "٣", true),
            (r"\w+", "mcp_github", true),
            (r"mcp_\w+", "mcp_café²", true),
            (r"mcp_\w+", "mcp_git hub", false),
        ]);
        // An ASCII name and then another: each gets its own regex, the same matcher.
        let (m, _) = Matcher::compile(r"\w+");
        assert!(m.matches(Some("terminal")));
        assert!(m.matches(Some("x²")));
        assert!(!m.matches(Some("e\u{301}")));
        assert!(m.matches(Some("terminal")));
    }

    /// Each `(pattern, name, what Python's re.fullmatch says)`: the pattern compiles, and its
    /// full match says the same.
    fn agree_with_python(cases: &[(&str, &str, bool)]) {
        for &(pattern, name, python) in cases {
            let (m, why) = Matcher::compile(pattern);
            assert!(why.is_none(), "{pattern}: {why:?}");
            assert_eq!(m.matches(Some(name)), python, "{pattern} on {name:?}");
        }
    }

    #[test]
    fn a_pattern_too_large_for_other_text_says_so() {
        let (m, why) = Matcher::compile(r"\w{300}");
        assert!(why.is_none());
        assert!(!m.matches(Some("abc")), "ASCII text is matched exactly");
        assert!(!m.fits_any_text());
        assert!(m.matches(Some("é")), "counts as matching");
        for pattern in [r"\w+", "terminal", "a(b", r"x\d"] {
            assert!(Matcher::compile(pattern).0.fits_any_text(), "{pattern}");
        }
        // Python's `\w` is written out on such text, so a pattern may read it 16 times; past
        // that (a hostile HOOK.md could hold thousands) it is not built at all.
        let sixteen = r"\w".repeat(16);
        let (m, _) = Matcher::compile(&sixteen);
        assert!(m.fits_any_text() && m.matches(Some(&"é".repeat(16))));
        let many = r"[\W.]".repeat(5000);
        let (m, _) = Matcher::compile_search(&many);
        assert!(!m.fits_any_text());
        assert!(
            !m.matches(Some(&".".repeat(4999))),
            "ASCII text is matched exactly"
        );
        assert!(m.matches(Some("é")), "counts as matching");
    }

    #[test]
    fn case_insensitive_i_is_pythons_four_letters() {
        // Python 3.11's `re.fullmatch` on each: `I i İ ı` are one letter under `(?i)`, not
        // under `(?a)` or without the flag; a class with one of them has them all.
        agree_with_python(&[
            ("(?i)i", "İ", true),
            ("(?i)i", "ı", true),
            ("(?i)I", "ı", true),
            ("(?i)ı", "I", true),
            ("(?i)İ", "i", true),
            ("(?i)ı", "İ", true),
            ("(?i)[a-z]", "İ", true),
            ("(?i)[h-j]+", "hİıJ", true),
            ("(?i)[İ]", "i", true),
            ("(?i)[^i]", "ı", false),
            ("(?i)[^a-z]", "İ", false),
            ("(?ia)i", "İ", false),
            ("(?ia)i", "I", true),
            ("i", "İ", false),
            ("(?i)(?-i:i)", "İ", false),
            ("(?i)(?<=i)x", "ıx", false), // a full match starts at the start
            ("(?i).(?<=i)x", "ıx", true),
            // A back reference compares lower cases in Python, so `ı` is not `i` there (and
            // `İ` is, which `fancy-regex` does not do: a gap docs/hermes-yaml.md names).
            ("(?i)(i)\\1", "iı", false),
        ]);
    }

    #[test]
    fn ascii_case_insensitive_folds_ascii_letters_only() {
        // Python 3.11's `re.fullmatch` on each: with the `a` flag, `(?i)` pairs ASCII letters and
        // nothing else (not the Kelvin sign with `k`, not `É` with `é`).
        agree_with_python(&[
            ("(?ai)k", "\u{212a}", false),
            ("(?ai)k", "K", true),
            ("(?ai)é", "É", false),
            ("(?ai)[a-z]", "\u{212a}", false),
            ("(?ai)[^k]", "\u{212a}", true),
            ("(?ai)[^k]", "K", false),
            ("(?ai)[Z-a]", "A", true),
            ("(?ai)[à-ÿ]", "À", false),
            ("(?ai)s", "ſ", false),
            ("(?ai)[ā]", "Ā", false),
            ("(?ai)[\\w]", "\u{212a}", false),
            ("(?ai)(a)\\1", "aA", true),
            ("(?ai)(?u:k)", "\u{212a}", true),
            ("(?ai)(?-i:k)", "K", false),
            ("(?a)(?i:k)", "K", true),
            ("(?i)(?a:k)", "\u{212a}", false),
            ("(?i)(?a:k)", "K", true),
        ]);
    }

    #[test]
    fn pattern_searches_every_scalar_value() {
        let (m, _) = Matcher::compile_search(r"\.py$");
        let input = |v: serde_json::Value| v.as_object().unwrap().clone();
        assert!(m.matches_any_value(&input(serde_json::json!({"path": "x.py"}))));
        assert!(m.matches_any_value(&input(
            serde_json::json!({"edits": [{"file": {"name": "a.py"}}]})
        )));
        assert!(!m.matches_any_value(&input(serde_json::json!({"x.py": "key only", "n": null}))));
        let (rm, _) = Matcher::compile_search("rm -rf");
        assert!(rm.matches_any_value(&input(serde_json::json!({"command": "sudo rm -rf /"}))));
        let (num, _) = Matcher::compile_search("^42$");
        assert!(num.matches_any_value(&input(serde_json::json!({"n": 42}))));
        let (bad, warning) = Matcher::compile_search("a(b");
        assert!(warning.is_some());
        assert!(bad.matches_any_value(&input(serde_json::json!({"s": "xa(by"}))));
    }

    #[test]
    fn no_tool_never_matches() {
        let (m, _) = Matcher::compile(".*");
        assert!(!m.matches(None));
        assert!(m.matches(Some("")));
    }

    #[test]
    fn anchors_cannot_be_escaped_by_the_pattern() {
        let (m, _) = Matcher::compile("a$|b");
        assert!(m.matches(Some("a")));
        assert!(!m.matches(Some("ab")));
    }
}
