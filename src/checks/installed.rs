//! Which hermes-hooks binary a command on PATH runs: the file itself, or, for the npm package's
//! shell launcher, the binary of the platform package installed beside it. Read, never run: a
//! settings file may name any program, and `doctor` starts none of them.

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// What the launcher's first bytes hold (packaging/npm/launcher.sh).
const LAUNCHER_MARK: &[u8] = b"@hermes-hooks/";
/// The platform packages, in the order the launcher tries them (packaging/npm.sh publishes
/// these).
const PLATFORMS: [&str; 4] = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"];
/// How much of a file is read to tell the launcher from a binary.
const HEAD: u64 = 2048;

/// The binary `path` runs, with symbolic links resolved: itself, or what the npm launcher there
/// would start. `None` when it cannot be told.
pub(crate) fn binary_behind(path: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(path).ok()?;
    if !is_launcher(&real) {
        return Some(real);
    }
    // <package>/bin/hermes-hooks; the platform package is beside <package> or inside it.
    let package = real.parent()?.parent()?;
    let places = [
        package.parent().map(|up| up.join("@hermes-hooks")),
        Some(package.join("node_modules").join("@hermes-hooks")),
    ];
    places.into_iter().flatten().find_map(|scope| {
        PLATFORMS
            .iter()
            .map(|platform| scope.join(platform).join("bin").join("hermes-hooks"))
            .find(|binary| binary.is_file())
            .and_then(|binary| std::fs::canonicalize(binary).ok())
    })
}

/// Whether `path` is the npm package's shell launcher (a short `#!/bin/sh` script naming the
/// platform packages).
fn is_launcher(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(HEAD).read_to_end(&mut head).is_err() {
        return false;
    }
    head.starts_with(b"#!/bin/sh")
        && head
            .windows(LAUNCHER_MARK.len())
            .any(|window| window == LAUNCHER_MARK)
}

#[cfg(test)]
mod tests {
    use super::binary_behind;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_npm_launcher_stands_for_the_platform_binary_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let modules = dir.path().join("lib/node_modules");
        let launcher = modules.join("hermes-hooks/bin/hermes-hooks");
        let binary = modules.join("@hermes-hooks/linux-x64/bin/hermes-hooks");
        for file in [&launcher, &binary] {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        }
        std::fs::write(
            &launcher,
            "#!/bin/sh\n# runs @hermes-hooks/<platform>\nexec x\n",
        )
        .unwrap();
        std::fs::write(&binary, b"\x7fELF").unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(&launcher, bin.join("hermes-hooks")).unwrap();
        assert_eq!(
            binary_behind(&bin.join("hermes-hooks")),
            Some(std::fs::canonicalize(&binary).unwrap())
        );
        assert_eq!(
            binary_behind(&binary),
            Some(std::fs::canonicalize(&binary).unwrap())
        );
    }
}
