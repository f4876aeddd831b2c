//! Text from files, hooks and payloads, made safe for a terminal: control characters and the
//! characters that reorder or split lines are shown as escapes (`\e`, `\x07`, `\u{202e}`), so a
//! hostile name cannot rewrite the screen, conceal a word or fake a line. Everything this tool
//! prints for people goes through here; JSON output escapes the same characters as `\uXXXX`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every terminal-active character escaped (tab too: a name made of tabs would
/// pass for blanks, and a tab breaks table columns).
pub(crate) fn line(text: &str) -> Cow<'_, str> {
    escape(text)
}

/// [`line`] for text that may span lines: newlines are kept, everything else is escaped.
pub(crate) fn lines(text: &str) -> String {
    text.split('\n').map(line).collect::<Vec<_>>().join("\n")
}

fn escape(text: &str) -> Cow<'_, str> {
    let unsafe_char = is_terminal_active;
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{1b}' => out.push_str("\\e"),
            c if u32::from(c) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

/// Whether a terminal would act on `c` instead of showing it: C0 and C1 control characters,
/// DEL, the bidirectional controls, and the Unicode line and paragraph separators.
pub(crate) fn is_terminal_active(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::{line, lines};

    #[test]
    fn escapes_what_could_rewrite_a_terminal() {
        assert_eq!(line("plain text"), "plain text");
        assert_eq!(line("a\tb"), "a\\tb");
        assert_eq!(line("a\nb\x1b[8mc\x07"), "a\\nb\\e[8mc\\x07");
        assert_eq!(line("del\x7f c1\u{9b}"), "del\\x7f c1\\u{9b}");
        assert_eq!(line("x\u{202e}y\u{2028}"), "x\\u{202e}y\\u{2028}");
        assert_eq!(lines("one\x1b\ntwo"), "one\\e\ntwo");
    }
}
