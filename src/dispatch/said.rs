//! What the event path says to a person along the way: the load's warnings and unreadable
//! files, the locations that are wrong, consent notices, and a run a signal ended.

use std::path::Path;

use anyhow::anyhow;

use super::Talk;
use crate::config::{HookSet, SourceKind};
use crate::consent::ConsentGate;
use crate::engine::runner::RunReport;
use crate::ground::interrupt::Interrupt;
use crate::ground::paths::Paths;

/// The load's warnings, and the files whose hooks could not be read: an error line each for a
/// config file (a HOOK.md that could not be read is among the warnings).
pub(crate) fn load_problems(set: &HookSet, talk: &impl Talk) {
    load_warnings(&set.warnings, talk);
    for error in set.errors.iter().filter(|e| e.source == SourceKind::Config) {
        talk.error(&anyhow!(
            "{error}; its hooks do not run (the other sources' hooks do)"
        ));
    }
    for error in set.unread_rules_files() {
        talk.error(&anyhow!("{error}"));
    }
}

/// The warnings of loading: one line each, except HOOK.md files that could not be read at all,
/// which would otherwise repeat on every event: one line names them all and points to `doctor`.
pub(crate) fn load_warnings(warnings: &[crate::config::Warning], talk: &impl Talk) {
    let (broken, others): (Vec<_>, Vec<_>) = warnings.iter().partition(|warning| {
        warning.kind == crate::config::WarningKind::SkippedEntry
            && warning.origin.file.file_name() == Some(std::ffi::OsStr::new("HOOK.md"))
    });
    // A rule's missing folder is said by `list` and `doctor`, not on every call.
    for warning in others
        .into_iter()
        .filter(|w| w.kind != crate::config::WarningKind::NoFolder)
    {
        talk.warn(warning);
    }
    if !broken.is_empty() {
        let files: Vec<String> = broken.iter().map(|w| w.origin.to_string()).collect();
        let what = if broken.len() == 1 {
            "1 HOOK.md was skipped, so its hook never runs".to_owned()
        } else {
            format!(
                "{} HOOK.md files were skipped, so their hooks never run",
                broken.len()
            )
        };
        talk.warn(format!(
            "{what}: {}; `hermes-hooks doctor` says why",
            files.join(", ")
        ));
    }
}

/// What is wrong with the locations, said before hooks are loaded from them: a named Hermes
/// home that does not exist, a project skipped because another user owns it.
pub(crate) fn location_warnings(paths: &Paths, talk: &impl Talk) {
    if paths.home_named && !paths.home.is_dir() {
        talk.warn(missing_home(&paths.home));
    }
    if let Some(skipped) = &paths.project_skipped {
        talk.warn(skipped);
    }
}

/// The warning for a Hermes home that was named and does not exist.
pub(crate) fn missing_home(home: &Path) -> String {
    format!(
        "the Hermes home {} does not exist (named by --hermes-home or HERMES_HOME): no config, \
         no allowlist",
        home.display()
    )
}

/// The note for a run a signal ended.
pub(crate) fn say_interrupted(signal: Interrupt, talk: &impl Talk) {
    talk.note(format!(
        "interrupted by {}; the running hooks' process groups were ended, no answer given",
        signal.name()
    ));
}

/// After hooks ran: why the allowlist could not be used, if so, and each hook's consent notice.
/// With `denied_shown` (the command's own output gives each hook's message), a hook that consent
/// kept from starting is not told twice.
pub(crate) fn consent_warnings(
    gate: &ConsentGate,
    report: &RunReport,
    talk: &impl Talk,
    denied_shown: bool,
) {
    if let Some(problem) = gate.problem() {
        talk.warn(format!(
            "{problem}; treating it as empty, so no hook counts as approved"
        ));
    }
    // The rules of one file share its consent, and so its notice: said once.
    let mut said: Vec<&str> = Vec::new();
    for hook in &report.hooks {
        if let Some(notice) = &hook.notice
            && !(denied_shown && hook.denied)
            && !said.contains(&notice.as_str())
        {
            said.push(notice);
            talk.warn(notice);
        }
    }
}
