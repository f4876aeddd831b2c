//! Hostile input: each case ends in a clear message naming the file (never a panic): a config
//! that cannot be read takes out only its own hooks (named in the answer's `errors`), a payload
//! that cannot be read is exit 1 (never 2 without a guard), and a broken hook folder is skipped
//! with a located warning from `run` and an error from `doctor`.

use std::fmt::Write as _;
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::process::Output;

use proptest::prelude::*;
use serde_json::Value;

use crate::common::{MAX_DEPTH, TestEnv, bounded, code, json, nested, stderr};

/// `run on_session_start` with a config.yaml it refuses: the file is named with `needle` on
/// stderr and in the answer's `errors`, and it takes out only its own hooks (exit 0: the other
/// sources still ran, and nothing blocked).
fn assert_config_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 0, "{err}");
    assert!(err.contains(needle), "{needle:?} not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let line = json(out);
    let errors = line["errors"]
        .as_array()
        .expect("the answer names the file");
    assert_eq!(errors.len(), 1, "{line}");
    assert_eq!(errors[0]["source"], "config", "{line}");
    assert!(
        errors[0]["file"].as_str().unwrap().ends_with("config.yaml"),
        "{line}"
    );
}

/// `run on_session_start` with a payload it cannot read: exit 1, a message containing `needle`.
fn assert_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 1, "{err}");
    assert!(err.contains(needle), "{needle:?} not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        json(out)["error"].is_string(),
        "stdout still says what failed"
    );
}

#[test]
fn a_yaml_alias_bomb_is_refused() {
    let env = TestEnv::new();
    let mut yaml = String::from(
        "hooks:\n  on_session_start:\n    - command: /bin/true\nbomb0: &b0 [x, x, x, x, x, x, x, x, x]\n",
    );
    for level in 1..10 {
        let refs = vec![format!("*b{}", level - 1); 9].join(", ");
        writeln!(yaml, "bomb{level}: &b{level} [{refs}]").unwrap();
    }
    env.config(&yaml);
    assert_config_refused(&env.run("on_session_start", "{}"), "expands too far");
    let out = env.cmd().arg("list").output().unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
}

#[test]
fn deep_nesting_in_yaml_and_in_the_payload_is_refused() {
    let env = TestEnv::new();
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        "[".repeat(100_000)
    ));
    assert_config_refused(&env.run("on_session_start", "{}"), "recursion limit");

    env.config("hooks: {}\n");
    let payload = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert_refused(
        &env.run("on_session_start", &payload),
        "nested deeper than 1000 levels",
    );
}

#[test]
fn a_huge_config_is_refused_before_it_is_parsed() {
    let env = TestEnv::new();
    let line = "    - command: /bin/echo a-hook-that-repeats\n";
    let yaml = format!(
        "hooks:\n  on_session_start:\n{}",
        line.repeat(50 * 1024 * 1024 / line.len())
    );
    env.config(&yaml);
    assert_config_refused(&env.run("on_session_start", "{}"), "larger than 8 MiB");
}

#[test]
fn binary_garbage_as_config_is_refused() {
    let env = TestEnv::new();
    let garbage: Vec<u8> = (0..65_536u32)
        .map(|i| u8::try_from(i.wrapping_mul(2_654_435_761) >> 24).unwrap())
        .collect();
    fs::write(env.hermes_home().join("config.yaml"), garbage).unwrap();
    assert_config_refused(&env.run("on_session_start", "{}"), "config.yaml");
}

#[test]
fn non_utf8_bytes_in_a_command_are_refused() {
    let env = TestEnv::new();
    let mut yaml = b"hooks:\n  on_session_start:\n    - command: /bin/caf".to_vec();
    yaml.extend_from_slice(b"\xe9\n");
    fs::write(env.hermes_home().join("config.yaml"), yaml).unwrap();
    assert_config_refused(&env.run("on_session_start", "{}"), "not valid UTF-8");
}

#[test]
fn a_hook_md_that_never_closes_is_skipped_by_run_and_an_error_for_doctor() {
    let env = TestEnv::new();
    let folder = env.project_hooks().join("open");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        "---\nname: open\ndescription: d\ntrigger: pre-session\n\nno closing line\n",
    )
    .unwrap();
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // run names the file once, in one line, and leaves the why to list and doctor.
    assert!(
        stderr(&out).contains("1 HOOK.md was skipped, so its hook never runs: ")
            && stderr(&out).contains("open/HOOK.md:1; `hermes-hooks doctor` says why"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert_eq!(json(&out)["hooks"], serde_json::json!([]));
    let out = env.cmd().arg("list").output().unwrap();
    assert!(
        stderr(&out).contains("HOOK.md:1: the frontmatter never closes"),
        "{}",
        stderr(&out)
    );
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    assert_eq!(code(&out), 1, "a guard that stops running is a CI failure");
}

#[test]
fn a_hook_folder_whose_path_is_not_utf8_is_skipped_with_a_message() {
    let env = TestEnv::new();
    let folder = env
        .project_hooks()
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        "---\nname: cafe\ndescription: d\ntrigger: pre-session\n---\n",
    )
    .unwrap();
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 HOOK.md was skipped"),
        "{}",
        stderr(&out)
    );
    let out = env.cmd().arg("list").output().unwrap();
    assert!(
        stderr(&out).contains("its path is not valid UTF-8"),
        "{}",
        stderr(&out)
    );
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    assert_eq!(code(&out), 1);
}

#[test]
fn a_repeated_yaml_key_keeps_the_last_value_with_a_warning() {
    // As PyYAML reads it: the last list runs, and the warning names both lines and the hook
    // the first list loses (Hermes never runs it either).
    let env = TestEnv::new();
    let marker = env.path("second-ran");
    let second = env.script("second.sh", &format!("touch {}", marker.display()));
    env.config(&format!(
        "model: a\nhooks:\n  on_session_start:\n    - command: /bin/true\n  on_session_start:\n    - command: {}\nmodel: b\n",
        second.display()
    ));
    env.approve("on_session_start", &second.display().to_string());
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["hooks"].as_array().unwrap().len(), 1);
    assert!(marker.exists(), "the last list is the one that runs");
    assert!(
        stderr(&out).contains(
            "config.yaml:5: hooks.on_session_start is written twice (lines 3 and 5): Hermes keeps only the last, so the hooks of the first one never run: `/bin/true` (line 4); merge the two lists into one"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_symlinked_script_is_pinned_by_the_content_it_points_to() {
    let env = TestEnv::new();
    let target = env.script("real.sh", "printf '{}'");
    let link = env.path("link.sh");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let command = link.display().to_string();
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {command}\n"
    ));
    env.approve("on_session_start", &command);
    let out = env.run("on_session_start", "{}");
    assert_eq!(json(&out)["hooks"][0]["status"], "ok", "{}", stderr(&out));
    // The link stays; what it points to changes.
    env.script("real.sh", "printf '{ }'");
    let out = env.run("on_session_start", "{}");
    assert_eq!(json(&out)["hooks"][0]["status"], "changed");
}

#[test]
fn messages_speak_of_the_hook_not_of_the_libraries() {
    let env = TestEnv::new();
    env.hook_md(
        &env.user_hooks(),
        "twice",
        "name: twice\nname: again\ndescription: d\ntrigger: pre-tool-call\n",
        "cat >/dev/null",
    );
    let folder = env.user_hooks().join("empty");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        "---\nname: empty\ndescription: d\ntrigger: pre-tool-call\n---\n",
    )
    .unwrap();
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("duplicate mapping key `name`"), "{text}");
    assert!(
        !text.contains("DuplicateKeyPolicy") && !text.contains("Options"),
        "{text}"
    );
    assert!(
        text.contains(
            "has no entry script: add scripts/run (executable), scripts/run.sh or scripts/run.py"
        ),
        "{text}"
    );
}

/// Where a nested payload goes wrong, if it does.
#[derive(Clone, Copy, Debug)]
enum Flaw {
    None,
    /// Some of its closing brackets are missing.
    Cut(usize),
    /// A value inside is not JSON.
    Token,
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_nested_payload_meets_the_guard_or_is_a_payload_error_never_a_crash(
        levels in prop_oneof![0..130_usize, (MAX_DEPTH - 6)..(MAX_DEPTH + 4), 1_000..300_000_usize],
        inner in prop::sample::select(vec![r#""rm -rf /""#, r#""]}[{\"""#, "NaN", "-1e400", "[]", "{}"]),
        flaw in prop_oneof![
            3 => Just(Flaw::None),
            1 => (1..50_usize).prop_map(Flaw::Cut),
            1 => Just(Flaw::Token),
        ],
        spacing in prop::sample::select(vec!["", " ", "\n"]),
    ) {
        let env = TestEnv::new();
        let guard = env.script("guard.sh", "cat >/dev/null; exit 2").display().to_string();
        env.config(&format!("hooks:\n  pre_tool_call:\n    - command: {guard}\n"));
        env.approve("pre_tool_call", &guard);
        let inner = if matches!(flaw, Flaw::Token) { "nan" } else { inner };
        let mut args = nested(levels, inner, spacing);
        if let Flaw::Cut(missing) = flaw {
            args.truncate(args.len() - missing.min(levels));
        }
        let payload = format!(r#"{{"tool_name": "terminal", "args": {{"x": {args}}}}}"#);
        // The payload and its arguments are two levels, as is `[]` or `{}` inside.
        let depth = 2 + levels + usize::from(inner.starts_with(['[', '{']));
        let whole = matches!(flaw, Flaw::None) || matches!(flaw, Flaw::Cut(_)) && levels == 0;

        let out = bounded(&env, &["run", "pre_tool_call"], &payload);
        let ran = json(&out);
        if depth > MAX_DEPTH {
            prop_assert_eq!(code(&out), 1, "{}", stderr(&out));
            prop_assert!(ran["error"].as_str().unwrap().contains("nested deeper than 1000 levels"));
        } else if whole {
            prop_assert_eq!(code(&out), 2, "{}", stderr(&out));
        } else {
            prop_assert_eq!(code(&out), 1, "{}", stderr(&out));
            prop_assert!(ran["error"].as_str().unwrap().contains("not valid JSON"), "{}", ran);
        }

        // A request is one line.
        let payload = payload.replace('\n', "\t");
        let line = format!("{{\"id\": 1, \"event\": \"pre_tool_call\", \"payload\": {payload}}}\n");
        let served = bounded(&env, &["serve"], &line);
        let answer = json(&served);
        prop_assert_eq!(&answer["id"], &Value::from(1), "the id is read before anything else");
        if let Some(exit) = answer.get("exit") {
            prop_assert_eq!(exit, &Value::from(code(&out)));
        } else {
            prop_assert_eq!(code(&out), 1, "a refused line is run's error: {}", answer);
        }
    }
}

/// Too few file descriptors to read the hooks folder: the guard is not silently gone. Whatever
/// the limit, `run --fail-closed` with a `fail_closed` guard never answers "no hooks, go on";
/// it blocks, and without `--fail-closed` the answer names the folder in `errors`.
#[test]
fn too_many_open_files_never_makes_a_guard_vanish() {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        crate::common::say_skipped("prlimit (util-linux) is not installed");
        return;
    }
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "guard",
        "name: guard\ndescription: Blocks\ntrigger: pre-tool-call\nfail_closed: true\n",
        "cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"guarded\"}'",
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut answered_errors = false;
    for limit in 4..=12 {
        for fail_closed in [true, false] {
            // The environment of every test command, under `prlimit`.
            let cmd = env.std_cmd();
            let program = cmd.get_program().to_owned();
            let mut limited = std::process::Command::new("prlimit");
            limited
                .arg(format!("--nofile={limit}"))
                .arg(&program)
                .args(["run", "pre_tool_call"])
                .current_dir(env.work());
            for (name, value) in cmd.get_envs() {
                match value {
                    Some(value) => limited.env(name, value),
                    None => limited.env_remove(name),
                };
            }
            if fail_closed {
                limited.arg("--fail-closed");
            }
            let out = assert_cmd::Command::from_std(limited)
                .write_stdin(r#"{"tool_name":"terminal","tool_input":{"command":"ls"}}"#)
                .output()
                .unwrap();
            let said = format!(
                "nofile={limit} fail_closed={fail_closed}: exit {}, stdout {}, stderr {}",
                code(&out),
                String::from_utf8_lossy(&out.stdout),
                stderr(&out)
            );
            if code(&out) == 127 {
                continue; // the dynamic loader itself had no descriptor left
            }
            let line: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            if fail_closed {
                assert_eq!(code(&out), 2, "{said}");
            } else if line["action"] != "block" {
                assert!(
                    line["errors"].to_string().contains(".agents/hooks"),
                    "{said}"
                );
                answered_errors = true;
            }
        }
    }
    assert!(
        answered_errors,
        "some limit must leave the folder unreadable"
    );
}
