//! The `hooks:` block of Hermes's config.yaml, read as Hermes reads it: `PyYAML`'s safe loader,
//! `${VAR}` expanded from the environment and `<home>/.env`, the managed config (`/etc/hermes`
//! or `$HERMES_MANAGED_DIR`) merged over the user's, identical entries registered once, and
//! Hermes's rules for each entry: what is skipped with a warning naming `file:line`, and what
//! takes out a whole file's hooks (YAML that does not parse, `hooks` that is not a mapping): a
//! [`LoadError`] that names it, while the other file and every other source still load. The rest
//! of config.yaml is Hermes's and is not interpreted.

use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(test)]
use anyhow::{Result, anyhow};

use super::expand::Expander;
use super::memo;
use super::yaml::pyyaml::{self, Mapping, Node, Value};
use super::{Event, HookSpec, LoadError, Origin, Source, SourceKind, Warning, WarningKind};
use crate::config::Effects;
use crate::config::event::Resolved;
use crate::ground::hook_script::script_word;
use crate::matcher::Matcher;

/// A hook's timeout when none is given, in seconds.
pub(crate) const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// The largest timeout, in seconds; larger ones are clamped.
pub(crate) const MAX_TIMEOUT_SECS: u64 = 300;
/// Hermes's own sub-sections of `hooks:`, which are not events.
const RESERVED_KEYS: [&str; 2] = ["output_spill", "outbound"];

/// The files Hermes builds its configuration from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Files<'a> {
    /// The user's config.yaml.
    pub config: &'a Path,
    /// The managed config.yaml, merged over the user's (managed values win).
    pub managed: Option<&'a Path>,
    /// `<home>/.env`, for `${VAR}` references the environment does not set.
    pub dotenv: Option<&'a Path>,
}

/// What config.yaml declares.
#[derive(Debug, Default)]
pub(crate) struct HermesConfig {
    /// The hooks, in the order Hermes registers them.
    pub hooks: Vec<HookSpec>,
    /// What was skipped or adjusted.
    pub warnings: Vec<Warning>,
    /// `hooks_auto_accept` is true (a boolean, or a truthy string).
    pub auto_accept: bool,
    /// Files whose hooks could not be read at all (each takes out only its own hooks).
    pub errors: Vec<LoadError>,
}

/// Reads the config files; a missing file declares no hooks. With `only`, entries of other
/// events are not checked or built (their keys still are, so a misspelt event is reported). A
/// file that cannot be read or parsed declares no hooks and is reported in `errors`; the other
/// file still counts (a broken managed config leaves the user's hooks, and the reverse).
pub(crate) fn load(files: Files<'_>, only: Option<Event>) -> HermesConfig {
    let mut errors = Vec::new();
    let mut read_or_report = |path: &Path| {
        read(path, only).unwrap_or_else(|err| {
            errors.push(err);
            None
        })
    };
    let user = read_or_report(files.config);
    let managed = files.managed.and_then(read_or_report);
    let mut config = build(user.as_ref(), managed.as_ref(), files.dotenv, only);
    errors.append(&mut config.errors);
    config.errors = errors;
    config
}

/// Parses one config.yaml's bytes (no managed config, no `.env`, no memo); `path` names the
/// file.
#[cfg(test)]
pub(crate) fn parse(path: &Path, bytes: &[u8], only: Option<Event>) -> Result<HermesConfig> {
    let document = Document {
        path: path.to_path_buf(),
        top: parse_top(path, bytes, only).map_err(|err| anyhow!("{err}"))?,
    };
    let config = build(Some(&document), None, None, only);
    match config.errors.first() {
        Some(err) => Err(anyhow!("{err}")),
        None => Ok(config),
    }
}

/// A parsed file: its path and what the readers use of its top-level mapping (empty when the
/// file is).
struct Document {
    path: PathBuf,
    top: Mapping,
}

fn read(path: &Path, only: Option<Event>) -> Result<Option<Document>, LoadError> {
    match crate::ground::limits::read(path, crate::ground::limits::CONFIG_MAX) {
        Ok(bytes) => document(path, &bytes, only).map(Some),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(config_error(path, None, format!("cannot read it: {err}"))),
    }
}

/// A config file whose hooks could not be read.
fn config_error(path: &Path, at: Option<(u64, u64)>, message: String) -> LoadError {
    LoadError {
        source: SourceKind::Config,
        origin: Origin {
            file: path.to_path_buf(),
            line: at.map(|(line, _)| line),
        },
        column: at.map(|(_, column)| column),
        message,
    }
}

/// Reads one config file's bytes through the parse memo: what [`parse_top`] gives for the same
/// bytes and event, parsed once (see `memo`).
fn document(path: &Path, bytes: &[u8], only: Option<Event>) -> Result<Document, LoadError> {
    let slot = memo::Slot::of(bytes, only);
    let top = if let Some(top) = slot.as_ref().and_then(memo::Slot::recall) {
        top
    } else {
        let top = parse_top(path, bytes, only)?;
        if let Some(slot) = slot {
            slot.keep(&top);
        }
        top
    };
    Ok(Document {
        path: path.to_path_buf(),
        top,
    })
}

/// A parse memo of a config file that was believed but did not say what the file says: a
/// command reading through it saw other hooks than the file declares.
#[derive(Debug)]
pub(crate) struct UntrueMemo {
    /// The config file.
    pub file: PathBuf,
    /// The event the memo was for (`None`: every event).
    pub event: Option<Event>,
    /// What became of it.
    pub mended: memo::Mended,
}

/// Compares every parse memo of the config files' present bytes (the one for every event and
/// one per event) with a parse of those bytes, and mends each that differs. A file that cannot
/// be read or parsed is left to the load, which reports it.
pub(crate) fn check_memos(files: Files<'_>) -> Vec<UntrueMemo> {
    let mut untrue = Vec::new();
    for path in std::iter::once(files.config).chain(files.managed) {
        let Ok(bytes) = crate::ground::limits::read(path, crate::ground::limits::CONFIG_MAX) else {
            continue;
        };
        let Ok(every) = parse_top(path, &bytes, None) else {
            continue;
        };
        for event in std::iter::once(None).chain(Event::all().map(Some)) {
            let Some(slot) = memo::Slot::of(&bytes, event) else {
                break; // no cache folder: no memos
            };
            let expected = match event {
                None => every.clone(),
                Some(_) => memo::kept(every.clone(), event),
            };
            if let Some(mended) = slot.mend(&expected) {
                untrue.push(UntrueMemo {
                    file: path.to_path_buf(),
                    event,
                    mended,
                });
            }
        }
    }
    untrue
}

/// Parses one config file's bytes (a byte-order mark first is skipped, as `PyYAML` skips it)
/// into what the readers use of its top level (empty for an empty file): with `only`, of
/// `hooks:` that event's lists alone (see [`memo::kept`]).
fn parse_top(path: &Path, bytes: &[u8], only: Option<Event>) -> Result<Mapping, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let line = bytes[..err.valid_up_to()].split(|b| *b == b'\n').count();
        let line = u64::try_from(line).unwrap_or(u64::MAX);
        LoadError {
            column: None,
            ..config_error(path, Some((line, 0)), "not valid UTF-8".to_owned())
        }
    })?;
    // Every command reads the whole file the same way: a shortcut that read less could be made
    // to see other hooks than `list` and `doctor` show.
    let root = pyyaml::load(text).map_err(|err| {
        let at = err.at.map(|(line, column)| {
            (
                u64::try_from(line).unwrap_or(u64::MAX),
                u64::try_from(column).unwrap_or(u64::MAX),
            )
        });
        let message = match crate::config::yaml::plain::explained(&err.message, err.at) {
            Some(plain) => format!("{}; that is, {plain}", err.message),
            None => err.message,
        };
        config_error(path, at, message)
    })?;
    match root.map(|node| node.value) {
        None | Some(Value::Null) => Ok(Mapping::default()),
        Some(Value::Map(mapping)) => Ok(memo::kept(mapping, only)),
        Some(other) => Err(LoadError {
            column: None,
            ..config_error(
                path,
                Some((1, 0)),
                format!(
                    "the top level must be a mapping of settings, not a {}",
                    other.type_name()
                ),
            )
        }),
    }
}

/// One event key of the merged `hooks:` block, with the file it comes from.
struct EventEntry<'a> {
    file: &'a Path,
    key: &'a Node,
    value: &'a Node,
}

fn build(
    user: Option<&Document>,
    managed: Option<&Document>,
    dotenv: Option<&Path>,
    only: Option<Event>,
) -> HermesConfig {
    let mut reader = BlockReader {
        only,
        out: HermesConfig::default(),
        expander: Expander::new(dotenv),
    };
    let mut events: Vec<EventEntry<'_>> = Vec::new();
    let mut auto_accept = None;
    for document in user.into_iter().chain(managed) {
        let top = &document.top;
        let file = document.path.as_path();
        reader.repeated(file, top, "", Level::Top);
        if let Some(value) = top.get("hooks_auto_accept") {
            auto_accept = Some((file, value));
        }
        let Some(hooks) = top.get("hooks") else {
            continue;
        };
        let entries = match &hooks.value {
            // Hermes's deep merge keeps the user's block when the managed one is empty.
            Value::Null => continue,
            Value::Map(entries) => entries,
            other => {
                reader.out.errors.push(config_error(
                    file,
                    Some((hooks.line, hooks.column)),
                    format!(
                        "`hooks` must be a mapping of event names to lists of hooks, not a {}",
                        other.type_name()
                    ),
                ));
                continue;
            }
        };
        reader.repeated(file, entries, "hooks.", Level::Events);
        for (key, value) in &entries.entries {
            // The managed config wins per event key: its list replaces the user's.
            let same = |e: &EventEntry<'_>| e.key.value.same_key(&key.value);
            if let Some(at) = events.iter().position(same) {
                let old = &events[at];
                reader.warn(
                    WarningKind::ManagedOverride,
                    old.file,
                    old.key.line,
                    format!(
                        "hooks.{} is replaced by the managed config's ({}:{}): managed values win, \
                         as in Hermes",
                        key.value.key_text(),
                        file.display(),
                        key.line
                    ),
                );
                events[at] = EventEntry { file, key, value };
            } else {
                events.push(EventEntry { file, key, value });
            }
        }
    }
    if let Some((file, value)) = auto_accept {
        reader.out.auto_accept = reader.auto_accept(file, value);
    }
    for entry in &events {
        reader.event(entry);
    }
    reader.deduplicate();
    if let Some(problem) = reader.expander.dotenv_problem.take()
        && let Some(path) = dotenv
    {
        reader.warn(WarningKind::InvalidValue, path, 0, problem);
    }
    reader.out
}

/// Where a mapping sits in config.yaml.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The top level.
    Top,
    /// The `hooks:` block: event keys.
    Events,
    /// One entry of an event's list.
    Entry,
}

/// Walks the merged `hooks:` block, collecting hooks and warnings.
struct BlockReader {
    only: Option<Event>,
    out: HermesConfig,
    expander: Expander,
}

impl BlockReader {
    fn warn(&mut self, kind: WarningKind, file: &Path, line: u64, message: String) {
        self.out.warnings.push(Warning {
            kind,
            origin: Origin {
                file: file.to_path_buf(),
                line: (line > 0).then_some(line),
            },
            message,
        });
    }

    /// Warns about keys written twice in `mapping` (the last one counts, as in `PyYAML`); one
    /// that drops hooks (a second `hooks:`, an event list or an entry's command written again)
    /// names them.
    fn repeated(&mut self, file: &Path, mapping: &Mapping, prefix: &str, level: Level) {
        for repeat in &mapping.repeated {
            let key = repeat.key.as_str();
            if level == Level::Top && !matches!(key, "hooks" | "hooks_auto_accept") {
                continue; // the rest of the top level is Hermes's own business
            }
            let (dropped, advice) = match (level, key) {
                (Level::Top, "hooks") => (
                    hooks_of_block(&repeat.dropped),
                    "merge the two blocks into one",
                ),
                (Level::Events, key) if !RESERVED_KEYS.contains(&key) => (
                    hooks_of_list(&repeat.dropped),
                    "merge the two lists into one",
                ),
                (Level::Entry, "command") => (
                    command_of(&repeat.dropped)
                        .map(|command| format!("{command} (line {})", repeat.dropped.line))
                        .into_iter()
                        .collect(),
                    "keep one command",
                ),
                _ => (Vec::new(), ""),
            };
            let twice = format!(
                "{prefix}{key} is written twice (lines {} and {})",
                repeat.first, repeat.last
            );
            if dropped.is_empty() {
                let message = format!("{twice}; the last one counts, as in Hermes");
                self.warn(WarningKind::RepeatedKey, file, repeat.last, message);
            } else {
                let message = format!(
                    "{twice}: Hermes keeps only the last, so the hooks of the first one never \
                     run: {}; {advice}",
                    dropped.join(", ")
                );
                self.warn(WarningKind::DroppedHooks, file, repeat.last, message);
            }
        }
    }

    /// `${VAR}` in a string value, with a warning for each variable that is set nowhere.
    fn expand(&mut self, file: &Path, line: u64, at: &str, text: &str) -> String {
        let (text, unset) = self.expander.expand(text);
        for name in unset {
            self.warn(
                WarningKind::UnsetVariable,
                file,
                line,
                format!(
                    "{at}: ${{{name}}} is not set (in the environment or .env); kept as written"
                ),
            );
        }
        text
    }

    fn auto_accept(&mut self, file: &Path, node: &Node) -> bool {
        match &node.value {
            Value::Bool(value) => *value,
            Value::Str(text) => {
                let text = self.expand(file, node.line, "hooks_auto_accept", text);
                crate::ground::env::is_truthy(&text)
            }
            _ => false,
        }
    }

    fn event(&mut self, entry: &EventEntry<'_>) {
        let (file, line) = (entry.file, entry.key.line);
        let Value::Str(name) = &entry.key.value else {
            let unknown = format!("unknown hook event {}", entry.key.value);
            self.unknown_event(file, line, &unknown, entry.value);
            return;
        };
        if RESERVED_KEYS.contains(&name.as_str()) {
            return;
        }
        let resolved = match Event::parse_config_key(name) {
            Ok(resolved) => resolved,
            Err(unknown) => {
                self.unknown_event(file, line, &unknown.to_string(), entry.value);
                return;
            }
        };
        let event = resolved.event;
        if event.def().plugin_only {
            self.warn(
                WarningKind::Refused,
                file,
                line,
                format!(
                    "hook event '{name}' is Python-plugin-only: a shell hook cannot return its \
                     directive, so this registration is refused"
                ),
            );
            return;
        }
        if self.only.is_some_and(|only| only != event) {
            return;
        }
        if event.def().plugin_fired {
            self.warn(
                WarningKind::NotForHermes,
                file,
                line,
                format!(
                    "Hermes fires '{name}' for Python plugins only and does not run config hooks \
                     for it: only `hermes-hooks run {name}` (and `test`) runs these hooks"
                ),
            );
        }
        if event.def().canonical != Some(name.as_str()) {
            self.not_for_hermes(file, line, name, resolved);
        }
        match &entry.value.value {
            Value::Null => {}
            Value::Seq(entries) => {
                for (index, item) in entries.iter().enumerate() {
                    if let Some(hook) = self.entry(file, name, index, event, item) {
                        self.out.hooks.push(hook);
                    }
                }
            }
            other => self.warn(
                WarningKind::SkippedEntry,
                file,
                line,
                format!(
                    "hooks.{name} must be a list of hook definitions; got {} (skipped)",
                    other.type_name()
                ),
            ),
        }
    }

    /// An event key that names no event: its hooks never run, here or in Hermes.
    fn unknown_event(&mut self, file: &Path, line: u64, unknown: &str, list: &Node) {
        let hooks = hooks_of_list(list);
        let message = if hooks.is_empty() {
            format!("{unknown} in hooks: (skipped)")
        } else {
            format!(
                "{unknown} in hooks:; its hooks never run, here or in Hermes: {}",
                hooks.join(", ")
            )
        };
        self.warn(WarningKind::UnknownEvent, file, line, message);
    }

    /// An event key Hermes does not fire (an alias or a legacy name): this tool runs its hooks,
    /// Hermes never does.
    fn not_for_hermes(&mut self, file: &Path, line: u64, name: &str, resolved: Resolved) {
        let event = resolved.event;
        let legacy = match resolved.legacy_for {
            Some(current) => format!(" (a legacy name for '{current}')"),
            None if resolved.claude_code => {
                format!(" (Claude Code's name for '{}')", resolved.name)
            }
            None => String::new(),
        };
        let message = match event.def().canonical {
            Some(canonical) => format!(
                "'{name}'{legacy} is not a Hermes event name: Hermes ignores these hooks, this \
                 tool runs them; write '{canonical}' so both do"
            ),
            None => format!(
                "'{name}'{legacy} is an Agent Hooks event Hermes never fires: only `run {name}` \
                 runs these hooks"
            ),
        };
        self.warn(WarningKind::NotForHermes, file, line, message);
    }

    fn entry(
        &mut self,
        file: &Path,
        key: &str,
        index: usize,
        event: Event,
        item: &Node,
    ) -> Option<HookSpec> {
        let at = format!("hooks.{key}[{index}]");
        let line = item.line;
        let Value::Map(fields) = &item.value else {
            self.warn(
                WarningKind::SkippedEntry,
                file,
                line,
                format!(
                    "{at} must be a mapping with a 'command' key; got {} (skipped)",
                    item.value.type_name()
                ),
            );
            return None;
        };
        self.repeated(file, fields, &format!("{at}."), Level::Entry);
        let command = match fields.get("command").map(|n| &n.value) {
            Some(Value::Str(command)) => self.expand(file, line, &format!("{at}.command"), command),
            _ => String::new(),
        };
        let command = command.trim();
        if command.is_empty() {
            self.warn(
                WarningKind::SkippedEntry,
                file,
                line,
                format!("{at} is missing a non-empty 'command' field (skipped)"),
            );
            return None;
        }
        let matcher = self.matcher(file, &at, event, line, fields.get("matcher"));
        let timeout = self.timeout(file, &at, line, fields.get("timeout"));
        let fail_closed = self.fail_closed(file, &at, event, line, fields);
        let name = script_word(command).map_or_else(
            || command.to_owned(),
            |word| {
                Path::new(&word)
                    .file_name()
                    .map_or(word.clone(), |name| name.to_string_lossy().into_owned())
            },
        );
        let origin = Origin {
            file: file.to_path_buf(),
            line: Some(line),
        };
        Some(HookSpec {
            matcher,
            timeout,
            fail_closed,
            ..HookSpec::new(event, Source::Config, name, command.to_owned(), origin)
        })
    }

    fn matcher(
        &mut self,
        file: &Path,
        at: &str,
        event: Event,
        line: u64,
        raw: Option<&Node>,
    ) -> Option<Matcher> {
        let pattern = match raw.map(|n| &n.value) {
            None | Some(Value::Null) => return None,
            Some(Value::Str(pattern)) => self.expand(file, line, &format!("{at}.matcher"), pattern),
            Some(_) => {
                self.warn(
                    WarningKind::IgnoredMatcher,
                    file,
                    line,
                    format!("{at}.matcher must be a string regex; ignoring it"),
                );
                return None;
            }
        };
        let pattern = pattern.trim();
        if pattern.is_empty() {
            return None;
        }
        if !event.is_tool_event() {
            self.warn(
                WarningKind::IgnoredMatcher,
                file,
                line,
                format!(
                    "{at}.matcher '{pattern}' is ignored: matchers apply only to pre_tool_call and \
                     post_tool_call; the hook runs on every {event} event"
                ),
            );
            return None;
        }
        let (matcher, invalid) = Matcher::compile(pattern);
        if let Some(reason) = invalid {
            self.warn(
                WarningKind::LiteralMatcher,
                file,
                line,
                format!(
                    "{at}.matcher '{pattern}' is not a valid regex ({reason}); matching the tool \
                     name by literal equality"
                ),
            );
        }
        Some(matcher)
    }

    fn timeout(&mut self, file: &Path, at: &str, line: u64, raw: Option<&Node>) -> Duration {
        let default = Duration::from_secs(DEFAULT_TIMEOUT_SECS);
        let Some(raw) = raw else { return default };
        let value = match &raw.value {
            Value::Str(text) => Value::Str(self.expand(file, line, &format!("{at}.timeout"), text)),
            other => other.clone(),
        };
        let Some(seconds) = value.as_python_int() else {
            self.warn(
                WarningKind::InvalidValue,
                file,
                line,
                format!(
                    "{at}.timeout must be an integer (got {value}); using {DEFAULT_TIMEOUT_SECS}s"
                ),
            );
            return default;
        };
        if seconds < 1 {
            self.warn(
                WarningKind::ClampedTimeout,
                file,
                line,
                format!("{at}.timeout must be >= 1; using {DEFAULT_TIMEOUT_SECS}s"),
            );
            return default;
        }
        if seconds > i128::from(MAX_TIMEOUT_SECS) {
            self.warn(
                WarningKind::ClampedTimeout,
                file,
                line,
                format!(
                    "{at}.timeout={seconds}s exceeds the maximum; clamped to {MAX_TIMEOUT_SECS}s"
                ),
            );
            return Duration::from_secs(MAX_TIMEOUT_SECS);
        }
        Duration::from_secs(u64::try_from(seconds).unwrap_or(DEFAULT_TIMEOUT_SECS))
    }

    fn fail_closed(
        &mut self,
        file: &Path,
        at: &str,
        event: Event,
        line: u64,
        fields: &Mapping,
    ) -> bool {
        // `fail_closed` wins over `failClosed`, as in Hermes.
        let Some(raw) = fields
            .get("fail_closed")
            .or_else(|| fields.get("failClosed"))
        else {
            return false;
        };
        let Value::Bool(wanted) = raw.value else {
            self.warn(
                WarningKind::InvalidValue,
                file,
                line,
                format!(
                    "{at}.fail_closed must be a boolean (got {}); failing open",
                    raw.value
                ),
            );
            return false;
        };
        if wanted && !event.effects(SourceKind::Config).contains(Effects::BLOCK) {
            self.warn(
                WarningKind::InvalidValue,
                file,
                line,
                format!(
                    "{at}.fail_closed is ignored: config hooks can block only on pre_tool_call, so \
                     this hook fails open on {event}"
                ),
            );
            return false;
        }
        wanted
    }

    /// Identical entries (same event, matcher and command) are one hook, as Hermes registers
    /// them once: the first one is kept.
    fn deduplicate(&mut self) {
        let mut kept: Vec<HookSpec> = Vec::with_capacity(self.out.hooks.len());
        for hook in std::mem::take(&mut self.out.hooks) {
            let first = kept.iter().find(|k| {
                k.event == hook.event
                    && k.command == hook.command
                    && k.matcher.as_ref().map(Matcher::source)
                        == hook.matcher.as_ref().map(Matcher::source)
            });
            match first {
                Some(first) => {
                    let message = format!(
                        "the same hook as {} (same event, matcher and command): Hermes registers \
                         it once, so it runs once",
                        first.origin
                    );
                    let origin = hook.origin;
                    self.out.warnings.push(Warning {
                        kind: WarningKind::DuplicateEntry,
                        origin,
                        message,
                    });
                }
                None => kept.push(hook),
            }
        }
        self.out.hooks = kept;
    }
}

/// The hooks an event's list declares, as messages name them: each entry's command (as
/// written) and line.
fn hooks_of_list(list: &Node) -> Vec<String> {
    let Value::Seq(items) = &list.value else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let Value::Map(fields) = &item.value else {
                return None;
            };
            let command = command_of(fields.get("command")?)?;
            Some(format!("{command} (line {})", item.line))
        })
        .collect()
}

/// A command as messages name it, when it is a non-empty string.
fn command_of(node: &Node) -> Option<String> {
    let Value::Str(command) = &node.value else {
        return None;
    };
    let command = command.trim();
    (!command.is_empty()).then(|| format!("`{command}`"))
}

/// The hooks a `hooks:` block declares, each named with its event key.
fn hooks_of_block(block: &Node) -> Vec<String> {
    let Value::Map(events) = &block.value else {
        return Vec::new();
    };
    events
        .entries
        .iter()
        .filter(|(key, _)| !matches!(&key.value, Value::Str(name) if RESERVED_KEYS.contains(&name.as_str())))
        .flat_map(|(key, list)| {
            let event = key.value.key_text();
            hooks_of_list(list)
                .into_iter()
                .map(move |hook| format!("{event} {hook}"))
        })
        .collect()
}

#[cfg(test)]
mod tests;
