//! The `hooks:` block of Hermes's config.yaml, read as Hermes reads it: `PyYAML`'s safe loader,
//! `${VAR}` expanded from the environment and `<home>/.env`, the managed config (`/etc/hermes`
//! or `$HERMES_MANAGED_DIR`) merged over the user's, identical entries registered once, and
//! Hermes's rules for each entry: what is skipped with a warning naming `file:line`, and what
//! takes out a whole file's hooks (YAML that does not parse, `hooks` that is not a mapping): a
//! [`LoadError`] that names it, while the other file and every other source still load. The rest
//! of config.yaml is Hermes's and is not interpreted.

use std::path::{Path, PathBuf};

#[cfg(test)]
use anyhow::{Result, anyhow};

use super::expand::Expander;
use super::memo;
use super::yaml::pyyaml::{self, Mapping, Node, Value};
use super::{Event, HookSpec, LoadError, Origin, SourceKind, Warning, WarningKind};
use block::BlockReader;

mod block;

/// A hook's timeout when none is given, in seconds.
pub(crate) const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// The largest timeout, in seconds; larger ones are clamped.
pub(crate) const MAX_TIMEOUT_SECS: u64 = 300;
/// Hermes's own sub-sections of `hooks:`, which are not events.
pub(super) const RESERVED_KEYS: [&str; 2] = ["output_spill", "outbound"];

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
            file: std::sync::Arc::from(path),
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
pub(super) struct EventEntry<'a> {
    pub(super) file: &'a Path,
    pub(super) key: &'a Node,
    pub(super) value: &'a Node,
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
pub(super) enum Level {
    /// The top level.
    Top,
    /// The `hooks:` block: event keys.
    Events,
    /// One entry of an event's list.
    Entry,
}

/// The hooks an event's list declares, as messages name them: each entry's command (as
/// written) and line.
pub(super) fn hooks_of_list(list: &Node) -> Vec<String> {
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
pub(super) fn command_of(node: &Node) -> Option<String> {
    let Value::Str(command) = &node.value else {
        return None;
    };
    let command = command.trim();
    (!command.is_empty()).then(|| format!("`{command}`"))
}

/// The hooks a `hooks:` block declares, each named with its event key.
pub(super) fn hooks_of_block(block: &Node) -> Vec<String> {
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
