//! Editing the entries that call this tool, and only those: adding, updating and removing one
//! event's entry in place (the rest of the file keeps its bytes), and planning what `install`
//! and `uninstall` do to each of an agent's events.

use std::path::Path;

use anyhow::Result;
use serde_json::{Map, Value};

use super::read::{Doc, Handler, Settings, refusal};
use super::route::route;
use super::{IfMissing, Shape, Wiring, json, wired_command};
use crate::agents::{Agent, AgentEvent};

impl Settings {
    /// Adds `entry` to the list of `event` (made, with `hooks`, when missing; a new file gets
    /// `new_file`'s keys first).
    pub(crate) fn add(
        &mut self,
        event: &str,
        entry: &Value,
        new_file: &[(&str, i64)],
    ) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml.add(event, entry).map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                if self.before.is_none() {
                    for (key, value) in new_file {
                        json_edit(text, comments, &path, |text, root, style| {
                            (root.get(key).is_none()).then(|| {
                                json::add_member(text, root, key, &Value::from(*value), style)
                            })
                        })?;
                    }
                }
                json_edit(text, comments, &path, |text, root, style| {
                    root.get("hooks").is_none().then(|| {
                        json::add_member(text, root, "hooks", &Value::Object(Map::new()), style)
                    })
                })?;
                let mut wrong = None;
                json_edit(text, comments, &path, |text, root, style| {
                    let hooks = root.get("hooks")?;
                    match hooks.get(event) {
                        None => Some(json::add_member(
                            text,
                            hooks,
                            event,
                            &Value::Array(vec![entry.clone()]),
                            style,
                        )),
                        Some(list) if list.elements().is_some() => {
                            Some(json::add_element(text, list, entry, style))
                        }
                        Some(other) => {
                            wrong =
                                Some((other.kind_name(), json::line_column(text, other.start).0));
                            None
                        }
                    }
                })?;
                match wrong {
                    Some((kind, line)) => Err(refusal(
                        &path,
                        format!("line {line}: `hooks.{event}` is {kind}, not a list"),
                    )),
                    None => Ok(()),
                }
            }
        }
    }

    /// Sets the command and timeout of the handler of group `group` of `event` (one written as
    /// install writes it).
    pub(crate) fn update(
        &mut self,
        event: &str,
        group: usize,
        command: &str,
        timeout: u64,
        shape: Shape,
    ) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml
                .update(event, group, command, timeout)
                .map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                for (key, value) in [
                    (shape.command_key(), Value::from(command)),
                    (shape.timeout_key(), Value::from(timeout)),
                ] {
                    json_edit(text, comments, &path, |text, root, style| {
                        let entry = root.get("hooks")?.get(event)?.elements()?.get(group)?;
                        let handler = match shape {
                            Shape::Grouped => entry.get("hooks")?.elements()?.first()?,
                            Shape::Flat | Shape::Typed => entry,
                        };
                        Some(json::replace(text, handler.get(key)?, &value, style))
                    })?;
                }
                Ok(())
            }
        }
    }

    /// Removes group `group` of `event`; the event's key goes when its list is left empty, and
    /// `hooks` when it is left empty.
    pub(crate) fn remove(&mut self, event: &str, group: usize) -> Result<()> {
        let path = self.path.clone();
        match &mut self.doc {
            Doc::Toml(toml) => toml.remove(event, group).map_err(|e| refusal(&path, e)),
            Doc::Json { text, comments } => {
                let comments = *comments;
                json_edit(text, comments, &path, |_, root, _| {
                    let list = root.get("hooks")?.get(event)?;
                    (group < list.elements()?.len()).then(|| json::remove_element(list, group))
                })?;
                json_edit(text, comments, &path, |_, root, _| {
                    let hooks = root.get("hooks")?;
                    let index = hooks.members()?.iter().position(|m| m.key == event)?;
                    let empty = hooks.members()?[index].value.elements()?.is_empty();
                    empty.then(|| json::remove_member(hooks, index))
                })?;
                json_edit(text, comments, &path, |_, root, _| {
                    let index = root.members()?.iter().position(|m| m.key == "hooks")?;
                    let empty = root.members()?[index].value.members()?.is_empty();
                    empty.then(|| json::remove_member(root, index))
                })
            }
        }
    }
}

/// Applies the splice `change` computes from the parsed `text`, when it computes one.
fn json_edit(
    text: &mut String,
    comments: bool,
    path: &Path,
    change: impl FnOnce(&str, &json::Node, &json::Style) -> Option<json::Splice>,
) -> Result<()> {
    let root = json::parse(text, comments).map_err(|e| refusal(path, e))?;
    let style = json::Style::of(text);
    if let Some(splice) = change(text, &root, &style) {
        *text = splice.apply(text);
    }
    Ok(())
}

/// What install or uninstall did to one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// An entry was added.
    Added,
    /// The entry install wrote got a new command or timeout.
    Updated,
    /// The entry is as it should be.
    Unchanged,
    /// The entry install wrote was removed.
    Removed,
    /// An entry for it was written by hand: left as it is.
    LeftAsWritten,
    /// The installed release of the agent does not take it: not written.
    LeftOut,
}

impl Action {
    /// Its name in output.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Updated => "updated",
            Self::Unchanged => "unchanged",
            Self::Removed => "removed",
            Self::LeftAsWritten => "left as written",
            Self::LeftOut => "left out",
        }
    }
}

/// The result of planning an edit: what happens to each event, and what to warn about.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Each event touched or looked at, in the agent's order.
    pub events: Vec<(String, Action)>,
    /// Things a person should know (entries left as written, wiring without `--agent`).
    pub warnings: Vec<String>,
}

/// Wires every event of `agent` that has a counterpart here into `settings`: `binary` names
/// the program, `timeout` gives the agent's timeout for each event (in its unit), and `takes`
/// says which events the installed release of the agent takes (the others are left out).
/// Entries install wrote for events it no longer routes, or the release does not take, are
/// removed.
pub(crate) fn install(
    settings: &mut Settings,
    agent: Agent,
    wiring: &Wiring,
    (binary, if_missing): (&str, IfMissing),
    timeout: impl Fn(&AgentEvent) -> u64,
    takes: &dyn Fn(&AgentEvent) -> bool,
) -> Result<Plan> {
    let handlers = settings
        .handlers(agent, wiring.shape)
        .map_err(|e| refusal(&settings.path, e))?;
    let mut plan = Plan::default();
    routed_elsewhere(&handlers, agent, &mut plan);
    for own in agent.events().iter().filter(|e| e.wired) {
        if !takes(own) {
            plan.events.push((own.name.to_owned(), Action::LeftOut));
            continue;
        }
        let want_command = wired_command(binary, agent, own, if_missing);
        let want_timeout = timeout(own);
        let ours: Vec<&Handler> = handlers
            .iter()
            .filter(|h| h.ours && h.event == own.name)
            .collect();
        let by_hand = handlers.iter().any(|h| {
            !h.ours
                && h.event == own.name
                && route(&h.command).is_some_and(|r| {
                    r.agent.as_deref() == Some(agent.name()) && r.event.as_deref() == Some(own.name)
                })
        });
        let action = match ours.first() {
            Some(first) if first.command == want_command && first.timeout == Some(want_timeout) => {
                Action::Unchanged
            }
            Some(first) => {
                settings.update(
                    own.name,
                    first.group,
                    &want_command,
                    want_timeout,
                    wiring.shape,
                )?;
                Action::Updated
            }
            None if by_hand => {
                plan.warnings.push(format!(
                    "{}: an entry for {} calling hermes-hooks was written by hand; it is left as \
                     it is",
                    settings.path.display(),
                    own.name
                ));
                Action::LeftAsWritten
            }
            None => {
                settings.add(
                    own.name,
                    &wiring.entry(&want_command, want_timeout),
                    wiring.new_file,
                )?;
                Action::Added
            }
        };
        if ours.len() > 1 || (!ours.is_empty() && by_hand) {
            plan.warnings.push(format!(
                "{}: {} calls hermes-hooks more than once, so every hook runs more than once there",
                settings.path.display(),
                own.name
            ));
        }
        plan.events.push((own.name.to_owned(), action));
    }
    // Entries install wrote under a name it no longer routes (an event the agent dropped, or one
    // the installed release does not take).
    let routed = |name: &str| {
        agent
            .events()
            .iter()
            .any(|e| e.name == name && e.wired && takes(e))
    };
    let mut stale: Vec<&Handler> = handlers
        .iter()
        .filter(|h| h.ours && !routed(&h.event))
        .collect();
    stale.sort_by(|a, b| (&b.event, b.group).cmp(&(&a.event, a.group)));
    for handler in stale {
        settings.remove(&handler.event, handler.group)?;
        plan.events.push((handler.event.clone(), Action::Removed));
    }
    Ok(plan)
}

/// Warns about entries that call `hermes-hooks run` for this file's agent in a form it cannot
/// read (no `--agent`, or another agent's).
fn routed_elsewhere(handlers: &[Handler], agent: Agent, plan: &mut Plan) {
    for handler in handlers {
        let Some(route) = route(&handler.command) else {
            continue;
        };
        match route.agent.as_deref() {
            None => plan.warnings.push(format!(
                "{} runs `hermes-hooks run` without --agent, so {} gets Hermes's answer: remove \
                 that entry (`hermes-hooks doctor` reports it as an error)",
                handler.event,
                agent.title()
            )),
            Some(other) if other != agent.name() => plan.warnings.push(format!(
                "{} runs `hermes-hooks run --agent {other}` in {}'s settings: remove that entry",
                handler.event,
                agent.title()
            )),
            Some(_) => {}
        }
    }
}

/// Removes every entry install wrote for `agent` from `settings`; entries that call
/// `hermes-hooks run --agent <agent>` but were changed by hand are left, with a warning.
pub(crate) fn uninstall(settings: &mut Settings, agent: Agent, wiring: &Wiring) -> Result<Plan> {
    let handlers = settings
        .handlers(agent, wiring.shape)
        .map_err(|e| refusal(&settings.path, e))?;
    let mut plan = Plan::default();
    let mut ours: Vec<&Handler> = handlers.iter().filter(|h| h.ours).collect();
    // Last first, so the indices of the ones still to go stay true.
    ours.sort_by(|a, b| (&b.event, b.group).cmp(&(&a.event, a.group)));
    for handler in &ours {
        settings.remove(&handler.event, handler.group)?;
    }
    for own in agent.events() {
        if ours.iter().any(|h| h.event == own.name) {
            plan.events.push((own.name.to_owned(), Action::Removed));
        }
    }
    for handler in ours
        .iter()
        .filter(|h| !agent.events().iter().any(|e| e.name == h.event))
    {
        plan.events.push((handler.event.clone(), Action::Removed));
    }
    for handler in handlers.iter().filter(|h| !h.ours) {
        if route(&handler.command).is_some_and(|r| r.agent.as_deref() == Some(agent.name())) {
            plan.events
                .push((handler.event.clone(), Action::LeftAsWritten));
            plan.warnings.push(format!(
                "{}{}: the entry for {} was changed by hand (`{}`); it is left as it is: remove \
                 it yourself if it should go",
                settings.path.display(),
                handler.line.map(|l| format!(":{l}")).unwrap_or_default(),
                handler.event,
                handler.command
            ));
        }
    }
    Ok(plan)
}
