//! A request for help: `kubectl delete namespace prod --help` prints how `delete` is used and
//! deletes nothing, so it is read as `kubectl --help`. Only for programs whose own parser (the
//! same on every system, not the C library's `getopt`) reads every option before it acts and
//! stops at the help option wherever it stands, and only for their built-in subcommands (a
//! plugin or an extension of another name would be handed the words). Where the word before
//! the help option is an option, it may be that option's value (`-n --help`), so the line is
//! read as written.

/// A family of programs: the programs, the subcommands the rule holds for (empty: all of
/// them), and the words that ask for help.
struct Family {
    programs: &'static [&'static str],
    subcommands: &'static [&'static str],
    asks: &'static [&'static str],
}

/// Cobra (`kubectl`, `helm`, `gh`, `glab`, `pulumi`, `docker`), mitchellh/cli (`terraform`,
/// `tofu`, `vault`), git's own option parser, and gcloud's and az's.
const FAMILIES: &[Family] = &[
    Family {
        programs: &["kubectl", "oc"],
        subcommands: &[
            "delete", "drain", "replace", "scale", "patch", "apply", "rollout", "taint", "cordon",
            "uncordon", "label", "annotate", "edit", "set", "create",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["helm"],
        subcommands: &[
            "uninstall",
            "delete",
            "del",
            "un",
            "rollback",
            "upgrade",
            "install",
            "repo",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["gh"],
        subcommands: &[
            "repo", "release", "secret", "variable", "api", "pr", "issue", "workflow", "run",
            "gist", "ssh-key", "gpg-key", "cache", "label", "ruleset",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["glab"],
        subcommands: &[
            "repo", "release", "variable", "api", "mr", "issue", "ci", "schedule", "snippet",
            "label",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["pulumi"],
        subcommands: &[
            "destroy", "down", "up", "update", "stack", "state", "cancel",
        ],
        asks: &["--help", "-h"],
    },
    // Not `run`, `exec`, `create` or `container`/`compose`: what follows an image or a
    // service there is the container's own command line.
    Family {
        programs: &["docker", "podman", "nerdctl"],
        subcommands: &[
            "rm", "rmi", "kill", "stop", "system", "volume", "image", "network", "builder",
            "buildx", "swarm", "secret", "config",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["terraform", "tofu"],
        subcommands: &[
            "destroy",
            "apply",
            "state",
            "workspace",
            "taint",
            "untaint",
            "force-unlock",
            "import",
            "plan",
        ],
        asks: &["--help", "-help", "-h"],
    },
    Family {
        programs: &["vault"],
        subcommands: &[
            "kv", "delete", "write", "read", "secrets", "auth", "policy", "token", "lease",
        ],
        asks: &["--help", "-help", "-h"],
    },
    // A git builtin (`stash` and `rebase` are since git 2.22) cannot be replaced by an alias of
    // its name. Not `filter-branch`, a shell script that hands the words after its options to
    // rev-list and runs.
    Family {
        programs: &["git"],
        subcommands: &[
            "reset",
            "clean",
            "checkout",
            "restore",
            "switch",
            "stash",
            "branch",
            "update-ref",
            "reflog",
            "push",
            "rm",
            "gc",
            "prune",
            "worktree",
            "tag",
            "symbolic-ref",
            "remote",
            "rebase",
            "commit",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["gcloud", "az"],
        subcommands: &[],
        asks: &["--help", "-h"],
    },
    // Package tools' own parsers (nopt, clap, argparse, OptionParser), for the subcommands
    // that publish or remove.
    Family {
        programs: &["npm", "pnpm"],
        subcommands: &[
            "publish",
            "unpublish",
            "deprecate",
            "dist-tag",
            "owner",
            "access",
            "uninstall",
        ],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["cargo"],
        subcommands: &["publish", "yank", "owner", "clean"],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["twine"],
        subcommands: &["upload", "register"],
        asks: &["--help", "-h"],
    },
    Family {
        programs: &["gem"],
        subcommands: &["push", "yank", "owner", "uninstall"],
        asks: &["--help", "-h"],
    },
    // Deployment tools (yargs, click, cobra) for the subcommands that tear down.
    Family {
        programs: &["cdk", "cdktf", "serverless", "sls", "sam", "azd", "copilot"],
        subcommands: &["destroy", "remove", "delete", "down", "deploy"],
        asks: &["--help"],
    },
];

/// Programs built on the C library's `getopt` (or a parser like it): one whose first word is
/// `--help` prints its help, or fails on an option it does not know, before it does anything.
/// Later in the line the word may be an operand (BSD `rm -r dir --help` deletes `dir`), so only
/// the first word counts.
const HELP_FIRST: &[&str] = &[
    "rm",
    "unlink",
    "shred",
    "dd",
    "mke2fs",
    "mkswap",
    "wipefs",
    "fdisk",
    "sfdisk",
    "sgdisk",
    "parted",
    "blkdiscard",
    "chmod",
    "chown",
    "chgrp",
    "truncate",
    "find",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "reboot",
    "poweroff",
    "halt",
    "systemctl",
    "dropdb",
    "dropuser",
    "psql",
    "mysql",
    "redis-cli",
    "crontab",
];

/// Whether `texts` (the program's word, then its arguments) only ask `program` for help.
pub(super) fn asked(program: &str, texts: &[String]) -> bool {
    if (HELP_FIRST.contains(&program) || program.starts_with("mkfs"))
        && texts.get(1).is_some_and(|w| w == "--help")
    {
        return true;
    }
    let Some(family) = FAMILIES.iter().find(|f| f.programs.contains(&program)) else {
        return false;
    };
    // Told only for the programs above, after their global options.
    let at = super::options::skip(
        texts,
        1,
        super::options::globals(program).unwrap_or_default(),
    );
    if at >= texts.len() {
        return false;
    }
    let subcommand = texts[at].as_str();
    if !family.subcommands.is_empty() && !family.subcommands.contains(&subcommand) {
        return false;
    }
    // Settings given on the line could name a program the help itself runs (git's pager or
    // manual viewer).
    if program == "git"
        && texts[1..at]
            .iter()
            .any(|w| w == "-c" || w.starts_with("--config-env") || w.starts_with("--exec-path"))
    {
        return false;
    }
    // The words after `--` are operands.
    let options = texts
        .iter()
        .position(|w| w == "--")
        .map_or(texts.len(), |end| end);
    (at + 1..options)
        .any(|i| family.asks.contains(&texts[i].as_str()) && !texts[i - 1].starts_with('-'))
}
