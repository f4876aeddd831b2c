//! The agents whose hook contracts `run --agent` speaks: one file per agent with its event names,
//! its tool names (each in a tool class), how its payload differs and how it wants an answer.
//! The engine never asks which agent called: a caller reads the agent's input here, runs the
//! event as usual, and renders the one directive in the agent's own shape.

mod claude_code;
mod claude_like;
mod cline;
mod codex;
mod codex_tty;
mod contract;
mod copilot;
mod cursor;
mod droid;
pub(crate) mod found;
mod gemini;
mod hermes;
pub(crate) mod module;
mod opencode;
mod pi;
pub(crate) mod plugin;
mod qwen;
pub(crate) mod settings;
mod shell_text;
mod switches;
pub(crate) mod version;

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

use crate::config::Event;
use crate::config::event::Resolved;
use crate::config::event::UnknownEvent;
use crate::engine::response::{Directive, ask_as_block};
use crate::engine::tool_classes::{ToolClass, ToolClasses};
use crate::ground::exit::ExitStatus;

pub(crate) use codex_tty::{BLOCKED as UNSEEN_TERMINAL, opens_unseen_terminal};
pub use contract::{AgentEvent, Rendered, Reply};
pub(crate) use contract::{Contract, copy_if_absent, event, hook_specific, unmatched};
use contract::{PLAIN, closest, common_normalise, with_reason};
pub(crate) use shell_text::{Exposed, restore};

/// An agent that fires hooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Agent {
    /// Hermes: the event table's own names, and the Hermes answer line (the default).
    #[default]
    Hermes,
    /// Claude Code.
    ClaudeCode,
    /// The Codex command-line agent.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
    /// Cursor.
    Cursor,
    /// GitHub Copilot CLI.
    Copilot,
    /// Factory Droid.
    Droid,
    /// Qwen Code.
    Qwen,
    /// OpenCode, through the plugin this binary ships.
    OpenCode,
    /// Kilo Code, OpenCode's fork, through the same plugin.
    Kilo,
    /// Pi, through the extension this binary ships.
    Pi,
    /// Cline, through its hook files.
    Cline,
}

/// Each agent's contract, in the order of the enum (and of [`Agent::ALL`]). One table that
/// every caller reads: written as a `match`, the compiler made a table of twelve addresses
/// wherever `contract` was inlined, and the loader relocated each copy at every start (about
/// 1,400 of the binary's 7,900 relocations).
static CONTRACTS: [&Contract; Agent::ALL.len()] = [
    &hermes::CONTRACT,
    &claude_code::CONTRACT,
    &codex::CONTRACT,
    &gemini::CONTRACT,
    &cursor::CONTRACT,
    &copilot::CONTRACT,
    &droid::CONTRACT,
    &qwen::CONTRACT,
    &opencode::OPENCODE,
    &opencode::KILO,
    &pi::CONTRACT,
    &cline::CONTRACT,
];

impl Agent {
    /// Every agent, Hermes first.
    pub const ALL: [Self; 12] = [
        Self::Hermes,
        Self::ClaudeCode,
        Self::Codex,
        Self::Gemini,
        Self::Cursor,
        Self::Copilot,
        Self::Droid,
        Self::Qwen,
        Self::OpenCode,
        Self::Kilo,
        Self::Pi,
        Self::Cline,
    ];

    /// The agent's contract.
    pub(crate) fn contract(self) -> &'static Contract {
        CONTRACTS[self as usize]
    }

    /// The name on the command line (`claude-code`).
    pub fn name(self) -> &'static str {
        self.contract().name
    }

    /// The environment variable in which the agent names its project directory for a hook
    /// (the directory it was started in, which the model's `cd` does not move).
    pub(crate) fn project_env(self) -> Option<&'static str> {
        match self {
            Self::ClaudeCode => Some(crate::ground::env::CLAUDE_PROJECT_DIR),
            Self::Gemini => Some(crate::ground::env::GEMINI_PROJECT_DIR),
            Self::Copilot => Some(crate::ground::env::COPILOT_PROJECT_DIR),
            Self::Droid => Some(crate::ground::env::FACTORY_PROJECT_DIR),
            Self::Qwen => Some(crate::ground::env::QWEN_PROJECT_DIR),
            Self::Hermes
            | Self::Codex
            | Self::Cursor
            | Self::OpenCode
            | Self::Kilo
            | Self::Pi
            | Self::Cline => None,
        }
    }

    /// The agent runs its hooks in the session's directory, which is its project, whatever the
    /// payload's `cwd` says: Codex reports a command's `workdir` as the payload's `cwd`, and sets
    /// no project variable (docs/agents.md).
    pub(crate) const fn runs_hooks_in_project(self) -> bool {
        matches!(self, Self::Codex)
    }

    /// Whether the agent fires some event more than once per turn (so its payload is read
    /// before anything else, to see whether this call is a repeat).
    pub(crate) const fn may_repeat_turns(self) -> bool {
        matches!(self, Self::Qwen)
    }

    /// Whether this call of the agent's event repeats one already answered in the same turn
    /// (Qwen Code fires `UserPromptSubmit` before every model call): no hook runs for it.
    pub(crate) fn repeats_turn(self, event: &str, input: &Map<String, Value>) -> bool {
        match self {
            Self::Qwen => qwen::repeats_turn(event, input),
            _ => false,
        }
    }

    /// The project directory the agent names in the payload itself (Cursor's first workspace
    /// root), with what named it.
    pub(crate) fn project_in(self, input: &Map<String, Value>) -> Option<(PathBuf, &'static str)> {
        match self {
            Self::Cursor => input
                .get("workspace_roots")
                .and_then(Value::as_array)
                .and_then(|roots| roots.first())
                .and_then(Value::as_str)
                .filter(|root| !root.is_empty())
                .map(|root| (PathBuf::from(root), "workspace_roots")),
            Self::Cline => input
                .get("workspaceRoots")
                .and_then(Value::as_array)
                .and_then(|roots| roots.first())
                .and_then(Value::as_str)
                .filter(|root| !root.is_empty())
                .map(|root| (PathBuf::from(root), "workspaceRoots")),
            _ => None,
        }
    }

    /// The key of the agent's answer whose text the agent shows to the person (not the model),
    /// on every event; `None` where it has none.
    pub(crate) fn notice_key(self) -> Option<&'static str> {
        match self {
            Self::ClaudeCode | Self::Codex | Self::Gemini | Self::Droid | Self::Qwen => {
                Some("systemMessage")
            }
            Self::Hermes
            | Self::Cursor
            | Self::Copilot
            | Self::OpenCode
            | Self::Kilo
            | Self::Pi
            | Self::Cline => None,
        }
    }

    /// `rendered` with `notice` for the person added where the agent shows it (see
    /// [`Self::notice_key`]): into its JSON answer, or as the whole answer where it would have
    /// printed nothing. An answer that is not a JSON object (a block by exit code, plain text
    /// context) is left as it is; the notice is on stderr anyway.
    pub(crate) fn with_notice(self, mut rendered: Rendered, notice: &str) -> Rendered {
        let Some(key) = self.notice_key() else {
            return rendered;
        };
        let mut object = match rendered.stdout.as_deref() {
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(object)) => object,
                _ => return rendered,
            },
            None if rendered.exit == ExitStatus::Success => Map::new(),
            None => return rendered,
        };
        let text = match object.get(key).and_then(Value::as_str) {
            Some(before) if !before.is_empty() => format!("{before}\n{notice}"),
            _ => notice.to_owned(),
        };
        object.insert(key.to_owned(), Value::from(text));
        rendered.stdout = Some(Value::Object(object).to_string());
        rendered
    }

    /// The name people know it by (`Claude Code`).
    pub fn title(self) -> &'static str {
        self.contract().title
    }

    /// The agent's event names, each with the event it stands for (`None`: no counterpart here;
    /// accepted, and no hook runs).
    pub fn events(self) -> &'static [AgentEvent] {
        self.contract().events
    }

    /// Resolves an event name as this agent sends it. `Ok(None)`: the agent's own event with no
    /// counterpart here (nothing runs). A name the agent does not have is still taken when it is
    /// one of the table's names, so a hand-written wiring with a canonical name works too.
    pub fn resolve(
        self,
        name: &str,
    ) -> Result<Option<(Resolved, &'static AgentEvent)>, UnknownEvent> {
        let contract = self.contract();
        if let Some(own) = contract.events.iter().find(|e| e.name == name) {
            return match own.table {
                None => Ok(None),
                Some(table) => {
                    let resolved = Event::parse(table).expect("agent events name table events");
                    Ok(Some((resolved, own)))
                }
            };
        }
        match Event::parse(name) {
            Ok(resolved) => Ok(Some((resolved, &PLAIN))),
            Err(unknown) => {
                // Hermes's own names are the table's (its list only adds to a few of them).
                let suggestion = if self.is_hermes() {
                    unknown.suggestion
                } else {
                    closest(name, contract.events).or(unknown.suggestion)
                };
                Err(UnknownEvent {
                    suggestion,
                    ..unknown
                })
            }
        }
    }

    /// The agent's names for `event` (several agents fire one event under more than one name).
    pub fn names_for(self, event: Event) -> Vec<&'static str> {
        self.events()
            .iter()
            .filter(|own| {
                own.table
                    .and_then(|table| Event::parse(table).ok())
                    .is_some_and(|resolved| resolved.event == event)
            })
            .map(|own| own.name)
            .collect()
    }

    /// The agents other than Hermes (which uses the table's own names), each with its names for
    /// `event`, leaving out the agents that have none.
    pub fn others_for(event: Event) -> Vec<(Self, Vec<&'static str>)> {
        Self::ALL
            .into_iter()
            .filter(|agent| !agent.is_hermes())
            .map(|agent| (agent, agent.names_for(event)))
            .filter(|(_, names)| !names.is_empty())
            .collect()
    }

    /// The first agent (other than Hermes) that has an event named `name` with a counterpart
    /// in the table, and what it stands for.
    pub fn find_event(name: &str) -> Option<(Self, Resolved)> {
        Self::ALL.into_iter().find_map(|agent| {
            let own = agent.events().iter().find(|own| own.name == name)?;
            let table = Event::parse(own.table?).ok()?;
            Some((agent, table))
        })
    }

    /// Turns the agent's payload into the shape the engine reads (in place): fields the agent
    /// names its own way are added under the names hooks know, nothing is removed; the text a
    /// `shell`-class tool runs is `tool_input.command` (what was added for that is returned, so
    /// a rewrite can be put back with `restore`).
    /// Hermes's own payload is taken as it is (its hooks get it byte for byte as Hermes would).
    pub fn normalise(self, event: &str, input: &mut Map<String, Value>) -> Option<Exposed> {
        if self.is_hermes() {
            return None;
        }
        common_normalise(input);
        (self.contract().normalise)(event, input);
        shell_text::expose(input)
    }

    /// The class of a tool called by this agent: its own tool of that name, else any agent's
    /// (a hand-written wiring may send another agent's names), else a tool of an agent that
    /// speaks one of these contracts (Augment).
    pub fn tool_class(self, tool: &str) -> Option<ToolClass> {
        let find = |tools: &[(&str, Option<ToolClass>)]| {
            tools
                .iter()
                .find(|(name, _)| *name == tool)
                .map(|(_, class)| *class)
        };
        find(self.tools())
            .or_else(|| Self::ALL.into_iter().find_map(|agent| find(agent.tools())))
            .or_else(|| find(KIN_TOOLS))
            .flatten()
    }

    /// Every tool name of `class`, across the agents (and the agents that speak one of their
    /// contracts): a call of any other tool is never of that class.
    pub(crate) fn tools_of(class: ToolClass) -> impl Iterator<Item = &'static str> {
        Self::ALL
            .into_iter()
            .flat_map(Self::tools)
            .chain(KIN_TOOLS)
            .filter(move |(_, of)| *of == Some(class))
            .map(|(name, _)| *name)
    }

    /// This agent's built-in tool names, each with its class.
    pub fn tools(self) -> &'static [(&'static str, Option<ToolClass>)] {
        self.contract().tools
    }

    /// Whether this agent's answers are the Hermes answer line (no rendering).
    pub fn is_hermes(self) -> bool {
        self == Self::Hermes
    }

    /// The answer this agent reads for one decision.
    /// A block or gate whose message is blank gets a sentence instead: an agent may refuse a
    /// deny without a reason (Codex does, and then runs the call), and a blank reason tells the
    /// model nothing.
    pub fn render(self, reply: &Reply<'_>) -> Rendered {
        let contract = self.contract();
        let filled = reply.directive.and_then(|directive| match directive {
            Directive::Ask { message, .. } if !contract.asks.contains(&reply.event) => {
                Some(ask_as_block(message, contract.title))
            }
            _ => with_reason(directive),
        });
        let reply = Reply {
            directive: filled.as_ref().or(reply.directive),
            ..*reply
        };
        (contract.render)(&reply)
    }

    /// Whether the agent reads "ask a person" itself on its event `event`; elsewhere an ask
    /// reaches it as a block that says a person must approve the call.
    pub(crate) fn asks_on(self, event: &str) -> bool {
        self.contract().asks.contains(&event)
    }

    /// Whether one of the agent's events runs the quality gate (`pre_verify`): where none does,
    /// nothing can keep the agent working.
    pub fn has_gate(self) -> bool {
        self.is_hermes()
            || self.events().iter().any(|own| {
                own.table
                    .and_then(|table| Event::parse(table).ok())
                    .is_some_and(|resolved| resolved.event.is_gate())
            })
    }

    /// Where the agent keeps its hook settings, when `install` can wire it through them.
    pub(crate) fn wiring(self) -> Option<&'static settings::Wiring> {
        self.contract().wiring
    }

    /// The plugin API through which the agent is guarded, for an agent that takes no command
    /// hooks (`None` for the others, and for Hermes, whose plugin is its own).
    pub(crate) const fn module(self) -> Option<Module> {
        match self {
            Self::OpenCode | Self::Kilo => Some(Module::OpenCode),
            Self::Pi => Some(Module::Pi),
            Self::Cline => Some(Module::ClineHooks),
            _ => None,
        }
    }
}

/// A plugin API this binary ships a module for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Module {
    /// OpenCode's plugins (OpenCode and Kilo Code).
    OpenCode,
    /// Pi's extensions.
    Pi,
    /// Cline's hook scripts, one per event (no plugin API: a command per event, run from files).
    ClineHooks,
}

/// Every file that wires an agent, or switches its hooks off, in `project` and in the user's
/// settings (`home`, or the folder the agent's variable names), and every folder an agent loads
/// plugins or hook scripts from: the guard's wiring.
pub(crate) fn wiring_files(project: Option<&Path>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for agent in Agent::ALL {
        let Some(wiring) = agent.wiring() else {
            continue;
        };
        let mut folders: Vec<PathBuf> = project
            .map(|root| root.join(wiring.project_dir))
            .into_iter()
            .collect();
        if let Some(home) = home {
            let named = wiring
                .user_dir_env
                .and_then(crate::ground::env::var_os)
                .map(PathBuf::from);
            folders.push(wiring.folder(&settings::Scope::User, home, named));
        }
        for folder in folders {
            for file in wiring.files.iter().chain(wiring.switch_files) {
                files.push(folder.join(file.name));
            }
        }
    }
    // Every folder a plugin module or hook script is loaded from, whole: what else is put there
    // runs inside the agent too, beside the guard (after it, it could undo its answer).
    for agent in Agent::ALL.into_iter().filter(|a| a.module().is_some()) {
        files.extend(module::loaded_from(agent, project, home));
    }
    files
}

/// The Hermes plugin's folder under the Hermes home.
pub(crate) fn plugin_folder(home: &Path) -> PathBuf {
    plugin::folder(home)
}

impl ToolClasses for Agent {
    fn tool_class(&self, tool: &str) -> Option<ToolClass> {
        Self::tool_class(*self, tool)
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tools of agents that send Claude Code's payloads (or close to them) to hooks, so a
/// hand-written wiring of theirs finds the class: Augment's processes. docs/agents.md says where
/// each name was read.
static KIN_TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("launch-process", Some(ToolClass::Shell)),
    ("write-process", Some(ToolClass::Shell)),
];

/// A name that is no agent's.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown agent '{0}' (one of: hermes, claude-code, codex, gemini, cursor, copilot, droid, qwen, \
     opencode, kilo, pi, cline)"
)]
pub struct UnknownAgent(String);

impl FromStr for Agent {
    type Err = UnknownAgent;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|agent| agent.name() == name)
            .ok_or_else(|| UnknownAgent(name.to_owned()))
    }
}

#[cfg(test)]
mod tests;
