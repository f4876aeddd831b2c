//! Which watched folders changed since a given moment: inotify on Linux, so a cached hook set is
//! checked with one `read` however many hook folders it came from. Elsewhere (or past the watch
//! limit) nothing is watched and the cache stats every file instead.
//!
//! Each folder is watched for the names that matter in it (or for any name); an event on any
//! other name is read and dropped. Moments are a counter: every relevant event moves it on, and
//! a folder remembers the moment of its last event.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The names in a folder whose changes matter.
#[derive(Clone, Debug)]
pub(super) enum Names {
    /// Every name (a hooks folder: a hook folder added, removed or renamed).
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

/// How many folders one cache watches at most; past it, files are statted instead.
const WATCHES_MAX: usize = 2048;

/// One watched folder.
#[derive(Debug)]
struct Folder {
    names: Names,
    /// The moment of its last relevant event (`u64::MAX` once the watch is gone).
    changed: u64,
}

/// The folders watched, and the moment now.
#[derive(Debug, Default)]
pub(super) struct Watch {
    #[cfg(target_os = "linux")]
    inotify: Option<std::os::fd::OwnedFd>,
    #[cfg(target_os = "linux")]
    started: bool,
    folders: HashMap<i32, Folder>,
    paths: HashMap<PathBuf, i32>,
    now: u64,
    /// The moment the kernel's queue overflowed (events were lost: everything changed).
    overflowed: u64,
}

impl Watch {
    /// A watch that watches nothing (so every file is statted), as on systems without inotify.
    #[cfg(test)]
    pub(super) fn off() -> Self {
        Self {
            #[cfg(target_os = "linux")]
            started: true,
            ..Self::default()
        }
    }

    /// The moment now: a change that comes later is after it.
    pub(super) const fn now(&self) -> u64 {
        self.now
    }

    /// Whether the folder watched as `id` changed after `moment` (a watch that is gone, or an
    /// overflow, counts as a change).
    pub(super) fn changed_since(&self, id: i32, moment: u64) -> bool {
        self.overflowed > moment
            || self
                .folders
                .get(&id)
                .is_none_or(|folder| folder.changed > moment)
    }

    /// Watches `dir` for changes to `names`; `None` when it cannot be watched (no inotify, a
    /// path that is not a folder, the watch limit), and the caller stats instead.
    #[cfg(target_os = "linux")]
    pub(super) fn add(&mut self, dir: &Path, names: &Names) -> Option<i32> {
        use rustix::fs::inotify::{self, CreateFlags, WatchFlags};
        if !self.started {
            self.started = true;
            self.inotify = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).ok();
        }
        let fd = self.inotify.as_ref()?;
        if self.folders.len() >= WATCHES_MAX && !self.paths.contains_key(dir) {
            return None;
        }
        let flags = WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::MODIFY
            | WatchFlags::CLOSE_WRITE
            | WatchFlags::ATTRIB
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::ONLYDIR;
        let id = inotify::add_watch(fd, dir, flags).ok()?;
        self.paths.insert(dir.to_path_buf(), id);
        match self.folders.get_mut(&id) {
            Some(folder) if folder.changed != u64::MAX => folder.names.merge(names),
            _ => {
                // A new watch (or a number the kernel gave out again): whoever knew the old one
                // must look again.
                self.now += 1;
                self.folders.insert(
                    id,
                    Folder {
                        names: names.clone(),
                        changed: self.now,
                    },
                );
            }
        }
        Some(id)
    }

    /// Without inotify nothing is watched.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn add(&mut self, _dir: &Path, _names: &Names) -> Option<i32> {
        None
    }

    /// Reads every event queued so far and moves the changed folders' moments on.
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
                // against the folders' moments, which stay as they are).
                Err(_) => break,
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                self.now += 1;
                self.overflowed = self.now;
                continue;
            }
            let Some(folder) = self.folders.get_mut(&event.wd()) else {
                continue;
            };
            if flags.contains(ReadFlags::IGNORED) {
                folder.changed = u64::MAX;
                continue;
            }
            if folder.changed != u64::MAX && folder.names.matter(event.file_name()) {
                self.now += 1;
                folder.changed = self.now;
            }
        }
    }

    /// Without inotify there is nothing to read.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn drain(&mut self) {}
}
