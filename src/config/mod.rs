//! Hook sources merged into one ordered list of hooks, with the warnings found while loading them.

pub(crate) mod event;
mod expand;
pub(crate) mod glance;
pub(crate) mod hermes;
pub(crate) mod hook_md;
mod hook_text;
pub(crate) mod in_process;
mod loading;
mod memo;
mod model_name;
pub(crate) mod rules;
pub(crate) mod sources;
pub(crate) mod yaml;

#[cfg(test)]
mod faults;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub use event::{Effects, Event};
pub use hook_text::HookText;
pub use loading::load;
pub(crate) use memo::{Mended, key_path as memo_key_path};

use crate::matcher::Matcher;

/// Where a hook is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// The `hooks:` block of Hermes's config.yaml.
    Config,
    /// An Agent Hooks HOOK.md folder.
    AgentHooks,
    /// A rule of a rules file, evaluated without a process.
    Rules,
    /// A Hermes gateway hook (audit only).
    Gateway,
    /// A Hermes plugin hook (audit only).
    Plugin,
}

impl SourceKind {
    /// The name used in output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Config => "config",
            Self::AgentHooks => "agent-hooks",
            Self::Rules => "rules",
            Self::Gateway => "gateway",
            Self::Plugin => "plugin",
        }
    }
}

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The file, as it was named (relative for project files); shared by every hook and
    /// warning of that file.
    pub file: Arc<Path>,
    /// The 1-based line, when known.
    pub line: Option<u64>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        Ok(())
    }
}

/// What kind of problem a [`Warning`] reports (`doctor` grades them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// An event name that is not known; its hooks never run.
    UnknownEvent,
    /// An old event name, accepted.
    LegacyName,
    /// Another tool's event name (Claude Code's `PreToolUse`, ...), accepted.
    ForeignName,
    /// A registration Hermes refuses (a Python-plugin-only event).
    Refused,
    /// A declaration that could not be read; that hook never runs.
    SkippedEntry,
    /// A matcher that is ignored (non-tool event, not a string).
    IgnoredMatcher,
    /// A matcher that is not a valid regex, matched by literal equality.
    LiteralMatcher,
    /// A timeout out of range, clamped or replaced by the default.
    ClampedTimeout,
    /// A setting of the wrong type or place, replaced by its default.
    InvalidValue,
    /// A key written twice in one mapping; the last one counts.
    RepeatedKey,
    /// A `hooks:` block or event list written twice: Hermes keeps the last, so the hooks of
    /// the first never run.
    DroppedHooks,
    /// An entry identical to an earlier one (same event, matcher and command); it runs once.
    DuplicateEntry,
    /// A `${VAR}` that is set nowhere, kept as written.
    UnsetVariable,
    /// A user's event list replaced by the managed config's.
    ManagedOverride,
    /// An event key Hermes itself ignores (an alias or a legacy name); this tool runs it.
    NotForHermes,
    /// A rule's `${project}` or `${home}` where there is no such folder (`run` does not repeat
    /// it on every call).
    NoFolder,
}

impl WarningKind {
    /// The name used in `--json` output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnknownEvent => "unknown_event",
            Self::LegacyName => "legacy_name",
            Self::ForeignName => "foreign_name",
            Self::Refused => "refused",
            Self::SkippedEntry => "skipped_entry",
            Self::IgnoredMatcher => "ignored_matcher",
            Self::LiteralMatcher => "literal_matcher",
            Self::ClampedTimeout => "clamped_timeout",
            Self::InvalidValue => "invalid_value",
            Self::RepeatedKey => "repeated_key",
            Self::DroppedHooks => "dropped_hooks",
            Self::DuplicateEntry => "duplicate_entry",
            Self::UnsetVariable => "unset_variable",
            Self::ManagedOverride => "managed_override",
            Self::NotForHermes => "not_for_hermes",
            Self::NoFolder => "no_folder",
        }
    }
}

/// A problem that did not stop loading: the hook was skipped, or a setting was adjusted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What kind of problem.
    pub kind: WarningKind,
    /// Where the problem is.
    pub origin: Origin,
    /// What is wrong and what was done about it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}

/// A file (or folder) whose hooks could not be read at all: they are unknown, so they cannot
/// run. It takes out only its own hooks; every other source still loads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The source the file belongs to.
    pub source: SourceKind,
    /// The file, and the line when known.
    pub origin: Origin,
    /// The 1-based column, when known.
    pub column: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        if let (Some(_), Some(column)) = (self.origin.line, self.column) {
            write!(f, ":{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl LoadError {
    /// Whether the hooks it took out could have blocked `event` (a config.yaml that does not
    /// parse could have held a `pre_tool_call` guard; on `post_llm_call` it could not).
    pub fn could_block(&self, event: Event) -> bool {
        event.effects(self.source).contains(Effects::BLOCK)
    }
}

/// One hook, ready to match and run.
#[derive(Clone, Debug)]
pub struct HookSpec {
    /// The event it runs for.
    pub event: Event,
    /// Where it comes from, which decides its payload dialect and what its answer may do, with
    /// what only that source declares.
    pub source: Source,
    /// A short name for people: the script's file name (config hooks), or the HOOK.md name.
    pub name: HookText,
    /// The command as declared; with the event, the consent key.
    pub command: HookText,
    /// The tool matcher (tool events only).
    pub matcher: Option<Box<Matcher>>,
    /// The deadline for one run.
    pub timeout: Duration,
    /// Block when the hook times out, cannot start, or answers with something unparseable.
    pub fail_closed: bool,
    /// Where it is declared.
    pub origin: Origin,
    /// Its entry in an answer line, the same on every call: made the first time, where a
    /// process answers many calls (see [`crate::report::line`]).
    pub(crate) answer: std::sync::OnceLock<Entry>,
}

/// A hook's entry in an answer line, in a text written once for the hooks an answer lists side
/// by side, so that a run of them not matched is copied as one slice.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// The entries of the run, joined by commas.
    pub text: Arc<str>,
    /// Where this one starts.
    pub start: u32,
    /// Where its status starts (after `"status":"`).
    pub status: u32,
    /// Where it ends, written as not matched.
    pub end: u32,
}

/// A hook's source, with the data only that source has.
#[derive(Clone, Debug)]
pub enum Source {
    /// The `hooks:` block of Hermes's config.yaml: `command` is split like a shell, and the
    /// consent pin covers the script it names.
    Config,
    /// An Agent Hooks HOOK.md folder.
    AgentHooks(Box<AgentHook>),
    /// A rule of a rules file: `command` is the file (approved as one unit), and nothing runs.
    Rules(rules::RuleRef),
}

impl Source {
    /// Which source this is.
    pub const fn kind(&self) -> SourceKind {
        match self {
            Self::Config => SourceKind::Config,
            Self::AgentHooks(_) => SourceKind::AgentHooks,
            Self::Rules(_) => SourceKind::Rules,
        }
    }

    /// The name used in output.
    pub const fn as_str(&self) -> &'static str {
        self.kind().as_str()
    }
}

/// What an Agent Hooks folder declares beyond the common fields.
#[derive(Clone, Debug)]
pub struct AgentHook {
    /// The entry script (`scripts/run`, `run.sh` or `run.py`): the file the consent pin covers.
    pub entry: PathBuf,
    /// The exact argv: the entry script, or its interpreter and the script.
    pub argv: Vec<String>,
    /// `matcher.pattern`: a regex searched in every scalar value of the tool input.
    pub pattern: Option<Matcher>,
    /// `async: true`: started detached and not waited for.
    pub run_async: bool,
    /// Declared by its event's failure alias (`post-tool-call-failure`), so it runs only for
    /// failed calls (and the event's other Agent Hooks only for successful ones).
    pub on_failure: bool,
    /// The level it comes from.
    pub scope: Scope,
    /// Higher runs first within its level.
    pub priority: u16,
    /// What it does, as its HOOK.md says in `description` (when that is a usable one).
    pub description: Option<String>,
    /// The sha256 of its HOOK.md as it was read: an approval remembers it, so an edit that
    /// changes what the guard matches is a change (see [`crate::consent::vanished`]).
    pub manifest_sha256: Option<Arc<str>>,
    /// Set when this hook is what was approved standing in for a guard that vanished or changed.
    pub stand_in: Option<Box<StandIn>>,
}

/// A guard that is no longer as it was approved (its file or folder gone, or changed): what was
/// approved stands in for it, reported `changed`; it blocks where the approved copy was
/// `fail_closed`, and runs nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandIn {
    /// Whether the file or folder is gone (else it changed).
    pub gone: bool,
    /// The file or folder, as the approval names it.
    pub what: String,
}

impl StandIn {
    /// The line said about it: what happened and what to do.
    pub fn message(&self, revoke: &str) -> String {
        if self.gone {
            format!(
                "{} is gone since it was approved, so it does not guard; put it back, or revoke \
                 it with `hermes-hooks revoke {revoke}`",
                self.what
            )
        } else {
            format!(
                "{} changed since it was approved, so it does not guard; review and re-approve it \
                 with `hermes-hooks approve`, or put the approved copy back",
                self.what
            )
        }
    }
}

/// The level of an Agent Hooks folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `~/.config/agents/hooks` (or `$XDG_CONFIG_HOME/agents/hooks`, `--user-hooks`).
    User,
    /// `<project>/.agents/hooks`.
    Project,
}

impl Scope {
    /// The name used in output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project => "project",
        }
    }
}

/// A hook's name as the model may read it, before it is made.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ModelName<'a> {
    /// A name that is shown as it is.
    Given(&'a str),
    /// A config hook's command, shown as `<label>#<sha8>`.
    OfCommand(&'a str),
}

impl<'a> ModelName<'a> {
    /// The name.
    pub(crate) fn text(self) -> std::borrow::Cow<'a, str> {
        match self {
            Self::Given(name) => std::borrow::Cow::Borrowed(name),
            Self::OfCommand(command) => std::borrow::Cow::Owned(model_name::model_name(command)),
        }
    }
}

impl<'a> From<&'a str> for ModelName<'a> {
    fn from(name: &'a str) -> Self {
        Self::Given(name)
    }
}

impl HookSpec {
    /// A hook with the default timeout, no matcher and `fail_closed` off.
    pub fn new(
        event: Event,
        source: Source,
        name: impl Into<HookText>,
        command: impl Into<HookText>,
        origin: Origin,
    ) -> Self {
        Self {
            event,
            source,
            name: name.into(),
            command: command.into(),
            matcher: None,
            timeout: Duration::from_secs(hermes::DEFAULT_TIMEOUT_SECS),
            fail_closed: false,
            origin,
            answer: std::sync::OnceLock::new(),
        }
    }

    /// The Agent Hooks declaration, for a hook from a HOOK.md folder.
    pub const fn agent(&self) -> Option<&AgentHook> {
        match &self.source {
            Source::AgentHooks(agent) => Some(agent),
            Source::Config | Source::Rules(_) => None,
        }
    }

    /// The rule, for a hook from a rules file.
    pub fn rule(&self) -> Option<&rules::Rule> {
        match &self.source {
            Source::Rules(rule) => Some(rule),
            Source::Config | Source::AgentHooks(_) => None,
        }
    }

    /// When this hook stands in for an approved guard that vanished or changed: how.
    pub fn stand_in(&self) -> Option<&StandIn> {
        match &self.source {
            Source::Rules(rule) => rule.of.stand_in.as_ref(),
            Source::AgentHooks(agent) => agent.stand_in.as_deref(),
            Source::Config => None,
        }
    }

    /// The event its approval is recorded under: its own, or `rules` for a rule (a rules file is
    /// approved as one unit, whatever events its rules are for).
    pub fn consent_event(&self) -> &'static str {
        match &self.source {
            Source::Rules(_) => rules::CONSENT_EVENT,
            Source::Config | Source::AgentHooks(_) => self.event.name(),
        }
    }

    /// What the model and the person call it: `hook <name>` or `rule <name>`.
    pub fn kind_word(&self) -> &'static str {
        match &self.source {
            Source::Rules(_) => "rule",
            Source::Config | Source::AgentHooks(_) => "hook",
        }
    }

    /// The name the model may read (in a block or a question it is shown): an Agent Hooks
    /// hook's `name`, a config hook's `<label>#<sha8>` (its command line may hold a secret).
    pub fn model_name(&self) -> std::borrow::Cow<'_, str> {
        self.model_name_later().text()
    }

    /// [`Self::model_name`], made only when [`ModelName::text`] is called (a config hook's
    /// costs a sha256, which most runs never need).
    pub(crate) fn model_name_later(&self) -> ModelName<'_> {
        match &self.source {
            Source::AgentHooks(_) | Source::Rules(_) => ModelName::Given(&self.name),
            Source::Config => ModelName::OfCommand(&self.command),
        }
    }

    /// The exact argv, when the source gives one (else `command` is split like a shell).
    pub fn argv(&self) -> Option<&[String]> {
        self.agent().map(|agent| agent.argv.as_slice())
    }

    /// Started detached and not waited for.
    pub fn run_async(&self) -> bool {
        self.agent().is_some_and(|agent| agent.run_async)
    }

    /// Runs only for failed calls (declared by its event's failure alias).
    pub fn on_failure(&self) -> bool {
        self.agent().is_some_and(|agent| agent.on_failure)
    }

    /// Whether the tool input satisfies `matcher.pattern` (hooks without one always apply).
    pub fn matches_input(
        &self,
        input: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> bool {
        self.agent()
            .and_then(|agent| agent.pattern.as_ref())
            .is_none_or(|pattern| input.is_some_and(|input| pattern.matches_any_value(input)))
    }

    /// What this hook's answer may do on its event.
    pub fn effects(&self) -> Effects {
        self.event.effects(self.source.kind())
    }

    /// Whether the hook applies to a call of `tool` (hooks without a matcher always apply).
    pub fn matches_tool(&self, tool: Option<&str>) -> bool {
        self.matcher
            .as_ref()
            .is_none_or(|matcher| matcher.matches(tool))
    }
}

/// Every hook that was loaded, in run order, plus what was found along the way.
#[derive(Clone, Debug, Default)]
pub struct HookSet {
    /// The hooks, in the order `run` uses them (a user hook and the project hook that may
    /// replace it are both here; see [`Self::replacements`]).
    pub hooks: Vec<HookSpec>,
    /// Project hooks that have the name and the event of a user hook. Each replaces its user hook
    /// only when it would run itself (approved, or approved on the spot by a bypass, with a
    /// script that can be read): consent decides, not the config (see [`Self::replaced`]).
    pub replacements: Vec<Replacement>,
    /// Project hook folders with the name of a user hook that cannot replace it (skipped, or for
    /// another event); the user hook runs as usual.
    pub namesakes: Vec<Namesake>,
    /// Load warnings, in file order.
    pub warnings: Vec<Warning>,
    /// `hooks_auto_accept: true` in config.yaml.
    pub auto_accept: bool,
    /// Files whose hooks could not be read (their hooks are unknown, so none of them runs): a
    /// config.yaml that does not parse, a HOOK.md that names no event it can be loaded for.
    pub errors: Vec<LoadError>,
    /// Each rules file looked for (absolute, normalised), its level, and the sha256 of the bytes
    /// read (`None`: not there, or not readable).
    pub rules_read: Vec<(PathBuf, Scope, Option<Arc<str>>)>,
}

/// A project hook that may replace a user hook: indices into [`HookSet::hooks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The user-level hook.
    pub user: usize,
    /// The project-level hook of the same name and event.
    pub project: usize,
}

/// A project folder with a user hook's name that does not replace it.
#[derive(Clone, Debug)]
pub struct Namesake {
    /// The user-level hook (index into [`HookSet::hooks`]).
    pub user: usize,
    /// The project folder's HOOK.md.
    pub file: PathBuf,
    /// Why it does not replace the user hook.
    pub why: String,
}

impl HookSet {
    /// The rules files that could not be read at all (a rule that was skipped is among the
    /// warnings, and not repeated here).
    pub(crate) fn unread_rules_files(&self) -> impl Iterator<Item = &LoadError> {
        self.errors.iter().filter(|e| {
            e.source == SourceKind::Rules
                && !self
                    .warnings
                    .iter()
                    .any(|w| w.origin == e.origin && w.message == e.message)
        })
    }

    /// For each hook, the project hook that replaces it: a candidate replaces its user hook only
    /// when `would_run` says the project hook would run itself.
    pub fn replaced(&self, would_run: impl FnMut(&HookSpec) -> bool) -> Vec<Option<usize>> {
        replaced(&self.hooks, &self.replacements, would_run)
    }
}

/// For each of `hooks`, the project hook that replaces it, if any: a candidate replaces its user
/// hook when `would_run` says the project hook would run itself (consent decides). A project
/// folder never removes a user's hook by merely existing.
pub(crate) fn replaced(
    hooks: &[HookSpec],
    replacements: &[Replacement],
    mut would_run: impl FnMut(&HookSpec) -> bool,
) -> Vec<Option<usize>> {
    let mut replaced = vec![None; hooks.len()];
    for r in replacements {
        if replaced[r.user].is_none() && would_run(&hooks[r.project]) {
            replaced[r.user] = Some(r.project);
        }
    }
    replaced
}

/// What to load.
#[derive(Clone, Copy, Debug)]
pub struct LoadOptions<'a> {
    /// Hermes's config.yaml.
    pub config: &'a Path,
    /// The managed config.yaml (`$HERMES_MANAGED_DIR` or `/etc/hermes`), if there is one.
    pub managed: Option<&'a Path>,
    /// `<home>/.env`, for `${VAR}` references the environment does not set.
    pub dotenv: Option<&'a Path>,
    /// The user-level Agent Hooks folder, if any.
    pub user_hooks: Option<&'a Path>,
    /// The project-level Agent Hooks folder.
    pub project_hooks: Option<&'a Path>,
    /// The hooks folders of nested projects below it (outermost first), which add hooks and
    /// never replace one.
    pub nested_hooks: &'a [PathBuf],
    /// Load only this event's hooks (and check only their entries); `None` loads everything.
    pub only: Option<Event>,
    /// The user's rules file (`<home>/hermes-hooks/rules.yaml`), if any.
    pub user_rules: Option<&'a Path>,
    /// The project folder, absolute: what `${project}` stands for in a rule's pattern.
    pub project: Option<&'a Path>,
}

impl LoadOptions<'_> {
    /// The rules files, in order: the user's, the project's (`.agents/rules.yaml` beside its
    /// hooks folder), then the nested projects'.
    pub fn rules_files(&self) -> Vec<(PathBuf, Scope)> {
        let beside = |hooks: &Path| hooks.parent().map(|agents| agents.join(rules::FILE_NAME));
        self.user_rules
            .map(|file| (file.to_path_buf(), Scope::User))
            .into_iter()
            .chain(
                self.project_hooks
                    .into_iter()
                    .chain(self.nested_hooks.iter().map(PathBuf::as_path))
                    .filter_map(beside)
                    .map(|file| (file, Scope::Project)),
            )
            .collect()
    }
}

/// Checks the parse memos of the config files against the files (see `memo`), mending each
/// that says something else; `doctor` does this before it loads.
pub(crate) fn check_memos(options: LoadOptions<'_>) -> Vec<hermes::UntrueMemo> {
    hermes::check_memos(hermes::Files {
        config: options.config,
        managed: options.managed,
        dotenv: options.dotenv,
    })
}

/// Checks the memos of the rules files against the files, removing each that says something
/// else; `doctor` does this before it loads. Each with the rules file it stands for.
pub(crate) fn check_rules_memos(options: LoadOptions<'_>) -> Vec<(PathBuf, Mended)> {
    let home = crate::ground::paths::home_dir();
    let vars = rules::Vars {
        project: options.project,
        home: home.as_deref(),
    };
    options
        .rules_files()
        .into_iter()
        .flat_map(|(file, _)| {
            rules::check_memos(&file, vars)
                .into_iter()
                .map(move |mended| (file.clone(), mended))
        })
        .collect()
}
