//! Whose a folder is: the owner rule for a project the walk finds (SPEC 2, "Whose project it
//! is"), and the name of a user id for the message.

use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// Root's user id: root can replace any file anyway, so a folder it owns is nobody else's.
const ROOT: u32 = 0;

/// `/etc/passwd` is read for a message only, and only this much of it.
const PASSWD_MAX: u64 = 4 * 1024 * 1024;

/// The user this process acts as (its effective user id, the one files are created and checked
/// as).
pub(crate) fn current() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The folder another user (neither `me` nor root) owns at `path`, with its owner: the entry
/// itself, else, when it is a symlink, what it resolves to (the link's owner chose where it
/// points, the target's owner what is in it). `None` for an entry that cannot be read: there is
/// nothing there to take hooks from.
pub(crate) fn foreign(path: &Path, me: u32) -> Option<(PathBuf, u32)> {
    let entry = fs::symlink_metadata(path).ok()?;
    let trusted = |uid: u32| uid == me || uid == ROOT;
    if !trusted(entry.uid()) {
        return Some((path.to_path_buf(), entry.uid()));
    }
    if entry.file_type().is_symlink() {
        let target = fs::metadata(path).ok()?;
        if !trusted(target.uid()) {
            let resolved = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            return Some((resolved, target.uid()));
        }
    }
    None
}

/// The user name of `uid` in `/etc/passwd`, when it has one there (users from a directory
/// service are not looked up: the id says as much).
pub(crate) fn name(uid: u32) -> Option<String> {
    let passwd = crate::ground::limits::read(Path::new("/etc/passwd"), PASSWD_MAX).ok()?;
    name_in(&String::from_utf8_lossy(&passwd), uid).map(str::to_owned)
}

/// `uid` as a person reads it: `alice (uid 4242)` with a name, else `uid 4242`.
pub(crate) fn describe(uid: u32, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{name} (uid {uid})"),
        None => format!("uid {uid}"),
    }
}

/// The name of `uid` in the text of a `passwd` file (`name:password:uid:...` per line).
fn name_in(passwd: &str, uid: u32) -> Option<&str> {
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id = fields.nth(1)?;
        (!name.is_empty() && id.parse::<u32>().ok()? == uid).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::name_in;

    #[test]
    fn a_user_id_is_named_from_the_passwd_text() {
        let passwd = "root:x:0:0:root:/root:/bin/sh\n\
                      # a comment\n\
                      :x:7:7::/:/bin/sh\n\
                      alice:x:4242:4242:Alice:/home/alice:/bin/sh\n\
                      broken line\n";
        assert_eq!(name_in(passwd, 4242), Some("alice"));
        assert_eq!(name_in(passwd, 0), Some("root"));
        assert_eq!(
            name_in(passwd, 7),
            None,
            "a line without a name names nobody"
        );
        assert_eq!(name_in(passwd, 4243), None);
    }
}
