//! Human output, built only through [`Screen`]: every piece of text added to it is sanitised on
//! the way in (see [`super::sanitize`]), and colour is added only by [`Screen::paint`] and by
//! tables, so nothing a file or a hook supplies reaches a terminal raw.

use std::fmt::{Display, Write as _};

use super::sanitize;
use super::table::{Grid, Tone};

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
    pub(super) fn as_str(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::Screen;
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
}
