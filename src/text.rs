//! Plain text for people: wrapping between words, by display width (the engine's generated files
//! and the command line's output both use it).

use unicode_width::UnicodeWidthStr as _;

/// `text` in lines of at most `width` columns, broken only between words (a word longer than
/// the width gets a line of its own, whole). `None`: one line.
pub(crate) fn wrap_words(text: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return vec![text.to_owned()];
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.width() + 1 + word.width() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}
