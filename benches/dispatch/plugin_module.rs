//! The OpenCode plugin module's row: what a tool call costs through the module as OpenCode
//! awaits it (`benches/plugin_module.mjs`, run with node), where nothing applies and with one
//! trivial hook against running that hook itself.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use super::Row;

const FIGURE: &str = "OpenCode module: nothing applies / one trivial hook vs the hook itself";
const TARGET: &str = "<= 0.3 ms / <= 1.1x";

/// The row, or why it could not be measured.
pub(super) fn row(binary: &OsStr) -> Row {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/plugin_module.mjs");
    let skipped = |why: &str| Row {
        figure: FIGURE,
        measured: format!("skipped ({why})"),
        target: TARGET,
        met: None,
    };
    let Ok(out) = Command::new("node")
        .arg(&script)
        .arg(binary)
        .arg("400")
        .output()
    else {
        return skipped("no node");
    };
    let Some(line) = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|line| line.starts_with('{'))
        .map(ToOwned::to_owned)
    else {
        return skipped(&format!(
            "node said: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&line) else {
        return skipped("no figures");
    };
    let number = |key: &str| doc[key].as_f64().unwrap_or(f64::NAN);
    Row {
        figure: FIGURE,
        measured: format!(
            "{:.2} ms / {:.2} ms vs {:.2} ms = {:.2}x",
            number("nothing_applies_us") / 1000.0,
            number("one_hook_us") / 1000.0,
            number("hook_itself_us") / 1000.0,
            number("ratio")
        ),
        target: TARGET,
        met: doc["met"].as_bool(),
    }
}
