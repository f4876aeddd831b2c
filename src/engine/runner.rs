//! One event's run: match each hook, decide which project hooks replace a user hook of their
//! name (only those that would run themselves), check consent right before each start, execute
//! (in order where hooks can change something, concurrently where none can), read each answer,
//! and aggregate one directive.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::config::event::Resolved;
use crate::config::{Effects, Event, HookSpec, Replacement, Source};
use crate::consent::fingerprint::ScriptState;
use crate::consent::{ConsentGate, Verdict};
use crate::engine::payload::{Dialect, Invocation};
use crate::engine::response::{self, Answer, Directive, Rules, Status};
use crate::engine::tool_classes::Allowances;
use crate::exec::Input;
use crate::exec::detach::{self, Watchdog};
use crate::exec::{self, End, Job, Outcome};
use crate::ground::env::{HERMES_HOOK_EVENT, HERMES_HOOKS_DEPTH};

/// Hooks started at once on observer events, so a long list never exhausts descriptors.
pub(crate) const MAX_CONCURRENT: usize = 16;

/// What to run.
pub struct Plan<'a> {
    /// The event the hooks are declared for, as it was called (by which of its names).
    pub called: Resolved,
    /// The hooks declared for it, in order.
    pub hooks: &'a [HookSpec],
    /// Project hooks that may replace a user hook of their name (see
    /// [`crate::config::HookSet::replacements`]).
    pub replacements: &'a [Replacement],
    /// The call, normalised from the input payload.
    pub invocation: &'a Invocation,
    /// Decides, right before each spawn, whether the hook may run.
    pub gate: &'a ConsentGate,
    /// The directory `run` was started in (a hook's fallback working directory).
    pub current_dir: &'a Path,
    /// Apply tool matchers (`test` without `--for-tool` runs every hook).
    pub apply_matchers: bool,
    /// Check consent and report, without running anything.
    pub dry_run: bool,
    /// The program that watches `async` hooks past the end of this process; without one,
    /// `async` hooks cannot start.
    pub watchdog: Option<Watchdog<'a>>,
    /// What the calling agent reads beyond the event table (none for Hermes).
    pub allow: Allowances,
}

impl Plan<'_> {
    /// The event the hooks are declared for, whichever of its names it was called by.
    pub fn event(&self) -> Event {
        self.called.event
    }

    /// Whether the call failed (called by the event's failure alias, or `status` `error` on an
    /// event that has one): its Agent Hooks declared for the failure run instead of the others.
    pub fn failure(&self) -> bool {
        self.called.event.failure_alias().is_some()
            && (self.called.is_failure() || self.invocation.failed())
    }
}

/// One hook's part in the run.
#[derive(Clone, Debug)]
pub struct HookReport {
    /// Index into [`Plan::hooks`].
    pub index: usize,
    /// What happened to it: ran and answered, was skipped (and why), or failed.
    pub status: Status,
    /// Exit code when it ran (`Some(None)`: killed by a signal or at its deadline).
    pub exit_code: Option<Option<i32>>,
    /// Time from start until it and its group were gone, when it ran.
    pub elapsed: Option<Duration>,
    /// Warnings and errors, or the block message.
    pub message: Option<String>,
    /// What it asked for (within what its event allows).
    pub directive: Option<Box<Directive>>,
    /// Its stderr (bounded), for audit views.
    pub stderr: String,
    /// A consent notice for stderr (approved on the spot, not approved, changed, ...).
    pub notice: Option<String>,
    /// The sha256 of its script as consent read it (`None`: not checked, or unreadable).
    pub sha256: Option<String>,
    /// Consent (or the file check before it) kept it from starting.
    pub denied: bool,
}

impl HookReport {
    /// A hook that was not started, and why.
    pub(crate) fn not_run(index: usize, why: &str) -> Self {
        Self::skipped(index, Status::NotRun, Some(why.to_owned()))
    }

    fn skipped(index: usize, status: Status, message: Option<String>) -> Self {
        Self {
            index,
            status,
            exit_code: None,
            elapsed: None,
            message,
            directive: None,
            stderr: String::new(),
            notice: None,
            sha256: None,
            denied: false,
        }
    }
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Every hook of the event, in order.
    pub hooks: Vec<HookReport>,
    /// The aggregated directive.
    pub directive: Option<Directive>,
}

/// Runs the plan.
pub(crate) fn run(plan: &Plan<'_>) -> RunReport {
    let replaced = replaced(plan);
    let left_out = bridged(plan.hooks);
    let left_out_at = |index: usize| left_out.get(index).and_then(Option::as_ref);
    let applies: Vec<bool> = plan
        .hooks
        .iter()
        .enumerate()
        .map(|(index, hook)| left_out_at(index).is_none() && applies(plan, hook))
        .collect();
    let sequential = plan
        .hooks
        .iter()
        .zip(&applies)
        .any(|(hook, applies)| *applies && !hook.run_async() && !hook.effects().is_empty());
    let (hooks, tool_input) = if sequential {
        run_in_order(plan, &applies, &replaced)
    } else {
        (run_concurrently(plan, &applies, &replaced), None)
    };
    let mut hooks = hooks;
    if !left_out.is_empty() {
        for report in &mut hooks {
            if let Some(why) = left_out_at(report.index) {
                *report = HookReport::skipped(report.index, Status::NotRun, Some(why.clone()));
            }
        }
    }
    let directive = aggregate(&hooks, tool_input);
    RunReport { hooks, directive }
}

/// The bridge: a config hook whose command is `hermes-hooks run ...`, which Hermes runs to reach
/// Agent Hooks folders and this tool's consent. Started from here it would call itself, so it is
/// never run; and where an event has one, its other config hooks are left to Hermes, which runs
/// them itself (running them here too would run them twice). For each hook, why it is left out
/// (empty where there is no bridge).
fn bridged(hooks: &[HookSpec]) -> Vec<Option<String>> {
    let is_the_bridge =
        |hook: &HookSpec| matches!(hook.source, Source::Config) && is_bridge(&hook.command);
    let Some(bridge) = hooks.iter().position(is_the_bridge) else {
        return Vec::new();
    };
    hooks
        .iter()
        .map(|hook| match hook.source {
            Source::Config if is_the_bridge(hook) => Some(
                "the bridge from Hermes into hermes-hooks: run from here it would call itself"
                    .to_owned(),
            ),
            Source::Config => Some(format!(
                "left to Hermes, which runs its config hooks itself ({} is the bridge here)",
                hooks[bridge].origin
            )),
            Source::AgentHooks(_) | Source::Rules(_) => None,
        })
        .collect()
}

/// Whether `command` runs `hermes-hooks run`.
pub(crate) fn is_bridge(command: &str) -> bool {
    // Without quotes, escapes or `~`, the words are pieces of the command as written: if no
    // piece can end in "hermes-hooks", no split is needed to tell. This runs for every config
    // hook of the event, on every call, so it is one pass over the bytes, not two searches.
    let bytes = command.as_bytes();
    let maybe = bytes.iter().enumerate().any(|(at, byte)| match byte {
        b'\'' | b'"' | b'\\' | b'~' => true,
        b'h' => bytes[at..].starts_with(b"hermes-hooks"),
        _ => false,
    });
    if !maybe {
        return false;
    }
    let Ok(words) = crate::exec::spawn::split(command) else {
        return false;
    };
    let mut words = words.iter();
    words.next().is_some_and(|program| {
        Path::new(program)
            .file_name()
            .is_some_and(|name| name == "hermes-hooks")
    }) && words.any(|word| word == "run")
}

/// For each hook, the project hook that replaces it. A project hook replaces the user hook of
/// its name only when it would run itself; otherwise the user hook runs as usual. Empty where
/// there are no project hooks of a user hook's name.
fn replaced(plan: &Plan<'_>) -> Vec<Option<usize>> {
    if plan.replacements.is_empty() {
        return Vec::new();
    }
    let work_dir = plan.invocation.work_dir(plan.current_dir);
    crate::config::replaced(plan.hooks, plan.replacements, |hook| {
        plan.gate.would_run(hook, &work_dir)
    })
}

/// The report of a user hook that a project hook replaces.
fn replaced_report(plan: &Plan<'_>, index: usize, by: usize) -> HookReport {
    let project = &plan.hooks[by];
    HookReport::skipped(
        index,
        Status::NotRun,
        Some(format!(
            "replaced by the approved project hook '{}' ({})",
            project.name, project.origin
        )),
    )
}

/// Which user hook `index` stands in for, when it is a replacing project hook.
fn stands_in_for(replaced: &[Option<usize>], index: usize) -> Option<usize> {
    replaced.iter().position(|by| *by == Some(index))
}

/// Whether `hook` runs for this call: its matchers (when they apply) and, for Agent Hooks on
/// an event with a failure alias, whether it was declared for a failed or a successful call.
fn applies(plan: &Plan<'_>, hook: &HookSpec) -> bool {
    if let Some(agent) = hook.agent()
        && hook.event.failure_alias().is_some()
        && agent.on_failure != plan.failure()
    {
        return false;
    }
    if hook.rule().is_some() {
        // A rule's conditions are its whole point: `test` without `--for-tool` checks them too.
        return crate::engine::rules::applies(
            hook,
            plan.invocation,
            plan.invocation.tool_input.as_ref(),
        );
    }
    if !plan.apply_matchers || !hook.event.is_tool_event() {
        return true;
    }
    let tool = plan.invocation.tool_name();
    // An Agent Hooks matcher may name the tool's class (`shell`) instead of the tool.
    let by_class = || {
        hook.agent().is_some()
            && plan
                .invocation
                .tool_class
                .is_some_and(|class| hook.matches_tool(Some(class)))
    };
    (hook.matches_tool(tool) || by_class())
        && hook.matches_input(plan.invocation.tool_input.as_ref())
}

/// The payload `hook` receives, in the dialect of its source: in memory when small, else spooled
/// to an anonymous file.
fn wire_for(
    hook: &HookSpec,
    invocation: &Invocation,
    tool_input: Option<&Map<String, Value>>,
) -> std::io::Result<Input> {
    let dialect = match &hook.source {
        Source::AgentHooks(agent) => Dialect::AgentHooks {
            on_failure: agent.on_failure,
        },
        Source::Config | Source::Rules(_) => Dialect::Hermes,
    };
    Input::spool(|out| invocation.write_wire(out, dialect, hook.event, tool_input))
}

/// Gating events: one after another; each `modify` feeds the next hook; the first block or gate
/// stops the rest.
fn run_in_order(
    plan: &Plan<'_>,
    applies: &[bool],
    replaced: &[Option<usize>],
) -> (Vec<HookReport>, Option<Map<String, Value>>) {
    // The input as rewritten so far; cloned from the call's only when a hook rewrites it.
    let mut rewritten: Option<Map<String, Value>> = None;
    let mut stopped_by: Option<String> = None;
    let mut reports = Vec::with_capacity(plan.hooks.len());
    let absorb = |report: &HookReport, rewritten: &mut Option<Map<String, Value>>| match report
        .directive
        .as_deref()
    {
        Some(Directive::Block { .. } | Directive::Continue { .. }) => {
            Some(plan.hooks[report.index].name.to_string())
        }
        Some(Directive::Modify { args }) => {
            let current = rewritten
                .get_or_insert_with(|| plan.invocation.tool_input.clone().unwrap_or_default());
            for (key, value) in args {
                current.insert(key.clone(), value.clone());
            }
            None
        }
        // A person is asked only if no later hook blocks: the rest still run.
        Some(Directive::Context { .. } | Directive::Ask { .. } | Directive::Text { .. }) | None => {
            None
        }
    };
    for index in 0..plan.hooks.len() {
        if let Some(by) = replaced.get(index).copied().flatten() {
            reports.push(replaced_report(plan, index, by));
            continue;
        }
        if !applies[index] {
            reports.push(HookReport::skipped(index, Status::NotMatched, None));
            continue;
        }
        if let Some(by) = &stopped_by {
            reports.push(HookReport::skipped(
                index,
                Status::NotRun,
                Some(format!("stopped by {by}")),
            ));
            continue;
        }
        let current = rewritten.as_ref().or(plan.invocation.tool_input.as_ref());
        let report = run_one(plan, index, current);
        stopped_by = absorb(&report, &mut rewritten);
        let fallback = report
            .denied
            .then(|| stands_in_for(replaced, index))
            .flatten();
        reports.push(report);
        // The project hook that was to replace a user hook did not start after all (its script
        // changed since the check): the user hook runs in its place.
        if let Some(user) = fallback
            && stopped_by.is_none()
            && applies[user]
        {
            let current = rewritten.as_ref().or(plan.invocation.tool_input.as_ref());
            let report = run_one(plan, user, current);
            stopped_by = absorb(&report, &mut rewritten);
            reports[user] = report;
        }
    }
    (reports, rewritten)
}

/// Observer events: every applicable hook at once (bounded), reported in order.
fn run_concurrently(
    plan: &Plan<'_>,
    applies: &[bool],
    replaced: &[Option<usize>],
) -> Vec<HookReport> {
    let todo: Vec<usize> = (0..plan.hooks.len())
        .filter(|i| applies[*i] && replaced.get(*i).copied().flatten().is_none())
        .collect();
    let unstarted = |index: usize| match replaced.get(index).copied().flatten() {
        Some(by) => replaced_report(plan, index, by),
        None => HookReport::skipped(index, Status::NotMatched, None),
    };
    if todo.is_empty() {
        // The usual answer where rules are approved: none of them is about the call.
        return (0..plan.hooks.len()).map(unstarted).collect();
    }
    let mut slots = vec![None; plan.hooks.len()];
    for (index, by) in replaced.iter().enumerate() {
        if let Some(by) = by {
            slots[index] = Some(replaced_report(plan, index, *by));
        }
    }
    let slots: Mutex<Vec<Option<HookReport>>> = Mutex::new(slots);
    let next = AtomicUsize::new(0);
    let worker = || {
        while let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
            let input = plan.invocation.tool_input.as_ref();
            let report = run_one(plan, index, input);
            // A replacing project hook that did not start after all: its user hook runs.
            let fallback = report
                .denied
                .then(|| stands_in_for(replaced, index))
                .flatten()
                .filter(|user| applies[*user])
                .map(|user| run_one(plan, user, input));
            let mut slots = slots
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(user) = fallback {
                let at = user.index;
                slots[at] = Some(user);
            }
            slots[index] = Some(report);
        }
    };
    let helpers = todo.len().min(MAX_CONCURRENT).saturating_sub(1);
    thread::scope(|scope| {
        for _ in 0..helpers {
            // Should a thread fail to start, the others (and this one) take its share.
            let _ = thread::Builder::new().spawn_scoped(scope, worker);
        }
        worker();
    });
    slots
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .enumerate()
        .map(|(index, slot)| {
            slot.unwrap_or_else(|| HookReport::skipped(index, Status::NotMatched, None))
        })
        .collect()
}

/// The payload, then consent, then the hook itself, then its answer. The payload is written out
/// before consent reads the script, so the time between the pin check and the start does not
/// grow with the payload.
fn run_one(plan: &Plan<'_>, index: usize, tool_input: Option<&Map<String, Value>>) -> HookReport {
    let hook = &plan.hooks[index];
    if crate::ground::interrupt::received().is_some() {
        return HookReport::skipped(index, Status::NotRun, Some("interrupted".to_owned()));
    }
    let rule = hook.rule();
    // A rule is known by its file's absolute path and runs nothing: no folder is looked at.
    let work_dir = match rule {
        Some(_) => plan.current_dir.to_path_buf(),
        None => plan.invocation.work_dir(plan.current_dir),
    };
    let payload =
        (!plan.dry_run && rule.is_none()).then(|| wire_for(hook, plan.invocation, tool_input));
    let (verdict, sha256) = match hook.stand_in() {
        Some(stand_in) => (
            Verdict::Changed {
                message: stand_in.message(&hook.command),
            },
            None,
        ),
        None => plan.gate.decide(hook, &work_dir),
    };
    let mut report = match verdict {
        Verdict::Run { notice } => {
            let mut report = match rule {
                Some(rule) => rule_report(plan, hook, rule, index),
                None => run_decided(plan, index, payload, &work_dir),
            };
            report.notice = notice.or(report.notice);
            report
        }
        Verdict::Unapproved { message } => denied(plan, index, Status::Unapproved, &message),
        Verdict::Changed { message } => denied(plan, index, Status::Changed, &message),
        Verdict::Refused { message } => denied(plan, index, Status::SpawnFailed, &message),
    };
    report.sha256 = sha256;
    report
}

/// A rule that applies, and may decide: its answer, taken in this process (a dry run gives it
/// too, since nothing runs).
fn rule_report(
    plan: &Plan<'_>,
    hook: &HookSpec,
    rule: &crate::config::rules::Rule,
    index: usize,
) -> HookReport {
    let started = std::time::Instant::now();
    let invocation = plan.invocation;
    let (status, directive) =
        crate::engine::rules::answer(hook, rule, invocation, invocation.tool_input.as_ref());
    let mut report = HookReport::skipped(index, status, None);
    if let Directive::Block { message } = &directive {
        report.message = Some(message.clone());
    }
    report.directive = Some(Box::new(directive));
    report.elapsed = Some(started.elapsed());
    report
}

/// A hook that consent (or the file check) kept from starting. A `fail_closed` guard blocks:
/// a guard that was edited, removed or never approved must not become an open door. A dry run
/// says so and decides nothing.
fn denied(plan: &Plan<'_>, index: usize, status: Status, message: &str) -> HookReport {
    let hook = &plan.hooks[index];
    let closes = hook.fail_closed && hook.effects().contains(Effects::BLOCK);
    let mut report = HookReport::skipped(index, status, Some(message.to_owned()));
    report.denied = true;
    report.notice = Some(message.to_owned());
    if closes && plan.dry_run {
        report.message = Some(format!("{message}; fail_closed: a run would block"));
    } else if closes {
        report.message = Some(format!("failed closed: {message}"));
        let what = match status {
            Status::Unapproved => "is not approved",
            Status::Changed => "changed since it was approved",
            _ => "could not be started",
        };
        report.directive = Some(Box::new(crate::engine::response::fail_closed_block(
            &format!("{} {}", hook.kind_word(), hook.model_name()),
            what,
        )));
    }
    report
}

/// The rest of [`run_one`], once consent let the hook run.
fn run_decided(
    plan: &Plan<'_>,
    index: usize,
    payload: Option<std::io::Result<Input>>,
    work_dir: &Path,
) -> HookReport {
    let hook = &plan.hooks[index];
    let Some(payload) = payload else {
        let state = crate::consent::script_state(hook, work_dir);
        if state == ScriptState::Ok {
            return HookReport::skipped(
                index,
                Status::NotRun,
                Some("dry run: would run".to_owned()),
            );
        }
        let closes = if hook.fail_closed && hook.effects().contains(Effects::BLOCK) {
            "; fail_closed: a run would block"
        } else {
            ""
        };
        return HookReport::skipped(
            index,
            Status::NotRun,
            Some(format!(
                "dry run: would not start, its script is {}{closes}",
                state.as_str()
            )),
        );
    };
    let outcome = match payload {
        Ok(payload) => {
            let job = Job {
                command: &hook.command,
                argv: hook.argv(),
                cwd: work_dir,
                env: &[
                    (HERMES_HOOK_EVENT, hook.event.name()),
                    (HERMES_HOOKS_DEPTH, crate::ground::env::depth_for_hooks()),
                ],
                stdin: &payload,
                timeout: hook.timeout,
            };
            if hook.run_async() {
                return start_async(plan, index, &job);
            }
            exec::run(&job)
        }
        Err(err) => Outcome::not_started(format!("cannot hold the payload: {err}")),
    };
    let Answer {
        status,
        directive,
        message,
    } = response::interpret(&outcome, &Rules::for_hook_with(hook, plan.allow));
    let exit_code = match outcome.end {
        End::Exited(code) => Some(Some(code)),
        End::Signaled(_) | End::TimedOut | End::Interrupted => Some(None),
        End::SpawnFailed(_) => None,
    };
    HookReport {
        index,
        status,
        exit_code,
        elapsed: Some(outcome.elapsed),
        message,
        directive: directive.map(Box::new),
        stderr: String::from_utf8_lossy(&outcome.stderr).into_owned(),
        notice: None,
        sha256: None,
        denied: false,
    }
}

/// An `async` hook: started, not waited for; it cannot change anything.
fn start_async(plan: &Plan<'_>, index: usize, job: &Job<'_>) -> HookReport {
    let started = std::time::Instant::now();
    let result = match &plan.watchdog {
        Some(watchdog) => detach::start(job, watchdog),
        None => Err("async hooks need a watchdog, and none was given".to_owned()),
    };
    let mut report = match result {
        Ok(pid) => HookReport::skipped(
            index,
            Status::Async,
            Some(format!(
                "started in the background (pid {pid}), not waited for"
            )),
        ),
        Err(reason) => HookReport::skipped(index, Status::SpawnFailed, Some(reason)),
    };
    report.elapsed = Some(started.elapsed());
    report
}

/// The first block wins; else the first gate; else the first "ask a person", carrying the
/// rewritten input (what runs if the person says yes); else the rewritten input; else the last
/// new text to speak; else every context, joined by a blank line.
fn aggregate(hooks: &[HookReport], tool_input: Option<Map<String, Value>>) -> Option<Directive> {
    // Gathered in one pass: an answer lists every hook, and most have no directive.
    let given: Vec<&Directive> = hooks
        .iter()
        .filter_map(|h| h.directive.as_deref())
        .collect();
    let directives = || given.iter().copied();
    if let Some(block) = directives().find(|d| matches!(d, Directive::Block { .. })) {
        return Some(block.clone());
    }
    if let Some(gate) = directives().find(|d| matches!(d, Directive::Continue { .. })) {
        return Some(gate.clone());
    }
    if let Some(Directive::Ask {
        message, rule_key, ..
    }) = directives().find(|d| matches!(d, Directive::Ask { .. }))
    {
        return Some(Directive::Ask {
            message: message.clone(),
            rule_key: rule_key.clone(),
            args: tool_input,
        });
    }
    if let Some(args) = tool_input {
        return Some(Directive::Modify { args });
    }
    // A new text to speak: the last one wins, as in Hermes's tts policy.
    if let Some(text) = directives().rfind(|d| matches!(d, Directive::Text { .. })) {
        return Some(text.clone());
    }
    let contexts: Vec<&str> = directives()
        .filter_map(|d| match d {
            Directive::Context { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!contexts.is_empty()).then(|| Directive::Context {
        text: contexts.join("\n\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::is_bridge;

    #[test]
    fn the_bridge_is_told_however_its_command_is_spelt() {
        for bridge in [
            "hermes-hooks run",
            "/usr/local/bin/hermes-hooks --project . run",
            "hermes-hoo'ks' run",
            "\"hermes-hooks\" r\\un",
            "hermes\\-hooks run",
            "/opt/hhermes/hermes-hooks run",
            "~/bin/hermes-hooks run",
        ] {
            assert!(is_bridge(bridge), "{bridge}");
        }
        for other in [
            "hermes-hooks list",
            "./guard.sh run",
            "hermes-hooks-run run",
            "'./guard.sh' run",
            "python3 hermes-hooks run",
            "/opt/hooks/h/hermes-hook run",
            "hhermes-hooks run",
        ] {
            assert!(!is_bridge(other), "{other}");
        }
    }
}
