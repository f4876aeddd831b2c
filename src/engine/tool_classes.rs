//! What the engine knows of the agent that called, in its own terms: the class of a tool by name
//! (so one matcher fits every agent's names) and what an event allows beyond the event table.
//! The agents fill these in; the engine never asks which agent it was.

use crate::config::Effects;

/// A kind of tool every agent has under its own names, so one matcher fits them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolClass {
    /// Runs a shell command.
    Shell,
    /// Changes part of an existing file.
    Edit,
    /// Writes a whole file.
    Write,
    /// Reads a file.
    Read,
    /// Finds files or text.
    Search,
    /// Fetches from or searches the web.
    Web,
}

impl ToolClass {
    /// Every class.
    pub const ALL: [Self; 6] = [
        Self::Shell,
        Self::Edit,
        Self::Write,
        Self::Read,
        Self::Search,
        Self::Web,
    ];

    /// The class's name, as a matcher writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Shell => "shell",
            Self::Edit => "edit",
            Self::Write => "write",
            Self::Read => "read",
            Self::Search => "search",
            Self::Web => "web",
        }
    }
}

/// Whoever knows the tools by name: the class of the tool a payload names.
pub trait ToolClasses {
    /// The class of `tool`, when it has one.
    fn tool_class(&self, tool: &str) -> Option<ToolClass>;
}

/// What the engine allows on one event beyond the event table, for the agent that called.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allowances {
    /// Effects Agent Hooks hooks may also have.
    pub agent_hooks_also: Effects,
    /// Plain text on stdout (not JSON) from an Agent Hooks hook is context, where context is
    /// allowed.
    pub plain_text_context: bool,
}
