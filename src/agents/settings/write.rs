//! Writing a settings file: atomically (a temporary file renamed over it, with the file's mode),
//! only when it still holds what was read, and never with text that would not parse back.
//! `install` keeps the file as it was beside it; `uninstall` removes only what `install` wrote,
//! so it keeps nothing, and leaves no file or folder that `install` made and no longer needed.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::{Format, SETTINGS_MAX, Settings, json, toml};

/// The name of the backup kept beside a settings file.
pub(crate) fn backup_path(real: &Path) -> PathBuf {
    let mut name = real.file_name().unwrap_or_default().to_os_string();
    name.push(".hermes-hooks.bak");
    real.with_file_name(name)
}

/// Writes `after` over the settings file, after keeping the file as it was in
/// [`backup_path`]. Refused when the text would not parse back, or when the file changed since
/// it was read (someone else wrote it meanwhile). Returns the backup's path, when one was kept.
pub(crate) fn write(settings: &Settings, after: &str, private: bool) -> Result<Option<PathBuf>> {
    let (dir, mode) = checked(settings, after, private)?;
    let backup = match &settings.before {
        Some(before) => {
            let backup = backup_path(&settings.real);
            put(&dir, &backup, before, mode)?;
            Some(backup)
        }
        None => None,
    };
    put(&dir, &settings.real, after, mode)?;
    Ok(backup)
}

/// What [`unwrite`] removed besides the entries.
#[derive(Debug, Default)]
pub(crate) struct Unwritten {
    /// Files and folders removed: the settings file `install` made (once it holds nothing
    /// else), the folders that held only it (up to the project root), and a backup that holds
    /// exactly what the file holds now.
    pub removed: Vec<PathBuf>,
}

/// Writes `after` (the file without the entries `install` wrote) over the settings file, with
/// the checks of [`write`] and no backup. A file left holding nothing but what `install` starts
/// a new file with (`fresh`), with no backup beside it (so `install` made it), is removed instead,
/// with the folders it leaves empty up to `root` (a project's root; none for user settings). A
/// backup that holds exactly `after` is removed too: it keeps nothing the file does not.
pub(crate) fn unwrite(
    settings: &Settings,
    after: &str,
    fresh: &[(&str, i64)],
    root: Option<&Path>,
) -> Result<Unwritten> {
    let (dir, mode) = checked(settings, after, root.is_none())?;
    let real = &settings.real;
    let backup = backup_path(real);
    let kept = match crate::ground::limits::read(&backup, SETTINGS_MAX) {
        Ok(bytes) => Some(bytes),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", backup.display())),
    };
    let mut unwritten = Unwritten::default();
    // Only a file named as it is: removing the target of a symlink would leave the link.
    if kept.is_none() && settings.path == *real && holds_only(after, settings.format, fresh) {
        fs::remove_file(real).with_context(|| format!("cannot remove {}", real.display()))?;
        unwritten.removed.push(settings.path.clone());
        if let Some(root) = root {
            for folder in settings.path.ancestors().skip(1) {
                if folder == root || !folder.starts_with(root) || fs::remove_dir(folder).is_err() {
                    break;
                }
                unwritten.removed.push(folder.to_path_buf());
            }
        }
        return Ok(unwritten);
    }
    put(&dir, real, after, mode)?;
    if kept.as_deref() == Some(after.as_bytes()) {
        fs::remove_file(&backup).with_context(|| format!("cannot remove {}", backup.display()))?;
        unwritten.removed.push(backup);
    }
    Ok(unwritten)
}

/// Whether `text` holds nothing but the top-level keys `install` starts a new file with.
fn holds_only(text: &str, format: Format, fresh: &[(&str, i64)]) -> bool {
    if text.trim().is_empty() {
        return true;
    }
    let value: Option<Value> = match format {
        Format::Json => serde_json::from_str(text).ok(),
        // A comment is something a person wrote: the file stays.
        Format::JsonWithComments => json::parse(text, false)
            .ok()
            .and_then(|_| serde_json::from_str(text).ok()),
        Format::Toml => None,
    };
    value
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|object| {
            object.iter().all(|(key, value)| {
                fresh
                    .iter()
                    .any(|(name, number)| name == key && value.as_i64() == Some(*number))
            })
        })
}

/// Checks `after` parses back and the file still holds what was read; the folder to write in
/// and the mode to write with.
fn checked(settings: &Settings, after: &str, private: bool) -> Result<(PathBuf, u32)> {
    let check = match settings.format {
        Format::Toml => toml::parse(after).map(|_| ()),
        Format::Json => json::parse(after, false).map(|_| ()),
        Format::JsonWithComments => json::parse(after, true).map(|_| ()),
    };
    if let Err(err) = check {
        bail!(
            "the edit of {} would not parse ({err}); nothing was written",
            settings.path.display()
        );
    }
    let real = &settings.real;
    let now = match crate::ground::limits::read(real, SETTINGS_MAX) {
        Ok(bytes) => Some(bytes),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", real.display())),
    };
    if now.as_deref() != settings.before.as_deref().map(str::as_bytes) {
        bail!(
            "{} changed while it was being edited; nothing was written: run the command again",
            settings.path.display()
        );
    }
    let dir = real
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mode = fs::metadata(real).map_or(if private { 0o600 } else { 0o644 }, |m| {
        m.permissions().mode() & 0o7777
    });
    Ok((dir, mode))
}

/// Writes `text` to `path` atomically with `mode`.
fn put(dir: &Path, path: &Path, text: &str, mode: u32) -> Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    crate::ground::statefile::write_atomic(dir, path, &format!(".{name}."), text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", path.display()))
}
