//! For `test`: where the call names its tool and no hook of the event meets it, which tools each
//! hook's matcher does meet, agent by agent, so a guard written for one agent's tool names
//! (Hermes's `terminal`) is not taken for one that guards another's (Claude Code's `Bash`).

use serde::Serialize;

use crate::agents::Agent;
use crate::config::HookSpec;
use crate::engine::response::Status;
use crate::engine::runner::RunReport;
use crate::output::Screen;

/// No hook met the tool: the tool, and each hook's matcher with what it meets.
#[derive(Serialize)]
pub(super) struct Unmet<'a> {
    pub tool: &'a str,
    pub hooks: Vec<UnmetHook<'a>>,
}

/// One hook that passed over the call.
#[derive(Serialize)]
pub(super) struct UnmetHook<'a> {
    pub name: &'a str,
    /// Its matcher as written (a tool class, or a pattern for the tool's name).
    pub matcher: String,
    /// The tools it meets, `Agent: tool, tool`, for each agent with one.
    pub meets: Vec<String>,
}

/// What [`Unmet`] says, when every hook of `report` passed over a call of `tool`.
pub(super) fn unmet<'a>(
    specs: &'a [HookSpec],
    report: &RunReport,
    tool: &'a str,
) -> Option<Unmet<'a>> {
    if report.hooks.is_empty()
        || !report
            .hooks
            .iter()
            .all(|hook| hook.status == Status::NotMatched)
    {
        return None;
    }
    let hooks = report
        .hooks
        .iter()
        .map(|hook| {
            let spec = &specs[hook.index];
            UnmetHook {
                name: &spec.name,
                matcher: crate::config::rules::tool_shown(spec)
                    .or_else(|| spec.matcher.as_deref().map(crate::matcher::Matcher::source))
                    .unwrap_or("(any tool)")
                    .to_owned(),
                meets: meets(spec),
            }
        })
        .collect();
    Some(Unmet { tool, hooks })
}

/// The tools of each agent `spec` meets, `Agent: tool, tool`.
fn meets(spec: &HookSpec) -> Vec<String> {
    let class = spec.rule().and_then(|rule| rule.tool_class);
    Agent::ALL
        .into_iter()
        .filter_map(|agent| {
            let tools: Vec<&str> = agent
                .tools()
                .iter()
                .filter(|(name, of)| match class {
                    Some(class) => of.is_some_and(|of| of.as_str() == class),
                    None => spec.matches_tool(Some(name)),
                })
                .map(|(name, _)| *name)
                .collect();
            (!tools.is_empty()).then(|| format!("{}: {}", agent.title(), tools.join(", ")))
        })
        .collect()
}

/// The lines that say it, when there is one.
pub(super) fn say(screen: &mut Screen, unmet: Option<&Unmet<'_>>, width: Option<usize>) {
    let Some(unmet) = unmet else {
        return;
    };
    screen.blank().wrapped(
        &format!(
            "No hook's matcher meets the tool `{}`, so none of them would run for this call in \
             any agent that names its tool so:",
            unmet.tool
        ),
        width,
        0,
        "  ",
    );
    for hook in &unmet.hooks {
        let meets = if hook.meets.is_empty() {
            "no agent's tool".to_owned()
        } else {
            hook.meets.join("; ")
        };
        screen.wrapped(
            &format!("  {} (matcher {}) meets {meets}", hook.name, hook.matcher),
            width,
            2,
            "    ",
        );
    }
    screen.wrapped(
        "A tool class (`tool: shell` in HOOK.md or a rule) meets every agent's tool of that kind.",
        width,
        0,
        "  ",
    );
}
