//! A hook's answer: its exit code first, then its stdout, read within what its event and source
//! let it do, into one status and (perhaps) one directive.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::config::{Effects, Event, HookSpec};
use crate::exec::{End, Outcome, describe_signal};

mod strict;

/// What a hook asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Directive {
    /// Stop the action.
    Block {
        /// Why, for the model.
        message: String,
    },
    /// New tool input, shallow-merged over the current one.
    Modify {
        /// The keys to replace.
        args: Map<String, Value>,
    },
    /// Text for the model.
    Context {
        /// The text for the model (non-blank).
        text: String,
    },
    /// Quality gate: keep working.
    Continue {
        /// What is missing.
        message: String,
    },
    /// The text to speak instead (`pre_tts_synthesis`).
    Text {
        /// The new text (non-blank).
        text: String,
    },
    /// Ask a person: the call goes ahead only if a person says yes (`pre_tool_call` only).
    Ask {
        /// Why a person must decide, for the person (and the model, where the agent cannot ask).
        message: String,
        /// The key a person's "always" is remembered under (Hermes's `rule_key`), if the hook
        /// named one.
        rule_key: Option<String>,
        /// The tool input after every rewrite, when a hook rewrote it: what runs if the person
        /// says yes.
        args: Option<Map<String, Value>>,
    },
}

/// What happened to one hook in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Ran, asked for nothing (or nothing its event allows).
    Ok,
    /// Blocked the action.
    Blocked,
    /// Rewrote the tool input (on `pre_tts_synthesis`, the text to speak).
    Modified,
    /// Added context.
    Context,
    /// Asked the agent to keep working.
    Gated,
    /// Asked for a person's approval of the call.
    Asked,
    /// Its matcher did not match this tool.
    NotMatched,
    /// Not approved: did not run.
    Unapproved,
    /// Its script changed since approval: did not run.
    Changed,
    /// An earlier hook blocked, or this is a dry run.
    NotRun,
    /// Started in the background, not waited for.
    Async,
    /// Exited non-zero (not a block) or was killed by a signal.
    Failed,
    /// Still running at its deadline.
    TimedOut,
    /// Could not be started.
    SpawnFailed,
    /// Its stdout was not a JSON object, or too large.
    InvalidOutput,
}

impl Status {
    /// Every status, in the order above.
    pub const ALL: [Self; 15] = [
        Self::Ok,
        Self::Blocked,
        Self::Modified,
        Self::Context,
        Self::Gated,
        Self::Asked,
        Self::NotMatched,
        Self::Unapproved,
        Self::Changed,
        Self::NotRun,
        Self::Async,
        Self::Failed,
        Self::TimedOut,
        Self::SpawnFailed,
        Self::InvalidOutput,
    ];

    /// The name used in output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Blocked => "blocked",
            Self::Modified => "modified",
            Self::Context => "context",
            Self::Gated => "gated",
            Self::Asked => "asked",
            Self::NotMatched => "not_matched",
            Self::Unapproved => "unapproved",
            Self::Changed => "changed",
            Self::NotRun => "not_run",
            Self::Async => "async",
            Self::Failed => "failed",
            Self::TimedOut => "timed_out",
            Self::SpawnFailed => "spawn_failed",
            Self::InvalidOutput => "invalid_output",
        }
    }
}

/// The reading of one answer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Answer {
    /// What the process did (and asked).
    pub status: Status,
    /// What it asks for, if anything its event allows.
    pub directive: Option<Directive>,
    /// Warnings and errors, or the block message.
    pub message: Option<String>,
}

/// What the reader needs to know about the hook.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules<'a> {
    /// The event it ran for.
    pub event: Event,
    /// What its answer may do there (by event and source).
    pub effects: Effects,
    /// Its name as the model may read it, for default messages.
    pub name: crate::config::ModelName<'a>,
    /// Its timeout, for messages.
    pub timeout: Duration,
    /// Block when it gives no usable answer (timeout, spawn failure, unparseable stdout).
    pub fail_closed: bool,
    /// Plain text on stdout (not JSON) is context, where context is allowed: the calling agent
    /// reads a hook's text so.
    pub plain_text_context: bool,
    /// A `config` hook: exit 2 stops only where it can block (Hermes's `_BLOCKING_EVENTS`,
    /// `pre_tool_call`); elsewhere its stdout is read, as for any other failing exit.
    pub config: bool,
}

impl<'a> Rules<'a> {
    /// The rules of `hook`: its event, what its source may do there, its timeout and
    /// `fail_closed`.
    pub(crate) fn for_hook(hook: &'a HookSpec) -> Self {
        Self {
            event: hook.event,
            effects: hook.effects(),
            name: hook.model_name_later(),
            timeout: hook.timeout,
            fail_closed: hook.fail_closed,
            plain_text_context: false,
            config: hook.agent().is_none(),
        }
    }

    /// The rules of `hook` when the calling agent allows more than the event table: Agent Hooks
    /// hooks gain `allow`'s effects and, if it says so, plain text as context.
    pub(crate) fn for_hook_with(
        hook: &'a HookSpec,
        allow: crate::engine::tool_classes::Allowances,
    ) -> Self {
        let rules = Self::for_hook(hook);
        if hook.agent().is_none() {
            return rules;
        }
        Self {
            effects: rules.effects.with(allow.agent_hooks_also),
            plain_text_context: allow.plain_text_context,
            ..rules
        }
    }
}

/// Longest stderr excerpt used as a block message.
const STDERR_MESSAGE_CHARS: usize = 400;

/// Reads `outcome` under `rules`; a `fail_closed` config hook is then held to what the newest
/// Hermes asks of one (see [`strict`]).
pub(crate) fn interpret(outcome: &Outcome, rules: &Rules<'_>) -> Answer {
    let answer = read_answer(outcome, rules);
    strict::hold(outcome, rules, answer)
}

/// Reads `outcome` under `rules`.
fn read_answer(outcome: &Outcome, rules: &Rules<'_>) -> Answer {
    // Exit 2 stops where the hook can block or gate; a config hook's only where it can block
    // (Hermes counts exit 2 on `pre_tool_call` alone, `agent/shell_hooks.py`).
    let can_stop = rules.effects.contains(Effects::BLOCK)
        || (rules.effects.contains(Effects::GATE) && !rules.config);
    match &outcome.end {
        End::SpawnFailed(reason) => fail_closed_or_open(Status::SpawnFailed, reason.clone(), rules),
        End::TimedOut => fail_closed_or_open(
            Status::TimedOut,
            format!("timed out after {}", seconds(rules.timeout)),
            rules,
        ),
        // The run is being abandoned: no answer, and nothing to fail closed for.
        End::Interrupted => failed("interrupted; its process group was ended".to_owned(), None),
        End::Exited(2) if can_stop => exit_two(outcome, rules),
        End::Exited(0) if plain_text(outcome, rules).is_some() => {
            let text = plain_text(outcome, rules).unwrap_or_default();
            succeeded(Some(Directive::Context { text }), None)
        }
        End::Exited(code) => {
            let stdout = match read_stdout(outcome) {
                Ok(stdout) => stdout,
                Err(reason) if *code == 0 => {
                    return fail_closed_or_open(Status::InvalidOutput, reason, rules);
                }
                Err(reason) => {
                    return failed(format!("{}; {reason}", exit_text(*code, outcome)), None);
                }
            };
            let (directive, note) = stdout.map_or((None, None), |obj| read_directive(&obj, rules));
            if *code == 0 {
                succeeded(directive, note)
            } else {
                let directive = directive
                    .filter(|d| !matches!(d, Directive::Modify { .. } | Directive::Text { .. }));
                let mut reason = exit_text(*code, outcome);
                if *code == 2 && rules.config && rules.effects.contains(Effects::GATE) {
                    reason.push_str(
                        "; Hermes reads exit 2 from a config hook only on pre_tool_call: to keep \
                         the agent working, print {\"action\": \"continue\", \"message\": ...}",
                    );
                }
                failed(reason, directive)
            }
        }
        End::Signaled(signal) => {
            let directive = read_stdout(outcome)
                .ok()
                .flatten()
                .and_then(|obj| read_directive(&obj, rules).0)
                .filter(|d| !matches!(d, Directive::Modify { .. } | Directive::Text { .. }));
            failed(format!("killed by {}", describe_signal(*signal)), directive)
        }
    }
}

/// Exit 2 where the hook can block or gate.
fn exit_two(outcome: &Outcome, rules: &Rules<'_>) -> Answer {
    let from_json = read_stdout(outcome)
        .ok()
        .flatten()
        .and_then(|obj| text_of(&obj, &["message", "reason"]));
    let message = from_json
        .or_else(|| {
            let stderr = String::from_utf8_lossy(&outcome.stderr);
            let trimmed: String = stderr.trim().chars().take(STDERR_MESSAGE_CHARS).collect();
            let trimmed = trimmed.trim_end().to_owned();
            (!trimmed.is_empty()).then_some(trimmed)
        })
        .unwrap_or_else(|| default_block_message(&rules.name.text()));
    if rules.effects.contains(Effects::GATE) {
        Answer {
            status: Status::Gated,
            directive: Some(Directive::Continue {
                message: message.clone(),
            }),
            message: Some(message),
        }
    } else {
        Answer {
            status: Status::Blocked,
            directive: Some(Directive::Block {
                message: message.clone(),
            }),
            message: Some(message),
        }
    }
}

fn succeeded(directive: Option<Directive>, note: Option<String>) -> Answer {
    let (status, message) = match &directive {
        None => (Status::Ok, note),
        Some(Directive::Block { message }) => (Status::Blocked, Some(message.clone())),
        Some(Directive::Continue { message }) => (Status::Gated, Some(message.clone())),
        Some(Directive::Modify { .. } | Directive::Text { .. }) => (Status::Modified, None),
        Some(Directive::Context { .. }) => (Status::Context, None),
        Some(Directive::Ask { message, .. }) => (Status::Asked, Some(message.clone())),
    };
    Answer {
        status,
        directive,
        message,
    }
}

fn failed(reason: String, directive: Option<Directive>) -> Answer {
    let message = match &directive {
        Some(
            Directive::Block { message }
            | Directive::Continue { message }
            | Directive::Ask { message, .. },
        ) => {
            format!("{reason}; it still answered: {message}")
        }
        _ => reason,
    };
    Answer {
        status: Status::Failed,
        directive,
        message: Some(message),
    }
}

/// A hook that gave no usable answer: open by default, a block with `fail_closed` where the hook
/// can block.
fn fail_closed_or_open(status: Status, reason: String, rules: &Rules<'_>) -> Answer {
    if rules.fail_closed && rules.effects.contains(Effects::BLOCK) {
        let what = match status {
            Status::TimedOut => reason.clone(),
            Status::InvalidOutput => "gave an answer that could not be read".to_owned(),
            _ => "could not be started".to_owned(),
        };
        return Answer {
            status,
            directive: Some(fail_closed_block(
                &format!("hook {}", rules.name.text()),
                &what,
            )),
            message: Some(format!("failed closed: {reason}")),
        };
    }
    Answer {
        status,
        directive: None,
        message: Some(reason),
    }
}

/// The block a `fail_closed` guard gives when it could not answer: one sentence for the model,
/// naming the hook once and saying what happened, with no command to run (approving a hook is a
/// person's act; the details are on stderr and in the hook's entry). `who` is `hook <name>` or
/// `rule <name>`.
pub(crate) fn fail_closed_block(who: &str, what: &str) -> Directive {
    Directive::Block {
        message: format!("{who} {what}, so this call was blocked (fail_closed)"),
    }
}

fn exit_text(code: i32, outcome: &Outcome) -> String {
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    match stderr.trim().lines().next() {
        Some(line) => format!("exited with code {code}: {}", excerpt(line, 200)),
        None => format!("exited with code {code}"),
    }
}

/// What a hook whose stdout could not be read is told.
const PRINT_JSON: &str = "print a JSON object or nothing on stdout, and send logs to stderr";

/// stdout as context, when the rules take plain text so and it is text that is not JSON.
fn plain_text(outcome: &Outcome, rules: &Rules<'_>) -> Option<String> {
    if !rules.plain_text_context
        || !rules.effects.contains(Effects::CONTEXT)
        || outcome.stdout_overflow
    {
        return None;
    }
    let text = String::from_utf8_lossy(&outcome.stdout);
    let text = text.trim();
    if text.is_empty() || crate::ground::pyjson::from_slice(text.as_bytes()).is_ok() {
        return None;
    }
    Some(text.to_owned())
}

/// stdout as a JSON object: `Ok(None)` when blank; an error text when too large or not an object.
fn read_stdout(outcome: &Outcome) -> Result<Option<Map<String, Value>>, String> {
    if outcome.stdout_overflow {
        return Err(format!(
            "stdout is larger than {} KiB",
            crate::exec::STDOUT_CAP / 1024
        ));
    }
    let text = String::from_utf8_lossy(&outcome.stdout);
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match crate::ground::pyjson::from_slice(text.as_bytes()) {
        Ok(Value::Object(obj)) => Ok(Some(obj)),
        Ok(_) => Err(format!("stdout is JSON but not an object; {PRINT_JSON}")),
        Err(err) => Err(format!(
            "stdout is not JSON; {PRINT_JSON} ({err}): {}",
            excerpt(text, 120)
        )),
    }
}

/// The directive in a parsed answer, within `rules.effects`; the second value explains an
/// answer that asked for something the event does not allow.
fn read_directive(
    obj: &Map<String, Value>,
    rules: &Rules<'_>,
) -> (Option<Directive>, Option<String>) {
    let effects = rules.effects;
    let action = obj.get("action").and_then(Value::as_str);
    let decision = obj.get("decision").and_then(Value::as_str);
    if effects.contains(Effects::BLOCK) {
        if action == Some("block") {
            let message = block_message(obj, "message", "reason", rules.name);
            return (Some(Directive::Block { message }), None);
        }
        if matches!(decision, Some("block" | "deny")) {
            let message = block_message(obj, "reason", "message", rules.name);
            return (Some(Directive::Block { message }), None);
        }
    }
    if effects.contains(Effects::GATE)
        && let Some(gate) = gate_answer(obj)
    {
        return match gate {
            Gate::Keep(message) => (Some(Directive::Continue { message }), None),
            Gate::NoMessage => (
                None,
                Some("a quality-gate answer without a message is ignored".to_owned()),
            ),
        };
    }
    if effects.contains(Effects::MODIFY) {
        let args = if action == Some("modify") {
            obj.get("args")
        } else if matches!(decision, Some("modify" | "allow")) {
            obj.get("tool_input").or_else(|| obj.get("modified_input"))
        } else {
            None
        };
        if let Some(args) = args {
            return match args {
                // Hermes reads a rewrite only when its arguments are not empty
                // (`agent/shell_hooks.py` `_parse_response`: `if isinstance(args, dict) and args`).
                Value::Object(args) if args.is_empty() => (
                    None,
                    Some("a rewrite with no arguments changes nothing; it is no answer".to_owned()),
                ),
                Value::Object(args) => (Some(Directive::Modify { args: args.clone() }), None),
                _ => (
                    None,
                    Some("a modify answer whose new input is not an object is ignored".to_owned()),
                ),
            };
        }
    }
    if effects.contains(Effects::ASK)
        && let Some(ask) = ask_answer(obj, action, decision, rules.name)
    {
        return (Some(ask), None);
    }
    if effects.contains(Effects::TEXT) && obj.contains_key("text") {
        return match text_answer(obj) {
            Some(text) => (Some(Directive::Text { text }), None),
            None => (
                None,
                Some(
                    "answer ignored: a new text must be exactly {\"text\": <non-blank string>}, \
                     which is all Hermes's pre_tts_synthesis policy takes besides a block"
                        .to_owned(),
                ),
            ),
        };
    }
    if effects.contains(Effects::CONTEXT)
        && let Some(text) = context_keys(rules).iter().find_map(|key| {
            obj.get(*key)
                .and_then(Value::as_str)
                .filter(|t| !t.trim().is_empty())
        })
    {
        return (
            Some(Directive::Context {
                text: text.to_owned(),
            }),
            None,
        );
    }
    let asked = matches!(action, Some(a) if a != "allow")
        || matches!(decision, Some(d) if d != "allow" && d != "approve")
        || context_keys(rules).iter().any(|key| obj.contains_key(*key));
    let note = asked.then(|| {
        let allowed = effects.names();
        if allowed.is_empty() {
            format!(
                "answer ignored: this hook cannot change anything on {}",
                rules.event
            )
        } else {
            format!(
                "answer ignored: on {} this hook can only {}",
                rules.event,
                allowed.join(", ")
            )
        }
    });
    (None, note)
}

/// A new text as Hermes's tts policy reads one (`tools/tts_synthesis_policy.py`): the answer is
/// exactly `{"text": T}`, `T` a string that is not blank.
fn text_answer(obj: &Map<String, Value>) -> Option<String> {
    match obj.get("text") {
        Some(Value::String(text)) if obj.len() == 1 && !text.trim().is_empty() => {
            Some(text.clone())
        }
        _ => None,
    }
}

/// The keys an answer's context may be under: `context`, and for an Agent Hooks hook also
/// `additional_context` (the reference runner's `HookOutput` field).
fn context_keys(rules: &Rules<'_>) -> &'static [&'static str] {
    if rules.config {
        &["context"]
    } else {
        &["context", "additional_context"]
    }
}

/// "A person must decide", in either form: Hermes's `{"action": "approve", "message",
/// "rule_key"}` (read after block and rewrite, as Hermes reads a hook's answer; Claude Code's
/// `decision: approve` means "allow" and is never this) and the Agent Hooks
/// `{"decision": "ask", "reason"}`. The message and key are kept when they are non-blank strings,
/// trimmed.
fn ask_answer(
    obj: &Map<String, Value>,
    action: Option<&str>,
    decision: Option<&str>,
    name: crate::config::ModelName<'_>,
) -> Option<Directive> {
    let keys: &[&str] = if action == Some("approve") {
        &["message", "reason"]
    } else if decision == Some("ask") {
        &["reason", "message"]
    } else {
        return None;
    };
    let trimmed = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let message = keys
        .iter()
        .find_map(|key| trimmed(key))
        .unwrap_or_else(|| default_ask_message(&name.text()));
    Some(Directive::Ask {
        message,
        rule_key: trimmed("rule_key"),
        args: None,
    })
}

/// The reason shown when a hook asked for a person without saying why.
pub(crate) fn default_ask_message(name: &str) -> String {
    format!("hook {name} asks a person to approve this call")
}

/// A block's message as Hermes picks it: `obj[primary] or obj[secondary]` when that is a
/// non-empty string, else the default.
fn block_message(
    obj: &Map<String, Value>,
    primary: &str,
    secondary: &str,
    name: crate::config::ModelName<'_>,
) -> String {
    match crate::ground::pyjson::get_or(obj, primary, secondary) {
        Some(Value::String(text)) if !text.is_empty() => text.clone(),
        _ => default_block_message(&name.text()),
    }
}

/// A quality-gate answer read as Hermes reads it: the word is `action`, else `decision` (Python's
/// `or`), trimmed and in any case, `continue` or `block`; the message is `message`, else
/// `reason`, trimmed. `None` when the answer is not a gate.
fn gate_answer(obj: &Map<String, Value>) -> Option<Gate> {
    let word = match crate::ground::pyjson::get_or(obj, "action", "decision")? {
        Value::String(text) => text.trim().to_lowercase(),
        _ => return None, // `str()` of a number, list or bool is never one of the words
    };
    if word != "continue" && word != "block" {
        return None;
    }
    Some(
        match crate::ground::pyjson::get_or(obj, "message", "reason") {
            Some(Value::String(text)) if !text.trim().is_empty() => {
                Gate::Keep(text.trim().to_owned())
            }
            _ => Gate::NoMessage,
        },
    )
}

/// A quality-gate word in an answer.
enum Gate {
    /// Keep working, with this message.
    Keep(String),
    /// The word without a message: no gate.
    NoMessage,
}

/// The first of `keys` holding a non-blank string.
fn text_of(obj: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|key| {
            obj.get(*key)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
        })
        .map(str::to_owned)
}

fn default_block_message(name: &str) -> String {
    format!("Blocked by hook {name}")
}

fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

fn excerpt(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(3)).collect();
    format!("{cut}...")
}

/// The block an agent that cannot ask a person gives instead of asking: the call does not run
/// unattended, and the message says a person must approve it.
pub(crate) fn ask_as_block(message: &str, agent: &str) -> Directive {
    Directive::Block {
        message: format!(
            "{message}; a person must approve this call, and {agent} cannot ask for that here, \
             so it was blocked"
        ),
    }
}

#[cfg(test)]
mod tests;
