//! What git and `patch` do to a work tree: the files git puts back or takes away when it
//! discards work (`checkout`, `restore`, `reset --hard`, `stash`), and the files a patch
//! changes (`git apply`, `git am`, `patch`), read from the patch itself where the line gives it.

use std::path::{Path, PathBuf};

use super::Act;
use crate::shell::Command;

/// What git puts back or takes away when it discards work: the paths `checkout` and `restore`
/// name (not `restore --staged` alone, which leaves the files), the whole work tree for `reset
/// --hard` (and `--merge`, `--keep`), a forced `checkout` or `switch`, and `stash` (`push`,
/// `save`, or none; untracked files too with `-u` or `-a`).
pub(super) fn discarded(command: &Command) -> Vec<(PathBuf, Act)> {
    let has = |flag: &str| command.flags.iter().any(|f| f == flag);
    let sub = command.subcommand.as_deref().unwrap_or_default();
    // Where git runs: each `-C DIR` before the subcommand, relative to the one before it.
    let mut here = PathBuf::from(&command.folder);
    // The values of git's own options, which the line's paths hold too: not paths git changes.
    let mut values = Vec::new();
    let mut globals = command.args.iter().take_while(|a| a.as_str() != sub);
    while let Some(word) = globals.next() {
        let dir = match word.strip_prefix("-C") {
            Some("") => globals.next().map(String::as_str),
            Some(attached) => Some(attached),
            None => {
                let takes_value = matches!(
                    word.as_str(),
                    "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env"
                );
                if takes_value && let Some(value) = globals.next() {
                    values.push(value.as_str());
                }
                None
            }
        };
        if let Some(dir) = dir {
            values.push(dir);
            here = crate::ground::paths::normalized(&here.join(dir));
        }
    }
    let values: Vec<PathBuf> = values
        .iter()
        .map(|value| crate::ground::paths::normalized(&Path::new(&command.folder).join(value)))
        .collect();
    // The whole work tree, wherever in it git runs.
    let folder = || work_tree(&here);
    // The paths it names are relative to where it runs; each is also checked as the line
    // resolved it, where the command runs.
    let named = || -> Vec<(PathBuf, Act)> {
        let keep = Act::Discard { untracked: false };
        let mut out = Vec::new();
        for path in &command.paths {
            if !values.iter().any(|value| value == Path::new(path)) {
                out.push((PathBuf::from(path), keep));
            }
            if let Ok(rest) = Path::new(path).strip_prefix(&command.folder)
                && here != Path::new(&command.folder)
            {
                out.push((here.join(rest), keep));
            }
        }
        out
    };
    // The words after the subcommand that are not options.
    let after: Vec<&str> = command
        .args
        .iter()
        .skip_while(|a| a.as_str() != sub)
        .skip(1)
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let keep = Act::Discard { untracked: false };
    let forced = has("-f") || has("--force") || has("--discard-changes") || from_file(command);
    match sub {
        "checkout" | "switch" if forced => vec![(folder(), keep)],
        "checkout" => named(),
        "restore" => {
            let worktree = has("-W") || has("--worktree") || !(has("-S") || has("--staged"));
            match (worktree, from_file(command)) {
                (false, _) => Vec::new(),
                (true, true) => vec![(folder(), keep)],
                (true, false) => named(),
            }
        }
        "reset" if has("--hard") || has("--merge") || has("--keep") => vec![(folder(), keep)],
        "stash" if matches!(after.first().copied(), None | Some("push" | "save")) => {
            let untracked = ["-u", "--include-untracked", "-a", "--all"]
                .iter()
                .any(|flag| has(flag));
            // Its pathspec would narrow it, but its message (`-m`) reads as one: the work
            // tree, where only what git would change counts anyway.
            vec![(folder(), Act::Discard { untracked })]
        }
        _ => Vec::new(),
    }
}

/// The files a patch changes (`git apply`, `git am`, `patch`): each path its headers name
/// (`--- a/x`, `+++ b/x`, `rename to`, `copy to`), from where the program applies it (the work
/// tree's top for git, else the folder, `-d DIR` for `patch`), with the git form's `a/` and
/// `b/` taken off. The patch is read from the files the line names, its `<` input or its
/// heredoc; where there is none to read (a pipe, a file made on the same line), any file of
/// the work tree.
pub(super) fn patched(command: &Command, git: bool) -> Vec<(PathBuf, Act)> {
    let has = |flag: &str| command.flags.iter().any(|f| f == flag);
    let looks_only = ["--check", "--stat", "--numstat", "--summary", "--dry-run"]
        .iter()
        .any(|flag| has(flag))
        && !has("--apply");
    if looks_only {
        return Vec::new();
    }
    let folder = Path::new(&command.folder);
    let value = |names: &[&str]| {
        command.flags.iter().find_map(|f| {
            let (name, value) = f.split_once('=')?;
            names.contains(&name).then_some(value)
        })
    };
    // `-pN`: that many leading folders taken off each name.
    let strip: Option<usize> = value(&["-p", "--strip"])
        .and_then(|n| n.parse().ok())
        .or_else(|| {
            command
                .args
                .iter()
                .find_map(|a| a.strip_prefix("-p").and_then(|n| n.parse().ok()))
        });
    let top = if git {
        let top = work_tree(folder);
        match value(&["--directory"]) {
            Some(dir) => top.join(dir),
            None => top,
        }
    } else {
        value(&["-d", "--directory"]).map_or_else(|| folder.to_path_buf(), |dir| folder.join(dir))
    };
    let mut texts: Vec<String> = command.input.iter().cloned().collect();
    let named = command
        .redirects
        .iter()
        .filter_map(|r| r.strip_prefix('<').filter(|t| !t.starts_with(['<', '>'])))
        .map(PathBuf::from)
        .chain(command.paths.iter().map(PathBuf::from));
    for file in named {
        // A patch is text; one larger than this is not one a model writes.
        if let Ok(bytes) = crate::ground::limits::read(&file, 8 << 20) {
            texts.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    if texts.is_empty() {
        return vec![(top, Act::Whole)];
    }
    let mut out = Vec::new();
    for text in &texts {
        for line in text.lines() {
            let named: Vec<&str> = if let Some(rest) = line.strip_prefix("diff --git ") {
                rest.split(' ').collect()
            } else if let Some(rest) = ["--- ", "+++ ", "rename to ", "copy to ", "rename from "]
                .iter()
                .find_map(|head| line.strip_prefix(head))
            {
                // A header's time stamp follows a tab.
                vec![rest.split('\t').next().unwrap_or(rest)]
            } else {
                continue;
            };
            for name in named {
                let name = name.trim().trim_matches('"');
                if name.is_empty() || name == "/dev/null" {
                    continue;
                }
                // The git form's `a/` and `b/`, `-pN`'s folders taken off, the name as written
                // and its last part (what `patch` falls back to): each.
                let stripped = name.strip_prefix("a/").or_else(|| name.strip_prefix("b/"));
                let past = strip.and_then(|n| name.splitn(n + 1, '/').nth(n));
                let last = name.rsplit('/').next();
                for name in [stripped, past, Some(name), last].into_iter().flatten() {
                    let path = crate::ground::paths::normalized(&top.join(name));
                    if !out.iter().any(|(known, _)| *known == path) {
                        out.push((path, Act::Write));
                    }
                }
            }
        }
    }
    // A patch whose headers name nothing (a mail with no diff, a file that is not one) may
    // still be one git or patch reads another way: the work tree.
    if out.is_empty() {
        out.push((top, Act::Whole));
    }
    out
}

/// Whether a git call reads its pathspecs from a file or its input (`--pathspec-from-file`),
/// which the line does not show.
pub(super) fn from_file(command: &Command) -> bool {
    command
        .flags
        .iter()
        .any(|f| f == "--pathspec-from-file" || f.starts_with("--pathspec-from-file="))
}

/// The work tree `dir` lies in: the nearest folder holding `.git`, else `dir`.
pub(in crate::protect) fn work_tree(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
}
