//! Tool matchers: a regex that must match the whole tool name, or, when the pattern is not a valid
//! regex, literal equality (as Hermes does).

use regex::Regex;

/// A compiled `matcher`.
#[derive(Clone, Debug)]
pub struct Matcher {
    source: String,
    regex: Option<Regex>,
    search: bool,
}

impl Matcher {
    /// Compiles `pattern` for a full match. An invalid regex becomes a literal matcher, and the
    /// second value says why.
    pub fn compile(pattern: &str) -> (Self, Option<String>) {
        match Regex::new(&format!(r"\A(?:{pattern})\z")) {
            Ok(regex) => (
                Self {
                    source: pattern.to_owned(),
                    regex: Some(regex),
                    search: false,
                },
                None,
            ),
            Err(err) => (
                Self {
                    source: pattern.to_owned(),
                    regex: None,
                    search: false,
                },
                Some(one_line(&err.to_string())),
            ),
        }
    }

    /// Compiles `pattern` to be searched anywhere in a text (Agent Hooks `matcher.pattern`). An
    /// invalid regex becomes a plain substring search, and the second value says why.
    pub fn compile_search(pattern: &str) -> (Self, Option<String>) {
        let (regex, invalid) = match Regex::new(pattern) {
            Ok(regex) => (Some(regex), None),
            Err(err) => (None, Some(one_line(&err.to_string()))),
        };
        (
            Self {
                source: pattern.to_owned(),
                regex,
                search: true,
            },
            invalid,
        )
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
        match (&self.regex, self.search) {
            (Some(regex), _) => regex.is_match(text),
            (None, true) => text.contains(&self.source),
            (None, false) => text == self.source,
        }
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern was not a valid regex and matches by literal equality.
    pub fn is_literal(&self) -> bool {
        self.regex.is_none()
    }

    /// Whether the tool name matches; a call without a tool name never matches.
    pub fn matches(&self, tool: Option<&str>) -> bool {
        tool.is_some_and(|tool| self.matches_text(tool))
    }
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
    fn invalid_regex_is_literal() {
        let (m, warning) = Matcher::compile("foo[bar");
        assert!(m.is_literal());
        assert!(warning.is_some_and(|w| !w.contains('\n')));
        assert!(m.matches(Some("foo[bar")));
        assert!(!m.matches(Some("foob")));
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
