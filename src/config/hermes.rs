//! The `hooks:` block of Hermes's config.yaml, read by Hermes's rules: what is skipped with a
//! warning naming `file:line`, and what is an error (YAML that does not parse, `hooks` that is not
//! a mapping). The rest of config.yaml is Hermes's and is not interpreted.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use super::{Event, HookSpec, Origin, SourceKind, Warning, WarningKind};
use crate::config::Effects;
use crate::config::yaml::{Loose, other_shapes};
use crate::consent::fingerprint::script_word;
use crate::matcher::Matcher;

/// A hook's timeout when none is given, in seconds.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// The largest timeout, in seconds; larger ones are clamped.
pub const MAX_TIMEOUT_SECS: u64 = 300;
/// Hermes's own sub-sections of `hooks:`, which are not events.
const RESERVED_KEYS: [&str; 2] = ["output_spill", "outbound"];

/// What config.yaml declares.
#[derive(Debug, Default)]
pub struct HermesConfig {
    /// The hooks, in file order.
    pub hooks: Vec<HookSpec>,
    /// What was skipped or adjusted.
    pub warnings: Vec<Warning>,
    /// `hooks_auto_accept` is true (a boolean, or a truthy string).
    pub auto_accept: bool,
}

/// Reads `path`; a missing file declares no hooks. With `only`, entries of other events are not
/// checked or built (their keys still are, so a misspelt event is reported).
pub fn load(path: &Path, only: Option<Event>) -> Result<HermesConfig> {
    let bytes = match crate::limits::read(path, crate::limits::CONFIG_MAX) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(HermesConfig::default());
        }
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
    };
    parse(path, &bytes, only)
}

/// Parses config.yaml's bytes; `path` names the file in messages.
pub fn parse(path: &Path, bytes: &[u8], only: Option<Event>) -> Result<HermesConfig> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let line = bytes[..err.valid_up_to()].split(|b| *b == b'\n').count();
        anyhow!("{}:{line}: not valid UTF-8", path.display())
    })?;
    // Every command reads the whole file the same way: a shortcut that read less could be made
    // to see other hooks than `list` and `doctor` show.
    let raw: Option<RawFile> =
        serde_saphyr::from_str(text).map_err(|err| yaml_error(path, &err))?;
    let Some(raw) = raw else {
        return Ok(HermesConfig::default());
    };
    let mut out = HermesConfig {
        auto_accept: raw.hooks_auto_accept.as_ref().is_some_and(Loose::is_truthy),
        ..HermesConfig::default()
    };
    if let Some(hooks) = raw.hooks {
        let entries = match hooks.value {
            RawHooks::Map(entries) => entries,
            RawHooks::Other(kind) => {
                let at = hooks.referenced;
                return Err(anyhow!(
                    "{}:{}:{}: `hooks` must be a mapping of event names to lists of hooks, not a {kind}",
                    path.display(),
                    at.line(),
                    at.column()
                ));
            }
        };
        let mut reader = BlockReader {
            path,
            only,
            out: &mut out,
        };
        for (key, value) in entries {
            reader.event(&key, value);
        }
    }
    Ok(out)
}

/// `file:line:column: message` for a YAML error.
fn yaml_error(path: &Path, err: &serde_saphyr::Error) -> anyhow::Error {
    let mut message = err.without_snippet().to_string();
    if message.starts_with("budget breached") {
        // The parser's safety limits (node count, alias expansion, depth) were hit.
        message = format!("the YAML is too large or expands too far (an alias bomb?): {message}");
    }
    match err.location() {
        Some(at) => {
            let suffix = format!(" at line {}, column {}", at.line(), at.column());
            let message = message.strip_suffix(&suffix).unwrap_or(&message);
            anyhow!(
                "{}:{}:{}: {message}",
                path.display(),
                at.line(),
                at.column()
            )
        }
        None => anyhow!("{}: {message}", path.display()),
    }
}

/// Walks the `hooks:` mapping, collecting hooks and warnings.
struct BlockReader<'a> {
    path: &'a Path,
    only: Option<Event>,
    out: &'a mut HermesConfig,
}

impl BlockReader<'_> {
    fn warn(&mut self, kind: WarningKind, line: u64, message: String) {
        self.out.warnings.push(Warning {
            kind,
            origin: Origin {
                file: self.path.to_path_buf(),
                line: Some(line),
            },
            message,
        });
    }

    fn event(&mut self, key: &Spanned<Loose>, value: Spanned<EventValue>) {
        let line = key.referenced.line();
        let Loose::Str(name) = &key.value else {
            self.warn(
                WarningKind::UnknownEvent,
                line,
                format!("unknown hook event {} in hooks:", key.value),
            );
            return;
        };
        if RESERVED_KEYS.contains(&name.as_str()) {
            return;
        }
        let resolved = match Event::parse(name) {
            Ok(resolved) => resolved,
            Err(unknown) => {
                self.warn(
                    WarningKind::UnknownEvent,
                    line,
                    format!("{unknown} in hooks: (skipped)"),
                );
                return;
            }
        };
        let event = resolved.event;
        if event.def().plugin_only {
            self.warn(
                WarningKind::Refused,
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
        if let Some(current) = resolved.legacy_for {
            self.warn(
                WarningKind::LegacyName,
                line,
                format!("'{name}' is a legacy event name; use '{current}'"),
            );
        }
        match value.value {
            EventValue::Null => {}
            EventValue::Other(kind) => self.warn(
                WarningKind::SkippedEntry,
                line,
                format!("hooks.{name} must be a list of hook definitions; got {kind} (skipped)"),
            ),
            EventValue::List(entries) => {
                for (index, entry) in entries.into_iter().enumerate() {
                    let line = entry.referenced.line();
                    if let Some(hook) = self.entry(name, index, event, line, entry.value) {
                        self.out.hooks.push(hook);
                    }
                }
            }
        }
    }

    fn entry(
        &mut self,
        key: &str,
        index: usize,
        event: Event,
        line: u64,
        entry: RawEntry,
    ) -> Option<HookSpec> {
        let at = format!("hooks.{key}[{index}]");
        let fields = match entry {
            RawEntry::Fields(fields) => fields,
            RawEntry::Other(kind) => {
                self.warn(
                    WarningKind::SkippedEntry,
                    line,
                    format!("{at} must be a mapping with a 'command' key; got {kind} (skipped)"),
                );
                return None;
            }
        };
        let command = match &fields.command {
            Some(Loose::Str(command)) if !command.trim().is_empty() => command.trim().to_owned(),
            _ => {
                self.warn(
                    WarningKind::SkippedEntry,
                    line,
                    format!("{at} is missing a non-empty 'command' field (skipped)"),
                );
                return None;
            }
        };
        let matcher = self.matcher(&at, event, line, fields.matcher.as_ref());
        let timeout = self.timeout(&at, line, fields.timeout.as_ref());
        let fail_closed = self.fail_closed(&at, event, line, &fields);
        let name = script_word(&command).map_or_else(
            || command.clone(),
            |word| {
                Path::new(&word)
                    .file_name()
                    .map_or(word.clone(), |name| name.to_string_lossy().into_owned())
            },
        );
        let origin = Origin {
            file: self.path.to_path_buf(),
            line: Some(line),
        };
        Some(HookSpec {
            matcher,
            timeout,
            fail_closed,
            ..HookSpec::new(event, SourceKind::Config, name, command, origin)
        })
    }

    fn matcher(
        &mut self,
        at: &str,
        event: Event,
        line: u64,
        raw: Option<&Loose>,
    ) -> Option<Matcher> {
        let pattern = match raw {
            None | Some(Loose::Null) => return None,
            Some(Loose::Str(pattern)) => pattern.trim(),
            Some(_) => {
                self.warn(
                    WarningKind::IgnoredMatcher,
                    line,
                    format!("{at}.matcher must be a string regex; ignoring it"),
                );
                return None;
            }
        };
        if pattern.is_empty() {
            return None;
        }
        if !event.is_tool_event() {
            self.warn(
                WarningKind::IgnoredMatcher,
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
                line,
                format!(
                    "{at}.matcher '{pattern}' is not a valid regex ({reason}); matching the tool \
                     name by literal equality"
                ),
            );
        }
        Some(matcher)
    }

    fn timeout(&mut self, at: &str, line: u64, raw: Option<&Loose>) -> Duration {
        let default = Duration::from_secs(DEFAULT_TIMEOUT_SECS);
        let Some(raw) = raw else { return default };
        let Some(seconds) = raw.as_python_int() else {
            self.warn(
                WarningKind::InvalidValue,
                line,
                format!(
                    "{at}.timeout must be an integer (got {raw}); using {DEFAULT_TIMEOUT_SECS}s"
                ),
            );
            return default;
        };
        if seconds < 1 {
            self.warn(
                WarningKind::ClampedTimeout,
                line,
                format!("{at}.timeout must be >= 1; using {DEFAULT_TIMEOUT_SECS}s"),
            );
            return default;
        }
        let seconds = seconds.unsigned_abs();
        if seconds > MAX_TIMEOUT_SECS {
            self.warn(
                WarningKind::ClampedTimeout,
                line,
                format!(
                    "{at}.timeout={seconds}s exceeds the maximum; clamped to {MAX_TIMEOUT_SECS}s"
                ),
            );
            return Duration::from_secs(MAX_TIMEOUT_SECS);
        }
        Duration::from_secs(seconds)
    }

    fn fail_closed(&mut self, at: &str, event: Event, line: u64, fields: &RawFields) -> bool {
        let Some(raw) = fields
            .fail_closed
            .as_ref()
            .or(fields.fail_closed_alias.as_ref())
        else {
            return false;
        };
        let Loose::Bool(wanted) = raw else {
            self.warn(
                WarningKind::InvalidValue,
                line,
                format!("{at}.fail_closed must be a boolean (got {raw}); failing open"),
            );
            return false;
        };
        if *wanted && !event.effects(SourceKind::Config).contains(Effects::BLOCK) {
            self.warn(
                WarningKind::InvalidValue,
                line,
                format!(
                    "{at}.fail_closed is ignored: config hooks can block only on pre_tool_call, so \
                     this hook fails open on {event}"
                ),
            );
            return false;
        }
        *wanted
    }
}

/// The parts of config.yaml this tool reads; everything else is skipped unread.
#[derive(Deserialize)]
struct RawFile {
    #[serde(default)]
    hooks: Option<Spanned<RawHooks>>,
    #[serde(default)]
    hooks_auto_accept: Option<Loose>,
}

/// The `hooks:` mapping in file order, or the type of what stands there instead.
enum RawHooks {
    Map(Vec<(Spanned<Loose>, Spanned<EventValue>)>),
    Other(&'static str),
}

/// The value under one event key.
enum EventValue {
    Null,
    List(Vec<Spanned<RawEntry>>),
    Other(&'static str),
}

/// One list item under an event.
enum RawEntry {
    Fields(RawFields),
    Other(&'static str),
}

/// The entry keys Hermes reads; others are ignored.
#[derive(Default)]
struct RawFields {
    command: Option<Loose>,
    matcher: Option<Loose>,
    timeout: Option<Loose>,
    fail_closed: Option<Loose>,
    fail_closed_alias: Option<Loose>,
}

impl<'de> Deserialize<'de> for RawHooks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct HooksVisitor;
        impl<'de> Visitor<'de> for HooksVisitor {
            type Value = RawHooks;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of event names to lists of hooks")
            }
            other_shapes!(RawHooks, RawHooks::Other);
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawHooks, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(RawHooks::Other("list"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawHooks, A::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<Spanned<Loose>>()? {
                    entries.push((key, map.next_value()?));
                }
                Ok(RawHooks::Map(entries))
            }
        }
        deserializer.deserialize_any(HooksVisitor)
    }
}

impl<'de> Deserialize<'de> for EventValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EventVisitor;
        impl<'de> Visitor<'de> for EventVisitor {
            type Value = EventValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of hook definitions")
            }
            other_shapes!(EventValue, EventValue::Other);
            fn visit_unit<E: de::Error>(self) -> Result<EventValue, E> {
                Ok(EventValue::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<EventValue, E> {
                Ok(EventValue::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<EventValue, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = seq.next_element()? {
                    entries.push(entry);
                }
                Ok(EventValue::List(entries))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EventValue, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(EventValue::Other("dict"))
            }
        }
        deserializer.deserialize_any(EventVisitor)
    }
}

impl<'de> Deserialize<'de> for RawEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntryVisitor;
        impl<'de> Visitor<'de> for EntryVisitor {
            type Value = RawEntry;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a hook definition")
            }
            other_shapes!(RawEntry, RawEntry::Other);
            fn visit_unit<E: de::Error>(self) -> Result<RawEntry, E> {
                Ok(RawEntry::Other("NoneType"))
            }
            fn visit_none<E: de::Error>(self) -> Result<RawEntry, E> {
                Ok(RawEntry::Other("NoneType"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawEntry, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(RawEntry::Other("list"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEntry, A::Error> {
                let mut fields = RawFields::default();
                while let Some(key) = map.next_key::<Loose>()? {
                    let name = if let Loose::Str(name) = &key {
                        name.as_str()
                    } else {
                        ""
                    };
                    let slot = match name {
                        "command" => &mut fields.command,
                        "matcher" => &mut fields.matcher,
                        "timeout" => &mut fields.timeout,
                        "fail_closed" => &mut fields.fail_closed,
                        "failClosed" => &mut fields.fail_closed_alias,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = Some(map.next_value()?);
                }
                Ok(RawEntry::Fields(fields))
            }
        }
        deserializer.deserialize_any(EntryVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_TIMEOUT_SECS, parse};
    use crate::config::Event;
    use std::path::Path;
    use std::time::Duration;

    fn load(yaml: &str) -> super::HermesConfig {
        parse(Path::new("config.yaml"), yaml.as_bytes(), None).unwrap()
    }

    fn warnings(yaml: &str) -> Vec<String> {
        load(yaml)
            .warnings
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn reads_entries_in_file_order() {
        let cfg = load(
            "model: x\nhooks:\n  pre_tool_call:\n    - matcher: ' terminal '\n      command: ~/a.sh --strict\n      timeout: 10\n      fail_closed: true\n    - command: b.sh\n  pre-agent-turn:\n    - command: /opt/c.sh\n",
        );
        assert!(cfg.warnings.is_empty(), "{:?}", cfg.warnings);
        let names: Vec<_> = cfg
            .hooks
            .iter()
            .map(|h| (h.event.name(), h.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("pre_tool_call", "a.sh"),
                ("pre_tool_call", "b.sh"),
                ("pre_llm_call", "c.sh")
            ]
        );
        let first = &cfg.hooks[0];
        assert_eq!(first.matcher.as_ref().unwrap().source(), "terminal");
        assert_eq!(first.timeout, Duration::from_secs(10));
        assert!(first.fail_closed);
        assert_eq!(first.origin.line, Some(4));
        assert_eq!(
            cfg.hooks[1].timeout,
            Duration::from_secs(DEFAULT_TIMEOUT_SECS)
        );
    }

    #[test]
    fn skipped_entries_name_file_and_line() {
        let w = warnings(
            "hooks:\n  pre_tool_call:\n    - just a string\n    - matcher: x\n    - command: '  '\n",
        );
        assert_eq!(
            w,
            [
                "config.yaml:3: hooks.pre_tool_call[0] must be a mapping with a 'command' key; got str (skipped)",
                "config.yaml:4: hooks.pre_tool_call[1] is missing a non-empty 'command' field (skipped)",
                "config.yaml:5: hooks.pre_tool_call[2] is missing a non-empty 'command' field (skipped)",
            ]
        );
    }

    #[test]
    fn unknown_events_suggest() {
        let w = warnings("hooks:\n  pre_tools_call:\n    - command: a.sh\n");
        assert_eq!(
            w,
            [
                "config.yaml:2: unknown event 'pre_tools_call' (did you mean 'pre_tool_call'?) in hooks: (skipped)"
            ]
        );
    }

    #[test]
    fn timeouts_follow_hermes() {
        let cfg = load(
            "hooks:\n  on_session_start:\n    - {command: a, timeout: 9999}\n    - {command: b, timeout: thirty}\n    - {command: c, timeout: 0}\n    - {command: d, timeout: '30'}\n    - {command: e, timeout: 2.5}\n",
        );
        let secs: Vec<_> = cfg.hooks.iter().map(|h| h.timeout.as_secs()).collect();
        assert_eq!(secs, [300, 60, 60, 30, 2]);
        assert_eq!(cfg.warnings.len(), 3);
    }

    #[test]
    fn matcher_rules() {
        let cfg = load(
            "hooks:\n  pre_llm_call:\n    - {command: a, matcher: terminal}\n  pre_tool_call:\n    - {command: b, matcher: 'foo[bar'}\n    - {command: c, matcher: 5}\n    - {command: d, matcher: '   '}\n",
        );
        assert!(cfg.hooks[0].matcher.is_none());
        assert!(cfg.hooks[1].matcher.as_ref().unwrap().is_literal());
        assert!(cfg.hooks[2].matcher.is_none());
        assert!(cfg.hooks[3].matcher.is_none());
        assert_eq!(cfg.warnings.len(), 3, "{:?}", cfg.warnings);
        assert!(cfg.warnings[0].message.contains("is ignored"));
    }

    #[test]
    fn fail_closed_rules() {
        let cfg = load(
            "hooks:\n  pre_tool_call:\n    - {command: a, failClosed: true}\n    - {command: b, fail_closed: false, failClosed: true}\n    - {command: c, fail_closed: 'yes'}\n  on_session_start:\n    - {command: d, fail_closed: true}\n",
        );
        let fc: Vec<_> = cfg.hooks.iter().map(|h| h.fail_closed).collect();
        assert_eq!(fc, [true, false, false, false]);
        assert_eq!(cfg.warnings.len(), 2);
    }

    #[test]
    fn reserved_and_plugin_only_keys() {
        let cfg = load(
            "hooks:\n  output_spill: {max: 1}\n  outbound: [1]\n  transform_api_error_classification:\n    - command: a\n",
        );
        assert!(cfg.hooks.is_empty());
        assert_eq!(cfg.warnings.len(), 1);
        assert!(cfg.warnings[0].message.contains("Python-plugin-only"));
    }

    #[test]
    fn values_that_are_not_lists_warn() {
        let w = warnings("hooks:\n  pre_tool_call: a.sh\n  post_tool_call:\n");
        assert_eq!(
            w,
            [
                "config.yaml:2: hooks.pre_tool_call must be a list of hook definitions; got str (skipped)"
            ]
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let err = parse(Path::new("c.yaml"), b"hooks: [1, 2]\n", None).unwrap_err();
        assert!(err.to_string().starts_with("c.yaml:1:8: "), "{err}");
        let err = parse(Path::new("c.yaml"), b"a: b\n  c: d: e\n", None).unwrap_err();
        assert!(err.to_string().starts_with("c.yaml:2:4: "), "{err}");
        let err = parse(Path::new("c.yaml"), b"a: 1\nb: \xff\n", None).unwrap_err();
        assert_eq!(err.to_string(), "c.yaml:2: not valid UTF-8");
    }

    #[test]
    fn an_error_anywhere_in_the_file_stops_every_command() {
        let event = Event::parse("pre_tool_call").unwrap().event;
        let text = b"providers:\n  a: : :\nhooks:\n  pre_tool_call:\n    - command: a.sh\n";
        assert!(parse(Path::new("c.yaml"), text, Some(event)).is_err());
        assert!(parse(Path::new("c.yaml"), text, None).is_err());
    }

    #[test]
    fn empty_and_null_declare_nothing() {
        for yaml in ["", "hooks:\n", "model: x\n", "\u{feff}hooks: ~\n"] {
            let cfg = load(yaml);
            assert!(cfg.hooks.is_empty() && cfg.warnings.is_empty(), "{yaml:?}");
        }
    }

    #[test]
    fn auto_accept_spellings() {
        assert!(load("hooks_auto_accept: true\n").auto_accept);
        assert!(load("hooks_auto_accept: '  TRUE  '\n").auto_accept);
        assert!(!load("hooks_auto_accept: 1\n").auto_accept);
        assert!(!load("hooks_auto_accept: 'no'\n").auto_accept);
    }

    #[test]
    fn only_builds_the_requested_event() {
        let event = Event::parse("pre_llm_call").unwrap().event;
        let cfg = parse(
            Path::new("c.yaml"),
            b"hooks:\n  pre_tool_call:\n    - 42\n  pre_llm_call:\n    - command: a\n  typo_event: []\n",
            Some(event),
        )
        .unwrap();
        assert_eq!(cfg.hooks.len(), 1);
        assert_eq!(
            cfg.warnings.len(),
            1,
            "only the unknown key warns: {:?}",
            cfg.warnings
        );
    }
}
