//! A rule as people and scripts read it: its conditions on the call, those that hold for one
//! command the call would run, what it does when that cannot be known, and a call's commands.

use std::fmt::Write as _;

use serde::Serialize;

use crate::config::HookSpec;
use crate::config::rules::{Condition, Rule, is_command_field};
use crate::engine::rules::Verdict;
use crate::shell::Reading;

/// What a rule checks and does (`list --json`, `events --json`, `approve --json`).
#[derive(Serialize)]
pub(crate) struct RuleView<'a> {
    pub action: &'static str,
    pub when: Vec<ConditionView<'a>>,
    pub unless: Vec<ConditionView<'a>>,
    pub message: &'a str,
    /// What a shell call whose commands cannot be known gets (only for a rule that names a
    /// command's fields).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecidable: Option<&'static str>,
}

/// One condition of a rule.
#[derive(Serialize)]
pub(crate) struct ConditionView<'a> {
    pub field: &'a str,
    pub pattern: &'a str,
    /// The field is one of a command's (`program`, `paths`, ...): the conditions that name one
    /// hold together for one command the call would run.
    pub per_command: bool,
}

impl<'a> RuleView<'a> {
    pub(crate) fn of(rule: &'a Rule) -> Self {
        let rows = |conditions: &'a [Condition]| {
            conditions
                .iter()
                .map(|c| ConditionView {
                    field: &c.field,
                    pattern: c.shown_pattern(),
                    per_command: is_command_field(&c.field),
                })
                .collect()
        };
        Self {
            action: rule.action.as_str(),
            when: rows(rule.when()),
            unless: rows(rule.unless()),
            message: rule.message(),
            undecidable: rule.reads_commands().then(|| rule.undecidable.as_str()),
        }
    }

    /// The `when` (or `unless`) conditions as one line: those on the call, then those that hold
    /// for one command: ``command ~ `rm`; for one command: program ~ `^rm$`, paths ~ `^/` ``.
    pub(crate) fn conditions(&self, word: &str) -> Option<String> {
        let list = if word == "when" {
            &self.when
        } else {
            &self.unless
        };
        let shown = |c: &ConditionView<'_>| format!("{} ~ `{}`", c.field, c.pattern);
        let call: Vec<String> = list.iter().filter(|c| !c.per_command).map(shown).collect();
        let command: Vec<String> = list.iter().filter(|c| c.per_command).map(shown).collect();
        let mut parts = call;
        if !command.is_empty() {
            // `unless` holds for the command `when` found.
            let which = if word == "when" {
                "for one command"
            } else {
                "for that command"
            };
            parts.push(format!("{which}: {}", command.join(", ")));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// `(label, text)` for each line that says what the rule checks: `when`, `unless`, and
    /// `undecidable` for a rule that reads commands.
    pub(crate) fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = Vec::new();
        for word in ["when", "unless"] {
            if let Some(text) = self.conditions(word) {
                lines.push((word, text));
            }
        }
        if let Some(what) = self.undecidable {
            lines.push(("undecidable", undecidable_words(what)));
        }
        lines
    }
}

/// What an `undecidable:` setting does, in words.
fn undecidable_words(what: &str) -> String {
    let does = match what {
        "block" => "blocked",
        "ask" => "asked about",
        _ => "let through",
    };
    format!("{what} (a call whose commands cannot be known is {does})")
}

/// A rule's verdict on one call (`test --json`).
#[derive(Serialize)]
pub(crate) struct VerdictView {
    /// `applies`, `does_not_apply` or `undecidable`.
    pub verdict: &'static str,
    /// Why what the call would run cannot be known (with `undecidable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// What the rule does then: `block`, `ask` or `allow` (with `undecidable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<&'static str>,
}

impl VerdictView {
    pub(crate) fn of(verdict: Verdict, hook: &HookSpec) -> Self {
        match verdict {
            Verdict::Yes => Self {
                verdict: "applies",
                why: None,
                then: None,
            },
            Verdict::No => Self {
                verdict: "does_not_apply",
                why: None,
                then: None,
            },
            Verdict::Undecidable(why) => Self {
                verdict: "undecidable",
                why: Some(why),
                then: hook.rule().map(|rule| rule.undecidable.as_str()),
            },
        }
    }

    /// In words: `applies`, `does not apply`, `undecidable: why (then: block)`.
    pub(crate) fn words(&self) -> String {
        match (&self.why, self.then) {
            (Some(why), Some(then)) => format!("undecidable: {why} (so: {then})"),
            (Some(why), None) => format!("undecidable: {why}"),
            _ => self.verdict.replace('_', " "),
        }
    }
}

/// The commands a shell call would run (`test --json`).
#[derive(Serialize)]
pub(crate) struct CommandsView {
    pub commands: Vec<CommandView>,
    /// Why what the call would run cannot be known as a whole.
    pub undecidable: Option<String>,
}

/// One command a shell call would run.
#[derive(Serialize)]
pub(crate) struct CommandView {
    pub line: String,
    pub program: String,
    /// The wrappers and shells it runs through (`sudo`, `bash -c`).
    pub through: Vec<String>,
    /// What about it cannot be known before it runs.
    pub unknown: Option<String>,
}

impl CommandsView {
    pub(crate) fn of(reading: &Reading) -> Self {
        Self {
            commands: reading
                .commands
                .iter()
                .map(|command| CommandView {
                    line: command.line.clone(),
                    program: command.program.clone(),
                    through: command.through.clone(),
                    unknown: command.unknown.as_ref().map(|u| u.why().to_owned()),
                })
                .collect(),
            undecidable: reading.undecidable.clone(),
        }
    }

    /// One line per command, for people: its line, then what it ran through and what is unknown.
    pub(crate) fn lines(&self) -> Vec<String> {
        if let Some(why) = &self.undecidable {
            return vec![format!("undecidable: {why}")];
        }
        if self.commands.is_empty() {
            return vec!["(none)".to_owned()];
        }
        self.commands
            .iter()
            .map(|command| {
                let mut line = command.line.clone();
                if !command.through.is_empty() {
                    let _ = write!(line, "  (through {})", command.through.join(", "));
                }
                if let Some(why) = &command.unknown {
                    let _ = write!(line, "  (unknown: {why})");
                }
                line
            })
            .collect()
    }
}
