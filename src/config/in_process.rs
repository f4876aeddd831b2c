//! Audit-only hooks that Hermes runs in its own Python process: gateway hooks
//! (`<home>/hooks/<name>/HOOK.yaml` next to `handler.py`) and plugin hooks
//! (`<home>/plugins/<name>/plugin.yaml`, `provides_hooks`). They are shown and checked, never run.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Event, SourceKind};

/// Gateway events Hermes fires; `command:*` and `command:<name>` match slash commands.
pub(crate) const GATEWAY_EVENTS: [&str; 7] = [
    "gateway:startup",
    "session:start",
    "session:end",
    "session:reset",
    "agent:start",
    "agent:step",
    "agent:end",
];

/// One gateway or plugin hook package.
#[derive(Clone, Debug)]
pub(crate) struct InProcessHook {
    /// `gateway` or `plugin`.
    pub source: SourceKind,
    /// Its name (the folder's when the file does not say).
    pub name: String,
    /// The events it subscribes to, as written.
    pub events: Vec<String>,
    /// HOOK.yaml or plugin.yaml.
    pub manifest: PathBuf,
    /// handler.py or `__init__.py`.
    pub handler: PathBuf,
    /// Environment variables the plugin needs (plugins only).
    pub requires_env: Vec<String>,
    /// Why the manifest could not be read, if it could not.
    pub broken: Option<String>,
}

impl InProcessHook {
    /// Events that Hermes does not know (a typo means the handler never fires).
    pub(crate) fn unknown_events(&self) -> Vec<&str> {
        self.events
            .iter()
            .map(String::as_str)
            .filter(|event| match self.source {
                SourceKind::Gateway => !is_gateway_event(event),
                _ => Event::parse(event)
                    .map_or(true, |r| !r.event.is_hermes() || r.name != r.event.name()),
            })
            .collect()
    }
}

fn is_gateway_event(event: &str) -> bool {
    GATEWAY_EVENTS.contains(&event)
        || event
            .strip_prefix("command:")
            .is_some_and(|rest| !rest.is_empty())
}

/// Every gateway and plugin hook under the Hermes home, gateway first, each sorted by folder.
pub(crate) fn load(home: &Path) -> Vec<InProcessHook> {
    let mut hooks = Vec::new();
    for folder in folders(&home.join("hooks")) {
        let manifest = folder.join("HOOK.yaml");
        if !manifest.is_file() {
            continue;
        }
        hooks.push(read(SourceKind::Gateway, &folder, manifest, "handler.py"));
    }
    for folder in folders(&home.join("plugins")) {
        let manifest = folder.join("plugin.yaml");
        if !manifest.is_file() {
            continue;
        }
        hooks.push(read(SourceKind::Plugin, &folder, manifest, "__init__.py"));
    }
    hooks
}

fn folders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    folders
}

#[derive(Deserialize, Default)]
struct Manifest {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    provides_hooks: Vec<String>,
    #[serde(default)]
    requires_env: Vec<EnvRequirement>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum EnvRequirement {
    Name(String),
    Spec { name: String },
}

fn read(source: SourceKind, folder: &Path, manifest: PathBuf, handler: &str) -> InProcessHook {
    let folder_name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parsed = crate::ground::limits::read(&manifest, crate::ground::limits::MANIFEST_MAX)
        .map_err(|err| err.to_string())
        .and_then(|bytes| {
            let bytes = bytes
                .strip_prefix(b"\xEF\xBB\xBF")
                .unwrap_or(&bytes)
                .to_vec();
            let text = String::from_utf8(bytes).map_err(|_| "not valid UTF-8".to_owned())?;
            super::yaml::parse::<Option<Manifest>>(&text)
                .map(Option::unwrap_or_default)
                .map_err(|err| err.to_string())
        });
    let (manifest_data, broken) = match parsed {
        Ok(data) => (data, None),
        Err(reason) => (Manifest::default(), Some(reason)),
    };
    let events = match source {
        SourceKind::Plugin => manifest_data.provides_hooks,
        _ => manifest_data.events,
    };
    InProcessHook {
        source,
        name: manifest_data
            .name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(folder_name),
        events,
        handler: folder.join(handler),
        manifest,
        requires_env: manifest_data
            .requires_env
            .into_iter()
            .map(|r| match r {
                EnvRequirement::Name(name) | EnvRequirement::Spec { name } => name,
            })
            .collect(),
        broken,
    }
}

#[cfg(test)]
mod tests {
    use super::load;
    use crate::config::SourceKind;

    #[test]
    fn reads_gateway_and_plugin_hooks() {
        let home = tempfile::tempdir().unwrap();
        let gw = home.path().join("hooks/logger");
        std::fs::create_dir_all(&gw).unwrap();
        std::fs::write(
            gw.join("HOOK.yaml"),
            "name: logger\nevents: [agent:end, command:*, agent:ending]\n",
        )
        .unwrap();
        let pl = home.path().join("plugins/calc");
        std::fs::create_dir_all(&pl).unwrap();
        std::fs::write(pl.join("plugin.yaml"), "name: calc\nprovides_hooks: [post_tool_call, pre_tool_cal]\nrequires_env:\n  - CALC_KEY\n  - {name: OTHER}\n").unwrap();
        std::fs::write(pl.join("__init__.py"), "").unwrap();
        let hooks = load(home.path());
        assert_eq!(hooks.len(), 2);
        assert_eq!(hooks[0].source, SourceKind::Gateway);
        assert_eq!(hooks[0].unknown_events(), ["agent:ending"]);
        assert!(!hooks[0].handler.exists());
        assert_eq!(hooks[1].unknown_events(), ["pre_tool_cal"]);
        assert_eq!(hooks[1].requires_env, ["CALC_KEY", "OTHER"]);
    }
}
