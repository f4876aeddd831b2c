//! Options as programs read them: which take a value, where they stop, and the global options of
//! programs with subcommands (`git -C dir -c k=v push`), so the words after them are found.

/// The options of one program that take a value (the rest of a short cluster or the next word;
/// `--long=value` or `--long value`).
#[derive(Clone, Copy, Default)]
pub(super) struct Spec {
    /// Short options that take a value.
    pub short: &'static str,
    /// Long options (without `--`) that take a value.
    pub long: &'static [&'static str],
    /// Whether a word starting with `+` is an option too (`cargo +nightly build`).
    pub plus: bool,
}

/// One option, as [`walk`] finds it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Opt<'a> {
    Short(char, Option<&'a str>),
    Long(&'a str, Option<&'a str>),
}

/// Walks the options of `words` from `start` by `spec`, giving each to `seen`, and returns the
/// index of the first word that is not an option (after a `--`, the word after it). `seen`
/// returns `false` to stop at that option (it is then at the returned index).
pub(super) fn walk<'a>(
    words: &'a [String],
    start: usize,
    spec: Spec,
    mut seen: impl FnMut(Opt<'a>) -> bool,
) -> usize {
    let mut at = start;
    while let Some(word) = words.get(at) {
        if word == "--" {
            return at + 1;
        }
        if spec.plus && word.len() > 1 && word.starts_with('+') {
            at += 1;
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let (value, used) = if value.is_none() && spec.long.contains(&name) {
                (words.get(at + 1).map(String::as_str), 2)
            } else {
                (value, 1)
            };
            if !seen(Opt::Long(name, value)) {
                return at;
            }
            at += used;
            continue;
        }
        let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) else {
            return at;
        };
        let mut used = 1;
        for (i, c) in cluster.char_indices() {
            if spec.short.contains(c) {
                let rest = &cluster[i + c.len_utf8()..];
                let value = if rest.is_empty() {
                    used = 2;
                    words.get(at + 1).map(String::as_str)
                } else {
                    Some(rest)
                };
                if !seen(Opt::Short(c, value)) {
                    return at;
                }
                break;
            }
            if !seen(Opt::Short(c, None)) {
                return at;
            }
        }
        at += used;
    }
    at
}

/// The index of the first word from `start` that is not an option of `spec`.
pub(super) fn skip(words: &[String], start: usize, spec: Spec) -> usize {
    walk(words, start, spec, |_| true)
}

/// The global options of programs that have subcommands: the options that come before the
/// subcommand and take a value.
#[allow(clippy::too_many_lines)] // one arm per program, a table
pub(super) fn globals(program: &str) -> Option<Spec> {
    let spec = match program {
        "git" => Spec {
            short: "Cc",
            long: &[
                "git-dir",
                "work-tree",
                "namespace",
                "config-env",
                "super-prefix",
                "exec-path",
                "list-cmds",
                "attr-source",
            ],
            plus: false,
        },
        "kubectl" | "oc" | "k" => Spec {
            short: "nsv",
            long: &[
                "namespace",
                "context",
                "cluster",
                "kubeconfig",
                "server",
                "user",
                "token",
                "as",
                "as-group",
                "as-uid",
                "request-timeout",
                "cache-dir",
                "certificate-authority",
                "client-certificate",
                "client-key",
                "profile",
                "profile-output",
                "log-file",
                "tls-server-name",
                "password",
                "username",
                "v",
            ],
            plus: false,
        },
        "helm" => Spec {
            short: "n",
            long: &[
                "namespace",
                "kube-context",
                "kubeconfig",
                "kube-apiserver",
                "kube-token",
                "kube-as-user",
                "kube-as-group",
                "kube-ca-file",
                "registry-config",
                "repository-config",
                "repository-cache",
                "burst-limit",
            ],
            plus: false,
        },
        "docker" | "podman" | "nerdctl" => Spec {
            short: "Hcl",
            long: &[
                "host",
                "context",
                "config",
                "log-level",
                "tlscacert",
                "tlscert",
                "tlskey",
                "connection",
                "url",
                "root",
                "runroot",
                "storage-driver",
                "identity",
                "namespace",
                "address",
            ],
            plus: false,
        },
        "npm" | "pnpm" | "yarn" | "bun" => Spec {
            short: "Cw",
            long: &[
                "prefix",
                "workspace",
                "registry",
                "userconfig",
                "cache",
                "loglevel",
                "filter",
                "dir",
                "cwd",
            ],
            plus: false,
        },
        "cargo" => Spec {
            short: "CZ",
            long: &["config", "color", "manifest-path", "explain"],
            plus: true,
        },
        "aws" => Spec {
            short: "",
            long: &[
                "profile",
                "region",
                "output",
                "endpoint-url",
                "query",
                "cli-read-timeout",
                "cli-connect-timeout",
                "ca-bundle",
                "color",
                "cli-binary-format",
            ],
            plus: false,
        },
        "gcloud" | "gsutil" => Spec {
            short: "",
            long: &[
                "project",
                "account",
                "configuration",
                "format",
                "verbosity",
                "impersonate-service-account",
                "billing-project",
                "flags-file",
            ],
            plus: false,
        },
        "az" => Spec {
            short: "o",
            long: &["subscription", "output", "query"],
            plus: false,
        },
        "gh" | "glab" => Spec {
            short: "R",
            long: &["repo", "hostname"],
            plus: false,
        },
        "terraform" | "tofu" | "terragrunt" => Spec::default(),
        "pulumi" => Spec {
            short: "Cs",
            long: &["cwd", "stack", "color", "verbose"],
            plus: false,
        },
        "systemctl" | "journalctl" => Spec {
            short: "HM",
            long: &["host", "machine", "root"],
            plus: false,
        },
        "make" | "gmake" => Spec {
            short: "CfIjlowW",
            long: &["directory", "file", "makefile", "include-dir", "jobs"],
            plus: false,
        },
        "go" | "rustup" | "pip" | "pip3" | "uv" | "poetry" | "brew" | "apt" | "apt-get" | "dnf"
        | "yum" | "snap" | "flatpak" | "gem" | "bundle" | "mix" | "dotnet" | "deno"
        | "composer" | "vault" | "op" | "doppler" | "infisical" | "pass" | "heroku" | "fly"
        | "flyctl" | "vercel" | "netlify" | "wrangler" | "firebase" | "supabase" | "stripe"
        | "twine" | "nix" | "conda" | "mamba" | "redis-cli" | "consul" | "nomad" | "eksctl"
        | "doctl" | "linode-cli" | "hcloud" | "s3cmd" | "rclone" | "restic" | "borg"
        | "minikube" | "kind" | "k3d" | "skaffold" | "argocd" | "flux" | "ansible-galaxy"
        | "launchctl" | "service" | "crontab" | "zfs" | "zpool" | "lvm" | "diskutil"
        | "mysqladmin" | "mongosh" | "sqlite3" | "psql" | "mysql" | "tmux" | "screen" => {
            Spec::default()
        }
        _ => return None,
    };
    Some(spec)
}

#[cfg(test)]
mod tests {
    use super::{Opt, Spec, skip, walk};

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_short_option_that_takes_a_value_takes_the_rest_of_its_cluster_or_the_next_word() {
        let spec = Spec {
            short: "o",
            ..Spec::default()
        };
        let w = words("curl -fsSLo /bin/x https://a");
        let mut seen = Vec::new();
        let at = walk(&w, 1, spec, |opt| {
            seen.push(format!("{opt:?}"));
            true
        });
        assert_eq!(w[at], "https://a");
        assert_eq!(seen.len(), 5);
        assert_eq!(seen[4], format!("{:?}", Opt::Short('o', Some("/bin/x"))));
        assert_eq!(skip(&words("x -ofile y"), 1, spec), 2);
    }

    #[test]
    fn a_double_dash_ends_the_options_and_a_long_option_may_take_the_next_word() {
        let spec = Spec {
            long: &["git-dir"],
            short: "C",
            plus: false,
        };
        assert_eq!(skip(&words("git --git-dir .git push"), 1, spec), 3);
        assert_eq!(skip(&words("git --git-dir=.git push"), 1, spec), 2);
        assert_eq!(skip(&words("git -C d -P push"), 1, spec), 4);
        assert_eq!(skip(&words("x -a -- -b"), 1, Spec::default()), 3);
    }
}
