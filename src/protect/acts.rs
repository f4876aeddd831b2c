//! What a command does to the paths it names, told from its program: removing or moving them
//! with all they hold (`rm`, `mv`'s sources, `chmod -R`, `find -delete`, `gzip`), or writing
//! them (a redirection, `tee`, a copy's target, `sed -i`, `dd of=`). Programs known to only
//! read (`cat`, `grep`, `ls`, `diff`, `jq`, ...) leave their paths alone; any other program
//! that names a path may write it (`vim -c wq`, `curl -o`, `rename`, `patch`, a formatter), so
//! its paths count as written: a guard's file named by a program this reader does not know is
//! kept, never let through.

use std::path::{Path, PathBuf};

use super::programs::{COMPRESSORS, READERS, RUNNERS, SHELLS};
use crate::shell::Command;
pub(super) use tree::work_tree;
use tree::{discarded, from_file, patched};

mod tree;

/// What a call would do to a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Act {
    /// Removes, moves or changes it with all it holds: a folder above a guard's file counts.
    Whole,
    /// Writes that very file (or a file in a folder named as the target).
    Write,
    /// Puts back the committed version of what is under it, where git would change it (`git
    /// restore`, `checkout --`, `reset --hard`, `stash`), and takes away untracked files too
    /// when `untracked` (`stash -u`).
    Discard { untracked: bool },
}

/// What `command` does to which paths.
pub(super) fn acts(command: &Command) -> Vec<(PathBuf, Act)> {
    let mut out: Vec<(PathBuf, Act)> = command
        .redirects
        .iter()
        .filter_map(|redirect| {
            let target = redirect.trim_start_matches(['>', '&', '|', '<']);
            let writes = redirect.starts_with('>')
                || redirect.starts_with("&>")
                || redirect.starts_with("<>");
            writes.then(|| (PathBuf::from(target), Act::Write))
        })
        .collect();
    let paths = || command.paths.iter().map(PathBuf::from);
    let has = |flag: &str| {
        command
            .flags
            .iter()
            .any(|f| f == flag || f.starts_with(&format!("{flag}=")))
    };
    let program = command.program.as_str();
    match program {
        "rm" | "rmdir" | "unlink" | "shred" | "srm" | "trash" | "trash-put" => {
            out.extend(paths().map(|p| (p, Act::Whole)));
        }
        // What mv takes away is its sources; its destination only receives them.
        "mv" => {
            let target = command.target.as_deref();
            let replaced = replaces_target(command);
            for path in &command.paths {
                let act = if Some(path.as_str()) == target && !replaced {
                    Act::Write
                } else {
                    Act::Whole
                };
                out.push((PathBuf::from(path), act));
            }
            out.extend(landed(command));
        }
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" => {
            let act = if has("-R") || has("--recursive") {
                Act::Whole
            } else {
                Act::Write
            };
            out.extend(paths().map(|p| (p, act)));
        }
        // A copy reads its sources and writes its target.
        "cp" | "install" | "ln" | "rsync" | "scp" | "link" | "ditto" | "gcp" => {
            out.extend(copied(command));
        }
        "tar" | "bsdtar" | "gtar" | "unzip" | "7z" | "7za" | "7zr" | "unrar" | "zip" => {
            out.extend(archive(command));
        }
        _ if COMPRESSORS.contains(&program) => {
            let keeps = [
                "-c",
                "--stdout",
                "--to-stdout",
                "-k",
                "--keep",
                "-l",
                "--list",
                "-t",
            ]
            .iter()
            .any(|flag| has(flag));
            if !keeps {
                out.extend(paths().map(|p| (p, Act::Whole)));
            }
        }
        "find" | "gfind" | "bfs" | "fd" | "fdfind" => out.extend(find(command)),
        // `patch [FILE [PATCH]]`: a file named on the line may be the one it patches.
        "patch" | "gpatch" => {
            out.extend(paths().map(|p| (p, Act::Write)));
            out.extend(patched(command, false));
        }
        // A file system mounted over a folder hides all it holds.
        "mount" | "umount" => out.extend(paths().map(|p| (p, Act::Whole))),
        // `of=` as the reader resolved it, where dd runs.
        "dd" => out.extend(option_values(command, &["of"])),
        "git" => match command.subcommand.as_deref() {
            Some("rm" | "mv" | "clean") => {
                out.extend(paths().map(|p| (p, Act::Whole)));
                // Pathspecs read from a file or the input: any of the work tree.
                if from_file(command) {
                    out.push((work_tree(Path::new(&command.folder)), Act::Whole));
                }
            }
            Some("apply" | "am") => out.extend(patched(command, true)),
            Some("mergetool") => {
                out.extend(paths().map(|p| (p, Act::Write)));
            }
            Some("checkout" | "switch" | "restore" | "reset" | "stash") => {
                out.extend(discarded(command));
            }
            _ => {}
        },
        _ => out.extend(others(command)),
    }
    out
}

/// What the programs that do not delete or copy do: the readers nothing, unless an option
/// makes them write (`sort -o`, `yq -i`); a script's runner reads the script and may write any
/// other path it is given; any other program may write every path it names.
fn others(command: &Command) -> Vec<(PathBuf, Act)> {
    let writes_all = || {
        command
            .paths
            .iter()
            .map(|p| (PathBuf::from(p), Act::Write))
            .collect()
    };
    let has = |flag: &str| {
        command
            .flags
            .iter()
            .any(|f| f == flag || f.starts_with(&format!("{flag}=")))
    };
    let in_place = has("--in-place") || command.flags.iter().any(|f| f.starts_with("-i"));
    let program = command.program.as_str();
    match program {
        "sort" => option_values(command, &["-o", "--output"]),
        // Its second operand is where it writes.
        "uniq" => command
            .paths
            .get(1)
            .map(|p| (PathBuf::from(p), Act::Write))
            .into_iter()
            .collect(),
        "yq" if in_place || has("--inplace") => writes_all(),
        "awk" | "gawk"
            if command
                .args
                .iter()
                .any(|a| a == "inplace" || a == "-i=inplace") =>
        {
            writes_all()
        }
        "sed" | "gsed" | "perl" | "ruby" if in_place => writes_all(),
        "sed" | "gsed" => Vec::new(),
        _ if READERS.contains(&program) => Vec::new(),
        // The first operand is the script, or the code of `-c`/`-e` (read in turn as a line),
        // or `-m`'s module: read, not written.
        _ if RUNNERS.contains(&program) => command
            .paths
            .iter()
            .skip(1)
            .map(|p| (PathBuf::from(p), Act::Write))
            .collect(),
        // What this reader does not know may write what it names.
        _ => writes_all(),
    }
}

/// The paths written inside the words a program is given as code or text rather than as files
/// (`python3 -c "open('/p/config.yaml', 'w')"`, `perl -e 'unlink "..."'`, `awk '{print >
/// "..."}'`, `sqlite3 db ".output FILE"`): a program not known to only read may do anything
/// with a path its code names, so each absolute, `~/` or `$HOME/` path in a word that holds
/// more than a path (a space, a quote, a bracket, ...) counts, and so does the code fed to an
/// interpreter on its input and a redirection's target made by a command. Readers other than
/// awk and sed (whose scripts can write) leave their words alone, and so do the shells, whose
/// code is read as commands.
pub(super) fn named_in_code(command: &Command, home: Option<&Path>) -> Vec<PathBuf> {
    // What tells code or text from a path written as one word (a brace list or `DIR/{}` is
    // one path, read as such).
    const CODE: &[char] = &[
        ' ', '\t', '\n', '\'', '"', '(', ')', ';', '`', '<', '>', '|', '&',
    ];
    const APART: &[char] = &[
        ' ', '\t', '\n', '\'', '"', '(', ')', ',', ';', '`', '<', '>', '[', ']', '{', '}', '|',
        '&', '=', '+',
    ];
    let program = command.program.as_str();
    let scripted = matches!(program, "awk" | "gawk" | "mawk" | "nawk" | "sed" | "gsed");
    // A redirection's target made by a command (`> $(echo ...)`), whatever the program.
    let targets = command
        .redirects
        .iter()
        .filter(|r| r.starts_with('>') || r.starts_with("&>") || r.starts_with("<>"));
    let mut texts: Vec<&str> = targets.map(String::as_str).collect();
    let reads_only = READERS.contains(&program) && !scripted;
    if !reads_only && !SHELLS.contains(&program) {
        texts.extend(command.args.iter().map(String::as_str));
        // An interpreter's code fed on its input (`python3 - <<EOF`, `node <<< "..."`).
        if RUNNERS.contains(&program) {
            texts.extend(command.input.as_deref());
        }
    }
    texts
        .into_iter()
        .filter(|word| word.contains(CODE))
        .flat_map(|word| word.split(APART))
        // A path as code names it, taken as written: never a glob (`/** comment */`, `// x`
        // and `/*` open comments in code) and never the root alone.
        .filter(|token| {
            (token.starts_with('/')
                || token.starts_with("~/")
                || token.starts_with("$HOME/")
                || token.starts_with("${HOME}/"))
                && !token.contains(['*', '?', '[', ']', '{', '}'])
                && !token.starts_with("//")
                && token.len() > 1
        })
        .map(|token| PathBuf::from(crate::shell::resolve(token, "/", home)))
        .collect()
}

/// The values of a program's options that name where it writes (`sort -o FILE`).
fn option_values(command: &Command, options: &[&str]) -> Vec<(PathBuf, Act)> {
    command
        .flags
        .iter()
        .filter_map(|flag| {
            let (name, value) = flag.split_once('=')?;
            options
                .contains(&name)
                .then(|| (PathBuf::from(value), Act::Write))
        })
        .collect()
}

/// An archive program: unpacking into a folder (`-C`, `--directory`, `unzip -d`, `7z -o`) may
/// write any file in it; `--remove-files` and `zip -m` take the files they pack away; `zip`
/// writes its archive.
fn archive(command: &Command) -> Vec<(PathBuf, Act)> {
    let mut out: Vec<(PathBuf, Act)> = command
        .flags
        .iter()
        .filter_map(|f| {
            ["-C=", "--directory=", "-d=", "-o="]
                .iter()
                .find_map(|prefix| f.strip_prefix(prefix))
        })
        .map(|dir| (PathBuf::from(dir), Act::Whole))
        .collect();
    let removes = command
        .flags
        .iter()
        .any(|f| f == "--remove-files" || (command.program == "zip" && f == "-m"))
        || (command.program.starts_with("7z") && command.args.iter().any(|a| a == "-sdel"));
    if removes {
        out.extend(command.paths.iter().map(|p| (PathBuf::from(p), Act::Whole)));
    } else if command.program == "zip" {
        out.extend(
            command
                .paths
                .first()
                .map(|p| (PathBuf::from(p), Act::Write)),
        );
    }
    out
}

/// `find` that deletes (`-delete`) or runs a program that is not a reader on what it finds
/// (`-exec rm {} +`): it may take away anything under its starting points whose name its
/// `-name` tests allow; `-fprint FILE` writes FILE.
fn find(command: &Command) -> Vec<(PathBuf, Act)> {
    let args = &command.args;
    let mut out = option_values(command, &["-fprint", "-fprint0", "-fprintf", "-fls"]);
    let runs_writer = args.iter().enumerate().any(|(at, arg)| {
        matches!(arg.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
            && args.get(at + 1).is_none_or(|program| {
                let name = program.rsplit('/').next().unwrap_or(program);
                !READERS.contains(&name)
            })
    });
    let deletes = args
        .iter()
        .any(|a| a == "-delete" || a == "--exec-batch" || a == "-X")
        || runs_writer
        || (command.program.starts_with("fd") && args.iter().any(|a| a == "-x" || a == "--exec"));
    if !deletes {
        return out;
    }
    // The starting points are the words before the expression, which come first in `paths`.
    let starts = args
        .iter()
        .skip_while(|a| matches!(a.as_str(), "-H" | "-L" | "-P"))
        .take_while(|a| !a.starts_with('-') && !matches!(a.as_str(), "(" | "!" | ")"))
        .count();
    out.extend(
        command
            .paths
            .iter()
            .take(starts.max(1))
            .map(|p| (PathBuf::from(p), Act::Whole)),
    );
    out
}

/// The names a `find` call's tests let through, when they are plain `-name`/`-iname` tests with
/// no negation or alternative (`None`: any name).
pub(super) fn find_names(command: &Command) -> Option<Vec<(String, bool)>> {
    if !matches!(command.program.as_str(), "find" | "gfind" | "bfs") {
        return None;
    }
    let args = &command.args;
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "!" | "-not" | "-o" | "-or" | ","))
    {
        return None;
    }
    let names: Vec<(String, bool)> = args
        .windows(2)
        .filter_map(|pair| match pair[0].as_str() {
            "-name" => Some((pair[1].clone(), false)),
            "-iname" => Some((pair[1].clone(), true)),
            _ => None,
        })
        .collect();
    (!names.is_empty()).then_some(names)
}

/// What a copy, link or move writes: its target, the sources by name in a target folder, and
/// a hard link's source (the file itself under another name: writing through the link later
/// would change the guard's file where no path shows it).
fn copied(command: &Command) -> Vec<(PathBuf, Act)> {
    let has = |flag: &str| command.flags.iter().any(|f| f == flag);
    let target = command.target.as_deref();
    // A link put in place of a link to a folder (`ln -sfn elsewhere ~/.hermes`) takes the
    // whole folder away from where it was found.
    let act = if command.program == "ln" && replaces_target(command) {
        Act::Whole
    } else {
        Act::Write
    };
    let mut out: Vec<(PathBuf, Act)> = target
        .map(|t| (PathBuf::from(t), act))
        .into_iter()
        .collect();
    out.extend(landed(command));
    let hard_link = match command.program.as_str() {
        "ln" => !(has("-s") || has("--symbolic")),
        "link" => true,
        "cp" | "gcp" => has("-l") || has("--link"),
        _ => false,
    };
    // A hard link shares the file; a move by `rsync --remove-source-files` takes its sources
    // away.
    let moved = command.program == "rsync" && has("--remove-source-files");
    if moved {
        out.extend(
            command
                .paths
                .iter()
                .filter(|p| Some(p.as_str()) != target)
                .map(|p| (PathBuf::from(p), Act::Whole)),
        );
    } else if hard_link {
        out.extend(
            command
                .paths
                .iter()
                .filter(|p| Some(p.as_str()) != target)
                .map(|p| (PathBuf::from(p), Act::Write)),
        );
    }
    out
}

/// The symbolic links `ln -s` makes, each as where it is and where it points (made absolute as
/// the reader made the paths): into a folder named as the target, by the source's name.
pub(super) fn symlinks(command: &Command) -> Vec<(PathBuf, PathBuf)> {
    let symbolic = command.flags.iter().any(|f| f == "-s" || f == "--symbolic");
    if command.program != "ln" || !symbolic {
        return Vec::new();
    }
    let Some(target) = command.target.as_deref() else {
        return Vec::new();
    };
    let sources: Vec<&String> = command.paths.iter().filter(|p| *p != target).collect();
    let into = sources.len() > 1
        || command.args.last().is_some_and(|a| a.ends_with('/'))
        || command
            .flags
            .iter()
            .any(|f| f.starts_with("-t=") || f.starts_with("--target-directory="))
        || Path::new(target).is_dir();
    sources
        .into_iter()
        .filter_map(|source| {
            let link = if into {
                Path::new(target).join(Path::new(source).file_name()?)
            } else {
                PathBuf::from(target)
            };
            Some((link, PathBuf::from(source)))
        })
        .collect()
}

/// Whether a move or a link puts its source in the target's place rather than into it: told
/// so (`-T`, `ln -n`), or the target is a symbolic link (which is replaced, not followed).
fn replaces_target(command: &Command) -> bool {
    let has = |flag: &str| command.flags.iter().any(|f| f == flag);
    has("-T")
        || has("--no-target-directory")
        || (command.program == "ln" && (has("-n") || has("--no-dereference")))
        || command.target.as_deref().is_some_and(|target| {
            std::fs::symlink_metadata(target).is_ok_and(|meta| meta.file_type().is_symlink())
        })
}

/// Where a copy, link or move into a folder puts its sources: each by its own name in the
/// folder (`cp x/config.yaml ~/.hermes/` writes `~/.hermes/config.yaml`), and a folder's
/// contents copied as such (`cp -r x/. dir`, `rsync -a x/ dir`) may write anything in it.
fn landed(command: &Command) -> Vec<(PathBuf, Act)> {
    let Some(target) = command.target.as_deref() else {
        return Vec::new();
    };
    // `-T`: the source is put as the target itself, a folder's contents into the folder.
    if command
        .flags
        .iter()
        .any(|f| f == "-T" || f == "--no-target-directory")
    {
        return vec![(PathBuf::from(target), Act::Whole)];
    }
    let sources: Vec<&String> = command
        .paths
        .iter()
        .filter(|p| p.as_str() != target)
        .collect();
    let named_folder = command
        .flags
        .iter()
        .any(|f| f.starts_with("-t=") || f.starts_with("--target-directory=") || f == "-t");
    let into = named_folder
        || sources.len() > 1
        || command.args.last().is_some_and(|a| a.ends_with('/'))
        || Path::new(target).is_dir();
    if !into {
        return Vec::new();
    }
    // The sources as written: every word but the last, or every word when `-t` names the folder.
    let given = if named_folder {
        &command.args[..]
    } else {
        command.args.split_last().map_or(&[][..], |(_, rest)| rest)
    };
    let contents = given
        .iter()
        .any(|arg| arg.ends_with("/.") || (command.program == "rsync" && arg.ends_with('/')));
    let mut out: Vec<(PathBuf, Act)> = sources
        .iter()
        .filter_map(|source| Path::new(source.as_str()).file_name())
        .map(|name| (Path::new(target).join(name), Act::Write))
        .collect();
    if contents {
        out.push((PathBuf::from(target), Act::Whole));
    }
    out
}

/// Whether a `find` that keeps to `names` can reach `own`: a file by its name; a folder by the
/// name of anything in it (looked at to a bounded depth and count, past which it counts).
pub(super) fn names_reach(names: &[(String, bool)], own: &Path) -> bool {
    let matchers: Vec<globset::GlobMatcher> = names
        .iter()
        .filter_map(|(name, fold)| {
            globset::GlobBuilder::new(name)
                .case_insensitive(*fold)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .ok()
                .map(|glob| glob.compile_matcher())
        })
        .collect();
    if matchers.len() < names.len() {
        return true;
    }
    let kept = |path: &Path| {
        path.file_name()
            .is_some_and(|name| matchers.iter().any(|m| m.is_match(name)))
    };
    if kept(own) {
        return true;
    }
    let Ok(meta) = std::fs::symlink_metadata(own) else {
        return false;
    };
    if !meta.is_dir() {
        return false;
    }
    let mut seen = 0_usize;
    let mut folders = vec![(own.to_path_buf(), 0_u32)];
    while let Some((folder, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            return true;
        };
        for entry in entries {
            seen += 1;
            if seen > 500 {
                return true;
            }
            let Ok(entry) = entry else {
                return true;
            };
            let path = entry.path();
            if kept(&path) {
                return true;
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if depth >= 8 {
                    return true;
                }
                folders.push((path, depth + 1));
            }
        }
    }
    false
}
