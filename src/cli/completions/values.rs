//! The values completion offers where the command line has no fixed set: event names, rule packs
//! (several joined by commas), and the hooks `approve` and `revoke` take, read from the hook set only while completing. A hook set that
//! cannot be read completes nothing; completion itself never fails.

use std::ffi::{OsStr, OsString};

use clap::FromArgMatches as _;
use clap_complete::engine::CompletionCandidate;

use crate::agents::Agent;
use crate::cli::GlobalArgs;
use crate::config::Event;

/// Event names starting with `current`: the canonical names first; the other spellings (Agent
/// Hooks, Claude Code and the other agents' names) only when no canonical name starts so, or the
/// word has a `-` (it is being written in Agent Hooks spelling).
pub(super) fn events(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(typed) = current.to_str() else {
        return Vec::new();
    };
    let mut names: Vec<&'static str> = Event::all()
        .map(Event::name)
        .filter(|name| name.starts_with(typed))
        .collect();
    if names.is_empty() || typed.contains('-') {
        let agents = Agent::ALL
            .iter()
            .flat_map(|agent| agent.events())
            .filter(|own| own.table.is_some())
            .map(|own| own.name);
        for name in Event::names().chain(agents) {
            if name.starts_with(typed) && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// `new --rules`: `all`, or the pack names after the last comma that are not typed yet (each
/// offered with the names before it, so the shell keeps them).
pub(super) fn packs(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(typed) = current.to_str() else {
        return Vec::new();
    };
    let (before, last) = typed.rsplit_once(',').map_or(("", typed), |(b, l)| (b, l));
    let named: Vec<&str> = before.split(',').collect();
    let mut offered: Vec<CompletionCandidate> = crate::engine::rules::packs::PACKS
        .iter()
        .filter(|pack| pack.name.starts_with(last) && !named.contains(&pack.name))
        .map(|pack| {
            let word = if before.is_empty() {
                pack.name.to_owned()
            } else {
                format!("{before},{}", pack.name)
            };
            CompletionCandidate::new(word).help(Some(pack.about.into()))
        })
        .collect();
    if before.is_empty() && super::super::new_rules::ALL.starts_with(last) {
        offered.insert(
            0,
            CompletionCandidate::new(super::super::new_rules::ALL)
                .help(Some("every shipped pack".into())),
        );
    }
    offered
}

/// The agent named by `--agent X` (or `--agent=X`) among the words typed, when it is one.
pub(super) fn typed_agent(typed: &[OsString]) -> Option<Agent> {
    let words: Vec<&str> = typed.iter().filter_map(|word| word.to_str()).collect();
    let named = words.iter().enumerate().rev().find_map(|(at, word)| {
        word.strip_prefix("--agent=").or_else(|| {
            (*word == "--agent")
                .then(|| words.get(at + 1).copied())
                .flatten()
        })
    })?;
    named.parse().ok()
}

/// `agent`'s own event names starting with `current`, in its order (for `run --agent X`).
pub(super) fn agent_events(agent: Agent, current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(typed) = current.to_str() else {
        return Vec::new();
    };
    if agent.is_hermes() {
        return events(current);
    }
    agent
        .events()
        .iter()
        .map(|own| own.name)
        .filter(|name| name.starts_with(typed))
        .map(CompletionCandidate::new)
        .collect()
}

/// The hooks starting with `current` by the name `list` shows: a config hook's command, an
/// Agent Hooks hook's name; with `approved`, also every command the allowlist holds (what
/// `revoke` takes). Never a word that begins with `-`.
pub(super) fn hooks(
    global: &GlobalArgs,
    current: &OsStr,
    approved: bool,
) -> Vec<CompletionCandidate> {
    let Some(typed) = current.to_str() else {
        return Vec::new();
    };
    let Ok(paths) = global.paths() else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    if let Ok(set) = crate::config::load(crate::dispatch::load_options(&paths, None)) {
        for hook in &set.hooks {
            let name = if hook.agent().is_some() {
                &hook.name
            } else {
                &hook.command
            };
            names.push(name.to_string());
        }
    }
    let allowlist = approved.then(|| crate::consent::store::read(&paths.allowlist));
    if let Some(Ok(Some(list))) = allowlist {
        let commands = list
            .entries()
            .filter_map(|entry| entry.get("command")?.as_str());
        names.extend(commands.map(str::to_owned));
    }
    let mut offered: Vec<String> = Vec::new();
    for name in names {
        // A word that begins with `-` is read as an option (`--yes` approves every hook): never
        // offered, whatever a file names (such a hook does not load, an allowlist may hold one).
        if name.starts_with('-') {
            continue;
        }
        if name.starts_with(typed) && !offered.contains(&name) {
            offered.push(name);
        }
    }
    offered.into_iter().map(CompletionCandidate::new).collect()
}

/// The global flags among the words typed before the one completed (`--hermes-home`,
/// `--project`...), so completion reads the hooks the finished command will; the defaults where
/// the words cannot be read (`None` if not even those can).
pub(super) fn typed_globals(typed: &[OsString]) -> Option<GlobalArgs> {
    let read = |words: &[OsString]| {
        let matches = crate::cli::command()
            .ignore_errors(true)
            .try_get_matches_from(words)
            .ok()?;
        GlobalArgs::from_arg_matches(&matches).ok()
    };
    read(typed).or_else(|| read(&[OsString::from("hermes-hooks")]))
}
