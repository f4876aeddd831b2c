//! Plain text for people: wrapping between words, by display width (the engine's generated files
//! and the command line's output both use it).

use unicode_width::UnicodeWidthStr as _;

/// `text` in lines of at most `width` columns, broken only between words. A word wider than the
/// width gets lines of its own: broken after a `/` where it has one (a path is never split
/// inside a name), else whole. `None`: one line.
pub(crate) fn wrap_words(text: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return vec![text.to_owned()];
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if word.width() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.extend(after_slashes(word, width).into_iter().map(str::to_owned));
            continue;
        }
        if !line.is_empty() && line.width() + 1 + word.width() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `word` in pieces of at most `width` columns each, broken only after a `/`; a piece that
/// cannot be broken so stays whole (wider than `width`).
pub(crate) fn after_slashes(word: &str, width: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    while word[start..].width() > width {
        let rest = &word[start..];
        // The last `/` whose piece fits, else the first one at all.
        let cut = rest
            .match_indices('/')
            .map(|(at, _)| at + 1)
            .take_while(|end| rest[..*end].width() <= width)
            .last()
            .or_else(|| rest.find('/').map(|at| at + 1))
            .filter(|end| *end < rest.len());
        let Some(end) = cut else { break };
        pieces.push(&rest[..end]);
        start += end;
    }
    pieces.push(&word[start..]);
    pieces
}

#[cfg(test)]
mod tests {
    use super::{after_slashes, wrap_words};

    #[test]
    fn a_path_wider_than_the_line_breaks_after_a_slash_only() {
        assert_eq!(
            wrap_words("a /very/long/path here", Some(6)),
            ["a", "/very/", "long/", "path", "here"]
        );
        assert_eq!(after_slashes("/a/b/c", 10), ["/a/b/c"]);
        assert_eq!(after_slashes("nameswithoutslash", 4), ["nameswithoutslash"]);
        assert_eq!(
            after_slashes("/averylongname/x", 4),
            ["/", "averylongname/", "x"]
        );
        assert_eq!(wrap_words("one two", None), ["one two"]);
    }
}
