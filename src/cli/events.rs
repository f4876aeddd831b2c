//! `events [EVENT]`: the event table (names in each dialect, what hooks can do, payload fields);
//! with an event, what hooks of each source can do there, the payload each receives on the
//! synthetic call (written by `run`'s own code) and an example answer per effect.

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::GlobalArgs;
use super::rule_view::RuleView;
use super::shared;
use crate::agents::Agent;
use crate::authoring::answers::{self, Answer};
use crate::authoring::sample;
use crate::config::event::Resolved;
use crate::config::{Event, HookSpec};
use crate::engine::payload::Dialect;
use crate::ground::exit::ExitStatus;
use crate::ground::text::wrap_words;
use crate::output::json::{AgentNames, EventRow};
use crate::output::table::{Grid, Tone, terminal_width};
use crate::output::{Printer, Screen};
use screen::{
    agent_extras, answer_line, answer_lines, heading, rules_here, stdin_sample, what_hooks_can,
};

mod screen;

#[derive(Args, Debug)]
#[command(
    after_help = "Without EVENT: the table of every event. With EVENT (any of its names): what \
    hooks can do there, the payload each kind of hook reads on stdin, and how to answer."
)]
pub(crate) struct EventsArgs {
    /// Show this event in detail: canonical, Agent Hooks, Claude Code or another agent's name
    #[arg(
        value_name = "EVENT",
        value_parser = super::completions::EventName,
        hide_possible_values = true
    )]
    event: Option<String>,
    /// Print one JSON document ({"schema_version", "events": [...]}, or the event's details)
    #[arg(long)]
    json: bool,
    /// List the events as AGENT fires them (`run --agent AGENT` takes these names): each with
    /// the event it stands for and what hooks can do there for that agent
    #[arg(long, value_name = "AGENT", conflicts_with = "event",
          value_parser = clap::builder::PossibleValuesParser::new(Agent::ALL.map(Agent::name)))]
    agent: Option<String>,
    #[command(flatten)]
    pager: super::pager::PagerArgs,
}

const LEGEND: &str = "Every name in a row works wherever an event is named: other names are the \
Agent Hooks ones (kebab-case, for a HOOK.md trigger), then Claude Code's. block: stop the action; \
modify: rewrite the tool input; context: add text for the model; gate: keep working instead of \
stopping; text: replace the text to speak; run only: Hermes runs no config hook there; -: observer \
only. `hermes-hooks events EVENT` shows an event's payload and answers; \
`hermes-hooks events --agent NAME` shows the names another agent fires them by.";

pub(crate) fn run(global: &GlobalArgs, args: &EventsArgs, printer: &Printer) -> Result<ExitStatus> {
    if let Some(name) = &args.event {
        // Another agent's name (Gemini's `BeforeTool`) shows the event it stands for.
        let called = match Agent::find_event(name) {
            Some((_, resolved)) if Event::parse(name).is_err() => resolved,
            _ => shared::event(name, printer)?,
        };
        return detail(global, args, called, printer);
    }
    if let Some(agent) = &args.agent {
        return agent_table(agent.parse::<Agent>()?, args, printer);
    }
    if args.json {
        #[derive(Serialize)]
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
            "OTHER NAMES",
            "CONFIG CAN",
            "AGENT HOOKS CAN",
            "TYPICAL FIELDS",
        ],
        false,
    )
    .breakable(&[4]);
    for event in Event::all() {
        let def = event.def();
        table.row(&[
            (def.canonical.unwrap_or("-"), Tone::Plain),
            (&listed(&other_names(event)), Tone::Plain),
            (&config_can(event), Tone::Plain),
            (&listed(&def.agent_hooks.names()), Tone::Plain),
            (&def.fields.join(", "), Tone::Plain),
        ]);
    }
    let mut screen = Screen::new(false);
    screen.table(table).blank();
    for line in wrap_words(LEGEND, terminal_width()) {
        screen.line(line);
    }
    super::pager::show_stdout(args.pager, printer, &screen)?;
    Ok(ExitStatus::Success)
}

/// The Agent Hooks names (kebab-case), then Claude Code's (`PreToolUse`).
fn other_names(event: Event) -> Vec<&'static str> {
    let mut names = event.def().aliases.to_vec();
    names.extend(event.claude_code_names());
    names
}

/// One row of `events --agent`.
#[derive(Serialize)]
struct AgentRow {
    /// The agent's name for the event.
    name: &'static str,
    /// The event it stands for (null: none; the agent fires it and no hook runs).
    event: Option<&'static str>,
    /// What `config` hooks can do there.
    config: Vec<&'static str>,
    /// What Agent Hooks hooks can do there, for this agent.
    agent_hooks: Vec<&'static str>,
    /// Plain text on an Agent Hooks hook's stdout is context there.
    plain_text_context: bool,
    /// An ask reaches the agent as a block that says a person must approve the call (the agent
    /// cannot ask a person here).
    ask_is_block: bool,
}

/// `events --agent NAME`: the agent's own event names, in its order.
fn agent_table(agent: Agent, args: &EventsArgs, printer: &Printer) -> Result<ExitStatus> {
    let json = args.json;
    let rows: Vec<AgentRow> = if agent.is_hermes() {
        Event::all()
            .filter_map(|event| {
                let def = event.def();
                Some(AgentRow {
                    name: def.canonical?,
                    event: def.canonical,
                    config: def.config.names(),
                    agent_hooks: def.agent_hooks.names(),
                    plain_text_context: false,
                    ask_is_block: false,
                })
            })
            .collect()
    } else {
        agent
            .events()
            .iter()
            .map(|own| {
                let event = own
                    .table
                    .and_then(|t| Event::parse(t).ok())
                    .map(|r| r.event);
                AgentRow {
                    name: own.name,
                    event: own.table,
                    config: event.map(|e| e.def().config.names()).unwrap_or_default(),
                    agent_hooks: event
                        .map(|e| e.def().agent_hooks.with(own.also).names())
                        .unwrap_or_default(),
                    plain_text_context: own.plain_text,
                    ask_is_block: !agent.asks_on(own.name),
                }
            })
            .collect()
    };
    if json {
        #[derive(Serialize)]
        struct AgentEvents {
            agent: &'static str,
            events: Vec<AgentRow>,
            /// One of its events runs the quality gate.
            gate: bool,
        }
        printer.document(&AgentEvents {
            agent: agent.name(),
            events: rows,
            gate: agent.has_gate(),
        })?;
        return Ok(ExitStatus::Success);
    }
    let title = format!("{} EVENT", agent.title().to_uppercase());
    let mut table = Grid::new(
        &[&title, "RUNS HOOKS OF", "CONFIG CAN", "AGENT HOOKS CAN"],
        false,
    );
    for row in &rows {
        let can = |names: &[&'static str]| {
            let names: Vec<&str> = names
                .iter()
                .map(|name| match *name {
                    "ask" if row.ask_is_block => "ask (as a block)",
                    other => other,
                })
                .collect();
            listed(&names)
        };
        let mut agent_hooks = can(&row.agent_hooks);
        if row.plain_text_context {
            agent_hooks.push_str(" (text is context)");
        }
        table.row(&[
            (row.name, Tone::Plain),
            (row.event.unwrap_or("- (none)"), Tone::Plain),
            (&can(&row.config), Tone::Plain),
            (&agent_hooks, Tone::Plain),
        ]);
    }
    let mut screen = Screen::new(false);
    screen.table(table).blank();
    let legend = agent_legend(agent);
    for line in wrap_words(&legend, terminal_width()) {
        screen.line(line);
    }
    super::pager::show_stdout(args.pager, printer, &screen)?;
    Ok(ExitStatus::Success)
}

/// What `events --agent` says under the table: where the names are taken, and the gate's
/// absence where no event of the agent runs it.
fn agent_legend(agent: Agent) -> String {
    let title = agent.title();
    let mut legend = if agent.module().is_some() {
        format!(
            "`hermes-hooks run --agent {agent} EVENT` and `serve` take these names, as the \
             plugin module hands each hook of {title}'s API on. A row with none is accepted \
             and runs no hook."
        )
    } else {
        format!(
            "`hermes-hooks run --agent {agent} EVENT` takes these names; `hermes-hooks install \
             {agent}` wires every event that runs hooks, except one whose calls another of its \
             events reports already. A row with none is accepted and runs no hook."
        )
    };
    if !agent.has_gate() {
        legend.push_str(" No event of ");
        legend.push_str(title);
        legend.push_str(
            " runs the quality gate (pre_verify): nothing it lets a hook answer can keep it \
             working.",
        );
    }
    legend
}

/// Names joined by commas, or `-` for none.
fn listed(names: &[impl AsRef<str>]) -> String {
    if names.is_empty() {
        "-".to_owned()
    } else {
        names
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a `config` hook can do on `event`, in words when it cannot be declared at all.
fn config_can(event: Event) -> String {
    let def = event.def();
    if def.plugin_only {
        "refused (plugin only)".to_owned()
    } else if def.plugin_fired {
        format!("{} (run only)", listed(&def.config.names()))
    } else if def.canonical.is_none() {
        "n/a".to_owned()
    } else {
        listed(&def.config.names())
    }
}

/// `events EVENT --json`.
#[derive(Serialize)]
struct Detail<'a> {
    /// The canonical name.
    event: &'static str,
    /// The name as given.
    called_as: &'a str,
    /// Every name of the event, by dialect.
    names: Names,
    /// Whether tool matchers apply.
    tool_matchers: bool,
    /// What hooks of each source can do.
    can: Can,
    /// The payload each kind of hook reads on stdin for the synthetic call, exactly.
    payload: Payloads,
    /// How to answer, one entry per effect (`nothing` first).
    answers: Vec<AnswerLine>,
    /// A rule for this event, as a rules file writes it (`null` where a rule can do nothing).
    rule_example: Option<String>,
    /// The rules of this event in the rules files found (the user's, the project's), in the
    /// order they are checked.
    rules: Vec<RuleEntry<'a>>,
}

/// One rule of a rules file, for `events EVENT --json`.
#[derive(Serialize)]
struct RuleEntry<'a> {
    name: &'a str,
    /// Its rules file.
    file: &'a str,
    scope: &'static str,
    /// Its `tool:` (a class or a tool name pattern).
    tool: Option<&'a str>,
    #[serde(flatten)]
    rule: RuleView<'a>,
}

impl<'a> RuleEntry<'a> {
    fn of(hook: &'a HookSpec) -> Option<Self> {
        let rule = hook.rule()?;
        Some(Self {
            name: &hook.name,
            file: &hook.command,
            scope: rule.of.scope.as_str(),
            tool: crate::config::rules::tool_shown(hook),
            rule: RuleView::of(rule),
        })
    }
}

#[derive(Serialize)]
struct Names {
    hermes: Option<&'static str>,
    agent_hooks: &'static [&'static str],
    claude_code: Vec<&'static str>,
    /// Every other agent's names (`run --agent`).
    agents: AgentNames,
}

#[derive(Serialize)]
struct Can {
    config: Vec<&'static str>,
    agent_hooks: Vec<&'static str>,
    /// What a rule (rules.yaml) may do here.
    rules: Vec<&'static str>,
    /// Hermes refuses `config` hooks here (Python plugins only).
    config_refused: bool,
    /// Hermes fires the event for Python plugins only: only `hermes-hooks run` runs `config`
    /// hooks here.
    config_run_only: bool,
}

#[derive(Serialize)]
struct Payloads {
    config: String,
    agent_hooks: String,
}

#[derive(Serialize)]
struct AnswerLine {
    effect: &'static str,
    does: &'static str,
    /// The sources whose hooks may give this answer here.
    sources: Vec<&'static str>,
    /// The Hermes form.
    hermes: Answer,
    /// The Agent Hooks (and Claude Code) form.
    agent_hooks: Answer,
}

impl Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut out = serializer.serialize_struct("Answer", 3)?;
        out.serialize_field("exit", &self.exit)?;
        out.serialize_field("stdout", self.stdout)?;
        out.serialize_field("stderr", self.stderr)?;
        out.end()
    }
}

fn detail(
    global: &GlobalArgs,
    args: &EventsArgs,
    called: Resolved,
    printer: &Printer,
) -> Result<ExitStatus> {
    let event = called.event;
    let def = event.def();
    let cwd = shared::current_dir()?;
    let cwd = cwd.to_string_lossy();
    let payload = Payloads {
        config: sample::wire(called, Dialect::Hermes, &cwd),
        agent_hooks: sample::wire(called, sample::agent_dialect(called), &cwd),
    };
    let examples = answers::examples(event);
    // The rules files found: a file that cannot be read is `list`'s and `doctor`'s to report.
    let loaded = shared::load_unsaid(global, Some(event)).ok();
    let found: Vec<RuleEntry<'_>> = loaded
        .iter()
        .flat_map(|loaded| loaded.set.hooks.iter().filter_map(RuleEntry::of))
        .collect();
    if args.json {
        let detail = Detail {
            event: event.name(),
            called_as: args.event.as_deref().unwrap_or_default(),
            names: Names {
                hermes: def.canonical,
                agent_hooks: def.aliases,
                claude_code: event.claude_code_names(),
                agents: AgentNames(Agent::others_for(event)),
            },
            tool_matchers: event.is_tool_event(),
            can: Can {
                config: def.config.names(),
                agent_hooks: def.agent_hooks.names(),
                rules: crate::config::rules::actions_on(event),
                config_refused: def.plugin_only,
                config_run_only: def.plugin_fired,
            },
            payload,
            answers: examples.iter().map(answer_line).collect(),
            rule_example: crate::config::rules::example(event),
            rules: found,
        };
        printer.document(&detail)?;
        return Ok(ExitStatus::Success);
    }
    let mut screen = Screen::new(shared::color(global));
    heading(&mut screen, called);
    screen.blank().line("What hooks can do here");
    let [config, agent, rules] = what_hooks_can(event);
    let width = terminal_width();
    for (label, text) in [
        ("  config hooks       ", &config),
        ("  agent-hooks hooks  ", &agent),
        ("  rules              ", &rules),
    ] {
        screen
            .text(label)
            .wrapped(text, width, label.len(), &" ".repeat(label.len()));
    }
    for line in agent_extras(event) {
        screen.text("    ").wrapped(&line, width, 4, "      ");
    }
    screen.blank();
    stdin_sample(
        &mut screen,
        "What a config hook reads on stdin (one line, no newline at the end)",
        &payload.config,
        width,
    );
    screen.blank();
    stdin_sample(
        &mut screen,
        "What an agent-hooks hook reads on stdin (the timestamp is the time of the call)",
        &payload.agent_hooks,
        width,
    );
    screen.blank().wrapped(
        "How to answer (hermes-hooks reads either form; Hermes reads only its own):",
        width,
        0,
        "",
    );
    for example in &examples {
        answer_lines(&mut screen, example, width);
    }
    if let Some(rule) = crate::config::rules::example(event) {
        screen.blank().wrapped(
            "Or, with no script, a rule (in rules.yaml; `hermes-hooks new --rules` starts one):",
            width,
            0,
            "",
        );
        for line in rule.lines() {
            screen.line(format!("  {line}"));
        }
    }
    rules_here(&mut screen, &found, width);
    super::pager::show_stdout(args.pager, printer, &screen)?;
    Ok(ExitStatus::Success)
}
