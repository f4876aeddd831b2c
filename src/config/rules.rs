//! Rules files (`<home>/hermes-hooks/rules.yaml`, `<project>/.agents/rules.yaml`): guards written
//! as patterns, evaluated without a process. Read with the limits of HOOK.md; a rule with a
//! mistake is skipped with a message naming the file and its line, and a file that cannot be read
//! takes out only its own rules.

mod body;
mod read;
mod recall;
mod table;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::{Effects, Event, HookSpec, LoadError, Scope, SourceKind, Warning};
use crate::matcher::{Matcher, Packed};
pub(crate) use body::Body;
use recall::Patterns;
pub(crate) use table::RuleRef;

/// The event a rules file's approval is recorded under: the file is approved as one unit.
pub(crate) const CONSENT_EVENT: &str = "rules";
/// A rules file's name, in `<home>/hermes-hooks/` and in a project's `.agents/`.
pub(crate) const FILE_NAME: &str = crate::ground::paths::RULES_FILE;
/// The most rules one file may hold.
pub(crate) const RULES_MAX: usize = 1000;
/// The longest pattern, in bytes (after `${project}` and `${home}` are put in).
pub(crate) const PATTERN_MAX: usize = 4096;
/// The keys a rule may have.
pub(crate) const KEYS: [&str; 10] = [
    "name",
    "event",
    "tool",
    "when",
    "unless",
    "action",
    "message",
    "fail_closed",
    "priority",
    "undecidable",
];
/// The fields of one command of a shell call, as the shell would run it (see [`crate::shell`]): a
/// condition naming one is checked against each command, and a rule naming any matches when one
/// command satisfies all of them.
pub(crate) const COMMAND_FIELDS: [&str; 11] = [
    "program",
    "args",
    "flags",
    "subcommand",
    "paths",
    "target",
    "redirects",
    "input",
    "expansions",
    "line",
    "through",
];

/// Set in a process that answers many calls (`serve`): a condition's automaton, once read, is
/// kept for every later call, so searching with it beats checking first for what the pattern
/// needs (dozens of texts for the packs' longest patterns). A process that answers one call
/// checks first, and reads an automaton only for a call that could match.
static MANY_CALLS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that this process answers many calls (see [`MANY_CALLS`]).
pub(crate) fn answering_many_calls() {
    MANY_CALLS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this process answers many calls (`serve`): what is made once per rule then pays.
pub(crate) fn many_calls() -> bool {
    MANY_CALLS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether `field` is one of [`COMMAND_FIELDS`].
pub(crate) fn is_command_field(field: &str) -> bool {
    COMMAND_FIELDS.contains(&field)
}

/// What a rule does with a call whose commands cannot be known before they run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Undecidable {
    /// Blocks the call, saying why it could not be read.
    Block,
    /// Asks a person.
    Ask,
    /// Lets it through (the default for a rule a person wrote).
    #[default]
    Allow,
}

impl Undecidable {
    /// The name a rules file uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Ask => "ask",
            Self::Allow => "allow",
        }
    }
}

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

/// One condition: a field, by dotted path, and a pattern searched in it. What a memo keeps of
/// it is read back as it is used, so a rule's conditions are not made twice.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Condition {
    /// The field (`command`, `path`, or a dotted path into the tool input or the payload).
    #[serde(with = "read::name")]
    pub field: std::borrow::Cow<'static, str>,
    /// Its pattern: an index into its file's patterns.
    pattern: usize,
    /// Its file's patterns (set once the rule is built).
    #[serde(skip)]
    patterns: Option<Arc<Patterns>>,
    /// What a text must hold for the pattern to be found in it, when that can be told.
    needed: Option<Packed>,
    /// For a pattern that is an anchored choice of plain words (`^(rm|unlink)$`), the words,
    /// joined by `|`: compared as text, without the pattern.
    words: Option<String>,
    /// The words are compared without regard to case (`(?i)^(del|erase)$`, the words in
    /// lowercase): a text of ASCII characters is compared as text, any other goes to the pattern.
    fold: bool,
    /// For a pattern that is plain text (`/`), the text: found by looking for it, without the
    /// pattern (which is read from its memo only when a call needs it).
    literal: Option<String>,
    /// The pattern, built when first needed (`None`: its text could not be had).
    #[serde(skip)]
    matcher: OnceLock<Option<Matcher>>,
    /// The pattern built ahead, read when first needed (`None`: there is none).
    /// Boxed: a condition is small until its automaton is read.
    #[serde(skip)]
    automaton: OnceLock<Option<Box<crate::matcher::Automaton>>>,
}

impl Condition {
    /// The pattern as written (with `${project}` and `${home}` put in); `None` when it can no
    /// longer be had (its memo went, and the file changed since).
    pub fn pattern(&self) -> Option<&str> {
        self.patterns.as_ref()?.get(self.pattern)
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

    /// For a pattern that is an anchored choice of plain words (`^(rm|unlink)$`), the words,
    /// joined by `|`.
    pub(crate) fn words(&self) -> Option<&str> {
        self.words.as_deref().filter(|_| !self.fold)
    }

    /// Whether the pattern is found in `text`, or `None` when that cannot be told (see
    /// [`Matcher::decides`]). A text without what the pattern needs is told at once.
    pub fn decides(&self, text: &str) -> Option<bool> {
        if let Some(words) = &self.words {
            if !self.fold {
                return Some(crate::matcher::is_in_list(words, text, true));
            }
            if text.is_ascii() {
                let lower = text.to_ascii_lowercase();
                return Some(crate::matcher::is_in_list(words, &lower, true));
            }
        }
        if let Some(literal) = &self.literal {
            return Some(text.contains(literal.as_str()));
        }
        let automaton = || {
            self.automaton
                .get_or_init(|| {
                    let bytes = self.patterns.as_ref()?.automaton(self.pattern)?;
                    crate::matcher::Automaton::read(&bytes).map(Box::new)
                })
                .as_ref()
        };
        // Built ahead, where it could be: no pattern to build in this process.
        if MANY_CALLS.load(std::sync::atomic::Ordering::Relaxed)
            && let Some(found) = automaton().and_then(|automaton| automaton.decides(text))
        {
            return Some(found);
        }
        if self
            .needed
            .as_ref()
            .is_some_and(|needed| !needed.may_match(text))
        {
            return Some(false);
        }
        if let Some(found) = automaton().and_then(|automaton| automaton.decides(text)) {
            return Some(found);
        }
        self.matcher()?.decides(text)
    }
}

/// What every rule of one rules file shares.
#[derive(Clone, Debug)]
pub struct RuleFile {
    /// The rules file, absolute and normalised: what the approval names and pins.
    pub file: Arc<Path>,
    /// The sha256 of the file's bytes as they were read: the rules evaluated are exactly the
    /// ones this pin covers.
    pub sha256: Arc<str>,
    /// The level of the file.
    pub scope: Scope,
    /// The home folder `${home}` stands for: the one a command's `~` and `$HOME` are read as.
    pub home: Option<Arc<Path>>,
    /// Set when the rules are the approved copy's, standing in for a file that vanished or
    /// changed.
    pub stand_in: Option<super::StandIn>,
}

/// What a rules file declares for one rule beyond the common fields.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Its file, shared with the file's other rules.
    pub of: Arc<RuleFile>,
    /// The tool class the rule is for (`tool: shell`), when it names a class.
    pub tool_class: Option<&'static str>,
    /// `when` (every one must match for the rule to apply), `unless` (when every one matches,
    /// and there is one, the rule does not apply) and the message.
    pub body: Body,
    /// What it does.
    pub action: Action,
    /// Higher comes first within its file.
    pub priority: u16,
    /// What it does with a call whose commands cannot be known (only for a rule that names a
    /// command field).
    pub undecidable: Undecidable,
    /// The programs and subcommands it is about, and the fields a command may leave empty that
    /// its `when` reads, as bits, made when the rule is read (see
    /// [`crate::engine::rules::programs`]).
    pub(crate) programs: Option<crate::shell::programs::Masks>,
    /// What a command's program must hold for the rule's `when` on `program` to match it, where
    /// that is a pattern rather than plain words (which `programs` has as bits): read with the
    /// rule, so a call whose programs hold none of it passes the rule by unread.
    pub(crate) program_needed: Option<Packed>,
}

/// What a rule with these `when` conditions is about, as bits (see
/// [`crate::engine::rules::programs`]): the plain words each field of
/// [`crate::shell::programs::FIELDS`] names, and which fields of
/// [`crate::shell::programs::SPARSE`] a condition reads; `None` for a rule that could be about
/// any call.
pub(crate) fn masks_of(when: &[Condition]) -> Option<crate::shell::programs::Masks> {
    use crate::shell::programs::{FIELDS, Masks, bits, sparse_bit};
    let mut masks = Masks::default();
    for (at, field) in FIELDS.iter().enumerate() {
        let words = when.iter().find(|c| c.field == *field);
        if let Some(words) = words.and_then(Condition::words) {
            masks.0[at] = words
                .split('|')
                .fold(0, |mask, w| mask | bits(w.as_bytes()));
        }
    }
    masks.1 = when.iter().fold(0, |bits, c| bits | sparse_bit(&c.field));
    (masks != Masks::default()).then_some(masks)
}

impl Rule {
    /// Every one must match for the rule to apply.
    pub fn when(&self) -> &[Condition] {
        self.body.when()
    }

    /// When every one matches (and there is one), the rule does not apply.
    pub fn unless(&self) -> &[Condition] {
        self.body.unless()
    }

    /// What the model (or the person, for `ask`) reads.
    pub fn message(&self) -> &str {
        self.body.message()
    }

    /// Whether a condition names a field of the commands a shell call runs.
    pub fn reads_commands(&self) -> bool {
        self.when()
            .iter()
            .chain(self.unless())
            .any(|c| is_command_field(&c.field))
    }
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
        .or_else(|| hook.matcher.as_deref().map(Matcher::source))
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
    load_file_noting(file, scope, only, vars, warnings, errors).0
}

/// [`load_file`], with the sha256 of the bytes read (`None` when the file could not be read).
pub(crate) fn load_file_noting(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    vars: Vars<'_>,
    warnings: &mut Vec<Warning>,
    errors: &mut Vec<LoadError>,
) -> (Vec<HookSpec>, Option<Arc<str>>) {
    let Some((read, sha256, patterns)) = recall::reading(file, vars, errors) else {
        return (Vec::new(), None);
    };
    let sha256: Arc<str> = Arc::from(sha256);
    let hooks = table::from_reading(
        file,
        scope,
        only,
        vars,
        (read, &sha256, patterns, None),
        warnings,
        errors,
    );
    (hooks, Some(sha256))
}

/// Checks the memos kept for `file` against it (see [`recall::check_memos`]).
pub(crate) fn check_memos(file: &Path, vars: Vars<'_>) -> Vec<super::Mended> {
    recall::check_memos(file, vars)
}

/// The rules of the copy of `file` approved with `sha256` (its bytes, `approved`), each standing
/// in for the file as `stand_in` says: what was approved decides, never the file as it is now.
pub(crate) fn load_approved(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    vars: Vars<'_>,
    (approved, sha256): (&[u8], &str),
    stand_in: &super::StandIn,
) -> Vec<HookSpec> {
    let mut read = read::read(approved, vars);
    let patterns = Patterns::given(std::mem::take(&mut read.patterns), None);
    let sha256: Arc<str> = Arc::from(sha256);
    let (mut warnings, mut errors) = (Vec::new(), Vec::new());
    table::from_reading(
        file,
        scope,
        only,
        vars,
        (read, &sha256, patterns, Some(stand_in)),
        &mut warnings,
        &mut errors,
    )
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

    #[test]
    fn words_that_ignore_case_are_compared_as_the_pattern_would() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rules.yaml");
        // The same pattern twice: as words, and (behind an empty group) as a pattern.
        let text = "rules:\n\
            - {name: words, event: pre_tool_call, when: {program: '(?i)^(remove-item|rm|ks)$'}}\n\
            - {name: regex, event: pre_tool_call, when: {program: '(?i)(?:)^(remove-item|rm|ks)$'}}\n";
        std::fs::write(&file, text).unwrap();
        let (mut warnings, mut errors) = (Vec::new(), Vec::new());
        let rules = load_file(
            &file,
            Scope::User,
            None,
            Vars::default(),
            &mut warnings,
            &mut errors,
        );
        assert!(warnings.is_empty() && errors.is_empty(), "{errors:?}");
        let [words, regex] = [&rules[0], &rules[1]].map(|hook| &hook.rule().unwrap().when()[0]);
        assert!(words.fold && words.words.is_some() && words.words().is_none());
        assert!(regex.words.is_none());
        for text in [
            "rm",
            "RM",
            "Rm\n",
            "Remove-Item",
            "REMOVE-ITEM",
            "remove-items",
            "xrm",
            "KS",
            "\u{212a}s",
            "\u{17f}",
            "",
        ] {
            assert_eq!(words.decides(text), regex.decides(text), "{text:?}");
        }
        assert_eq!(words.decides("Remove-Item"), Some(true));
        assert_eq!(words.decides("\u{212a}S"), Some(true));
    }
}
