//! Gateway and plugin hooks (Hermes runs them in-process): their manifest, handler, events and
//! required environment. Checked, never run.

use std::path::Path;

use super::{Finding, Level};
use crate::config::in_process;

/// Gateway and plugin hooks: checked, never run.
pub(super) fn check(home: &Path, findings: &mut Vec<Finding>) {
    for hook in in_process::load(home) {
        let mut add = |level, check, message: String| {
            findings.push(Finding {
                level,
                check,
                event: None,
                hook: Some(hook.name.clone()),
                source: Some(hook.source.as_str()),
                at: hook.manifest.display().to_string(),
                message,
                diff: None,
                awaits_approval: false,
            });
        };
        if let Some(reason) = &hook.broken {
            add(
                Level::Error,
                "manifest",
                format!("cannot be read: {reason}"),
            );
            continue;
        }
        let handler = hook.handler.display();
        if hook.handler.is_file() {
            add(
                Level::Ok,
                "handler",
                format!("{handler} is present (Hermes runs it in-process)"),
            );
        } else {
            add(
                Level::Error,
                "handler",
                format!("{handler} is missing, so Hermes skips this hook"),
            );
        }
        if hook.events.is_empty() {
            add(Level::Warning, "events", "declares no events".to_owned());
        }
        for event in hook.unknown_events() {
            let hint = crate::config::Event::parse(event)
                .err()
                .and_then(|unknown| unknown.suggestion)
                .map_or_else(String::new, |s| format!(" (did you mean '{s}'?)"));
            add(
                Level::Warning,
                "events",
                format!("'{event}' is not an event Hermes fires{hint}"),
            );
        }
        for name in &hook.requires_env {
            if crate::ground::env::var_os(name).is_none() {
                add(
                    Level::Warning,
                    "requires_env",
                    format!("{name} is not set, so Hermes disables this plugin"),
                );
            }
        }
    }
}
