//! Links GCC's unwinder (`libgcc_eh.a`) into the binary on GNU/Linux, so that a start does not
//! load `libgcc_s.so.1`: one shared library less to find, map and relocate costs about 0.1 ms on
//! every `run` (see docs/performance.md). It is the unwinder the standard library itself links
//! for `crt-static` builds. When the C toolchain has no `libgcc_eh.a`, nothing changes.

#![allow(clippy::print_stdout)] // a build script talks to Cargo on stdout
#![allow(clippy::disallowed_methods)] // Cargo hands a build script its facts in the environment

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    println!("cargo::rustc-check-cfg=cfg(static_unwinder)");
    let fact = |name: &str| std::env::var(name).unwrap_or_default();
    let static_crt = fact("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|feature| feature == "crt-static");
    // A static build links libgcc_eh already; other systems have their own unwinder.
    if fact("CARGO_CFG_TARGET_OS") != "linux" || fact("CARGO_CFG_TARGET_ENV") != "gnu" || static_crt
    {
        return;
    }
    if !has_gcc_eh() {
        return;
    }
    // Whole, so that every `_Unwind_*` symbol is defined before the linker meets `-lgcc_s`,
    // which `--as-needed` then drops. Not bundled: the linker finds it in the C toolchain.
    println!("cargo::rustc-link-lib=static:+whole-archive,-bundle=gcc_eh");
    println!("cargo::rustc-cfg=static_unwinder");
}

/// Whether the C compiler that links the binary (`cc`, or the linker Cargo was told to use)
/// knows a `libgcc_eh.a`: it prints the file's path when it does, the bare name when not.
fn has_gcc_eh() -> bool {
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let Ok(output) = Command::new(linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
    else {
        return false;
    };
    let printed = String::from_utf8_lossy(&output.stdout);
    let path = Path::new(printed.trim());
    output.status.success() && path.is_absolute() && path.is_file()
}
