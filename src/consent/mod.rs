//! Consent: no hook runs until it is approved. Approvals are keyed on `(canonical event, command)`
//! and pinned to the script's sha256, which is checked right before each spawn. Without a bypass
//! nothing prompts and nothing unapproved runs.

pub(crate) mod fingerprint;
pub(crate) mod kept;
mod overrides;
pub(crate) mod store;
pub(crate) mod vanished;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::config::{HookSpec, Source};
use crate::ground::clock;
pub(crate) use overrides::Overrides;
pub(crate) use store::KeptList;
use store::{Allowlist, Approval, StoreError};

/// Why unapproved or changed hooks may run anyway, and which hooks that covers: this tool's own
/// switches cover every source; Hermes's switches cover the hooks Hermes itself would run, the
/// config hooks, and never an Agent Hooks hook (`hermes -z` sets Hermes's for its own hooks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bypass {
    /// `--accept-hooks`.
    Flag,
    /// `HERMES_HOOKS_ACCEPT`.
    Env,
    /// `HERMES_ACCEPT_HOOKS`: Hermes's own, config hooks only.
    HermesEnv,
    /// `hooks_auto_accept: true` in config.yaml: Hermes's own, config hooks only.
    Config,
}

impl Bypass {
    /// Whether this bypass approves `hook` on the spot.
    pub(crate) fn covers(self, hook: &HookSpec) -> bool {
        match self {
            Self::Flag | Self::Env => true,
            Self::HermesEnv | Self::Config => matches!(hook.source, Source::Config),
        }
    }
}

/// The bypass of `bypass` that applies to `hook`, if any.
pub(crate) fn bypass_for(bypass: Option<Bypass>, hook: &HookSpec) -> Option<Bypass> {
    bypass.filter(|b| b.covers(hook))
}

impl fmt::Display for Bypass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Flag => "--accept-hooks",
            Self::Env => "HERMES_HOOKS_ACCEPT",
            Self::HermesEnv => "HERMES_ACCEPT_HOOKS",
            Self::Config => "hooks_auto_accept: true",
        })
    }
}

/// The gate's answer for one hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
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
    /// The script is not a regular file, or too large: nothing is read from it and the hook does
    /// not run, approved or not.
    Refused {
        /// What stands where the script should be.
        message: String,
    },
}

/// What the allowlist says about a hook right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConsentState {
    /// Approved, and the script matches the pin.
    Approved,
    /// No approval for `(event, command)`.
    Unapproved,
    /// Approved, but the script's content differs from the pin (or cannot be read).
    Changed,
    /// Approved without a pin (written by Hermes): honoured, pinned on first run.
    Unpinned,
}

impl ConsentState {
    /// The name used in output.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Approved => "approved",
            Self::Unapproved => "unapproved",
            Self::Changed => "changed",
            Self::Unpinned => "unpinned",
        }
    }

    /// Whether the hook may run without a bypass.
    pub(crate) const fn may_run(self) -> bool {
        matches!(self, Self::Approved | Self::Unpinned)
    }
}

/// A hook's consent state with the facts behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Assessment {
    /// Approved, unapproved, changed since approval, or approved without a pin.
    pub state: ConsentState,
    /// The script the pin covers, when the command names one.
    pub script: Option<PathBuf>,
    /// The script's sha256 now, when it can be read.
    pub sha256: Option<String>,
    /// Why the script could not be read for its sha256, when it could not.
    pub unreadable: Option<String>,
    /// The script is there but must not be used (not a regular file, or too large).
    pub refused: bool,
    /// The sha256 recorded at approval.
    pub pinned: Option<String>,
    /// When it was approved.
    pub approved_at: Option<String>,
    /// The script's mtime when it was approved.
    pub mtime_at_approval: Option<String>,
}

/// Judges `hook` against `list` without writing anything. `base` is the hook's working directory.
pub(crate) fn assess(list: &Allowlist, hook: &HookSpec, base: &Path) -> Assessment {
    let script = pinned_file(hook, base);
    // A rule is pinned by the bytes it was read from: the rules that decide are exactly the ones
    // the pin covers, and nothing is read twice.
    let hashed = match &hook.source {
        Source::Rules(rule) => Some(Ok(rule.of.sha256.to_string())),
        _ => script.as_deref().map(fingerprint::sha256_file),
    };
    let (sha256, unreadable, refused) = match hashed {
        Some(Ok(sha256)) => (Some(sha256), None, false),
        Some(Err(err)) => (None, Some(err.to_string()), fingerprint::is_refused(&err)),
        None => (None, None, false),
    };
    // What was approved, standing in for a guard that vanished or changed: never approved now.
    let (sha256, unreadable) = match hook.stand_in() {
        Some(stand_in) => (None, Some(stand_in.message(&hook.command))),
        None => (sha256, unreadable),
    };
    let entry = list.find(hook.consent_event(), &hook.command);
    let text = |key: &str| {
        entry
            .and_then(|e| e.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    // A null or empty pin is "no hash yet" (pinned on first use), never "no pin forever".
    let pinned = text("script_sha256").filter(|pin| !pin.is_empty());
    let state = match (entry, &pinned) {
        _ if hook.stand_in().is_some() => ConsentState::Changed,
        (None, _) => ConsentState::Unapproved,
        (Some(_), None) => ConsentState::Unpinned,
        (Some(_), Some(pin)) if Some(pin) == sha256.as_ref() => ConsentState::Approved,
        (Some(_), Some(_)) => ConsentState::Changed,
    };
    Assessment {
        state,
        script,
        sha256,
        unreadable,
        refused,
        pinned,
        approved_at: text("approved_at"),
        mtime_at_approval: text("script_mtime_at_approval"),
    }
}

/// Whether `hook` would run if it were started now, judged against `list`: approved (or, with
/// a `bypass` that covers it, approved on the spot) with a script that can be read and pinned.
pub(crate) fn would_run(
    list: &Allowlist,
    hook: &HookSpec,
    bypass: Option<Bypass>,
    base: &Path,
) -> bool {
    let assessment = assess(list, hook, base);
    assessment.sha256.is_some()
        && (assessment.state.may_run() || bypass_for(bypass, hook).is_some())
}

/// The file the consent pin of `hook` covers: an Agent Hook's entry script, or the script a
/// config hook's command names (relative to `base`), if it names one.
pub(crate) fn pinned_file(hook: &HookSpec, base: &Path) -> Option<PathBuf> {
    match &hook.source {
        Source::AgentHooks(agent) => Some(agent.entry.clone()),
        Source::Rules(rule) => Some(rule.of.file.to_path_buf()),
        Source::Config => fingerprint::script_path(&hook.command, base),
    }
}

/// Whether `given` names `hook`, as `approve` and `revoke` accept it: its command exactly as
/// declared, an Agent Hooks hook's or a rule's name as `list` shows it (a rule's names its
/// file), or the path of its script (relative to `base`, `~` expanded).
pub(crate) fn names(hook: &HookSpec, given: &str, base: &Path) -> bool {
    let by_name = hook.agent().is_some() || hook.rule().is_some();
    if given == hook.command || (by_name && given == hook.name) {
        return true;
    }
    let path = base.join(crate::ground::paths::expand_tilde(given).as_ref());
    pinned_file(hook, base).is_some_and(|script| {
        crate::ground::paths::normalized(&script) == crate::ground::paths::normalized(&path)
    })
}

/// Whether the script of `hook` can run: its entry script (Agent Hooks), else the script its
/// command names.
pub(crate) fn script_state(hook: &HookSpec, base: &Path) -> fingerprint::ScriptState {
    match &hook.source {
        Source::AgentHooks(agent) => {
            let is_program = agent
                .argv
                .first()
                .is_some_and(|program| Path::new(program) == agent.entry);
            fingerprint::path_state(&agent.entry, is_program)
        }
        Source::Rules(rule) => fingerprint::path_state(&rule.of.file, false),
        Source::Config => fingerprint::script_state(&hook.command, base),
    }
}

/// The approval `--accept-hooks` or `approve` records for `hook`, from its assessment.
pub(crate) fn approval_for(hook: &HookSpec, assessment: &Assessment) -> Approval {
    let mtime = assessment
        .script
        .as_deref()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|meta| clock::python_mtime(&meta));
    Approval {
        event: hook.consent_event().to_owned(),
        command: hook.command.to_string(),
        script: assessment
            .script
            .as_deref()
            .map(crate::ground::paths::normalized),
        sha256: assessment.sha256.clone(),
        mtime,
        manifest: vanished::manifest_record(hook),
    }
}

/// Records `approvals` in one locked write. Returns how many were written.
pub fn record(path: &Path, approvals: &[Approval]) -> Result<usize, StoreError> {
    let now = clock::now_iso();
    let written = store::update(path, |list| {
        for approval in approvals {
            list.approve(approval, &now);
        }
        (!approvals.is_empty(), approvals.len())
    })?;
    for approval in approvals {
        if let (Some(script), Some(sha256)) = (&approval.script, &approval.sha256) {
            // A copy that cannot be kept only means no diff later.
            let _ = kept::keep(path, script, sha256);
        }
    }
    Ok(written)
}

/// The consent state for one invocation: the allowlist is read once, when the first hook needs it.
pub struct ConsentGate {
    path: PathBuf,
    bypass: Option<Bypass>,
    record: bool,
    snapshot: OnceLock<Snapshot>,
    /// Where a long-lived caller keeps the allowlist between events.
    kept: Option<Arc<Mutex<store::KeptList>>>,
}

struct Snapshot {
    list: Arc<Allowlist>,
    problem: Option<String>,
}

impl ConsentGate {
    /// A gate over the allowlist at `path`. With `record` false (dry runs, `doctor`), nothing is
    /// written.
    pub fn new(path: PathBuf, bypass: Option<Bypass>, record: bool) -> Self {
        Self {
            path,
            bypass,
            record,
            snapshot: OnceLock::new(),
            kept: None,
        }
    }

    /// The same gate reading the allowlist through `kept`, which a caller that answers many
    /// events keeps between them: the file is read again only when it changed.
    pub(crate) fn keeping(self, kept: Option<Arc<Mutex<store::KeptList>>>) -> Self {
        Self { kept, ..self }
    }

    fn snapshot(&self) -> &Snapshot {
        let read = || match &self.kept {
            Some(kept) => match kept.lock() {
                Ok(mut kept) => kept.read(&self.path),
                Err(_) => store::read(&self.path).map(|list| list.map(Arc::new)),
            },
            None => store::read(&self.path).map(|list| list.map(Arc::new)),
        };
        self.snapshot.get_or_init(|| match read() {
            Ok(list) => Snapshot {
                list: list.unwrap_or_default(),
                problem: None,
            },
            Err(err) => Snapshot {
                list: Arc::default(),
                problem: Some(err.to_string()),
            },
        })
    }

    /// The allowlist as this gate reads it (empty when it could not be used).
    pub(crate) fn allowlist(&self) -> &Allowlist {
        &self.snapshot().list
    }

    /// When the allowlist could not be used (corrupt or unreadable): why. It is then treated as
    /// empty, so nothing counts as approved.
    pub fn problem(&self) -> Option<&str> {
        self.snapshot.get().and_then(|s| s.problem.as_deref())
    }

    /// Decides whether `hook` may run now, with the sha256 of the script as it was read for the
    /// decision. `base` is the hook's working directory, against which a relative script path
    /// resolves.
    pub(crate) fn decide(&self, hook: &HookSpec, base: &Path) -> (Verdict, Option<String>) {
        let assessment = assess(&self.snapshot().list, hook, base);
        let verdict = self.verdict(hook, &assessment);
        (verdict, assessment.sha256)
    }

    /// Whether `hook` would run if it were started now: approved (or approved on the spot by a
    /// bypass) with a script that can be read and pinned. Reads, never writes.
    pub(crate) fn would_run(&self, hook: &HookSpec, base: &Path) -> bool {
        would_run(&self.snapshot().list, hook, self.bypass, base)
    }

    /// The Hermes home: the allowlist's folder.
    fn home(&self) -> &Path {
        self.path.parent().unwrap_or_else(|| Path::new("."))
    }

    fn verdict(&self, hook: &HookSpec, assessment: &Assessment) -> Verdict {
        let event = hook.consent_event();
        if assessment.refused {
            let script = assessment
                .script
                .as_ref()
                .map_or_else(|| hook.command.to_string(), |p| p.display().to_string());
            let why = assessment.unreadable.as_deref().unwrap_or("refused");
            return Verdict::Refused {
                message: format!("script {script}: {why}"),
            };
        }
        match assessment.state {
            ConsentState::Approved => Verdict::Run { notice: None },
            ConsentState::Unpinned => Verdict::Run {
                notice: self.pin_first_use(hook, assessment),
            },
            ConsentState::Unapproved => self
                .approve_now(hook, assessment, "not approved")
                .unwrap_or_else(|| Verdict::Unapproved {
                    message: match nothing_to_pin(hook, assessment, self.home()) {
                        Some(why) => {
                            format!("not approved, not run: {event} '{}': {why}", hook.command)
                        }
                        None => format!(
                            "not approved, not run: {event} '{}'; review and approve it with {}",
                            hook.command,
                            approve_hint(hook)
                        ),
                    },
                }),
            ConsentState::Changed => {
                let shown = assessment
                    .script
                    .as_ref()
                    .map_or_else(|| hook.command.to_string(), |p| p.display().to_string());
                let now = assessment.sha256.as_deref().map_or_else(
                    || "unreadable".to_owned(),
                    |s| fingerprint::short_sha256(Some(s)),
                );
                let pinned = assessment
                    .pinned
                    .as_deref()
                    .map_or_else(String::new, |s| fingerprint::short_sha256(Some(s)));
                self.approve_now(hook, assessment, "changed")
                    .unwrap_or_else(|| Verdict::Changed {
                        message: format!(
                            "changed since approval, not run: {event} '{}': {shown} is now {now}, \
                             approved as {pinned}; review and re-approve it with {}",
                            hook.command,
                            approve_hint(hook)
                        ),
                    })
            }
        }
    }

    /// Approves on the spot when a bypass that covers `hook` is active; `None` when there is none.
    fn approve_now(&self, hook: &HookSpec, assessment: &Assessment, was: &str) -> Option<Verdict> {
        let bypass = bypass_for(self.bypass, hook)?;
        let what = format!("{} '{}'", hook.consent_event(), hook.command);
        if !self.record {
            return Some(Verdict::Run {
                notice: Some(format!("{what} is {was}; {bypass} would approve it")),
            });
        }
        if assessment.sha256.is_none() {
            // Approving what cannot be read would pin nothing: whatever appears there later would
            // be trusted on first use without review.
            return Some(Verdict::Run {
                notice: Some(format!(
                    "{what} was {was}; runs by {bypass}, but is not approved: its script cannot be read"
                )),
            });
        }
        let notice = match record(&self.path, &[approval_for(hook, assessment)]) {
            Ok(_) => format!("{what} was {was}; approved by {bypass}"),
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
    fn pin_first_use(&self, hook: &HookSpec, assessment: &Assessment) -> Option<String> {
        let (Some(script), Some(sha256)) = (&assessment.script, &assessment.sha256) else {
            return None;
        };
        if !self.record {
            return None;
        }
        let event = hook.consent_event();
        let script = crate::ground::paths::normalized(script);
        match store::update(&self.path, |list| {
            (list.pin(event, &hook.command, &script, sha256), ())
        }) {
            Ok(()) => {
                let _ = kept::keep(&self.path, &script, sha256);
                None
            }
            Err(err) => Some(format!(
                "{event} '{}' runs, but its sha256 pin was not recorded: {err}",
                hook.command
            )),
        }
    }
}

/// For a script changed since approval: the diff from the copy kept when it was approved to the
/// script now, when that copy was kept. `allowlist` is the file beside which copies are kept.
pub(crate) fn changes_since_approval(assessment: &Assessment, allowlist: &Path) -> Option<String> {
    if assessment.state != ConsentState::Changed {
        return None;
    }
    kept::diff_since_approval(
        allowlist,
        assessment.script.as_deref()?,
        assessment.pinned.as_deref()?,
    )
}

/// Why there is nothing to pin for `hook` (its script is missing or cannot be read), when so:
/// such a hook cannot be approved, so this is said instead of suggesting `approve`. `home` is the
/// Hermes home, for the note that `~` in a command is `$HOME`, not the Hermes home.
pub(crate) fn nothing_to_pin(
    hook: &HookSpec,
    assessment: &Assessment,
    home: &Path,
) -> Option<String> {
    if assessment.sha256.is_some() {
        return None;
    }
    let Some(script) = &assessment.script else {
        return Some(format!(
            "its command '{}' names no script that can be found (a program not on PATH?)",
            hook.command
        ));
    };
    if std::fs::symlink_metadata(script).is_ok() {
        let why = assessment.unreadable.as_deref().unwrap_or("unreadable");
        return Some(format!(
            "its script {} cannot be read: {why}",
            script.display()
        ));
    }
    if let Some(folder) = hook
        .agent()
        .and_then(|agent| agent.entry.parent()?.parent())
    {
        return Some(crate::config::hook_md::no_entry(folder));
    }
    Some(format!(
        "its script {} does not exist{}",
        script.display(),
        tilde_note(&hook.command, script, home)
    ))
}

/// For a missing script named with `~` while the Hermes home is not `~/.hermes`: that `~` is the
/// user's home folder, and the file the author may have meant.
fn tilde_note(command: &str, script: &Path, home: &Path) -> String {
    use std::fmt::Write as _;
    let Some(user_home) = crate::ground::paths::home_dir() else {
        return String::new();
    };
    let default_home = user_home.join(".hermes");
    let names_tilde = command.split_whitespace().any(|word| word.starts_with('~'));
    if !names_tilde || crate::ground::paths::normalized(home) == default_home {
        return String::new();
    }
    let mut note = format!(
        " (`~` in a command is $HOME, {}, not the Hermes home {}",
        user_home.display(),
        home.display()
    );
    if let Ok(rest) = script.strip_prefix(&default_home) {
        let meant = home.join(rest);
        if meant.is_file() {
            let _ = write!(note, "; write {} to run that file", meant.display());
        }
    }
    note.push(')');
    note
}

/// The command that reviews and approves `hook`, ready to copy.
pub(crate) fn approve_hint(hook: &HookSpec) -> String {
    if hook.rule().is_some() {
        return format!("`hermes-hooks approve {}`", quoted(&hook.command));
    }
    format!(
        "`hermes-hooks approve --event {} {}`",
        hook.event,
        quoted(&hook.command)
    )
}

/// `text` quoted for a POSIX shell, for commands shown to copy.
fn quoted(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| text.to_owned(), std::borrow::Cow::into_owned)
}
