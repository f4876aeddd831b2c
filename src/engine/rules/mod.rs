//! Rules, evaluated in this process: whether a rule applies to a call (its tool, then every
//! `when`, then `unless`), what it answers, and the packs this program ships.

pub(crate) mod layout;
pub(crate) mod packs;
pub(crate) mod programs;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::config::rules::{Action, Condition, Rule, Undecidable, is_command_field};
use crate::config::{HookSpec, Source};
use crate::engine::payload::Invocation;
use crate::engine::response::{Directive, Status};
use crate::shell::{self, Command, Reading, Unknown};

/// Keys a file tool names its file by, across the agents.
const PATH_KEYS: [&str; 6] = [
    "file_path",
    "path",
    "absolute_path",
    "notebook_path",
    "filePath",
    "target_file",
];

/// The classes of the tools that name files (a search names the file or folder it reads).
pub(crate) const FILE_CLASSES: [&str; 4] = ["edit", "write", "read", "search"];

/// Keys a tool names several files by.
const PATHS_KEYS: [&str; 2] = ["paths", "file_paths"];

/// A rule's verdict on one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The rule does not apply.
    No,
    /// It applies.
    Yes,
    /// It names the commands a shell call runs, and what would run cannot be known before it
    /// does (why, in words).
    Undecidable(String),
}

/// Whether the rule of `hook` decides this call: it applies, or cannot tell and says what to do
/// then (`undecidable: block|ask`). `tool_input` is the input as it stands.
pub(crate) fn applies(
    hook: &HookSpec,
    invocation: &Invocation,
    tool_input: Option<&Map<String, Value>>,
) -> bool {
    // Once a rule of the call has worked out the programs it runs, a rule about none of them is
    // told at once: the verdict's own shortcut, without the rest of its work (most rules of an
    // answer end here).
    if let Source::Rules(rule) = &hook.source
        && let Some(Some(call)) = invocation.commands.known_programs()
        && programs::misses(rule, *call)
    {
        return false;
    }
    match verdict(hook, invocation, tool_input) {
        Verdict::No => false,
        Verdict::Yes => true,
        Verdict::Undecidable(_) => hook
            .rule()
            .is_some_and(|rule| rule.undecidable != Undecidable::Allow),
    }
}

/// The rule's verdict on this call: its tool (name pattern or class), every `when` condition,
/// and not every `unless` condition. Conditions on a command's fields (`program`, `paths`, ...)
/// hold together for one command of the call.
pub(crate) fn verdict(
    hook: &HookSpec,
    invocation: &Invocation,
    tool_input: Option<&Map<String, Value>>,
) -> Verdict {
    verdict_with(hook, invocation, tool_input, true)
}

/// [`verdict`], with or without the shortcuts that tell a rule a call is no business of (the
/// same verdict either way, which a test holds).
pub(crate) fn verdict_with(
    hook: &HookSpec,
    invocation: &Invocation,
    tool_input: Option<&Map<String, Value>>,
    shortcuts: bool,
) -> Verdict {
    let Source::Rules(rule) = &hook.source else {
        return Verdict::No;
    };
    if hook.event.is_tool_event() {
        if let Some(class) = rule.tool_class
            && invocation.tool_class != Some(class)
        {
            return Verdict::No;
        }
        if !hook.matches_tool(invocation.tool_name()) {
            return Verdict::No;
        }
    }
    let fields = Fields {
        invocation,
        input: tool_input,
    };
    if shortcuts && programs::of_rule(rule).is_some() {
        // Worked out for the first rule of the call, and kept for the others.
        let call = invocation
            .commands
            .known_programs()
            .copied()
            .unwrap_or_else(|| {
                fields
                    .reading(rule.of.home.as_deref())
                    .and_then(|reading| invocation.commands.programs(reading))
            });
        if call.is_some_and(|call| programs::misses(rule, call)) {
            return Verdict::No;
        }
    }
    if shortcuts && runs_none_of(rule, &fields) {
        return Verdict::No;
    }
    if shortcuts && passes_by(rule, &fields) {
        return Verdict::No;
    }
    // Split by what each condition reads, without a list made on every call.
    let on_call = |c: &&Condition| !is_command_field(&c.field);
    let on_command = |c: &&Condition| is_command_field(&c.field);
    let call_when = || rule.when().iter().filter(on_call);
    let command_when = || rule.when().iter().filter(on_command);
    let command_unless = || rule.unless().iter().filter(on_command);
    if !call_when().all(|c| fields.any_matches(c)) {
        return Verdict::No;
    }
    // `unless` holds when every one of its conditions does (and there is one); read only
    // where a command could otherwise make the rule apply.
    let call_unless = std::cell::OnceCell::new();
    let call_unless_holds = || {
        *call_unless.get_or_init(|| {
            rule.unless()
                .iter()
                .filter(on_call)
                .all(|c| fields.all_match(c))
        })
    };
    if command_when().next().is_none() && command_unless().next().is_none() {
        let excepted = !rule.unless().is_empty() && call_unless_holds();
        return if excepted { Verdict::No } else { Verdict::Yes };
    }
    let Some(reading) = fields.reading(rule.of.home.as_deref()) else {
        // Not a shell call: no command has the fields, so a `when` on one never holds, and an
        // `unless` on one never excepts.
        return if command_when().next().is_none() {
            Verdict::Yes
        } else {
            Verdict::No
        };
    };
    if let Some(why) = &reading.undecidable {
        return Verdict::Undecidable(why.clone());
    }
    let excepted = |command: &Command| {
        !rule.unless().is_empty()
            && call_unless_holds()
            && command_unless().all(|c| every_value(c, command))
    };
    let mut maybe = None;
    for command in &reading.commands {
        if command_when().all(|c| any_value(c, command)) && !excepted(command) {
            return Verdict::Yes;
        }
        match &command.unknown {
            None => {}
            Some(Unknown::Script(why)) => {
                maybe.get_or_insert_with(|| why.clone());
            }
            // The program is not known: every condition but the program's could hold.
            Some(Unknown::Program(why)) => {
                let could = command_when().all(|c| {
                    matches!(c.field.as_ref(), "program" | "line") || any_value(c, command)
                }) && !excepted(command);
                if could {
                    maybe.get_or_insert_with(|| why.clone());
                }
            }
        }
    }
    maybe.map_or(Verdict::No, Verdict::Undecidable)
}

/// Whether the call runs none of the programs the rule is about, as far as can be known: every
/// command of the line is read and known, and none has a program the rule's `when` names. Most
/// rules name their programs, and most calls run none of them, so this is found first, before
/// any other condition is read; the verdict is the one [`verdict`] would reach (no command can
/// satisfy every `when`, and none leaves anything unknown).
fn passes_by(rule: &Rule, fields: &Fields<'_>) -> bool {
    let Some(program) = rule.when().iter().find(|c| c.field == "program") else {
        return false;
    };
    known_commands(rule, fields).is_some_and(|commands| {
        !commands
            .iter()
            .any(|c| program.decides(&c.program).unwrap_or(true))
    })
}

/// [`passes_by`] for a rule whose `when` on `program` is a pattern, told before its body is read:
/// every command of the line is read and known, and no program holds what the pattern needs.
fn runs_none_of(rule: &Rule, fields: &Fields<'_>) -> bool {
    let Some(needed) = &rule.program_needed else {
        return false;
    };
    known_commands(rule, fields)
        .is_some_and(|commands| !commands.iter().any(|c| needed.may_match(&c.program)))
}

/// The commands of a shell call when the whole line is read and each command is known (what a
/// shortcut past a rule needs: nothing left to when the line runs).
fn known_commands<'f>(rule: &Rule, fields: &'f Fields<'_>) -> Option<&'f [Command]> {
    let reading = fields.reading(rule.of.home.as_deref())?;
    (reading.undecidable.is_none() && reading.commands.iter().all(|c| c.unknown.is_none()))
        .then_some(reading.commands.as_slice())
}

/// The values a command field has in one command: one text, or a list (no list is made).
enum Values<'c> {
    One(Option<&'c str>),
    Many(&'c [String]),
}

impl<'c> Values<'c> {
    fn iter(&self) -> impl Iterator<Item = &'c str> + '_ {
        let (one, many): (Option<&'c str>, &'c [String]) = match self {
            Self::One(one) => (*one, &[]),
            Self::Many(many) => (None, many),
        };
        one.into_iter().chain(many.iter().map(String::as_str))
    }

    fn is_empty(&self) -> bool {
        match self {
            Self::One(one) => one.is_none(),
            Self::Many(many) => many.is_empty(),
        }
    }
}

/// The values a command field has in `command`.
fn command_values<'c>(field: &str, command: &'c Command) -> Values<'c> {
    match field {
        "program" => Values::One(Some(&command.program)),
        "args" => Values::Many(&command.args),
        "flags" => Values::Many(&command.flags),
        "subcommand" => Values::One(command.subcommand.as_deref()),
        "paths" => Values::Many(&command.paths),
        "target" => Values::One(command.target.as_deref()),
        "expansions" => Values::Many(&command.expansions),
        "redirects" => Values::Many(&command.redirects),
        "input" => Values::One(command.input.as_deref()),
        "line" => Values::One(Some(&command.line)),
        "through" => Values::Many(&command.through),
        _ => Values::One(None),
    }
}

/// For `when`: one of the field's values in `command` matches (a value the pattern cannot decide
/// on counts as matching: the guard holds).
fn any_value(condition: &Condition, command: &Command) -> bool {
    command_values(&condition.field, command)
        .iter()
        .any(|text| condition.decides(text).unwrap_or(true))
}

/// For `unless`: the field has values in `command`, and every one matches.
fn every_value(condition: &Condition, command: &Command) -> bool {
    let values = command_values(&condition.field, command);
    !values.is_empty()
        && values
            .iter()
            .all(|text| condition.decides(text).unwrap_or(false))
}

/// What a rule that decides answers, with the status it gets.
pub(crate) fn answer(
    hook: &HookSpec,
    rule: &Rule,
    invocation: &Invocation,
    tool_input: Option<&Map<String, Value>>,
) -> (Status, Directive) {
    if let Verdict::Undecidable(why) = verdict(hook, invocation, tool_input) {
        let why = why.trim_end_matches('.');
        return match rule.undecidable {
            Undecidable::Ask => (
                Status::Asked,
                Directive::Ask {
                    message: format!(
                        "rule {} cannot tell what this command would run ({why}), so a person \
                         must approve it",
                        hook.name
                    ),
                    rule_key: Some(format!("hermes-hooks rule {}", hook.name)),
                    args: None,
                },
            ),
            Undecidable::Block | Undecidable::Allow => (
                Status::Blocked,
                Directive::Block {
                    message: format!(
                        "rule {} cannot tell what this command would run ({why}), so it was \
                         blocked",
                        hook.name
                    ),
                },
            ),
        };
    }
    match rule.action {
        Action::Block => (
            Status::Blocked,
            Directive::Block {
                message: rule.message().to_owned(),
            },
        ),
        Action::Ask => (
            Status::Asked,
            Directive::Ask {
                message: rule.message().to_owned(),
                rule_key: Some(format!("hermes-hooks rule {}", hook.name)),
                args: None,
            },
        ),
        Action::Context => (
            Status::Context,
            Directive::Context {
                text: rule.message().to_owned(),
            },
        ),
    }
}

/// The commands a shell call would run, read once per call (`None` for a call that is not a
/// shell call, or has no command).
/// `home` is what `~` and `$HOME` stand for.
pub(crate) fn commands<'i>(
    invocation: &'i Invocation,
    input: Option<&Map<String, Value>>,
    home: Option<&Path>,
) -> Option<&'i Reading> {
    if invocation.tool_class != Some("shell") {
        return None;
    }
    let command = input?.get("command")?;
    if !matches!(command, Value::String(_) | Value::Array(_)) {
        return None;
    }
    Some(invocation.commands.get_or_init(|| {
        let cwd = work_folder(invocation, input);
        let context = shell::Context { cwd: &cwd, home };
        match command {
            Value::String(text) => shell::read(text, context),
            Value::Array(words) => {
                let words: Option<Vec<String>> = words
                    .iter()
                    .map(|w| w.as_str().map(str::to_owned))
                    .collect();
                match words {
                    Some(words) => shell::read_argv(&words, context),
                    None => Reading::undecidable("the command list holds a word that is not text"),
                }
            }
            _ => Reading::default(),
        }
    }))
}

/// The files a file tool call (edit, write, read, search) names, absolute and normalised.
pub(crate) fn call_paths(invocation: &Invocation) -> Vec<String> {
    Fields {
        invocation,
        input: invocation.tool_input.as_ref(),
    }
    .paths()
}

/// The folder a shell call runs in: the tool's own (Codex `workdir`, Gemini `dir_path`), else
/// the call's `cwd`, else this process's.
fn work_folder(invocation: &Invocation, input: Option<&Map<String, Value>>) -> PathBuf {
    let base = Path::new(&invocation.cwd);
    let base = if base.is_absolute() {
        base.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
    };
    let own = input.and_then(|input| {
        ["workdir", "dir_path", "cwd"]
            .iter()
            .find_map(|key| input.get(*key)?.as_str().filter(|dir| !dir.is_empty()))
    });
    match own {
        Some(dir) => crate::ground::paths::normalized(
            &base.join(crate::ground::paths::expand_tilde(dir).as_ref()),
        ),
        None => base,
    }
}

/// The call's fields, as conditions name them.
struct Fields<'a> {
    invocation: &'a Invocation,
    input: Option<&'a Map<String, Value>>,
}

impl<'a> Fields<'a> {
    /// The commands of a shell call.
    fn reading(&self, home: Option<&Path>) -> Option<&'a Reading> {
        commands(self.invocation, self.input, home)
    }

    /// For `when`: the field is there and one of its values matches.
    fn any_matches(&self, condition: &Condition) -> bool {
        // A text the pattern cannot decide on counts as matching: the guard holds.
        self.values(&condition.field)
            .iter()
            .any(|text| condition.decides(text).unwrap_or(true))
    }

    /// For `unless`: the field is there and every one of its values matches (an exception for
    /// one file of a patch is no exception for the others).
    fn all_match(&self, condition: &Condition) -> bool {
        let values = self.values(&condition.field);
        // A text the pattern cannot decide on is no exception: the guard holds.
        !values.is_empty()
            && values
                .iter()
                .all(|text| condition.decides(text).unwrap_or(false))
    }

    /// Every text `field` has in this call (none when it is absent).
    fn values(&self, field: &str) -> Vec<Cow<'_, str>> {
        match field {
            "command" => self.command().into_iter().collect(),
            "path" => self.paths().into_iter().map(Cow::Owned).collect(),
            _ => {
                let mut out = Vec::new();
                if let Some(value) = self.lookup(field) {
                    scalars(value, &mut out);
                }
                out
            }
        }
    }

    /// The shell command of a shell tool, whatever the agent calls its tool.
    fn command(&self) -> Option<Cow<'_, str>> {
        if self.invocation.tool_class != Some("shell") {
            return None;
        }
        match self.input?.get("command")? {
            Value::String(text) => Some(Cow::Borrowed(text)),
            Value::Array(words) => Some(Cow::Owned(
                words
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" "),
            )),
            _ => None,
        }
    }

    /// The files a file tool (edit, write, read, search) names, absolute and normalised against
    /// the call's `cwd`.
    fn paths(&self) -> Vec<String> {
        if !self
            .invocation
            .tool_class
            .is_some_and(|class| FILE_CLASSES.contains(&class))
        {
            return Vec::new();
        }
        let Some(input) = self.input else {
            return Vec::new();
        };
        let mut named: Vec<&str> = PATH_KEYS
            .iter()
            .filter_map(|key| input.get(*key)?.as_str())
            .chain(
                PATHS_KEYS
                    .iter()
                    .filter_map(|key| input.get(*key)?.as_array())
                    .flatten()
                    .filter_map(Value::as_str),
            )
            .filter(|path| !path.is_empty())
            .collect();
        // A patch (Codex's apply_patch) names each file it adds, changes, moves or deletes.
        for text in input.values().filter_map(Value::as_str) {
            named.extend(patch_files(text));
        }
        let cwd = Path::new(&self.invocation.cwd);
        named
            .into_iter()
            .map(|path| absolute(path, cwd).to_string_lossy().into_owned())
            .collect()
    }

    /// A dotted path: the tool input first, then the payload's own fields, then its `extra`.
    fn lookup(&self, field: &str) -> Option<&Value> {
        let mut parts = field.split('.');
        let mut first = parts.next()?;
        let invocation = self.invocation;
        // `tool_input.x` (or `args.x`, Hermes's name) names the tool input's own key.
        if matches!(first, "tool_input" | "args") {
            first = parts.next()?;
            let mut value = self.input?.get(first)?;
            for part in parts {
                value = step(value, part)?;
            }
            return Some(value);
        }
        let mut value = self
            .input
            .and_then(|input| input.get(first))
            .or(match first {
                "tool_name" => Some(&invocation.tool_name),
                "session_id" => Some(&invocation.session_id),
                "profile" => Some(&invocation.profile),
                "parent_session_id" => invocation.parent_session_id.as_ref(),
                _ => None,
            })
            .or(invocation.extra.get(first))?;
        for part in parts {
            value = step(value, part)?;
        }
        Some(value)
    }
}

/// One step of a dotted path: a key of a mapping, or the index of a list item.
fn step<'v>(value: &'v Value, part: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(part),
        Value::Array(items) => items.get(part.parse::<usize>().ok()?),
        _ => None,
    }
}

/// Every scalar in `value` as text (nulls are nothing).
fn scalars<'v>(value: &'v Value, out: &mut Vec<Cow<'v, str>>) {
    match value {
        Value::Null => {}
        Value::String(text) => out.push(Cow::Borrowed(text)),
        Value::Bool(b) => out.push(Cow::Owned(b.to_string())),
        Value::Number(n) => out.push(Cow::Owned(n.to_string())),
        Value::Array(items) => items.iter().for_each(|v| scalars(v, out)),
        Value::Object(map) => map.values().for_each(|v| scalars(v, out)),
    }
}

/// The files a patch names (`*** Add File: x`, `*** Update File:`, `*** Delete File:`,
/// `*** Move to:`).
fn patch_files(text: &str) -> impl Iterator<Item = &str> {
    const HEADS: [&str; 4] = [
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    text.lines().filter_map(|line| {
        let line = line.trim_start();
        HEADS
            .iter()
            .find_map(|head| line.strip_prefix(head))
            .map(str::trim)
            .filter(|path| !path.is_empty())
    })
}

/// `path` made absolute against `cwd` (`~` is the home folder) and normalised.
fn absolute(path: &str, cwd: &Path) -> PathBuf {
    let expanded = crate::ground::paths::expand_tilde(path);
    crate::ground::paths::normalized(&cwd.join(expanded.as_ref()))
}
