//! The `hermes-hooks` binary: a thin shell around the library's `main`.
//!
//! On GNU/Linux it is entered at C's `main`, without the standard library's start-up: that
//! start-up reads `/proc/self/maps` and maps a signal stack for a stack-overflow message, about
//! 0.1 ms of every start, and `run` is on the agent's critical path. What of it the program needs
//! is done by `hermes_hooks::main_without_std_start`. Elsewhere (musl, macOS) std's start-up
//! stays: musl's loader does not hand std the arguments the way glibc's does.

#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(hermes_hooks::main())
}

/// C's entry point. The symbol's name is the one `unsafe` of the crate: nothing else in the
/// program may be called `main` at link time. No code here is unsafe.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    hermes_hooks::main_without_std_start()
}
