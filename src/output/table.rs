//! Tables for people: plain columns (easy to read, to `grep` and to `awk`), colour only when asked.
//! A [`Grid`] takes cells only as text it sanitises itself. On a terminal a table fits its width
//! without ever splitting a word (a path a user pastes into `approve` stays whole): columns wrap
//! only between words, and when even that does not fit, each row is shown as a record, one
//! `key: value` line per column.

use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets};
use unicode_width::UnicodeWidthStr as _;

/// Spaces between columns.
const GAP: usize = 2;
/// The narrowest a breakable column is made.
const BREAKABLE_MIN: usize = 10;

/// What a value means, for colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tone {
    /// All is well.
    Good,
    /// Worth a look.
    Notice,
    /// Something is wrong.
    Bad,
    /// No colour.
    Plain,
}

impl Tone {
    /// The ANSI colour code, if any.
    pub(super) const fn ansi(self) -> Option<&'static str> {
        match self {
            Self::Good => Some("32"),
            Self::Notice => Some("33"),
            Self::Bad => Some("31"),
            Self::Plain => None,
        }
    }

    const fn color(self) -> Option<Color> {
        match self {
            Self::Good => Some(Color::Green),
            Self::Notice => Some(Color::Yellow),
            Self::Bad => Some(Color::Red),
            Self::Plain => None,
        }
    }
}

/// A table whose cells are sanitised as they are added.
pub(crate) struct Grid {
    header: Vec<String>,
    /// Columns whose words may be split when nothing else fits (patterns, prose); the others
    /// (names, paths, commands) are never split.
    breakable: Vec<usize>,
    rows: Vec<Vec<(String, Tone)>>,
    color: bool,
    width: Option<usize>,
}

impl Grid {
    /// An empty table with `header`; styled when `color`, fitted to the width of the terminal
    /// stdout is, if it is one.
    pub(crate) fn new(header: &[&str], color: bool) -> Self {
        Self {
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            breakable: Vec::new(),
            rows: Vec::new(),
            color,
            width: terminal_width(),
        }
    }

    /// The same table fitted to `width` columns (`None`: not a terminal, never wrapped).
    #[cfg(test)]
    fn with_width(mut self, width: Option<usize>) -> Self {
        self.width = width;
        self
    }

    /// Lets the words of `columns` be split when the table does not fit otherwise (for text no
    /// one pastes, such as a matcher's pattern).
    pub(crate) fn breakable(mut self, columns: &[usize]) -> Self {
        self.breakable = columns.to_vec();
        self
    }

    /// Adds a row of cells, each in the colour of its tone (when the table is styled at all).
    pub(crate) fn row(&mut self, cells: &[(&str, Tone)]) {
        self.rows.push(
            cells
                .iter()
                .map(|(text, tone)| (super::sanitize::line(text).into_owned(), *tone))
                .collect(),
        );
    }

    /// The table as text: columns two spaces apart, trailing spaces trimmed, a final newline.
    pub(super) fn render(self) -> String {
        let Some(width) = self.width else {
            return self.table(None);
        };
        if self.natural_width() <= width {
            return self.table(None);
        }
        if self.narrowest_width(width) <= width {
            return self.table(Some(width));
        }
        self.records()
    }

    /// Each column's widths: the widest cell, and its widest word (the narrowest it can wrap to
    /// without splitting a word).
    fn column_widths(&self) -> Vec<(usize, usize)> {
        (0..self.header.len())
            .map(|column| {
                let cells = std::iter::once(self.header[column].as_str()).chain(
                    self.rows
                        .iter()
                        .filter_map(|row| row.get(column).map(|(text, _)| text.as_str())),
                );
                cells.fold((0, 0), |(whole, word), text| {
                    let longest = text.split(' ').map(str::width).max().unwrap_or(0);
                    (whole.max(text.width()), word.max(longest))
                })
            })
            .collect()
    }

    /// The narrowest each column can be: its widest word, or when that does not fit `width`,
    /// at most [`BREAKABLE_MIN`] for a breakable column.
    fn least_widths(&self, width: usize) -> Vec<usize> {
        let words: Vec<usize> = self.column_widths().iter().map(|(_, word)| *word).collect();
        if Self::sum(&words) <= width {
            return words;
        }
        words
            .iter()
            .enumerate()
            .map(|(column, word)| {
                if self.breakable.contains(&column) {
                    (*word).min(BREAKABLE_MIN)
                } else {
                    *word
                }
            })
            .collect()
    }

    /// The width of a table with these column widths.
    fn sum(widths: &[usize]) -> usize {
        widths
            .iter()
            .map(|w| w + GAP)
            .sum::<usize>()
            .saturating_sub(GAP)
    }

    fn natural_width(&self) -> usize {
        let whole: Vec<usize> = self
            .column_widths()
            .iter()
            .map(|(whole, _)| *whole)
            .collect();
        Self::sum(&whole)
    }

    fn narrowest_width(&self, width: usize) -> usize {
        Self::sum(&self.least_widths(width))
    }

    /// Column widths that fit `width`: each column starts at its widest cell, and the widest
    /// column that is still above its narrowest is narrowed, one character at a time, until the
    /// table fits (the caller made sure it can).
    fn fitted(&self, width: usize) -> Vec<usize> {
        let least = self.least_widths(width);
        let mut widths: Vec<usize> = self
            .column_widths()
            .iter()
            .map(|(whole, _)| *whole)
            .collect();
        let mut total = Self::sum(&widths);
        while total > width {
            let Some((column, _)) = widths
                .iter()
                .zip(&least)
                .enumerate()
                .filter(|(_, (now, least))| now > least)
                .max_by_key(|(_, (now, _))| **now)
            else {
                break;
            };
            widths[column] -= 1;
            total -= 1;
        }
        widths
    }

    /// Columns; wrapped between words to `width` when given.
    fn table(self, width: Option<usize>) -> String {
        let mut table = Table::new();
        table
            .load_style(presets::NOTHING)
            .set_header(self.header.clone());
        if self.color {
            table.enforce_styling();
        } else {
            table.force_no_tty();
        }
        match width {
            Some(width) => {
                table.set_content_arrangement(ContentArrangement::Dynamic);
                let widths = self.fitted(width);
                let last = widths.len().saturating_sub(1);
                for (index, (fitted, column)) in
                    widths.into_iter().zip(table.column_iter_mut()).enumerate()
                {
                    let gap = if index == last { 0 } else { GAP };
                    let fitted = u16::try_from(fitted + gap).unwrap_or(u16::MAX);
                    column.set_constraint(ColumnConstraint::Absolute(Width::Fixed(fitted)));
                }
            }
            None => {
                table.set_content_arrangement(ContentArrangement::Disabled);
            }
        }
        for row in self.rows {
            table.add_row(row.into_iter().map(|(text, tone)| {
                let cell = Cell::new(text);
                match tone.color() {
                    Some(color) => cell.fg(color),
                    None => cell,
                }
            }));
        }
        // Two spaces after each column but the last, whose padding (inside its colour, when
        // styled) would run past the width.
        let columns = self.header.len();
        for (index, column) in table.column_iter_mut().enumerate() {
            let gap = if index + 1 == columns { 0 } else { GAP };
            column.set_padding((0, u16::try_from(gap).unwrap_or(0)));
        }
        let mut text = table.trim_fmt();
        text.push('\n');
        text
    }

    /// One record per row, one `key: value` line per column, a blank line between records.
    fn records(self) -> String {
        use std::fmt::Write as _;
        let keys: Vec<String> = self.header.iter().map(|h| h.to_lowercase()).collect();
        let key_width = keys.iter().map(|k| k.width()).max().unwrap_or(0) + 1;
        let mut out = String::new();
        for (index, row) in self.rows.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            for (key, (text, tone)) in keys.iter().zip(row) {
                let label = format!("{key}:");
                let _ = write!(out, "{label:<key_width$} ");
                match (self.color, tone.ansi()) {
                    (true, Some(code)) => {
                        let _ = write!(out, "\u{1b}[{code}m{text}\u{1b}[0m");
                    }
                    _ => out.push_str(text),
                }
                out.push('\n');
            }
        }
        out
    }
}

/// The width of the terminal stdout is; `None` when it is not one or reports no size.
pub(crate) fn terminal_width() -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(test)]
mod tests {
    use super::{Grid, Tone};

    fn grid(width: Option<usize>) -> Grid {
        let mut grid = Grid::new(&["EVENT", "HOOK", "NOTE"], false).with_width(width);
        grid.row(&[
            ("pre_tool_call", Tone::Plain),
            (
                "/home/someone/projects/app/.agents/hooks/guard/scripts/run",
                Tone::Plain,
            ),
            ("a few words that may wrap between them", Tone::Plain),
        ]);
        grid
    }

    #[test]
    fn words_wrap_whole() {
        assert_eq!(
            crate::text::wrap_words("a /very/long/path here", Some(6)),
            ["a", "/very/long/path", "here"]
        );
        assert_eq!(crate::text::wrap_words("one two", None), ["one two"]);
    }

    #[test]
    fn fits_whole_wraps_between_words_or_becomes_records() {
        let whole = grid(None).render();
        assert_eq!(whole.lines().count(), 2, "{whole}");
        assert_eq!(grid(Some(200)).render(), whole);

        let wrapped = grid(Some(90)).render();
        assert!(wrapped.lines().count() > 2, "{wrapped}");
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 90),
            "{wrapped}"
        );
        assert!(wrapped.contains("/home/someone/projects/app/.agents/hooks/guard/scripts/run"));
        for word in ["few", "words", "between", "them"] {
            assert!(wrapped.split_whitespace().any(|w| w == word), "{wrapped}");
        }

        let records = grid(Some(40)).render();
        assert_eq!(
            records,
            "event: pre_tool_call\n\
             hook:  /home/someone/projects/app/.agents/hooks/guard/scripts/run\n\
             note:  a few words that may wrap between them\n"
        );
    }
}
