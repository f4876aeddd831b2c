//! Tables for people: plain columns (easy to read, to `grep` and to `awk`), colour only when asked.
//! A [`Grid`] takes cells only as text it sanitises itself. On a terminal a table fits its width
//! without ever splitting a word (a path a user pastes into `approve` stays whole): columns wrap
//! only between words, and when even that does not fit, the table first says once what every row
//! has in common and uses the short forms of its cells (when it has any); only then is each row
//! shown as a record, one `key: value` line per column.

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
#[derive(Clone)]
pub(crate) struct Grid {
    header: Vec<String>,
    /// Columns whose words may be split when nothing else fits (patterns, prose); the others
    /// (names, paths, commands) are never split.
    breakable: Vec<usize>,
    /// Columns of alternations (`terminal|execute_code`), wrapped after a `|` but never inside
    /// an alternative.
    alternations: Vec<usize>,
    rows: Vec<Vec<(String, Tone)>>,
    /// Each row's short forms of its cells, for a table that does not fit otherwise.
    short: Vec<Vec<Option<String>>>,
    /// What the short forms mean, said under a table that uses them.
    legend: Option<String>,
    /// Columns left out of a table that does not fit when every row has the same value there,
    /// and what the line that says those values once starts with (`Every hook`).
    said_once: Option<(Vec<usize>, String)>,
    /// Lines under the table (what was said once, the legend).
    notes: Vec<String>,
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
            alternations: Vec::new(),
            rows: Vec::new(),
            short: Vec::new(),
            legend: None,
            said_once: None,
            notes: Vec::new(),
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

    /// Lets `columns`, which hold alternations (`write_file|patch`), wrap after a `|`.
    pub(crate) fn alternations(mut self, columns: &[usize]) -> Self {
        self.alternations = columns.to_vec();
        self
    }

    /// When the table does not fit, leaves out those of `columns` whose value is the same in
    /// every row, and says them once under it in a line that starts with `lead`.
    pub(crate) fn said_once(mut self, columns: &[usize], lead: &str) -> Self {
        self.said_once = Some((columns.to_vec(), lead.to_owned()));
        self
    }

    /// What the short forms of cells mean, said under a table that uses them.
    pub(crate) fn legend(mut self, legend: &str) -> Self {
        self.legend = Some(legend.to_owned());
        self
    }

    /// Adds a row of cells, each in the colour of its tone (when the table is styled at all).
    pub(crate) fn row(&mut self, cells: &[(&str, Tone)]) {
        self.rows.push(
            cells
                .iter()
                .map(|(text, tone)| (crate::ground::sanitize::line(text).into_owned(), *tone))
                .collect(),
        );
        self.short.push(vec![None; cells.len()]);
    }

    /// Gives the last row's cell in `column` a short form, used when the table does not fit
    /// otherwise (sanitised like the cell).
    pub(crate) fn short(&mut self, column: usize, text: &str) {
        if let Some(cell) = self.short.last_mut().and_then(|row| row.get_mut(column)) {
            *cell = Some(crate::ground::sanitize::line(text).into_owned());
        }
    }

    /// The table as text: columns two spaces apart, trailing spaces trimmed, a final newline.
    /// On a terminal it is the first of these that fits: the table whole; with what every row
    /// has in common said once under it; with short forms too; then each of those with its
    /// cells wrapped between words. Else records.
    pub(super) fn render(self) -> String {
        let Some(width) = self.width else {
            return self.table(None);
        };
        let layouts = self.layouts();
        if let Some(grid) = layouts.iter().find(|grid| grid.natural_width() <= width) {
            return grid.clone().table(None);
        }
        if let Some(grid) = layouts
            .iter()
            .find(|grid| grid.narrowest_width(width) <= width)
        {
            return grid.clone().table(Some(width));
        }
        self.records()
    }

    /// This table, then the narrower forms of it that are worth trying.
    fn layouts(&self) -> Vec<Self> {
        let mut layouts = vec![self.clone()];
        let same = self.same_in_every_row();
        if !same.is_empty() {
            let lead = self
                .said_once
                .as_ref()
                .map_or("", |(_, lead)| lead.as_str());
            let said: Vec<String> = same
                .iter()
                .map(|&column| {
                    let key = self.header[column].to_lowercase();
                    format!("{key} {}", self.rows[0][column].0)
                })
                .collect();
            let mut grid = self.without(&same);
            grid.notes.push(format!("{lead}: {}.", said.join(", ")));
            layouts.push(grid);
        }
        if self.short.iter().flatten().any(Option::is_some) {
            let mut grid = layouts.last().unwrap_or(self).clone();
            for (row, short) in grid.rows.iter_mut().zip(&grid.short) {
                for (cell, short) in row.iter_mut().zip(short) {
                    if let Some(short) = short {
                        cell.0.clone_from(short);
                    }
                }
            }
            grid.notes.extend(self.legend.clone());
            layouts.push(grid);
        }
        layouts
    }

    /// The columns that may be said once whose cells are all the same (in two rows or more).
    fn same_in_every_row(&self) -> Vec<usize> {
        let Some((columns, _)) = &self.said_once else {
            return Vec::new();
        };
        if self.rows.len() < 2 {
            return Vec::new();
        }
        columns
            .iter()
            .copied()
            .filter(|&column| {
                let first = self.rows[0].get(column).map(|(text, _)| text);
                self.rows
                    .iter()
                    .all(|row| row.get(column).map(|(text, _)| text) == first)
            })
            .collect()
    }

    /// This table without `dropped` columns.
    fn without(&self, dropped: &[usize]) -> Self {
        let kept = |column: &usize| !dropped.contains(column);
        let renumber = |columns: &[usize]| -> Vec<usize> {
            columns
                .iter()
                .filter(|c| kept(c))
                .map(|c| c - dropped.iter().filter(|d| *d < c).count())
                .collect()
        };
        Self {
            header: kept_columns(&self.header, dropped),
            breakable: renumber(&self.breakable),
            alternations: renumber(&self.alternations),
            rows: self
                .rows
                .iter()
                .map(|row| kept_columns(row, dropped))
                .collect(),
            short: self
                .short
                .iter()
                .map(|row| kept_columns(row, dropped))
                .collect(),
            legend: self.legend.clone(),
            said_once: None,
            notes: self.notes.clone(),
            color: self.color,
            width: self.width,
        }
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
                let alternation = self.alternations.contains(&column);
                cells.fold((0, 0), |(whole, word), text| {
                    let longest = text
                        .split(' ')
                        .flat_map(|word| alternatives(word, alternation))
                        .map(str::width)
                        .max()
                        .unwrap_or(0);
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
        let widths = width.map(|width| self.fitted(width));
        for row in self.rows {
            table.add_row(row.into_iter().enumerate().map(|(column, (text, tone))| {
                let text = match &widths {
                    Some(widths) if self.alternations.contains(&column) => {
                        wrap_alternations(&text, widths[column])
                    }
                    _ => text,
                };
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
        // Notes wrap between words at the terminal's width.
        for note in &self.notes {
            for line in crate::ground::text::wrap_words(note, self.width) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        text
    }

    /// One record per row, one `key: value` line per column, a blank line between records; a
    /// value wider than the room after its key goes on under it, broken between words (a path
    /// after a `/`).
    fn records(self) -> String {
        use std::fmt::Write as _;
        let keys: Vec<String> = self.header.iter().map(|h| h.to_lowercase()).collect();
        let key_width = keys.iter().map(|k| k.width()).max().unwrap_or(0) + 1;
        let room = self.width.map(|w| w.saturating_sub(key_width + 1).max(20));
        let indent = " ".repeat(key_width + 1);
        let mut out = String::new();
        for (index, row) in self.rows.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            for (key, (text, tone)) in keys.iter().zip(row) {
                let label = format!("{key}:");
                let _ = write!(out, "{label:<key_width$} ");
                for (line_index, line) in crate::ground::text::wrap_words(text, room)
                    .iter()
                    .enumerate()
                {
                    if line_index > 0 {
                        out.push_str(&indent);
                    }
                    match (self.color, tone.ansi()) {
                        (true, Some(code)) => {
                            let _ = write!(out, "\u{1b}[{code}m{line}\u{1b}[0m");
                        }
                        _ => out.push_str(line),
                    }
                    out.push('\n');
                }
            }
        }
        out
    }
}

/// `cells` without the `dropped` columns.
fn kept_columns<T: Clone>(cells: &[T], dropped: &[usize]) -> Vec<T> {
    cells
        .iter()
        .enumerate()
        .filter(|(column, _)| !dropped.contains(column))
        .map(|(_, cell)| cell.clone())
        .collect()
}

/// The parts of `word` that a line may end between: after each `|` when it is an alternation.
fn alternatives(word: &str, alternation: bool) -> Vec<&str> {
    if alternation {
        word.split_inclusive('|').collect()
    } else {
        vec![word]
    }
}

/// `text` in lines of at most `width` columns, broken between words and after a `|`, never
/// inside an alternative.
fn wrap_alternations(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        for (index, part) in word.split_inclusive('|').enumerate() {
            let joint = if index == 0 && !line.is_empty() {
                " "
            } else {
                ""
            };
            if !line.is_empty() && line.width() + joint.len() + part.width() > width {
                lines.push(std::mem::take(&mut line));
            } else {
                line.push_str(joint);
            }
            line.push_str(part);
        }
    }
    lines.push(line);
    lines.join("\n")
}

/// The width of the terminal stdout is; `None` when it is not one or reports no size.
pub(crate) fn terminal_width() -> Option<usize> {
    width_of(std::io::stdout())
}

/// The width of the terminal stderr is; `None` when it is not one or reports no size.
pub(crate) fn stderr_width() -> Option<usize> {
    width_of(std::io::stderr())
}

fn width_of(stream: impl std::os::fd::AsFd) -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(stream).ok()?;
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
    fn what_is_said_under_a_table_wraps_between_words_at_the_width() {
        let mut grid = Grid::new(&["NAME", "SOURCE"], false)
            .with_width(Some(30))
            .said_once(&[1], "Every row")
            .legend("Sources: user and project are Agent Hooks folders.");
        for (name, scope) in [("first-guard", "project"), ("second", "user")] {
            grid.row(&[
                (name, Tone::Plain),
                (&format!("agent-hooks ({scope}) and more"), Tone::Plain),
            ]);
            grid.short(1, scope);
        }
        let text = grid.render();
        assert!(text.contains("Sources: user and project are\n"), "{text}");
        assert!(
            text.lines().all(|line| line.chars().count() <= 30),
            "{text}"
        );
    }

    #[test]
    fn a_table_that_does_not_fit_says_what_repeats_then_shortens_then_wraps_alternations() {
        let table = |width| {
            let mut grid = Grid::new(&["NAME", "SOURCE", "MATCHER", "STATE"], false)
                .with_width(Some(width))
                .alternations(&[2])
                .said_once(&[1, 3], "Every row")
                .legend("Sources: short.");
            for (name, scope) in [("first-guard", "project"), ("second-guard", "user")] {
                grid.row(&[
                    (name, Tone::Plain),
                    (&format!("agent-hooks ({scope})"), Tone::Plain),
                    ("terminal|execute_code", Tone::Plain),
                    ("ok", Tone::Good),
                ]);
                grid.short(1, scope);
            }
            grid.render()
        };
        assert!(
            table(80).starts_with("NAME          SOURCE  "),
            "{}",
            table(80)
        );
        assert!(!table(80).contains("Every row"), "{}", table(80));
        let said = table(60);
        assert_eq!(
            said,
            "NAME          SOURCE                 MATCHER\n\
             first-guard   agent-hooks (project)  terminal|execute_code\n\
             second-guard  agent-hooks (user)     terminal|execute_code\n\
             Every row: state ok.\n"
        );
        let short = table(45);
        assert_eq!(
            short,
            "NAME          SOURCE   MATCHER\n\
             first-guard   project  terminal|execute_code\n\
             second-guard  user     terminal|execute_code\n\
             Every row: state ok.\n\
             Sources: short.\n"
        );
        // Wrapped after a `|`, never inside an alternative.
        let wrapped = table(38);
        assert!(
            wrapped.contains("first-guard   project  terminal|\n")
                && wrapped.contains("  execute_code\n"),
            "{wrapped}"
        );
        assert!(
            table(30).starts_with("name:    first-guard\n"),
            "{}",
            table(30)
        );
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

        // Records: a value goes on under its key, a path broken after a `/` only.
        let records = grid(Some(40)).render();
        assert_eq!(
            records,
            "event: pre_tool_call\n\
             hook:  /home/someone/projects/app/\n\
             \x20      .agents/hooks/guard/scripts/run\n\
             note:  a few words that may wrap between\n\
             \x20      them\n"
        );
    }
}
