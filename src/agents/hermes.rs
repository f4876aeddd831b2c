//! Hermes: the event table's own names and the Hermes answer line (printed by the caller, not
//! rendered here), and Hermes's tool names for the tool classes.

use serde_json::{Map, Value};

use super::{Contract, Rendered, Reply, ToolClass};

pub(super) static CONTRACT: Contract = Contract {
    name: "hermes",
    title: "Hermes",
    events: &[],
    tools: TOOLS,
    normalise,
    render,
};

static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("terminal", Some(ToolClass::Shell)),
    ("process", None),
    ("execute_code", None),
    ("patch", Some(ToolClass::Edit)),
    ("write_file", Some(ToolClass::Write)),
    ("read_file", Some(ToolClass::Read)),
    ("search_files", Some(ToolClass::Search)),
    ("web_search", Some(ToolClass::Web)),
    ("web_extract", Some(ToolClass::Web)),
    ("browser_navigate", Some(ToolClass::Web)),
    ("todo", None),
    ("memory", None),
    ("delegate_task", None),
    ("skill_view", None),
    ("vision_analyze", None),
];

fn normalise(_event: &str, _input: &mut Map<String, Value>) {}

/// Hermes reads the answer line `run` prints without `--agent`; nothing is rendered for it.
fn render(_reply: &Reply<'_>) -> Rendered {
    Rendered::nothing()
}
