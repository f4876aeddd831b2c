//! The layers lib.rs describes are the layers the code has: every `crate::` path in a module's
//! code (tests and comments aside) names a module listed before it in lib.rs's map, so the engine
//! never reaches up into the agents or the command line, and no two modules need each other.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The crate's source folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The modules lib.rs declares (`mod x;`, test-only ones left out).
fn declared(lib: &str) -> BTreeSet<String> {
    let mut test_only = false;
    let mut modules = BTreeSet::new();
    for line in lib.lines() {
        let line = line.trim();
        if line == "#[cfg(test)]" {
            test_only = true;
            continue;
        }
        if let Some(name) = line.strip_prefix("mod ").and_then(|m| m.strip_suffix(';'))
            && !test_only
        {
            modules.insert(name.to_owned());
        }
        test_only = false;
    }
    modules
}

/// The modules in the order lib.rs's map names them (first mention).
fn map_order(lib: &str, modules: &BTreeSet<String>) -> Vec<String> {
    let found = lib
        .find("Inside, on floors")
        .expect("lib.rs has its map of the layers");
    let start = lib[..found].rfind('\n').map_or(0, |at| at + 1);
    let map: String = lib[start..]
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut order = Vec::new();
    for (i, quoted) in map.split('`').enumerate() {
        if i % 2 == 1 && modules.contains(quoted) && !order.iter().any(|m| m == quoted) {
            order.push(quoted.to_owned());
        }
    }
    order
}

/// A file's code without its comments and its test module.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules named by `crate::` paths in `code`.
fn used(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .map(|(at, found)| {
            code[at + found.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn every_module_uses_only_the_ones_lib_rs_lists_before_it() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let modules = declared(&lib);
    let order = map_order(&lib, &modules);
    let unlisted: Vec<_> = modules.iter().filter(|m| !order.contains(m)).collect();
    assert!(unlisted.is_empty(), "lib.rs's map leaves out {unlisted:?}");
    let mut wrong = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        let mut sources = Vec::new();
        let single = src().join(format!("{module}.rs"));
        if single.is_file() {
            sources.push(single);
        }
        let folder = src().join(module);
        if folder.is_dir() {
            files(&folder, &mut sources);
        }
        assert!(!sources.is_empty(), "no source for {module}");
        for file in sources {
            for other in used(&code(&file)) {
                let later = order[rank + 1..].contains(&other);
                if later {
                    wrong.push(format!(
                        "{} uses {other}, listed after {module}",
                        file.strip_prefix(src()).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_engine_never_names_an_agent() {
    // The floors before the agents: none of them may name the agents module.
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let order = map_order(&lib, &declared(&lib));
    let agents = order.iter().position(|m| m == "agents").unwrap();
    for module in ["ground", "config", "consent", "engine"] {
        let rank = order.iter().position(|m| m == module).unwrap();
        assert!(rank < agents, "{module} is listed after the agents");
    }
}

#[test]
fn the_root_holds_the_floors_and_nothing_else() {
    let files: Vec<String> = fs::read_dir(src())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| {
            !["lib.rs", "main.rs", "property_tests.rs", "protect.rs"].contains(&name.as_str())
        })
        .collect();
    assert!(files.is_empty(), "files at the root of src/: {files:?}");
}

/// The names a path prefix reaches in `code`: after each `prefix`, the one name, or each name
/// of a `{...}` group (`super::{a, b::c}` reaches `a` and `b`).
fn reached(code: &str, prefix: &str) -> BTreeSet<String> {
    let name = |text: &str| -> String {
        text.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.insert(name(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(name(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(name(rest));
        }
    }
    found.remove("");
    found
}

/// Each module directly in `dir` (a file `x.rs` or a folder `x/`) and every file of it.
fn members(dir: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inside = Vec::new();
            files(&path, &mut inside);
            out.push((stem, inside));
        } else if path.extension().is_some_and(|e| e == "rs") && stem != "mod" {
            out.push((stem, vec![path]));
        }
    }
    out
}

#[test]
fn no_two_modules_of_a_folder_need_each_other() {
    let mut folders = vec![src()];
    let mut circles = Vec::new();
    while let Some(dir) = folders.pop() {
        let members = members(&dir);
        let names: BTreeSet<&str> = members.iter().map(|(n, _)| n.as_str()).collect();
        let module_path = dir
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .replace('/', "::");
        let crate_prefix = if module_path.is_empty() {
            "crate::".to_owned()
        } else {
            format!("crate::{module_path}::")
        };
        let mut needs = std::collections::BTreeMap::new();
        for (name, sources) in &members {
            let mut uses = BTreeSet::new();
            for file in sources {
                let text = code(file);
                uses.extend(reached(&text, &crate_prefix));
                // `super::` names this folder's modules from a file right in it, or a folder's
                // mod.rs.
                let direct = file.parent() == Some(dir.as_path())
                    || (file.file_name().is_some_and(|f| f == "mod.rs")
                        && file.parent().and_then(Path::parent) == Some(dir.as_path()));
                if direct && !module_path.is_empty() {
                    uses.extend(reached(&text, "super::"));
                }
            }
            uses.retain(|u| u != name && names.contains(u.as_str()));
            needs.insert(name.clone(), uses);
        }
        for (a, uses) in &needs {
            for b in uses {
                if a < b && needs.get(b).is_some_and(|back| back.contains(a)) {
                    circles.push(format!("{module_path}: {a} <-> {b}"));
                }
            }
        }
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules that need each other:\n{}",
        circles.join("\n")
    );
}

#[test]
fn each_file_of_the_engine_uses_only_the_ones_declared_before_it() {
    let engine = src().join("engine");
    let text = fs::read_to_string(engine.join("mod.rs")).unwrap();
    // The order is the one the `//!` lines name them in (rustfmt sorts the declarations).
    let declared: BTreeSet<String> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub(crate) mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(ToOwned::to_owned)
        .collect();
    let doc: String = text
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut order: Vec<String> = Vec::new();
    for (i, quoted) in doc.split('`').enumerate() {
        if i % 2 == 1 && declared.contains(quoted) && !order.iter().any(|m| m == quoted) {
            order.push(quoted.to_owned());
        }
    }
    assert_eq!(
        order.len(),
        declared.len(),
        "engine/mod.rs's first lines name {order:?} of {declared:?}"
    );
    let mut wrong = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        let mut sources = Vec::new();
        let single = engine.join(format!("{module}.rs"));
        if single.is_file() {
            sources.push(single);
        }
        if engine.join(module).is_dir() {
            files(&engine.join(module), &mut sources);
        }
        for file in sources {
            let code = code(&file);
            let mut uses = reached(&code, "crate::engine::");
            if file.parent() == Some(engine.as_path())
                || file.parent().and_then(Path::parent) == Some(engine.as_path())
                    && file.file_name().is_some_and(|f| f == "mod.rs")
            {
                uses.extend(reached(&code, "super::"));
            }
            for other in uses.iter().filter(|u| order[rank + 1..].contains(u)) {
                wrong.push(format!(
                    "{} uses {other}, declared after {module}",
                    file.strip_prefix(src()).unwrap().display()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The path of a legacy-mangled symbol (`_ZN12hermes_hooks6engine7payload...17h<hash>E`), its
/// hash left out; `None` for another scheme.
fn demangled_path(symbol: &str) -> Option<Vec<String>> {
    let mut rest = symbol.strip_prefix("_ZN")?;
    let mut parts = Vec::new();
    while !rest.starts_with('E') {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let len: usize = rest[..digits].parse().ok()?;
        let part = rest.get(digits..digits + len)?;
        parts.push(part.to_owned());
        rest = &rest[digits + len..];
    }
    if parts.last().is_some_and(|last| last.starts_with('h')) {
        parts.pop();
    }
    Some(parts)
}

/// The crate's functions in `link/hot-code.txt` still lie where the list says: a module moved
/// renames every function in it, the linker then skips the names it no longer has, and `run`
/// pages in its code from all over the binary again (0.4 ms a start once, unseen until timed).
/// Each name's modules must be files of src/ and its last module must still hold the item's
/// first word; `link/hot-code.sh` writes the list anew.
#[test]
fn the_hot_code_list_names_the_modules_as_they_are() {
    let list = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("link/hot-code.txt"))
        .unwrap();
    let mut stale = Vec::new();
    let mut checked = 0;
    for symbol in list.lines() {
        let Some(path) = demangled_path(symbol) else {
            continue;
        };
        if path.first().map(String::as_str) != Some("hermes_hooks") || path.len() < 2 {
            continue;
        }
        checked += 1;
        let mut dir = src();
        let mut file = dir.join("lib.rs");
        let mut items = &path[1..];
        while let Some(first) = items.first() {
            let (as_file, as_folder) = (dir.join(format!("{first}.rs")), dir.join(first));
            if as_file.is_file() {
                file = as_file;
            } else if as_folder.join("mod.rs").is_file() {
                file = as_folder.join("mod.rs");
            } else {
                break;
            }
            dir = as_folder;
            items = &items[1..];
        }
        let item = items.first().map(|item| item.trim_start_matches('_'));
        let text = fs::read_to_string(&file).unwrap_or_default();
        let found = match item {
            // A module's own closures and shims: the module is enough.
            None => true,
            Some(item) if item.starts_with('$') || item.starts_with('{') => true,
            Some(item) => text.contains(item),
        };
        if !found {
            stale.push(path.join("::"));
        }
    }
    assert!(
        checked > 50,
        "the list names {checked} of the crate's functions"
    );
    assert!(
        stale.len() * 20 <= checked,
        "link/hot-code.txt names {} of its {checked} functions of this crate where they no \
         longer are (run link/hot-code.sh): {stale:#?}",
        stale.len()
    );
}

#[test]
fn no_file_passes_700_lines_but_the_ports() {
    // The ports follow their originals' shape: PyYAML's reader and Python's `re`.
    let ports = ["config/yaml/pyyaml", "matcher/python/"];
    let mut all = Vec::new();
    files(&src(), &mut all);
    let long: Vec<String> = all
        .iter()
        .filter(|path| {
            let rel = path.strip_prefix(src()).unwrap().to_string_lossy();
            !ports.iter().any(|port| rel.starts_with(port))
        })
        .filter(|path| fs::read_to_string(path).unwrap().lines().count() > 700)
        .map(|path| path.display().to_string())
        .collect();
    assert!(long.is_empty(), "files of more than 700 lines: {long:?}");
}
