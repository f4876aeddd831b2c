//! Text from files, hooks and payloads, made safe for a terminal: control characters, the
//! characters that reorder or split lines, and the ones that print as nothing are shown as
//! escapes (`\e`, `\x07`, `\u{202e}`, `\u{200b}`), so a hostile name cannot rewrite the screen,
//! conceal a word, fake a line or pass for another name. Everything this tool prints for people
//! goes through here; JSON output escapes the same characters as `\uXXXX`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every terminal-active character escaped (tab too: a name made of tabs would
/// pass for blanks, and a tab breaks table columns).
pub(crate) fn line(text: &str) -> Cow<'_, str> {
    escape(text)
}

/// [`line()`] for text that may span lines: newlines are kept, everything else is escaped.
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

/// Whether a terminal would act on `c` instead of showing it (C0 and C1 control characters,
/// DEL, the bidirectional controls, and the Unicode line and paragraph separators), or show it
/// as nothing at all ([`is_invisible`]).
pub(crate) fn is_terminal_active(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        )
        || is_invisible(c)
}

/// Whether `c` prints as nothing, so that a name holding it looks like the name without it
/// (`gu\u{200b}ard` like `guard`): every Unicode default-ignorable code point (the bidirectional
/// marks among them are controls, above) and the other invisible format characters. Exactly:
/// - U+00AD soft hyphen, U+034F combining grapheme joiner, U+061C Arabic letter mark;
/// - U+115F, U+1160, U+3164, U+FFA0, the Hangul fillers;
/// - U+17B4 and U+17B5, the Khmer inherent vowels;
/// - U+180B-U+180F, the Mongolian free variation selectors and vowel separator;
/// - U+200B-U+200D, zero-width space, non-joiner and joiner;
/// - U+2060-U+206F: word joiner, invisible operators, the deprecated format characters;
/// - U+FE00-U+FE0F, the variation selectors; U+FEFF, the zero-width no-break space (BOM);
/// - U+FFF0-U+FFFB: unassigned, then the interlinear annotation characters;
/// - U+13430-U+1343F, the Egyptian hieroglyph format controls;
/// - U+1BCA0-U+1BCA3, the shorthand format controls;
/// - U+1D173-U+1D17A, the musical beam, tie, slur and phrase controls;
/// - U+E0000-U+E0FFF: the tag characters (U+E0001, U+E0020-U+E007F), the variation selectors
///   supplement (U+E0100-U+E01EF) and the unassigned rest of the block.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fffb}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

#[cfg(test)]
mod tests {
    use super::{is_invisible, line, lines};

    #[test]
    fn escapes_what_could_rewrite_a_terminal() {
        assert_eq!(line("plain text"), "plain text");
        assert_eq!(line("a\tb"), "a\\tb");
        assert_eq!(line("a\nb\x1b[8mc\x07"), "a\\nb\\e[8mc\\x07");
        assert_eq!(line("del\x7f c1\u{9b}"), "del\\x7f c1\\u{9b}");
        assert_eq!(line("x\u{202e}y\u{2028}"), "x\\u{202e}y\\u{2028}");
        assert_eq!(lines("one\x1b\ntwo"), "one\\e\ntwo");
    }

    #[test]
    fn a_character_that_prints_as_nothing_is_shown() {
        assert_eq!(line("gu\u{200b}ard"), "gu\\u{200b}ard");
        assert_eq!(line("a\u{feff}b\u{ad}c"), "a\\u{feff}b\\u{ad}c");
        assert_eq!(line("x\u{e0067}\u{fe0f}"), "x\\u{e0067}\\u{fe0f}");
        // Every default-ignorable code point (Unicode's DerivedCoreProperties.txt), bidi marks
        // included through the controls.
        let ignorable = [
            0xad_u32..=0xad,
            0x34f..=0x34f,
            0x61c..=0x61c,
            0x115f..=0x1160,
            0x17b4..=0x17b5,
            0x180b..=0x180f,
            0x200b..=0x200f,
            0x202a..=0x202e,
            0x2060..=0x206f,
            0x3164..=0x3164,
            0xfe00..=0xfe0f,
            0xfeff..=0xfeff,
            0xffa0..=0xffa0,
            0xfff0..=0xfff8,
            0x1bca0..=0x1bca3,
            0x1d173..=0x1d17a,
            0xe0000..=0xe0fff,
        ];
        for c in ignorable.into_iter().flatten().filter_map(char::from_u32) {
            let text = format!("a{c}b");
            let shown = line(&text);
            assert_eq!(
                shown,
                format!("a\\u{{{:x}}}b", u32::from(c)),
                "{:x}",
                u32::from(c)
            );
        }
        // Letters, marks that print, emoji and spaces are left alone.
        for text in ["guard", "ﬁle é 中文", "\u{301}", "⚠ ✓", "a\u{a0}b"] {
            assert_eq!(line(text), text);
            assert!(!text.chars().any(is_invisible), "{text}");
        }
    }
}
