//! Tool matchers: a regex that must match the whole tool name, or, when the pattern is not a valid
//! regex, literal equality (as Hermes does).

use regex::Regex;

/// A compiled `matcher`.
#[derive(Clone, Debug)]
pub struct Matcher {
    source: String,
    regex: Option<Regex>,
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
                },
                None,
            ),
            Err(err) => (
                Self {
                    source: pattern.to_owned(),
                    regex: None,
                },
                Some(one_line(&err.to_string())),
            ),
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
        let Some(tool) = tool else { return false };
        match &self.regex {
            Some(regex) => regex.is_match(tool),
            None => tool == self.source,
        }
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
