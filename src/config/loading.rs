//! Loading every source into one ordered [`HookSet`]: the Hermes config, the user's and the
//! project's Agent Hooks and rules files, each file's failure its own [`LoadError`] while the rest
//! still load.

use std::path::Path;

use anyhow::Result;

use super::{
    HookSet, HookSpec, LoadError, LoadOptions, Namesake, Replacement, Scope, SourceKind, Warning,
    WarningKind, hermes, hook_md, rules,
};

/// Loads every executable source: config hooks in file order, then user-level Agent Hooks, then
/// project-level ones (each level by priority, then name), with the project hooks that may
/// replace a user hook of their name. A missing file or folder means "no hooks from that source".
pub fn load(options: LoadOptions<'_>) -> Result<HookSet> {
    let files = hermes::Files {
        config: options.config,
        managed: options.managed,
        dotenv: options.dotenv,
    };
    let config = hermes::load(files, options.only);
    let mut errors = config.errors;
    let mut warnings = config.warnings;
    // Rules come first: they cost nothing, and a block there spares every process after it.
    let home = crate::ground::paths::home_dir();
    let vars = rules::Vars {
        project: options.project,
        home: home.as_deref(),
    };
    let mut hooks = Vec::new();
    let mut rules_read = Vec::new();
    for (file, scope) in options.rules_files() {
        let (rules, sha256) =
            rules::load_file_noting(&file, scope, options.only, vars, &mut warnings, &mut errors);
        // The first file's list is taken as it is: copying a few hundred rules costs a
        // process the page faults of another list as large.
        if hooks.is_empty() {
            hooks = rules;
        } else {
            hooks.extend(rules);
        }
        let absolute = std::path::absolute(&file).unwrap_or(file);
        rules_read.push((crate::ground::paths::normalized(&absolute), scope, sha256));
    }
    let from_config = warnings.len();
    let mut level = |dir: Option<&Path>, scope| {
        dir.map(|dir| hook_md::load_level(dir, scope, options.only, &mut warnings))
            .unwrap_or_default()
    };
    let user = level(options.user_hooks, Scope::User);
    let project = level(options.project_hooks, Scope::Project);
    let nested: Vec<_> = options
        .nested_hooks
        .iter()
        .map(|dir| level(Some(dir), Scope::Project))
        .collect();
    errors.extend(unreadable_manifests(&warnings[from_config..]));
    hooks.extend(config.hooks);
    let users = hooks.len()..hooks.len() + user.hooks.len();
    hooks.extend(user.hooks);
    let projects = hooks.len()..hooks.len() + project.hooks.len();
    hooks.extend(project.hooks);
    // A nested project's hooks come last and replace nothing: a folder the model can make
    // never takes a guard away.
    for nested in nested {
        hooks.extend(nested.hooks);
    }
    let mut replacements = Vec::new();
    let mut namesakes = Vec::new();
    for u in users {
        let user = &hooks[u];
        let same = |p: &HookSpec| {
            p.name == user.name && p.event == user.event && p.on_failure() == user.on_failure()
        };
        replacements.extend(
            projects
                .clone()
                .filter(|p| same(&hooks[*p]))
                .map(|p| Replacement {
                    user: u,
                    project: p,
                }),
        );
        for declared in project.declared.iter().filter(|d| d.name == user.name) {
            let why = match declared.event {
                _ if !declared.loaded && declared.event.is_none_or(|e| e == user.event) => {
                    "it was skipped (see its warning)".to_owned()
                }
                Some(event) if event != user.event => format!("it is for {event}"),
                _ => continue, // loaded for the same event: a candidate above
            };
            namesakes.push(Namesake {
                user: u,
                file: declared.file.clone(),
                why,
            });
        }
    }
    Ok(HookSet {
        hooks,
        replacements,
        namesakes,
        warnings,
        auto_accept: config.auto_accept,
        errors,
        rules_read,
    })
}

/// Of the Agent Hooks levels' warnings, the HOOK.md files (and hooks folders) skipped before
/// their event could be known: the hook they hold could be a guard of any event. (A HOOK.md read
/// far enough to name another event is not skipped when one event is loaded, and a bad value in
/// a readable one is a soft warning, so every skip there is this case.)
pub(super) fn unreadable_manifests(warnings: &[Warning]) -> impl Iterator<Item = LoadError> + '_ {
    warnings
        .iter()
        .filter(|warning| warning.kind == WarningKind::SkippedEntry)
        .map(|warning| LoadError {
            source: SourceKind::AgentHooks,
            origin: warning.origin.clone(),
            column: None,
            message: warning.message.clone(),
        })
}
