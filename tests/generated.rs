//! Shell completions (`completions/`) and man pages (`man/`) are generated from the clap
//! definition and committed; this test fails when they are stale.
//! `SNAPSHOTS=overwrite cargo test generated` rewrites them.

use std::path::{Path, PathBuf};

use clap_complete::Shell;

fn rendered() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = hermes_hooks::command();
    cmd.build();
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "hermes-hooks.bash"),
        (Shell::Zsh, "_hermes-hooks"),
        (Shell::Fish, "hermes-hooks.fish"),
        (Shell::Elvish, "hermes-hooks.elv"),
        (Shell::PowerShell, "_hermes-hooks.ps1"),
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cmd.clone(), "hermes-hooks", &mut buf);
        files.push((root.join("completions").join(name), buf));
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .unwrap();
    files.push((root.join("man/hermes-hooks.1"), page));
    for sub in cmd.get_subcommands().filter(|sub| sub.get_name() != "help") {
        // clap names are 'static; a few leaked strings in a test are fine.
        let name: &'static str =
            Box::leak(format!("hermes-hooks-{}", sub.get_name()).into_boxed_str());
        let mut page = Vec::new();
        clap_mangen::Man::new(sub.clone().name(name))
            .render(&mut page)
            .unwrap();
        files.push((root.join("man").join(format!("{name}.1")), page));
    }
    files
}

#[test]
fn completions_and_man_pages_are_current() {
    #[allow(clippy::disallowed_methods)]
    // the snapshot switch of the test suite, not a tool setting
    let overwrite = std::env::var_os("SNAPSHOTS").is_some_and(|v| v == "overwrite");
    let mut stale = Vec::new();
    for (path, content) in rendered() {
        if std::fs::read(&path).ok().as_deref() == Some(content.as_slice()) {
            continue;
        }
        if overwrite {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content).unwrap();
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (regenerate with `SNAPSHOTS=overwrite cargo test generated`): {stale:#?}"
    );
}
