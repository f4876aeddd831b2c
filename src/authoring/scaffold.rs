//! The files `new` writes: an Agent Hooks HOOK.md, a `hooks:` entry for config.yaml, and an entry
//! script (sh or Python) that reads the payload and lists, in comments, every answer its event
//! allows in both dialects. Text only: the command decides where it goes.

use std::fmt::Write as _;

use serde_json::Value;

use super::answers::{self, Answer, Example};
use super::sample;
use crate::config::event::Resolved;
use crate::config::{Effects, SourceKind};
use crate::engine::payload::Dialect;
use crate::ground::text::wrap_words;

/// The language of a scaffolded script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Lang {
    /// POSIX sh.
    Sh,
    /// Python 3, standard library only.
    Python,
}

impl Lang {
    /// The file extension of a config hook's script (`.sh`, `.py`): Hermes finds the script in a
    /// command by it.
    pub(crate) const fn extension(self) -> &'static str {
        match self {
            Self::Sh => "sh",
            Self::Python => "py",
        }
    }
}

/// What to scaffold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hook<'a> {
    /// The hook's name (a folder name and a file name).
    pub(crate) name: &'a str,
    /// The event as the user named it.
    pub(crate) called: Resolved,
    /// A tool matcher (tool events only).
    pub(crate) matcher: Option<&'a str>,
    /// The script's language.
    pub(crate) lang: Lang,
    /// The source it is written for: `config` or `agent-hooks`.
    pub(crate) source: SourceKind,
}

/// The default timeouts, written out so people see the setting.
const HOOK_MD_TIMEOUT_MS: u32 = 30_000;
const CONFIG_TIMEOUT_S: u32 = 60;
/// A config `pre_tool_call` hook's: under the 30 s newer Hermes waits for the callback, so that
/// the hook's own deadline (and `fail_closed`) decides a hang, not Hermes's bound.
const CONFIG_GUARD_TIMEOUT_S: u32 = 25;
/// What `fail_closed: true` means, written above it in a scaffold.
const FAIL_CLOSED_COMMENT: [&str; 2] = [
    "If this hook cannot give its answer (unapproved, edited since approval, missing,",
    "timed out, invalid output), the call is blocked; set false to let calls through.",
];

impl Hook<'_> {
    /// The event name a HOOK.md trigger uses (the Agent Hooks name when there is one).
    pub(crate) fn trigger(&self) -> &'static str {
        self.called.agent_name()
    }

    /// The name this hook's source uses for the event: the Hermes name under `hooks:`, the
    /// trigger in a HOOK.md.
    pub(crate) fn event_name(&self) -> &'static str {
        match self.source {
            SourceKind::Config => self.called.event.name(),
            _ => self.trigger(),
        }
    }

    fn effects(&self) -> Effects {
        self.called.event.effects(self.source)
    }

    fn can_stop(&self) -> bool {
        self.effects().contains(Effects::BLOCK) || self.effects().contains(Effects::GATE)
    }

    /// The event's other names, for the header: `Hermes: pre_tool_call; Claude Code: PreToolUse`
    /// (empty when it has none).
    fn other_names(&self) -> String {
        let event = self.called.event;
        let mut others = Vec::new();
        if event.is_hermes() && event.name() != self.event_name() {
            others.push(format!("Hermes: {}", event.name()));
        }
        if event.agent_name().is_some() && self.trigger() != self.event_name() {
            others.push(format!("Agent Hooks: {}", self.trigger()));
        }
        let claude = event.claude_code_names();
        if !claude.is_empty() {
            others.push(format!("Claude Code: {}", claude.join(", ")));
        }
        others.join("; ")
    }

    /// The event's name, then its other names in brackets; `quote` goes around the name.
    fn names(&self, quote: &str) -> String {
        let name = self.event_name();
        match self.other_names() {
            others if others.is_empty() => format!("{quote}{name}{quote}"),
            others => format!("{quote}{name}{quote} ({others})"),
        }
    }

    /// The fields of the payload this hook reads, from its event's synthetic call.
    fn fields(&self) -> String {
        let dialect = match self.source {
            SourceKind::Config => Dialect::Hermes,
            _ => sample::agent_dialect(self.called),
        };
        let wire = sample::wire(self.called, dialect, "/");
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&wire) else {
            return String::new();
        };
        map.iter()
            .map(|(key, value)| match value {
                Value::Object(inner) if key == "extra" && !inner.is_empty() => {
                    let keys: Vec<&str> = inner.keys().map(String::as_str).collect();
                    format!("extra ({})", keys.join(", "))
                }
                _ => key.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The answers this hook's source may give here.
    fn examples(&self) -> Vec<Example> {
        answers::examples(self.called.event)
            .into_iter()
            .filter(|example| match self.source {
                SourceKind::Config => example.config,
                _ => example.agent,
            })
            .collect()
    }

    /// The comment block at the top of the script: what runs it, what it reads, how to answer.
    fn header(&self) -> String {
        let c = "#";
        let mut out = String::new();
        let _ = writeln!(out, "{c} {}: runs on {}.", self.name, self.names(""));
        let _ = writeln!(out, "{c} Made by `hermes-hooks new`: make it yours.");
        let _ = writeln!(out, "{c}");
        for line in wrap_words(
            &format!("stdin: one JSON object with {}.", self.fields()),
            Some(88),
        ) {
            let _ = writeln!(out, "{c} {line}");
        }
        let _ = writeln!(
            out,
            "{c} See a whole one with: hermes-hooks events {}",
            self.event_name()
        );
        let _ = writeln!(out, "{c}");
        let examples = self.examples();
        if examples.len() == 1 {
            let _ = writeln!(
                out,
                "{c} Nothing a hook answers here changes what the agent does: use it to log or \
                 notify,"
            );
            let _ = writeln!(out, "{c} and exit 0.");
            return out;
        }
        let _ = writeln!(
            out,
            "{c} How to answer: the exit code, and at most one JSON object on stdout."
        );
        let forms = match self.source {
            SourceKind::Config => {
                "Where an answer has two forms, hermes-hooks reads either, but Hermes itself reads \
                 only the first (the Hermes form); the second is the Agent Hooks and Claude Code one."
            }
            _ => {
                "Where an answer has two forms, hermes-hooks reads either: the first is the Hermes \
                 form, the second the Agent Hooks and Claude Code one."
            }
        };
        for line in wrap_words(forms, Some(88)) {
            let _ = writeln!(out, "{c} {line}");
        }
        for example in &examples {
            let _ = writeln!(out, "{c}");
            let _ = writeln!(out, "{c}   {}: {}", example.effect, example.does);
            let forms = if example.hermes == example.agent_hooks {
                vec![example.hermes]
            } else {
                vec![example.hermes, example.agent_hooks]
            };
            for answer in forms {
                let _ = writeln!(out, "{c}     {}", self.snippet(answer));
            }
        }
        if self.fails_closed() {
            let declared = match self.source {
                SourceKind::Config => "its hooks: entry",
                _ => "its HOOK.md",
            };
            let _ = writeln!(out, "{c}");
            let mut text = format!(
                "fail_closed: true in {declared}: if this hook cannot give its answer (a crash, \
                 a timeout, output that is not an answer, an edit not approved yet), the call \
                 is blocked."
            );
            if self.source == SourceKind::Config {
                text.push_str(
                    " As in Hermes, such a hook must answer: an empty stdout or a failing exit \
                     other than 2 blocks too.",
                );
            }
            for line in wrap_words(&text, Some(88)) {
                let _ = writeln!(out, "{c} {line}");
            }
        } else if self.can_stop() {
            let _ = writeln!(out, "{c}");
            let _ = writeln!(
                out,
                "{c} A crash, a timeout or other output lets the agent go on (fail open)."
            );
        }
        out
    }

    /// Whether the scaffold fails closed: wherever a hook of its source can block, so a guard
    /// that cannot answer stops the call unless the person chooses otherwise.
    fn fails_closed(&self) -> bool {
        self.effects().contains(Effects::BLOCK)
    }

    /// `fail_closed: true` with the comment that says what it means, each line after `indent`.
    fn fail_closed(indent: &str) -> String {
        let mut out = String::new();
        for line in FAIL_CLOSED_COMMENT {
            let _ = writeln!(out, "{indent}# {line}");
        }
        let _ = writeln!(out, "{indent}fail_closed: true");
        out
    }

    /// One answer as code in the script's language.
    fn snippet(&self, answer: Answer) -> String {
        let mut parts = Vec::new();
        match self.lang {
            Lang::Sh => {
                if !answer.stdout.is_empty() {
                    parts.push(format!("printf '%s\\n' '{}'", answer.stdout));
                }
                if !answer.stderr.is_empty() {
                    parts.push(format!("echo '{}' >&2", answer.stderr));
                }
                parts.push(format!("exit {}", answer.exit));
            }
            Lang::Python => {
                if !answer.stdout.is_empty() {
                    parts.push(format!("print('{}')", answer.stdout));
                }
                if !answer.stderr.is_empty() {
                    parts.push(format!("print('{}', file=sys.stderr)", answer.stderr));
                }
                parts.push(format!("sys.exit({})", answer.exit));
            }
        }
        parts.join("; ")
    }

    /// The entry script.
    pub(crate) fn script(&self) -> String {
        let header = self.header();
        let decide = if self.examples().len() == 1 {
            "# Log or notify here: what this hook prints is not read."
        } else {
            "# Decide here, then answer as above. As it is, this hook lets everything go on."
        };
        // A fail_closed config hook that prints nothing blocks (as in the newest Hermes): it
        // says "go on" in words.
        let go_on = self.source == SourceKind::Config && self.fails_closed();
        match self.lang {
            Lang::Sh => format!(
                "#!/bin/sh\n{header}\nset -eu\n\n\
                 # The whole payload as text. Match on it with `case`, or pick fields out with jq\n\
                 # or python3, which read JSON more safely than a pattern does.\n\
                 payload=$(cat)\n\n\
                 {decide}\n\
                 {}exit 0\n",
                if go_on {
                    "printf '%s\\n' '{\"action\": \"allow\"}'\n"
                } else {
                    ""
                }
            ),
            Lang::Python => {
                let fields = match self.source {
                    SourceKind::Config => {
                        "# The event's own fields (user_message, duration_ms, ...) are under \"extra\".\n\
                         extra = payload.get(\"extra\") or {}\n"
                    }
                    _ => {
                        "# The event's own fields (user_message, duration_ms, ...) are at the top level.\n"
                    }
                };
                let tool = if self.called.event.is_tool_event() {
                    "tool_name = payload.get(\"tool_name\")\ntool_input = payload.get(\"tool_input\") or {}\n"
                } else {
                    ""
                };
                format!(
                    "#!/usr/bin/env python3\n{header}\nimport json\nimport sys\n\n\
                     raw = sys.stdin.read()\n\
                     payload = json.loads(raw) if raw.strip() else {{}}\n\
                     {tool}{fields}\n\
                     {decide}\n\
                     {}sys.exit(0)\n",
                    if go_on {
                        "print('{\"action\": \"allow\"}')\n"
                    } else {
                        ""
                    }
                )
            }
        }
    }

    /// The HOOK.md of an Agent Hooks folder whose entry is `scripts/run`.
    pub(crate) fn hook_md(&self) -> String {
        let mut out = String::from("---\n");
        let _ = writeln!(out, "name: {}", self.name);
        let _ = writeln!(
            out,
            "description: Say in one line what this hook does (list and approve show it)"
        );
        let _ = writeln!(out, "trigger: {}", self.trigger());
        if let Some(matcher) = self.matcher {
            let _ = writeln!(out, "matcher:\n  tool: {}", yaml_string(matcher));
        }
        let _ = writeln!(out, "timeout: {HOOK_MD_TIMEOUT_MS}");
        if self.fails_closed() {
            out.push_str(&Self::fail_closed(""));
        }
        out.push_str("---\n\n");
        let _ = writeln!(out, "# {}\n", self.name);
        let _ = writeln!(
            out,
            "Say here, for the people who review and approve this hook, what it checks and why.\n"
        );
        let _ = writeln!(out, "- Runs on {}.", self.names("`"));
        if let Some(matcher) = self.matcher {
            let _ = writeln!(
                out,
                "- Only for tools whose whole name matches `{matcher}`."
            );
        }
        let lang = match self.lang {
            Lang::Sh => "sh",
            Lang::Python => "Python",
        };
        let _ = writeln!(
            out,
            "- Entry: `scripts/run` ({lang}). `hermes-hooks events {}` shows what it reads.",
            self.trigger()
        );
        out
    }

    /// The `hooks:` entry to paste into config.yaml, for `command`.
    pub(crate) fn config_entry(&self, command: &str) -> String {
        let mut out = String::from("hooks:\n");
        let _ = writeln!(out, "  {}:", self.called.event.name());
        let mut first = "    - ";
        if let Some(matcher) = self.matcher {
            let _ = writeln!(out, "{first}matcher: {}", yaml_string(matcher));
            first = "      ";
        }
        let _ = writeln!(out, "{first}command: {}", yaml_string(command));
        let timeout = if self.called.event.name() == "pre_tool_call" {
            CONFIG_GUARD_TIMEOUT_S
        } else {
            CONFIG_TIMEOUT_S
        };
        let _ = writeln!(out, "      timeout: {timeout}");
        if self.fails_closed() {
            out.push_str(&Self::fail_closed("      "));
        }
        out
    }
}

/// `text` as a YAML double-quoted scalar (a JSON string is one).
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

#[cfg(test)]
mod tests {
    use super::{Hook, Lang};
    use crate::config::{Event, SourceKind};

    fn hook(event: &str, lang: Lang, source: SourceKind) -> Hook<'static> {
        Hook {
            name: "guard",
            called: Event::parse(event).unwrap(),
            matcher: Some("terminal"),
            lang,
            source,
        }
    }

    #[test]
    fn a_script_lists_the_answers_its_source_may_give_in_both_forms() {
        let script = hook("PreToolUse", Lang::Sh, SourceKind::AgentHooks).script();
        assert!(script.starts_with("#!/bin/sh\n# guard: runs on pre-tool-call (Hermes: pre_tool_call; Claude Code: PreToolUse).\n"), "{script}");
        assert!(
            script.contains(r#"printf '%s\n' '{"action": "block", "message": "Not allowed here"#)
        );
        assert!(script.contains("echo 'Not allowed here: say why' >&2; exit 2"));
        assert!(script.contains(r#""modified_input""#));
        let post = hook("post_tool_call", Lang::Python, SourceKind::Config).script();
        assert!(
            post.contains("Nothing a hook answers here changes"),
            "{post}"
        );
        assert!(post.contains("extra = payload.get(\"extra\") or {}"));
    }

    #[test]
    fn a_config_entry_is_yaml_with_the_hermes_name() {
        let entry = hook("pre-tool-call", Lang::Sh, SourceKind::Config)
            .config_entry("~/.hermes/agent-hooks/guard.sh");
        assert_eq!(
            entry,
            "hooks:\n  pre_tool_call:\n    - matcher: \"terminal\"\n      command: \"~/.hermes/agent-hooks/guard.sh\"\n      timeout: 25\n      # If this hook cannot give its answer (unapproved, edited since approval, missing,\n      # timed out, invalid output), the call is blocked; set false to let calls through.\n      fail_closed: true\n"
        );
    }
}
