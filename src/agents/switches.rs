//! Every setting of an agent that switches its hooks off (so every hermes-hooks guard wired
//! there is silent): what `doctor` looks for in each settings file the agent reads, each
//! finding with its line and what to remove.

use super::settings::json::{self, Kind, Node};
use super::settings::{Format, Layer};

/// The line of `node` in `text`.
fn line(text: &str, node: &Node) -> usize {
    json::line_column(text, node.start).0
}

/// The top-level `key` of a JSON file when it is `true`.
fn is_true<'a>(root: &'a Node, key: &str) -> Option<&'a Node> {
    root.get(key)
        .filter(|node| matches!(node.kind, Kind::Bool(true)))
}

/// A JSON settings file's root, when it parses (one that does not is reported by the wiring
/// check, and switches nothing off: the agent cannot read it either).
fn json_root(text: &str, format: Format) -> Option<Node> {
    json::parse(text, format == Format::JsonWithComments).ok()
}

/// Claude Code: `disableAllHooks: true` in any settings file (in a user's, project's or local
/// file it leaves only the managed hooks, in the managed file none), and in the managed file
/// `allowManagedHooksOnly: true` and `strictPluginOnlyCustomization` (`true`, or a list naming
/// `hooks`), which leave only the managed hooks.
pub(super) fn claude_code(text: &str, format: Format, layer: Layer) -> Vec<(usize, String)> {
    let Some(root) = json_root(text, format) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let Some(node) = is_true(&root, "disableAllHooks") {
        let runs = match layer {
            Layer::Person => "Claude Code runs no hook but the managed ones",
            Layer::Managed => "Claude Code runs no hook at all",
        };
        found.push((
            line(text, node),
            format!(
                "disableAllHooks is true: {runs} wherever this file applies (the user's \
                 settings included), so no hermes-hooks guard guards it there; remove \
                 \"disableAllHooks\": true from this file"
            ),
        ));
    }
    if layer == Layer::Managed {
        if let Some(node) = is_true(&root, "allowManagedHooksOnly") {
            found.push((
                line(text, node),
                "allowManagedHooksOnly is true: Claude Code runs only the hooks of the managed \
                 settings, so hermes-hooks wired in a user's or project's settings never runs; \
                 wire it in this file, or remove \"allowManagedHooksOnly\": true"
                    .to_owned(),
            ));
        }
        if let Some(node) = root.get("strictPluginOnlyCustomization") {
            let hooks = match &node.kind {
                Kind::Bool(on) => *on,
                Kind::Array(items) => items
                    .iter()
                    .any(|item| matches!(&item.kind, Kind::String(s) if s == "hooks")),
                _ => false,
            };
            if hooks {
                found.push((
                    line(text, node),
                    "strictPluginOnlyCustomization covers hooks: Claude Code skips the hooks of \
                     the user's and projects' settings, so hermes-hooks wired there never runs; \
                     wire it in this file, or take hooks out of \
                     \"strictPluginOnlyCustomization\""
                        .to_owned(),
                ));
            }
        }
    }
    found
}

/// Gemini CLI: `hooksConfig.enabled: false` (no hook runs, the user's included) and a
/// hermes-hooks command listed in `hooksConfig.disabled`.
pub(super) fn gemini(text: &str, format: Format, _layer: Layer) -> Vec<(usize, String)> {
    let Some(root) = json_root(text, format) else {
        return Vec::new();
    };
    let Some(config) = root.get("hooksConfig") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let Some(enabled) = config.get("enabled")
        && matches!(enabled.kind, Kind::Bool(false))
    {
        found.push((
            line(text, enabled),
            "hooksConfig.enabled is false: Gemini CLI runs no hook where this file applies, \
             the user's included, so no hermes-hooks guard guards it there; remove \
             \"enabled\": false from hooksConfig in this file"
                .to_owned(),
        ));
    }
    for entry in config
        .get("disabled")
        .and_then(Node::elements)
        .unwrap_or_default()
    {
        if let Kind::String(name) = &entry.kind
            && name.contains("hermes-hooks")
        {
            found.push((
                line(text, entry),
                format!(
                    "hooksConfig.disabled lists '{name}': Gemini CLI skips that hook, so its \
                     guards do not run; remove it from hooksConfig.disabled in this file"
                ),
            ));
        }
    }
    found
}

/// GitHub Copilot CLI: `disableAllHooks: true` in a project's `.github/copilot/settings.json` or
/// `settings.local.json` (Copilot 1.0.102 was seen to honour it there, and not in the user's
/// `~/.copilot/settings.json`).
pub(super) fn copilot(text: &str, format: Format, _layer: Layer) -> Vec<(usize, String)> {
    let Some(root) = json_root(text, format) else {
        return Vec::new();
    };
    is_true(&root, "disableAllHooks")
        .map(|node| {
            (
                line(text, node),
                "disableAllHooks is true: Copilot CLI runs no hook in this project, so no \
                 hermes-hooks guard guards it there; remove \"disableAllHooks\": true from this \
                 file"
                    .to_owned(),
            )
        })
        .into_iter()
        .collect()
}

/// Codex: the `hooks` feature (old name `codex_hooks`) set to false under `[features]`, in the
/// user's, a project's or the managed `config.toml`.
pub(super) fn codex(text: &str, format: Format, _layer: Layer) -> Vec<(usize, String)> {
    if format != Format::Toml {
        return Vec::new();
    }
    let Ok(doc) = toml_edit::Document::parse(text) else {
        return Vec::new();
    };
    let Some(features) = doc.get("features").and_then(toml_edit::Item::as_table_like) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for key in ["hooks", "codex_hooks"] {
        let Some(item) = features.get(key) else {
            continue;
        };
        if item.as_bool() != Some(false) {
            continue;
        }
        let at = item
            .span()
            .or_else(|| features.key(key).and_then(toml_edit::Key::span))
            .map_or(1, |span| json::line_column(text, span.start).0);
        found.push((
            at,
            format!(
                "the Codex feature `{key}` is false: Codex runs no hook where this file \
                 applies, so no hermes-hooks guard guards it there; remove `{key} = false` \
                 from [features] in this file"
            ),
        ));
    }
    found
}

/// Factory Droid: `hooksDisabled: true` in any of its settings files (its /hooks menu writes
/// it), which leaves no hook running where the file applies.
pub(super) fn droid(text: &str, format: Format, _layer: Layer) -> Vec<(usize, String)> {
    let Some(root) = json_root(text, format) else {
        return Vec::new();
    };
    is_true(&root, "hooksDisabled")
        .map(|node| {
            (
                line(text, node),
                "hooksDisabled is true: Droid runs no hook where this file applies, so no \
                 hermes-hooks guard guards it there; remove \"hooksDisabled\": true from this \
                 file"
                    .to_owned(),
            )
        })
        .into_iter()
        .collect()
}

/// Qwen Code: `disableAllHooks: true` in any of its settings files runs no hook where the file
/// applies.
pub(super) fn qwen(text: &str, format: Format, _layer: Layer) -> Vec<(usize, String)> {
    let Some(root) = json_root(text, format) else {
        return Vec::new();
    };
    is_true(&root, "disableAllHooks")
        .map(|node| {
            (
                line(text, node),
                "disableAllHooks is true: Qwen Code runs no hook where this file applies, so \
                 no hermes-hooks guard guards it there; remove \"disableAllHooks\": true from \
                 this file"
                    .to_owned(),
            )
        })
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Format, Layer, claude_code, codex, copilot, droid, gemini, qwen};

    fn lines(found: &[(usize, String)]) -> Vec<usize> {
        found.iter().map(|(line, _)| *line).collect()
    }

    #[test]
    fn claude_code_policy_keys_count_only_in_the_managed_file() {
        let text = "{\n  \"allowManagedHooksOnly\": true,\n  \"strictPluginOnlyCustomization\": [\"skills\", \"hooks\"]\n}\n";
        assert!(claude_code(text, Format::Json, Layer::Person).is_empty());
        let found = claude_code(text, Format::Json, Layer::Managed);
        assert_eq!(lines(&found), [2, 3], "{found:?}");
        let skills_only = "{\"strictPluginOnlyCustomization\": [\"skills\"]}";
        assert!(claude_code(skills_only, Format::Json, Layer::Managed).is_empty());
    }

    #[test]
    fn claude_code_disable_all_hooks_counts_anywhere_and_only_when_true() {
        let on = "{\n\"disableAllHooks\": true}";
        assert_eq!(lines(&claude_code(on, Format::Json, Layer::Person)), [2]);
        assert_eq!(lines(&claude_code(on, Format::Json, Layer::Managed)), [2]);
        let off = "{\"disableAllHooks\": false}";
        assert!(claude_code(off, Format::Json, Layer::Person).is_empty());
        assert!(claude_code("not json", Format::Json, Layer::Person).is_empty());
    }

    #[test]
    fn copilot_disable_all_hooks_counts_only_when_true() {
        let on = "{\n\"disableAllHooks\": true}";
        assert_eq!(lines(&copilot(on, Format::Json, Layer::Person)), [2]);
        assert!(copilot("{\"disableAllHooks\": false}", Format::Json, Layer::Person).is_empty());
    }

    #[test]
    fn gemini_disabled_hooks_are_found_with_comments() {
        let text = "{\n  // mine\n  \"hooksConfig\": {\"enabled\": false}\n}";
        let found = gemini(text, Format::JsonWithComments, Layer::Managed);
        assert_eq!(lines(&found), [3], "{found:?}");
    }

    #[test]
    fn codex_features_off_are_found_in_either_spelling() {
        let text = "model = \"x\"\n\n[features]\nhooks = false\ncodex_hooks = false\n";
        let found = codex(text, Format::Toml, Layer::Person);
        assert_eq!(lines(&found), [4, 5], "{found:?}");
        let dotted = "features.hooks = false\n";
        assert_eq!(codex(dotted, Format::Toml, Layer::Person).len(), 1);
        assert!(codex("[features]\nhooks = true\n", Format::Toml, Layer::Person).is_empty());
        assert!(codex("{}", Format::Json, Layer::Person).is_empty());
    }

    #[test]
    fn droid_hooks_disabled_counts_only_when_true() {
        let on = "{\n  \"hooksDisabled\": true\n}";
        assert_eq!(lines(&droid(on, Format::Json, Layer::Person)), [2]);
        let off = "{\"hooksDisabled\": false}";
        assert!(droid(off, Format::Json, Layer::Person).is_empty());
    }

    #[test]
    fn qwen_disable_all_hooks_counts_only_when_true() {
        let on = "{\n  // off\n  \"disableAllHooks\": true\n}";
        assert_eq!(
            lines(&qwen(on, Format::JsonWithComments, Layer::Person)),
            [3]
        );
        let off = "{\"disableAllHooks\": false}";
        assert!(qwen(off, Format::JsonWithComments, Layer::Person).is_empty());
    }
}
