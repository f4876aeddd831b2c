//! Which user hooks the project hooks of their name replace, judged from the allowlist as `run`
//! judges them, and the namesakes that do not replace theirs, with why (for `list` and `doctor`).

use std::path::Path;

use super::store::Allowlist;
use super::{Bypass, ConsentState, assess, would_run};
use crate::config::HookSet;

/// Which user hooks project hooks of their name replace, judged by consent as `run` judges them,
/// and the project namesakes that do not replace their user hook, with why.
pub(crate) struct Overrides {
    /// For each hook, the project hook that replaces it.
    pub replaced: Vec<Option<usize>>,
    /// (user hook, project HOOK.md, why it does not replace the user hook).
    namesakes: Vec<(usize, String, String)>,
}

impl Overrides {
    /// Judges every replacement of `set` against `list` (`bypass`: unapproved hooks it covers
    /// count as approved).
    pub(crate) fn judge(
        set: &HookSet,
        list: &Allowlist,
        bypass: Option<Bypass>,
        base: &Path,
    ) -> Self {
        let replaced = set.replaced(|hook| would_run(list, hook, bypass, base));
        let mut namesakes = Vec::new();
        for r in &set.replacements {
            if replaced[r.user] == Some(r.project) {
                continue;
            }
            let project = &set.hooks[r.project];
            let assessment = assess(list, project, base);
            let why = match (&assessment.unreadable, assessment.state) {
                (Some(reason), _) => format!("its script cannot be used ({reason})"),
                (None, ConsentState::Unapproved) => "it is not approved".to_owned(),
                (None, ConsentState::Changed) => "it changed since approval".to_owned(),
                (None, _) => "another project hook of that name replaces it".to_owned(),
            };
            namesakes.push((r.user, project.origin.file.display().to_string(), why));
        }
        for namesake in &set.namesakes {
            namesakes.push((
                namesake.user,
                namesake.file.display().to_string(),
                namesake.why.clone(),
            ));
        }
        Self {
            replaced,
            namesakes,
        }
    }

    /// The user hook that project hook `index` replaces, if any.
    pub(crate) fn replacing(&self, index: usize) -> Option<usize> {
        self.replaced.iter().position(|by| *by == Some(index))
    }

    /// The project folders with the name of user hook `index` that do not replace it, and why.
    pub(crate) fn namesakes_of(&self, index: usize) -> impl Iterator<Item = (&str, &str)> {
        self.namesakes
            .iter()
            .filter(move |(user, _, _)| *user == index)
            .map(|(_, file, why)| (file.as_str(), why.as_str()))
    }

    /// One sentence per replacement of, or namesake of, hook `index`.
    pub(crate) fn notes(&self, set: &HookSet, index: usize) -> Vec<String> {
        let hook = &set.hooks[index];
        let what = format!("{} hook '{}' ({})", hook.event, hook.name, hook.origin);
        let mut notes: Vec<String> = self.replaced[index]
            .map(|by| {
                format!(
                    "{what} is replaced by the approved project hook {}",
                    set.hooks[by].origin
                )
            })
            .into_iter()
            .collect();
        notes.extend(self.namesakes_of(index).map(|(file, why)| {
            format!("{what} is not replaced by {file}: {why}; it runs as usual")
        }));
        notes
    }
}
