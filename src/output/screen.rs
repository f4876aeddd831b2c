//! Human output, built only through [`Screen`]: every piece of text added to it is sanitised on
//! the way in (see [`crate::ground::sanitize`]), and colour is added only by [`Screen::paint`] and by
//! tables, so nothing a file or a hook supplies reaches a terminal raw.

use std::fmt::{Display, Write as _};

use unicode_width::UnicodeWidthStr as _;

use super::table::{Grid, Tone};
use crate::ground::sanitize;
use crate::ground::text::wrap_words;

/// Text for people, ready to print on stdout or stderr.
#[derive(Debug, Default)]
pub(crate) struct Screen {
    text: String,
    color: bool,
}

impl Screen {
    /// An empty screen; `color` allows [`Self::paint`] to colour.
    pub(crate) fn new(color: bool) -> Self {
        Self {
            text: String::new(),
            color,
        }
    }

    /// Adds `text` (sanitised: a newline in it is shown as `\n`, not obeyed).
    pub(crate) fn text(&mut self, text: impl Display) -> &mut Self {
        let raw = text.to_string();
        self.text.push_str(&sanitize::line(&raw));
        self
    }

    /// Adds `text` (sanitised) in the colour of `tone`, when colour is on.
    pub(crate) fn paint(&mut self, text: impl Display, tone: Tone) -> &mut Self {
        let raw = text.to_string();
        let clean = sanitize::line(&raw);
        match (self.color, tone.ansi()) {
            (true, Some(code)) => {
                let _ = write!(self.text, "\u{1b}[{code}m{clean}\u{1b}[0m");
            }
            _ => self.text.push_str(&clean),
        }
        self
    }

    /// Ends the current line.
    pub(crate) fn end(&mut self) -> &mut Self {
        self.text.push('\n');
        self
    }

    /// Adds `text` (sanitised) as a whole line.
    pub(crate) fn line(&mut self, text: impl Display) -> &mut Self {
        self.text(text).end()
    }

    /// Adds an empty line.
    pub(crate) fn blank(&mut self) -> &mut Self {
        self.end()
    }

    /// Adds a unified diff, each line after `indent`, added lines in green and removed ones in
    /// red when colour is on; tabs are shown as spaces. At most `max` lines, then a line saying
    /// how many more there are. Returns how many lines were left out.
    pub(crate) fn diff(&mut self, diff: &str, indent: &str, max: usize) -> usize {
        let lines: Vec<&str> = diff.lines().collect();
        for line in lines.iter().take(max) {
            let tone = if line.starts_with("+++") || line.starts_with("---") {
                Tone::Plain
            } else if line.starts_with('+') {
                Tone::Good
            } else if line.starts_with('-') {
                Tone::Bad
            } else {
                Tone::Plain
            };
            self.text(indent)
                .paint(line.replace('\t', "    "), tone)
                .end();
        }
        lines.len().saturating_sub(max)
    }

    /// Adds `text` wrapped between words to `width` (`None`: one line), the spaces between words
    /// kept within a line: the current line has `taken` columns used already, and further lines
    /// start at `indent`. A word too wide for
    /// the room after the indent gets a line of its own from the first column, so the terminal
    /// does not split it.
    pub(crate) fn wrapped(
        &mut self,
        text: &str,
        width: Option<usize>,
        taken: usize,
        indent: &str,
    ) -> &mut Self {
        let room = width.map(|w| w.saturating_sub(taken.max(indent.len())));
        for (index, line) in wrap_spaced(&sanitize::line(text), room).iter().enumerate() {
            let too_wide = room.is_some_and(|room| line.width() > room);
            if too_wide && index == 0 && taken > 0 {
                self.end();
            } else if index > 0 && !too_wide {
                self.text(indent);
            }
            self.line(line);
        }
        self
    }

    /// Adds a table (its cells were sanitised when they were added).
    pub(crate) fn table(&mut self, grid: Grid) -> &mut Self {
        self.text.push_str(&grid.render());
        self
    }

    /// The finished text, to hand to something that shows it (a pager).
    pub(crate) fn into_text(self) -> String {
        self.text
    }

    /// The finished text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }
}

/// `text` as [`Screen::text`] shows it, in lines of at most `width` columns broken only between
/// words, each word measured as it is shown (an escape takes the room of what it spells).
pub(crate) fn wrap_shown(text: &str, width: Option<usize>) -> Vec<String> {
    wrap_words(&sanitize::line(text), width)
}

/// `text` in lines of at most `width` columns broken only between words, keeping the spaces
/// between the words of a line (a word longer than the width gets lines of its own, broken only
/// after a `/`, as [`wrap_words`] does).
fn wrap_spaced(text: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return vec![text.to_owned()];
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut spaces = 0;
    for (index, word) in text.split(' ').enumerate() {
        if index > 0 {
            spaces += 1;
        }
        if word.is_empty() {
            continue;
        }
        let gap = std::mem::take(&mut spaces);
        if word.width() > width && word.contains('/') {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let mut pieces = crate::ground::text::after_slashes(word, width);
            let last = pieces.pop().unwrap_or_default();
            lines.extend(pieces.into_iter().map(str::to_owned));
            lines.push(last.to_owned());
            continue;
        }
        if !line.is_empty() && line.width() + gap + word.width() > width {
            lines.push(std::mem::take(&mut line));
        } else if !line.is_empty() || lines.is_empty() {
            line.push_str(&" ".repeat(gap));
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The columns `text` takes as [`Screen::text`] shows it.
pub(crate) fn shown_width(text: &str) -> usize {
    sanitize::line(text).width()
}

#[cfg(test)]
mod tests {
    use super::{Screen, shown_width, wrap_shown};
    use crate::output::table::Tone;

    #[test]
    fn everything_added_is_sanitised_and_only_paint_colours() {
        let mut screen = Screen::new(true);
        screen
            .text("name \u{1b}[8mhidden")
            .paint("ok", Tone::Good)
            .end()
            .line("two\nlines");
        assert_eq!(
            screen.as_str(),
            "name \\e[8mhidden\u{1b}[32mok\u{1b}[0m\ntwo\\nlines\n"
        );
        let mut plain = Screen::new(false);
        plain.paint("\u{7}bell", Tone::Bad);
        assert_eq!(plain.as_str(), "\\x07bell");
    }

    #[test]
    fn wrapping_measures_text_as_it_is_shown() {
        // Four zero-width spaces take no room raw, and 32 columns shown.
        let name = "a\u{200b}\u{200b}\u{200b}\u{200b}";
        assert_eq!(shown_width(name), 33);
        let lines = wrap_shown(&format!("{name} {name} end"), Some(40));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines.iter().all(|l| shown_width(l) <= 40), "{lines:?}");
    }
}
