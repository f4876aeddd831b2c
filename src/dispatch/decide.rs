//! Deciding one event: what is read before anything runs (the payload, the project, the hooks),
//! the run under consent and the loop guard, and the Hermes answer line (or the error line when
//! nothing could be decided).

use std::path::Path;
use std::rc::Rc;

use anyhow::{Result, anyhow};

use super::prepared::Prepared;
use super::{Answer, HookSource, Options, Request, Talk, record, said};
use crate::config::event::{Resolved, UnknownEvent};
use crate::config::{Event, HookSpec};
use crate::consent::{Bypass, ConsentGate};
use crate::engine::decision::{self, LoopGuard};
use crate::engine::fail_closed::{self, RunnerError};
use crate::engine::loop_guard;
use crate::engine::payload::{self, Invocation};
use crate::engine::response::{Directive, Status};
use crate::engine::runner::{HookReport, Plan, RunReport};
use crate::engine::tool_classes::Allowances;
use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::ground::paths::Start;
use crate::report::line::{DirectiveKeys, ErrorEntry, ErrorLine, RunLine, to_line};

/// Decides one event: reads the payload with `input` (only once the name is known), loads the
/// hooks from `source`, runs them and gives the Hermes answer line.
pub(super) fn decide(
    options: &Options<'_>,
    request: &Request<'_>,
    (resolved, allow): (Result<Resolved, UnknownEvent>, Allowances),
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    talk: &impl Talk,
) -> Answer {
    let resolved = match resolved {
        Ok(resolved) => resolved,
        Err(unknown) => return refuse(talk, request.name, &anyhow!(unknown), None),
    };
    let event = resolved.event;
    if let Some(current) = resolved.legacy_for {
        talk.warn(format!(
            "'{}' is a legacy event name; use '{current}'",
            request.name
        ));
    }
    if env::flag(env::HERMES_SAFE_MODE) {
        if source.announce_safe_mode() {
            talk.note(format!("{} is set: no hook runs", env::HERMES_SAFE_MODE));
        }
        let report = RunReport {
            hooks: Vec::new(),
            directive: None,
        };
        return Answer::nothing(Some(RunLine::new(event, &[], &report).text()));
    }
    let fail_closed = options.fail_closed();
    match prepare(options, request, (event, allow), input, source, talk) {
        Ok(mut prepared) => {
            let bypass = super::bypass(options.accept_hooks, &prepared.set);
            let gate = ConsentGate::new(prepared.allowlist.clone(), bypass, !request.dry_run)
                .keeping(prepared.kept_allowlist.clone());
            if event
                .effects(crate::config::SourceKind::AgentHooks)
                .contains(crate::config::Effects::BLOCK)
            {
                stand_in(&mut prepared, &gate, bypass, event);
            }
            match prepared.payload_error.take() {
                Some(err) => unreadable(options, request, event, &prepared, &err, source, talk),
                None => execute(options, request, resolved, &prepared, &gate, source, talk),
            }
        }
        Err(err) => {
            let error = fail_closed::of_payload(chain_text(&err), event);
            let block =
                (fail_closed && error.could_block).then(|| fail_closed::runner_block(&error));
            refuse(talk, event.name(), &err, block.as_ref())
        }
    }
}

fn prepare(
    options: &Options<'_>,
    request: &Request<'_>,
    (event, allow): (Event, Allowances),
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    talk: &impl Talk,
) -> Result<Prepared> {
    // A payload that cannot be read still lets the hooks load: a known `fail_closed` guard
    // then blocks, and the answer says which hooks could not run.
    let (input, payload_error) = match input() {
        Ok(input) => (input, None),
        Err(err) => (serde_json::Map::new(), Some(err)),
    };
    // The project is the agent's when it names one (the model moves the working directory);
    // else the payload's `cwd` (or `work_dir`) when that is a directory.
    let start = payload::project_start(&input, request.current_dir);
    let named = request
        .project_dir
        .map(|(dir, by)| (dir.to_path_buf(), by))
        .or_else(|| request.agent.project_in(&input))
        .filter(|(dir, by)| {
            let usable = dir.is_absolute() && dir.is_dir();
            if !usable {
                talk.warn(format!(
                    "the agent's project directory {} ({by}) is not a directory; the project is \
                     searched from {} instead",
                    dir.display(),
                    start.display()
                ));
            }
            usable
        });
    let names_profile = input.get("profile").is_some_and(|p| !p.is_null());
    let mut invocation = Invocation::from_input(
        input,
        &request.current_dir.to_string_lossy(),
        &request.agent,
    );
    let paths = match &named {
        Some((root, named_by)) => source.paths(
            options,
            &Start::Agent {
                root,
                named_by,
                cwd: Some(&start),
            },
        )?,
        None => source.paths(options, &Start::Dir(&start))?,
    };
    if !names_profile {
        // As Hermes names it: from the Hermes home (`~/.hermes/profiles/work` is `work`).
        let user_home = crate::ground::paths::home_dir();
        invocation.profile =
            crate::ground::profile::active_once(&paths.home, user_home.as_deref()).into();
    }
    let set = source.hooks(&paths, event, talk)?;
    let places = crate::protect::Places {
        home: paths.home.clone(),
        configs: std::iter::once(paths.config.clone())
            .chain(paths.managed.clone())
            .collect(),
        allowlist: paths.allowlist.clone(),
        hook_folders: paths
            .user_hooks
            .iter()
            .chain(&paths.project_hooks)
            .chain(&paths.nested_hooks)
            .cloned()
            .collect(),
        rules_files: std::iter::once(paths.user_rules.clone())
            .chain(
                paths
                    .project
                    .as_ref()
                    .or(paths.work_root.as_ref())
                    .map(|root| root.join(".agents").join(crate::ground::paths::RULES_FILE)),
            )
            .collect(),
        // The agent's project (or the repository) even without an `.agents/` folder: its
        // wiring lives there all the same.
        project: paths.project.clone().or_else(|| paths.work_root.clone()),
        audit_log: options.audit_log.map(Path::to_path_buf),
    };
    let reach = crate::consent::vanished::Reach::of(
        &paths,
        named
            .as_ref()
            .map_or(start.as_path(), |(root, _)| root.as_path()),
    );
    Ok(Prepared {
        reach,
        places,
        set,
        project: (paths.project, paths.project_from),
        home: paths.home,
        invocation,
        allowlist: paths.allowlist,
        payload_error,
        allow,
        agent: request.agent,
        kept_allowlist: source.kept_allowlist(),
    })
}

/// Puts what was approved in place of each approved guard in reach that vanished or changed
/// since (see [`crate::consent::vanished`]).
fn stand_in(prepared: &mut Prepared, gate: &ConsentGate, bypass: Option<Bypass>, event: Event) {
    let home = crate::ground::paths::home_dir();
    // `${project}` is the folder the rules were loaded for.
    let vars = crate::config::rules::Vars {
        project: prepared.reach.project(),
        home: home.as_deref(),
    };
    if let std::borrow::Cow::Owned(set) = crate::consent::vanished::stand_ins(
        &prepared.set,
        gate.allowlist(),
        &prepared.allowlist,
        (&prepared.reach, vars, Some(event)),
        bypass,
    ) {
        prepared.set = Rc::new(set);
    }
}

fn execute(
    options: &Options<'_>,
    request: &Request<'_>,
    resolved: Resolved,
    prepared: &Prepared,
    gate: &ConsentGate,
    source: &mut impl HookSource,
    talk: &impl Talk,
) -> Answer {
    let event = resolved.event;
    if let Some(inside) = super::switch_set_aside(options.accept_hooks) {
        talk.warn(format_args!(
            "--accept-hooks and HERMES_HOOKS_ACCEPT are set aside inside {inside}: approving is \
             a person's decision (`hermes-hooks approve`, run outside the agent)"
        ));
    }
    let watchdog = super::watchdog_program(&prepared.set);
    let (limit, limit_problem) = loop_guard::limit(options.gate_limit);
    if let Some(problem) = limit_problem {
        talk.warn(problem);
    }
    let state = prepared.home.join(loop_guard::STATE_FILE);
    let kept = protected(event, prepared, request, gate, source);
    let before_hooks = kept.as_ref().is_some_and(|kept| !kept.sweeping);
    let mut outcome = if before_hooks {
        blocked_for_the_person(prepared)
    } else {
        decision::decide(
            &Plan {
                called: resolved,
                hooks: &prepared.set.hooks,
                replacements: &prepared.set.replacements,
                invocation: &prepared.invocation,
                gate,
                current_dir: request.current_dir,
                apply_matchers: true,
                dry_run: request.dry_run,
                watchdog: super::watchdog(watchdog.as_deref()),
                allow: prepared.allow,
            },
            Some(LoopGuard {
                state: &state,
                limit,
            }),
        )
    };
    let kept = kept.and_then(|kept| still_kept(kept, &outcome, prepared, gate, source));
    if kept.is_some() && !before_hooks && outcome.interrupted.is_none() {
        outcome = blocked_for_the_person(prepared);
    }
    if let Some(kept) = &kept {
        talk.warn(format_args!(
            "kept the model from changing the guard's own files: {}",
            kept.what
        ));
    }
    let mut errors = fail_closed::of_set(&prepared.set, event);
    if let Some(problem) = gate.problem() {
        errors.push(fail_closed::of_allowlist(
            prepared.allowlist.clone(),
            problem,
            event,
        ));
    }
    fail_closed::close(&mut outcome, &errors, options.fail_closed());
    unseen_terminal(&mut outcome, prepared);
    let report = &outcome.report;
    let status = outcome.status;
    if !request.dry_run
        && let Some(pending) = record::audit(options, event, prepared, report, &errors, status)
    {
        source.audit(pending, talk);
    }
    if let Some(signal) = outcome.interrupted {
        said::say_interrupted(signal, talk);
        return Answer {
            line: None,
            status,
            agent_message: None,
            directive: None,
            error: None,
            notice: None,
        };
    }
    for warning in &outcome.warnings {
        talk.warn(warning);
    }
    said::consent_warnings(gate, report, talk, false);
    for hook in &report.hooks {
        if let Some(warning) = hook_warning(&prepared.set.hooks[hook.index], hook) {
            talk.warn(warning);
        }
    }
    crate::report::line::keep_entries(&prepared.set.hooks, report);
    let mut line = RunLine::new(event, &prepared.set.hooks, report);
    line.loop_guard = outcome.released;
    line.errors = ErrorEntry::all(&errors);
    Answer {
        line: Some(line.text()),
        status,
        agent_message: agent_message(report),
        directive: report.directive.clone(),
        error: None,
        notice: notice(request, prepared, report, &errors, kept.as_ref(), talk),
    }
}

/// What a call would do to the guard's own state (SPEC 13), when it is a tool call before it
/// runs, a guard is approved, and the person did not turn this off.
fn protected(
    event: Event,
    prepared: &Prepared,
    request: &Request<'_>,
    gate: &ConsentGate,
    source: &mut impl HookSource,
) -> Option<crate::protect::Kept> {
    if event != Event::PRE_TOOL_CALL || request.dry_run {
        return None;
    }
    let home = crate::ground::paths::home_dir();
    crate::protect::check(
        &prepared.invocation,
        &prepared.places,
        home.as_deref(),
        || crate::protect::guarded(&prepared.places, gate.allowlist()),
        &mut |folder| source.real_folder(folder),
        false,
    )
}

/// A kept call after the rules and hooks answered: a targeted one stays kept; a sweeping one
/// only when they let it through (one they rewrote is judged as rewritten).
fn still_kept(
    kept: crate::protect::Kept,
    outcome: &decision::Outcome,
    prepared: &Prepared,
    gate: &ConsentGate,
    source: &mut impl HookSource,
) -> Option<crate::protect::Kept> {
    if !kept.sweeping {
        return Some(kept);
    }
    // Looked into now, the sweep included.
    let mut again = |invocation: &Invocation| {
        let home = crate::ground::paths::home_dir();
        crate::protect::check(
            invocation,
            &prepared.places,
            home.as_deref(),
            || crate::protect::guarded(&prepared.places, gate.allowlist()),
            &mut |folder| source.real_folder(folder),
            true,
        )
    };
    match &outcome.report.directive {
        Some(Directive::Block { .. } | Directive::Continue { .. } | Directive::Ask { .. }) => None,
        Some(Directive::Modify { args }) => {
            let mut rewritten = prepared.invocation.clone();
            rewritten.commands = crate::shell::Kept::default();
            let input = rewritten.tool_input.get_or_insert_with(Default::default);
            for (key, value) in args {
                input.insert(key.clone(), value.clone());
            }
            again(&rewritten)
        }
        _ => again(&prepared.invocation),
    }
}

/// The answer to a call kept from the guard's files: blocked, no hook run.
fn blocked_for_the_person(prepared: &Prepared) -> decision::Outcome {
    let why = "the call would change the guard's own files";
    decision::Outcome {
        report: RunReport {
            hooks: (0..prepared.set.hooks.len())
                .map(|index| HookReport::not_run(index, why))
                .collect(),
            directive: Some(Directive::Block {
                message: crate::protect::MODEL_MESSAGE.to_owned(),
            }),
        },
        released: None,
        interrupted: None,
        status: ExitStatus::Blocked,
        warnings: Vec::new(),
    }
}

/// A call that opens a terminal no hook will see the input of (Codex's `exec_command` with a
/// tty) is blocked when a hook watched it: the guard could not check what is typed there later.
/// A block or gate the hooks gave, or an answer cut short by a signal, stands.
fn unseen_terminal(outcome: &mut decision::Outcome, prepared: &Prepared) {
    if outcome.interrupted.is_some()
        || !crate::agents::opens_unseen_terminal(
            prepared.agent,
            prepared.invocation.tool_input.as_ref(),
        )
        || matches!(
            outcome.report.directive,
            Some(Directive::Block { .. } | Directive::Continue { .. })
        )
    {
        return;
    }
    let watched = outcome.report.hooks.iter().any(|hook| {
        !matches!(
            hook.status,
            Status::NotMatched | Status::Unapproved | Status::Changed
        )
    });
    if watched {
        outcome.report.directive = Some(Directive::Block {
            message: crate::agents::UNSEEN_TERMINAL.to_owned(),
        });
        outcome.status = ExitStatus::Blocked;
    }
}

/// In an agent's mode, what the person must hear about guards that did not check this call
/// (once per session and guard; see [`crate::engine::stopped_guards`]).
fn notice(
    request: &Request<'_>,
    prepared: &Prepared,
    report: &RunReport,
    errors: &[RunnerError],
    kept: Option<&crate::protect::Kept>,
    talk: &impl Talk,
) -> Option<String> {
    if request.agent.is_hermes() || request.dry_run {
        return None;
    }
    let mut told = crate::engine::stopped_guards::of_decision(&prepared.set.hooks, report, errors);
    told.extend(kept.map(|kept| crate::engine::stopped_guards::protected(&kept.what)));
    if told.is_empty() {
        return None;
    }
    let session = prepared.invocation.session_id.as_str().unwrap_or("");
    let state = prepared
        .home
        .join(crate::engine::stopped_guards::STATE_FILE);
    let (said, problem) =
        crate::engine::stopped_guards::once(&state, session, &told, std::time::SystemTime::now());
    if let Some(problem) = problem {
        talk.warn(problem);
    }
    said
}

/// The block or gate message, for a caller that reads stderr; for "ask a person", the block a
/// Hermes config hook gives (it cannot ask): the same words as the line's `reason`.
fn agent_message(report: &RunReport) -> Option<String> {
    match &report.directive {
        Some(Directive::Block { message } | Directive::Continue { message }) => {
            Some(message.clone())
        }
        Some(Directive::Ask { message, .. }) => {
            match crate::engine::response::ask_as_block(message, "Hermes") {
                Directive::Block { message } => Some(message),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The answer when the payload could not be read: no hook can run; a known `fail_closed` guard
/// blocks, and so does fail-closed mode where a hook could block; else exit 1. The line is
/// `{"event","error",...}` with every hook `not_run`.
fn unreadable(
    options: &Options<'_>,
    request: &Request<'_>,
    event: Event,
    prepared: &Prepared,
    err: &anyhow::Error,
    source: &mut impl HookSource,
    talk: &impl Talk,
) -> Answer {
    talk.error(err);
    let why = chain_text(err);
    let payload = fail_closed::of_payload(why.clone(), event);
    let outcome =
        fail_closed::unreadable_payload(&prepared.set.hooks, &payload, options.fail_closed());
    let mut errors = vec![payload];
    errors.extend(fail_closed::of_set(&prepared.set, event));
    let report = &outcome.report;
    if !request.dry_run
        && let Some(pending) =
            record::audit(options, event, prepared, report, &errors, outcome.status)
    {
        source.audit(pending, talk);
    }
    let mut line = RunLine::new(event, &prepared.set.hooks, report);
    line.error = Some(&why);
    line.errors = ErrorEntry::all(&errors);
    Answer {
        line: Some(line.text()),
        status: outcome.status,
        agent_message: agent_message(report),
        directive: report.directive.clone(),
        notice: notice(request, prepared, report, &errors, None, talk),
        error: Some(why),
    }
}

/// An error's text with its causes, on one line.
fn chain_text(err: &anyhow::Error) -> String {
    err.chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// The stderr warning for a hook that failed (or whose answer was ignored), naming the hook and
/// where it is declared.
fn hook_warning(spec: &HookSpec, report: &HookReport) -> Option<String> {
    let message = report.message.as_deref()?;
    let outcome = match report.status {
        Status::Failed | Status::TimedOut | Status::SpawnFailed | Status::InvalidOutput => {
            match report.directive.as_deref() {
                Some(
                    Directive::Block { .. } | Directive::Continue { .. } | Directive::Ask { .. },
                ) => "",
                _ => " (failing open)",
            }
        }
        Status::Ok => "",
        _ => return None,
    };
    Some(format!(
        "hook {} ({}): {message}{outcome}",
        spec.name, spec.origin
    ))
}

/// An error before anything could be loaded: the message on stderr, `{"event","error"}` as the
/// line, exit 1; or, when fail-closed mode turns it into `block`, that block (exit 2).
fn refuse(talk: &impl Talk, event: &str, err: &anyhow::Error, block: Option<&Directive>) -> Answer {
    talk.error(err);
    let text = chain_text(err);
    let agent_message = match block {
        Some(Directive::Block { message }) => Some(message.clone()),
        _ => None,
    };
    let error = Some(text.clone());
    Answer {
        directive: block.cloned(),
        error,
        notice: None,
        line: Some(to_line(&ErrorLine {
            event,
            error: &text,
            directive: DirectiveKeys::of(block),
        })),
        status: if block.is_some() {
            ExitStatus::Blocked
        } else {
            ExitStatus::Error
        },
        agent_message,
    }
}
