//! The `hermes-hooks` binary: a thin shell around the library's `main`.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(hermes_hooks::main())
}
