//! How one event is shown to a person: its heading, what hooks can do there, the agent's extras,
//! the rules that stop calls there, and a sample payload with the answers it takes.

use super::{AnswerLine, RuleEntry};
use crate::agents::Agent;
use crate::authoring::answers::{Answer, Example};
use crate::config::Effects;
use crate::config::Event;
use crate::config::event::Resolved;
use crate::ground::text::wrap_words;
use crate::output::Screen;
use crate::output::table::{Tone, terminal_width};

/// The rules of the event in the rules files found, each with what it checks (the conditions on
/// one command of a shell call as such) and what it does.
pub(super) fn rules_here(screen: &mut Screen, rules: &[RuleEntry<'_>], width: Option<usize>) {
    const INDENT: &str = "                   ";
    if rules.is_empty() {
        return;
    }
    screen
        .blank()
        .line("Rules for this event in your rules files, in the order they are checked:");
    for entry in rules {
        let tool = entry
            .tool
            .map_or_else(String::new, |tool| format!(", tool {tool}"));
        screen.wrapped(
            &format!(
                "  {}  ({} rules, {}): {}{tool}",
                entry.name, entry.scope, entry.file, entry.rule.action
            ),
            width,
            0,
            "    ",
        );
        for (word, text) in entry.rule.lines() {
            screen
                .text(format_args!("    {:<15}", format!("{word}:")))
                .wrapped(&text, width, INDENT.len(), INDENT);
        }
        screen.text(format_args!("    {:<15}", "message:")).wrapped(
            entry.rule.message,
            width,
            INDENT.len(),
            INDENT,
        );
    }
}

/// What config hooks, Agent Hooks hooks and rules can do on `event`, in words.
pub(super) fn what_hooks_can(event: Event) -> [String; 3] {
    let def = event.def();
    let config = if def.plugin_only {
        "refused: Hermes takes this event from Python plugins only".to_owned()
    } else if def.plugin_fired {
        format!(
            "{}, but Hermes fires this event for Python plugins only and runs no config hook \
             here (only `hermes-hooks run` does)",
            def.config.names().join(", ")
        )
    } else if def.canonical.is_none() {
        "nothing: Hermes never fires this event (only `hermes-hooks run` does)".to_owned()
    } else if def.config.is_empty() {
        "nothing (Hermes reads no answer here)".to_owned()
    } else if def.config.contains(Effects::ASK) {
        format!(
            "{} (Hermes honours all but ask, which only hermes-hooks reads from a config hook)",
            def.config.names().join(", ")
        )
    } else {
        format!("{} (what Hermes honours)", def.config.names().join(", "))
    };
    let agent = match def.agent_hooks.names() {
        names if names.is_empty() => "nothing (observers only)".to_owned(),
        names => names.join(", "),
    };
    let rules = match crate::config::rules::actions_on(event) {
        actions if actions.is_empty() => "nothing".to_owned(),
        actions => actions.join(", "),
    };
    [config, agent, rules]
}

/// What Agent Hooks hooks may do on `event` beyond the table for the agents that read it: one
/// line per agent that allows more.
pub(super) fn agent_extras(event: Event) -> Vec<String> {
    Agent::ALL
        .into_iter()
        .flat_map(|agent| {
            agent
                .events()
                .iter()
                .filter(move |own| {
                    own.table
                        .and_then(|t| Event::parse(t).ok())
                        .map(|r| r.event)
                        == Some(event)
                })
                .map(move |own| (agent, own))
        })
        .filter_map(|(agent, own)| {
            let more = match (own.also.is_empty(), own.plain_text) {
                (true, false) => return None,
                (true, true) => "plain text on stdout is context".to_owned(),
                (false, plain) => format!(
                    "also {}{}",
                    own.also.names().join(", "),
                    if plain {
                        "; plain text on stdout is context"
                    } else {
                        ""
                    }
                ),
            };
            Some(format!("with {} ({}): {more}", agent.title(), own.name))
        })
        .collect()
}

/// The event's names and whether tool matchers apply.
pub(super) fn heading(screen: &mut Screen, called: Resolved) {
    let event = called.event;
    let mut names = Vec::new();
    let aliases = event.def().aliases;
    if !aliases.is_empty() {
        names.push(format!("Agent Hooks: {}", aliases.join(", ")));
    }
    for (agent, own) in Agent::others_for(event) {
        names.push(format!("{}: {}", agent.title(), own.join(", ")));
    }
    screen.paint(event.name(), Tone::Good).end();
    // Each agent's names on a line of their own, between words at the terminal's width.
    for line in &names {
        screen.text("  ").wrapped(line, terminal_width(), 2, "    ");
    }
    let mut notes = Vec::new();
    if event.is_tool_event() {
        notes.push(
            "Tool matchers apply: a config hook's `matcher`, a HOOK.md's `matcher.tool` and \
             `matcher.pattern`."
                .to_owned(),
        );
    }
    if let Some(failure) = event.failure_alias() {
        notes.push(format!(
            "Agent Hooks declared for '{failure}' run instead of the others when the call failed \
             (status \"error\"); config hooks run either way."
        ));
    }
    for note in notes {
        for line in wrap_words(&note, terminal_width()) {
            screen.line(line);
        }
    }
}

pub(super) fn answer_line(example: &Example) -> AnswerLine {
    AnswerLine {
        effect: example.effect,
        does: example.does,
        sources: sources(example),
        hermes: example.hermes,
        agent_hooks: example.agent_hooks,
    }
}

pub(super) fn sources(example: &Example) -> Vec<&'static str> {
    [(example.config, "config"), (example.agent, "agent-hooks")]
        .into_iter()
        .filter_map(|(can, name)| can.then_some(name))
        .collect()
}

/// A sample payload under its caption: on its one line where that fits, else laid out on lines
/// (it still arrives as one).
pub(super) fn stdin_sample(
    screen: &mut Screen,
    caption: &str,
    payload: &str,
    width: Option<usize>,
) {
    let fits = width.is_none_or(|width| payload.chars().count() <= width);
    let pretty = serde_json::from_str::<serde_json::Value>(payload)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .filter(|_| !fits);
    match pretty {
        Some(pretty) => {
            screen.wrapped(&format!("{caption}, laid out on lines here:"), width, 0, "");
            for line in pretty.lines() {
                screen.wrapped(line, width, 0, "    ");
            }
        }
        None => {
            screen
                .wrapped(&format!("{caption}:"), width, 0, "")
                .line(payload);
        }
    }
}

/// One effect: what it does, who may give it, and the two forms, each on its own line so a
/// line stays short enough for a terminal.
pub(super) fn answer_lines(screen: &mut Screen, example: &Example, width: Option<usize>) {
    const FORM: &str = "      ";
    let who = match sources(example).as_slice() {
        [one] => format!(" ({one} hooks only)"),
        _ => String::new(),
    };
    screen
        .text("  ")
        .paint(example.effect, Tone::Notice)
        .text(": ")
        .wrapped(
            &format!("{}{who}", example.does),
            width,
            4 + example.effect.len(),
            "    ",
        );
    if example.hermes == example.agent_hooks {
        screen
            .text(FORM)
            .wrapped(&how(example.hermes), width, FORM.len(), "        ");
        return;
    }
    screen.line("    Hermes form:");
    screen
        .text(FORM)
        .wrapped(&how(example.hermes), width, FORM.len(), "        ");
    screen.line("    Agent Hooks form:");
    screen
        .text(FORM)
        .wrapped(&how(example.agent_hooks), width, FORM.len(), "        ");
}

/// An answer in words: `exit 2, stderr: …` or `print {…}` or `exit 0, print nothing`.
pub(super) fn how(answer: Answer) -> String {
    match (answer.stdout, answer.stderr) {
        ("", "") => format!("exit {}, print nothing", answer.exit),
        (stdout, "") if answer.exit == 0 => format!("print {stdout}"),
        ("", stderr) => format!("exit {}, reason on stderr: {stderr}", answer.exit),
        (stdout, stderr) => format!("exit {}, print {stdout}, stderr: {stderr}", answer.exit),
    }
}
