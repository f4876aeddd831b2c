//! Each entry of a `hooks:` block read as Hermes reads it: the event's list, each entry's
//! command, matcher and timeout, with a warning naming `file:line` for what Hermes skips.

use std::path::Path;
use std::time::Duration;

use super::super::expand::Expander;
use super::super::yaml::pyyaml::{Mapping, Node, Value};
use super::super::{Event, HookSpec, Origin, Source, SourceKind, Warning, WarningKind};
use super::{
    DEFAULT_TIMEOUT_SECS, EventEntry, HermesConfig, Level, MAX_TIMEOUT_SECS, RESERVED_KEYS,
    command_of, hooks_of_block, hooks_of_list,
};
use crate::config::Effects;
use crate::config::event::Resolved;
use crate::ground::hook_script::script_word;
use crate::matcher::Matcher;

/// Walks the merged `hooks:` block, collecting hooks and warnings.
pub(super) struct BlockReader {
    pub(super) only: Option<Event>,
    pub(super) out: HermesConfig,
    pub(super) expander: Expander,
}

impl BlockReader {
    pub(super) fn warn(&mut self, kind: WarningKind, file: &Path, line: u64, message: String) {
        self.out.warnings.push(Warning {
            kind,
            origin: Origin {
                file: std::sync::Arc::from(file),
                line: (line > 0).then_some(line),
            },
            message,
        });
    }

    /// Warns about keys written twice in `mapping` (the last one counts, as in `PyYAML`); one
    /// that drops hooks (a second `hooks:`, an event list or an entry's command written again)
    /// names them.
    pub(super) fn repeated(&mut self, file: &Path, mapping: &Mapping, prefix: &str, level: Level) {
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
    pub(super) fn expand(&mut self, file: &Path, line: u64, at: &str, text: &str) -> String {
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

    pub(super) fn auto_accept(&mut self, file: &Path, node: &Node) -> bool {
        match &node.value {
            Value::Bool(value) => *value,
            Value::Str(text) => {
                let text = self.expand(file, node.line, "hooks_auto_accept", text);
                crate::ground::env::is_truthy(&text)
            }
            _ => false,
        }
    }

    pub(super) fn event(&mut self, entry: &EventEntry<'_>) {
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
    pub(super) fn unknown_event(&mut self, file: &Path, line: u64, unknown: &str, list: &Node) {
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
    pub(super) fn not_for_hermes(
        &mut self,
        file: &Path,
        line: u64,
        name: &str,
        resolved: Resolved,
    ) {
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

    pub(super) fn entry(
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
            file: std::sync::Arc::from(file),
            line: Some(line),
        };
        Some(HookSpec {
            matcher: matcher.map(Box::new),
            timeout,
            fail_closed,
            ..HookSpec::new(event, Source::Config, name, command.to_owned(), origin)
        })
    }

    pub(super) fn matcher(
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

    pub(super) fn timeout(
        &mut self,
        file: &Path,
        at: &str,
        line: u64,
        raw: Option<&Node>,
    ) -> Duration {
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

    pub(super) fn fail_closed(
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
    pub(super) fn deduplicate(&mut self) {
        let mut kept: Vec<HookSpec> = Vec::with_capacity(self.out.hooks.len());
        for hook in std::mem::take(&mut self.out.hooks) {
            let first = kept.iter().find(|k| {
                k.event == hook.event
                    && k.command == hook.command
                    && k.matcher.as_deref().map(Matcher::source)
                        == hook.matcher.as_deref().map(Matcher::source)
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
