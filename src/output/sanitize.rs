//! Text from config files and hooks, made safe for a terminal line: control characters (other
//! than tab) and bidirectional overrides are escaped, so a hostile string cannot rewrite the
//! screen or hide part of a message.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with control and bidi-override characters escaped as `\u{..}` (newlines as `\n`).
pub fn line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\t') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::line;

    #[test]
    fn escapes_what_could_rewrite_a_terminal() {
        assert_eq!(line("plain\ttext"), "plain\ttext");
        assert_eq!(line("a\nb\x1b[2Jc"), "a\\nb\\u{1b}[2Jc");
        assert_eq!(line("x\u{202e}y"), "x\\u{202e}y");
    }
}
