//! `list` (`ls`): every hook, grouped by event in the order `run` uses them, with its matcher,
//! timeout, consent state and script state.

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::rule_view::RuleView;
use super::{GlobalArgs, shared};
use crate::config::in_process::{self, InProcessHook};
use crate::consent::fingerprint::ScriptState;
use std::path::Path;

use crate::config::HookSet;
use crate::consent::store::Allowlist;
use crate::consent::{Assessment, Bypass, ConsentState, assess, changes_since_approval};
use crate::ground::exit::ExitStatus;
use crate::output::json::WarningLine;
use crate::output::short_path::Shortener;
use crate::output::table::{Grid, Tone};
use crate::output::{Printer, Screen};

#[derive(Args, Debug)]
pub(crate) struct ListArgs {
    /// Only this event's hooks (any of its names)
    #[arg(long, value_name = "EVENT", value_parser = super::completions::EventName, hide_possible_values = true)]
    event: Option<String>,
    /// One record per hook with where it is declared, when it was approved, its sha256, what
    /// `run` would do with it now, and for a changed script the diff since approval
    #[arg(short, long)]
    long: bool,
    /// Print one JSON document instead of the table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pager: super::pager::PagerArgs,
}

/// One row, for both outputs. A new column is a field here, its value in [`hook_rows`] (the
/// compiler asks for it), and, to show it in the table, an entry in [`COLUMNS`].
#[derive(Serialize, Default)]
struct Row<'a> {
    event: &'a str,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    scope: Option<&'static str>,
    name: &'a str,
    /// What it does, as its HOOK.md says.
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    /// An in-process plugin's events, shown in one record for people.
    #[serde(skip)]
    events: Vec<&'a str>,
    command: &'a str,
    /// The command as a person reads it (a path under the home as `~/...`), for the table.
    #[serde(skip)]
    shown_command: Option<String>,
    matcher: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern: Option<&'a str>,
    timeout_ms: Option<u128>,
    fail_closed: bool,
    consent: &'static str,
    script: Option<String>,
    script_state: &'static str,
    declared_at: String,
    /// When it was approved.
    approved_at: Option<String>,
    /// The script's sha256 now.
    sha256: Option<String>,
    /// The sha256 it was approved with.
    approved_sha256: Option<String>,
    /// What `run` would do with it now.
    run_would: String,
    /// With `--long`, for a changed script: the diff since approval.
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    /// A user hook replaced by a project hook: where that one is declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    replaced_by: Option<String>,
    /// A project hook that replaces a user hook: where that one is declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    replaces: Option<String>,
    /// Project hook folders with this user hook's name that do not replace it, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_replaced_by: Vec<NotReplacedBy>,
    /// A rule's conditions and answer (its `command` is its rules file).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<RuleView<'a>>,
}

/// A project folder with a user hook's name that does not replace it.
#[derive(Serialize)]
struct NotReplacedBy {
    file: String,
    why: String,
}

#[derive(Serialize)]
struct Listing<'a> {
    config: String,
    /// The managed config, when its folder exists (its values win over `config`).
    managed_config: Option<String>,
    allowlist: String,
    /// The project root whose `.agents/hooks` was read (`null`: none was found).
    project_root: Option<String>,
    /// The nearest project found and skipped because another user owns a folder on the way.
    #[serde(skip_serializing_if = "Option::is_none")]
    project_skipped: Option<shared::SkippedProject>,
    /// What the project was found from.
    project_from: String,
    hooks: Vec<Row<'a>>,
    warnings: Vec<WarningLine<'a>>,
    /// Files whose hooks could not be read at all (their hooks are not listed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<LoadErrorLine>,
}

/// A file whose hooks could not be read.
#[derive(Serialize)]
struct LoadErrorLine {
    source: &'static str,
    file: String,
    line: Option<u64>,
    message: String,
}

/// Says each guard that vanished or changed since it was approved, once, as an error; whether
/// there was one.
fn vanished_said(set: &crate::config::HookSet, printer: &Printer) -> bool {
    let mut said: Vec<&str> = Vec::new();
    for hook in &set.hooks {
        if let Some(stand_in) = hook.stand_in()
            && !said.contains(&stand_in.what.as_str())
        {
            said.push(&stand_in.what);
            printer.error(&anyhow::anyhow!("{}", stand_in.message(&hook.command)));
        }
    }
    !said.is_empty()
}

pub(crate) fn run(global: &GlobalArgs, args: &ListArgs, printer: &Printer) -> Result<ExitStatus> {
    let only = shared::optional_event(args.event.as_deref(), printer)?;
    let loaded = shared::load(global, only, printer)?;
    // What could be read is listed; a file that could not be is an error (exit 1).
    let status = if loaded.set.errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    };
    let list = shared::read_allowlist(&loaded.paths, printer);
    let base = shared::current_dir()?;
    let loaded = shared::with_stand_ins(loaded, &list, &base, only);
    let status = if vanished_said(&loaded.set, printer) {
        ExitStatus::Error
    } else {
        status
    };
    let bypass = shared::bypass(global, &loaded.set);
    let overrides = crate::consent::Overrides::judge(&loaded.set, &list, bypass, &base);
    let managed = loaded.paths.managed.as_deref();
    let judge = Judge {
        list: &list,
        base: &base,
        managed,
        bypass: shared::bypass(global, &loaded.set),
        allowlist: args.long.then_some(loaded.paths.allowlist.as_path()),
    };
    let (mut rows, notes) = hook_rows(&loaded.set, &overrides, &judge);
    let in_process = in_process::load(&loaded.paths.home);
    if args.json {
        rows.extend(
            in_process
                .iter()
                .flat_map(|hook| in_process_rows(hook, only)),
        );
        printer.document(&listing(&loaded, rows))?;
        return Ok(status);
    }
    let labels: Vec<String> = in_process.iter().map(events_label).collect();
    rows.extend(plugin_rows(&in_process, &labels, only));
    let mut screen = Screen::new(false);
    if rows.is_empty() {
        let scope = only.map_or_else(String::new, |event| format!(" for {event}"));
        let config = loaded.paths.config.display();
        if loaded
            .set
            .errors
            .iter()
            .any(|error| error.source == crate::config::SourceKind::Config)
        {
            screen.line(format_args!(
                "No hooks shown{scope}: {config} did not parse (the error above says where), and \
                 no other source declares any."
            ));
        } else {
            screen.line(format_args!("No hooks{scope} in {config}."));
        }
        screen.wrapped(
            &shared::project_line(&loaded.paths),
            crate::output::table::terminal_width(),
            0,
            "  ",
        );
        super::pager::show_stdout(args.pager, printer, &screen)?;
        return Ok(status);
    }
    if args.long {
        let mut screen = Screen::new(shared::color(global));
        for row in &rows {
            long_record(&mut screen, row);
        }
        screen.wrapped(
            &shared::project_line(&loaded.paths),
            crate::output::table::terminal_width(),
            0,
            "  ",
        );
        for note in &notes {
            screen.line(note);
        }
        super::pager::show_stdout(args.pager, printer, &screen)?;
        return Ok(status);
    }
    let short = Shortener::new(loaded.paths.project.as_deref());
    for row in &mut rows {
        row.shown_command = shown_command(row, &short);
    }
    screen.table(table(&rows, shared::color(global)));
    let width = crate::output::table::terminal_width();
    screen.blank().wrapped(
        &short.text(&shared::project_line(&loaded.paths)),
        width,
        0,
        "  ",
    );
    for note in &notes {
        screen.wrapped(&short.text(note), width, 0, "  ");
    }
    super::pager::show_stdout(args.pager, printer, &screen)?;
    Ok(status)
}

/// The table of `rows`. When it does not fit, what every hook has in common (but its name and
/// matcher) is said once under it, and sources are named by their scope alone.
fn table(rows: &[Row<'_>], color: bool) -> Grid {
    let headings: Vec<&str> = COLUMNS.iter().map(|(heading, _)| *heading).collect();
    let at = |name: &str| headings.iter().position(|h| *h == name);
    let common: Vec<usize> = (0..headings.len())
        .filter(|&column| Some(column) != at("HOOK") && Some(column) != at("MATCHER"))
        .collect();
    let mut grid = Grid::new(&headings, color)
        .alternations(&Vec::from_iter(at("MATCHER")))
        .said_once(&common, "Every hook")
        .legend(
            "Sources: user and project are Agent Hooks folders; managed is the managed config.",
        );
    for row in rows {
        let cells: Vec<(String, Tone)> = COLUMNS.iter().map(|(_, cell)| cell(row)).collect();
        let cells: Vec<(&str, Tone)> = cells
            .iter()
            .map(|(text, tone)| (text.as_str(), *tone))
            .collect();
        grid.row(&cells);
        if let (Some(column), Some(scope)) = (at("SOURCE"), row.scope) {
            grid.short(column, scope);
        }
    }
    grid
}

/// A config hook's command when it is one path that reads shorter (`~/...`), which `approve`
/// and `revoke` take as they take the command.
fn shown_command(row: &Row<'_>, short: &Shortener) -> Option<String> {
    let whole = row.source == "config" && !row.command.contains(char::is_whitespace);
    let shown = short.path(row.command);
    (whole && shown != row.command).then(|| shown.into_owned())
}

/// The `--json` document.
fn listing<'a>(loaded: &'a shared::Loaded, rows: Vec<Row<'a>>) -> Listing<'a> {
    Listing {
        config: loaded.paths.config.display().to_string(),
        managed_config: loaded
            .paths
            .managed
            .as_ref()
            .map(|p| p.display().to_string()),
        allowlist: loaded.paths.allowlist.display().to_string(),
        project_root: loaded
            .paths
            .project
            .as_ref()
            .map(|p| p.display().to_string()),
        project_skipped: loaded
            .paths
            .project_skipped
            .as_ref()
            .map(shared::SkippedProject::new),
        project_from: loaded.paths.project_from.to_string(),
        hooks: rows,
        warnings: loaded.set.warnings.iter().map(WarningLine::new).collect(),
        errors: loaded
            .set
            .errors
            .iter()
            .map(|error| LoadErrorLine {
                source: error.source.as_str(),
                file: error.origin.file.display().to_string(),
                line: error.origin.line,
                message: error.message.clone(),
            })
            .collect(),
    }
}

/// What the rows are judged against.
struct Judge<'a> {
    list: &'a Allowlist,
    base: &'a Path,
    /// The managed config, whose hooks have the scope `managed`.
    managed: Option<&'a Path>,
    bypass: Option<Bypass>,
    /// With `--long`: the allowlist, beside which the approved copies are kept (for diffs).
    allowlist: Option<&'a Path>,
}

/// The rows of the executable hooks, in run order within each event, and one note per
/// replacement and per project namesake that does not replace its user hook. A user hook that a
/// project hook replaces is `overridden`: consent decides that, as in `run`. A config hook
/// declared in the managed config has the scope `managed`.
fn hook_rows<'a>(
    set: &'a HookSet,
    overrides: &crate::consent::Overrides,
    judge: &Judge<'_>,
) -> (Vec<Row<'a>>, Vec<String>) {
    let mut order: Vec<usize> = (0..set.hooks.len()).collect();
    order.sort_by_key(|i| set.hooks[*i].event);
    let mut notes = Vec::new();
    let rows = order
        .iter()
        .map(|&index| {
            let hook = &set.hooks[index];
            let assessment = assess(judge.list, hook, judge.base);
            let replaced_by = overrides.replaced[index].map(|by| set.hooks[by].origin.to_string());
            let replaces = overrides
                .replacing(index)
                .map(|user| set.hooks[user].origin.to_string());
            let consent = if replaced_by.is_some() {
                "overridden"
            } else {
                assessment.state.as_str()
            };
            notes.extend(overrides.notes(set, index));
            let not_replaced_by = overrides
                .namesakes_of(index)
                .map(|(file, why)| NotReplacedBy {
                    file: file.to_owned(),
                    why: why.to_owned(),
                })
                .collect();
            let script_state = crate::consent::script_state(hook, judge.base);
            let run_would = run_would(
                &assessment,
                script_state,
                replaced_by.as_deref(),
                crate::consent::bypass_for(judge.bypass, hook),
            );
            let diff = judge
                .allowlist
                .and_then(|allowlist| changes_since_approval(&assessment, allowlist));
            let rule = hook.rule();
            let run_would = match rule {
                Some(_) if run_would == "run it" => "apply it".to_owned(),
                _ => run_would,
            };
            Row {
                replaced_by,
                replaces,
                not_replaced_by,
                event: hook.event.name(),
                source: hook.source.as_str(),
                scope: hook
                    .agent()
                    .map(|agent| agent.scope.as_str())
                    .or_else(|| rule.map(|rule| rule.of.scope.as_str()))
                    .or_else(|| (judge.managed == Some(&*hook.origin.file)).then_some("managed")),
                name: &hook.name,
                description: hook.agent().and_then(|agent| agent.description.as_deref()),
                events: Vec::new(),
                command: &hook.command,
                shown_command: None,
                matcher: match rule {
                    Some(_) => crate::config::rules::tool_shown(hook),
                    None => hook.matcher.as_deref().map(crate::matcher::Matcher::source),
                },
                rule: rule.map(RuleView::of),
                pattern: hook
                    .agent()
                    .and_then(|agent| agent.pattern.as_ref())
                    .map(crate::matcher::Matcher::source),
                timeout_ms: rule.is_none().then_some(hook.timeout.as_millis()),
                fail_closed: hook.fail_closed,
                consent,
                script: assessment.script.map(|p| p.display().to_string()),
                script_state: script_state.as_str(),
                declared_at: hook.origin.to_string(),
                approved_at: assessment.approved_at,
                sha256: assessment.sha256,
                approved_sha256: assessment.pinned,
                run_would,
                diff,
            }
        })
        .collect();
    (rows, notes)
}

/// What `run` would do with a hook now, in a few words.
fn run_would(
    assessment: &Assessment,
    script: ScriptState,
    replaced_by: Option<&str>,
    bypass: Option<Bypass>,
) -> String {
    if let Some(by) = replaced_by {
        return format!("skip it: overridden by {by}");
    }
    let runs = match (assessment.state, bypass) {
        (ConsentState::Approved | ConsentState::Unpinned, _) => "run it".to_owned(),
        (state, Some(bypass)) => {
            format!(
                "approve it on the spot ({bypass}) and run it: it is {}",
                state.as_str()
            )
        }
        (ConsentState::Unapproved, None) => return "skip it: not approved".to_owned(),
        (ConsentState::Changed, None) => {
            return "refuse it: changed since approval".to_owned();
        }
    };
    if script == ScriptState::Ok {
        runs
    } else {
        format!("fail to start it: the script is {}", script.as_str())
    }
}

/// One hook as a record, for `--long`: a heading line, then one `key: value` line each.
fn long_record(screen: &mut Screen, row: &Row<'_>) {
    // At the terminal's width, broken between words (a path after a `/`).
    const INDENT: &str = "                ";
    let shown = if row.source == "config" {
        row.command
    } else {
        row.name
    };
    let width = crate::output::table::terminal_width();
    screen.wrapped(
        &format!("{}  {}  {shown}", row.event, source_label(row)),
        width,
        0,
        "  ",
    );
    let mut field = |key: &str, value: &str| {
        screen
            .text(format_args!("  {key:<13} "))
            .wrapped(value, width, INDENT.len(), INDENT);
    };
    if let Some(description) = row.description {
        field("description:", description);
    }
    if row.events.len() > 1 {
        field("events:", &row.events.join(", "));
    }
    field("declared at:", &row.declared_at);
    if row.source == "agent-hooks" {
        field("command:", row.command);
    }
    if let Some(rule) = &row.rule {
        field("tool:", row.matcher.unwrap_or("any"));
        field("action:", rule.action);
        for (word, text) in rule.lines() {
            field(&format!("{word}:"), &text);
        }
        field("message:", rule.message);
    } else {
        field("matcher:", &matcher_label(row));
        let timeout = COLUMNS[4].1(row).0;
        field("timeout:", &timeout);
    }
    if let Some(script) = &row.script {
        field("script:", &format!("{script} ({})", row.script_state));
    }
    field("consent:", row.consent);
    if let Some(at) = &row.approved_at {
        field("approved at:", at);
    }
    field("sha256:", row.sha256.as_deref().unwrap_or("-"));
    if row.approved_sha256.is_some() && row.approved_sha256 != row.sha256 {
        field(
            "approved as:",
            row.approved_sha256.as_deref().unwrap_or("-"),
        );
    }
    field("run would:", &row.run_would);
    if let Some(diff) = &row.diff {
        screen.line("  changes since it was approved:");
        screen.diff(diff, "    ", usize::MAX);
    }
    screen.blank();
}

/// Gateway and plugin hooks: one row per event they declare, consent `in-process` (Hermes runs
/// them in its own process; this tool never does), script state of their handler.
/// The rows of in-process plugins for people: a plugin is one row (its events in one cell, from
/// `labels`), unless one event is asked for.
fn plugin_rows<'a>(
    plugins: &'a [InProcessHook],
    labels: &'a [String],
    only: Option<crate::config::Event>,
) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    for (hook, label) in plugins.iter().zip(labels) {
        match only {
            Some(_) => rows.extend(in_process_rows(hook, only)),
            None => rows.extend(
                in_process_rows(hook, only)
                    .into_iter()
                    .take(1)
                    .map(|row| Row {
                        event: label,
                        events: hook.events.iter().map(String::as_str).collect(),
                        ..row
                    }),
            ),
        }
    }
    rows
}

/// The events of an in-process plugin in one cell: the one event, or how many.
fn events_label(hook: &InProcessHook) -> String {
    match hook.events.as_slice() {
        [] => "-".to_owned(),
        [one] => one.clone(),
        many => format!("{} events", many.len()),
    }
}

fn in_process_rows(hook: &InProcessHook, only: Option<crate::config::Event>) -> Vec<Row<'_>> {
    let handler = if hook.handler.is_file() {
        ScriptState::Ok
    } else {
        ScriptState::Missing
    };
    let events: Vec<&str> = if hook.events.is_empty() {
        vec!["-"]
    } else {
        hook.events.iter().map(String::as_str).collect()
    };
    events
        .into_iter()
        .filter(|event| only.is_none_or(|only| *event == only.name()))
        .map(|event| Row {
            event,
            source: hook.source.as_str(),
            name: &hook.name,
            command: &hook.name,
            consent: "in-process",
            script: Some(hook.handler.display().to_string()),
            script_state: handler.as_str(),
            declared_at: hook.manifest.display().to_string(),
            ..Row::default()
        })
        .collect()
}

/// A column of the table: its heading, and a row's cell with its tone.
type Column = (&'static str, fn(&Row<'_>) -> (String, Tone));

/// The table's columns, left to right.
const COLUMNS: &[Column] = &[
    ("EVENT", |row| (row.event.to_owned(), Tone::Plain)),
    ("SOURCE", |row| (source_label(row), Tone::Plain)),
    ("HOOK", |row| {
        let hook = if row.source == "config" {
            row.shown_command.as_deref().unwrap_or(row.command)
        } else {
            row.name
        };
        (hook.to_owned(), Tone::Plain)
    }),
    ("MATCHER", |row| (matcher_label(row), Tone::Plain)),
    ("TIMEOUT", |row| {
        let timeout = match row.timeout_ms {
            None => "-".to_owned(),
            Some(ms) if ms % 1000 == 0 => format!("{}s", ms / 1000),
            Some(ms) => format!("{ms}ms"),
        };
        (timeout, Tone::Plain)
    }),
    ("CONSENT", |row| {
        (row.consent.to_owned(), consent_tone(row.consent))
    }),
    ("SCRIPT", |row| {
        (row.script_state.to_owned(), script_tone(row.script_state))
    }),
];

/// The tool matcher, and the input pattern between slashes: `terminal /rm -rf/`.
fn matcher_label(row: &Row<'_>) -> String {
    match (row.matcher, row.pattern) {
        (None, None) => "-".to_owned(),
        (Some(tool), None) => tool.to_owned(),
        (None, Some(pattern)) => format!("/{pattern}/"),
        (Some(tool), Some(pattern)) => format!("{tool} /{pattern}/"),
    }
}

/// `config`, `config (managed)`, or `agent-hooks (user)` / `agent-hooks (project)`.
fn source_label(row: &Row<'_>) -> String {
    match row.scope {
        Some(scope) => format!("{} ({scope})", row.source),
        None => row.source.to_owned(),
    }
}

fn consent_tone(state: &str) -> Tone {
    match state {
        s if s == ConsentState::Approved.as_str() || s == "in-process" => Tone::Good,
        s if s == ConsentState::Changed.as_str() => Tone::Bad,
        _ => Tone::Notice,
    }
}

fn script_tone(state: &str) -> Tone {
    if state == ScriptState::Ok.as_str() {
        Tone::Good
    } else {
        Tone::Bad
    }
}
