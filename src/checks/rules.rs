//! What `doctor` checks of rules: each rules file's consent (once per file), and each rule's
//! patterns: one that can never match, a field no call it sees has, a rule an earlier one
//! shadows, and a pattern that backtracks too much on a long command (counted in steps).

use std::borrow::Cow;

use super::{Checkup, Finding, Level, consent_finding};
use crate::agents::Agent;
use crate::config::rules::{COMMAND_FIELDS, Condition, Rule, Undecidable, is_command_field};
use crate::config::{HookSet, HookSpec};
use crate::consent::store::Allowlist;
use crate::consent::{assess, changes_since_approval};
use crate::engine::tool_classes::ToolClass;
use crate::matcher::Matcher;

/// Tool input keys the agents send, across their tools (a rule's field outside these and the
/// payload's own is likely a typo).
const TOOL_INPUT_KEYS: &[&str] = &[
    "command",
    "cmd",
    "description",
    "timeout",
    "workdir",
    "file_path",
    "path",
    "absolute_path",
    "dir_path",
    "notebook_path",
    "filePath",
    "target_file",
    "content",
    "old_string",
    "new_string",
    "replace_all",
    "edits",
    "new_source",
    "cell_id",
    "edit_mode",
    "pattern",
    "glob",
    "include",
    "query",
    "url",
    "prompt",
    "input",
    "patch",
    "args",
    "limit",
    "offset",
    "todos",
    "subagent_type",
    "server_name",
    "tool_name",
    "arguments",
];

/// The payload's own keys, on every event.
const PAYLOAD_KEYS: &[&str] = &[
    "hook_event_name",
    "tool_name",
    "tool_input",
    "args",
    "session_id",
    "parent_session_id",
    "cwd",
    "profile",
    "extra",
];

/// The length of each probe text, in bytes (all ASCII).
const PROBE_LEN: usize = 16 * 1024;

/// The backtracking steps a pattern may take on a probe, per character of it. The packs'
/// patterns take one or two (a step at each place a match could start; 2.2 at most); nested
/// repetition takes thousands. A count, not a time: the same on any machine, however loaded.
/// Below the engine's own limit on a probe, so a pattern that gives up is past it too.
const STEPS_PER_CHAR: usize = 4;
const _: () = assert!(STEPS_PER_CHAR * PROBE_LEN < crate::matcher::BACKTRACK_LIMIT);

/// The most characters of a pattern a message shows.
const SHOWN_MAX: usize = 80;

/// Every rules file once, and every rule.
pub(super) fn check(checkup: &Checkup<'_>, list: &Allowlist, findings: &mut Vec<Finding>) {
    let set = checkup.set;
    let mut files: Vec<&str> = Vec::new();
    for hook in set.hooks.iter().filter(|hook| hook.rule().is_some()) {
        if !files.contains(&hook.command.as_str()) {
            files.push(&hook.command);
            file_consent(checkup, list, hook, findings);
        }
    }
    let shipped = std::cell::OnceCell::new();
    for (index, hook) in set.hooks.iter().enumerate() {
        let Some(rule) = hook.rule() else { continue };
        let mut say = |level, check, message: String| {
            findings.push(finding(hook, level, check, message));
        };
        for (word, condition) in conditions(rule) {
            if condition.matcher().and_then(Matcher::can_match) == Some(false) {
                say(
                    Level::Error,
                    "rule",
                    format!(
                        "{word} {}: the pattern `{}` can never match, so {}",
                        condition.field,
                        shortened(condition.shown_pattern()),
                        consequence(word)
                    ),
                );
            }
            if let Some(why) = field_problem(hook, rule, word, &condition.field) {
                let level = if why.1 { Level::Error } else { Level::Warning };
                say(
                    level,
                    "rule",
                    format!("{word} {}: {}", condition.field, why.0),
                );
            }
            // A pattern built ahead as an automaton runs on it for every ASCII command, in one
            // step a byte, whatever the backtracking engine would take.
            if let Some(message) = condition
                .matcher()
                .and_then(|matcher| slowness(matcher, condition.shown_pattern()))
                .filter(|_| {
                    condition
                        .pattern()
                        .and_then(crate::matcher::automaton)
                        .is_none()
                })
            {
                say(
                    Level::Warning,
                    "rule",
                    format!("{word} {}: {message}", condition.field),
                );
            }
        }
        if rule.undecidable != Undecidable::Allow && !rule.reads_commands() {
            say(
                Level::Warning,
                "rule",
                format!(
                    "undecidable: {} never applies: the rule names no field of a command ({}), \
                     and only such a rule meets a command it cannot read",
                    rule.undecidable.as_str(),
                    COMMAND_FIELDS.join(", ")
                ),
            );
        }
        if let Some((earlier, how)) = shadowed_by(set, index)
            .map(|earlier| (earlier, "blocks every call this rule applies to"))
            .or_else(|| {
                duplicate_of(set, index).map(|earlier| (earlier, "does what this rule does"))
            })
        {
            let packs = shipped.get_or_init(|| Shipped::read(set));
            let (level, message) = match (packs.pack_of(hook), packs.pack_of(earlier)) {
                (Some(ours), Some(theirs)) if ours != theirs => (
                    Level::Note,
                    format!(
                        "rule {} of the {theirs} pack ({}) {how}, before it: the {ours} and \
                         {theirs} packs overlap here so that each guards alone",
                        earlier.name, earlier.origin
                    ),
                ),
                _ => (
                    Level::Warning,
                    format!(
                        "rule {} ({}) {how}, before it: this one never decides",
                        earlier.name, earlier.origin
                    ),
                ),
            };
            say(level, "rule", message);
        }
    }
}

/// The rules of the set's rules files that are a shipped pack's rule unchanged, read once.
struct Shipped {
    /// Per rules file: the rules named and written as a pack has them, with the pack.
    files: Vec<(String, Vec<(String, &'static str)>)>,
}

impl Shipped {
    fn read(set: &HookSet) -> Self {
        let shipped = crate::engine::rules::packs::rules();
        let mut files: Vec<(String, Vec<(String, &'static str)>)> = Vec::new();
        for hook in set.hooks.iter().filter(|hook| hook.rule().is_some()) {
            if files.iter().any(|(file, _)| *file == hook.command) {
                continue;
            }
            let text = crate::ground::limits::read(
                std::path::Path::new(&hook.command),
                crate::ground::limits::MANIFEST_MAX,
            )
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default();
            let unchanged = crate::engine::rules::packs::unchanged_rules(&text, &shipped);
            files.push((hook.command.to_string(), unchanged));
        }
        Self { files }
    }

    /// The pack `hook` is a rule of, unchanged.
    fn pack_of(&self, hook: &HookSpec) -> Option<&'static str> {
        let (_, rules) = self.files.iter().find(|(file, _)| *file == hook.command)?;
        rules
            .iter()
            .find(|(name, _)| *name == hook.name)
            .map(|(_, pack)| *pack)
    }
}

/// The consent of the rules file `hook` comes from, said once for the file.
fn file_consent(
    checkup: &Checkup<'_>,
    list: &Allowlist,
    hook: &HookSpec,
    findings: &mut Vec<Finding>,
) {
    let assessment = assess(list, hook, checkup.base);
    let (level, message) = consent_finding(hook, &assessment, checkup);
    let count = checkup
        .set
        .hooks
        .iter()
        .filter(|other| other.rule().is_some() && other.command == hook.command)
        .count();
    findings.push(Finding {
        level,
        check: "consent",
        event: Some(hook.consent_event()),
        hook: Some(hook.command.to_string()),
        source: Some(hook.source.as_str()),
        at: hook.command.to_string(),
        message: format!(
            "rules file ({count} {}): {message}",
            if count == 1 { "rule" } else { "rules" }
        ),
        diff: changes_since_approval(&assessment, checkup.allowlist),
        awaits_approval: false,
    });
}

fn finding(hook: &HookSpec, level: Level, check: &'static str, message: String) -> Finding {
    Finding {
        level,
        check,
        event: Some(hook.event.name()),
        hook: Some(hook.name.to_string()),
        source: Some(hook.source.as_str()),
        at: hook.origin.to_string(),
        message,
        diff: None,
        awaits_approval: false,
    }
}

fn conditions(rule: &Rule) -> impl Iterator<Item = (&'static str, &Condition)> {
    let when = rule.when().iter().map(|c| ("when", c));
    when.chain(rule.unless().iter().map(|c| ("unless", c)))
}

/// What a condition that never holds does to its rule.
fn consequence(word: &str) -> &'static str {
    if word == "when" {
        "the rule never applies"
    } else {
        "this exception never holds"
    }
}

/// What a field no call the rule sees has does to the rule: a rule that names a field of a
/// command applies only to a call whose commands it reads, whichever part names the field.
fn absent(word: &str, field: &str) -> &'static str {
    if is_command_field(field) {
        "the rule never applies"
    } else {
        consequence(word)
    }
}

/// Why `field` cannot be in the calls the rule sees, if so, and whether that is certain (an
/// error) or likely (a warning: the agents' tool inputs are not all known here).
fn field_problem(hook: &HookSpec, rule: &Rule, word: &str, field: &str) -> Option<(String, bool)> {
    let first = field.split('.').next().unwrap_or(field);
    let tool_event = hook.event.is_tool_event();
    let class = rule.tool_class;
    if first == "command" || is_command_field(field) {
        let why = no_shell_call(hook, rule)?;
        return Some((format!("{why}, so {}", absent(word, field)), true));
    }
    match first {
        "path" if !tool_event => Some((
            format!("{} has no tool call, so {}", hook.event, consequence(word)),
            true,
        )),
        "path" if class.is_some_and(|c| !crate::engine::rules::FILE_CLASSES.contains(&c)) => {
            Some((
                format!(
                    "the rule is for {} tools, which name no file, so {}",
                    class.unwrap_or_default(),
                    consequence(word)
                ),
                true,
            ))
        }
        "path" => None,
        _ if PAYLOAD_KEYS.contains(&first) || hook.event.def().fields.contains(&first) => None,
        _ if sample_keys(hook).iter().any(|key| key == first) => None,
        _ if tool_event && TOOL_INPUT_KEYS.contains(&first) => None,
        _ => Some((
            format!(
                "no agent is known to send this field on {}, so the condition may never hold",
                hook.event
            ),
            false,
        )),
    }
}

/// Why the rule of `hook` never sees a shell call, if it cannot: its event has no tool, its
/// `tool:` is another class, or a tool name pattern that names no agent's shell tool.
fn no_shell_call(hook: &HookSpec, rule: &Rule) -> Option<String> {
    if !hook.event.is_tool_event() {
        return Some(format!(
            "{} has no tool call, so there is no shell command",
            hook.event
        ));
    }
    match (rule.tool_class, &hook.matcher) {
        (Some(class), _) if class != "shell" => Some(format!(
            "the rule is for {class} tools, which have no shell command"
        )),
        (None, Some(tool))
            if !Agent::tools_of(ToolClass::Shell).any(|name| tool.matches(Some(name))) =>
        {
            Some(format!(
                "the tool `{}` names no agent's shell tool, so there is no shell command",
                shortened(tool.source())
            ))
        }
        _ => None,
    }
}

/// The top-level keys of the event's sample payload.
fn sample_keys(hook: &HookSpec) -> Vec<String> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(hook.event.def().sample)
        .map(|map| map.keys().cloned().collect())
        .unwrap_or_default()
}

/// A pattern that backtracks too much on long texts a call can hold: past the engine's limit
/// (it gives up), or past [`STEPS_PER_CHAR`] steps a character. Steps are counted, not timed,
/// so the answer is the same on any machine.
fn slowness(matcher: &Matcher, shown: &str) -> Option<String> {
    let probes = probes();
    let texts: Vec<&str> = probes.iter().map(String::as_str).collect();
    let limit = STEPS_PER_CHAR * PROBE_LEN;
    let past = matcher.backtracks_past(limit, &texts)?;
    let kb = PROBE_LEN / 1024;
    if texts[past..]
        .iter()
        .any(|text| matcher.decides(text).is_none())
    {
        return Some(format!(
            "the pattern `{}` backtracks too much on a {kb} KB text and gives up (the rule \
             then counts as matching, an exception as not holding): rewrite it without nested \
             repetition",
            shortened(shown),
        ));
    }
    Some(format!(
        "the pattern `{}` backtracks more than {limit} steps on a {kb} KB text (the limit is \
         {STEPS_PER_CHAR} a character); a rule should take about one step per character: \
         rewrite it without nested repetition",
        shortened(shown),
    ))
}

/// `pattern`, cut after [`SHOWN_MAX`] characters.
fn shortened(pattern: &str) -> Cow<'_, str> {
    match pattern.char_indices().nth(SHOWN_MAX) {
        Some((at, _)) => Cow::Owned(format!("{}…", &pattern[..at])),
        None => Cow::Borrowed(pattern),
    }
}

/// Long texts of the kinds that make a pattern backtrack, [`PROBE_LEN`] bytes each.
fn probes() -> Vec<String> {
    let mut command = String::with_capacity(PROBE_LEN + 80);
    while command.len() < PROBE_LEN {
        command.push_str("git commit -m 'fix: a b' && rm -f ./build/x.o; echo \"$HOME\" | ");
    }
    command.truncate(PROBE_LEN);
    vec![
        command,
        "a".repeat(PROBE_LEN),
        " ".repeat(PROBE_LEN),
        "-".repeat(PROBE_LEN),
        "/".repeat(PROBE_LEN),
    ]
}

/// The earlier rule that blocks every call the rule `index` applies to, if one does: same
/// event, a block, no exception, a tool that covers this rule's, every condition of its own
/// among this rule's, and, when it reads commands, a block too where they cannot be read (or
/// this rule lets those through as well).
fn shadowed_by(set: &HookSet, index: usize) -> Option<&HookSpec> {
    let hook = &set.hooks[index];
    let rule = hook.rule()?;
    set.hooks[..index].iter().find(|earlier| {
        let Some(first) = earlier.rule() else {
            return false;
        };
        let same_tool = match (first.tool_class, &earlier.matcher) {
            (None, None) => true,
            (Some(class), None) => rule.tool_class == Some(class),
            (None, Some(m)) => hook
                .matcher
                .as_ref()
                .is_some_and(|h| h.source() == m.source()),
            (Some(_), Some(_)) => false,
        };
        earlier.event == hook.event
            && first.action == crate::config::rules::Action::Block
            && first.unless().is_empty()
            && same_tool
            && (!first.reads_commands()
                || first.undecidable == Undecidable::Block
                || rule.undecidable == Undecidable::Allow)
            && first.when().iter().all(|c| {
                rule.when()
                    .iter()
                    .any(|own| own.field == c.field && own.pattern() == c.pattern())
            })
    })
}

/// The earlier rule that does just what the rule `index` does (a shadowing block aside): same
/// event, tool, action and message, and the same conditions both ways.
fn duplicate_of(set: &HookSet, index: usize) -> Option<&HookSpec> {
    let hook = &set.hooks[index];
    let rule = hook.rule()?;
    let same = |ours: &[Condition], theirs: &[Condition]| {
        ours.len() == theirs.len()
            && ours.iter().all(|c| {
                theirs
                    .iter()
                    .any(|t| t.field == c.field && t.pattern() == c.pattern())
            })
    };
    set.hooks[..index].iter().find(|earlier| {
        let Some(first) = earlier.rule() else {
            return false;
        };
        earlier.event == hook.event
            && first.action == rule.action
            && first.message() == rule.message()
            && first.tool_class == rule.tool_class
            && earlier.matcher.as_deref().map(Matcher::source)
                == hook.matcher.as_deref().map(Matcher::source)
            && first.undecidable == rule.undecidable
            && same(first.when(), rule.when())
            && same(first.unless(), rule.unless())
    })
}

#[cfg(test)]
mod tests {
    use super::{Matcher, SHOWN_MAX, shortened, slowness};

    fn slow(pattern: &str) -> Option<String> {
        let (matcher, why) = Matcher::compile_search(pattern);
        assert!(why.is_none(), "{pattern}: {why:?}");
        slowness(&matcher, pattern)
    }

    #[test]
    fn a_catastrophic_pattern_is_flagged_and_a_linear_one_is_not() {
        // Counted in steps, so the same on any machine however loaded.
        for pattern in [r"(?:a(?=a)|a)*b", r"(a|a)+\1b"] {
            let said = slow(pattern).unwrap_or_default();
            assert!(said.contains("gives up"), "{pattern}: {said}");
        }
        // Linear, but five steps a character (a look-ahead tried at each place, five times).
        let five = r"(?=b)c|(?=d)e|(?=f)g|(?=h)i|(?=j)k";
        let said = slow(five).unwrap_or_default();
        assert!(
            said.contains("backtracks more than 65536 steps on a 16 KB text"),
            "{said}"
        );
        // Nested repetition without look-around or back references runs on an engine that
        // never backtracks; a look-around tried once at each place is what the packs do.
        for pattern in [
            r"(a+)+$",
            r"(\w*)*x",
            r"\brm\s+-\w*r",
            r"(?<![\w-])rm\s+(?!-)\S",
            r"\bgit\s+push\b(?=.*\s--force\b)",
            r"(?=b)c|(?=d)e",
        ] {
            assert_eq!(slow(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn a_long_pattern_is_shown_cut() {
        let long = "x".repeat(2000);
        let shown = shortened(&long);
        assert_eq!(shown.chars().count(), SHOWN_MAX + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(
            shortened("é".repeat(SHOWN_MAX).as_str()),
            "é".repeat(SHOWN_MAX)
        );
        let said = slow(&format!("(?:a(?=a)|a)*b{}", "c".repeat(2000))).unwrap_or_default();
        assert!(
            said.contains("(?:a(?=a)|a)*bccc") && said.len() < 400,
            "{said}"
        );
    }
}
