//! Whether a call could concern a rule at all, told before any of its conditions is read: the
//! programs and subcommands the rule names (a `when` on `program` or `subcommand` that is a
//! choice of plain words) and the ones the call runs are each kept as a small mask of bits, and
//! a rule whose bits the call does not have cannot apply. An answer lists every rule, and most
//! rules are about programs a call does not run, so this is most of what a call costs each of
//! them.

use super::Rule;
use crate::shell::programs::Masks;

/// What a rule is about, when its `when` names plain words for a field of [`FIELDS`]
/// (`program: '^(rm|unlink)$'`) or reads a field a command may leave empty (`redirects`);
/// `None` for a rule that could be about any call.
pub(crate) fn of_rule(rule: &Rule) -> Option<Masks> {
    rule.programs
}

/// Whether a call that runs `call` (from [`of_reading`]) runs nothing `rule` is about. Where this
/// says yes, no command has a value the rule's `when` needs for one of the fields (or any value
/// for a field it reads), and none leaves anything unknown, so the rule does not apply: the
/// verdict its conditions would reach.
pub(crate) fn misses(rule: &Rule, call: Masks) -> bool {
    of_rule(rule).is_some_and(|wanted| {
        wanted
            .0
            .iter()
            .zip(call.0)
            .any(|(wanted, has)| *wanted != 0 && wanted & has == 0)
            // A field a `when` reads that no command has a value for: that condition holds for
            // no command.
            || wanted.1 & !call.1 != 0
    })
}
