//! Reading files that others may supply (config files, HOOK.md, scripts to pin): only regular
//! files, opened without ever blocking (a FIFO or a device in their place is refused before a
//! byte is read), and read up to a size cap, so a huge or endless file is refused with a clear
//! message before anything spends time or memory on it. Real files are far below the caps.

use std::fs::File;
use std::io::{self, Read as _};
use std::os::fd::BorrowedFd;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

const MIB: u64 = 1024 * 1024;

/// `config.yaml` (Hermes's whole configuration).
pub(crate) const CONFIG_MAX: u64 = 8 * MIB;
/// A `HOOK.md`, `HOOK.yaml` or `plugin.yaml`.
pub(crate) const MANIFEST_MAX: u64 = MIB;
/// The consent allowlist, and the loop guard's state.
pub(crate) const ALLOWLIST_MAX: u64 = 16 * MIB;
/// A script read for its sha256 pin (scripts are bigger than manifests, never this big).
pub(crate) const SCRIPT_MAX: u64 = 16 * MIB;
/// Hook folders read per level (`.agents/hooks`); more are named in a warning and not read.
pub(crate) const HOOK_FOLDERS_MAX: usize = 256;
/// Entries of a hooks folder looked at, whatever they are.
pub(crate) const HOOK_ENTRIES_MAX: usize = 4096;

/// Opens `path` for reading when it is a regular file (symlinks followed). Anything else (a
/// FIFO, a device, a socket, a directory) is refused with a message saying what it is, without
/// being opened in a way that could block or trigger a device: the type is checked before the
/// open, the open does not block, and the opened file is checked again.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    open_sized(path).map(|(file, _)| file)
}

/// [`open_regular`], with the file's size as the open file has it.
fn open_sized(path: &Path) -> io::Result<(File, u64)> {
    crate::ground::fault::check()?;
    let before = std::fs::metadata(path)?;
    if !before.file_type().is_file() {
        return Err(not_regular(kind_of_std(before.file_type())));
    }
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    crate::ground::fault::check()?;
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    let stat = rustix::fs::fstat(&fd)?;
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind != FileType::RegularFile {
        return Err(not_regular(kind_of(kind)));
    }
    Ok((File::from(fd), u64::try_from(stat.st_size).unwrap_or(0)))
}

/// Reads `path` whole when it is a regular file of at most `max` bytes (`ErrorKind::FileTooLarge`
/// above it; see [`open_regular`] for other files).
pub(crate) fn read(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let (file, size) = open_sized(path)?;
    read_capped(file, size, max)
}

/// The stat of `name` in the folder `dir` (symlinks followed): relative to an open folder, so
/// a walk over many files does not resolve the folder's path again for each.
pub(crate) fn stat_in(dir: BorrowedFd<'_>, name: &Path) -> io::Result<rustix::fs::Stat> {
    crate::ground::fault::check()?;
    Ok(rustix::fs::statat(dir, name, AtFlags::empty())?)
}

/// Whether `name` exists in `dir` in any form (a dangling symlink too); an error other than
/// "no such file" (or "not a directory", for a name under a file) is not an answer.
pub(crate) fn exists_in(dir: BorrowedFd<'_>, name: &Path) -> io::Result<bool> {
    crate::ground::fault::check()?;
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) => Ok(true),
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

/// [`read`] for `name` in the folder `dir`, whose stat [`stat_in`] gave (`None` when it could
/// not be statted: the open then says why).
pub(crate) fn read_in(
    dir: BorrowedFd<'_>,
    name: &Path,
    stat: Option<&rustix::fs::Stat>,
    max: u64,
) -> io::Result<Vec<u8>> {
    if let Some(stat) = stat {
        let kind = FileType::from_raw_mode(stat.st_mode);
        if kind != FileType::RegularFile {
            return Err(not_regular(kind_of(kind)));
        }
    }
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    crate::ground::fault::check()?;
    let fd = rustix::fs::openat(dir, name, flags, Mode::empty())?;
    let opened = rustix::fs::fstat(&fd)?;
    let kind = FileType::from_raw_mode(opened.st_mode);
    if kind != FileType::RegularFile {
        return Err(not_regular(kind_of(kind)));
    }
    read_capped(
        File::from(fd),
        u64::try_from(opened.st_size).unwrap_or(0),
        max,
    )
}

/// Reads a file this tool wrote for itself (the parse memo): a regular file, not a symlink,
/// owned by this user and writable by no one else; anything else is refused as if absent.
pub(crate) fn read_private(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let flags =
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    let stat = rustix::fs::fstat(&fd)?;
    let private = FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile
        && stat.st_uid == rustix::process::geteuid().as_raw()
        && stat.st_mode & 0o022 == 0;
    if !private {
        return Err(io::ErrorKind::NotFound.into());
    }
    read_capped(
        File::from(fd),
        u64::try_from(stat.st_size).unwrap_or(0),
        max,
    )
}

/// Reads an open regular file of `size` bytes (as its stat said), up to `max`. A file that is
/// no longer than its stat said is read with one `read`: a short read of a regular file is its
/// end.
fn read_capped(file: File, size: u64, max: u64) -> io::Result<Vec<u8>> {
    let first = usize::try_from(size.min(max) + 1).unwrap_or(usize::MAX);
    // Read into room never written before: zeroing it first touched every page twice.
    let mut bytes = Vec::with_capacity(first);
    crate::ground::fault::check()?;
    let got = loop {
        match rustix::io::read(&file, rustix::buffer::spare_capacity(&mut bytes)) {
            Err(rustix::io::Errno::INTR) => {}
            other => break other?,
        }
    };
    if got == first {
        // It grew since: read on, up to the cap.
        file.take(max + 1 - got as u64).read_to_end(&mut bytes)?;
    }
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

/// The error for a file over `max` bytes.
pub(crate) fn too_large(max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {} MiB; refusing to read it", max / MIB),
    )
}

fn not_regular(kind: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {kind}, not a regular file; nothing was read from it"),
    )
}

fn kind_of_std(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a plain file"
    }
}

fn kind_of(kind: FileType) -> &'static str {
    match kind {
        FileType::Directory => "a directory",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        _ => "not a plain file",
    }
}

#[cfg(test)]
mod tests {
    use super::{open_regular, read};

    #[test]
    fn files_over_the_cap_are_refused_not_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'x'; 2 * 1024 * 1024 + 1]).unwrap();
        let err = read(&path, 2 * 1024 * 1024).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(err.to_string(), "larger than 2 MiB; refusing to read it");
        assert_eq!(
            read(&path, 3 * 1024 * 1024).unwrap().len(),
            2 * 1024 * 1024 + 1
        );
    }

    #[test]
    fn only_regular_files_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        for (path, what) in [
            (&fifo, "a FIFO"),
            (&link, "a character device"),
            (&dir.path().to_path_buf(), "a directory"),
        ] {
            let err = open_regular(path).unwrap_err().to_string();
            assert!(
                err.contains(what) && err.contains("not a regular file"),
                "{err}"
            );
        }
    }
}
