//! A rules file's rules as one table: each rule is read into one list the file's hooks share
//! and point into, rather than each into an allocation of its own, and the hooks are made from
//! what the reading gives, its notes said as warnings and errors.

use std::path::Path;
use std::sync::Arc;

use super::recall::Patterns;
use super::{Rule, RuleFile, TOOL_CLASSES, Vars, read};
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
        of: Arc::new(RuleFile {
            file: Arc::from(absolute.as_path()),
            sha256: Arc::clone(sha256),
            scope,
            home: vars.home.map(Arc::from),
            stand_in: stand_in.cloned(),
        }),
        command: HookText::shared(&Arc::from(absolute.to_string_lossy())),
        names: Arc::from(read.names),
        file: Arc::clone(&named),
        patterns: Arc::new(patterns),
    };
    // The rules of the file in one table, which each rule's hook points into. The table takes
    // the room its reading had (a rule and its reading are the same size), so that a start
    // touches the pages of one list, not two.
    let mut kept = read.rules;
    let wanted = |kept: &read::Kept| only.is_none_or(|only| only == kept.event);
    let mut heads: Vec<Head> = Vec::with_capacity(kept.len());
    heads.extend(kept.iter_mut().filter(|kept| wanted(kept)).map(Head::take));
    let table: Vec<Rule> = kept
        .into_iter()
        .filter(wanted)
        .map(|kept| rule(kept, &shared))
        .collect();
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
struct Shared {
    /// What every rule holds of its file.
    of: Arc<RuleFile>,
    /// The file, as every rule's command.
    command: HookText,
    /// Every rule's name, each a slice of it.
    names: Arc<str>,
    /// The file as it was named, for each rule's origin.
    file: Arc<Path>,
    patterns: Arc<Patterns>,
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
    /// What `kept`'s hook holds besides its rule, taken from it.
    fn take(kept: &mut read::Kept) -> Self {
        Self {
            event: kept.event,
            name: kept.name,
            line: kept.line,
            tool: kept.tool.take(),
            fail_closed: kept.fail_closed,
        }
    }

    /// The hook of `rule`.
    fn hook(self, rule: RuleRef, shared: &Shared) -> HookSpec {
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

/// The rule of one checked reading.
fn rule(mut kept: read::Kept, shared: &Shared) -> Rule {
    kept.body.set_patterns(&shared.patterns);
    let tool_class = kept
        .tool_class
        .and_then(|class| TOOL_CLASSES.get(usize::from(class)).copied());
    Rule {
        of: Arc::clone(&shared.of),
        tool_class,
        body: kept.body,
        action: kept.action,
        priority: kept.priority,
        undecidable: kept.undecidable,
        // Read with the rule, kept in its memo: a `run` makes none of them again.
        programs: kept.programs,
        program_needed: kept.program_needed,
    }
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_rule_takes_the_room_of_its_reading() {
        // Collected in place only while this holds (see `from_reading`).
        use std::mem::{align_of, size_of};
        assert!(size_of::<super::Rule>() <= size_of::<super::read::Kept>());
        assert_eq!(align_of::<super::Rule>(), align_of::<super::read::Kept>());
    }
}
