//! When the runner itself cannot decide: what kept it from checking a call as the files say (a
//! file whose hooks could not be read, a payload it cannot read, the allowlist), and how that
//! shapes the answer. Every hook that could be loaded and checked still runs; a `fail_closed`
//! guard that is known but could not be evaluated blocks; in fail-closed mode, any such error on
//! an event where a hook could have blocked blocks.

use std::path::PathBuf;

use crate::config::{Effects, Event, HookSet, HookSpec, SourceKind};
use crate::engine::decision::Outcome;
use crate::engine::response::Directive;
use crate::engine::runner::{HookReport, RunReport};
use crate::ground::exit::ExitStatus;

/// What the runner could not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unread {
    /// A config.yaml (or the managed one): its hooks are unknown.
    Config,
    /// A HOOK.md, or a hooks folder: its hooks are unknown.
    AgentHooks,
    /// A rules file, or a rule in it: its rules are unknown.
    Rules,
    /// The payload: no hook can be given it.
    Payload,
    /// The allowlist: no hook counts as approved.
    Allowlist,
}

impl Unread {
    /// The name used in output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Config => "config",
            Self::AgentHooks => "agent-hooks",
            Self::Rules => "rules",
            Self::Payload => "payload",
            Self::Allowlist => "allowlist",
        }
    }
}

/// One thing that kept the runner from checking the call as the files say.
#[derive(Clone, Debug)]
pub struct RunnerError {
    /// What could not be read.
    pub unread: Unread,
    /// The file, when it is one.
    pub file: Option<PathBuf>,
    /// The line in it, when known.
    pub line: Option<u64>,
    /// What is wrong (without the file's name).
    pub why: String,
    /// What is wrong, naming the file (and line) or the input.
    pub message: String,
    /// Whether what it kept from running could have blocked this event.
    pub could_block: bool,
}

/// Whether some hook, of either source, can block `event`.
pub(crate) fn blockable(event: Event) -> bool {
    [
        SourceKind::Config,
        SourceKind::AgentHooks,
        SourceKind::Rules,
    ]
    .into_iter()
    .any(|source| event.effects(source).contains(Effects::BLOCK))
}

/// The files of `set` whose hooks could not be read, as errors of an answer for `event`.
pub(crate) fn of_set(set: &HookSet, event: Event) -> Vec<RunnerError> {
    set.errors
        .iter()
        .map(|err| RunnerError {
            unread: match err.source {
                SourceKind::Config => Unread::Config,
                SourceKind::Rules => Unread::Rules,
                _ => Unread::AgentHooks,
            },
            file: Some(err.origin.file.to_path_buf()),
            line: err.origin.line,
            why: err.message.clone(),
            message: err.to_string(),
            could_block: err.could_block(event),
        })
        .collect()
}

/// The allowlist could not be read, so no hook counted as approved.
pub(crate) fn of_allowlist(path: PathBuf, problem: &str, event: Event) -> RunnerError {
    RunnerError {
        unread: Unread::Allowlist,
        file: Some(path),
        line: None,
        why: problem.to_owned(),
        message: problem.to_owned(),
        could_block: blockable(event),
    }
}

/// The payload could not be read.
pub(crate) fn of_payload(why: String, event: Event) -> RunnerError {
    RunnerError {
        unread: Unread::Payload,
        file: None,
        line: None,
        message: why.clone(),
        why,
        could_block: blockable(event),
    }
}

/// The block a runner error gives in fail-closed mode.
pub(crate) fn runner_block(error: &RunnerError) -> Directive {
    Directive::Block {
        message: format!("hermes-hooks could not check this call: {}", error.message),
    }
}

/// Applies fail-closed mode to an answer whose hooks ran despite `errors`: when one of them could
/// have blocked this event and the hooks did not block already, the answer becomes a block. A
/// "keep working" answer, or one cut short by a signal, stands.
pub(crate) fn close(outcome: &mut Outcome, errors: &[RunnerError], fail_closed: bool) {
    if !fail_closed || outcome.interrupted.is_some() {
        return;
    }
    if matches!(
        outcome.report.directive,
        Some(Directive::Block { .. } | Directive::Continue { .. })
    ) {
        return;
    }
    if let Some(error) = errors.iter().find(|e| e.could_block) {
        outcome.report.directive = Some(runner_block(error));
        outcome.status = ExitStatus::Blocked;
    }
}

/// The answer when the payload could not be read, so no hook can run: every hook is reported
/// `not_run`; a known `fail_closed` guard blocks (it could not check the call); else, in
/// fail-closed mode on an event a hook could block, the runner blocks; else the status is 1.
pub(crate) fn unreadable_payload(
    hooks: &[HookSpec],
    error: &RunnerError,
    fail_closed: bool,
) -> Outcome {
    let mut directive = None;
    let reports = hooks
        .iter()
        .enumerate()
        .map(|(index, hook)| {
            let guard =
                hook.fail_closed && !hook.run_async() && hook.effects().contains(Effects::BLOCK);
            let mut report = HookReport::not_run(index, "not run: the payload could not be read");
            if guard && directive.is_none() {
                report.message = Some(
                    "failed closed: the payload could not be read, so it could not check the call"
                        .to_owned(),
                );
                directive = Some(Directive::Block {
                    message: format!(
                        "hook {} could not check this call because its payload could not be \
                         read, so the call was blocked (fail_closed)",
                        hook.model_name()
                    ),
                });
            }
            report
        })
        .collect();
    if directive.is_none() && fail_closed && error.could_block {
        directive = Some(runner_block(error));
    }
    let status = if directive.is_some() {
        ExitStatus::Blocked
    } else {
        ExitStatus::Error
    };
    Outcome {
        report: RunReport {
            hooks: reports,
            directive,
        },
        released: None,
        interrupted: None,
        status,
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Unread, of_payload, unreadable_payload};
    use crate::config::{Event, HookSpec, Origin, Source};
    use crate::engine::response::{Directive, Status};
    use crate::ground::exit::ExitStatus;

    fn hook(event: &str, name: &str, fail_closed: bool) -> HookSpec {
        let mut hook = HookSpec::new(
            Event::parse(event).unwrap().event,
            Source::Config,
            name.to_owned(),
            format!("/hooks/{name}.sh"),
            Origin {
                file: std::path::Path::new("config.yaml").into(),
                line: Some(1),
            },
        );
        hook.fail_closed = fail_closed;
        hook
    }

    #[test]
    fn a_known_guard_blocks_a_call_whose_payload_cannot_be_read_in_either_mode() {
        let event = Event::parse("pre_tool_call").unwrap().event;
        let error = of_payload("bad payload".to_owned(), event);
        let hooks = [
            hook("pre_tool_call", "log", false),
            hook("pre_tool_call", "guard", true),
        ];
        for mode in [false, true] {
            let outcome = unreadable_payload(&hooks, &error, mode);
            assert_eq!(outcome.status, ExitStatus::Blocked);
            let Some(Directive::Block { message }) = &outcome.report.directive else {
                panic!("{:?}", outcome.report.directive);
            };
            assert_eq!(message.matches("guard").count(), 1, "{message}");
            assert!(
                outcome
                    .report
                    .hooks
                    .iter()
                    .all(|h| h.status == Status::NotRun)
            );
        }
    }

    #[test]
    fn without_a_guard_an_unreadable_payload_blocks_only_in_fail_closed_mode() {
        let event = Event::parse("pre_tool_call").unwrap().event;
        let error = of_payload("bad payload".to_owned(), event);
        assert_eq!(error.unread, Unread::Payload);
        let hooks = [hook("pre_tool_call", "log", false)];
        assert_eq!(
            unreadable_payload(&hooks, &error, false).status,
            ExitStatus::Error
        );
        assert_eq!(
            unreadable_payload(&hooks, &error, true).status,
            ExitStatus::Blocked
        );
        // Where no hook can block, nothing is blocked.
        let event = Event::parse("on_session_finalize").unwrap().event;
        let error = of_payload("bad payload".to_owned(), event);
        assert_eq!(
            unreadable_payload(&[], &error, true).status,
            ExitStatus::Error
        );
    }
}
