//! The rule packs this program ships: reviewed rules files for the guards most people want,
//! which `hermes-hooks new --rules PACK` writes into a rules file for review and approval.

use super::layout::Layout;

/// One shipped pack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pack {
    /// The name `new --rules` takes.
    pub name: &'static str,
    /// What it guards, in a few words.
    pub about: &'static str,
    /// The pack as a rules file: a header comment, then `rules:` and its rules.
    pub text: &'static str,
}

/// The packs `setup` offers when none are named: the damage any project can suffer from a
/// shell, whatever systems it talks to.
pub(crate) const RECOMMENDED: [&str; 4] = ["destructive", "git-discard", "force-push", "secrets"];

/// Every pack, in the order `new --rules` lists them.
pub(crate) const PACKS: [Pack; 14] = [
    Pack {
        name: "destructive",
        about: "deleting, wiping or formatting what lies outside the project",
        text: include_str!("packs/destructive.yaml"),
    },
    Pack {
        name: "force-push",
        about: "force pushes and history rewrites on protected branches",
        text: include_str!("packs/force-push.yaml"),
    },
    Pack {
        name: "git-discard",
        about: "throwing away local git work: hard resets, clean -f, dropped stashes",
        text: include_str!("packs/git-discard.yaml"),
    },
    Pack {
        name: "containers",
        about: "deleting containers, images and volumes with their data",
        text: include_str!("packs/containers.yaml"),
    },
    Pack {
        name: "kubernetes",
        about: "deleting namespaces, volumes and objects in bulk; helm uninstall",
        text: include_str!("packs/kubernetes.yaml"),
    },
    Pack {
        name: "infrastructure",
        about: "terraform destroy, applies nobody reviewed, state edits, pulumi destroy",
        text: include_str!("packs/infrastructure.yaml"),
    },
    Pack {
        name: "publishing",
        about: "publishing packages and images, yanking releases, pushing release tags",
        text: include_str!("packs/publishing.yaml"),
    },
    Pack {
        name: "services",
        about: "stopping system services, shutting machines down, killing init, removing system packages",
        text: include_str!("packs/services.yaml"),
    },
    Pack {
        name: "cloud",
        about: "deleting cloud resources, stored objects, DNS records, CDN workers and caches, and backups; changing who may use them",
        text: include_str!("packs/cloud.yaml"),
    },
    Pack {
        name: "databases",
        about: "dropping, truncating or emptying databases and tables; flushing Redis; deleting queues, topics and search indexes",
        text: include_str!("packs/databases.yaml"),
    },
    Pack {
        name: "platforms",
        about: "deleting repositories, releases, secrets and pipelines on GitHub, GitLab, Azure DevOps and CI services",
        text: include_str!("packs/platforms.yaml"),
    },
    Pack {
        name: "secrets",
        about: "reading or printing secrets and credentials",
        text: include_str!("packs/secrets.yaml"),
    },
    Pack {
        name: "secret-stores",
        about: "asking Vault, cloud secret managers, Doppler, 1Password or pass for a secret",
        text: include_str!("packs/secret-stores.yaml"),
    },
    Pack {
        name: "outside-project",
        about: "writing files outside the project",
        text: include_str!("packs/outside-project.yaml"),
    },
];

/// The pack named `name`.
pub(crate) fn find(name: &str) -> Option<&'static Pack> {
    PACKS.iter().find(|pack| pack.name == name)
}

impl Pack {
    /// The pack split for appending to a rules file: its header comment, and the rule items
    /// after its `rules:` line.
    pub(crate) fn parts(&self) -> (&'static str, &'static str) {
        let text = self.text;
        let at = text
            .match_indices("rules:\n")
            .find(|(at, _)| *at == 0 || text.as_bytes()[at - 1] == b'\n')
            .map_or(0, |(at, _)| at);
        let items = &text[at..];
        (&text[..at], items.strip_prefix("rules:\n").unwrap_or(items))
    }
}

/// One rule of a shipped pack, as the pack's text has it.
pub(crate) struct PackRule {
    pub pack: &'static str,
    pub name: String,
    /// The rule's item, read as YAML.
    pub value: serde_json::Value,
    /// The item's text, without the comments that end it.
    pub shown: String,
}

/// Every rule of every shipped pack, by name.
pub(crate) fn rules() -> Vec<PackRule> {
    PACKS
        .iter()
        .filter_map(|pack| Some((pack, Layout::read(pack.text).ok()?)))
        .flat_map(|(pack, layout)| {
            named_items(&layout)
                .into_iter()
                .map(|(name, value, shown)| PackRule {
                    pack: pack.name,
                    name,
                    value,
                    shown,
                })
        })
        .collect()
}

/// Each item of a rules list that reads as a rule with a name: its name, its value, its text.
pub(crate) fn named_items(layout: &Layout<'_>) -> Vec<(String, serde_json::Value, String)> {
    layout
        .items()
        .into_iter()
        .filter_map(|(whole, shown)| {
            let mut list = crate::config::yaml::parse::<Vec<serde_json::Value>>(&whole).ok()?;
            let value = list.pop()?;
            let name = value.get("name")?.as_str()?.to_owned();
            Some((name, value, shown))
        })
        .collect()
}

/// The rules of the rules file `text` that are a shipped pack's rule as the pack has it (by name
/// and content, comments and layout aside): each rule's name and its pack.
pub(crate) fn unchanged_rules(text: &str, shipped: &[PackRule]) -> Vec<(String, &'static str)> {
    let Ok(layout) = Layout::read(text) else {
        return Vec::new();
    };
    named_items(&layout)
        .into_iter()
        .filter_map(|(name, value, _)| {
            let ours = shipped.iter().find(|rule| rule.name == name)?;
            (ours.value == value).then_some((name, ours.pack))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! Each pack against its cases: real command lines and file calls, with what the pack must
    //! block and what it must let through (every case through the engine's own evaluation).

    use std::path::Path;

    use serde_json::{Map, Value, json};

    use super::PACKS;
    use crate::config::rules::{self, Vars};
    use crate::config::{HookSpec, Scope};
    use crate::engine::payload::Invocation;

    /// The folders every case is checked in.
    const PROJECT: &str = "/home/dev/project";
    const HOME: &str = "/home/dev";

    /// The pack's rules, read as a rules file is.
    fn load(text: &str) -> Vec<HookSpec> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rules.yaml");
        std::fs::write(&file, text).unwrap();
        let (mut warnings, mut errors) = (Vec::new(), Vec::new());
        let vars = Vars {
            project: Some(Path::new(PROJECT)),
            home: Some(Path::new(HOME)),
        };
        let hooks = rules::load_file(&file, Scope::User, None, vars, &mut warnings, &mut errors);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(errors.is_empty(), "{errors:?}");
        hooks
    }

    /// The rules that block the case's call.
    fn blocking<'h>(hooks: &'h [HookSpec], case: &Map<String, Value>) -> Vec<&'h str> {
        let mut input = case.clone();
        input.remove("expect");
        input.insert("cwd".to_owned(), Value::from(PROJECT));
        let invocation = Invocation::from_input(input, PROJECT, &crate::agents::Agent::Hermes);
        hooks
            .iter()
            .filter(|hook| {
                crate::engine::rules::applies(hook, &invocation, invocation.tool_input.as_ref())
            })
            .map(|hook| hook.name.as_str())
            .collect()
    }

    fn cases(pack: &str) -> Vec<Map<String, Value>> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/engine/rules/packs")
            .join(format!("{pack}.cases.jsonl"));
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    #[test]
    fn every_pack_blocks_what_it_must_and_lets_as_many_everyday_calls_through() {
        for pack in PACKS {
            let hooks = load(pack.text);
            assert!(!hooks.is_empty(), "{}", pack.name);
            let cases = cases(pack.name);
            let (mut blocks, mut allows, mut wrong) = (0, 0, Vec::new());
            for case in &cases {
                let expect = case["expect"].as_str().unwrap();
                let by = blocking(&hooks, case);
                match expect {
                    "block" => blocks += 1,
                    "allow" => allows += 1,
                    other => panic!("{}: expect {other}", pack.name),
                }
                if (expect == "block") == by.is_empty() {
                    wrong.push(format!(
                        "{expect}: {} (by {by:?})",
                        Value::Object(case.clone())
                    ));
                }
            }
            assert!(wrong.is_empty(), "{}:\n{}", pack.name, wrong.join("\n"));
            assert!(blocks >= 25, "{}: {blocks} block cases", pack.name);
            assert!(
                allows >= blocks,
                "{}: {allows} allow cases, {blocks} block",
                pack.name
            );
        }
    }

    /// The corpus lines the packs were tuned on (`benches/corpus/`), each labelled as the
    /// project's stance says (`stance.jsonl`): whether it should be stopped, and the command.
    fn tuned_corpus() -> Vec<(bool, String)> {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/corpus");
        let read = |file: &Path| -> Vec<Value> {
            std::fs::read_to_string(file)
                .unwrap()
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| serde_json::from_str(line).unwrap())
                .collect()
        };
        let stance: std::collections::HashMap<String, bool> = read(&folder.join("stance.jsonl"))
            .into_iter()
            .map(|v| {
                (
                    v["command"].as_str().unwrap().to_owned(),
                    v["stance"] == "destructive",
                )
            })
            .collect();
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.extension().is_some_and(|ext| ext == "jsonl")
                    && path.file_name().is_some_and(|name| name != "stance.jsonl")
            })
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|file| read(file))
            .filter(|v| v["split"] == "tune")
            .map(|v| {
                let command = v["command"].as_str().unwrap().to_owned();
                let labelled = v["label"] == "destructive";
                (stance.get(&command).copied().unwrap_or(labelled), command)
            })
            .collect()
    }

    #[test]
    fn the_shortcuts_past_a_rule_reach_the_verdict_its_conditions_reach() {
        let hooks: Vec<HookSpec> = PACKS.iter().flat_map(|pack| load(pack.text)).collect();
        let mut calls: Vec<Map<String, Value>> = PACKS.iter().flat_map(|p| cases(p.name)).collect();
        calls.extend(tuned_corpus().into_iter().step_by(3).map(|(_, command)| {
            let mut case = Map::new();
            case.insert("tool_name".to_owned(), Value::from("terminal"));
            case.insert(
                "tool_input".to_owned(),
                serde_json::json!({ "command": command }),
            );
            case
        }));
        let mut passed_by = 0;
        for case in &calls {
            let mut input = case.clone();
            input.remove("expect");
            input.insert("cwd".to_owned(), Value::from(PROJECT));
            let invocation = Invocation::from_input(input, PROJECT, &crate::agents::Agent::Hermes);
            let input = invocation.tool_input.as_ref();
            for hook in &hooks {
                let quick = crate::engine::rules::verdict(hook, &invocation, input);
                let full = crate::engine::rules::verdict_with(hook, &invocation, input, false);
                assert_eq!(
                    quick,
                    full,
                    "{} on {}",
                    hook.name,
                    Value::Object(case.clone())
                );
                // And where a rule of the call worked the programs out, `applies` tells at once.
                let applies = crate::engine::rules::applies(hook, &invocation, input);
                let undecided = |verdict: &crate::engine::rules::Verdict| match verdict {
                    crate::engine::rules::Verdict::Undecidable(_) => hook
                        .rule()
                        .is_some_and(|r| r.undecidable != crate::config::rules::Undecidable::Allow),
                    other => *other == crate::engine::rules::Verdict::Yes,
                };
                assert_eq!(applies, undecided(&full), "{} on {case:?}", hook.name);
                let rule = hook.rule().unwrap();
                passed_by += usize::from(
                    crate::engine::rules::commands(&invocation, input, rule.of.home.as_deref())
                        .and_then(|reading| invocation.commands.programs(reading))
                        .is_some_and(|call| crate::engine::rules::programs::misses(rule, call)),
                );
            }
        }
        // The shortcut is taken, for most rules on most calls.
        assert!(passed_by > calls.len() * hooks.len() / 2, "{passed_by}");
    }

    /// A shell call of `command` in the project.
    fn shell_call(command: &str) -> Invocation {
        let mut input = Map::new();
        input.insert("tool_name".to_owned(), Value::from("terminal"));
        input.insert("tool_input".to_owned(), json!({ "command": command }));
        input.insert("cwd".to_owned(), Value::from(PROJECT));
        Invocation::from_input(input, PROJECT, &crate::agents::Agent::Hermes)
    }

    #[test]
    fn a_rule_about_a_field_no_command_has_is_passed_by_without_its_body() {
        let hooks: Vec<HookSpec> = PACKS.iter().flat_map(|pack| load(pack.text)).collect();
        let rule = hooks
            .iter()
            .find(|hook| hook.name == "destructive-redirect-to-disk-device")
            .and_then(HookSpec::rule)
            .unwrap();
        let call = |command: &str| {
            let invocation = shell_call(command);
            let input = invocation.tool_input.as_ref();
            crate::engine::rules::commands(&invocation, input, rule.of.home.as_deref())
                .and_then(|reading| invocation.commands.programs(reading))
                .unwrap()
        };
        // Its one `when` reads the redirections: a line with none is none of its business.
        assert!(crate::engine::rules::programs::misses(rule, call("ls -la")));
        assert!(!crate::engine::rules::programs::misses(
            rule,
            call("ls > /dev/sda")
        ));
        assert!(!crate::engine::rules::programs::misses(
            rule,
            call("ls; cat < x")
        ));
    }

    #[test]
    fn a_rule_whose_program_pattern_needs_what_no_program_holds_is_passed_by_unread() {
        let hooks: Vec<HookSpec> = PACKS.iter().flat_map(|pack| load(pack.text)).collect();
        let rule = hooks
            .iter()
            .find(|hook| hook.name == "services-pip-uninstall")
            .and_then(HookSpec::rule)
            .unwrap();
        assert!(rule.program_needed.is_some());
        let passed_by = |command: &str| {
            let invocation = shell_call(command);
            let fields = crate::engine::rules::Fields {
                invocation: &invocation,
                input: invocation.tool_input.as_ref(),
            };
            crate::engine::rules::runs_none_of(rule, &fields)
        };
        assert!(passed_by("ls -la"));
        assert!(!passed_by("pip3 uninstall -y requests"));
        assert!(!passed_by("ls; python3 -m pip uninstall x"));
        // A program that is not known (a variable) could be any.
        assert!(!passed_by("$PIP uninstall x"));
    }

    #[test]
    fn every_pack_together_stops_what_the_tuned_corpus_calls_destructive_and_little_else() {
        let hooks: Vec<HookSpec> = PACKS.iter().flat_map(|pack| load(pack.text)).collect();
        let (mut destructive, mut stopped, mut safe, mut wrong) = (0_u32, 0_u32, 0_u32, Vec::new());
        let mut missed = Vec::new();
        for (should, command) in tuned_corpus() {
            let mut case = Map::new();
            case.insert("tool_name".to_owned(), Value::from("terminal"));
            case.insert(
                "tool_input".to_owned(),
                serde_json::json!({ "command": command }),
            );
            let by = blocking(&hooks, &case);
            if should {
                destructive += 1;
                if by.is_empty() {
                    missed.push(command);
                } else {
                    stopped += 1;
                }
            } else {
                safe += 1;
                if !by.is_empty() {
                    wrong.push(format!("{command} (by {by:?})"));
                }
            }
        }
        let recall = f64::from(stopped) / f64::from(destructive);
        let false_rate = f64::from(u32::try_from(wrong.len()).unwrap()) / f64::from(safe);
        assert!(
            recall >= 0.95,
            "{stopped} of {destructive} stopped; missed:\n{}",
            missed.join("\n")
        );
        assert!(
            false_rate <= 0.01,
            "{} of {safe} safe lines stopped:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn every_pack_splits_into_a_header_and_rules_that_append_to_a_file() {
        for pack in PACKS {
            let (header, items) = pack.parts();
            assert!(
                header.lines().all(|l| l.is_empty() || l.starts_with('#')),
                "{}",
                pack.name
            );
            assert!(
                items.starts_with("- name:") || items.starts_with('#'),
                "{}",
                pack.name
            );
            let appended = format!("rules:\n- name: mine\n  when: {{command: x}}\n{items}");
            assert_eq!(
                load(&appended).len(),
                load(pack.text).len() + 1,
                "{}",
                pack.name
            );
        }
    }

    #[test]
    fn rule_names_are_unique_across_the_packs() {
        let mut seen = std::collections::HashSet::new();
        for pack in PACKS {
            for hook in load(pack.text) {
                assert!(seen.insert(hook.name.clone()), "{} twice", hook.name);
            }
        }
    }

    #[test]
    fn a_project_and_a_home_under_tmp_are_guarded_all_the_same() {
        let pack = super::find("destructive").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rules.yaml");
        std::fs::write(&file, pack.text).unwrap();
        let vars = Vars {
            project: Some(Path::new("/tmp/work/project")),
            home: Some(Path::new("/tmp/work/home")),
        };
        let (mut warnings, mut errors) = (Vec::new(), Vec::new());
        let hooks = rules::load_file(&file, Scope::User, None, vars, &mut warnings, &mut errors);
        let decides = |command: &str| {
            let mut input = Map::new();
            input.insert("tool_name".to_owned(), Value::from("Bash"));
            input.insert(
                "tool_input".to_owned(),
                serde_json::json!({ "command": command }),
            );
            input.insert("cwd".to_owned(), Value::from("/tmp/work/project"));
            let invocation = Invocation::from_input(
                input,
                "/tmp/work/project",
                &crate::agents::Agent::ClaudeCode,
            );
            hooks.iter().any(|hook| {
                crate::engine::rules::applies(hook, &invocation, invocation.tool_input.as_ref())
            })
        };
        for command in [
            "rm -rf .",
            "rm -rf *",
            "rm -rf .git",
            "rm -rf ~",
            "rm -rf ~/*",
            "rm -rf \"$HOME\"",
        ] {
            assert!(decides(command), "{command}");
        }
        for command in [
            "rm -rf build",
            "rm -rf /tmp/other",
            "rm -rf ~/../home2/x",
            "rm -rf ./.git/hooks/x",
        ] {
            assert!(!decides(command), "{command}");
        }
    }

    #[test]
    fn every_pack_pattern_built_ahead_decides_as_the_pattern_does() {
        let mut texts: Vec<String> = Vec::new();
        for pack in PACKS {
            for case in cases(pack.name) {
                let mut values = Vec::new();
                collect(&Value::Object(case), &mut values);
                texts.extend(values);
            }
        }
        texts.sort();
        texts.dedup();
        texts.extend(
            [
                "",
                "/",
                "~",
                "$HOME/",
                "/tmp/",
                "/home/dev",
                "/home/dev/project",
            ]
            .map(str::to_owned),
        );
        let mut built = 0;
        for pack in PACKS {
            for hook in load(pack.text) {
                let rule = hook.rule().unwrap();
                for condition in rule.when().iter().chain(rule.unless()) {
                    let pattern = condition.pattern().unwrap();
                    let Some(bytes) = crate::matcher::automaton(pattern) else {
                        continue;
                    };
                    built += 1;
                    let (matcher, _) = crate::matcher::Matcher::compile_search(pattern);
                    for text in &texts {
                        let automaton = crate::matcher::Automaton::read(&bytes).unwrap();
                        assert_eq!(
                            automaton.decides(text),
                            matcher.decides(text),
                            "{} {}: {pattern:?} on {text:?}",
                            hook.name,
                            condition.field
                        );
                    }
                }
            }
        }
        assert!(built >= 20, "{built} patterns built ahead");
    }

    fn collect(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(text) => out.push(text.clone()),
            Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
            Value::Object(map) => map.values().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
}
