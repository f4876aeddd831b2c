//! Reading one HOOK.md's frontmatter, field by field: each value checked with a message that
//! names the file and line, a problem that makes the hook unusable skipping it, a softer one a
//! warning while the hook still loads.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use serde_saphyr::Spanned;

use super::super::yaml::{self, Loose, NoFrontmatter};
use super::super::{
    AgentHook, Effects, Event, HookSpec, Origin, Scope, Source, SourceKind, Warning, WarningKind,
};
use super::{
    DEFAULT_PRIORITY, DEFAULT_TIMEOUT_MS, MAX_PRIORITY, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, entry_of,
    warning,
};
use crate::matcher::Matcher;

pub(super) struct Reader<'a> {
    pub(super) file: &'a Path,
    pub(super) warnings: &'a mut Vec<Warning>,
}

impl Reader<'_> {
    pub(super) fn soft(&mut self, line: u64, message: String) {
        self.warnings.push(warning(
            self.file,
            Some(line),
            WarningKind::InvalidValue,
            message,
        ));
    }

    pub(super) fn skip(&mut self, line: Option<u64>, message: &str) {
        self.warnings.push(warning(
            self.file,
            line,
            WarningKind::SkippedEntry,
            format!("{message}; the hook is skipped"),
        ));
    }

    /// The frontmatter text, or a skip warning.
    pub(super) fn frontmatter<'t>(&mut self, text: &'t str) -> Option<&'t str> {
        match yaml::frontmatter(text) {
            Ok(yaml) => Some(yaml),
            Err(NoFrontmatter::Missing) => {
                self.skip(
                    Some(1),
                    "no YAML frontmatter: HOOK.md must start with a '---' line",
                );
                None
            }
            Err(NoFrontmatter::Unclosed) => {
                self.skip(
                    Some(1),
                    "the frontmatter never closes: no second '---' line",
                );
                None
            }
        }
    }

    pub(super) fn parse(&mut self, text: &str) -> Option<RawHookMd> {
        match yaml::parse::<Option<RawHookMd>>(text) {
            Ok(Some(raw)) => Some(raw),
            Ok(None) => {
                self.skip(
                    Some(2),
                    "the frontmatter is empty (it needs at least a trigger)",
                );
                None
            }
            Err(err) => {
                // The frontmatter starts on the file's second line.
                let line = err
                    .at
                    .map(|(line, _)| u64::try_from(line).unwrap_or(u64::MAX).saturating_add(1));
                self.skip(
                    line,
                    &format!("the frontmatter is not valid YAML: {}", err.message),
                );
                None
            }
        }
    }

    pub(super) fn hook(
        &mut self,
        raw: RawHookMd,
        folder: &Path,
        folder_name: &str,
        scope: Scope,
        only: Option<Event>,
        declared_event: &mut Option<Event>,
    ) -> Option<HookSpec> {
        let line = |spanned: &Spanned<Loose>| spanned.referenced.line() + 1;
        let Some(trigger) = raw.trigger else {
            self.skip(Some(1), "no trigger: name the event that runs this hook (for example `trigger: pre-tool-call`)");
            return None;
        };
        let Loose::Str(trigger_name) = &trigger.value else {
            self.skip(
                Some(line(&trigger)),
                &format!("trigger must be an event name, not {}", trigger.value),
            );
            return None;
        };
        let resolved = match Event::parse(trigger_name.trim()) {
            Ok(resolved) => resolved,
            Err(unknown) => {
                self.skip(Some(line(&trigger)), &format!("trigger: {unknown}"));
                return None;
            }
        };
        let event = resolved.event;
        *declared_event = Some(event);
        if only.is_some_and(|only| only != event) {
            return None;
        }
        if let Some(current) = resolved.legacy_for {
            self.warnings.push(warning(
                self.file,
                Some(line(&trigger)),
                WarningKind::LegacyName,
                format!("trigger '{trigger_name}' is a legacy event name; use '{current}'"),
            ));
        } else if resolved.claude_code {
            self.warnings.push(warning(
                self.file,
                Some(line(&trigger)),
                WarningKind::ForeignName,
                format!(
                    "trigger '{trigger_name}' is Claude Code's name; other Agent Hooks runners \
                     know it as '{}'",
                    resolved.agent_name()
                ),
            ));
        }
        let name = self.name(raw.name.as_ref(), folder_name)?;
        let description = self.description(raw.description.as_ref());
        self.metadata(raw.metadata.as_ref());
        let timeout = self.timeout(raw.timeout.as_ref());
        let priority = self.priority(raw.priority.as_ref());
        let run_async = self.flag(raw.run_async.as_ref(), "async");
        let mut fail_closed = self.flag(raw.fail_closed.as_ref(), "fail_closed");
        if fail_closed
            && !event
                .effects(SourceKind::AgentHooks)
                .contains(Effects::BLOCK)
        {
            self.soft(
                1,
                format!("fail_closed is ignored: a hook cannot block on {event}"),
            );
            fail_closed = false;
        }
        let (matcher, pattern) = self.matchers(raw.matcher.as_ref(), event);
        let (entry, argv) = entry_of(folder);
        let origin = Origin {
            file: std::sync::Arc::from(self.file),
            line: Some(1),
        };
        let command = entry.to_string_lossy().into_owned();
        let source = Source::AgentHooks(Box::new(AgentHook {
            entry,
            argv,
            pattern,
            run_async,
            on_failure: resolved.is_failure(),
            scope,
            priority,
            description,
            manifest_sha256: None,
            stand_in: None,
        }));
        Some(HookSpec {
            matcher: matcher.map(Box::new),
            timeout,
            fail_closed,
            ..HookSpec::new(event, source, name, command, origin)
        })
    }

    /// The hook's name: the one declared, else its folder's. `None` (skipped, with the reason)
    /// for a name that begins with `-`.
    pub(super) fn name(
        &mut self,
        raw: Option<&Spanned<Loose>>,
        folder_name: &str,
    ) -> Option<String> {
        let Some((Loose::Str(name), at)) = raw.map(|r| (&r.value, r.referenced)) else {
            let line = raw.map_or(1, |r| r.referenced.line() + 1);
            if self.flag_like(line, folder_name) {
                return None;
            }
            let problem = match raw {
                Some(Spanned { value, .. }) if !matches!(value, Loose::Null) => {
                    format!("name must be a string of 1 to 64 characters (got {value})")
                }
                _ => "no name".to_owned(),
            };
            self.soft(
                line,
                format!("{problem}; using the folder name '{folder_name}'"),
            );
            return Some(folder_name.to_owned());
        };
        let line = at.line() + 1;
        let name = name.trim();
        if self.flag_like(line, if name.is_empty() { folder_name } else { name }) {
            return None;
        }
        if name.is_empty() || name.chars().count() > 64 {
            self.soft(line, "name must be 1 to 64 characters".to_owned());
        } else if !super::super::glance::is_spec_name(name) {
            self.soft(
                line,
                format!("name '{name}' should be lowercase letters, digits and single hyphens"),
            );
        } else if name != folder_name {
            self.soft(
                line,
                format!("name '{name}' should equal its folder name '{folder_name}'"),
            );
        }
        Some(if name.is_empty() {
            folder_name.to_owned()
        } else {
            name.to_owned()
        })
    }

    /// Skips a hook whose name begins with `-`: on a command line it reads as an option, and
    /// `approve --yes` (offered by completion, or typed) approves every hook.
    pub(super) fn flag_like(&mut self, line: u64, name: &str) -> bool {
        if !name.starts_with('-') {
            return false;
        }
        self.skip(
            Some(line),
            &format!(
                "the name '{name}' begins with '-', so `approve` and `revoke` would read it as an \
                 option (`approve --yes` approves every hook); give the hook a name that begins \
                 with a letter or digit (and its folder the same name)"
            ),
        );
        true
    }

    /// The description, when it is one (1 to 1024 characters, trimmed); a warning otherwise.
    pub(super) fn description(&mut self, raw: Option<&Spanned<Loose>>) -> Option<String> {
        match raw {
            Some(Spanned {
                value: Loose::Str(text),
                referenced,
                ..
            }) => {
                let chars = text.trim().chars().count();
                if chars == 0 || chars > 1024 {
                    self.soft(
                        referenced.line() + 1,
                        "description must be 1 to 1024 characters".to_owned(),
                    );
                    return None;
                }
                return Some(text.trim().to_owned());
            }
            Some(Spanned {
                value, referenced, ..
            }) if !matches!(value, Loose::Null) => self.soft(
                referenced.line() + 1,
                format!("description must be a string of 1 to 1024 characters (got {value})"),
            ),
            _ => self.soft(
                1,
                "no description: say what the hook does (1 to 1024 characters)".to_owned(),
            ),
        }
        None
    }

    /// `metadata`: a mapping of strings to strings (the spec's "additional metadata"), which this
    /// tool keeps out of the way. Anything else is a warning naming the line; the hook still
    /// loads.
    pub(super) fn metadata(&mut self, raw: Option<&Spanned<Metadata>>) {
        let Some(raw) = raw else { return };
        match &raw.value {
            Metadata::Map(entries) => {
                for (key, value) in entries {
                    if !matches!(value.value, Loose::Str(_)) {
                        self.soft(
                            value.referenced.line() + 1,
                            format!(
                                "metadata.{key} must be a string (got {}); quote it",
                                value.value
                            ),
                        );
                    }
                }
            }
            Metadata::Other(Loose::Null) => {}
            Metadata::Other(other) => self.soft(
                raw.referenced.line() + 1,
                format!(
                    "metadata must be a mapping of names to strings, not a {}; it is ignored",
                    other.type_name()
                ),
            ),
        }
    }

    pub(super) fn timeout(&mut self, raw: Option<&Spanned<Loose>>) -> Duration {
        let Some(raw) = raw else {
            return Duration::from_millis(DEFAULT_TIMEOUT_MS);
        };
        let line = raw.referenced.line() + 1;
        let Some(ms) = raw.value.as_python_int() else {
            self.soft(
                line,
                format!(
                    "timeout must be milliseconds (got {}); using {DEFAULT_TIMEOUT_MS}",
                    raw.value
                ),
            );
            return Duration::from_millis(DEFAULT_TIMEOUT_MS);
        };
        let clamped = ms.clamp(
            i64::try_from(MIN_TIMEOUT_MS).unwrap_or(100),
            i64::try_from(MAX_TIMEOUT_MS).unwrap_or(600_000),
        );
        if clamped != ms {
            self.warnings.push(warning(
                self.file,
                Some(line),
                WarningKind::ClampedTimeout,
                format!("timeout {ms} ms is outside {MIN_TIMEOUT_MS}..{MAX_TIMEOUT_MS}; using {clamped} ms"),
            ));
        }
        Duration::from_millis(clamped.unsigned_abs())
    }

    pub(super) fn priority(&mut self, raw: Option<&Spanned<Loose>>) -> u16 {
        let Some(raw) = raw else {
            return DEFAULT_PRIORITY;
        };
        let line = raw.referenced.line() + 1;
        let Some(value) = raw.value.as_python_int() else {
            self.soft(
                line,
                format!(
                    "priority must be a number (got {}); using {DEFAULT_PRIORITY}",
                    raw.value
                ),
            );
            return DEFAULT_PRIORITY;
        };
        let clamped = value.clamp(0, i64::from(MAX_PRIORITY));
        if clamped != value {
            self.soft(
                line,
                format!("priority {value} is outside 0..{MAX_PRIORITY}; using {clamped}"),
            );
        }
        u16::try_from(clamped).unwrap_or(DEFAULT_PRIORITY)
    }

    pub(super) fn flag(&mut self, raw: Option<&Spanned<Loose>>, key: &str) -> bool {
        match raw.map(|r| &r.value) {
            None => false,
            Some(Loose::Bool(value)) => *value,
            Some(other) => {
                let line = raw.map_or(1, |r| r.referenced.line() + 1);
                self.soft(
                    line,
                    format!("{key} must be true or false (got {other}); using false"),
                );
                false
            }
        }
    }

    pub(super) fn matchers(
        &mut self,
        raw: Option<&Spanned<Loose>>,
        event: Event,
    ) -> (Option<Matcher>, Option<Matcher>) {
        let Some(raw) = raw else { return (None, None) };
        let line = raw.referenced.line() + 1;
        let (tool, pattern) = match &raw.value {
            Loose::Null => (None, None),
            map @ Loose::Map(_) => (map.get("tool"), map.get("pattern")),
            other => {
                let kind = other.type_name();
                self.warnings.push(warning(self.file, Some(line), WarningKind::IgnoredMatcher, format!("matcher must be a mapping with tool and/or pattern, not a {kind}; ignoring it")));
                return (None, None);
            }
        };
        if (tool.is_some() || pattern.is_some()) && !event.is_tool_event() {
            self.warnings.push(warning(self.file, Some(line), WarningKind::IgnoredMatcher, format!("matcher is ignored: it applies only to tool events; the hook runs on every {event} event")));
            return (None, None);
        }
        let mut compile = |raw: Option<&Loose>, key: &str, search: bool| -> Option<Matcher> {
            let text = match raw {
                None | Some(Loose::Null) => return None,
                Some(Loose::Str(text)) if !text.trim().is_empty() => text.trim(),
                Some(other) => {
                    self.warnings.push(warning(
                        self.file,
                        Some(line),
                        WarningKind::IgnoredMatcher,
                        format!("matcher.{key} must be a regex string (got {other}); ignoring it"),
                    ));
                    return None;
                }
            };
            let (matcher, invalid) = if search {
                Matcher::compile_search(text)
            } else {
                Matcher::compile(text)
            };
            if let Some(reason) = invalid {
                let fallback = if search {
                    "substring search"
                } else {
                    "literal equality"
                };
                self.warnings.push(warning(
                    self.file,
                    Some(line),
                    WarningKind::LiteralMatcher,
                    format!(
                        "matcher.{key} '{text}' is not a valid regex ({reason}); using {fallback}"
                    ),
                ));
            }
            Some(matcher)
        };
        (
            compile(tool, "tool", false),
            compile(pattern, "pattern", true),
        )
    }
}

/// The frontmatter keys this tool reads; others are ignored.
#[derive(Deserialize)]
pub(super) struct RawHookMd {
    #[serde(default)]
    pub(super) name: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) description: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) trigger: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) matcher: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) timeout: Option<Spanned<Loose>>,
    #[serde(default, rename = "async")]
    pub(super) run_async: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) priority: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) fail_closed: Option<Spanned<Loose>>,
    #[serde(default)]
    pub(super) metadata: Option<Spanned<Metadata>>,
}

/// The frontmatter's `metadata`: its entries, each value with its place, or what it is instead
/// of a mapping.
pub(super) enum Metadata {
    /// A mapping: each key (as text) with its value.
    Map(Vec<(String, Spanned<Loose>)>),
    /// Not a mapping.
    Other(Loose),
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MetadataVisitor)
    }
}

pub(super) struct MetadataVisitor;

impl<'de> serde::de::Visitor<'de> for MetadataVisitor {
    type Value = Metadata;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a mapping of names to strings")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Metadata, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Loose>()? {
            let value = map.next_value::<Spanned<Loose>>()?;
            let key = match key {
                Loose::Str(key) => key,
                other => other.to_string(),
            };
            entries.push((key, value));
        }
        Ok(Metadata::Map(entries))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Metadata, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Metadata::Other(Loose::List))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Null))
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Null))
    }
    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Bool(value)))
    }
    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Int(value)))
    }
    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Int(
            i64::try_from(value).unwrap_or(i64::MAX),
        )))
    }
    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Float(value)))
    }
    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Str(value.to_owned())))
    }
}
