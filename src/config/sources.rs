//! A choice of the executable sources (`config`, `agent-hooks`), and a hook set narrowed to
//! them: what a caller that runs some sources itself asks for (Hermes's plugin runs the
//! Agent Hooks, and Hermes its own config hooks).

use std::path::Path;

use super::{HookSet, Namesake, Replacement, SourceKind};

/// Some of the executable sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sources {
    config: bool,
    agent_hooks: bool,
    rules: bool,
}

impl Sources {
    /// The names a request may give.
    pub const NAMES: [&'static str; 3] = ["rules", "config", "agent-hooks"];

    /// No source at all.
    pub const NONE: Self = Self {
        config: false,
        agent_hooks: false,
        rules: false,
    };

    /// Adds the source named `name` (as `list` names it); an audit-only or unknown name is
    /// refused.
    pub fn add(&mut self, name: &str) -> Result<(), String> {
        match name {
            "config" => self.config = true,
            "agent-hooks" => self.agent_hooks = true,
            "rules" => self.rules = true,
            "gateway" | "plugin" => {
                return Err(format!(
                    "\"{name}\" hooks run inside Hermes, not here (sources to run: {})",
                    Self::NAMES.join(", ")
                ));
            }
            other => {
                return Err(format!(
                    "unknown source \"{other}\" (sources to run: {})",
                    Self::NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Whether hooks of `kind` are among them.
    pub const fn has(self, kind: SourceKind) -> bool {
        match kind {
            SourceKind::Config => self.config,
            SourceKind::AgentHooks => self.agent_hooks,
            SourceKind::Rules => self.rules,
            SourceKind::Gateway | SourceKind::Plugin => false,
        }
    }
}

/// The config files a warning may name (config.yaml, the managed one, `.env`): a warning about
/// one of them is the `config` source's.
pub struct ConfigFiles<'a> {
    pub config: &'a Path,
    pub managed: Option<&'a Path>,
    pub dotenv: &'a Path,
}

impl ConfigFiles<'_> {
    fn holds(&self, file: &Path) -> bool {
        file == self.config || Some(file) == self.managed || file == self.dotenv
    }
}

impl HookSet {
    /// The hooks of `sources` only, with the replacements between them, and the warnings and
    /// load errors of those sources (the others are their runner's to report). The consent
    /// bypass of config.yaml (`hooks_auto_accept`) is kept, and still covers config hooks only.
    #[must_use]
    pub fn only(&self, sources: Sources, files: &ConfigFiles<'_>) -> Self {
        let mut index = vec![None; self.hooks.len()];
        let mut hooks = Vec::new();
        for (at, hook) in self.hooks.iter().enumerate() {
            if sources.has(hook.source.kind()) {
                index[at] = Some(hooks.len());
                hooks.push(hook.clone());
            }
        }
        let replacements = self
            .replacements
            .iter()
            .filter_map(|r| {
                Some(Replacement {
                    user: index[r.user]?,
                    project: index[r.project]?,
                })
            })
            .collect();
        let namesakes = self
            .namesakes
            .iter()
            .filter_map(|n| {
                Some(Namesake {
                    user: index[n.user]?,
                    ..n.clone()
                })
            })
            .collect();
        let kind_of = |file: &Path| {
            if files.holds(file) {
                SourceKind::Config
            } else if super::rules::is_rules_file(file) {
                SourceKind::Rules
            } else {
                SourceKind::AgentHooks
            }
        };
        Self {
            hooks,
            replacements,
            namesakes,
            warnings: self
                .warnings
                .iter()
                .filter(|w| sources.has(kind_of(&w.origin.file)))
                .cloned()
                .collect(),
            auto_accept: self.auto_accept,
            errors: self
                .errors
                .iter()
                .filter(|e| sources.has(e.source))
                .cloned()
                .collect(),
            rules_read: if sources.has(SourceKind::Rules) {
                self.rules_read.clone()
            } else {
                Vec::new()
            },
        }
    }
}
