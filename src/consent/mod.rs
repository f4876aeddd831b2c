//! Consent: no hook runs until it is approved. Approvals are keyed on `(canonical event, command)`
//! and pinned to the script's sha256, which is checked right before each spawn. Without a bypass
//! nothing prompts and nothing unapproved runs.

pub mod fingerprint;
pub mod store;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::clock;
use crate::config::HookSpec;
use store::{Allowlist, Approval, StoreError};

/// Why unapproved or changed hooks may run anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bypass {
    /// `--accept-hooks`.
    Flag,
    /// `HERMES_ACCEPT_HOOKS`.
    Env,
    /// `hooks_auto_accept: true` in config.yaml.
    Config,
}

impl fmt::Display for Bypass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Flag => "--accept-hooks",
            Self::Env => "HERMES_ACCEPT_HOOKS",
            Self::Config => "hooks_auto_accept: true",
        })
    }
}

/// The gate's answer for one hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Approved (now or before) with a matching pin, or approved by Hermes without one.
    Run {
        /// What the gate recorded or could not record, for stderr.
        notice: Option<String>,
    },
    /// No approval: the hook does not run.
    Unapproved {
        /// One line naming the hook and how to approve it.
        message: String,
    },
    /// The script's content differs from the approved one: the hook does not run.
    Changed {
        /// Which file changed and how to re-approve.
        message: String,
    },
}

/// The consent state for one invocation: the allowlist is read once, when the first hook needs it.
pub struct ConsentGate {
    path: PathBuf,
    bypass: Option<Bypass>,
    record: bool,
    snapshot: OnceLock<Snapshot>,
}

enum Snapshot {
    Usable(Allowlist),
    Unusable(String),
}

impl ConsentGate {
    /// A gate over the allowlist at `path`. With `record` false (dry runs), nothing is written.
    pub fn new(path: PathBuf, bypass: Option<Bypass>, record: bool) -> Self {
        Self {
            path,
            bypass,
            record,
            snapshot: OnceLock::new(),
        }
    }

    fn snapshot(&self) -> &Snapshot {
        self.snapshot.get_or_init(|| match store::read(&self.path) {
            Ok(list) => Snapshot::Usable(list.unwrap_or_default()),
            Err(err) => Snapshot::Unusable(err.to_string()),
        })
    }

    /// When the allowlist could not be used (corrupt or unreadable): why. It is then treated as
    /// empty, so nothing counts as approved.
    pub fn problem(&self) -> Option<&str> {
        match self.snapshot.get() {
            Some(Snapshot::Unusable(reason)) => Some(reason),
            _ => None,
        }
    }

    /// Decides whether `hook` may run now. `base` is the hook's working directory, against which
    /// a relative script path resolves.
    pub fn check(&self, hook: &HookSpec, base: &Path) -> Verdict {
        let event = hook.event.name();
        let script = fingerprint::script_path(&hook.command, base);
        let actual = script
            .as_deref()
            .and_then(|p| fingerprint::sha256_file(p).ok());
        let entry = match self.snapshot() {
            Snapshot::Usable(list) => list.find(event, &hook.command),
            Snapshot::Unusable(_) => None,
        };
        let Some(entry) = entry else {
            return self
                .approve_now(hook, script, actual, "not approved")
                .unwrap_or_else(|| Verdict::Unapproved {
                    message: format!(
                        "not approved, not run: {event} '{}'; review it, then approve it by \
                         running once with --accept-hooks (or HERMES_ACCEPT_HOOKS=1)",
                        hook.command
                    ),
                });
        };
        match entry.get("script_sha256").and_then(Value::as_str) {
            Some(pinned) if Some(pinned) == actual.as_deref() => Verdict::Run { notice: None },
            Some(pinned) => {
                let shown = script
                    .as_ref()
                    .map_or_else(|| hook.command.clone(), |p| p.display().to_string());
                let now = actual
                    .as_deref()
                    .map_or_else(|| "unreadable".to_owned(), short);
                self.approve_now(hook, script, actual, "changed")
                    .unwrap_or_else(|| Verdict::Changed {
                        message: format!(
                            "changed since approval, not run: {event} '{}': {shown} is now {now}, \
                         approved as {}; review it, then re-approve it with --accept-hooks",
                            hook.command,
                            short(pinned)
                        ),
                    })
            }
            None => Verdict::Run {
                notice: self.pin_first_use(hook, script.as_deref(), actual.as_deref()),
            },
        }
    }

    /// Approves on the spot when a bypass is active; `None` when there is none.
    fn approve_now(
        &self,
        hook: &HookSpec,
        script: Option<PathBuf>,
        sha256: Option<String>,
        was: &str,
    ) -> Option<Verdict> {
        let bypass = self.bypass?;
        let what = format!("{} '{}'", hook.event.name(), hook.command);
        if !self.record {
            return Some(Verdict::Run {
                notice: Some(format!("{what} is {was}; {bypass} would approve it")),
            });
        }
        let mtime = script
            .as_deref()
            .and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
            .map(clock::iso_utc);
        let approval = Approval {
            event: hook.event.name().to_owned(),
            command: hook.command.clone(),
            script,
            sha256,
            mtime,
        };
        let notice = match self.write(|list| {
            list.approve(&approval, &clock::now_iso());
            true
        }) {
            Ok(()) => format!("{what} was {was}; approved by {bypass}"),
            Err(err) => format!(
                "{what} was {was}; runs by {bypass}, but the approval was not recorded: {err}"
            ),
        };
        Some(Verdict::Run {
            notice: Some(notice),
        })
    }

    /// Trust on first use for an approval without a pin (written by Hermes): record the hash of
    /// what is about to run. A failed write does not stop the hook.
    fn pin_first_use(
        &self,
        hook: &HookSpec,
        script: Option<&Path>,
        sha256: Option<&str>,
    ) -> Option<String> {
        let (Some(script), Some(sha256)) = (script, sha256) else {
            return None;
        };
        if !self.record {
            return None;
        }
        let event = hook.event.name();
        match self.write(|list| list.pin(event, &hook.command, script, sha256)) {
            Ok(()) => None,
            Err(err) => Some(format!(
                "{event} '{}' runs, but its sha256 pin was not recorded: {err}",
                hook.command
            )),
        }
    }

    fn write(&self, change: impl FnOnce(&mut Allowlist) -> bool) -> Result<(), StoreError> {
        store::update(&self.path, |list| (change(list), ()))
    }
}

/// The first 12 hex digits of a digest, for messages.
fn short(sha256: &str) -> String {
    format!("sha256:{}", sha256.get(..12).unwrap_or(sha256))
}
