//! `events`: the event table (canonical names, Agent Hooks aliases, what hooks can do, payload
//! fields), as a table or as JSON.

use anyhow::Result;
use clap::Args;

use crate::config::Event;
use crate::exit::ExitStatus;
use crate::output::json::EventRow;
use crate::output::table::{Grid, Tone};
use crate::output::{Printer, Screen};

#[derive(Args, Debug)]
pub(crate) struct EventsArgs {
    /// Print the table as one JSON document ({"schema_version", "events": [...]})
    #[arg(long)]
    json: bool,
}

const LEGEND: &str = "`run` takes either name. block: stop the action; modify: rewrite the tool input; \
context: add text for the model; gate: keep working instead of stopping; -: observer only.";

pub(crate) fn run(args: &EventsArgs, printer: &Printer) -> Result<ExitStatus> {
    if args.json {
        #[derive(serde::Serialize)]
        struct Events {
            events: Vec<EventRow>,
        }
        let events = Event::all().map(EventRow::new).collect();
        printer.document(&Events { events })?;
        return Ok(ExitStatus::Success);
    }
    let mut table = Grid::new(
        &[
            "EVENT",
            "AGENT HOOKS NAME",
            "CONFIG CAN",
            "AGENT HOOKS CAN",
            "TYPICAL FIELDS",
        ],
        false,
    )
    .breakable(&[4]);
    let effects = |names: Vec<&str>| {
        if names.is_empty() {
            "-".to_owned()
        } else {
            names.join(", ")
        }
    };
    for event in Event::all() {
        let def = event.def();
        let config = if def.plugin_only {
            "refused (plugin only)".to_owned()
        } else if def.canonical.is_none() {
            "n/a".to_owned()
        } else {
            effects(def.config.names())
        };
        let aliases = if def.aliases.is_empty() {
            "-".to_owned()
        } else {
            def.aliases.join(", ")
        };
        table.row(&[
            (def.canonical.unwrap_or("-"), Tone::Plain),
            (&aliases, Tone::Plain),
            (&config, Tone::Plain),
            (&effects(def.agent_hooks.names()), Tone::Plain),
            (&def.fields.join(", "), Tone::Plain),
        ]);
    }
    let mut screen = Screen::new(false);
    screen.table(table).blank().line(LEGEND);
    printer.show(&screen)?;
    Ok(ExitStatus::Success)
}
