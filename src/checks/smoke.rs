//! A smoke run: one hook on its event's synthetic payload, through the same engine call as
//! `run`, reported by what the hook answered. Nothing is recorded.

use std::borrow::Cow;

use super::Level;
use crate::agents::Agent;
use crate::config::event::Resolved;
use crate::config::{AgentHook, HookSpec, Source};
use crate::consent::ConsentGate;
use crate::engine::decision;
use crate::engine::payload::Invocation;
use crate::engine::response::{Directive, Status};
use crate::engine::runner::{HookReport, Plan};
use crate::engine::sample_payloads;
use crate::ground::pyjson;

/// Longest excerpt of an answer's text in a finding.
const EXCERPT_CHARS: usize = 160;

/// Runs `hook` once and grades what it did: it could not run or answer usefully (an error, or a
/// warning when it only failed), it blocked the harmless synthetic call (a warning: a guard that
/// blocks everything), or it answered (ok); a run longer than half its timeout is a warning.
pub(super) fn run(hook: &HookSpec, gate: &ConsentGate, base: &std::path::Path) -> (Level, String) {
    let called = if hook.on_failure() {
        Resolved::failure(hook.event).unwrap_or_else(|| Resolved::plain(hook.event))
    } else {
        Resolved::plain(hook.event)
    };
    let invocation = Invocation::from_input(
        sample_payloads::payload(called),
        &base.to_string_lossy(),
        &Agent::Hermes,
    );
    // An `async` hook is waited for here, so that its answer and its time can be reported.
    let spec = match &hook.source {
        Source::AgentHooks(agent) if agent.run_async => Cow::Owned(HookSpec {
            source: Source::AgentHooks(Box::new(AgentHook {
                run_async: false,
                ..AgentHook::clone(agent)
            })),
            ..hook.clone()
        }),
        _ => Cow::Borrowed(hook),
    };
    let decided = decision::decide(
        &Plan {
            called,
            hooks: std::slice::from_ref(spec.as_ref()),
            replacements: &[],
            invocation: &invocation,
            gate,
            current_dir: base,
            apply_matchers: false,
            dry_run: false,
            watchdog: None,
            allow: crate::engine::tool_classes::Allowances::default(),
        },
        None,
    );
    // A guard whose matchers pass over the harmless call is not judged by blocking it: `run`
    // would not call it there.
    let matched = !hook.event.is_tool_event()
        || (hook.matches_tool(invocation.tool_name())
            && hook.matches_input(invocation.tool_input.as_ref()));
    match decided.report.hooks.first() {
        Some(report) => grade(hook, report, matched),
        None => (Level::Error, "smoke run: no report".to_owned()),
    }
}

fn grade(hook: &HookSpec, report: &HookReport, matched: bool) -> (Level, String) {
    let detail = report.message.as_deref().unwrap_or_default();
    let ms = report.elapsed.unwrap_or_default().as_secs_f64() * 1000.0;
    let (level, answered) = match (report.status, report.directive.as_deref()) {
        (Status::TimedOut | Status::InvalidOutput, _) => {
            return (
                Level::Error,
                format!("smoke run on the synthetic payload: {detail}"),
            );
        }
        (Status::SpawnFailed, _) => {
            return (Level::Error, format!("smoke run cannot start: {detail}"));
        }
        (Status::Failed, _) => {
            return (Level::Warning, format!("smoke run {detail}"));
        }
        (Status::Blocked, Some(Directive::Block { message })) if matched => (
            Level::Warning,
            format!(
                "blocked the harmless synthetic call (\"{}\")",
                excerpt(message)
            ),
        ),
        (Status::Blocked, Some(Directive::Block { message })) => {
            (Level::Ok, format!("blocked (\"{}\")", excerpt(message)))
        }
        // Hermes runs config hooks itself and, up to the newest release read, does not read
        // `approve` from one: the call it was to hold runs there.
        (Status::Asked, Some(Directive::Ask { message, .. })) if hook.agent().is_none() => (
            Level::Warning,
            format!("asked a person (\"{}\")", excerpt(message)),
        ),
        (Status::Asked, Some(Directive::Ask { message, .. })) if matched => (
            Level::Warning,
            format!(
                "asked a person even about the harmless synthetic call (\"{}\")",
                excerpt(message)
            ),
        ),
        (Status::Asked, Some(Directive::Ask { message, .. })) => (
            Level::Ok,
            format!("asked a person to approve (\"{}\")", excerpt(message)),
        ),
        (Status::Gated, Some(Directive::Continue { message })) => (
            Level::Ok,
            format!("asked to keep working (\"{}\")", excerpt(message)),
        ),
        (Status::Modified, Some(Directive::Modify { args })) => (
            Level::Ok,
            format!(
                "rewrote the tool input ({})",
                excerpt(&String::from_utf8_lossy(&pyjson::to_compact(args)))
            ),
        ),
        (Status::Modified, Some(Directive::Text { text })) => (
            Level::Ok,
            format!("replaced the text to speak (\"{}\")", excerpt(text)),
        ),
        (Status::Context, Some(Directive::Context { text })) => {
            (Level::Ok, format!("added context (\"{}\")", excerpt(text)))
        }
        (Status::Ok, _) if detail.is_empty() => (Level::Ok, "answered nothing (go on)".to_owned()),
        (Status::Ok, _) => (
            Level::Ok,
            format!("answered nothing it can ask for here ({detail})"),
        ),
        (status, _) => {
            // Consent changed its mind between the check and the start (the script was edited).
            let why = if detail.is_empty() {
                status.as_str()
            } else {
                detail
            };
            return (Level::Warning, format!("smoke run did not start: {why}"));
        }
    };
    let took = report.elapsed.unwrap_or_default();
    if took * 2 > hook.timeout {
        return (
            Level::Warning,
            format!(
                "smoke run {answered}, but took {ms:.0} ms, more than half its {}s timeout",
                hook.timeout.as_secs()
            ),
        );
    }
    let advice = match (report.status, level) {
        (Status::Blocked, Level::Warning) => {
            "; a guard that blocks even this call blocks every call"
        }
        (Status::Blocked, _) => {
            "; its matcher passes over this call, so `run` would not have called it"
        }
        (Status::Asked, Level::Warning) if hook.agent().is_none() => {
            "; Hermes ignores a config hook's approve answer and runs the call: block instead, \
             or make it an Agent Hooks hook, which the plugin brings to Hermes's approval prompt"
        }
        (Status::Asked, Level::Warning) => {
            "; a guard that asks even about this call asks every time"
        }
        _ => "",
    };
    (level, format!("smoke run {answered} in {ms:.1} ms{advice}"))
}

/// `text` on one line, cut at [`EXCERPT_CHARS`].
fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(EXCERPT_CHARS) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line,
    }
}
