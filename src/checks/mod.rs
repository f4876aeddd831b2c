//! The checks behind `doctor`: for every hook its script, consent, pin or mtime drift, the
//! replacements of user hooks, the config's warnings, and a smoke run through the engine; then
//! the gateway and plugin hooks Hermes runs in-process. Findings only: the command line renders
//! them and turns them into an exit status.

mod hermes_plugin;
mod in_process;
mod installed;
pub(crate) mod levels;
pub(crate) mod modules;
mod rules;
mod smoke;
pub(crate) mod wiring;

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::config::{Event, HookSet, HookSpec, LoadOptions, Mended, SourceKind, WarningKind};
use crate::consent::fingerprint::{ScriptState, short_sha256};
use crate::consent::store::{self, Allowlist};
use crate::consent::{
    Assessment, Bypass, ConsentGate, ConsentState, Overrides, approve_hint, assess, bypass_for,
    changes_since_approval, nothing_to_pin,
};
use crate::ground::clock;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Something is broken: `doctor` exits 1.
    Error,
    /// Worth a look: `doctor --strict` exits 1.
    Warning,
    /// Worth knowing, never a failure (an unapproved hook while a consent bypass is on).
    Note,
    /// Checked and sound.
    Ok,
}

/// One thing `doctor` found.
#[derive(Debug, Serialize)]
pub struct Finding {
    /// How bad it is.
    pub level: Level,
    /// Which check found it (`script`, `consent`, `smoke`, `config`, ...).
    pub check: &'static str,
    /// The hook's event, for hook findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<&'static str>,
    /// The hook's command (or an in-process hook's name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// The hook's source name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'static str>,
    /// The file (and line) it is about.
    pub at: String,
    /// What was found, in a sentence.
    pub message: String,
    /// For a script changed since approval: what changed, as a unified diff against the copy
    /// kept when it was approved (when one was kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// An unapproved hook's warning, which a consent bypass (`--accept-hooks`) makes a note: a
    /// fresh CI runner, with no allowlist, has one for every hook.
    #[serde(skip)]
    pub awaits_approval: bool,
}

impl Finding {
    /// A finding about a whole file (the config, the allowlist), not one hook.
    pub fn file(level: Level, check: &'static str, at: &Path, message: String) -> Self {
        Self {
            level,
            check,
            event: None,
            hook: None,
            source: None,
            at: at.display().to_string(),
            message,
            diff: None,
            awaits_approval: false,
        }
    }
}

/// What the checks look at.
#[derive(Clone, Copy, Debug)]
pub struct Checkup<'a> {
    /// Every hook that loaded, with the load warnings.
    pub set: &'a HookSet,
    /// The allowlist file (only read).
    pub allowlist: &'a Path,
    /// Hermes's home, where its gateway hooks and plugins live.
    pub home: &'a Path,
    /// Hermes's config.yaml (which lists the plugins Hermes loads).
    pub config: &'a Path,
    /// The directory relative paths are read from, and where smoke runs run.
    pub base: &'a Path,
    /// The active consent bypass, if any: unapproved hooks are then smoke-run too (nothing is
    /// written).
    pub bypass: Option<Bypass>,
    /// Smoke-run the hooks that may run.
    pub smoke: bool,
}

/// Every finding, hooks in event order, then the in-process hooks.
pub fn examine(checkup: &Checkup<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    config_warnings(checkup.set, &mut findings);
    let list = match store::read(checkup.allowlist) {
        Ok(list) => list.unwrap_or_default(),
        Err(err) => {
            findings.push(Finding::file(
                Level::Error,
                "allowlist",
                checkup.allowlist,
                err.to_string(),
            ));
            Allowlist::default()
        }
    };
    bypass_switches(checkup, &mut findings);
    rules::check(checkup, &list, &mut findings);
    hooks(checkup, &list, &mut findings);
    in_process::check(checkup.home, &mut findings);
    hermes_plugin::check(checkup.home, checkup.config, checkup.set, &mut findings);
    findings
}

/// A consent bypass left on where every run sees it (the environment, config.yaml) approves on
/// the spot whatever arrives with the next pull: worth a warning, whichever it is. The flag is
/// a choice made for one command and is not reported.
fn bypass_switches(checkup: &Checkup<'_>, findings: &mut Vec<Finding>) {
    let environment = Path::new("environment");
    if crate::ground::env::flag(crate::ground::env::HERMES_HOOKS_ACCEPT) {
        findings.push(Finding::file(
            Level::Warning,
            "bypass",
            environment,
            format!(
                "{} is set: every `run` approves and runs any unapproved or changed hook, of \
                 every source, without review; unset it outside a throwaway CI runner",
                Bypass::Env
            ),
        ));
    }
    if crate::ground::env::flag(crate::ground::env::HERMES_ACCEPT_HOOKS) {
        findings.push(Finding::file(
            Level::Warning,
            "bypass",
            environment,
            format!(
                "{} is set (Hermes's one-shot mode and --accept-hooks set it): every `run` \
                 approves and runs any unapproved or changed config hook without review (Agent \
                 Hooks hooks still need approval)",
                Bypass::HermesEnv
            ),
        ));
    }
    if checkup.set.auto_accept {
        findings.push(Finding::file(
            Level::Warning,
            "bypass",
            checkup.config,
            format!(
                "{} approves and runs any unapproved or changed config hook without review \
                 (Agent Hooks hooks still need approval); remove it to review hooks with \
                 `hermes-hooks approve`",
                Bypass::Config
            ),
        ));
    }
}

/// The parse memos that did not say what config.yaml says (see `config::memo`): an error
/// even once mended, as commands before this one acted on other hooks than the file declares.
pub(crate) fn memos(options: LoadOptions<'_>) -> Vec<Finding> {
    let rules = crate::config::check_rules_memos(options)
        .into_iter()
        .map(|(file, mended)| {
            let (memo, what) = match &mended {
                Mended::Replaced(memo) | Mended::Removed(memo) => (memo, "removed"),
                Mended::Left(memo) => (memo, "could not be removed: remove it"),
            };
            Finding::file(
                Level::Error,
                "memo",
                memo,
                format!(
                    "this memo of the rules file {} does not say what the file says, or its \
                     check does not hold, so a command that read it could have seen other rules \
                     than the file declares (hermes-hooks never writes such a memo); {what}",
                    file.display()
                ),
            )
        });
    crate::config::check_memos(options)
        .into_iter()
        .map(|untrue| {
            let (memo, what) = match &untrue.mended {
                Mended::Replaced(memo) => (memo, "replaced with the file's parse"),
                Mended::Removed(memo) => (memo, "removed"),
                Mended::Left(memo) => (memo, "could not be replaced or removed: remove it"),
            };
            let event = untrue.event.map_or("every event", Event::name);
            Finding::file(
                Level::Error,
                "memo",
                memo,
                format!(
                    "this parse memo of {} (for {event}) does not say what the file says, or its \
                     check does not hold, so commands that read it saw other hooks than the file \
                     declares (hermes-hooks never writes such a memo); {what}",
                    untrue.file.display()
                ),
            )
        })
        .chain(rules)
        .collect()
}

fn config_warnings(set: &HookSet, findings: &mut Vec<Finding>) {
    // A HOOK.md that could not be read is among the warnings (a skipped entry, an error).
    for error in set.errors.iter().filter(|e| e.source == SourceKind::Config) {
        let mut at = error.origin.to_string();
        if let (Some(_), Some(column)) = (error.origin.line, error.column) {
            at = format!("{at}:{column}");
        }
        findings.push(Finding {
            level: Level::Error,
            check: "config",
            event: None,
            hook: None,
            source: Some(SourceKind::Config.as_str()),
            at,
            message: format!(
                "{}; none of its hooks run (the other sources' hooks still do)",
                error.message
            ),
            diff: None,
            awaits_approval: false,
        });
    }
    // A rules file that could not be read at all (a skipped rule is among the warnings).
    for error in set.unread_rules_files() {
        let mut at = error.origin.to_string();
        if let (Some(_), Some(column)) = (error.origin.line, error.column) {
            at = format!("{at}:{column}");
        }
        findings.push(Finding {
            level: Level::Error,
            check: "rules",
            event: None,
            hook: None,
            source: Some(SourceKind::Rules.as_str()),
            at,
            message: error.message.clone(),
            diff: None,
            awaits_approval: false,
        });
    }
    for warning in &set.warnings {
        // Mistakes that silently keep a guard from guarding (an entry skipped, an event key that
        // names no event, a block or list a repeated key drops) are errors.
        let level = match warning.kind {
            WarningKind::SkippedEntry | WarningKind::UnknownEvent | WarningKind::DroppedHooks => {
                Level::Error
            }
            _ => Level::Warning,
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
            diff: None,
            awaits_approval: false,
        });
    }
}

fn hooks(checkup: &Checkup<'_>, list: &Allowlist, findings: &mut Vec<Finding>) {
    let Checkup { set, base, .. } = *checkup;
    let overrides = Overrides::judge(set, list, checkup.bypass, base);
    let mut order: Vec<usize> = (0..set.hooks.len()).collect();
    order.sort_by_key(|i| set.hooks[*i].event);
    let mut seen: HashMap<(&str, &str), &HookSpec> = HashMap::new();
    // One gate for every smoke run: the allowlist read once, nothing written.
    let gate = ConsentGate::new(checkup.allowlist.to_owned(), checkup.bypass, false);
    for index in order {
        let hook = &set.hooks[index];
        if hook.rule().is_some() {
            continue; // checked in `rules`: nothing of theirs runs
        }
        let finding = |level, check, message: String, diff: Option<String>| Finding {
            level,
            check,
            event: Some(hook.event.name()),
            hook: Some(hook.command.to_string()),
            source: Some(hook.source.as_str()),
            at: hook.origin.to_string(),
            message,
            diff,
            awaits_approval: false,
        };
        if let Some(first) = seen.insert((hook.event.name(), hook.command.as_str()), hook) {
            findings.push(finding(
                Level::Warning,
                "duplicate",
                format!("declared twice: also at {}", first.origin),
                None,
            ));
        }
        if let Some(by) = overrides.replaced[index] {
            let by = &set.hooks[by].origin;
            let message = format!("replaced by the approved project hook {by}: it does not run");
            findings.push(finding(Level::Ok, "override", message, None));
        }
        for (file, why) in overrides.namesakes_of(index) {
            let message = format!("not replaced by {file}: {why}; it runs as usual");
            findings.push(finding(Level::Warning, "override", message, None));
        }
        let matchers = [
            (hook.matcher.as_deref(), "tool names"),
            (hook.agent().and_then(|a| a.pattern.as_ref()), "tool inputs"),
        ];
        for (matcher, what) in matchers {
            if let Some(matcher) = matcher.filter(|m| !m.fits_any_text()) {
                let message = format!(
                    "the matcher `{}` is too large for the regex engine on {what} with \
                     characters outside ASCII, so such a call counts as matching (ASCII {what} \
                     are matched exactly)",
                    matcher.source()
                );
                findings.push(finding(Level::Warning, "matcher", message, None));
            }
        }
        let script = crate::consent::script_state(hook, base);
        let assessment = assess(list, hook, base);
        // A guard that vanished is said once, by its consent finding.
        if hook.stand_in().is_none() {
            let (level, message) = script_finding(hook, &assessment, script, checkup.home);
            findings.push(finding(level, "script", message, None));
        }
        let (level, message) = consent_finding(hook, &assessment, checkup);
        let diff = changes_since_approval(&assessment, checkup.allowlist);
        let mut consent = finding(level, "consent", message, diff);
        let bypass = bypass_for(checkup.bypass, hook);
        consent.awaits_approval = bypass.is_none() && bypass_runs(hook, &assessment, checkup.home);
        findings.push(consent);
        if let Some((level, message)) = drift(&assessment) {
            findings.push(finding(level, "drift", message, None));
        }
        let may_smoke = assessment.state.may_run()
            || (bypass.is_some() && assessment.state != ConsentState::Changed);
        if checkup.smoke && may_smoke && script == ScriptState::Ok {
            let (level, message) = smoke::run(hook, &gate, base);
            findings.push(finding(level, "smoke", message, None));
        }
    }
}

/// Whether the hook's script can run, and how.
fn script_finding(
    hook: &HookSpec,
    assessment: &Assessment,
    script: ScriptState,
    home: &Path,
) -> (Level, String) {
    let shown = assessment
        .script
        .as_ref()
        .map_or_else(|| hook.command.to_string(), |p| p.display().to_string());
    match script {
        ScriptState::Ok => {
            let how = match hook.agent() {
                Some(agent) => match agent.argv.as_slice() {
                    [interpreter, script] if Path::new(script) == agent.entry => {
                        format!("; it has no exec bit, so it runs through {interpreter}")
                    }
                    _ => String::new(),
                },
                None => String::new(),
            };
            (Level::Ok, format!("{shown} exists and can run{how}"))
        }
        ScriptState::Missing => match nothing_to_pin(hook, assessment, home) {
            Some(why) => (Level::Error, why),
            None => (Level::Error, format!("{shown} is missing")),
        },
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
                crate::ground::limits::SCRIPT_MAX / (1024 * 1024)
            ),
        ),
    }
}

fn consent_finding(
    hook: &HookSpec,
    assessment: &Assessment,
    checkup: &Checkup<'_>,
) -> (Level, String) {
    let bypass = bypass_for(checkup.bypass, hook);
    let approve = approve_hint(hook);
    if let Some(stand_in) = hook.stand_in() {
        let closed = if hook.fail_closed {
            "; it was approved fail_closed, so `run` blocks the calls it covered"
        } else {
            ""
        };
        return (
            Level::Error,
            format!("{}{closed}", stand_in.message(&hook.command)),
        );
    }
    if assessment.state == ConsentState::Unapproved && !bypass_runs(hook, assessment, checkup.home)
    {
        return (
            Level::Warning,
            "not approved, and it cannot be until its script can be read (see above)".to_owned(),
        );
    }
    if let (ConsentState::Unapproved, Some(bypass)) = (assessment.state, bypass) {
        return (
            Level::Note,
            format!(
                "not approved; {bypass} is on, so it runs (doctor records nothing); without it \
                 `run` skips it: review it with {approve}"
            ),
        );
    }
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

/// Whether a consent bypass would smoke-run this hook although it is not approved (making its
/// consent finding a note): it is unapproved, and its script can be read and pinned.
fn bypass_runs(hook: &HookSpec, assessment: &Assessment, home: &Path) -> bool {
    assessment.state == ConsentState::Unapproved && nothing_to_pin(hook, assessment, home).is_none()
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
