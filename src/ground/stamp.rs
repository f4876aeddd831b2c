//! What stands for a file's bytes until they change: its device, inode, size, modification and
//! change times, and mode. Every write, `chmod`, rename and link moves the change time, and no
//! program can set it back (the modification time can be, as `touch -r`, `cp -p` and rsync do);
//! only a second change within the timestamp granularity of the first could leave the stamp as
//! it was, so a stamp stands for the bytes only once it is no longer [`Stamp::racy`] (Git trusts
//! its index the same way).

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A file's identity and the metadata a change moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    mode: u32,
}

impl Stamp {
    /// The stamp of `path` (symlinks followed); `None` when it cannot be statted.
    pub(crate) fn of(path: &Path) -> Option<Self> {
        std::fs::metadata(path).ok().map(|meta| Self::from(&meta))
    }

    /// The stamp of the file `meta` describes.
    pub(crate) fn from(meta: &Metadata) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            mode: meta.mode(),
        }
    }

    /// The device and inode: which file, whatever it holds.
    pub(crate) const fn identity(&self) -> (u64, u64) {
        (self.dev, self.ino)
    }

    pub(crate) const fn is_dir(&self) -> bool {
        self.mode & 0o170_000 == 0o040_000
    }

    /// The stamp as bytes, to name a memo by.
    pub(crate) fn bytes(&self) -> Vec<u8> {
        [
            self.dev,
            self.ino,
            self.size,
            self.mtime.0.cast_unsigned(),
            self.mtime.1.cast_unsigned(),
            self.ctime.0.cast_unsigned(),
            self.ctime.1.cast_unsigned(),
            u64::from(self.mode),
        ]
        .iter()
        .flat_map(|field| field.to_le_bytes())
        .collect()
    }

    /// Whether a change made after `now` could leave this stamp as it is: the file changed
    /// within the timestamp granularity before `now` (2 s where the file system keeps whole
    /// seconds, as FAT and some network file systems do; else 100 ms, well above a kernel tick).
    /// `now` is taken before the file is looked at.
    pub(crate) fn racy(&self, now: SystemTime) -> bool {
        let (secs, nanos) = self.ctime;
        let window = if nanos == 0 {
            Duration::from_secs(2)
        } else {
            Duration::from_millis(100)
        };
        let (Ok(secs), Ok(nanos)) = (u64::try_from(secs), u32::try_from(nanos)) else {
            return true;
        };
        let changed = SystemTime::UNIX_EPOCH + Duration::new(secs, nanos);
        now.duration_since(changed)
            .map_or(true, |age| age <= window)
    }
}

#[cfg(test)]
mod tests {
    use super::Stamp;
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_file_just_written_is_racy_and_one_changed_long_enough_ago_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let stamp = Stamp::of(&file).unwrap();
        assert!(stamp.racy(SystemTime::now()));
        assert!(!stamp.racy(SystemTime::now() + Duration::from_secs(3)));
        // A change time after the moment taken (a clock set back) is always racy.
        assert!(stamp.racy(SystemTime::UNIX_EPOCH));
    }

    #[test]
    fn a_write_that_keeps_the_size_and_modification_time_changes_the_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "abc").unwrap();
        let meta = std::fs::metadata(&file).unwrap();
        let before = Stamp::from(&meta);
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&file, "xyz").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(meta.modified().unwrap())
            .unwrap();
        assert_ne!(Stamp::of(&file).unwrap(), before);
    }
}
