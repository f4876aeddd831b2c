//! The quality-gate loop guard. On `pre_verify`, "keep working" answers are counted per session,
//! in a state file under the Hermes home written under a lock; when a session gets more than the
//! limit in a row, the agent is let stop and the count starts again. Any other answer resets it.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::json;

use crate::ground::statefile::{self, FileKind, StateError};

const KIND: FileKind = FileKind::GateState;

/// "Keep working" answers honoured in a row, by default.
pub(crate) const DEFAULT_LIMIT: u32 = 8;
/// The state file, in the Hermes home.
pub(crate) const STATE_FILE: &str = "hermes-hooks-gate.json";
/// Sessions not seen for this long are dropped from the state.
const FORGET_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);

/// The limit: `flag` when given, else `HERMES_HOOKS_GATE_LIMIT`, else [`DEFAULT_LIMIT`]; the
/// second value says why a variable that is not a whole number was passed over.
pub(crate) fn limit(flag: Option<u32>) -> (u32, Option<String>) {
    if let Some(limit) = flag {
        return (limit, None);
    }
    let Some(value) = crate::ground::env::var_os(crate::ground::env::HERMES_HOOKS_GATE_LIMIT)
    else {
        return (DEFAULT_LIMIT, None);
    };
    match value.to_string_lossy().trim().parse() {
        Ok(limit) => (limit, None),
        Err(_) => (
            DEFAULT_LIMIT,
            Some(format!(
                "{} is not a whole number; using {DEFAULT_LIMIT}",
                crate::ground::env::HERMES_HOOKS_GATE_LIMIT
            )),
        ),
    }
}

/// The guard let the agent stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Released {
    /// "Keep working" answers in a row, this one included.
    pub consecutive: u32,
    /// The limit that was passed.
    pub limit: u32,
}

/// Records one `pre_verify` answer of `session` (`kept_working`: the gate asked to keep working).
/// Returns `Some` when this answer goes past `limit` and must be overridden. A `limit` of 0
/// turns the guard off. A state file that is not the guard's JSON is never overwritten.
pub(crate) fn observe(
    path: &Path,
    session: &str,
    kept_working: bool,
    limit: u32,
    now: SystemTime,
) -> Result<Option<Released>, StateError> {
    if limit == 0 {
        return Ok(None);
    }
    let secs = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    statefile::locked(KIND, path, || {
        let mut state = statefile::sessions(KIND, path)?;
        let sessions = state["sessions"]
            .as_object_mut()
            .expect("read() checks the shape");
        let before = sessions.len();
        sessions.retain(|_, entry| {
            entry["updated"]
                .as_u64()
                .is_some_and(|t| secs.saturating_sub(t) < FORGET_AFTER.as_secs())
        });
        let pruned = sessions.len() != before;
        let (changed, released) = if kept_working {
            let count = sessions
                .get(session)
                .and_then(|e| e["consecutive"].as_u64())
                .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
                .saturating_add(1);
            if count > limit {
                sessions.remove(session);
                let released = Released {
                    consecutive: count,
                    limit,
                };
                (true, Some(released))
            } else {
                let entry = json!({"consecutive": count, "updated": secs});
                sessions.insert(session.to_owned(), entry);
                (true, None)
            }
        } else {
            (sessions.remove(session).is_some(), None)
        };
        if changed || pruned {
            statefile::replace_json(KIND, path, &state)?;
        }
        Ok(released)
    })
}

#[cfg(test)]
mod tests {
    use super::{Released, observe};
    use std::time::{Duration, SystemTime};

    #[test]
    fn past_the_limit_the_agent_may_stop_and_the_count_restarts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gate.json");
        let now = SystemTime::now();
        for _ in 0..3 {
            assert_eq!(observe(&path, "s", true, 3, now).unwrap(), None);
        }
        let released = observe(&path, "s", true, 3, now).unwrap();
        assert_eq!(
            released,
            Some(Released {
                consecutive: 4,
                limit: 3
            })
        );
        assert_eq!(
            observe(&path, "s", true, 3, now).unwrap(),
            None,
            "restarted"
        );
        assert_eq!(observe(&path, "other", true, 1, now).unwrap(), None);
        assert!(observe(&path, "other", true, 1, now).unwrap().is_some());
    }

    #[test]
    fn any_other_answer_resets_and_old_sessions_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gate.json");
        let now = SystemTime::now();
        observe(&path, "s", true, 2, now).unwrap();
        observe(&path, "s", true, 2, now).unwrap();
        observe(&path, "s", false, 2, now).unwrap();
        assert_eq!(observe(&path, "s", true, 2, now).unwrap(), None);
        let later = now + Duration::from_secs(8 * 24 * 3600);
        observe(&path, "new", false, 2, later).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("\"s\""), "{text}");
    }

    #[test]
    fn a_foreign_state_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gate.json");
        std::fs::write(&path, "not json").unwrap();
        let err = observe(&path, "s", true, 2, SystemTime::now()).unwrap_err();
        assert!(
            err.to_string()
                .contains("not a valid loop guard state file"),
            "the error names the file it is about: {err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not json");
        assert!(
            observe(&path, "s", true, 0, SystemTime::now())
                .unwrap()
                .is_none()
        );
    }
}
