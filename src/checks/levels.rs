//! Guards at one level, wiring at the other: the user's guards (config.yaml's hooks, the user's
//! Agent Hooks and rules) apply in every project, but only where the agent is wired. An agent
//! wired only in this project's settings runs them nowhere else; an agent on this machine
//! wired neither here nor in the user's settings runs none of them here; Hermes without the
//! plugin runs config.yaml's hooks and nothing else.

use super::wiring::Place;
use super::{Finding, Level};
use crate::agents::Agent;
use crate::agents::found::Found;
use crate::config::{HookSet, Scope, Source, SourceKind};

/// How many of the user's guards are named before "and N more".
const NAMED: usize = 3;

/// Where an agent guarded through a plugin module has it: the module file at the user's level
/// (true) or the project's (false), when it is there.
pub(crate) type ModuleAt<'a> = &'a dyn Fn(Agent, bool) -> Option<std::path::PathBuf>;

/// The findings for every agent `places` name (each agent's user and project settings
/// folders) and every agent guarded through a module (`module_at`), given the loaded `set`,
/// how each agent shows on this machine (`found`), and whether the Hermes plugin is installed.
pub(crate) fn check(
    places: &[Place],
    set: &HookSet,
    found: &dyn Fn(Agent) -> Option<Found>,
    (plugin, module_at): (bool, ModuleAt<'_>),
) -> Vec<Finding> {
    let guards = user_guards(set);
    if guards.is_empty() {
        return Vec::new();
    }
    let named = named(&guards);
    let mut findings = Vec::new();
    for agent in Agent::ALL {
        let Some(wiring) = agent.wiring() else {
            if !agent.is_hermes() {
                let (user, project) = (module_at(agent, true), module_at(agent, false));
                findings.extend(at_levels(agent, user, project, found, &named));
                continue;
            }
            // Hermes runs config.yaml's hooks itself; the rest only through the plugin.
            let beyond_config = set
                .hooks
                .iter()
                .any(|hook| hook.source.kind() != SourceKind::Config && !is_project(&hook.source));
            if !plugin
                && beyond_config
                && let Some(how) = found(agent)
            {
                findings.push(finding(
                    how.path(),
                    format!(
                        "Hermes is on this machine ({}) but the hermes-hooks plugin is not \
                         installed: the user's Agent Hooks and rules ({named}) do not run in it. \
                         `hermes-hooks install hermes` writes the plugin",
                        how.path().display()
                    ),
                ));
            }
            continue;
        };
        let wired_at = |user: bool| {
            places
                .iter()
                .filter(|place| place.agent == agent && place.user == user)
                .find_map(|place| wiring.wired_in(agent, &place.folder))
        };
        let (user, project) = (wired_at(true), wired_at(false));
        findings.extend(at_levels(agent, user, project, found, &named));
    }
    findings
}

/// What the agent's wiring at each level means for the user's guards (`named`): wired in the
/// user's settings (`user`, the file) is enough; wired only in the project's runs them only
/// here; wired nowhere, while the agent is on this machine, runs none of them.
fn at_levels(
    agent: Agent,
    user: Option<std::path::PathBuf>,
    project: Option<std::path::PathBuf>,
    found: &dyn Fn(Agent) -> Option<Found>,
    named: &str,
) -> Option<Finding> {
    let title = agent.title();
    let name = agent.name();
    match (user, project) {
        (Some(_), _) => None,
        (None, Some(file)) => Some(finding(
            &file,
            format!(
                "{title} is wired only in this project's settings ({}), while the user's guards \
                 ({named}) apply in every project: in any other project {title} runs without \
                 them. `hermes-hooks install {name}` wires it in the user's settings for every \
                 project (then `hermes-hooks uninstall {name} --project` keeps one wiring)",
                file.display(),
            ),
        )),
        (None, None) => found(agent).map(|how| {
            finding(
                how.path(),
                format!(
                    "{title} is on this machine ({}) but wired neither in the user's settings \
                     nor in this project's: the user's guards ({named}) do not run in it. \
                     `hermes-hooks install {name}` wires it for every project",
                    how.path().display(),
                ),
            )
        }),
    }
}

/// Whether a hook comes from the project (its Agent Hooks or its rules file).
fn is_project(source: &Source) -> bool {
    match source {
        Source::Config => false,
        Source::AgentHooks(hook) => hook.scope == Scope::Project,
        Source::Rules(rule) => rule.of.scope == Scope::Project,
    }
}

/// What the user's guards are, each once: a hook by its name, a rules file by its path.
fn user_guards(set: &HookSet) -> Vec<String> {
    let mut guards: Vec<String> = Vec::new();
    for hook in set.hooks.iter().filter(|hook| !is_project(&hook.source)) {
        let name = match &hook.source {
            Source::Rules(_) => hook.command.to_string(),
            _ => hook.name.to_string(),
        };
        if !guards.contains(&name) {
            guards.push(name);
        }
    }
    guards
}

/// The first few guards, and how many more.
fn named(guards: &[String]) -> String {
    let text = guards
        .iter()
        .take(NAMED)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    match guards.len().checked_sub(NAMED) {
        Some(more) if more > 0 => format!("{text} and {more} more"),
        _ => text,
    }
}

fn finding(at: &std::path::Path, message: String) -> Finding {
    Finding::file(Level::Warning, "wiring", at, message)
}
