//! What a YAML reader's message means, in a sentence a person can act on. The reader's own words
//! (`PyYAML`'s, which Hermes shows too) stay first, with their position; this adds the likely
//! mistake and its fix.

/// The plain words for `message` (a reader's error at `at`, 1-based line and column), when its
/// mistake is a common one.
pub(crate) fn explained(message: &str, at: Option<(usize, usize)>) -> Option<String> {
    let line = at.map_or_else(|| "a line".to_owned(), |(line, _)| format!("line {line}"));
    let column = at.map_or_else(String::new, |(_, column)| format!(" at column {column}"));
    let found = |token: &str| message.contains(&format!("but found '{token}'"));
    if message.contains("expected <block end>") && found("<block mapping start>") {
        return Some(format!(
            "{line} starts{column}, where no mapping above it has its keys: indent it exactly \
             like the other keys of the entry it belongs to, with spaces"
        ));
    }
    if message.contains("expected <block end>") && (found("<block sequence start>") || found("-")) {
        return Some(format!(
            "the list item on {line} starts{column}, where no list above it has its items: \
             line it up with the other `- ` items of its list"
        ));
    }
    if message.contains("mapping values are not allowed here") {
        return Some(format!(
            "{line} has a `: ` inside a value: put the value in quotes, or give the line above \
             its own `key:`"
        ));
    }
    if message.contains("found character '\\t'") {
        return Some(format!(
            "{line} is indented with a tab: YAML indents with spaces only"
        ));
    }
    if message.contains("could not find expected ':'") {
        return Some(format!(
            "{line} has no `key:` where one was expected; a quote left open on a line above \
             reads on until it is closed"
        ));
    }
    if message.contains("while scanning a quoted scalar") {
        return Some("a quote is opened and never closed".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::explained;
    use crate::config::yaml::pyyaml;

    fn said(text: &str) -> Option<String> {
        let err = pyyaml::load(text).expect_err(text);
        explained(&err.message, err.at)
    }

    #[test]
    fn common_mistakes_are_said_plainly_with_their_line() {
        let cases = [
            (
                "hooks:\n  pre_tool_call:\n    - command: /bin/true\n   matcher: x\n",
                "line 4 starts at column 4, where no mapping above it has its keys",
            ),
            ("a:\n  - x\n - y\n", "the list item on line 3"),
            ("a: b: c\n", "line 1 has a `: ` inside a value"),
            ("a:\n\tb: 1\n", "indented with a tab"),
            ("a: 'open\n", "a quote is opened and never closed"),
        ];
        for (text, expected) in cases {
            let plain = said(text).unwrap_or_default();
            assert!(plain.contains(expected), "{text:?}: {plain:?}");
        }
        assert_eq!(
            said("a: [1, 2\n").map(|_| ()),
            None,
            "only mistakes it can name"
        );
    }
}
