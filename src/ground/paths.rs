//! Where things live: the Hermes home, its config.yaml, the allowlist and its lock; `~` expansion.

use anyhow::{Context as _, Result};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::ground::env;

/// File name of the consent allowlist inside the Hermes home (the file Hermes itself uses).
pub(crate) const ALLOWLIST_FILE: &str = "shell-hooks-allowlist.json";

/// File name of a rules file, in `<home>/hermes-hooks/` and in a project's `.agents/`.
pub(crate) const RULES_FILE: &str = "rules.yaml";

/// Where the user asked to look (flags); `None` means the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Locations<'a> {
    /// `--hermes-home`.
    pub hermes_home: Option<&'a Path>,
    /// `--config`.
    pub config: Option<&'a Path>,
    /// `--user-hooks`.
    pub user_hooks: Option<&'a Path>,
    /// `--project` (the project root).
    pub project: Option<&'a Path>,
}

/// The resolved locations for one invocation.
#[derive(Clone, Debug)]
pub(crate) struct Paths {
    /// The Hermes home (`--hermes-home`, `HERMES_HOME`, else `~/.hermes`).
    pub home: PathBuf,
    /// Hermes's config.yaml (`--config`, else `<home>/config.yaml`).
    pub config: PathBuf,
    /// The consent allowlist, `<home>/shell-hooks-allowlist.json`.
    pub allowlist: PathBuf,
    /// User-level Agent Hooks (`--user-hooks`, `$XDG_CONFIG_HOME/agents/hooks`, else
    /// `~/.config/agents/hooks`); `None` without a home directory.
    pub user_hooks: Option<PathBuf>,
    /// The project root: `--project`, else found by [`find_project`]; `None` when there is none.
    pub project: Option<PathBuf>,
    /// The nearest project the walk found and did not take, because another user owns a folder
    /// on the way to it (never set with `--project`).
    pub project_skipped: Option<Skipped>,
    /// Project-level Agent Hooks: `<project root>/.agents/hooks`.
    pub project_hooks: Option<PathBuf>,
    /// The hooks folders of nested projects between the agent's project and the directory the
    /// call runs in, outermost first: they add hooks and never replace the project's.
    pub nested_hooks: Vec<PathBuf>,
    /// Where the project search started from, for `list`, `doctor` and the audit log.
    pub project_from: ProjectFrom,
    /// The Hermes home was named (`--hermes-home`, `HERMES_HOME`) rather than the default.
    pub home_named: bool,
    /// The managed config (`$HERMES_MANAGED_DIR/config.yaml`, else `/etc/hermes/config.yaml`),
    /// when its folder exists.
    pub managed: Option<PathBuf>,
    /// `<home>/.env`.
    pub dotenv: PathBuf,
    /// The user's rules file, `<home>/hermes-hooks/rules.yaml`.
    pub user_rules: PathBuf,
    /// The folder `${project}` stands for in a rule: the project, else the repository root
    /// above where the search started, else that folder itself (never `$HOME` or `/`).
    pub work_root: Option<PathBuf>,
}

impl Paths {
    /// Resolves the locations from the flags, then the environment, then the defaults; the
    /// project is found from `start` (see [`find_project_for`]).
    pub(crate) fn resolve_for(flags: &Locations<'_>, start: &Start<'_>) -> Result<Self> {
        let home_named = flags.hermes_home.is_some() || env::var_os(env::HERMES_HOME).is_some();
        let home = match flags.hermes_home {
            Some(dir) => dir.to_path_buf(),
            None => match env::var_os(env::HERMES_HOME) {
                Some(dir) => expand_tilde_path(Path::new(&dir)),
                None => home_dir()
                    .context(
                        "cannot find the home directory; set HERMES_HOME or pass --hermes-home",
                    )?
                    .join(".hermes"),
            },
        };
        let config = flags
            .config
            .map_or_else(|| home.join("config.yaml"), Path::to_path_buf);
        let allowlist = home.join(ALLOWLIST_FILE);
        let user_hooks = match flags.user_hooks {
            Some(dir) => Some(dir.to_path_buf()),
            None => env::var_os(env::XDG_CONFIG_HOME)
                .map(PathBuf::from)
                .filter(|base| base.is_absolute())
                .or_else(|| home_dir().map(|h| h.join(".config")))
                .map(|base| base.join("agents").join("hooks")),
        };
        // A project named with `--project` is trusted as named.
        let (found, project_from) = match flags.project {
            Some(dir) => (
                Found {
                    root: Some(dir.to_path_buf()),
                    ..Found::default()
                },
                ProjectFrom::Flag,
            ),
            None => find_project_for(start),
        };
        let (project, project_skipped) = (found.root, found.skipped);
        let work_root = project.clone().or_else(|| match start {
            Start::Dir(dir) => found.repository.or_else(|| outside_a_repository(dir)),
            Start::Agent { root, .. } => Some(root.to_path_buf()),
        });
        let nested_hooks = found
            .nested
            .iter()
            .map(|dir| dir.join(".agents").join("hooks"))
            .collect();
        let project_hooks = project.as_deref().map(|root| {
            // Named from the current directory when it is the root, as people read it.
            let base = if std::env::current_dir().is_ok_and(|cwd| cwd == root) {
                Path::new("")
            } else {
                root
            };
            base.join(".agents").join("hooks")
        });
        let dotenv = home.join(".env");
        Ok(Self {
            home: home.clone(),
            config,
            allowlist,
            user_hooks,
            project,
            project_skipped,
            project_hooks,
            nested_hooks,
            project_from,
            home_named,
            managed: managed_dir().map(|dir| dir.join("config.yaml")),
            dotenv,
            user_rules: home.join("hermes-hooks").join(RULES_FILE),
            work_root,
        })
    }
}

/// Where the project search starts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Start<'a> {
    /// From a directory: the current one, or a payload's `cwd` when the caller names no project.
    Dir(&'a Path),
    /// From the project directory the calling agent names (`CLAUDE_PROJECT_DIR`, a workspace
    /// root, the Hermes session's launch directory), with the directory the call runs in, which
    /// may only add the hooks of nested projects below it.
    Agent {
        /// The agent's project directory.
        root: &'a Path,
        /// What named it (`CLAUDE_PROJECT_DIR`, `workspace_roots`, ...).
        named_by: &'static str,
        /// The call's working directory (the payload's `cwd`).
        cwd: Option<&'a Path>,
    },
}

/// What the project search started from, as `list`, `doctor` and the audit log say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProjectFrom {
    /// `--project DIR`.
    Flag,
    /// A directory: the current one or the payload's `cwd`.
    Dir(PathBuf),
    /// The directory the agent names, by what named it.
    Agent(PathBuf, &'static str),
}

impl std::fmt::Display for ProjectFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Flag => f.write_str("named with --project"),
            Self::Dir(dir) => write!(f, "the nearest .agents/hooks from {}", dir.display()),
            Self::Agent(dir, by) => write!(
                f,
                "the agent's project {} ({by}), whatever directory the call runs in",
                dir.display()
            ),
        }
    }
}

/// What the walk for a project found.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The project root, when a project was taken.
    pub root: Option<PathBuf>,
    /// The nearest project that was not taken because another user owns a folder on the way.
    pub skipped: Option<Skipped>,
    /// Folders with `.agents/hooks` below the root, on the way to the call's working directory
    /// (outermost first): nested projects, whose hooks are added to the root's.
    pub nested: Vec<PathBuf>,
    /// Where the walk ended at a `.git`: the repository root above the start, seen once.
    pub repository: Option<PathBuf>,
}

/// The project for a call. From a directory, the nearest project ([`find_project`]). From an
/// agent's project directory, the project found from there, whatever directory the call runs
/// in: the model moves the agent's working directory (`cd` between shell calls) and can make
/// folders, so neither may take a guard away. A working directory below the project (or below
/// the agent's directory, when it has no hooks of its own) adds the hooks of each folder with
/// `.agents/hooks` on the way down to it (owned as [`find_project`] requires; a `.git` there
/// ends nothing), and one outside it adds none.
pub(crate) fn find_project_for(start: &Start<'_>) -> (Found, ProjectFrom) {
    match *start {
        Start::Dir(dir) => (find_project(dir), ProjectFrom::Dir(dir.to_path_buf())),
        Start::Agent {
            root,
            named_by,
            cwd,
        } => {
            let mut found = find_project(root);
            if let Some(cwd) = cwd {
                let top = found.root.clone().unwrap_or_else(|| root.to_path_buf());
                found.nested = nested_below(&top, cwd);
            }
            (found, ProjectFrom::Agent(root.to_path_buf(), named_by))
        }
    }
}

/// The folders strictly below `top`, down to `start` included, that have `.agents/hooks` and
/// that no other user owns (nor any folder between them and `start`), outermost first.
fn nested_below(top: &Path, start: &Path) -> Vec<PathBuf> {
    let (Ok(top), Ok(start)) = (std::path::absolute(top), std::path::absolute(start)) else {
        return Vec::new();
    };
    let (top, start) = (normalized(&top), normalized(&start));
    if start == top || !start.starts_with(&top) {
        return Vec::new();
    }
    let mut me = None;
    let mut nested: Vec<PathBuf> = start
        .ancestors()
        .take_while(|dir| *dir != top)
        .filter(|dir| has_hooks(dir))
        .filter(|dir| {
            let me = *me.get_or_insert_with(crate::ground::owner::current);
            foreign_on_the_way(dir, &start, me).is_none()
        })
        .map(Path::to_path_buf)
        .collect();
    nested.reverse();
    nested
}

/// A project the walk did not take: a folder on the way to its hooks is owned by another user
/// (neither the current user nor root), who could put there whatever would run as you.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The folder that has `.agents/hooks`.
    pub root: PathBuf,
    /// The folder another user owns: the hooks folder, `.agents`, the root, or a folder between
    /// the root and the start directory (for a symlink, the link or the folder it leads to).
    pub folder: PathBuf,
    /// Its owner's user id.
    pub uid: u32,
    /// Its owner's user name, when the user database has one.
    pub owner_name: Option<String>,
}

impl Skipped {
    /// The owner as a person reads it: `alice (uid 4242)`, else `uid 4242`.
    pub(crate) fn owner(&self) -> String {
        crate::ground::owner::describe(self.uid, self.owner_name.as_deref())
    }

    /// The hooks folder that was not taken.
    pub(crate) fn hooks(&self) -> PathBuf {
        self.root.join(".agents").join("hooks")
    }

    /// Why it was not taken, and how to take it anyway.
    pub(crate) fn reason(&self) -> String {
        let folder = if self.folder == self.hooks() {
            "it".to_owned()
        } else {
            self.folder.display().to_string()
        };
        format!(
            "{folder} is owned by {}, who is neither you nor root; pass --project {} to use it",
            self.owner(),
            self.root.display()
        )
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not taken as a project's hooks: {}",
            self.hooks().display(),
            self.reason()
        )
    }
}

/// Where a project with no `.agents` folder lies when the walk up from `start` met no `.git`
/// (a repository root it met is the place): `start` itself, never the home folder or `/`.
fn outside_a_repository(start: &Path) -> Option<PathBuf> {
    let start = normalized(&std::path::absolute(start).ok()?);
    let home = home_dir().map(|home| normalized(&home));
    (start.parent().is_some() && home.as_deref() != Some(start.as_path())).then_some(start)
}

/// The project root for `start`: the nearest directory, `start` included, that has
/// `.agents/hooks`. The walk stops at the first directory that has `.git` (the repository root:
/// a hooks folder above it belongs to someone else), and `$HOME` and `/` are never a project.
///
/// A found directory is not taken when another user (neither the current user nor root) owns
/// its hooks folder, its `.agents`, itself, or any folder between it and `start` (for a symlink,
/// the link or what it resolves to): that user could put there what would run as you. The walk
/// then goes on upward, so a hooks folder planted below your project cannot switch off your
/// project's hooks; a directory above it is taken only if it passes the same rule, which it
/// cannot when the foreign folder lies between. The nearest one skipped is kept for the warning.
pub(crate) fn find_project(start: &Path) -> Found {
    let mut found = Found::default();
    let Ok(start) = std::path::absolute(start) else {
        return found;
    };
    let start = normalized(&start);
    let home = home_dir().map(|home| normalized(&home));
    let mut me = None; // asked only once there is a folder to judge
    for dir in start.ancestors() {
        if dir.parent().is_none() || home.as_deref() == Some(dir) {
            break;
        }
        if has_hooks(dir) {
            let me = *me.get_or_insert_with(crate::ground::owner::current);
            match foreign_on_the_way(dir, &start, me) {
                None => {
                    found.root = Some(dir.to_path_buf());
                    break;
                }
                Some((folder, uid)) => {
                    found.skipped.get_or_insert_with(|| Skipped {
                        root: dir.to_path_buf(),
                        folder,
                        uid,
                        owner_name: crate::ground::owner::name(uid),
                    });
                }
            }
        }
        if dir.join(".git").exists() {
            found.repository = Some(dir.to_path_buf());
            break;
        }
    }
    found
}

/// Whether `dir` has `.agents/hooks`. A folder that cannot be looked into (permission denied,
/// an I/O error) counts as having it, so the load reads it and says why it cannot: an error
/// while looking for hooks is never "no hooks".
///
/// A rules file (`.agents/rules.yaml`) makes a project as well: a project may have rules and no
/// hook folder.
fn has_hooks(dir: &Path) -> bool {
    let agents = dir.join(".agents");
    // Most folders have no `.agents`: one look says so for both.
    match std::fs::metadata(&agents) {
        Ok(meta) if !meta.is_dir() => return false,
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return false;
        }
        _ => {}
    }
    let there = |path: &Path, dir: bool| match std::fs::metadata(path) {
        Ok(meta) => !dir || meta.is_dir(),
        Err(err) => !matches!(
            err.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
        ),
    };
    there(&agents.join("hooks"), true) || there(&agents.join(RULES_FILE), false)
}

/// The first folder another user owns among `root`'s `.agents/hooks`, its `.agents`, `root`
/// itself and every folder from `start` up to `root`, with its owner.
fn foreign_on_the_way(root: &Path, start: &Path, me: u32) -> Option<(PathBuf, u32)> {
    let agents = root.join(".agents");
    let hooks = agents.join("hooks");
    let rules = agents.join(RULES_FILE);
    let below = start.ancestors().take_while(|dir| *dir != root);
    [hooks.as_path(), rules.as_path(), agents.as_path(), root]
        .into_iter()
        .chain(below)
        .find_map(|folder| crate::ground::owner::foreign(folder, me))
}

/// The managed scope's folder, found as Hermes finds it: `$HERMES_MANAGED_DIR` when set (and
/// then only if it is a directory), else `/etc/hermes` when it is one.
pub(crate) fn managed_dir() -> Option<PathBuf> {
    Some(managed_dir_path()).filter(|dir| dir.is_dir())
}

/// Where the managed scope's folder would be, whether or not it is there.
pub(crate) fn managed_dir_path() -> PathBuf {
    match env::var_os(env::HERMES_MANAGED_DIR) {
        Some(dir) if !dir.to_string_lossy().trim().is_empty() => {
            PathBuf::from(dir.to_string_lossy().trim())
        }
        _ => PathBuf::from(MANAGED_DEFAULT),
    }
}

/// Where the managed scope lives when `HERMES_MANAGED_DIR` does not say.
pub(crate) const MANAGED_DEFAULT: &str = "/etc/hermes";

/// The lock file that serialises writers of `allowlist`: the same path with `.lock` appended.
pub(crate) fn lock_path(allowlist: &Path) -> PathBuf {
    let mut name = allowlist.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The user's home directory, asked once per process (a `run` needs it in several places, and
/// each ask builds every base folder).
pub(crate) fn home_dir() -> Option<PathBuf> {
    static HOME: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    HOME.get_or_init(|| directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf()))
        .clone()
}

/// The user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), where the memos live.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.cache_dir().to_path_buf())
}

/// Expands a leading `~` (alone or followed by `/`) to the home directory. `~user` is left as it is.
pub(crate) fn expand_tilde(word: &str) -> Cow<'_, str> {
    let rest = match word.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => rest,
        _ => return Cow::Borrowed(word),
    };
    match home_dir() {
        Some(home) => Cow::Owned(format!("{}{rest}", home.to_string_lossy())),
        None => Cow::Borrowed(word),
    }
}

/// Where `path` really is, every link on the way and at its end followed, as
/// [`std::fs::canonicalize`] has it. On Linux the kernel says so in one walk of the path: a
/// plain absolute path is asked whether any link lies on its way (`openat2` refusing links),
/// and only one that has a link is followed, by its descriptor's name in `/proc/self/fd`;
/// following each folder in turn walks the path once per folder. Elsewhere, or where the
/// kernel does not answer plainly, it is `canonicalize`.
pub(crate) fn real(path: &Path) -> std::io::Result<PathBuf> {
    match link_free(path) {
        Some(Ok(())) => return Ok(rebuilt(path)),
        Some(Err(err)) => return Err(err),
        None => {}
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{Mode, OFlags};
        use std::os::fd::AsRawFd as _;
        use std::os::unix::ffi::OsStringExt as _;
        let fd = rustix::fs::open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty())?;
        let name = format!("/proc/self/fd/{}", fd.as_raw_fd());
        if let Ok(real) = rustix::fs::readlink(name.as_str(), Vec::new()) {
            let real = std::ffi::OsString::from_vec(real.into_bytes());
            let plain = real.as_encoded_bytes().starts_with(b"/")
                && !real.as_encoded_bytes().ends_with(b" (deleted)");
            if plain {
                return Ok(PathBuf::from(real));
            }
        }
    }
    std::fs::canonicalize(path)
}

/// Where `path` would be with the links on its way followed, also when it is not there yet (a
/// file about to be written): where it is named when no link lies on the way to what is there,
/// else its folder's real place and its name; `None` when, past a link, that folder cannot be
/// found.
pub(crate) fn real_or_planned(path: &Path) -> Option<PathBuf> {
    if let Some(Err(err)) = link_free(path)
        && err.kind() == std::io::ErrorKind::NotFound
    {
        // Walked up to the missing part without meeting a link.
        return Some(rebuilt(path));
    }
    if let Ok(real) = real(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = real(path.parent()?).ok()?;
    Some(folder.join(name))
}

/// `path` part by part (a doubled or trailing `/` dropped), in one allocation.
fn rebuilt(path: &Path) -> PathBuf {
    let mut out = PathBuf::with_capacity(path.as_os_str().len());
    for part in path.components() {
        out.push(part);
    }
    out
}

/// The kernel's word on a plain absolute path, asked without following any link (Linux
/// `openat2`): `Ok` when it is there with no link on its way, the error when a part of it is
/// missing (or not a folder, or closed to this user) before any link; `None` when a link lies
/// on the way, the path is not plain, or the kernel cannot say.
fn link_free(path: &Path) -> Option<std::io::Result<()>> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, Mode, OFlags, ResolveFlags};
        use rustix::io::Errno;
        use std::path::Component;
        let plain = path.is_absolute()
            && path
                .components()
                .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
        if plain {
            let flags = OFlags::PATH | OFlags::CLOEXEC;
            match rustix::fs::openat2(CWD, path, flags, Mode::empty(), ResolveFlags::NO_SYMLINKS) {
                Ok(_) => return Some(Ok(())),
                Err(err @ (Errno::NOENT | Errno::NOTDIR | Errno::ACCESS)) => {
                    return Some(Err(err.into()));
                }
                // A link (or a kernel without `openat2`).
                Err(_) => {}
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
    None
}

/// `path` with `.` parts dropped and each `..` taking away the part before it, without looking
/// at the file system (as SPEC 7 asks of approval keys: the same hook, approved from one
/// directory, is approved from every other). `..` at the root stays at the root.
pub(crate) fn normalized(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::with_capacity(path.as_os_str().len());
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                let at_root = matches!(
                    out.components().next_back(),
                    None | Some(Component::RootDir | Component::Prefix(_))
                );
                let after_parent =
                    matches!(out.components().next_back(), Some(Component::ParentDir));
                if at_root && out.has_root() {
                    // `/..` is `/`.
                } else if at_root || after_parent {
                    out.push("..");
                } else {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

fn expand_tilde_path(path: &Path) -> PathBuf {
    match path.to_str() {
        Some(text) => PathBuf::from(expand_tilde(text).as_ref()),
        None => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::{expand_tilde, lock_path, normalized, real};
    use std::path::Path;

    #[test]
    fn real_follows_every_link_as_canonicalize_does() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(base.join("a/b")).unwrap();
        std::fs::write(base.join("a/b/file"), "x").unwrap();
        std::os::unix::fs::symlink(base.join("a"), base.join("to-a")).unwrap();
        std::os::unix::fs::symlink("b/file", base.join("a/to-file")).unwrap();
        std::os::unix::fs::symlink(base.join("gone"), base.join("dangling")).unwrap();
        for named in [
            "a/b/file",
            "to-a/b/file",
            "to-a/to-file",
            "to-a/b/../b",
            "to-a",
        ] {
            let path = base.join(named);
            assert_eq!(
                real(&path).unwrap(),
                std::fs::canonicalize(&path).unwrap(),
                "{named}"
            );
        }
        assert_eq!(
            real(&base.join("to-a/to-file")).unwrap(),
            base.join("a/b/file")
        );
        for missing in ["dangling", "to-a/nothing", "nothing/file", "a/b/file/x"] {
            assert!(real(&base.join(missing)).is_err(), "{missing}");
        }
    }

    #[test]
    fn lock_is_a_sidecar() {
        assert_eq!(
            lock_path(Path::new("/h/shell-hooks-allowlist.json")),
            Path::new("/h/shell-hooks-allowlist.json.lock")
        );
    }

    #[test]
    fn normalised_lexically() {
        for (path, want) in [
            ("/a/b/../c/./d", "/a/c/d"),
            ("/a/../../b", "/b"),
            ("/..", "/"),
            ("a/../../b", "../b"),
            ("./a/.", "a"),
            ("a/..", "."),
        ] {
            assert_eq!(normalized(Path::new(path)), Path::new(want), "{path}");
        }
    }

    #[test]
    fn tilde_forms() {
        assert_eq!(expand_tilde("~user/x"), "~user/x");
        assert_eq!(expand_tilde("a~/x"), "a~/x");
        assert!(!expand_tilde("~/x").starts_with('~'));
        assert!(!expand_tilde("~").starts_with('~'));
    }
}
