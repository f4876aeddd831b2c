//! `doctor`: checks every hook (script, exec bit, approval, content change, mtime drift), the
//! config's warnings and duplicates, and smoke-runs approved hooks on the synthetic payload.
//! Exit 1 on any error (`--strict`: any warning): a CI gate. It never writes the allowlist and
//! never runs an unapproved hook unless `--accept-hooks`.

use std::collections::HashMap;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::clock;
use crate::config::in_process;
use crate::config::{HookSpec, WarningKind};
use crate::consent::fingerprint::ScriptState;
use crate::consent::fingerprint::short_sha256;
use crate::consent::store::{self, Allowlist};
use crate::consent::{Assessment, ConsentState, approve_hint, assess};
use crate::env::HERMES_HOOK_EVENT;
use crate::exec::{self, Job};
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{Printer, Screen};
use crate::paths::Paths;
use crate::payload::Invocation;
use crate::response::{self, Rules, Status};
use crate::runner;
use crate::synthetic;

#[derive(Args, Debug)]
#[command(
    after_help = "Errors: a missing or non-executable script, a changed script, a smoke run \
    that times out, cannot start or prints invalid JSON, a config that cannot be parsed, a hook \
    entry that is skipped. Warnings: an unapproved hook, an unpinned approval, mtime drift without \
    a pin, an ignored matcher, an unknown event, a clamped timeout, a duplicate, a slow smoke run."
)]
pub(crate) struct DoctorArgs {
    /// Skip the smoke runs: execute no hook
    #[arg(long)]
    no_exec: bool,
    /// Exit 1 on warnings too
    #[arg(long)]
    strict: bool,
    /// Print the findings as one JSON document
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Error,
    Warning,
    Ok,
}

#[derive(Serialize)]
struct Finding {
    level: Level,
    check: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hook: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'static str>,
    at: String,
    message: String,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    ok: usize,
}

#[derive(Serialize)]
struct Report<'a> {
    findings: &'a [Finding],
    summary: Summary,
}

pub(crate) fn run(global: &GlobalArgs, args: &DoctorArgs, printer: &Printer) -> Result<ExitStatus> {
    let paths = global.paths()?;
    shared::end_hooks_on_interrupt();
    let quiet = Printer::new(true); // warnings become findings, not stderr lines
    let mut findings = Vec::new();
    match shared::load(global, None, &quiet) {
        Ok(loaded) => {
            check_all(global, args, &loaded, &mut findings)?;
            check_in_process(&loaded.paths, &mut findings);
        }
        Err(err) => findings.push(Finding {
            level: Level::Error,
            check: "config",
            event: None,
            hook: None,
            source: None,
            at: paths.config.display().to_string(),
            message: format!("{err:#}"),
        }),
    }
    if let Some(status) = shared::interrupted(printer) {
        return Ok(status);
    }
    let count = |level| findings.iter().filter(|f| f.level == level).count();
    let summary = Summary {
        errors: count(Level::Error),
        warnings: count(Level::Warning),
        ok: count(Level::Ok),
    };
    let failed = summary.errors > 0 || (args.strict && summary.warnings > 0);
    if args.json {
        printer.document(&Report {
            findings: &findings,
            summary,
        })?;
    } else {
        printer.show(&human(&findings, &summary, shared::color(global), &paths))?;
    }
    Ok(if failed {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

fn check_all(
    global: &GlobalArgs,
    args: &DoctorArgs,
    loaded: &shared::Loaded,
    findings: &mut Vec<Finding>,
) -> Result<()> {
    for warning in &loaded.set.warnings {
        let level = if warning.kind == WarningKind::SkippedEntry {
            Level::Error
        } else {
            Level::Warning
        };
        let check = if warning.kind == WarningKind::DuplicateEntry {
            "duplicate"
        } else {
            "config"
        };
        findings.push(Finding {
            level,
            check,
            event: None,
            hook: None,
            source: None,
            at: warning.origin.to_string(),
            message: warning.message.clone(),
        });
    }
    let list = match store::read(&loaded.paths.allowlist) {
        Ok(list) => list.unwrap_or_default(),
        Err(err) => {
            findings.push(Finding {
                level: Level::Error,
                check: "allowlist",
                event: None,
                hook: None,
                source: None,
                at: loaded.paths.allowlist.display().to_string(),
                message: err.to_string(),
            });
            Allowlist::default()
        }
    };
    let base = shared::current_dir()?;
    let set = &loaded.set;
    let smoke_all = shared::bypass(global, set).is_some();
    let overrides = shared::Overrides::judge(set, &list, smoke_all, &base);
    let mut order: Vec<usize> = (0..set.hooks.len()).collect();
    order.sort_by_key(|i| set.hooks[*i].event);
    let mut seen: HashMap<(&str, &str), &HookSpec> = HashMap::new();
    for index in order {
        let hook = &set.hooks[index];
        let mut add = |level, check, message: String| {
            findings.push(Finding {
                level,
                check,
                event: Some(hook.event.name()),
                hook: Some(hook.command.clone()),
                source: Some(hook.source.as_str()),
                at: hook.origin.to_string(),
                message,
            });
        };
        if let Some(first) = seen.insert((hook.event.name(), hook.command.as_str()), hook) {
            add(
                Level::Warning,
                "duplicate",
                format!("declared twice: also at {}", first.origin),
            );
        }
        if let Some(by) = overrides.replaced[index] {
            let by = &set.hooks[by].origin;
            let message = format!("replaced by the approved project hook {by}: it does not run");
            add(Level::Ok, "override", message);
        }
        for (file, why) in overrides.namesakes_of(index) {
            let message = format!("not replaced by {file}: {why}; it runs as usual");
            add(Level::Warning, "override", message);
        }
        let script = crate::consent::script_state(hook, &base);
        let assessment = assess(&list, hook, &base);
        let (level, message) = script_finding(hook, &assessment, script);
        add(level, "script", message);
        let (level, message) = consent_finding(hook, &assessment);
        add(level, "consent", message);
        if let Some((level, message)) = drift(&assessment) {
            add(level, "drift", message);
        }
        let may_smoke =
            assessment.state.may_run() || (smoke_all && assessment.state != ConsentState::Changed);
        if !args.no_exec && may_smoke && script == ScriptState::Ok {
            let (level, message) = smoke(hook, &base);
            add(level, "smoke", message);
        }
    }
    Ok(())
}

/// Whether the hook's script can run, and how.
fn script_finding(
    hook: &HookSpec,
    assessment: &Assessment,
    script: ScriptState,
) -> (Level, String) {
    let shown = assessment
        .script
        .as_ref()
        .map_or_else(|| hook.command.clone(), |p| p.display().to_string());
    match script {
        ScriptState::Ok => {
            let how = match hook.argv.as_deref() {
                Some([interpreter, script])
                    if Some(std::path::Path::new(script)) == hook.entry.as_deref() =>
                {
                    format!("; it has no exec bit, so it runs through {interpreter}")
                }
                _ => String::new(),
            };
            (Level::Ok, format!("{shown} exists and can run{how}"))
        }
        ScriptState::Missing => (Level::Error, format!("{shown} is missing")),
        ScriptState::NotExecutable => (
            Level::Error,
            format!("{shown} cannot run (chmod +x it, or fix the path)"),
        ),
        ScriptState::NotAFile => (
            Level::Error,
            format!("{shown} is not a regular file: it is never read or run"),
        ),
        ScriptState::TooLarge => (
            Level::Error,
            format!(
                "{shown} is larger than {} MiB: it is never read or run",
                crate::limits::SCRIPT_MAX / (1024 * 1024)
            ),
        ),
    }
}

/// Gateway and plugin hooks: checked, never run.
fn check_in_process(paths: &Paths, findings: &mut Vec<Finding>) {
    for hook in in_process::load(&paths.home) {
        let mut add = |level, check, message: String| {
            findings.push(Finding {
                level,
                check,
                event: None,
                hook: Some(hook.name.clone()),
                source: Some(hook.source.as_str()),
                at: hook.manifest.display().to_string(),
                message,
            });
        };
        if let Some(reason) = &hook.broken {
            add(
                Level::Error,
                "manifest",
                format!("cannot be read: {reason}"),
            );
            continue;
        }
        let handler = hook.handler.display();
        if hook.handler.is_file() {
            add(
                Level::Ok,
                "handler",
                format!("{handler} is present (Hermes runs it in-process)"),
            );
        } else {
            add(
                Level::Error,
                "handler",
                format!("{handler} is missing, so Hermes skips this hook"),
            );
        }
        if hook.events.is_empty() {
            add(Level::Warning, "events", "declares no events".to_owned());
        }
        for event in hook.unknown_events() {
            let hint = crate::config::Event::parse(event)
                .err()
                .and_then(|unknown| unknown.suggestion)
                .map_or_else(String::new, |s| format!(" (did you mean '{s}'?)"));
            add(
                Level::Warning,
                "events",
                format!("'{event}' is not an event Hermes fires{hint}"),
            );
        }
        for name in &hook.requires_env {
            if crate::env::var_os(name).is_none() {
                add(
                    Level::Warning,
                    "requires_env",
                    format!("{name} is not set, so Hermes disables this plugin"),
                );
            }
        }
    }
}

fn consent_finding(hook: &HookSpec, assessment: &Assessment) -> (Level, String) {
    let approve = approve_hint(hook);
    match assessment.state {
        ConsentState::Approved => (
            Level::Ok,
            format!(
                "approved {}, pinned to {}",
                assessment.approved_at.as_deref().unwrap_or("(no date)"),
                short_sha256(assessment.pinned.as_deref())
            ),
        ),
        ConsentState::Unpinned => (
            Level::Warning,
            format!("approved without a sha256 pin (written by Hermes); {approve} pins it"),
        ),
        ConsentState::Unapproved => (
            Level::Warning,
            format!(
                "not approved: `run` skips it and doctor does not run it; review it with {approve}"
            ),
        ),
        ConsentState::Changed => (
            Level::Error,
            format!(
                "changed since approval ({} now, pinned {}): `run` refuses it; review it with {approve}",
                short_sha256(assessment.sha256.as_deref()),
                short_sha256(assessment.pinned.as_deref())
            ),
        ),
    }
}

/// mtime drift of an unpinned approval (a pinned one is checked by content instead).
fn drift(assessment: &Assessment) -> Option<(Level, String)> {
    if assessment.state != ConsentState::Unpinned {
        return None;
    }
    let at = assessment.mtime_at_approval.as_deref()?;
    let meta = assessment
        .script
        .as_deref()
        .and_then(|p| std::fs::metadata(p).ok())?;
    let now = clock::python_mtime(&meta);
    // Hermes's own test: the strings compared, later means modified.
    let moved = now.as_str() > at;
    moved.then(|| {
        (
            Level::Warning,
            format!("script modified since approval (was {at}, now {now})"),
        )
    })
}

/// One run on the synthetic payload; never records anything.
fn smoke(hook: &HookSpec, base: &std::path::Path) -> (Level, String) {
    let mut input = synthetic::payload(hook.event);
    if hook.on_failure {
        input.insert("status".to_owned(), serde_json::Value::from("error"));
    }
    let invocation = Invocation::from_input(input, &base.to_string_lossy());
    let outcome = match runner::wire_for(hook, &invocation, invocation.tool_input.as_ref()) {
        Ok(payload) => exec::run(&Job {
            command: &hook.command,
            argv: hook.argv.as_deref(),
            cwd: base,
            env: &[(HERMES_HOOK_EVENT, hook.event.name())],
            stdin: &payload,
            timeout: hook.timeout,
        }),
        Err(err) => exec::Outcome::not_started(format!("cannot hold the payload: {err}")),
    };
    // A smoke run reports what the hook did; failing closed is `run`'s business.
    let rules = Rules {
        fail_closed: false,
        ..Rules::for_hook(hook)
    };
    let answer = response::interpret(&outcome, &rules);
    let ms = outcome.elapsed.as_secs_f64() * 1000.0;
    let detail = answer.message.clone().unwrap_or_default();
    match answer.status {
        Status::TimedOut => (
            Level::Error,
            format!("smoke run {detail} on the synthetic payload"),
        ),
        Status::SpawnFailed => (Level::Error, format!("smoke run cannot start: {detail}")),
        Status::InvalidOutput => (Level::Error, format!("smoke run: {detail}")),
        Status::Failed => (Level::Warning, format!("smoke run {detail}")),
        _ if outcome.elapsed * 2 > hook.timeout => (
            Level::Warning,
            format!(
                "smoke run took {ms:.0} ms, more than half its {}s timeout",
                hook.timeout.as_secs()
            ),
        ),
        status => {
            let what = if outcome.stdout.iter().all(u8::is_ascii_whitespace) {
                "empty stdout (an observer)".to_owned()
            } else {
                format!("valid JSON ({})", status.as_str())
            };
            (
                Level::Ok,
                format!("smoke run answered {what} in {ms:.1} ms"),
            )
        }
    }
}

fn human(findings: &[Finding], summary: &Summary, color: bool, paths: &Paths) -> Screen {
    let mut screen = Screen::new(color);
    if findings.is_empty() {
        screen.line(format_args!("No hooks in {}.", paths.config.display()));
    }
    let mut last: Option<(Option<&str>, Option<&str>)> = None;
    for f in findings {
        let key = (f.event, f.hook.as_deref());
        if f.hook.is_some() && last != Some(key) {
            screen.line(format_args!(
                "{}  {}  ({})",
                f.event.or(f.source).unwrap_or("-"),
                f.hook.as_deref().unwrap_or_default(),
                f.at
            ));
        }
        last = Some(key);
        let (word, tone) = match f.level {
            Level::Error => ("error  ", Tone::Bad),
            Level::Warning => ("warning", Tone::Notice),
            Level::Ok => ("ok     ", Tone::Good),
        };
        if f.hook.is_some() {
            screen
                .text("  ")
                .paint(word, tone)
                .text("  ")
                .line(&f.message);
        } else {
            screen
                .paint(word, tone)
                .line(format_args!("  {}: {}", f.at, f.message));
        }
    }
    screen.blank().line(format_args!(
        "{} error(s), {} warning(s), {} ok",
        summary.errors, summary.warnings, summary.ok
    ));
    screen
}
