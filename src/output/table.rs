//! Tables for people: plain columns (easy to read, to `grep` and to `awk`), colour only when asked.

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};

/// An empty table with `header`; styled when `color`, wrapped to the terminal width when stdout
/// is one.
pub fn new(header: &[&str], color: bool) -> Table {
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
    table
}

/// What a value means, for colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// All is well.
    Good,
    /// Worth a look.
    Notice,
    /// Something is wrong.
    Bad,
    /// No colour.
    Plain,
}

/// A cell in the colour of `tone` (when the table is styled at all).
pub fn cell(text: &str, tone: Tone) -> Cell {
    let cell = Cell::new(super::sanitize::line(text));
    match tone {
        Tone::Good => cell.fg(Color::Green),
        Tone::Notice => cell.fg(Color::Yellow),
        Tone::Bad => cell.fg(Color::Red),
        Tone::Plain => cell,
    }
}

/// The table as text: columns two spaces apart, trailing spaces trimmed, a final newline.
pub fn render(table: &mut Table) -> String {
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    let mut text = table.trim_fmt();
    text.push('\n');
    text
}

/// `text` in the colour of `tone` (ANSI), or as it is when `color` is off.
pub fn paint(text: &str, tone: Tone, color: bool) -> String {
    let code = match tone {
        Tone::Good => "32",
        Tone::Notice => "33",
        Tone::Bad => "31",
        Tone::Plain => return text.to_owned(),
    };
    if color {
        format!("\u{1b}[{code}m{text}\u{1b}[0m")
    } else {
        text.to_owned()
    }
}
