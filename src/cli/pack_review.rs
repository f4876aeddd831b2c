//! A rules file under review beside the shipped packs: the packs it holds unchanged, how a rule
//! named as a pack's differs from it, and what each rule blocks, in words and in examples taken
//! from its pack's cases, as the engine decides them.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use super::rule_view::RuleView;
use crate::config::HookSpec;
use crate::config::rules::{self, Vars};
use crate::engine::payload::Invocation;
use crate::engine::rules::layout::Layout;
use crate::engine::rules::packs::{self, PACKS};

/// The most examples shown for one rule.
const EXAMPLES_MAX: usize = 3;
/// The project folder the packs' cases are written for.
const CASES_PROJECT: &str = "/home/dev/project";

/// Each shipped pack's cases: one JSON call a line, with what the pack must do with it.
const CASES: [(&str, &str); 14] = [
    (
        "destructive",
        include_str!("../engine/rules/packs/destructive.cases.jsonl"),
    ),
    (
        "force-push",
        include_str!("../engine/rules/packs/force-push.cases.jsonl"),
    ),
    (
        "git-discard",
        include_str!("../engine/rules/packs/git-discard.cases.jsonl"),
    ),
    (
        "containers",
        include_str!("../engine/rules/packs/containers.cases.jsonl"),
    ),
    (
        "kubernetes",
        include_str!("../engine/rules/packs/kubernetes.cases.jsonl"),
    ),
    (
        "infrastructure",
        include_str!("../engine/rules/packs/infrastructure.cases.jsonl"),
    ),
    (
        "publishing",
        include_str!("../engine/rules/packs/publishing.cases.jsonl"),
    ),
    (
        "services",
        include_str!("../engine/rules/packs/services.cases.jsonl"),
    ),
    (
        "cloud",
        include_str!("../engine/rules/packs/cloud.cases.jsonl"),
    ),
    (
        "databases",
        include_str!("../engine/rules/packs/databases.cases.jsonl"),
    ),
    (
        "platforms",
        include_str!("../engine/rules/packs/platforms.cases.jsonl"),
    ),
    (
        "secrets",
        include_str!("../engine/rules/packs/secrets.cases.jsonl"),
    ),
    (
        "secret-stores",
        include_str!("../engine/rules/packs/secret-stores.cases.jsonl"),
    ),
    (
        "outside-project",
        include_str!("../engine/rules/packs/outside-project.cases.jsonl"),
    ),
];

/// A rules file as the review shows it (`approve --json`: `rules_file`).
#[derive(Serialize)]
pub(crate) struct FileReview<'h> {
    /// The shipped packs the file holds unchanged: the whole file is one, or `new --rules`
    /// appended it and nothing of it was edited since.
    pub holds_packs: Vec<&'static str>,
    /// The file is exactly this shipped pack, byte for byte.
    pub is_pack: Option<&'static str>,
    /// Each rule: what it blocks first, then how it checks.
    pub rules: Vec<RuleReview<'h>>,
}

/// One rule of a file under review.
#[derive(Serialize)]
pub(crate) struct RuleReview<'h> {
    pub name: &'h str,
    pub event: &'static str,
    pub tool: Option<&'h str>,
    /// The shipped pack that has a rule of this name.
    pub pack: Option<&'static str>,
    /// Calls of the pack's cases that this rule decides, as the engine evaluates them (at most
    /// three; none for a rule no pack has).
    pub examples: Vec<String>,
    /// For a rule named as a pack's whose content differs: a unified diff from the pack's rule to
    /// this one.
    pub differs_from_pack: Option<String>,
    #[serde(flatten)]
    pub rule: RuleView<'h>,
}

/// Reviews the rules `hooks` of the rules file `file`.
pub(crate) fn review<'h>(file: &Path, hooks: &[&'h HookSpec]) -> FileReview<'h> {
    let text = crate::ground::limits::read(file, crate::ground::limits::MANIFEST_MAX)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    let sha256 = hooks.iter().find_map(|hook| Some(&*hook.rule()?.of.sha256));
    let is_pack = PACKS
        .iter()
        .find(|pack| {
            sha256 == Some(crate::ground::digest::hex(&Sha256::digest(pack.text)).as_str())
        })
        .map(|pack| pack.name);
    let layout = text.as_deref().and_then(|text| Layout::read(text).ok());
    let holds_packs: Vec<&'static str> = match (is_pack, &layout) {
        (Some(name), _) => vec![name],
        (None, Some(layout)) => PACKS
            .iter()
            .filter(|pack| Layout::read(pack.text).is_ok_and(|ours| layout.holds(&ours)))
            .map(|pack| pack.name)
            .collect(),
        (None, None) => Vec::new(),
    };
    let pack_rules = packs::rules();
    let theirs: Vec<(String, Value, String)> =
        layout.as_ref().map_or_else(Vec::new, packs::named_items);
    // Read again only when a rule has examples to show (a pack's rule's name).
    let decided = std::cell::OnceCell::new();
    let rules = hooks
        .iter()
        .map(|hook| {
            let ours = pack_rules.iter().find(|r| r.name == hook.name);
            let differs_from_pack = ours.and_then(|ours| {
                if holds_packs.contains(&ours.pack) {
                    return None;
                }
                let (_, value, shown) = theirs.iter().find(|(name, ..)| *name == hook.name)?;
                (*value != ours.value).then(|| {
                    similar::TextDiff::from_lines(ours.shown.as_str(), shown.as_str())
                        .unified_diff()
                        .context_radius(3)
                        .header(&format!("pack {}", ours.pack), "this file")
                        .to_string()
                })
            });
            RuleReview {
                name: &hook.name,
                event: hook.event.name(),
                tool: rules::tool_shown(hook),
                pack: ours.map(|ours| ours.pack),
                examples: ours.map_or_else(Vec::new, |ours| {
                    decided
                        .get_or_init(|| Decided::load(file, hooks))
                        .examples(hook, ours.pack)
                }),
                differs_from_pack,
                rule: RuleView::of(hook.rule().expect("the hooks of a rules file are rules")),
            }
        })
        .collect();
    FileReview {
        holds_packs,
        is_pack,
        rules,
    }
}

/// The file's rules as they are read in the world the packs' cases are written for (the
/// project at [`CASES_PROJECT`]), to evaluate those cases through.
struct Decided {
    hooks: Vec<HookSpec>,
}

impl Decided {
    fn load(file: &Path, hooks: &[&HookSpec]) -> Self {
        let Some(scope) = hooks.iter().find_map(|hook| Some(hook.rule()?.of.scope)) else {
            return Self { hooks: Vec::new() };
        };
        let home = crate::ground::paths::home_dir();
        let vars = Vars {
            project: Some(Path::new(CASES_PROJECT)),
            home: home.as_deref(),
        };
        let (mut warnings, mut errors) = (Vec::new(), Vec::new());
        Self {
            hooks: rules::load_file(file, scope, None, vars, &mut warnings, &mut errors),
        }
    }

    /// Up to three of `pack`'s block cases that the rule named as `hook` decides.
    fn examples(&self, hook: &HookSpec, pack: &str) -> Vec<String> {
        let Some(rule) = self.hooks.iter().find(|h| h.name == hook.name) else {
            return Vec::new();
        };
        let Some((_, cases)) = CASES.iter().find(|(name, _)| *name == pack) else {
            return Vec::new();
        };
        cases
            .lines()
            .filter_map(|line| serde_json::from_str::<Map<String, Value>>(line).ok())
            .filter(|case| case.get("expect").and_then(Value::as_str) == Some("block"))
            .filter(|case| decides(rule, case))
            .filter_map(|case| example_text(&case))
            .take(EXAMPLES_MAX)
            .collect()
    }
}

/// Whether `rule` decides the case's call, evaluated as `run` evaluates it.
fn decides(rule: &HookSpec, case: &Map<String, Value>) -> bool {
    let mut input = case.clone();
    input.remove("expect");
    input.insert("cwd".to_owned(), Value::from(CASES_PROJECT));
    let invocation = Invocation::from_input(input, CASES_PROJECT, &crate::agents::Agent::Hermes);
    crate::engine::rules::applies(rule, &invocation, invocation.tool_input.as_ref())
}

/// A case's call in a few words: a shell call's command, else the tool and what it names.
fn example_text(case: &Map<String, Value>) -> Option<String> {
    let input = case.get("tool_input")?.as_object()?;
    match input.get("command") {
        Some(Value::String(command)) => Some(command.clone()),
        Some(Value::Array(words)) => Some(
            words
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => {
            let tool = case.get("tool_name")?.as_str()?;
            let named = input.values().find_map(Value::as_str)?;
            Some(format!("{tool} {named}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CASES, PACKS};

    #[test]
    fn every_shipped_pack_has_its_cases_here() {
        for pack in PACKS {
            assert!(
                CASES.iter().any(|(name, _)| *name == pack.name),
                "{}: add its cases file to CASES",
                pack.name
            );
        }
    }
}
