//! A rules file's rules as one table: each rule is read into one list the file's hooks share
//! and point into, rather than each into an allocation of its own, and the hooks are made from
//! what the reading gives, its notes said as warnings and errors.

use std::path::Path;
use std::sync::Arc;

use super::recall::Patterns;
use super::{Rule, TOOL_CLASSES, Vars, read};
use crate::config::{
    Event, HookSpec, HookText, LoadError, Origin, Scope, Source, SourceKind, Warning, WarningKind,
};
use crate::matcher::Matcher;

/// The hooks of one reading of `file`, its notes said as warnings and errors; each rule stands
/// in for the file as `stand_in` says, when it is given.
pub(super) fn from_reading(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    vars: Vars<'_>,
    (read, sha256, patterns, stand_in): (
        read::Read,
        &Arc<str>,
        Patterns,
        Option<&crate::config::StandIn>,
    ),
    warnings: &mut Vec<Warning>,
    errors: &mut Vec<LoadError>,
) -> Vec<HookSpec> {
    let named: Arc<Path> = Arc::from(file);
    let origin = |line: Option<u64>| Origin {
        file: Arc::clone(&named),
        line,
    };
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
        |_| crate::ground::paths::normalized(file),
        |path| crate::ground::paths::normalized(&path),
    );
    // What every rule of the file shares, made once.
    let shared = Shared {
        absolute: Arc::from(absolute.as_path()),
        command: HookText::shared(&Arc::from(absolute.to_string_lossy())),
        names: Arc::from(read.names),
        sha256: Arc::clone(sha256),
        scope,
        file: Arc::clone(&named),
        patterns: Arc::new(patterns),
        home: vars.home.map(Arc::from),
        stand_in,
    };
    // The rules of the file in one table, which each rule's hook points into.
    let count = read.rules.len();
    let (mut table, mut heads) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for kept in read
        .rules
        .into_iter()
        .filter(|kept| only.is_none_or(|only| only == kept.event))
    {
        let (rule, head) = split(kept, &shared);
        table.push(rule);
        heads.push(head);
    }
    let table = Arc::new(table);
    let mut rules: Vec<HookSpec> = heads
        .into_iter()
        .enumerate()
        .map(|(at, head)| head.hook(RuleRef::at(&table, at), &shared))
        .collect();
    // Stable: equal priorities keep their file order. Most files give none, and are in order.
    let first = |hook: &HookSpec| std::cmp::Reverse(hook.rule().map_or(0, |rule| rule.priority));
    if !rules.is_sorted_by_key(first) {
        rules.sort_by_key(first);
    }
    rules
}

/// What the rules of one file have in common.
struct Shared<'a> {
    absolute: Arc<Path>,
    /// The file, as every rule's command.
    command: HookText,
    /// Every rule's name, each a slice of it.
    names: Arc<str>,
    sha256: Arc<str>,
    scope: Scope,
    /// The file as it was named, for each rule's origin.
    file: Arc<Path>,
    patterns: Arc<Patterns>,
    home: Option<Arc<Path>>,
    stand_in: Option<&'a crate::config::StandIn>,
}

/// What a rule's hook holds besides the rule.
struct Head {
    event: Event,
    name: (u32, u32),
    line: u64,
    tool: Option<String>,
    fail_closed: bool,
}

impl Head {
    /// The hook of `rule`.
    fn hook(self, rule: RuleRef, shared: &Shared<'_>) -> HookSpec {
        let origin = Origin {
            file: Arc::clone(&shared.file),
            line: Some(self.line),
        };
        let (start, end) = (self.name.0 as usize, self.name.1 as usize);
        HookSpec {
            matcher: self.tool.map(|tool| Box::new(Matcher::compile(&tool).0)),
            // Nothing runs: there is nothing to wait for.
            timeout: std::time::Duration::ZERO,
            fail_closed: self.fail_closed,
            ..HookSpec::new(
                self.event,
                Source::Rules(rule),
                HookText::slice(&shared.names, start..end),
                shared.command.clone(),
                origin,
            )
        }
    }
}

/// One checked rule, and what its hook holds besides.
fn split(mut kept: read::Kept, shared: &Shared<'_>) -> (Rule, Head) {
    kept.body.set_patterns(&shared.patterns);
    let tool_class = kept
        .tool_class
        .and_then(|class| TOOL_CLASSES.get(usize::from(class)).copied());
    let rule = Rule {
        file: Arc::clone(&shared.absolute),
        sha256: Arc::clone(&shared.sha256),
        scope: shared.scope,
        tool_class,
        body: kept.body,
        action: kept.action,
        priority: kept.priority,
        undecidable: kept.undecidable,
        home: shared.home.clone(),
        stand_in: shared.stand_in.map(|stand_in| Box::new(stand_in.clone())),
        // Read with the rule, kept in its memo: a `run` makes none of them again.
        programs: kept.programs,
        program_needed: kept.program_needed,
    };
    let head = Head {
        event: kept.event,
        name: kept.name,
        line: kept.line,
        tool: kept.tool,
        fail_closed: kept.fail_closed,
    };
    (rule, head)
}

/// A rule in its file's table: the rules of a file are read into one list, which their hooks
/// share, rather than each into an allocation of its own.
#[derive(Clone)]
pub struct RuleRef {
    table: Arc<Vec<Rule>>,
    at: usize,
}

impl RuleRef {
    /// The rule at `at` in `table`.
    fn at(table: &Arc<Vec<Rule>>, at: usize) -> Self {
        Self {
            table: Arc::clone(table),
            at,
        }
    }

    /// A rule of its own.
    pub(crate) fn one(rule: Rule) -> Self {
        Self {
            table: Arc::new(vec![rule]),
            at: 0,
        }
    }
}

impl std::ops::Deref for RuleRef {
    type Target = Rule;

    fn deref(&self) -> &Rule {
        &self.table[self.at]
    }
}

impl std::fmt::Debug for RuleRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}
