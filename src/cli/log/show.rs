//! `log`'s output, written as rows come so that a log of any size goes out in bounded memory:
//! the JSON document row by row, and for people each decision as a line (time, run id, event,
//! outcome, then its session and tool where they fit, else on lines of their own under it) with
//! its hooks indented under it, columns aligned over a batch of rows.

use std::io;
use std::path::Path;

use serde_json::Value;

use super::Row;
use crate::ground::sanitize;
use crate::ground::text::wrap_words;
use crate::output::json::{self, SCHEMA_VERSION};
use crate::output::table::{Tone, terminal_width};
use crate::output::{Screen, Stream, shown_width};

/// Rows aligned together, at most (a decision is never split between two batches).
const BATCH: usize = 256;
/// Spaces between columns.
const GAP: usize = 2;
/// What hook lines are indented by.
const INDENT: &str = "  ";
/// What starts the line of a tool that does not fit on its decision's line, and its next lines.
const TOOL_LEAD: &str = "tool: ";
/// The narrowest a wrapped text is made.
const MIN_ROOM: usize = 20;

/// `log --json`: `{"schema_version", "log", "rows": [...], "skipped_lines"}`, a row at a time.
pub(super) struct Json {
    out: Stream,
    rows: usize,
}

impl Json {
    pub(super) fn new(mut out: Stream, log: &Path) -> io::Result<Self> {
        out.json_text(&format!(
            "{{\"schema_version\":{SCHEMA_VERSION},\"log\":{},\"rows\":[",
            json::to_line(&log.to_string_lossy())
        ))?;
        Ok(Self { out, rows: 0 })
    }

    pub(super) fn row(&mut self, row: &Row) -> io::Result<()> {
        if self.rows > 0 {
            self.out.json_text(",")?;
        }
        self.rows += 1;
        self.out.json_text(&json::to_line(row))
    }

    /// Ends the document; says whether it has rows.
    pub(super) fn finish(mut self, skipped: usize) -> io::Result<bool> {
        self.out
            .json_text(&format!("],\"skipped_lines\":{skipped}}}\n"))?;
        self.out.finish()?;
        Ok(self.rows > 0)
    }
}

/// The table for people.
pub(super) struct Human {
    out: Stream,
    color: bool,
    width: Option<usize>,
    batch: Vec<Row>,
    shown: bool,
}

impl Human {
    pub(super) fn new(out: Stream, color: bool) -> Self {
        Self {
            out,
            color,
            width: terminal_width(),
            batch: Vec::new(),
            shown: false,
        }
    }

    pub(super) fn row(&mut self, row: Row) -> io::Result<()> {
        if self.batch.len() >= BATCH
            && self
                .batch
                .last()
                .is_some_and(|last| last.group != row.group)
        {
            self.flush()?;
        }
        self.batch.push(row);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let screen = render(&self.batch, self.color, self.width, !self.shown);
        self.batch.clear();
        self.shown = true;
        self.out.show(&screen)
    }

    /// Writes what is left; says whether anything was shown.
    pub(super) fn finish(mut self) -> io::Result<bool> {
        self.flush()?;
        self.out.finish()?;
        Ok(self.shown)
    }
}

/// One cell: sanitised text, its colour.
type Cell = (String, Tone);

fn cell(text: &str, tone: Tone) -> Cell {
    (sanitize::line(text).into_owned(), tone)
}

/// The column titles of a decision line, and of a hook line under it.
const DECISION_TITLES: [&str; 6] = ["TIME (UTC)", "RUN", "EVENT", "DECISION", "SESSION", "TOOL"];
/// The columns every decision line holds (time, run, event, decision); the session and the tool
/// follow when they fit, else go on lines of their own under it.
const FIRST: usize = 4;
/// What starts the line of a session that does not fit on its decision's line.
const SESSION_LEAD: &str = "session: ";
const HOOK_TITLES: [&str; 4] = ["HOOK", "STATUS", "DIRECTIVE", "MESSAGE"];

/// The lines of `rows`, under the column titles when `titled` (the first batch); later batches
/// are aligned as if titled too, so their columns start where the titles do.
fn render(rows: &[Row], color: bool, width: Option<usize>, titled: bool) -> Screen {
    let heading = |names: &[&str]| names.iter().map(|n| cell(n, Tone::Plain)).collect();
    let mut decisions: Vec<Vec<Cell>> = vec![heading(&DECISION_TITLES)];
    let mut hooks: Vec<Vec<Vec<Cell>>> = vec![vec![heading(&HOOK_TITLES)]];
    for (at, row) in rows.iter().enumerate() {
        if at == 0 || rows[at - 1].group != row.group {
            decisions.push(decision_cells(row));
            hooks.push(Vec::new());
        }
        if let Some(last) = hooks.last_mut() {
            last.push(hook_cells(row));
        }
    }
    let decision_widths = widths(&decisions);
    let hook_widths = widths(&hooks.iter().flatten().cloned().collect::<Vec<_>>());
    // The session column (ids of 36 characters) only where it fits every line of the batch.
    let first: usize = decision_widths.iter().take(FIRST).map(|w| w + GAP).sum();
    let session_fits = width.is_none_or(|width| first + decision_widths[FIRST] <= width);
    let mut screen = Screen::new(color);
    let skip = usize::from(!titled);
    for (at, (decision, hooks)) in decisions.iter_mut().zip(&hooks).enumerate().skip(skip) {
        let tool = decision.pop().unwrap_or((String::new(), Tone::Plain));
        let session = decision.pop().unwrap_or((String::new(), Tone::Plain));
        if session_fits {
            decision.push(session);
            let used: usize = decision_widths
                .iter()
                .take(FIRST + 1)
                .map(|w| w + GAP)
                .sum();
            match width {
                // What was decided on is shown whole: under the line when it does not fit.
                Some(width) if used + shown_width(&tool.0) > width => {
                    line(&mut screen, "", decision, &decision_widths);
                    // The titles line names only the columns it shows.
                    if at > 0 {
                        under(&mut screen, TOOL_LEAD, &tool.0, width);
                    }
                }
                _ => {
                    decision.push(tool);
                    line(&mut screen, "", decision, &decision_widths);
                }
            }
        } else {
            line(&mut screen, "", decision, &decision_widths);
            // The titles line names only the columns it shows.
            if at > 0 {
                let width = width.unwrap_or(usize::MAX);
                under(&mut screen, SESSION_LEAD, &session.0, width);
                under(&mut screen, TOOL_LEAD, &tool.0, width);
            }
        }
        for hook in hooks {
            hook_line(&mut screen, hook, &hook_widths, width);
        }
    }
    screen
}

/// `text` on lines of its own under a decision, after `lead`, wrapped between words at `width`
/// (nothing when it is empty or `-`).
fn under(screen: &mut Screen, lead: &str, text: &str, width: usize) {
    if text.is_empty() || text == "-" {
        return;
    }
    let hang = " ".repeat(lead.len());
    let room = width.saturating_sub(INDENT.len() + lead.len());
    let mut first = true;
    for part in wrap_words(text, Some(room.max(MIN_ROOM))) {
        screen
            .text(INDENT)
            .text(if first { lead } else { &hang })
            .line(part);
        first = false;
    }
}

/// A hook's line; a message too long for the terminal wraps between words, under its column
/// when there is room there, else on lines of its own.
fn hook_line(screen: &mut Screen, cells: &[Cell], widths: &[usize], width: Option<usize>) {
    let Some(((message, tone), rest)) = cells.split_last() else {
        return;
    };
    let start = INDENT.len()
        + widths
            .iter()
            .take(rest.len())
            .map(|w| w + GAP)
            .sum::<usize>();
    let Some(width) = width.filter(|w| start + shown_width(message) > *w) else {
        line(screen, INDENT, cells, widths);
        return;
    };
    let room = width.saturating_sub(start);
    let (parts, pad) = if room >= MIN_ROOM {
        (wrap_words(message, Some(room)), start)
    } else {
        let mut bare = rest.to_vec();
        bare.push((String::new(), Tone::Plain));
        line(screen, INDENT, &bare, widths);
        let pad = 2 * INDENT.len();
        (
            wrap_words(message, Some(width.saturating_sub(pad).max(MIN_ROOM))),
            pad,
        )
    };
    for (at, part) in parts.iter().enumerate() {
        if at == 0 && pad == start {
            let mut first = rest.to_vec();
            first.push((part.clone(), *tone));
            line(screen, INDENT, &first, widths);
        } else {
            screen.text(" ".repeat(pad)).paint(part, *tone).end();
        }
    }
}

/// The widest cell of each column.
fn widths(lines: &[Vec<Cell>]) -> Vec<usize> {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns)
        .map(|column| {
            lines
                .iter()
                .filter_map(|cells| cells.get(column))
                .map(|(text, _)| shown_width(text))
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Writes `cells` after `indent`, each but the last padded to its column's width.
fn line(screen: &mut Screen, indent: &str, cells: &[Cell], widths: &[usize]) {
    let last = cells
        .iter()
        .rposition(|(text, _)| !text.is_empty())
        .unwrap_or(0);
    screen.text(indent);
    for (column, (text, tone)) in cells.iter().enumerate().take(last + 1) {
        screen.paint(text, *tone);
        if column < last {
            let width = widths.get(column).copied().unwrap_or(0);
            screen.text(" ".repeat(width.saturating_sub(shown_width(text)) + GAP));
        }
    }
    screen.end();
}

fn decision_cells(row: &Row) -> Vec<Cell> {
    let session = match &row.session_id {
        Value::String(text) if !text.is_empty() => text.clone(),
        Value::String(_) | Value::Null => "-".to_owned(),
        other => other.to_string(),
    };
    let event = match &row.agent {
        Some(agent) => format!("{} ({agent})", row.event),
        None => row.event.clone(),
    };
    let (outcome, tone) = outcome(row);
    vec![
        cell(&short_time(&row.time), Tone::Plain),
        cell(row.run_id.as_deref().unwrap_or("-"), Tone::Plain),
        cell(&event, Tone::Plain),
        cell(&outcome, tone),
        cell(&session, Tone::Plain),
        cell(&tool(row), Tone::Plain),
    ]
}

/// What the call came to: its directive's action, else what its exit code says.
fn outcome(row: &Row) -> (String, Tone) {
    match (row.outcome.as_deref(), row.exit) {
        (Some(stopped @ ("block" | "ask")), _) => (stopped.to_owned(), Tone::Notice),
        (Some(action), _) => (action.to_owned(), Tone::Plain),
        (None, Some(0)) => ("ok".to_owned(), Tone::Plain),
        (None, Some(1)) => ("error".to_owned(), Tone::Bad),
        (None, Some(code)) if code > 128 => ("interrupted".to_owned(), Tone::Bad),
        (None, Some(code)) => (format!("exit {code}"), Tone::Bad),
        (None, None) => ("-".to_owned(), Tone::Plain),
    }
}

/// The tool and, for a shell tool, its command.
fn tool(row: &Row) -> String {
    let name = match &row.tool_name {
        Value::String(name) => name.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let command = row
        .tool_command
        .as_ref()
        .map(|command| match row.tool_command_chars {
            // Only the head and tail were kept: say so, with the digest of the whole.
            Some(chars) => format!(
                "{command} ({chars} characters, the middle left out; sha256 {})",
                row.tool_command_sha256.as_deref().unwrap_or("-")
            ),
            None => command.clone(),
        });
    match command {
        Some(command) if name.is_empty() => command,
        Some(command) => format!("{name}: {command}"),
        None => name,
    }
}

fn hook_cells(row: &Row) -> Vec<Cell> {
    let tone = match row.status.as_str() {
        "blocked" | "gated" | "asked" => Tone::Notice,
        "failed" | "timed_out" | "spawn_failed" | "invalid_output" | "changed" | "unapproved" => {
            Tone::Bad
        }
        _ => Tone::Plain,
    };
    vec![
        cell(&row.hook, Tone::Plain),
        cell(&row.status, tone),
        cell(row.directive.as_deref().unwrap_or("-"), Tone::Plain),
        cell(row.message.as_deref().unwrap_or(""), Tone::Plain),
    ]
}

/// `2026-11-24T09:00:32.090227Z` as `2026-11-24 09:00:32`.
fn short_time(time: &str) -> String {
    let whole = time.split('.').next().unwrap_or(time).trim_end_matches('Z');
    whole.replacen('T', " ", 1)
}
