//! Rules files (`<home>/hermes-hooks/rules.yaml`, `<project>/.agents/rules.yaml`): guards written
//! as patterns, evaluated without a process. Read with the limits of HOOK.md; a rule with a
//! mistake is skipped with a message naming the file and its line, and a file that cannot be read
//! takes out only its own rules.

mod read;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::{
    Effects, Event, HookSpec, LoadError, Origin, Scope, Source, SourceKind, Warning, WarningKind,
    memo,
};
use crate::matcher::{Matcher, Needed};

/// The event a rules file's approval is recorded under: the file is approved as one unit.
pub(crate) const CONSENT_EVENT: &str = "rules";
/// A rules file's name, in `<home>/hermes-hooks/` and in a project's `.agents/`.
pub(crate) const FILE_NAME: &str = "rules.yaml";
/// The most rules one file may hold.
pub(crate) const RULES_MAX: usize = 1000;
/// The longest pattern, in bytes (after `${project}` and `${home}` are put in).
pub(crate) const PATTERN_MAX: usize = 4096;
/// The keys a rule may have.
pub(crate) const KEYS: [&str; 9] = [
    "name",
    "event",
    "tool",
    "when",
    "unless",
    "action",
    "message",
    "fail_closed",
    "priority",
];

/// What a rule does when it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Blocks the call (or the event), with the rule's message.
    Block,
    /// Asks a person to approve the call.
    Ask,
    /// Adds the rule's message as context for the model.
    Context,
}

impl Action {
    /// The name a rules file uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Ask => "ask",
            Self::Context => "context",
        }
    }

    /// What the event must allow for this action.
    pub(crate) const fn needs(self) -> Effects {
        match self {
            Self::Block => Effects::BLOCK,
            Self::Ask => Effects::ASK,
            Self::Context => Effects::CONTEXT,
        }
    }
}

/// One condition: a field, by dotted path, and a pattern searched in it.
#[derive(Clone, Debug)]
pub struct Condition {
    /// The field (`command`, `path`, or a dotted path into the tool input or the payload).
    pub field: String,
    /// Its pattern: an index into its file's patterns.
    pattern: usize,
    patterns: Arc<Patterns>,
    /// What a text must hold for the pattern to be found in it, when that can be told.
    needed: Option<Needed>,
    /// The pattern, built when first needed (`None`: its text could not be had).
    matcher: OnceLock<Option<Matcher>>,
}

impl Condition {
    /// The pattern as written (with `${project}` and `${home}` put in); `None` when it can no
    /// longer be had (its memo went, and the file changed since).
    pub fn pattern(&self) -> Option<&str> {
        self.patterns.get(self.pattern)
    }

    /// [`Self::pattern`] to be shown to a person.
    pub fn shown_pattern(&self) -> &str {
        self.pattern()
            .unwrap_or("(its pattern can no longer be read: the file changed)")
    }

    /// The pattern, built to be searched anywhere in a text.
    pub fn matcher(&self) -> Option<&Matcher> {
        self.matcher
            .get_or_init(|| Some(Matcher::compile_search(self.pattern()?).0))
            .as_ref()
    }

    /// Whether the pattern is found in `text`, or `None` when that cannot be told (see
    /// [`Matcher::decides`]). A text without what the pattern needs is told at once.
    pub fn decides(&self, text: &str) -> Option<bool> {
        if self
            .needed
            .as_ref()
            .is_some_and(|needed| !needed.may_match(text))
        {
            return Some(false);
        }
        self.matcher()?.decides(text)
    }
}

/// The patterns of one rules file: in hand when the file was just read, else read from their
/// memo when a call could first match one; should that memo be gone, the file is read again,
/// and its patterns are used only if its bytes are still the ones its rules came from.
pub(crate) struct Patterns {
    list: OnceLock<Option<Vec<String>>>,
    later: Option<Later>,
}

/// Where [`Patterns`] come from when they are not in hand.
struct Later {
    file: PathBuf,
    sha256: String,
    project: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Patterns")
    }
}

impl Patterns {
    fn given(list: Vec<String>) -> Self {
        Self {
            list: OnceLock::from(Some(list)),
            later: None,
        }
    }

    fn get(&self, index: usize) -> Option<&str> {
        let list = self.list.get_or_init(|| {
            let later = self.later.as_ref()?;
            let vars = Vars {
                project: later.project.as_deref(),
                home: later.home.as_deref(),
            };
            let slot = memo_slot(PATTERNS_FORMAT, &later.sha256, vars);
            if let Some(list) = slot.as_ref().and_then(memo::Slot::recall_body) {
                return Some(list);
            }
            let bytes = crate::limits::read(&later.file, crate::limits::MANIFEST_MAX).ok()?;
            let same = crate::consent::fingerprint::hex(&Sha256::digest(&bytes)) == later.sha256;
            same.then(|| read::read(&bytes, vars).patterns)
        });
        list.as_ref()?.get(index).map(String::as_str)
    }
}

/// What a rules file declares for one rule beyond the common fields.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rules file, absolute and normalised: what the approval names and pins.
    pub file: PathBuf,
    /// The sha256 of the file's bytes as they were read: the rules evaluated are exactly the
    /// ones this pin covers.
    pub sha256: String,
    /// The level of the file.
    pub scope: Scope,
    /// The tool class the rule is for (`tool: shell`), when it names a class.
    pub tool_class: Option<&'static str>,
    /// Every one must match for the rule to apply.
    pub when: Vec<Condition>,
    /// When every one matches (and there is one), the rule does not apply.
    pub unless: Vec<Condition>,
    /// What it does.
    pub action: Action,
    /// What the model (or the person, for `ask`) reads.
    pub message: String,
    /// Higher comes first within its file.
    pub priority: u16,
}

/// What `${project}` and `${home}` stand for in a pattern.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Vars<'a> {
    /// The project folder, absolute.
    pub project: Option<&'a Path>,
    /// The user's home folder.
    pub home: Option<&'a Path>,
}

/// The actions a rule may take on `event`, by name.
pub(crate) fn actions_on(event: Event) -> Vec<&'static str> {
    [Action::Block, Action::Ask, Action::Context]
        .into_iter()
        .filter(|action| event.effects(SourceKind::Rules).contains(action.needs()))
        .map(Action::as_str)
        .collect()
}

/// A rule for `event` to start from, as a rules file writes it (`None` where a rule can do
/// nothing).
pub(crate) fn example(event: Event) -> Option<String> {
    let actions = actions_on(event);
    let name = event.name();
    if event.is_tool_event() && actions.contains(&"block") {
        return Some(format!(
            "rules:\n- name: no-force-push\n  event: {name}\n  tool: shell\n  when:\n    \
             command: '\\bgit\\s+push\\b.*\\s(-f|--force)\\b'\n  action: block\n  message: \
             Force pushes are not allowed here.\n"
        ));
    }
    if actions.contains(&"context") {
        return Some(format!(
            "rules:\n- name: house-style\n  event: {name}\n  action: context\n  message: \
             Answer in British English.\n"
        ));
    }
    actions.contains(&"block").then(|| {
        format!(
            "rules:\n- name: not-in-ci\n  event: {name}\n  when:\n    session_id: '^ci-'\n  \
             action: block\n  message: Not in CI sessions.\n"
        )
    })
}

/// The `tool:` of a rule as written: its class, or its tool name pattern.
pub(crate) fn tool_shown(hook: &HookSpec) -> Option<&str> {
    let rule = hook.rule()?;
    rule.tool_class
        .or_else(|| hook.matcher.as_ref().map(Matcher::source))
}

/// Whether `file` is a rules file (by its name): its warnings are the `rules` source's.
pub(crate) fn is_rules_file(file: &Path) -> bool {
    file.file_name().is_some_and(|name| name == FILE_NAME)
}

/// The rules of one file for `only` (every event's with `None`), in the order they are
/// evaluated: higher priority first, then file order. A file that does not exist holds none.
///
/// Reading a file whole (its YAML, every pattern built once) costs milliseconds; what it gives is
/// kept as a memo named by the file's bytes, this binary and the folders `${project}` and
/// `${home}` stand for, so a `run` of the same file reads that instead. Each pattern is then built
/// only when a call could match it (see [`Condition::decides`]).
pub(crate) fn load_file(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    vars: Vars<'_>,
    warnings: &mut Vec<Warning>,
    errors: &mut Vec<LoadError>,
) -> Vec<HookSpec> {
    let origin = |line: Option<u64>| Origin {
        file: file.to_path_buf(),
        line,
    };
    let unreadable = |err: std::io::Error, errors: &mut Vec<LoadError>| {
        if err.kind() != std::io::ErrorKind::NotFound {
            errors.push(LoadError {
                source: SourceKind::Rules,
                origin: origin(None),
                column: None,
                message: format!("cannot read it: {err}; none of its rules are used"),
            });
        }
    };
    // The bytes are hashed in pieces first: when the memo of that hash is there (nearly every
    // time), the file is never held whole, which saves a start the page faults of a buffer as
    // large as the file.
    let sha256 = match sha256_of(file) {
        Ok(sha256) => sha256,
        Err(err) => {
            unreadable(err, errors);
            return Vec::new();
        }
    };
    let Some((read, sha256, patterns)) = recall_or_read(file, sha256, vars, errors) else {
        return Vec::new();
    };
    let patterns = Arc::new(patterns);
    if let Some((line, column, message)) = read.unusable {
        errors.push(LoadError {
            source: SourceKind::Rules,
            origin: origin(line),
            column,
            message: format!("{message}; none of its rules are used"),
        });
        return Vec::new();
    }
    for (line, message) in read.notes {
        warnings.push(Warning {
            kind: WarningKind::InvalidValue,
            origin: origin(Some(line)),
            message,
        });
    }
    for (line, message) in read.no_folder {
        warnings.push(Warning {
            kind: WarningKind::NoFolder,
            origin: origin(Some(line)),
            message,
        });
    }
    for (line, message) in read.skipped {
        warnings.push(Warning {
            kind: WarningKind::SkippedEntry,
            origin: origin(Some(line)),
            message: message.clone(),
        });
        // A rule that could not be read may have been a guard of any event.
        errors.push(LoadError {
            source: SourceKind::Rules,
            origin: origin(Some(line)),
            column: None,
            message,
        });
    }
    let absolute = std::path::absolute(file).map_or_else(
        |_| crate::paths::normalized(file),
        |path| crate::paths::normalized(&path),
    );
    let mut rules: Vec<HookSpec> = read
        .rules
        .into_iter()
        .filter_map(|kept| {
            let event = Event::parse(&kept.event).ok()?.event;
            if only.is_some_and(|only| only != event) {
                return None;
            }
            Some(build(
                kept, event, &absolute, &sha256, scope, file, &patterns,
            ))
        })
        .collect();
    // Stable: equal priorities keep their file order.
    rules.sort_by_key(|hook| std::cmp::Reverse(hook.rule().map_or(0, |rule| rule.priority)));
    rules
}

/// The file's reading: from its memo when there is one for `sha256` (the patterns to be read
/// later), else read whole now and kept as a memo, with the hash of the bytes read. `None`
/// (with the error said) when the file cannot be read.
fn recall_or_read(
    file: &Path,
    sha256: String,
    vars: Vars<'_>,
    errors: &mut Vec<LoadError>,
) -> Option<(read::Read, String, Patterns)> {
    let recalled = memo_slot(MEMO_FORMAT, &sha256, vars)
        .as_ref()
        .and_then(memo::Slot::recall_body::<read::Read>);
    Some(if let Some(read) = recalled {
        let later = Later {
            file: file.to_path_buf(),
            sha256: sha256.clone(),
            project: vars.project.map(Path::to_path_buf),
            home: vars.home.map(Path::to_path_buf),
        };
        let patterns = Patterns {
            list: OnceLock::new(),
            later: Some(later),
        };
        (read, sha256, patterns)
    } else {
        // Read whole to be parsed, and pinned by the bytes parsed (the file may have changed
        // since it was hashed).
        let bytes = match crate::limits::read(file, crate::limits::MANIFEST_MAX) {
            Ok(bytes) => bytes,
            Err(err) => {
                if err.kind() != std::io::ErrorKind::NotFound {
                    errors.push(LoadError {
                        source: SourceKind::Rules,
                        origin: Origin {
                            file: file.to_path_buf(),
                            line: None,
                        },
                        column: None,
                        message: format!("cannot read it: {err}; none of its rules are used"),
                    });
                }
                return None;
            }
        };
        let sha256 = crate::consent::fingerprint::hex(&Sha256::digest(&bytes));
        let mut read = read::read(&bytes, vars);
        if let (Some(rules), Some(patterns)) = (
            memo_slot(MEMO_FORMAT, &sha256, vars),
            memo_slot(PATTERNS_FORMAT, &sha256, vars),
        ) {
            // The patterns first: a memo of rules is believed only with its patterns there.
            if patterns.keep_body(&read.patterns) {
                rules.keep_body(&read);
            }
        }
        let patterns = Patterns::given(std::mem::take(&mut read.patterns));
        (read, sha256, patterns)
    })
}

/// Changes whenever what a rules memo holds changes.
const MEMO_FORMAT: &[u8] = b"hermes-hooks rules memo 3\0";
/// The same for the memo of a rules file's patterns.
const PATTERNS_FORMAT: &[u8] = b"hermes-hooks rules patterns 1\0";

/// Where the memo of a rules file with this sha256 lives, read with these folders for
/// `${project}` and `${home}`.
fn memo_slot(kind: &[u8], sha256: &str, vars: Vars<'_>) -> Option<memo::Slot> {
    let folder = |dir: Option<&Path>| dir.map(|d| d.as_os_str().as_encoded_bytes().to_vec());
    let (project, home) = (folder(vars.project), folder(vars.home));
    memo::Slot::keyed(
        kind,
        &[
            sha256.as_bytes(),
            project.as_deref().unwrap_or(b"\0"),
            home.as_deref().unwrap_or(b"\0"),
        ],
    )
}

/// The sha256 of `file`'s bytes, read in pieces with the checks and the cap of
/// [`crate::limits::read`].
fn sha256_of(file: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let max = crate::limits::MANIFEST_MAX;
    let mut reader = crate::limits::open_regular(file)?.take(max + 1);
    let mut hasher = Sha256::new();
    // On the stack: a heap buffer would cost the page faults this read is here to save.
    let mut piece = [0_u8; 8 * 1024];
    let mut total: u64 = 0;
    loop {
        match reader.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                hasher.update(&piece[..n]);
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    if total > max {
        return Err(crate::limits::too_large(max));
    }
    Ok(crate::consent::fingerprint::hex(&hasher.finalize()))
}

/// The hook of one checked rule.
fn build(
    kept: read::Kept,
    event: Event,
    absolute: &Path,
    sha256: &str,
    scope: Scope,
    file: &Path,
    patterns: &Arc<Patterns>,
) -> HookSpec {
    let conditions = |list: Vec<read::KeptCondition>| {
        list.into_iter()
            .map(|c| Condition {
                field: c.field,
                pattern: c.pattern,
                patterns: Arc::clone(patterns),
                needed: c.needed,
                matcher: OnceLock::new(),
            })
            .collect()
    };
    let tool_class = kept
        .tool_class
        .and_then(|class| TOOL_CLASSES.iter().copied().find(|c| *c == class));
    let rule = Rule {
        file: absolute.to_path_buf(),
        sha256: sha256.to_owned(),
        scope,
        tool_class,
        when: conditions(kept.when),
        unless: conditions(kept.unless),
        action: kept.action,
        message: kept.message,
        priority: kept.priority,
    };
    let origin = Origin {
        file: file.to_path_buf(),
        line: Some(kept.line),
    };
    HookSpec {
        matcher: kept.tool.map(|tool| Matcher::compile(&tool).0),
        // Nothing runs: there is nothing to wait for.
        timeout: std::time::Duration::ZERO,
        fail_closed: kept.fail_closed,
        ..HookSpec::new(
            event,
            Source::Rules(Box::new(rule)),
            kept.name,
            absolute.to_string_lossy().into_owned(),
            origin,
        )
    }
}

/// `text` escaped for a Python `re` pattern (every ASCII punctuation character but `/`, which
/// paths are full of and neither engine needs escaped).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii_punctuation() && c != '/' && c != '_' || c.is_ascii_whitespace() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The tool classes a `tool:` may name (the agents' classes, by name).
pub(crate) const TOOL_CLASSES: [&str; 6] = ["shell", "edit", "write", "read", "search", "web"];

#[cfg(test)]
mod tests {
    use super::{Event, Scope, Vars, actions_on, example, load_file};

    #[test]
    fn the_example_rule_events_shows_loads_as_written_for_every_event() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rules.yaml");
        for event in Event::all() {
            let Some(text) = example(event) else {
                assert!(!actions_on(event).contains(&"block"), "{event}");
                continue;
            };
            std::fs::write(&file, text).unwrap();
            let (mut warnings, mut errors) = (Vec::new(), Vec::new());
            let vars = Vars::default();
            let rules = load_file(&file, Scope::User, None, vars, &mut warnings, &mut errors);
            assert!(
                warnings.is_empty() && errors.is_empty(),
                "{event}: {warnings:?} {errors:?}"
            );
            assert_eq!(rules.len(), 1, "{event}");
            assert_eq!(rules[0].event, event);
        }
    }
}
