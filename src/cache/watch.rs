//! Which watched folders and files changed since a given moment: inotify on Linux, so a cached
//! hook set is checked with one `read` however many hook folders it came from. Elsewhere, on file
//! systems that another machine can change unseen (NFS, SMB, FUSE, ...), and past the watch
//! limit, nothing is watched and the cache stats instead.
//!
//! A folder is watched for the names that matter in it (or for any name), a file for any change
//! to it, made through whichever of its names; an event on any other name is read and dropped.
//! Moments are a counter: every relevant event moves it on, and a watch remembers the moment of
//! its last event. Each watch counts the sets that use it and is removed once none does; one
//! whose folder or file is gone is forgotten when the kernel says so.
//!
//! The watches are few: at most a sixteenth of the user's inotify limit
//! (`fs.inotify.max_user_watches`) and never more than [`LIMIT_MAX`], so a pool of servers
//! leaves room for the user's other programs. Past that limit, or when the kernel refuses a
//! watch for lack of room, the rest is statted, and the watch says so once ([`Watch::notice`]).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;

/// The names in a folder whose changes matter.
#[derive(Clone, Debug)]
pub(super) enum Names {
    /// Every name (a hooks folder: a hook folder added, removed or renamed; a file: every event
    /// is about the file itself).
    Any,
    /// Only these.
    Only(Vec<OsString>),
}

impl Names {
    /// These names.
    pub(super) fn only(names: &[&str]) -> Self {
        Self::Only(names.iter().map(OsString::from).collect())
    }

    fn merge(&mut self, other: &Self) {
        match (&mut *self, other) {
            (Self::Any, _) => {}
            (_, Self::Any) => *self = Self::Any,
            (Self::Only(mine), Self::Only(theirs)) => {
                for name in theirs {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
        }
    }

    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    fn matter(&self, name: Option<&std::ffi::CStr>) -> bool {
        match (self, name) {
            (Self::Any, _) | (_, None) => true,
            (Self::Only(names), Some(name)) => {
                use std::os::unix::ffi::OsStrExt as _;
                let name = std::ffi::OsStr::from_bytes(name.to_bytes());
                names.iter().any(|n| n.as_os_str() == name)
            }
        }
    }
}

/// The most watches one cache holds, however high the user's limit.
pub(super) const LIMIT_MAX: usize = 1024;

/// What one cache may hold of the user's inotify watches: one part in this many.
const SHARE: usize = 16;

/// One watch as a set holds it: the kernel's number for it and the moment it was made (a number
/// can be given out again once its watch is gone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Token {
    id: i32,
    born: u64,
}

/// One watched folder or file.
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
struct Watched {
    names: Names,
    /// The moment it was made.
    born: u64,
    /// The moment of its last relevant event.
    changed: u64,
    /// How many tokens for it are held.
    users: usize,
}

/// How many watches may be held, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Limit {
    /// Given by `HERMES_HOOKS_WATCH_LIMIT`.
    Named(usize),
    /// A share of the user's limit, read when the first watch is made.
    Chosen,
}

/// Why a watch was refused for lack of room.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
enum Full {
    /// This cache holds as many as it may.
    Ours(usize),
    /// The kernel refused: the user's watches (or inotify instances) are used up.
    System(&'static str),
}

/// The folders and files watched, and the moment now.
#[derive(Debug)]
pub(super) struct Watch {
    #[cfg(target_os = "linux")]
    inotify: Option<std::os::fd::OwnedFd>,
    started: bool,
    limit: Limit,
    /// The most watches held, once started.
    most: usize,
    watched: HashMap<i32, Watched>,
    /// By device: whether inotify sees every change to its files.
    local: HashMap<u64, bool>,
    now: u64,
    /// The moment the kernel's queue overflowed (events were lost: everything changed).
    overflowed: u64,
    /// What to tell the user, first said first.
    notices: std::collections::VecDeque<String>,
    /// Whether a watch was refused for lack of room (that is said once).
    was_full: bool,
}

impl Watch {
    /// A watch that holds at most what `limit` says.
    pub(super) fn new(limit: Limit) -> Self {
        Self {
            #[cfg(target_os = "linux")]
            inotify: None,
            started: false,
            limit,
            most: 0,
            watched: HashMap::new(),
            local: HashMap::new(),
            now: 0,
            overflowed: 0,
            notices: std::collections::VecDeque::new(),
            was_full: false,
        }
    }

    /// A watch that watches nothing (so every file is statted), as on systems without inotify.
    #[cfg(test)]
    pub(super) fn off() -> Self {
        Self::new(Limit::Named(0))
    }

    /// The moment now: a change that comes later is after it.
    pub(super) const fn now(&self) -> u64 {
        self.now
    }

    /// How many watches are held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.watched.len()
    }

    /// Has `text` told to the user.
    pub(super) fn say(&mut self, text: String) {
        self.notices.push_back(text);
    }

    /// The next thing the user should hear: why files are statted that would have been
    /// watched.
    pub(super) fn notice(&mut self) -> Option<String> {
        self.notices.pop_front()
    }

    /// Whether what `token` watches changed after `moment` (a watch that is gone, or an
    /// overflow, counts as a change).
    pub(super) fn changed_since(&self, token: Token, moment: u64) -> bool {
        self.overflowed > moment
            || self
                .watched
                .get(&token.id)
                .is_none_or(|watched| watched.born != token.born || watched.changed > moment)
    }

    /// Gives back a token from [`Self::add`]; the last one given back removes its watch.
    pub(super) fn release(&mut self, token: Token) {
        let Some(watched) = self.watched.get_mut(&token.id) else {
            return;
        };
        if watched.born != token.born {
            return;
        }
        watched.users = watched.users.saturating_sub(1);
        if watched.users == 0 {
            self.watched.remove(&token.id);
            self.unwatch(token.id);
        }
    }

    #[cfg(target_os = "linux")]
    fn unwatch(&self, id: i32) {
        if let Some(fd) = &self.inotify {
            // Already gone when its folder was removed: nothing to do then.
            let _ = rustix::fs::inotify::remove_watch(fd, id);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn unwatch(&self, _id: i32) {}

    /// Watches `path`, a folder (for changes to `names` in it) or a file (`folder` false: for
    /// every change to it), on device `dev`. `contents` false: writes to the files in the folder
    /// do not matter, only names made, removed, moved or changed in mode or owner (a folder on
    /// the way to a source, which may be as busy as `/tmp`). `None` when it cannot be watched
    /// (no inotify, not a folder, a file system another machine can change, the limit), and the
    /// caller stats instead.
    #[cfg(target_os = "linux")]
    pub(super) fn add(
        &mut self,
        path: &Path,
        names: &Names,
        (folder, contents): (bool, bool),
        dev: u64,
    ) -> Option<Token> {
        use rustix::fs::inotify::{self, WatchFlags};
        self.start();
        if self.most == 0 || !self.sees_all_changes(dev, path) {
            return None;
        }
        let fd = self.inotify.as_ref()?;
        // Added to what the watch already asks for, when another set watches the same folder.
        let mut flags = WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::ATTRIB
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::MASK_ADD;
        if contents || !folder {
            flags |= WatchFlags::MODIFY | WatchFlags::CLOSE_WRITE;
        }
        if folder {
            flags |= WatchFlags::ONLYDIR;
        }
        let id = match inotify::add_watch(fd, path, flags) {
            Ok(id) => id,
            Err(rustix::io::Errno::NOSPC) => {
                self.full(&Full::System("fs.inotify.max_user_watches"));
                return None;
            }
            Err(_) => return None,
        };
        if let Some(watched) = self.watched.get_mut(&id) {
            watched.names.merge(names);
            watched.users += 1;
            return Some(Token {
                id,
                born: watched.born,
            });
        }
        if self.watched.len() >= self.most {
            let _ = inotify::remove_watch(fd, id);
            self.full(&Full::Ours(self.most));
            return None;
        }
        // A new watch: whoever held an old one of this number must look again.
        self.now += 1;
        self.watched.insert(
            id,
            Watched {
                names: names.clone(),
                born: self.now,
                changed: self.now,
                users: 1,
            },
        );
        Some(Token { id, born: self.now })
    }

    /// Without inotify nothing is watched.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn add(
        &mut self,
        _path: &Path,
        _names: &Names,
        _kind: (bool, bool),
        _dev: u64,
    ) -> Option<Token> {
        None
    }

    /// Opens the inotify descriptor and settles the limit, the first time.
    #[cfg(target_os = "linux")]
    fn start(&mut self) {
        use rustix::fs::inotify::{self, CreateFlags};
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        self.most = match self.limit {
            Limit::Named(most) => most,
            Limit::Chosen => share(
                std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches")
                    .ok()
                    .and_then(|text| text.trim().parse().ok()),
            ),
        };
        if self.most == 0 {
            return;
        }
        match inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK) {
            Ok(fd) => self.inotify = Some(fd),
            Err(rustix::io::Errno::MFILE) => {
                self.full(&Full::System("fs.inotify.max_user_instances"));
            }
            Err(_) => {}
        }
    }

    /// Whether inotify sees every change to the files of device `dev` (where `path` is): not on
    /// a file system that another machine, or a virtual machine's host, writes to directly.
    #[cfg(target_os = "linux")]
    fn sees_all_changes(&mut self, dev: u64, path: &Path) -> bool {
        *self.local.entry(dev).or_insert_with(|| {
            // `f_type` is a 32-bit word on some systems.
            #[allow(clippy::useless_conversion)]
            rustix::fs::statfs(path).is_ok_and(|fs| !is_shared(i64::from(fs.f_type)))
        })
    }

    /// Notes that a watch was refused for lack of room (said the first time only).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    fn full(&mut self, why: &Full) {
        if std::mem::replace(&mut self.was_full, true) {
            return;
        }
        let text = match why {
            Full::Ours(most) => {
                let whose = match self.limit {
                    Limit::Named(_) => {
                        format!("as {} says", crate::ground::env::HERMES_HOOKS_WATCH_LIMIT)
                    }
                    Limit::Chosen => format!(
                        "a sixteenth of fs.inotify.max_user_watches, at most {LIMIT_MAX}; \
                         {} changes it",
                        crate::ground::env::HERMES_HOOKS_WATCH_LIMIT
                    ),
                };
                format!(
                    "{most} files and folders are watched for changes, the most this server watches ({whose})"
                )
            }
            Full::System(setting) => {
                format!("the kernel refuses more inotify watches ({setting} is reached)")
            }
        };
        self.say(format!(
            "{text}; the others are checked by their metadata on every request, which makes each request slower"
        ));
    }

    /// Reads every event queued so far and moves the changed watches' moments on.
    #[cfg(target_os = "linux")]
    pub(super) fn drain(&mut self) {
        use rustix::fs::inotify::{ReadFlags, Reader};
        use std::mem::MaybeUninit;
        let Some(fd) = self.inotify.as_ref() else {
            return;
        };
        let mut buf = [MaybeUninit::<u8>::uninit(); 8192];
        let mut reader = Reader::new(fd, &mut buf);
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(rustix::io::Errno::INTR) => continue,
                // Nothing more queued (or the descriptor broke: then every entry is checked
                // against the watches' moments, which stay as they are).
                Err(_) => break,
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                self.now += 1;
                self.overflowed = self.now;
                continue;
            }
            if flags.contains(ReadFlags::IGNORED) {
                // The kernel dropped the watch (what it watched is gone): so does this side,
                // and whoever held it looks again.
                self.watched.remove(&event.wd());
                continue;
            }
            let Some(watched) = self.watched.get_mut(&event.wd()) else {
                continue;
            };
            if watched.names.matter(event.file_name()) {
                self.now += 1;
                watched.changed = self.now;
            }
        }
    }

    /// Without inotify there is nothing to read.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn drain(&mut self) {}
}

/// The watches one cache may hold when the user's limit is `user` (unknown: [`LIMIT_MAX`]).
fn share(user: Option<usize>) -> usize {
    user.map_or(LIMIT_MAX, |user| (user / SHARE).min(LIMIT_MAX))
}

/// Whether a file system of type `magic` (statfs's `f_type`) is one whose files can change
/// without the local kernel seeing it, so inotify cannot vouch for them.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn is_shared(magic: i64) -> bool {
    const SHARED: [i64; 14] = [
        0x6969,      // NFS
        0x517b,      // SMB
        0xff53_4d42, // CIFS
        0xfe53_4d42, // SMB2
        0x6573_5546, // FUSE (sshfs, virtiofs, rclone, ...)
        0x0102_1997, // 9P (WSL's Windows drives, virtual machines' shared folders)
        0x00c3_6400, // Ceph
        0x5346_414f, // AFS
        0x6b41_4653, // kAFS
        0x7375_7245, // Coda
        0x0bd0_0bd0, // Lustre
        0x0116_1970, // GFS2
        0x7461_636f, // OCFS2
        0x786f_4256, // VirtualBox shared folders
    ];
    // 32-bit systems give the magic as a signed word.
    SHARED.contains(&(magic & 0xffff_ffff))
}

#[cfg(test)]
mod tests {
    use super::{LIMIT_MAX, is_shared, share};

    #[test]
    fn a_server_takes_a_sixteenth_of_the_users_watches_and_at_most_its_own_limit() {
        assert_eq!(share(Some(8192)), 512);
        assert_eq!(share(Some(1 << 20)), LIMIT_MAX);
        assert_eq!(share(Some(10)), 0);
        assert_eq!(share(None), LIMIT_MAX);
    }

    #[test]
    fn network_and_host_shared_file_systems_are_not_watched() {
        for magic in [0x6969, 0xff53_4d42, 0x6573_5546, 0x0102_1997] {
            assert!(is_shared(magic), "{magic:#x}");
        }
        // CIFS as a 32-bit system gives it.
        assert!(is_shared(i64::from(i32::from_ne_bytes(
            0xff53_4d42_u32.to_ne_bytes()
        ))));
        for magic in [0xef53, 0x0102_1994, 0x9123_683e, 0x5846_5342, 0x794c_7630] {
            assert!(
                !is_shared(magic),
                "{magic:#x}: ext4, tmpfs, btrfs, xfs, overlayfs"
            );
        }
    }
}
