//! Tool matchers: a regex that must match the whole tool name, or, when the pattern is not a valid
//! regex, literal equality (as Hermes does). A plain name is compared as text, without a regex.

use regex::Regex;

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
    /// No regex metacharacter: plain text comparison, exactly what the regex would do.
    Plain,
    Regex(Regex),
    /// Not a valid regex: literal comparison, as Hermes falls back.
    Invalid,
}

impl Matcher {
    /// Compiles `pattern` for a full match. An invalid regex becomes a literal matcher, and the
    /// second value says why.
    pub fn compile(pattern: &str) -> (Self, Option<String>) {
        Self::build(pattern, false)
    }

    /// Compiles `pattern` to be searched anywhere in a text (Agent Hooks `matcher.pattern`). An
    /// invalid regex becomes a plain substring search, and the second value says why.
    pub fn compile_search(pattern: &str) -> (Self, Option<String>) {
        Self::build(pattern, true)
    }

    fn build(pattern: &str, search: bool) -> (Self, Option<String>) {
        let (how, invalid) = if regex::escape(pattern) == pattern {
            (How::Plain, None)
        } else if has_property_class(pattern) {
            let why = r"Unicode property classes (\p, \P) are not supported".to_owned();
            (How::Invalid, Some(why))
        } else {
            let compiled = if search {
                Regex::new(pattern)
            } else {
                Regex::new(&format!(r"\A(?:{pattern})\z"))
            };
            match compiled {
                Ok(regex) => (How::Regex(regex), None),
                Err(err) => (How::Invalid, Some(one_line(&err.to_string()))),
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

    fn matches_text(&self, text: &str) -> bool {
        match (&self.how, self.search) {
            (How::Regex(regex), _) => regex.is_match(text),
            (How::Plain | How::Invalid, true) => text.contains(&self.source),
            (How::Plain | How::Invalid, false) => text == self.source,
        }
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern was not a valid regex and matches by literal equality.
    pub fn is_literal(&self) -> bool {
        matches!(self.how, How::Invalid)
    }

    /// Whether the tool name matches; a call without a tool name never matches.
    pub fn matches(&self, tool: Option<&str>) -> bool {
        tool.is_some_and(|tool| self.matches_text(tool))
    }
}

/// Whether `pattern` uses `\p{..}` or `\P{..}`. Python's `re` has no such classes (Hermes takes
/// the pattern literally), and leaving them out keeps Unicode's property tables out of the binary.
fn has_property_class(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.next(), Some('p' | 'P')) {
            return true;
        }
    }
    false
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
    use super::Matcher;

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
            let full = regex::Regex::new(&format!(r"\A(?:{pattern})\z")).unwrap();
            assert_eq!(
                m.matches(Some(text)),
                full.is_match(text),
                "{pattern} ~ {text}"
            );
            let (s, _) = Matcher::compile_search(pattern);
            let anywhere = regex::Regex::new(pattern).unwrap();
            assert_eq!(
                s.matches(Some(text)),
                anywhere.is_match(text),
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
        assert!(m.is_literal() && warning.is_some_and(|w| w.contains("property")));
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
