//! The Hermes plugin without Hermes: `tests/plugin/test_plugin.py` loads the `__init__.py` that
//! `install hermes` writes with a fake `ctx`, and checks what it registers, each answer it hands
//! Hermes, the pool of servers, failing open or closed without the binary, that no server
//! outlives the interpreter (even a killed one), that nothing it is handed (an argument nested
//! past any recursion limit, a value json cannot write, a server that dies mid-request, a bug)
//! makes it raise into Hermes or fail open where a `fail_closed` guard could apply, that its
//! servers never get Hermes's consent switch, that a fallback binary is said, and that every
//! request names the session's project. Skipped where there is no python3.

use std::path::Path;
use std::process::Command;

use crate::common::{TestEnv, say_skipped};

#[test]
fn the_plugin_hands_hermes_every_answer_and_leaves_no_server_behind() {
    if Command::new("python3").arg("--version").output().is_err() {
        say_skipped("python3 is not installed: the plugin is not tested");
        return;
    }
    let env = TestEnv::new();
    let installed = env.cmd().args(["install", "hermes"]).output().unwrap();
    assert!(installed.status.success(), "{installed:?}");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/plugin/test_plugin.py");
    let mut python = Command::new("python3");
    python
        .arg(script)
        .arg(env.hermes_home().join("plugins/hermes-hooks"))
        .env("HOME", env.home())
        .env("HERMES_HOME", env.hermes_home())
        // Hermes's one-shot mode sets it; the plugin's servers must not see it (the hooks the
        // checks run are approved by the checks themselves).
        .env("HERMES_ACCEPT_HOOKS", "1")
        .env("HERMES_MANAGED_DIR", env.path("no-managed"))
        .env_remove("HERMES_HOOKS_BIN")
        .env_remove("HERMES_HOOKS_FAIL_CLOSED")
        .env_remove("HERMES_HOOKS_ACCEPT")
        .env_remove("TERMINAL_CWD")
        .current_dir(env.work());
    let out = python.output().unwrap();
    let shown = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{shown}");
    assert!(!shown.contains("FAILED"), "{shown}");
    assert_eq!(
        shown.matches("\nok ").count() + usize::from(shown.starts_with("ok ")),
        33,
        "{shown}"
    );
}
