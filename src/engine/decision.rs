//! The final answer for one event, as `run` gives it (and any other caller of the engine, a
//! library user or a long-lived server, gets the same): every hook's report, the directive after
//! the quality-gate loop guard, and the exit status. The command line only prints it.

use std::path::Path;
use std::time::SystemTime;

use crate::engine::loop_guard::{self, Released};
use crate::engine::payload::Invocation;
use crate::engine::response::Directive;
use crate::engine::runner::{self, Plan, RunReport};
use crate::ground::exit::ExitStatus;
use crate::ground::interrupt::{self, Interrupt};

/// The loop guard's part: where it keeps its counts, and how many "keep working" answers in a
/// row a session gets (0: off).
#[derive(Clone, Copy, Debug)]
pub struct LoopGuard<'a> {
    /// The state file: per session, the "keep working" answers in a row.
    pub state: &'a Path,
    /// How many in a row are honoured before the agent is let stop (0: the guard is off).
    pub limit: u32,
}

/// What one event came to.
#[derive(Debug)]
pub struct Outcome {
    /// Every hook's report and the directive, after the loop guard.
    pub report: RunReport,
    /// Set when the loop guard dropped a "keep working" directive.
    pub released: Option<Released>,
    /// The signal that asked the program to stop while hooks ran (their groups were ended).
    pub interrupted: Option<Interrupt>,
    /// 0, 2 for block or keep working, 128 + N after a signal.
    pub status: ExitStatus,
    /// Problems met while deciding that leave the answer as it is, and the loop guard's notice.
    pub warnings: Vec<String>,
}

/// Runs `plan` and finishes the decision: on the quality-gate event (not in a dry run, and not
/// after a signal) the answer is counted by `guard`, which may let the agent stop; then the exit
/// status follows from the directive.
pub fn decide(plan: &Plan<'_>, guard: Option<LoopGuard<'_>>) -> Outcome {
    let mut report = runner::run(plan);
    let interrupted = interrupt::received();
    let mut warnings = Vec::new();
    let mut released = None;
    if let Some(guard) = guard
        && interrupted.is_none()
        && !plan.dry_run
        && plan.event().is_gate()
    {
        released = count(plan.invocation, guard, &mut report, &mut warnings);
    }
    let status = match (interrupted, &report.directive) {
        (Some(signal), _) => ExitStatus::Signaled(signal.exit_code()),
        // A call that waits for a person does not go ahead unattended: a caller that reads only
        // the exit status must hold it as it would a block.
        (
            None,
            Some(Directive::Block { .. } | Directive::Continue { .. } | Directive::Ask { .. }),
        ) => ExitStatus::Blocked,
        (None, _) => ExitStatus::Success,
    };
    Outcome {
        report,
        released,
        interrupted,
        status,
        warnings,
    }
}

/// Counts this gate answer for the session; past the limit, drops the "keep working" directive.
/// A state that cannot be kept is a warning: the answer then stands.
fn count(
    invocation: &Invocation,
    guard: LoopGuard<'_>,
    report: &mut RunReport,
    warnings: &mut Vec<String>,
) -> Option<Released> {
    let session = match &invocation.session_id {
        serde_json::Value::String(id) => id.clone(),
        other => other.to_string(),
    };
    let kept_working = matches!(report.directive, Some(Directive::Continue { .. }));
    let limit = guard.limit;
    match loop_guard::observe(
        guard.state,
        &session,
        kept_working,
        limit,
        SystemTime::now(),
    ) {
        Ok(Some(released)) => {
            warnings.push(format!(
                "the quality gate asked to keep working {} times in a row in session '{session}'; \
                 letting the agent stop (the limit is {limit}, see --gate-limit)",
                released.consecutive
            ));
            report.directive = None;
            Some(released)
        }
        Ok(None) => None,
        Err(err) => {
            warnings.push(format!("loop guard: {err}; the answer stands"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LoopGuard, decide};
    use crate::config::{Event, HookSpec, Origin, Source};
    use crate::consent::{Bypass, ConsentGate};
    use crate::engine::payload::Invocation;
    use crate::engine::runner::Plan;
    use crate::ground::exit::ExitStatus;

    #[test]
    fn a_library_caller_gets_the_whole_decision() {
        let dir = tempfile::tempdir().unwrap();
        let called = Event::parse("pre_verify").unwrap();
        let event = called.event;
        let hook = HookSpec::new(
            event,
            Source::Config,
            "gate".to_owned(),
            r#"sh -c 'cat >/dev/null; printf "{\"action\": \"continue\", \"message\": \"tests fail\"}"'"#
                .to_owned(),
            Origin {
                file: dir.path().join("config.yaml").into(),
                line: Some(1),
            },
        );
        let hooks = [hook];
        let mut input = serde_json::Map::new();
        input.insert("session_id".to_owned(), "s".into());
        let invocation = Invocation::from_input(
            input,
            &dir.path().to_string_lossy(),
            &crate::agents::Agent::Hermes,
        );
        let gate = ConsentGate::new(dir.path().join("allowlist.json"), Some(Bypass::Flag), false);
        let plan = Plan {
            called,
            hooks: &hooks,
            replacements: &[],
            invocation: &invocation,
            gate: &gate,
            current_dir: dir.path(),
            apply_matchers: true,
            dry_run: false,
            watchdog: None,
            allow: crate::engine::tool_classes::Allowances::default(),
        };
        let state = dir.path().join("gate.json");
        let guard = LoopGuard {
            state: &state,
            limit: 1,
        };
        // The first "keep working" stands (exit 2); the second goes past the limit of 1, so the
        // engine itself drops it and says why (exit 0), as `run` prints it.
        let first = decide(&plan, Some(guard));
        assert_eq!(first.status, ExitStatus::Blocked);
        assert!(first.released.is_none());
        let second = decide(&plan, Some(guard));
        assert_eq!(second.status, ExitStatus::Success);
        assert!(second.report.directive.is_none());
        assert_eq!(second.released.map(|r| r.consecutive), Some(2));
        assert_eq!(second.warnings.len(), 1, "{:?}", second.warnings);
    }
}
