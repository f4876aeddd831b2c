//! Tables for people: plain columns (easy to read, to `grep` and to `awk`), colour only when asked.
//! A [`Grid`] takes cells only as text it sanitises itself.

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};

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
    table: Table,
}

impl Grid {
    /// An empty table with `header`; styled when `color`, wrapped to the terminal width when
    /// stdout is one.
    pub(crate) fn new(header: &[&str], color: bool) -> Self {
        let mut table = Table::new();
        table
            .load_style(presets::NOTHING)
            .set_header(header.to_vec());
        if color {
            table.enforce_styling();
        } else {
            table.force_no_tty();
        }
        let arrangement = if table.is_tty() {
            ContentArrangement::Dynamic
        } else {
            ContentArrangement::Disabled
        };
        table.set_content_arrangement(arrangement);
        Self { table }
    }

    /// Adds a row of cells, each in the colour of its tone (when the table is styled at all).
    pub(crate) fn row(&mut self, cells: &[(&str, Tone)]) {
        self.table.add_row(cells.iter().map(|(text, tone)| {
            let cell = Cell::new(super::sanitize::line(text));
            match tone.color() {
                Some(color) => cell.fg(color),
                None => cell,
            }
        }));
    }

    /// The table as text: columns two spaces apart, trailing spaces trimmed, a final newline.
    pub(super) fn render(mut self) -> String {
        for column in self.table.column_iter_mut() {
            column.set_padding((0, 2));
        }
        let mut text = self.table.trim_fmt();
        text.push('\n');
        text
    }
}
