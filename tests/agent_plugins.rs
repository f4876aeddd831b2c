//! The agents guarded through a plugin module (OpenCode, Kilo Code, Pi): `run --agent` and
//! `serve` read their hooks' names and arguments and answer what the module does (a throw or a
//! `{block, reason}`, arguments replaced in place, context); `install` writes the module into
//! the agent's plugin folder and `uninstall` removes it; the guard's own checks cover the module
//! file and the agents' switches that start them without plugins.

use std::fs;
use std::io::Write as _;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, output_of_copy, stderr};

fn fm(name: &str, trigger: &str, extra: &str) -> String {
    format!("name: {name}\ndescription: A test hook\ntrigger: {trigger}\n{extra}")
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// An approved user rule that stops `rm` of anything under `/etc`.
fn rm_rule(env: &TestEnv) {
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(
        &file,
        "rules:\n- name: no-rm-etc\n  tool: shell\n  when:\n    program: ^rm$\n    paths: ^/etc\n  \
         action: block\n  message: removing /etc is not allowed\n",
    )
    .unwrap();
    approve_all(env);
}

/// `run --agent AGENT EVENT` with `payload` on stdin.
fn run(env: &TestEnv, agent: &str, event: &str, payload: &Value) -> Output {
    env.cmd()
        .args(["run", "--agent", agent, event])
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

/// The whole of stdout, which must be one JSON object.
fn answer(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

fn opencode_call(env: &TestEnv, tool: &str, args: &Value) -> Value {
    json!({"tool": tool, "sessionID": "ses_1", "callID": "call_1",
           "directory": env.work(), "args": args})
}

fn pi_call(env: &TestEnv, tool: &str, input: &Value) -> Value {
    json!({"type": "tool_call", "toolName": tool, "toolCallId": "c1",
           "cwd": env.work(), "input": input})
}

#[test]
fn a_rule_stops_a_shell_call_of_each_agent_in_its_own_words() {
    let env = TestEnv::new();
    rm_rule(&env);
    let hostile = json!({"command": "bash -lc 'cd / && rm -rf etc'"});
    for agent in ["opencode", "kilo"] {
        let out = run(
            &env,
            agent,
            "tool.execute.before",
            &opencode_call(&env, "bash", &hostile),
        );
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert_eq!(
            answer(&out),
            json!({"throw": "removing /etc is not allowed"})
        );
    }
    // Kilo's second way to start a command is a shell call too.
    let out = run(
        &env,
        "kilo",
        "tool.execute.before",
        &opencode_call(
            &env,
            "background_process",
            &json!({"action": "start", "command": "rm -r /etc/x"}),
        ),
    );
    assert_eq!(answer(&out)["throw"], "removing /etc is not allowed");
    let out = run(&env, "pi", "tool_call", &pi_call(&env, "bash", &hostile));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"block": true, "reason": "removing /etc is not allowed"})
    );
    let out = run(
        &env,
        "pi",
        "tool_call",
        &pi_call(&env, "bash", &json!({"command": "ls /etc"})),
    );
    assert_eq!((code(&out), answer(&out)), (0, json!({})));
}

#[test]
fn a_rewrite_is_the_new_arguments_and_an_ask_is_a_block() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "soften",
        &fm("soften", "pre_tool_call", "matcher:\n  tool: shell\n"),
        r#"case "$(cat)" in
  *ask*) echo '{"decision":"ask","reason":"a person decides"}' ;;
  *) echo '{"action":"modify","args":{"command":"echo softened"}}' ;;
esac"#,
    );
    approve_all(&env);
    let out = run(
        &env,
        "opencode",
        "tool.execute.before",
        &opencode_call(
            &env,
            "bash",
            &json!({"command": "make clean", "workdir": "."}),
        ),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(answer(&out)["args"]["command"], "echo softened");
    let out = run(
        &env,
        "pi",
        "tool_call",
        &pi_call(&env, "bash", &json!({"command": "make clean"})),
    );
    assert_eq!(answer(&out)["input"]["command"], "echo softened");
    for (agent, event, payload) in [
        (
            "opencode",
            "tool.execute.before",
            opencode_call(&env, "bash", &json!({"command": "ask first"})),
        ),
        (
            "pi",
            "tool_call",
            pi_call(&env, "bash", &json!({"command": "ask first"})),
        ),
    ] {
        let out = run(&env, agent, event, &payload);
        assert_eq!(code(&out), 2, "{agent}: {}", stderr(&out));
        let said = answer(&out).to_string();
        assert!(said.contains("a person decides"), "{agent}: {said}");
    }
}

#[test]
fn context_reaches_the_message_and_the_tool_result() {
    let env = TestEnv::new();
    for (name, trigger) in [("turn", "pre_llm_call"), ("after", "post_tool_call")] {
        env.hook_md(
            &env.project_hooks(),
            name,
            &fm(name, trigger, ""),
            &format!(r#"cat >/dev/null; echo '{{"context":"from {name}"}}'"#),
        );
    }
    approve_all(&env);
    let out = run(
        &env,
        "opencode",
        "chat.message",
        &json!({"sessionID": "ses_1", "directory": env.work(), "prompt": "tidy up"}),
    );
    assert_eq!(answer(&out), json!({"context": "from turn"}));
    let out = run(
        &env,
        "opencode",
        "tool.execute.after",
        &json!({"tool": "bash", "sessionID": "ses_1", "callID": "c", "directory": env.work(),
                "args": {"command": "ls"}, "output": "a\nb"}),
    );
    assert_eq!(answer(&out), json!({"context": "from after"}));
    let out = run(
        &env,
        "pi",
        "before_agent_start",
        &json!({"type": "before_agent_start", "prompt": "tidy up", "cwd": env.work()}),
    );
    assert_eq!(answer(&out)["message"]["content"], "from turn");
    let out = run(
        &env,
        "pi",
        "tool_result",
        &json!({"type": "tool_result", "toolName": "bash", "toolCallId": "c",
                "cwd": env.work(), "input": {"command": "ls"},
                "content": [{"type": "text", "text": "a"}], "isError": false}),
    );
    assert_eq!(answer(&out), json!({"context": "from after"}));
}

#[test]
fn an_unapproved_hook_does_nothing() {
    let env = TestEnv::new();
    let ran = env.path("ran");
    env.hook_md(
        &env.project_hooks(),
        "guard",
        &fm("guard", "pre_tool_call", ""),
        &format!(
            r#"touch '{}'; echo '{{"decision":"block","reason":"no"}}'"#,
            ran.display()
        ),
    );
    let out = run(
        &env,
        "opencode",
        "tool.execute.before",
        &opencode_call(&env, "bash", &json!({"command": "ls"})),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(answer(&out), json!({}));
    assert!(!ran.exists());
}

#[test]
fn serve_answers_each_agent_in_its_contract() {
    let env = TestEnv::new();
    rm_rule(&env);
    let mut child = env
        .std_cmd()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let requests = [
        json!({"id": 1, "agent": "opencode", "event": "tool.execute.before",
               "project_dir": env.work(),
               "payload": opencode_call(&env, "bash", &json!({"command": "rm -rf /etc"}))}),
        json!({"id": 2, "agent": "pi", "event": "tool_call", "project_dir": env.work(),
               "payload": pi_call(&env, "bash", &json!({"command": "sudo rm /etc/hosts"}))}),
        json!({"id": 3, "agent": "pi", "event": "tool_call", "project_dir": env.work(),
               "payload": pi_call(&env, "read", &json!({"path": "README.md"}))}),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for request in &requests {
        writeln!(stdin, "{request}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["exit"], 2);
    assert_eq!(lines[0]["answer"]["throw"], "removing /etc is not allowed");
    assert_eq!(lines[1]["answer"]["block"], true);
    assert_eq!(
        (&lines[2]["exit"], &lines[2]["answer"]),
        (&json!(0), &json!({}))
    );
}

#[test]
fn events_say_what_each_agent_lacks() {
    let env = TestEnv::new();
    for agent in ["opencode", "kilo", "pi"] {
        let out = env
            .cmd()
            .args(["events", "--agent", agent, "--json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["gate"], false, "{agent}");
        let tool = &doc["events"][0];
        assert_eq!(tool["event"], "pre_tool_call", "{agent}");
        assert_eq!(tool["ask_is_block"], true, "{agent}");
        let out = env
            .cmd()
            .args(["events", "--agent", agent])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("ask (as a block)"), "{text}");
        assert!(text.contains("quality gate"), "{text}");
    }
    let out = env
        .cmd()
        .args(["events", "--agent", "claude-code", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["gate"], true);
}

#[test]
fn install_writes_the_module_where_each_agent_loads_it_and_uninstall_removes_it() {
    let env = TestEnv::new();
    fs::create_dir_all(env.work().join(".git")).unwrap();
    let home = env.home();
    let user = [
        (
            "opencode",
            home.join(".config/opencode/plugins/hermes-hooks.js"),
        ),
        ("kilo", home.join(".config/kilo/plugins/hermes-hooks.js")),
        ("pi", home.join(".pi/agent/extensions/hermes-hooks.js")),
    ];
    for (agent, file) in &user {
        let out = env
            .cmd()
            .args(["install", agent, "--json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["files"][0]["action"], "created", "{agent}");
        let text = fs::read_to_string(file).unwrap();
        assert!(!text.contains("@HERMES_HOOKS_"), "{agent}");
        assert!(text.contains(&format!("\"{agent}\"")), "{agent}");
        let binary = doc["binary"].as_str().unwrap();
        assert!(binary.starts_with('/'), "{binary}");
        assert!(text.contains(&serde_json::to_string(binary).unwrap()));
        // Twice changes nothing.
        let again = env
            .cmd()
            .args(["install", agent, "--json"])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(doc["files"][0]["action"], "unchanged", "{agent}");
    }
    let out = env
        .cmd()
        .args(["install", "pi", "--project", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let project = env.work().join(".pi/extensions/hermes-hooks.js");
    assert!(
        fs::read_to_string(&project)
            .unwrap()
            .contains("\"hermes-hooks\"")
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["notes"].to_string().contains("project's root"), "{doc}");
    // Something of the agent's own beside the module stays.
    let own = home.join(".config/opencode/plugins/mine.js");
    fs::write(&own, "export default {}\n").unwrap();
    for (agent, file) in &user {
        let out = env.cmd().args(["uninstall", agent]).output().unwrap();
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        assert!(!file.exists(), "{agent}");
    }
    assert!(own.exists());
}

#[test]
fn a_module_folder_that_is_a_link_is_refused() {
    let env = TestEnv::new();
    let elsewhere = env.path("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let folder = env.home().join(".config/kilo");
    fs::create_dir_all(&folder).unwrap();
    std::os::unix::fs::symlink(&elsewhere, folder.join("plugins")).unwrap();
    let out = env.cmd().args(["install", "kilo"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("not a folder"), "{}", stderr(&out));
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn the_model_cannot_remove_the_module_or_start_its_agent_without_plugins() {
    let env = TestEnv::new();
    rm_rule(&env);
    let out = env.cmd().args(["install", "opencode"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let module = env.home().join(".config/opencode/plugins/hermes-hooks.js");
    for command in [
        format!("rm -f {}", module.display()),
        "rm -rf ~/.config/opencode/plugins".to_owned(),
        "opencode run --pure 'clean up'".to_owned(),
        "export OPENCODE_PURE=1".to_owned(),
        "OPENCODE_PURE=1 opencode run 'clean up'".to_owned(),
        "env KILO_PURE=true kilo run x".to_owned(),
        "kilo run --pure x".to_owned(),
        "pi --no-extensions -p x".to_owned(),
        // hermes-hooks refuses to run the hooks of what is started this deep.
        "HERMES_HOOKS_DEPTH=9 opencode run 'clean up'".to_owned(),
        "export HERMES_HOOKS_DEPTH=4".to_owned(),
        "env HERMES_HOOKS_DEPTH=4 claude -p x".to_owned(),
        // Another plugin or hook beside the guard runs in the agent too, after it.
        "printf x > .opencode/plugins/zz.js".to_owned(),
        "mkdir -p .kilo/plugin && cp /tmp/evil.js .kilo/plugin/".to_owned(),
        "tee .cline/hooks/PreToolUse < /tmp/evil".to_owned(),
        "cp /tmp/evil.js ~/.pi/agent/extensions/".to_owned(),
    ] {
        let out = run(
            &env,
            "opencode",
            "tool.execute.before",
            &opencode_call(&env, "bash", &json!({"command": command})),
        );
        assert_eq!(code(&out), 2, "{command}: {}", stderr(&out));
        assert!(answer(&out)["throw"].is_string(), "{command}");
    }
    let write = json!({"filePath": env.work().join(".opencode/plugin/zz.js"), "content": "x"});
    let out = run(
        &env,
        "opencode",
        "tool.execute.before",
        &opencode_call(&env, "write", &write),
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = run(
        &env,
        "opencode",
        "tool.execute.before",
        &opencode_call(&env, "bash", &json!({"command": "opencode run 'say hi'"})),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn doctor_reports_each_module_its_version_and_its_program() {
    let env = TestEnv::new();
    rm_rule(&env);
    let doctor = || {
        let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == "module")
            .map(|f| {
                (
                    f["level"].as_str().unwrap().to_owned(),
                    f["message"].to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let out = env.cmd().args(["install", "pi"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let found = doctor();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "ok", "{found:?}");
    // Another version, as an older binary would have written it.
    let file = env.home().join(".pi/agent/extensions/hermes-hooks.js");
    let text = fs::read_to_string(&file).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    fs::write(&file, text.replace(version, "0.0.1")).unwrap();
    let found = doctor();
    assert_eq!(found[0].0, "warning", "{found:?}");
    assert!(found[0].1.contains("version 0.0.1"), "{found:?}");
    // A module whose program is gone.
    let copy = env.path("copy-of-hermes-hooks");
    fs::copy(assert_cmd::cargo::cargo_bin!("hermes-hooks"), &copy).unwrap();
    let out = output_of_copy(env.std_cmd_of(&copy).args(["install", "pi"]));
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    fs::remove_file(&copy).unwrap();
    let found = doctor();
    assert_eq!(found[0].0, "error", "{found:?}");
    assert!(found[0].1.contains("cannot be run"), "{found:?}");
}

fn cline_call(env: &TestEnv, commands: &[&str]) -> Value {
    json!({"taskId": "task_1", "workspaceRoots": [env.work()], "hookName": "tool_call",
           "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": commands}},
           "preToolUse": {"toolName": "run_commands",
                          "parameters": {"commands": serde_json::to_string(commands).unwrap()}}})
}

#[test]
fn cline_reads_each_of_its_commands_and_a_block_cancels_the_task() {
    let env = TestEnv::new();
    rm_rule(&env);
    let out = run(
        &env,
        "cline",
        "PreToolUse",
        &cline_call(&env, &["ls", "cd / && bash -lc 'rm -rf etc'"]),
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"cancel": true, "errorMessage": "removing /etc is not allowed"})
    );
    let out = run(&env, "cline", "PreToolUse", &cline_call(&env, &["ls"]));
    assert_eq!((code(&out), answer(&out)), (0, json!({})));
}

#[test]
fn a_cline_rewrite_overrides_the_whole_input_with_the_commands_as_a_list() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "soften",
        &fm("soften", "pre_tool_call", "matcher:\n  tool: shell\n"),
        r#"cat >/dev/null; echo '{"action":"modify","args":{"command":"echo softened"}}'"#,
    );
    approve_all(&env);
    let out = run(
        &env,
        "cline",
        "PreToolUse",
        &cline_call(&env, &["make clean"]),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        answer(&out),
        json!({"overrideInput": {"commands": ["echo softened"]}})
    );
}

/// Cline's `event` script as Cline runs it: `sh FILE` in the project with the payload on stdin.
fn cline_script(env: &TestEnv, event: &str, payload: &Value) -> std::process::Output {
    std::process::Command::new("sh")
        .arg(env.home().join(".cline/hooks").join(format!("{event}.sh")))
        .current_dir(env.work())
        .env("HOME", env.home())
        .env_remove("HERMES_HOOKS_FAIL_CLOSED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(payload.to_string().as_bytes())?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap()
}

#[test]
fn a_cline_script_stops_a_call_its_runner_died_on_where_a_fail_closed_hook_could_apply() {
    for fail_closed in [false, true] {
        let env = TestEnv::new();
        // A hook that ends the `run` that started it before it can answer.
        env.hook_md(
            &env.project_hooks(),
            "runner-killer",
            &fm(
                "runner-killer",
                "pre_tool_call",
                if fail_closed {
                    "fail_closed: true\n"
                } else {
                    ""
                },
            ),
            "cat >/dev/null; kill -9 $PPID",
        );
        approve_all(&env);
        let out = env.cmd().args(["install", "cline"]).output().unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let ran = cline_script(&env, "PreToolUse", &cline_call(&env, &["ls"]));
        assert_eq!(code(&ran), 0);
        let said = String::from_utf8_lossy(&ran.stderr);
        assert!(said.contains("ended with status 137"), "{said}");
        if fail_closed {
            let answer: Value = serde_json::from_slice(&ran.stdout).unwrap();
            assert_eq!(answer["cancel"], true, "{answer}");
            assert!(
                answer["errorMessage"]
                    .as_str()
                    .unwrap()
                    .contains("a fail_closed hook could apply"),
                "{answer}"
            );
        } else {
            // Nothing Cline reads as an answer: the call goes on, as without the guard.
            assert!(
                ran.stdout.is_empty(),
                "{}",
                String::from_utf8_lossy(&ran.stdout)
            );
        }
    }
}

#[test]
fn a_program_gone_blocks_a_tool_call_unless_installed_with_if_missing_allow() {
    for (flag, blocked) in [(None, true), (Some("allow"), false)] {
        let env = TestEnv::new();
        let copy = env.path("copy-of-hermes-hooks");
        fs::copy(assert_cmd::cargo::cargo_bin!("hermes-hooks"), &copy).unwrap();
        for agent in ["cline", "opencode"] {
            let mut install = env.std_cmd_of(&copy);
            install.args(["install", agent, "--json"]);
            if let Some(value) = flag {
                install.args(["--if-missing", value]);
            }
            let out = output_of_copy(&mut install);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["if_missing"], flag.unwrap_or("block"), "{doc}");
        }
        // The module carries the choice to the plugin agent.
        let module =
            fs::read_to_string(env.home().join(".config/opencode/plugins/hermes-hooks.js"))
                .unwrap();
        let want = format!("const IF_MISSING = \"{}\";", flag.unwrap_or("block"));
        assert!(module.contains(&want), "{want}");
        fs::remove_file(&copy).unwrap();
        let ran = cline_script(&env, "PreToolUse", &cline_call(&env, &["ls"]));
        let said: Value = serde_json::from_slice(&ran.stdout).unwrap();
        if blocked {
            assert_eq!(said["cancel"], true, "{said}");
        } else {
            assert_eq!(said, json!({}));
        }
        // After a call there is nothing left to stop.
        let ran = cline_script(&env, "PostToolUse", &cline_call(&env, &["ls"]));
        assert_eq!(
            serde_json::from_slice::<Value>(&ran.stdout).unwrap(),
            json!({})
        );
    }
}

#[test]
fn install_cline_writes_a_script_per_event_beside_a_persons_own_hooks() {
    let env = TestEnv::new();
    rm_rule(&env);
    let hooks = env.home().join(".cline/hooks");
    fs::create_dir_all(&hooks).unwrap();
    let own = hooks.join("PreToolUse");
    fs::write(&own, "#!/bin/sh\necho '{}'\n").unwrap();
    let out = env
        .cmd()
        .args(["install", "cline", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["files"].as_array().unwrap().len(), 4, "{doc}");
    let script = hooks.join("PreToolUse.sh");
    // Cline runs the script with the payload on stdin; the rule's block comes back.
    let ran = cline_script(&env, "PreToolUse", &cline_call(&env, &["rm -r /etc/x"]));
    let said: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(said["cancel"], true, "{said}");
    // A person's own script of that name is never replaced, and uninstall leaves it.
    fs::write(&script, "#!/bin/sh\necho mine\n").unwrap();
    let out = env.cmd().args(["install", "cline"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("not written by hermes-hooks"),
        "{}",
        stderr(&out)
    );
    let out = env.cmd().args(["uninstall", "cline"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&script).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    assert!(own.exists());
    assert!(!hooks.join("PostToolUse.sh").exists());
}
