//! Tool matchers that no wired agent meets: a hook whose `tool:` names no tool of any agent
//! wired here never runs there.

use super::super::{Finding, Level};
use crate::agents::Agent;
use crate::config::{HookSet, HookSpec};

/// Warns about tool matchers that match no tool name (and, for Agent Hooks, no class) of any
/// wired agent: such a guard never sees a call. Only once an agent other than Hermes is wired: Hermes alone has tools this table does not
/// list (its plugins', say).
pub(super) fn matchers(set: &HookSet, wired: &[Agent], findings: &mut Vec<Finding>) {
    if !wired.iter().any(|agent| !agent.is_hermes()) {
        return;
    }
    for hook in set.hooks.iter().filter(|h| h.event.is_tool_event()) {
        let Some(shown) = crate::config::rules::tool_shown(hook)
            .or_else(|| hook.matcher.as_deref().map(crate::matcher::Matcher::source))
        else {
            continue;
        };
        let (blind, seen): (Vec<Agent>, Vec<Agent>) =
            wired.iter().partition(|agent| !meets(hook, **agent));
        if blind.is_empty() {
            continue;
        }
        let titles = |agents: &[Agent]| {
            agents
                .iter()
                .map(|a| a.title())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let message = if seen.is_empty() {
            let classes = if hook.agent().is_some() || hook.rule().is_some() {
                " nor a tool class (shell, edit, write, read, search, web)"
            } else {
                "; a Hermes config matcher matches tool names only"
            };
            format!(
                "the matcher `{shown}` matches no built-in tool of the wired agents ({}){classes}: \
                 this hook never sees their calls (MCP tools aside)",
                titles(&blind)
            )
        } else {
            format!(
                "the matcher `{shown}` meets no tool of {}, so this hook never runs there (it \
                 meets {}'s); a tool class (`tool: shell` in a HOOK.md or a rule) meets every \
                 agent's tool of its kind",
                titles(&blind),
                titles(&seen)
            )
        };
        findings.push(Finding {
            level: Level::Warning,
            check: "tools",
            event: Some(hook.event.name()),
            hook: Some(hook.command.to_string()),
            source: Some(hook.source.as_str()),
            at: hook.origin.to_string(),
            message,
            diff: None,
            awaits_approval: false,
        });
    }
}

/// Whether `hook` can see a call of one of `agent`'s built-in tools: its rule's tool class, or
/// its matcher on a tool's name (an Agent Hooks matcher on its class too).
pub(super) fn meets(hook: &HookSpec, agent: Agent) -> bool {
    if let Some(class) = hook.rule().and_then(|rule| rule.tool_class) {
        return agent
            .tools()
            .iter()
            .any(|(_, of)| of.is_some_and(|of| of.as_str() == class));
    }
    let Some(matcher) = &hook.matcher else {
        return true;
    };
    agent.tools().iter().any(|(name, class)| {
        matcher.matches(Some(name))
            || hook.agent().is_some()
                && class.is_some_and(|class| matcher.matches(Some(class.as_str())))
    })
}
