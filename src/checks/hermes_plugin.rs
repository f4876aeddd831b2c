//! Hermes's native path: whether the plugin `install hermes` writes is installed, enabled and of
//! this binary's version; the Agent Hooks that could rewrite a tool call but reach Hermes only
//! through the bridge (which drops a rewrite); and `pre_tool_call` hooks slower than Hermes
//! lets a plugin callback be.

use std::path::Path;
use std::time::Duration;

use super::{Finding, Level};
use crate::agents::plugin::{self, Installed};
use crate::config::{Effects, Event, HookSet, HookSpec, Source, SourceKind};

/// Every finding about the plugin and the hooks it runs.
pub(super) fn check(home: &Path, config: &Path, set: &HookSet, findings: &mut Vec<Finding>) {
    let folder = plugin::folder(home);
    let native = match plugin::installed(home) {
        Installed::Absent => {
            if set
                .hooks
                .iter()
                .any(|h| h.source.kind() == SourceKind::AgentHooks)
            {
                findings.push(Finding::file(
                    Level::Note,
                    "plugin",
                    &folder,
                    format!(
                        "the Hermes plugin is not installed: `hermes-hooks install hermes` runs \
                         the Agent Hooks inside Hermes with every effect Hermes allows ({})",
                        plugin::ENABLE
                    ),
                ));
            }
            false
        }
        Installed::At(version) => installed(&folder, version.as_deref(), config, findings),
    };
    if native {
        twice(set, findings);
    } else {
        bridged_rewrites(set, findings);
    }
    slow_guards(config, set, findings);
}

/// The bridge left in config.yaml beside an enabled plugin: both run the Agent Hooks of its
/// events, so each of them runs twice a call (a guard's side effects twice, its time twice).
fn twice(set: &HookSet, findings: &mut Vec<Finding>) {
    for hook in &set.hooks {
        if hook.source.kind() != SourceKind::Config
            || !crate::engine::runner::is_bridge(&hook.command)
        {
            continue;
        }
        let runs_any = set
            .hooks
            .iter()
            .any(|h| h.event == hook.event && h.source.kind() == SourceKind::AgentHooks);
        if !runs_any {
            continue;
        }
        findings.push(hook_finding(
            Level::Warning,
            hook,
            format!(
                "the bridge for {} is still in config.yaml while the plugin is enabled: both run                  the Agent Hooks of that event, so each runs twice a call; take this entry out",
                hook.event.name()
            ),
        ));
    }
}

/// The plugin's version and whether Hermes loads it; whether it runs the hooks.
fn installed(
    folder: &Path,
    version: Option<&str>,
    config: &Path,
    findings: &mut Vec<Finding>,
) -> bool {
    match version {
        Some(plugin::VERSION) => findings.push(Finding::file(
            Level::Ok,
            "plugin",
            folder,
            format!(
                "the Hermes plugin is installed, version {}",
                plugin::VERSION
            ),
        )),
        other => findings.push(Finding::file(
            Level::Warning,
            "plugin",
            folder,
            format!(
                "the Hermes plugin is version {}, this binary {}: run `hermes-hooks install \
                 hermes` so they match",
                other.unwrap_or("unknown"),
                plugin::VERSION
            ),
        )),
    }
    match plugin::enabled(config) {
        Some(true) => {
            findings.push(Finding::file(
                Level::Ok,
                "plugin",
                config,
                format!("plugins.enabled lists {}", plugin::NAME),
            ));
            true
        }
        Some(false) => {
            findings.push(Finding::file(
                Level::Warning,
                "plugin",
                config,
                format!(
                    "the Hermes plugin is installed but not enabled, so Hermes does not load \
                     it: run `{}`",
                    plugin::ENABLE
                ),
            ));
            false
        }
        None => {
            findings.push(Finding::file(
                Level::Warning,
                "plugin",
                config,
                format!(
                    "cannot tell whether plugins.enabled lists {} (the file or that key cannot \
                     be read)",
                    plugin::NAME
                ),
            ));
            false
        }
    }
}

/// Agent Hooks that may rewrite a tool call on an event Hermes reaches only through the
/// bridge: Hermes reads a block and context from a shell hook, never a rewrite.
fn bridged_rewrites(set: &HookSet, findings: &mut Vec<Finding>) {
    for hook in &set.hooks {
        if !matches!(hook.source, Source::AgentHooks(_))
            || !hook.effects().contains(Effects::MODIFY)
            || !bridged(set, hook.event)
        {
            continue;
        }
        findings.push(hook_finding(
            Level::Warning,
            hook,
            format!(
                "can rewrite the {} call, but it reaches Hermes only through the bridge, which \
                 drops a rewrite (only a block or context gets through): `hermes-hooks install \
                 hermes` runs it through the plugin, where the rewrite applies",
                hook.event.name()
            ),
        ));
    }
}

/// Whether a config hook of `event` is the bridge (`hermes-hooks run ...`).
fn bridged(set: &HookSet, event: Event) -> bool {
    set.hooks.iter().any(|h| {
        h.event == event
            && h.source.kind() == SourceKind::Config
            && crate::engine::runner::is_bridge(&h.command)
    })
}

/// `pre_tool_call` hooks, of either source, whose timeout is longer than newer Hermes waits for
/// one callback. Config hooks are such callbacks themselves (Hermes's default `timeout`, 60 s,
/// is above the default bound); Agent Hooks reach Hermes through one (the bridge or the plugin).
/// Past the bound Hermes blocks the call, and every call after it while that callback stays
/// suppressed (60 s), whatever the hook's `timeout` and `fail_closed` say.
fn slow_guards(config: &Path, set: &HookSet, findings: &mut Vec<Finding>) {
    let Some(bound) = plugin::callback_bound(config) else {
        return;
    };
    for hook in set
        .hooks
        .iter()
        .filter(|h| h.event.name() == "pre_tool_call" && h.timeout > bound)
    {
        let fix = match hook.source.kind() {
            SourceKind::Config => "set `timeout:` to that or less",
            SourceKind::AgentHooks => "set `timeout:` (milliseconds) to that or less",
            SourceKind::Rules | SourceKind::Gateway | SourceKind::Plugin => continue,
        };
        findings.push(hook_finding(
            Level::Warning,
            hook,
            format!(
                "its timeout ({}) is above the {} newer Hermes waits for a pre_tool_call \
                 callback (plugins.hook_callback_timeout): past it Hermes blocks the call, and \
                 the calls after it for a minute, whatever the hook would answer; {fix}, or \
                 raise that setting",
                seconds(hook.timeout),
                seconds(bound),
            ),
        ));
    }
}

/// A duration as the messages say it: `60s`, `7.5s`.
fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0}s")
    } else {
        format!("{secs}s")
    }
}

fn hook_finding(level: Level, hook: &HookSpec, message: String) -> Finding {
    Finding {
        level,
        check: "plugin",
        event: Some(hook.event.name()),
        hook: Some(hook.command.to_string()),
        source: Some(hook.source.as_str()),
        at: hook.origin.to_string(),
        message,
        diff: None,
        awaits_approval: false,
    }
}
