//! The Hermes plugin this binary ships (`hermes_plugin/`): its files as `install hermes` writes
//! them into `<home>/plugins/hermes-hooks/` (the version and this binary's path filled in), how
//! they are written and removed, and what Hermes's config says about it (enabled or not).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Deserialize;

/// The plugin's name, and its folder's under `<home>/plugins/`.
pub(crate) const NAME: &str = "hermes-hooks";

/// The command that enables it.
pub(crate) const ENABLE: &str = "hermes plugins enable hermes-hooks";

/// The version written into the plugin.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

const VERSION_MARK: &str = "@HERMES_HOOKS_VERSION@";
const BINARY_MARK: &str = "\"@HERMES_HOOKS_BIN@\"";
/// What a tool call meets when the binary cannot be found: `block` or `allow`.
const IF_MISSING_MARK: &str = "@HERMES_HOOKS_IF_MISSING@";

/// The files, as shipped (with the marks).
const FILES: [(&str, &str); 2] = [
    ("plugin.yaml", include_str!("hermes_plugin/plugin.yaml")),
    ("__init__.py", include_str!("hermes_plugin/__init__.py")),
];

/// Where Python keeps the compiled `__init__.py` (created by Hermes's import, removed with it).
const CACHE_DIR: &str = "__pycache__";

/// The plugin's folder under the Hermes home.
pub(crate) fn folder(home: &Path) -> PathBuf {
    home.join("plugins").join(NAME)
}

/// Each file's name and text, with the version, `binary` (an absolute path) and what a tool
/// call meets without it filled in.
pub(crate) fn files(
    binary: &Path,
    if_missing: super::settings::IfMissing,
) -> Result<Vec<(&'static str, String)>> {
    let path = binary
        .to_str()
        .context("this program's path is not UTF-8: it cannot be written into the plugin")?;
    // A JSON string is a Python string literal: whatever the path holds stays inside it.
    let literal = serde_json::to_string(path)?;
    Ok(FILES
        .iter()
        .map(|(name, text)| {
            (
                *name,
                text.replace(BINARY_MARK, &literal)
                    .replace(VERSION_MARK, VERSION)
                    .replace(IF_MISSING_MARK, if_missing.as_str()),
            )
        })
        .collect())
}

/// What happens to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    Created,
    Updated,
    Unchanged,
    Removed,
    /// Not there (uninstall).
    Absent,
}

impl Change {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Updated => "updated",
            Self::Unchanged => "unchanged",
            Self::Removed => "removed",
            Self::Absent => "absent",
        }
    }
}

/// One file's change, with its text before and after (for a diff).
pub(crate) struct FileChange {
    pub path: PathBuf,
    pub change: Change,
    pub before: String,
    pub after: String,
}

/// Refuses a plugins folder or plugin folder that is a symlink (writing through it would write
/// wherever it points), and a file in it that is not a regular file.
fn check_place(home: &Path) -> Result<()> {
    let plugins = home.join("plugins");
    for dir in [&plugins, &folder(home)] {
        if let Ok(meta) = fs::symlink_metadata(dir)
            && !meta.is_dir()
        {
            bail!(
                "{} is not a folder (a symlink or a file): nothing was written",
                dir.display()
            );
        }
    }
    Ok(())
}

/// Reads a file of the plugin folder: `None` when it is not there.
pub(crate) fn read_regular(path: &Path) -> Result<Option<String>> {
    match fs::symlink_metadata(path) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        Ok(meta) if !meta.is_file() => bail!(
            "{} is not a regular file: nothing was written",
            path.display()
        ),
        Ok(_) => {}
    }
    let bytes = crate::ground::limits::read(path, crate::ground::limits::MANIFEST_MAX.max(1 << 20))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Plans (and unless `dry_run`, makes) the plugin's files in `home`, pointing at `binary`.
pub(crate) fn install(
    home: &Path,
    (binary, if_missing): (&Path, super::settings::IfMissing),
    dry_run: bool,
) -> Result<Vec<FileChange>> {
    check_place(home)?;
    let dir = folder(home);
    let mut changes = Vec::new();
    for (name, after) in files(binary, if_missing)? {
        let path = dir.join(name);
        let before = read_regular(&path)?;
        let change = match &before {
            None => Change::Created,
            Some(text) if *text == after => Change::Unchanged,
            Some(_) => Change::Updated,
        };
        changes.push(FileChange {
            path,
            change,
            before: before.unwrap_or_default(),
            after,
        });
    }
    if !dry_run && changes.iter().any(|c| c.change != Change::Unchanged) {
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        // `__init__.py` last: Hermes never loads a new module beside an old manifest.
        for change in changes.iter().filter(|c| c.change != Change::Unchanged) {
            crate::ground::statefile::write_atomic(
                &dir,
                &change.path,
                ".hermes-hooks.",
                change.after.as_bytes(),
            )
            .with_context(|| format!("cannot write {}", change.path.display()))?;
        }
    }
    Ok(changes)
}

/// Plans (and unless `dry_run`, makes) the removal of the files `install` writes, Python's
/// compiled copies of them, and the folder when nothing else is left in it. Returns the
/// changes and what was left in the folder.
pub(crate) fn uninstall(home: &Path, dry_run: bool) -> Result<(Vec<FileChange>, Vec<PathBuf>)> {
    check_place(home)?;
    let dir = folder(home);
    let mut changes = Vec::new();
    for (name, _) in FILES {
        let path = dir.join(name);
        let before = read_regular(&path)?;
        changes.push(FileChange {
            change: if before.is_some() {
                Change::Removed
            } else {
                Change::Absent
            },
            path,
            before: before.unwrap_or_default(),
            after: String::new(),
        });
    }
    if !dry_run {
        for change in changes.iter().filter(|c| c.change == Change::Removed) {
            fs::remove_file(&change.path)
                .with_context(|| format!("cannot remove {}", change.path.display()))?;
        }
        remove_compiled(&dir.join(CACHE_DIR));
        // Only an empty folder goes (anything else in it is not ours).
        let _ = fs::remove_dir(&dir);
    }
    let left = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    !FILES.iter().any(|(f, _)| *f == name) && name != CACHE_DIR
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((changes, left))
}

/// Removes Python's compiled `__init__` files and the cache folder when it is then empty.
fn remove_compiled(cache: &Path) {
    if fs::symlink_metadata(cache).is_ok_and(|m| m.is_dir())
        && let Ok(entries) = fs::read_dir(cache)
    {
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("__init__.") && name.ends_with(".pyc") {
                let _ = fs::remove_file(entry.path());
            }
        }
        let _ = fs::remove_dir(cache);
    }
}

/// The plugin as found in a Hermes home.
pub(crate) enum Installed {
    /// No plugin.yaml.
    Absent,
    /// Installed, with the version its plugin.yaml gives (`None`: none could be read).
    At(Option<String>),
}

/// The plugin as installed: its version (from plugin.yaml), if it is there.
pub(crate) fn installed(home: &Path) -> Installed {
    #[derive(Deserialize)]
    struct Manifest {
        #[serde(default)]
        version: Option<serde_json::Value>,
    }
    let Ok(Some(text)) = read_regular(&folder(home).join("plugin.yaml")) else {
        return Installed::Absent;
    };
    let version = crate::config::yaml::parse::<Manifest>(&text)
        .ok()
        .and_then(|m| m.version)
        .map(|v| match v {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        });
    Installed::At(version)
}

/// Whether config.yaml's `plugins.enabled` lists the plugin (`None`: it cannot be told, the
/// file being unreadable or that key not a list of names).
pub(crate) fn enabled(config: &Path) -> Option<bool> {
    #[derive(Deserialize, Default)]
    struct Config {
        #[serde(default)]
        plugins: Option<Plugins>,
    }
    #[derive(Deserialize, Default)]
    struct Plugins {
        #[serde(default)]
        enabled: Option<Vec<String>>,
    }
    let text = match read_config(config) {
        Ok(Some(text)) => text,
        Ok(None) => return Some(false),
        Err(_) => return None,
    };
    let parsed = crate::config::yaml::parse::<Option<Config>>(&text).ok()?;
    Some(
        parsed
            .and_then(|c| c.plugins)
            .and_then(|p| p.enabled)
            .is_some_and(|names| names.iter().any(|n| n == NAME)),
    )
}

/// Hermes's config.yaml as Hermes reads it: through a symlink (a config kept with one's
/// dotfiles), a regular file only, bounded; `None` when there is none.
fn read_config(config: &Path) -> io::Result<Option<String>> {
    match crate::ground::limits::read(config, crate::ground::limits::CONFIG_MAX) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// How long newer Hermes waits for one `pre_tool_call` callback (a shell hook, the bridge, this
/// plugin) before it blocks the call, as `_resolve_hook_callback_timeout` in
/// `hermes_cli/plugins_dispatch.py` reads `plugins.hook_callback_timeout`: 30 s when the key is
/// absent, null, not a number or negative, at most 600 s; 0 (`None` here) switches the bound off.
pub(crate) fn callback_bound(config: &Path) -> Option<std::time::Duration> {
    #[derive(Deserialize, Default)]
    struct Config {
        #[serde(default)]
        plugins: Option<serde_json::Value>,
    }
    const DEFAULT: f64 = 30.0;
    const MAX: f64 = 600.0;
    let raw = read_config(config)
        .ok()
        .flatten()
        .and_then(|text| crate::config::yaml::parse::<Option<Config>>(&text).ok())
        .flatten()
        .and_then(|c| c.plugins)
        .and_then(|p| p.get("hook_callback_timeout").cloned());
    // Python's float() of the value; what it refuses is the default.
    let seconds = match raw {
        Some(serde_json::Value::Number(n)) => n.as_f64().unwrap_or(DEFAULT),
        Some(serde_json::Value::Bool(b)) => f64::from(u8::from(b)),
        Some(serde_json::Value::String(s)) => s.trim().replace('_', "").parse().unwrap_or(DEFAULT),
        _ => DEFAULT,
    };
    let seconds = if seconds.is_nan() || seconds < 0.0 {
        DEFAULT
    } else {
        seconds.min(MAX)
    };
    (seconds > 0.0).then(|| std::time::Duration::from_secs_f64(seconds))
}
