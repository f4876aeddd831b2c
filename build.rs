//! Two link-time savings on every start of `run` (docs/performance.md has the numbers):
//!
//! - GCC's unwinder (`libgcc_eh.a`) is linked into the binary on GNU/Linux, so that a start does
//!   not load `libgcc_s.so.1`. It is the unwinder the standard library itself links for
//!   `crt-static` builds. When the C toolchain has no `libgcc_eh.a`, nothing changes.
//! - In a release build, the linker is given `link/hot-code.txt`, the functions `run` executes,
//!   to place side by side: a start then pages in a few runs of code instead of pages all over
//!   the binary. Only when a trial link shows the linker takes the option (LLD does, the
//!   toolchain's default on x86-64 Linux; GNU ld does not); a name the binary lacks is skipped.

#![allow(clippy::print_stdout)] // a build script talks to Cargo on stdout
#![allow(clippy::disallowed_methods)] // Cargo hands a build script its facts in the environment

use std::path::{Path, PathBuf};
use std::process::Command;

/// The functions `run` executes, in order (written by link/hot-code.sh).
const HOT_CODE: &str = "link/hot-code.txt";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed={HOT_CODE}");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    println!("cargo::rustc-check-cfg=cfg(static_unwinder)");
    let fact = |name: &str| std::env::var(name).unwrap_or_default();
    if fact("PROFILE") == "release" {
        order_hot_code();
    }
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

/// Asks the linker to place the functions of [`HOT_CODE`] first, in their order, when a trial
/// link of an empty program with the same compiler, target, flags and linker takes the option.
fn order_hot_code() {
    let fact = |name: &str| std::env::var(name).unwrap_or_default();
    let list = Path::new(&fact("CARGO_MANIFEST_DIR")).join(HOT_CODE);
    let out = PathBuf::from(fact("OUT_DIR"));
    if !list.is_file() || fact("CARGO_CFG_TARGET_OS") != "linux" {
        return;
    }
    // Each word handed to the linker as it is (`-Wl,` would split a path at its commas).
    let args = [
        "-Xlinker".to_owned(),
        format!("--symbol-ordering-file={}", list.display()),
        "-Xlinker".to_owned(),
        "--no-warn-symbol-ordering".to_owned(),
    ];
    let probe = out.join("hot_code_probe.rs");
    if std::fs::write(&probe, "fn main() {}\n").is_err() {
        return;
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut trial = Command::new(rustc);
    trial
        .arg("--target")
        .arg(fact("TARGET"))
        .arg("--crate-type=bin")
        .arg("-o")
        .arg(out.join("hot_code_probe"))
        .arg(&probe);
    for flag in fact("CARGO_ENCODED_RUSTFLAGS")
        .split('\x1f')
        .filter(|flag| !flag.is_empty())
    {
        trial.arg(flag);
    }
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        trial.arg(format!("-Clinker={linker}"));
    }
    for arg in &args {
        trial.arg(format!("-Clink-arg={arg}"));
    }
    let linked = trial.output().is_ok_and(|output| output.status.success());
    if linked {
        for arg in &args {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
    }
}
