//! A person sees a guard that stopped guarding: when a guard on an event where it could block
//! did not run (not approved, changed since approval, its script missing or not startable) or
//! the runner could not check the call, the agent's answer carries a message for the person,
//! naming the hook and what to do. Each is said once per session (a state file under the Hermes
//! home remembers what was said), so the message arrives the moment it happens and does not
//! repeat on every call.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::config::{Effects, HookSpec};
use crate::engine::fail_closed::RunnerError;
use crate::engine::response::Status;
use crate::engine::runner::RunReport;
use crate::ground::statefile::{self, FileKind, StateError};

const KIND: FileKind = FileKind::ToldState;
/// The state file, in the Hermes home.
pub(crate) const STATE_FILE: &str = "hermes-hooks-told.json";
/// Sessions not seen for this long are forgotten.
const FORGET_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);

/// One thing a person should hear: a key that names it for "once per session", and the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Told {
    key: String,
    text: String,
}

/// What the person should hear about this decision (before "once per session" is applied).
pub(crate) fn of_decision(
    hooks: &[HookSpec],
    report: &RunReport,
    errors: &[RunnerError],
) -> Vec<Told> {
    let mut told = Vec::new();
    // A guard that vanished or changed is told whether or not it covered this call.
    for hook in hooks {
        let Some(stand_in) = hook.stand_in() else {
            continue;
        };
        let key = format!("stand-in\0{}\0{}", stand_in.what, stand_in.gone);
        if told.iter().any(|t: &Told| t.key == key) {
            continue;
        }
        let text = format!(
            "hermes-hooks: {}",
            crate::ground::sanitize::line(&stand_in.message(&hook.command))
        );
        told.push(Told { key, text });
    }
    for hook_report in &report.hooks {
        let hook = &hooks[hook_report.index];
        if hook.stand_in().is_some()
            || !hook
                .event
                .effects(hook.source.kind())
                .contains(Effects::BLOCK)
        {
            continue;
        }
        let why = match hook_report.status {
            Status::Unapproved => "is not approved",
            Status::Changed => "changed since it was approved",
            Status::SpawnFailed => "could not be started",
            _ => continue,
        };
        let closed = if hook.fail_closed {
            " (it fails closed: the call was blocked)"
        } else {
            ""
        };
        let (key, text) = if hook.rule().is_some() {
            // The rules of one file are approved, and told, as one.
            (
                format!("rules\0{}\0{why}", hook.command),
                format!(
                    "hermes-hooks: the rules file {} {why}, so its rules did not check this \
                     call{closed}; review it with `hermes-hooks approve`",
                    crate::ground::sanitize::line(&hook.command),
                ),
            )
        } else {
            (
                format!("{}\0{}\0{why}", hook.event.name(), hook.command),
                format!(
                    "hermes-hooks: guard {} {why}, so it did not check this call{closed}; \
                     review it with `hermes-hooks approve`",
                    crate::ground::sanitize::line(&hook.name),
                ),
            )
        };
        if told.iter().any(|t: &Told| t.key == key) {
            continue;
        }
        told.push(Told { key, text });
    }
    for error in errors.iter().filter(|e| e.could_block) {
        told.push(Told {
            key: format!("error\0{}", error.message),
            text: format!(
                "hermes-hooks could not check this call: {}; `hermes-hooks doctor` says more",
                crate::ground::sanitize::line(&error.message)
            ),
        });
    }
    told
}

/// What the person hears when a call was kept from the guard's own files (once per session,
/// whatever the call).
pub(crate) fn protected(what: &str) -> Told {
    Told {
        key: "protected".to_owned(),
        text: format!(
            "hermes-hooks kept the model from changing the guard's own files: {}. They are \
             yours to change, outside the agent.",
            crate::ground::sanitize::line(what)
        ),
    }
}

/// Of `told`, what was not said yet in `session`, recorded as said now; the text of each, joined
/// into one message. Without a session id every call is told. A state file that cannot be read
/// or written never silences a message: it is then said (and the problem returned).
pub(crate) fn once(
    path: &Path,
    session: &str,
    told: &[Told],
    now: SystemTime,
) -> (Option<String>, Option<StateError>) {
    if told.is_empty() {
        return (None, None);
    }
    let join = |told: &[Told]| {
        (!told.is_empty()).then(|| {
            told.iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
    };
    if session.is_empty() {
        return (join(told), None);
    }
    let secs = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let result = statefile::locked(KIND, path, || {
        let mut state = statefile::sessions(KIND, path)?;
        let sessions = state["sessions"]
            .as_object_mut()
            .expect("read() checks the shape");
        sessions.retain(|_, entry| {
            entry["updated"]
                .as_u64()
                .is_some_and(|t| secs.saturating_sub(t) < FORGET_AFTER.as_secs())
        });
        let entry = sessions
            .entry(session.to_owned())
            .or_insert_with(|| json!({"said": [], "updated": secs}));
        let said = entry["said"].as_array().cloned().unwrap_or_default();
        let new: Vec<Told> = told
            .iter()
            .filter(|t| !said.iter().any(|s| s.as_str() == Some(t.key.as_str())))
            .cloned()
            .collect();
        let mut keys = said;
        keys.extend(new.iter().map(|t| Value::from(t.key.clone())));
        *entry = json!({"said": keys, "updated": secs});
        statefile::replace_json(KIND, path, &state)?;
        Ok(new)
    });
    match result {
        Ok(new) => (join(&new), None),
        Err(err) => (join(told), Some(err)),
    }
}

#[cfg(test)]
mod tests {
    use super::{Told, once};
    use std::time::SystemTime;

    fn told(key: &str) -> Told {
        Told {
            key: key.to_owned(),
            text: format!("about {key}"),
        }
    }

    #[test]
    fn each_is_said_once_per_session() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("told.json");
        let now = SystemTime::now();
        let first = once(&path, "s", &[told("a"), told("b")], now);
        assert_eq!(first.0.as_deref(), Some("about a\nabout b"));
        let again = once(&path, "s", &[told("a"), told("c")], now);
        assert_eq!(again.0.as_deref(), Some("about c"));
        assert_eq!(once(&path, "s", &[told("a")], now).0, None);
        assert_eq!(
            once(&path, "t", &[told("a")], now).0.as_deref(),
            Some("about a")
        );
        assert_eq!(
            once(&path, "", &[told("a")], now).0.as_deref(),
            Some("about a")
        );
    }

    #[test]
    fn a_state_file_that_cannot_be_used_never_silences_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("told.json");
        std::fs::write(&path, "not json").unwrap();
        let (said, problem) = once(&path, "s", &[told("a")], SystemTime::now());
        assert_eq!(said.as_deref(), Some("about a"));
        assert!(problem.is_some());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not json");
    }
}
