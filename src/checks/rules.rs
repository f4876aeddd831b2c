//! What `doctor` checks of rules: each rules file's consent (once per file), and each rule's
//! patterns: one that can never match, a field no agent sends, a rule an earlier one shadows,
//! and a pattern slow enough to matter on a long command.

use std::time::{Duration, Instant};

use super::{Checkup, Finding, Level, consent_finding};
use crate::config::rules::{Condition, Rule};
use crate::config::{HookSet, HookSpec};
use crate::consent::store::Allowlist;
use crate::consent::{assess, changes_since_approval};
use crate::matcher::Matcher;

/// Tool input keys the agents send, across their tools (a rule's field outside these and the
/// payload's own is likely a typo).
const TOOL_INPUT_KEYS: &[&str] = &[
    "command",
    "cmd",
    "description",
    "timeout",
    "workdir",
    "file_path",
    "path",
    "absolute_path",
    "dir_path",
    "notebook_path",
    "filePath",
    "target_file",
    "content",
    "old_string",
    "new_string",
    "replace_all",
    "edits",
    "new_source",
    "cell_id",
    "edit_mode",
    "pattern",
    "glob",
    "include",
    "query",
    "url",
    "prompt",
    "input",
    "patch",
    "args",
    "limit",
    "offset",
    "todos",
    "subagent_type",
    "server_name",
    "tool_name",
    "arguments",
];

/// The payload's own keys, on every event.
const PAYLOAD_KEYS: &[&str] = &[
    "hook_event_name",
    "tool_name",
    "tool_input",
    "args",
    "session_id",
    "parent_session_id",
    "cwd",
    "profile",
    "extra",
];

/// A pattern that takes longer than this on the probe texts is reported (a build without
/// optimisations is some thirty times slower).
const SLOW: Duration = if cfg!(debug_assertions) {
    Duration::from_millis(100)
} else {
    Duration::from_millis(2)
};

/// Every rules file once, and every rule.
pub(super) fn check(checkup: &Checkup<'_>, list: &Allowlist, findings: &mut Vec<Finding>) {
    let set = checkup.set;
    let mut files: Vec<&str> = Vec::new();
    for hook in set.hooks.iter().filter(|hook| hook.rule().is_some()) {
        if !files.contains(&hook.command.as_str()) {
            files.push(&hook.command);
            file_consent(checkup, list, hook, findings);
        }
    }
    for (index, hook) in set.hooks.iter().enumerate() {
        let Some(rule) = hook.rule() else { continue };
        let mut say = |level, check, message: String| {
            findings.push(finding(hook, level, check, message));
        };
        for (word, condition) in conditions(rule) {
            if condition.matcher().and_then(Matcher::can_match) == Some(false) {
                say(
                    Level::Error,
                    "rule",
                    format!(
                        "{word} {}: the pattern `{}` can never match, so {}",
                        condition.field,
                        condition.shown_pattern(),
                        consequence(word)
                    ),
                );
            }
            if let Some(why) = field_problem(hook, rule, &condition.field) {
                let level = if why.1 { Level::Error } else { Level::Warning };
                say(
                    level,
                    "rule",
                    format!("{word} {}: {}", condition.field, why.0),
                );
            }
            if let Some(message) = slowness(condition) {
                say(
                    Level::Warning,
                    "rule",
                    format!("{word} {}: {message}", condition.field),
                );
            }
        }
        if let Some(earlier) = shadowed_by(set, index) {
            say(
                Level::Warning,
                "rule",
                format!(
                    "rule {} ({}) blocks every call this rule applies to, before it: this one \
                     never decides",
                    earlier.name, earlier.origin
                ),
            );
        }
    }
}

/// The consent of the rules file `hook` comes from, said once for the file.
fn file_consent(
    checkup: &Checkup<'_>,
    list: &Allowlist,
    hook: &HookSpec,
    findings: &mut Vec<Finding>,
) {
    let assessment = assess(list, hook, checkup.base);
    let (level, message) = consent_finding(hook, &assessment, checkup);
    let count = checkup
        .set
        .hooks
        .iter()
        .filter(|other| other.rule().is_some() && other.command == hook.command)
        .count();
    findings.push(Finding {
        level,
        check: "consent",
        event: Some(hook.consent_event()),
        hook: Some(hook.command.clone()),
        source: Some(hook.source.as_str()),
        at: hook.command.clone(),
        message: format!(
            "rules file ({count} {}): {message}",
            if count == 1 { "rule" } else { "rules" }
        ),
        diff: changes_since_approval(&assessment, checkup.allowlist),
        awaits_approval: false,
    });
}

fn finding(hook: &HookSpec, level: Level, check: &'static str, message: String) -> Finding {
    Finding {
        level,
        check,
        event: Some(hook.event.name()),
        hook: Some(hook.name.clone()),
        source: Some(hook.source.as_str()),
        at: hook.origin.to_string(),
        message,
        diff: None,
        awaits_approval: false,
    }
}

fn conditions(rule: &Rule) -> impl Iterator<Item = (&'static str, &Condition)> {
    let when = rule.when.iter().map(|c| ("when", c));
    when.chain(rule.unless.iter().map(|c| ("unless", c)))
}

/// What a condition that never holds does to its rule.
const fn consequence(word: &str) -> &'static str {
    if word.len() == 4 {
        "the rule never applies"
    } else {
        "this exception never holds"
    }
}

/// Why `field` cannot be in the calls the rule sees, if so, and whether that is certain (an
/// error) or likely (a warning: the agents' tool inputs are not all known here).
fn field_problem(hook: &HookSpec, rule: &Rule, field: &str) -> Option<(String, bool)> {
    let first = field.split('.').next().unwrap_or(field);
    let tool_event = hook.event.is_tool_event();
    let class = rule.tool_class;
    match first {
        "command" if !tool_event => Some((
            format!(
                "{} has no tool call, so there is no shell command",
                hook.event
            ),
            true,
        )),
        "command" if class.is_some_and(|c| c != "shell") => Some((
            format!(
                "the rule is for {} tools, which have no shell command",
                class.unwrap_or_default()
            ),
            true,
        )),
        "path" if !tool_event => Some((format!("{} has no tool call", hook.event), true)),
        "path" if class.is_some_and(|c| !crate::rules::FILE_CLASSES.contains(&c)) => Some((
            format!(
                "the rule is for {} tools, which name no file",
                class.unwrap_or_default()
            ),
            true,
        )),
        "command" | "path" => None,
        _ if PAYLOAD_KEYS.contains(&first) || hook.event.def().fields.contains(&first) => None,
        _ if sample_keys(hook).iter().any(|key| key == first) => None,
        _ if tool_event && TOOL_INPUT_KEYS.contains(&first) => None,
        _ => Some((
            format!(
                "no agent is known to send this field on {}, so the condition may never hold",
                hook.event
            ),
            false,
        )),
    }
}

/// The top-level keys of the event's sample payload.
fn sample_keys(hook: &HookSpec) -> Vec<String> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(hook.event.def().sample)
        .map(|map| map.keys().cloned().collect())
        .unwrap_or_default()
}

/// A pattern that is slow on long texts a call can hold, or gives up on them.
fn slowness(condition: &Condition) -> Option<String> {
    let matcher = condition.matcher()?;
    let probes = probes();
    let mut slowest = Duration::ZERO;
    for probe in &probes {
        let started = Instant::now();
        let decided = matcher.decides(probe);
        let took = started.elapsed();
        if decided.is_none() {
            return Some(format!(
                "the pattern `{}` backtracks too much on a {} KB text and gives up (the rule \
                 then counts as matching, an exception as not holding): rewrite it without \
                 nested repetition",
                condition.shown_pattern(),
                probe.len() / 1024
            ));
        }
        slowest = slowest.max(took);
    }
    (slowest > SLOW).then(|| {
        format!(
            "the pattern `{}` takes {:.1} ms on a {} KB text; a rule should take microseconds",
            condition.shown_pattern(),
            slowest.as_secs_f64() * 1000.0,
            probes.iter().map(String::len).max().unwrap_or(0) / 1024
        )
    })
}

/// Long texts of the kinds that make a pattern backtrack.
fn probes() -> Vec<String> {
    let mut command = String::new();
    while command.len() < 16 * 1024 {
        command.push_str("git commit -m 'fix: a b' && rm -f ./build/x.o; echo \"$HOME\" | ");
    }
    vec![
        command,
        "a".repeat(16 * 1024),
        " ".repeat(16 * 1024),
        "-".repeat(16 * 1024),
        "/".repeat(16 * 1024),
    ]
}

/// The earlier rule that blocks every call the rule `index` applies to, if one does: same
/// event, a block, no exception, a tool that covers this rule's, and every condition of its
/// own among this rule's.
fn shadowed_by(set: &HookSet, index: usize) -> Option<&HookSpec> {
    let hook = &set.hooks[index];
    let rule = hook.rule()?;
    set.hooks[..index].iter().find(|earlier| {
        let Some(first) = earlier.rule() else {
            return false;
        };
        let same_tool = match (first.tool_class, &earlier.matcher) {
            (None, None) => true,
            (Some(class), None) => rule.tool_class == Some(class),
            (None, Some(m)) => hook
                .matcher
                .as_ref()
                .is_some_and(|h| h.source() == m.source()),
            (Some(_), Some(_)) => false,
        };
        earlier.event == hook.event
            && first.action == crate::config::rules::Action::Block
            && first.unless.is_empty()
            && same_tool
            && first.when.iter().all(|c| {
                rule.when
                    .iter()
                    .any(|own| own.field == c.field && own.pattern() == c.pattern())
            })
    })
}
