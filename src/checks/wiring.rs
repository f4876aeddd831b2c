//! The wiring checks of `doctor`: every agent's user and project settings that call
//! `hermes-hooks run` (without the `--agent` their contract needs, for another agent, through a
//! program that is not there, for an event the agent does not have, with a timeout below the
//! hooks', events left out), every setting of a wired agent that switches its hooks off (in any
//! settings file it reads, its managed file included), and tool matchers that match no tool of
//! any wired agent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Finding, Level};
use crate::agents::settings::{self, Format, Handler, Layer, Route, Settings, Wiring};
use crate::agents::version::{self, Release};
use crate::agents::{Agent, AgentEvent};
use crate::config::{Event, HookSet, SourceKind};
use crate::engine::tool_classes::ToolClass;
use matchers::matchers;

mod matchers;

/// One place an agent may keep hook settings.
pub(crate) struct Place {
    /// The agent.
    pub agent: Agent,
    /// Its settings folder (user, or a project's).
    pub folder: PathBuf,
    /// Whether it is the user's folder.
    pub user: bool,
}

/// Where a bare program name is found on the search path (`which`).
pub(crate) type Lookup<'a> = &'a dyn Fn(&str) -> Option<std::path::PathBuf>;

/// Every wiring finding, then the tool-matcher warnings. Hermes counts as wired when config.yaml
/// declares hooks or the plugin is installed (`plugin`).
pub(crate) fn check(
    places: &[Place],
    set: &HookSet,
    on_path: Lookup<'_>,
    plugin: bool,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut wired: Vec<Agent> = Vec::new();
    let longest = settings::longest(set);
    for agent in Agent::ALL {
        let Some(wiring) = agent.wiring() else {
            continue;
        };
        let mut routed: HashMap<String, Vec<Routed>> = HashMap::new();
        let mut any = false;
        // Settings that switch the agent's hooks off: errors once the agent is wired at all.
        let mut silenced: Vec<Finding> = Vec::new();
        for place in places.iter().filter(|p| p.agent == agent) {
            let mut here = false;
            for file in wiring.files {
                let path = place.folder.join(file.name);
                if !path.exists() {
                    continue;
                }
                let handlers = match Settings::open(&path, file.format, None)
                    .map_err(|e| format!("{e:#}"))
                    .and_then(|s| {
                        for (line, message) in s.switched_off(wiring, Layer::Person) {
                            silenced.push(finding(Level::Error, &path, Some(line), message));
                        }
                        s.handlers(agent, wiring.shape)
                    }) {
                    Ok(handlers) => handlers,
                    Err(err) => {
                        // The finding names the file already; the refusal's text does too.
                        let prefix = format!("{}: ", path.display());
                        let why = err.strip_prefix(&prefix).unwrap_or(&err);
                        let why = why.strip_suffix("; it is left untouched").unwrap_or(why);
                        findings.push(finding(
                            Level::Warning,
                            &path,
                            None,
                            format!("{why}; {}'s wiring there is not checked", agent.title()),
                        ));
                        continue;
                    }
                };
                let mut binaries: Vec<String> = Vec::new();
                for handler in &handlers {
                    let Some(route) = settings::route(&handler.command) else {
                        continue;
                    };
                    any = true;
                    here = true;
                    if !binaries.contains(&route.binary) {
                        binaries.push(route.binary.clone());
                        if let Some((level, problem)) = binary_problem(&route.binary, on_path) {
                            let message =
                                format!("{} runs hermes-hooks as {problem}", agent.title());
                            findings.push(finding(level, &path, handler.line, message));
                        }
                    }
                    let at = handler.line;
                    let problems = judge(agent, handler, &route, &longest);
                    let fine = problems.iter().all(|(level, _)| *level != Level::Error);
                    for (level, message) in problems {
                        findings.push(finding(level, &path, at, message));
                    }
                    if fine && route.agent.as_deref() == Some(agent.name()) {
                        routed
                            .entry(handler.event.clone())
                            .or_default()
                            .push(Routed {
                                at: location(&path, at),
                                file: path.clone(),
                                user: place.user,
                            });
                    }
                }
            }
            for file in wiring.switch_files {
                // A name may climb out of the hooks folder (Copilot's `../copilot/`).
                let path = crate::ground::paths::normalized(&place.folder.join(file.name));
                silenced.extend(switches(wiring, &path, file.format, Layer::Person));
            }
            if here {
                needs_beyond_the_file(agent, wiring, place, &mut findings);
            }
        }
        silenced.extend(managed_switches(wiring));
        if any {
            wired.push(agent);
            // Switched off, the wiring is not "ok": the errors say why nothing runs.
            let off = !silenced.is_empty();
            findings.append(&mut silenced);
            let release = version::installed(agent);
            coverage(agent, places, &routed, (off, &release), &mut findings);
        }
    }
    if plugin
        || set
            .hooks
            .iter()
            .any(|h| h.source.kind() == SourceKind::Config)
    {
        wired.push(Agent::Hermes);
    }
    tools(set, places, &wired, &mut findings);
    findings
}

/// What the wired agents' tools leave unguarded: matchers that meet none of them, and a route to
/// the shell no hook sees.
fn tools(set: &HookSet, places: &[Place], wired: &[Agent], findings: &mut Vec<Finding>) {
    matchers(set, wired, findings);
    if wired.contains(&Agent::Codex) {
        findings.extend(codex_terminals(places, set));
    }
}

/// The errors for what switches the agent's hooks off in the settings file at `path` (none
/// when it does not exist or cannot be read: the agent reads nothing from it either).
fn switches(wiring: &Wiring, path: &Path, format: Format, layer: Layer) -> Vec<Finding> {
    if !path.is_file() {
        return Vec::new();
    }
    Settings::open(path, format, None)
        .map(|s| s.switched_off(wiring, layer))
        .unwrap_or_default()
        .into_iter()
        .map(|(line, message)| finding(Level::Error, path, Some(line), message))
        .collect()
}

/// What is wrong with one entry that calls `hermes-hooks run`.
fn judge(
    agent: Agent,
    handler: &Handler,
    route: &Route,
    longest: &HashMap<Event, Duration>,
) -> Vec<(Level, String)> {
    let mut problems = Vec::new();
    let key = &handler.event;
    match route.agent.as_deref() {
        None => problems.push((Level::Error, without_agent(agent, key))),
        Some(other) if other != agent.name() => problems.push((
            Level::Error,
            format!(
                "{key} runs `hermes-hooks run --agent {other}` in {}'s settings: the answer \
                 comes in another agent's form, which {} does not read; use --agent {}",
                agent.title(),
                agent.title(),
                agent.name()
            ),
        )),
        Some(_) => {}
    }
    let own = agent.events().iter().find(|e| e.name == key.as_str());
    if own.is_none() {
        problems.push((
            Level::Warning,
            format!(
                "{} has no event {key}: this entry never runs (stale wiring)",
                agent.title()
            ),
        ));
    }
    match route.event.as_deref() {
        None => problems.push((
            Level::Error,
            format!("{key} runs `hermes-hooks run` without an event"),
        )),
        Some(event) if route.agent.as_deref() == Some(agent.name()) => {
            if agent.resolve(event).is_err() {
                problems.push((
                    Level::Error,
                    format!(
                        "{key} runs hermes-hooks for the event {event}, which {} does not have: \
                         run refuses it and the call goes on unchecked (stale wiring)",
                        agent.title()
                    ),
                ));
            } else if event != key.as_str() && own.is_some() {
                problems.push((
                    Level::Warning,
                    format!(
                        "{key} runs hermes-hooks as {event}: the payload is read as the wrong event"
                    ),
                ));
            }
        }
        Some(_) => {}
    }
    if let (Some(timeout), Some(wiring), Some(table)) =
        (handler.timeout, agent.wiring(), own.and_then(|o| o.table))
    {
        let hooks = Event::parse(table)
            .ok()
            .and_then(|r| longest.get(&r.event).copied())
            .unwrap_or_default();
        if wiring.unit.duration(timeout) <= hooks {
            problems.push((
                Level::Warning,
                format!(
                    "{key}: the agent's timeout ({timeout}{}) is not above the longest hook \
                     timeout for it ({}s), so the agent may end a hook before it answers: run \
                     `hermes-hooks install {}` again",
                    wiring.unit.symbol(),
                    hooks.as_secs(),
                    agent.name()
                ),
            ));
        }
    }
    problems
}

/// The error for wiring without `--agent`: what the agent loses.
fn without_agent(agent: Agent, key: &str) -> String {
    let loss = if agent == Agent::Gemini {
        "Gemini reads JSON on stdout instead of the exit code, so a block printed as the Hermes \
         line lets the call run"
            .to_owned()
    } else {
        format!(
            "{} cannot read the Hermes line: rewrites and added context are lost",
            agent.title()
        )
    };
    format!(
        "{key} runs `hermes-hooks run` without --agent: {loss}; run `hermes-hooks install {}` \
         and remove this entry",
        agent.name()
    )
}

/// Why the program a command names cannot be started (an error), or is another install than
/// the `hermes-hooks` on PATH (a warning: after an upgrade, the agent still runs the old one).
fn binary_problem(binary: &str, on_path: Lookup<'_>) -> Option<(Level, String)> {
    if binary.contains('/') {
        let path = crate::ground::paths::expand_tilde(binary);
        let path = Path::new(path.as_ref());
        return match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => another_install(binary, path, on_path),
            _ => Some((
                Level::Error,
                format!(
                    "{binary}, which does not exist (stale wiring: the program moved?), so no \
                     hook runs there; run install again"
                ),
            )),
        };
    }
    on_path(binary).is_none().then(|| {
        (
            Level::Error,
            format!(
                "`{binary}`, which is not on PATH here, so the agent cannot start it and no \
                 hook runs there (if the agent runs with another PATH, check there)"
            ),
        )
    })
}

/// The warning for wiring that names a binary other than the one `hermes-hooks` on PATH runs
/// (through the npm launcher too), say an older install left behind by a new one.
fn another_install(binary: &str, path: &Path, on_path: Lookup<'_>) -> Option<(Level, String)> {
    let named = super::installed::binary_behind(path)?;
    let current = on_path("hermes-hooks")?;
    let runs = super::installed::binary_behind(&current)?;
    (named != runs).then(|| {
        (
            Level::Warning,
            format!(
                "{binary}, but the hermes-hooks on PATH runs {} (another install): the agent \
                 keeps running the one named here, whatever the other is upgraded to; run \
                 install again with the one you keep, or remove the other",
                runs.display()
            ),
        )
    })
}

/// One entry that routes an event of the agent to this tool.
struct Routed {
    /// `file:line`.
    at: String,
    file: PathBuf,
    /// In the user's settings (else a project's).
    user: bool,
}

/// Warns about events of `agent` no settings route, and events routed more than once.
fn coverage(
    agent: Agent,
    places: &[Place],
    routed: &HashMap<String, Vec<Routed>>,
    (switched_off, release): (bool, &Release),
    findings: &mut Vec<Finding>,
) {
    let missing: Vec<&str> = agent
        .events()
        .iter()
        .filter(|e| e.wired && release.takes(e) && !routed.contains_key(e.name))
        .map(|e| e.name)
        .collect();
    // Where the wiring is: the files that route an event, not every folder looked in (a
    // project's `.claude` that does not exist, or holds no hook, is not wired).
    let mut files: Vec<String> = Vec::new();
    for routed in routed.values().flatten() {
        let file = routed.file.display().to_string();
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files.sort();
    if files.is_empty() {
        files = places
            .iter()
            .filter(|p| p.agent == agent && p.folder.is_dir())
            .map(|p| p.folder.display().to_string())
            .collect();
    }
    let at = files.join(", ");
    if missing.is_empty() {
        // Switched off, nothing runs: the errors before this say what to remove.
        if !switched_off {
            findings.push(Finding::file(
                Level::Ok,
                "wiring",
                Path::new(&at),
                format!(
                    "{} is wired to hermes-hooks for every event it has a counterpart of",
                    agent.title()
                ),
            ));
        }
    } else {
        findings.push(Finding::file(
            Level::Warning,
            "wiring",
            Path::new(&at),
            format!(
                "{} is wired to hermes-hooks, but not for {}: hooks for those never run there; \
                 `hermes-hooks install {}` wires them",
                agent.title(),
                missing.join(", "),
                agent.name()
            ),
        ));
    }
    if let Some(twice) = twice(agent, routed) {
        findings.push(twice);
    }
    findings.extend(releases(agent, routed, release, &at));
}

/// What the installed release of `agent` changes: an event routed that it does not take (it
/// warns about the settings at every start), and the events a newer release would add.
fn releases(
    agent: Agent,
    routed: &HashMap<String, Vec<Routed>>,
    release: &Release,
    at: &str,
) -> Vec<Finding> {
    let later: Vec<&AgentEvent> = agent
        .events()
        .iter()
        .filter(|e| e.wired && !release.takes(e))
        .collect();
    let title = agent.title();
    let shown = release.shown();
    let mut findings = Vec::new();
    let rejected: Vec<&str> = later
        .iter()
        .filter(|e| routed.contains_key(e.name))
        .map(|e| e.name)
        .collect();
    if !rejected.is_empty() {
        findings.push(Finding::file(
            Level::Warning,
            "wiring",
            Path::new(at),
            format!(
                "{title} {shown} does not take {} in its settings, and says so at every start: \
                 `hermes-hooks install {}` again takes {} out",
                rejected.join(", "),
                agent.name(),
                if rejected.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
    let newer: Vec<String> = later
        .iter()
        .filter(|e| !routed.contains_key(e.name))
        .filter_map(|e| Some(format!("{} from {}", e.name, e.since?)))
        .collect();
    if !newer.is_empty() {
        findings.push(Finding::file(
            Level::Note,
            "wiring",
            Path::new(at),
            format!(
                "{title} {shown} has no {}; after an upgrade, `hermes-hooks install {}` again \
                 wires {}",
                newer.join(", "),
                agent.name(),
                if newer.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
    findings
}

/// The settings of the agent's managed files that switch its hooks off (each file once).
fn managed_switches(wiring: &Wiring) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut managed: Vec<PathBuf> = Vec::new();
    for file in wiring.managed {
        let path = file.resolve();
        if !managed.contains(&path) {
            found.extend(switches(wiring, &path, file.format, Layer::Managed));
            managed.push(path);
        }
    }
    found
}

/// What the agent needs beyond its wired settings file (trusting a project's hooks, switching
/// them on), as `install` said it: a note, so a person who finds the wiring sound knows the rest.
fn needs_beyond_the_file(
    agent: Agent,
    wiring: &Wiring,
    place: &Place,
    findings: &mut Vec<Finding>,
) {
    let scope = if place.user {
        settings::Scope::User
    } else {
        settings::Scope::Project(place.folder.clone())
    };
    let needs = wiring.needs(&scope);
    if needs.is_empty() {
        return;
    }
    findings.push(Finding::file(
        Level::Note,
        "wiring",
        &place.folder,
        format!("{} also needs: {}", agent.title(), needs.join("; ")),
    ));
}

/// Codex lets the model type into a terminal it opened (`exec_command` with `tty: true`, then
/// `write_stdin`), and no hook sees what is typed: where a hook watches Codex's shell calls,
/// that route is a warning, unless a Codex `config.toml` switches terminals off
/// (`[features] unified_exec_tty = false`), which is then said.
fn codex_terminals(places: &[Place], set: &HookSet) -> Option<Finding> {
    let watched = set.hooks.iter().any(|hook| {
        hook.event.name() == "pre_tool_call"
            && hook.matcher.as_ref().is_none_or(|matcher| {
                matcher.matches(Some("Bash"))
                    || (hook.agent().is_some() && matcher.matches(Some(ToolClass::Shell.as_str())))
            })
    });
    if !watched {
        return None;
    }
    let files: Vec<PathBuf> = places
        .iter()
        .filter(|p| p.agent == Agent::Codex)
        .map(|p| p.folder.join("config.toml"))
        .collect();
    if let Some(off) = files.iter().find(|file| terminals_off(file)) {
        return Some(Finding::file(
            Level::Ok,
            "wiring",
            off,
            "Codex's terminals are off (unified_exec_tty = false): every shell command it runs \
             reaches the hooks as Bash"
                .to_owned(),
        ));
    }
    let at: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    Some(Finding::file(
        Level::Warning,
        "wiring",
        Path::new(&at.join(", ")),
        "Codex lets the model type commands into a terminal it opened (exec_command with tty, \
         then write_stdin), and no hook sees what is typed there, so a shell guard does not see \
         those commands; hermes-hooks blocks the call that opens one while a guard watches, \
         when Codex's transcript can be read (not with --ephemeral). `[features]` \
         `unified_exec_tty = false` in Codex's config.toml closes the route in Codex itself"
            .to_owned(),
    ))
}

/// Whether a Codex `config.toml` says `[features] unified_exec_tty = false`.
fn terminals_off(file: &Path) -> bool {
    let Ok(bytes) = crate::ground::limits::read(file, 4 * 1024 * 1024) else {
        return false;
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return false;
    };
    text.parse::<toml_edit::DocumentMut>().is_ok_and(|doc| {
        doc.get("features")
            .and_then(|features| features.get("unified_exec_tty"))
            .and_then(toml_edit::Item::as_bool)
            == Some(false)
    })
}

/// One warning for every event routed more than once: at both levels (the command that removes
/// one wiring), or within one level (the entries to remove).
fn twice(agent: Agent, routed: &HashMap<String, Vec<Routed>>) -> Option<Finding> {
    let mut events: Vec<&str> = routed
        .iter()
        .filter(|(_, r)| r.len() > 1)
        .map(|(event, _)| event.as_str())
        .collect();
    if events.is_empty() {
        return None;
    }
    events.sort_by_key(|name| agent.events().iter().position(|e| e.name == *name));
    let entries: Vec<&Routed> = events.iter().flat_map(|e| &routed[*e]).collect();
    let mut files: Vec<&Path> = Vec::new();
    for entry in &entries {
        if !files.contains(&entry.file.as_path()) {
            files.push(&entry.file);
        }
    }
    let title = agent.title();
    let both = entries.iter().any(|r| r.user) && entries.iter().any(|r| !r.user);
    let (at, message) = if both {
        let of = |user: bool| {
            entries
                .iter()
                .find(|r| r.user == user)
                .map(|r| r.file.display().to_string())
                .unwrap_or_default()
        };
        (
            format!("{}, {}", of(true), of(false)),
            format!(
                "{title} is wired to hermes-hooks in the user's settings and in the project's: \
                 every hook runs twice on each call ({}); keep one: `hermes-hooks uninstall {} \
                 --user` removes the user's wiring (`--project` the project's)",
                events.join(", "),
                agent.name()
            ),
        )
    } else {
        let lines: Vec<&str> = entries.iter().map(|r| r.at.as_str()).collect();
        (
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            format!(
                "{title} runs hermes-hooks more than once on {}: every hook runs more than once \
                 on each call; remove the extra entries ({})",
                events.join(", "),
                lines.join(", ")
            ),
        )
    };
    Some(Finding::file(
        Level::Warning,
        "wiring",
        Path::new(&at),
        message,
    ))
}

fn location(path: &Path, line: Option<usize>) -> String {
    match line {
        Some(line) => format!("{}:{line}", path.display()),
        None => path.display().to_string(),
    }
}

fn finding(level: Level, path: &Path, line: Option<usize>, message: String) -> Finding {
    Finding {
        level,
        check: "wiring",
        event: None,
        hook: None,
        source: None,
        at: location(path, line),
        message,
        diff: None,
        awaits_approval: false,
    }
}
