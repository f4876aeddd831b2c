//! Hostile project trees, generated: folder names with control bytes, bidi overrides and
//! characters that print as nothing, HOOK.md and entry scripts that are FIFOs, devices,
//! directories, dangling or looping symlinks, huge sparse files or crafted YAML. `list`, `doctor
//! --no-exec` and `run --dry-run` (with and without a bypass) must come back in bounded time,
//! without a panic, never with exit 2, and without a raw control byte or invisible character on
//! stdout or stderr. A second property puts broken config.yaml files, arguments nested to any
//! depth and project folders another user owns around an approved user guard: no guard that
//! loaded is ever silently lost.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use proptest::collection::vec;
use proptest::prelude::*;

use crate::common::{MAX_DEPTH, OTHER_UID, TestEnv, bounded, code, give_away_all, nested};
use crate::trust::{INVISIBLE, raw_control};

/// What stands where a file should be.
#[derive(Clone, Debug)]
enum Node {
    /// A regular file with this text.
    Text(String),
    /// A regular file of this many GiB that costs nothing (sparse).
    Sparse(u64),
    /// A named pipe nobody writes to.
    Fifo,
    /// A symlink to a character device.
    Device,
    /// A directory.
    Directory,
    /// A symlink to nowhere.
    Dangling,
    /// A symlink to itself.
    Loop,
    /// Nothing.
    Missing,
}

fn make(path: &Path, node: &Node) {
    match node {
        Node::Text(text) => {
            fs::write(path, text).unwrap();
            fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
        }
        Node::Sparse(gib) => fs::File::create(path)
            .unwrap()
            .set_len(gib * 1024 * 1024 * 1024)
            .unwrap(),
        Node::Fifo => rustix::fs::mknodat(
            rustix::fs::CWD,
            path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap(),
        Node::Device => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Node::Directory => fs::create_dir(path).unwrap(),
        Node::Dangling => std::os::unix::fs::symlink("/nonexistent/nothing", path).unwrap(),
        Node::Loop => std::os::unix::fs::symlink(path, path).unwrap(),
        Node::Missing => {}
    }
}

/// Text with the characters that have caused trouble: terminal escapes, bells, bidi overrides,
/// characters that print as nothing, newlines, quotes, YAML indicators.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        proptest::sample::select(&INVISIBLE[..]).prop_map(String::from),
        Just("\u{1b}[8m".to_owned()),
        Just("\u{1b}[2J".to_owned()),
        Just("\u{7}".to_owned()),
        Just("\u{202e}".to_owned()),
        Just("\u{9b}".to_owned()),
        Just("\r".to_owned()),
        Just("\t".to_owned()),
        Just("\\\"".to_owned()),
        Just("''".to_owned()),
        Just(": ".to_owned()),
        Just("&a *a".to_owned()),
        "[a-z-]{1,12}",
    ];
    vec(piece, 1..5).prop_map(|parts| parts.concat())
}

/// A HOOK.md's text: well-formed with hostile values, or broken in one of the known ways.
fn hook_md_text() -> impl Strategy<Value = String> {
    let trigger = prop_oneof![
        Just("pre-tool-call"),
        Just("pre_tool_call"),
        Just("before_tool"),
        Just("pre-session"),
        Just("no-such-event"),
        Just("[1, 2]"),
    ];
    let extra = prop_oneof![
        Just(""),
        Just("fail_closed: true\n"),
        Just("async: true\n"),
        Just("timeout: -5\n"),
        Just("priority: 99999\n"),
        Just("matcher:\n  tool: '(['\n  pattern: '\\\\p{L}'\n"),
        Just("matcher: [x]\n"),
        Just("base: &b [x, x, x]\nmore: [*b, *b, *b]\n"),
    ];
    let well_formed = (hostile_text(), hostile_text(), trigger, extra).prop_map(
        |(name, description, trigger, extra)| {
            let quoted = |text: &str| serde_json::to_string(text).unwrap();
            format!(
                "---\nname: {}\ndescription: {}\ntrigger: {trigger}\n{extra}---\nbody\n",
                quoted(&name),
                quoted(&description)
            )
        },
    );
    prop_oneof![
        3 => well_formed,
        1 => Just("no frontmatter at all\n".to_owned()),
        1 => Just("---\nname: open\ntrigger: pre-tool-call\n".to_owned()),
        1 => Just("---\nname: [unclosed\n---\n".to_owned()),
        1 => vec(any::<u8>(), 0..64).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn node(text: BoxedStrategy<String>) -> impl Strategy<Value = Node> {
    prop_oneof![
        4 => text.prop_map(Node::Text),
        1 => (1_u64..64).prop_map(Node::Sparse),
        1 => Just(Node::Fifo),
        1 => Just(Node::Device),
        1 => Just(Node::Directory),
        1 => Just(Node::Dangling),
        1 => Just(Node::Loop),
        1 => Just(Node::Missing),
    ]
}

/// One hook folder: a name, its HOOK.md, its entry script.
fn folder() -> impl Strategy<Value = (String, Node, Node)> {
    let name = prop_oneof![
        hostile_text(),
        Just("guard".to_owned()),
        "[a-z]{1,8}",
        Just(".hidden".to_owned()),
        Just("x".repeat(200)),
    ]
    .prop_map(|name| name.replace('/', "_"));
    let script = Just("#!/bin/sh\ncat >/dev/null; printf '{}'\n".to_owned()).boxed();
    (name, node(hook_md_text().boxed()), node(script))
}

fn build(env: &TestEnv, folders: &[(String, Node, Node)]) {
    let hooks = env.project_hooks();
    fs::create_dir_all(&hooks).unwrap();
    for (name, hook_md, script) in folders {
        let dir = hooks.join(name);
        if fs::create_dir(&dir).is_err() {
            continue; // the same name twice
        }
        make(&dir.join("HOOK.md"), hook_md);
        fs::create_dir(dir.join("scripts")).unwrap();
        make(&dir.join("scripts/run"), script);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_project_trees_hang_nothing_and_print_nothing_raw(
        folders in vec(folder(), 1..6)
    ) {
        let env = TestEnv::new();
        // A user guard of a name the project may reuse, and a config hook.
        env.hook_md(
            &env.user_hooks(),
            "guard",
            "name: guard\ndescription: blocks\ntrigger: pre-tool-call\n",
            "cat >/dev/null; exit 2",
        );
        build(&env, &folders);
        let payload = r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#;
        for args in [
            &["list"][..],
            &["list", "--json"],
            &["doctor", "--no-exec"],
            &["doctor", "--no-exec", "--json"],
            &["run", "pre_tool_call", "--dry-run"],
            &["run", "pre-tool-call", "--dry-run", "--accept-hooks"],
        ] {
            let out = bounded(&env, args, payload);
            prop_assert_ne!(code(&out), 2, "{:?}", args);
            prop_assert_eq!(raw_control(&out.stdout), None, "{:?} stdout", args);
            prop_assert_eq!(raw_control(&out.stderr), None, "{:?} stderr", args);
        }
    }

    #[test]
    fn no_broken_file_deep_payload_or_foreign_folder_switches_off_a_guard_that_loaded(
        config in config_text(),
        folders in vec(folder(), 0..4),
        depth in prop_oneof![3 => 0..=(MAX_DEPTH - 4), 1 => (MAX_DEPTH - 1)..=100_000],
        foreign in any::<bool>(),
    ) {
        let env = TestEnv::new();
        // An approved user guard against `rm -rf`, whatever else is broken around it.
        let guard = env.hook_md(
            &env.user_hooks(),
            "guard",
            "name: guard\ndescription: blocks rm -rf\ntrigger: pre-tool-call\n\
             matcher:\n  pattern: 'rm -rf'\n",
            "cat >/dev/null; echo 'rm -rf is not allowed' >&2; exit 2",
        );
        env.approve("pre_tool_call", &guard.display().to_string());
        fs::write(env.hermes_home().join("config.yaml"), &config).unwrap();
        build(&env, &folders);
        if foreign && fs::create_dir_all(env.project_hooks()).is_ok() {
            // A project another user planted (where this runs as root; else it stays yours).
            give_away_all(&env.work().join(".agents"), OTHER_UID);
        }
        // The command the guard looks for, nested `depth` levels down in the arguments.
        let payload = format!(
            r#"{{"tool_name": "terminal", "args": {{"x": {}}}}}"#,
            nested(depth, r#""rm -rf /srv""#, " ")
        );
        let readable = depth + 2 <= MAX_DEPTH;
        for args in [&["run", "pre_tool_call"][..], &["run", "PreToolUse", "--fail-closed"]] {
            let out = bounded(&env, args, &payload);
            let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            prop_assert_eq!(raw_control(&out.stderr), None, "{:?} stderr", args);
            if !readable {
                // Too deep to read: a payload error, which blocks in fail-closed mode, or where
                // a `fail_closed` guard loaded; never a crash, never a silent pass.
                prop_assert_eq!(&line["errors"][0]["source"], "payload", "{:?}: {}", args, line);
                let closed = args.contains(&"--fail-closed") || line["message"].is_string();
                prop_assert_eq!(code(&out), if closed { 2 } else { 1 }, "{:?}: {}", args, line);
                continue;
            }
            prop_assert_eq!(code(&out), 2, "{:?}: {}", args, line);
            // The guard answered, unless a hook before it (a config hook) blocked first.
            let hooks = line["hooks"].as_array().unwrap();
            let at = hooks.iter().position(|h| h["name"] == "guard").unwrap();
            prop_assert!(
                hooks[at]["status"] == "blocked"
                    || hooks[..at].iter().any(|h| h["status"] != "ok" && h["status"] != "not_matched"),
                "{:?}: {}", args, line
            );
        }
        for args in [&["list", "--json"][..], &["doctor", "--no-exec", "--json"]] {
            let out = bounded(&env, args, "");
            prop_assert_ne!(code(&out), 2, "{:?}", args);
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            prop_assert!(doc.to_string().contains("guard"), "{:?} shows the guard: {}", args, doc);
        }
    }
}

/// A config.yaml's text: a sound `hooks:` block with hostile values, or broken in one of the ways
/// people and attackers break it (indentation, tabs, brackets, a second `hooks:` key, the wrong
/// types, bytes that are not UTF-8, an alias that expands too far).
fn config_text() -> impl Strategy<Value = Vec<u8>> {
    let sound = (hostile_text(), hostile_text()).prop_map(|(command, matcher)| {
        let quoted = |text: &str| serde_json::to_string(text).unwrap();
        format!(
            "hooks:\n  pre_tool_call:\n    - command: {}\n      matcher: {}\n      fail_closed: true\n",
            quoted(&command),
            quoted(&matcher)
        )
        .into_bytes()
    });
    let broken = prop_oneof![
        Just("hooks:\n  pre_tool_call:\n    - command: /bin/true\n   matcher: x\n"),
        Just("hooks:\n\tpre_tool_call:\n\t\t- command: /bin/true\n"),
        Just("hooks: [\n"),
        Just("hooks:\n  - command: /bin/true\n"),
        Just("- just\n- a list\n"),
        Just("hooks:\n  pre_tool_call: [{command: /bin/true}]\nhooks:\n  on_session_start: []\n"),
        Just("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"),
        Just("hooks_auto_accept: true\nhooks: {pre_tool_call: [{command: \"/bin/sh -c 'exit 0'\"}]\n"),
    ]
    .prop_map(|text| text.as_bytes().to_vec());
    prop_oneof![
        2 => sound,
        4 => broken,
        1 => vec(any::<u8>(), 0..128),
        1 => Just(b"hooks:\n  pre_tool_call:\n    - command: /bin/caf\xe9\n".to_vec()),
    ]
}
