//! The guard guards itself: while a guard is approved, the model's calls that would change the
//! guard's own files, or run what only a person may run, are blocked before any rule or hook;
//! reading them, and everything else, goes on.

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

/// A project with the destructive pack approved in its rules file, and Claude Code wired.
fn guarded() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.work().join(".git")).unwrap();
    for args in [
        &["new", "--rules", "destructive", "--project", "."][..],
        &["approve", "--yes"],
        &["install", "claude-code", "--project", "."],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
    env
}

/// A home where only a hook that lets everything through is approved: what is blocked is the
/// guard's own doing.
fn passing_hook_only() -> TestEnv {
    let env = TestEnv::new();
    let script = env
        .script("allow.sh", "cat >/dev/null; printf '{}'")
        .display()
        .to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {script}\n"
    ));
    env.approve("pre_tool_call", &script);
    env
}

/// Claude Code's answer to a `tool` call with `input`, in session `session`.
pub(crate) fn claude(env: &TestEnv, session: &str, tool: &str, input: &Value) -> Value {
    let payload = json!({
        "session_id": session,
        "cwd": env.work(),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
    });
    let out = env
        .cmd()
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    if out.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&out.stdout).unwrap()
}

fn denied(answer: &Value) -> bool {
    answer["hookSpecificOutput"]["permissionDecision"] == "deny"
}

fn bash(env: &TestEnv, command: &str) -> Value {
    claude(env, "s1", "Bash", &json!({ "command": command }))
}

#[test]
fn each_way_of_removing_or_emptying_a_guard_is_blocked() {
    let env = guarded();
    let hermes = env.hermes_home();
    for command in [
        "rm .agents/rules.yaml",
        "bash -lc \"rm -f .agents/rules.yaml\"",
        "mv .agents /tmp/x",
        "echo \"rules: []\" > .agents/rules.yaml",
        "cp /dev/null .agents/rules.yaml",
        "sed -i 's/fail_closed: true//' .agents/rules.yaml",
        "rm -rf .claude",
        "sed -i d .claude/settings.json",
        "truncate -s 0 .claude/settings.json",
        &format!("mv {}/hermes-hooks /tmp/r", hermes.display()),
        &format!(
            "echo '{{}}' > {}/shell-hooks-allowlist.json",
            hermes.display()
        ),
        &format!("rm {}/shell-hooks-allowlist.json.lock", hermes.display()),
        "git rm -r .agents",
        "timeout 5 rm -rf .agents",
    ] {
        let answer = bash(&env, command);
        assert!(denied(&answer), "{command}: {answer}");
        let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(reason.contains("the person's"), "{reason}");
    }
    assert!(env.work().join(".agents/rules.yaml").is_file());
}

#[test]
fn commands_only_a_person_may_run_are_blocked() {
    let env = guarded();
    for command in [
        "hermes-hooks approve --yes",
        "hermes-hooks revoke x",
        "hermes-hooks uninstall claude-code --project .",
        "hermes-hooks install claude-code --project .",
        "hermes-hooks new --rules secrets",
        "hermes-hooks setup --yes",
        "hermes-hooks install",
        "hermes-hooks uninstall --all",
        "hermes-hooks list --accept-hooks",
        "HERMES_HOOKS_ACCEPT=1 hermes-hooks run pre_tool_call",
        "npx hermes-hooks approve --yes",
        // Runners read past their own words, and a program known only when it runs.
        "pipx run hermes-hooks approve --yes",
        "npm exec hermes-hooks@latest -- approve --yes",
        "pnpm dlx hermes-hooks revoke x",
        "uv tool run hermes-hooks new --rules secrets",
        "$(which hermes-hooks) approve --yes",
        "h=hermes-hooks; $h revoke x",
        "\"$HH\" --accept-hooks run pre_tool_call",
        // Programs that run the text they are given.
        "script -qc 'hermes-hooks approve --yes' /dev/null",
        "script -q -c 'rm .agents/rules.yaml' /dev/null",
        "expect -c 'spawn hermes-hooks approve; expect *; send y\\r'",
        "tmux new-session -d 'hermes-hooks revoke x'",
        "ssh localhost hermes-hooks approve --yes",
        "bash -c 'hermes-hooks approve --yes'",
        // Detached, and with the agents' variables taken out: what the refusal inside
        // `revoke` cannot see, this reading does.
        "setsid -f sh -c 'sleep 1; env -u CLAUDECODE -u AI_AGENT hermes-hooks revoke x'",
        "sh -c \"setsid -f sh -c 'hermes-hooks revoke x'\"",
        "setsid --fork --wait hermes-hooks approve --yes",
        "nohup env -u CODEX_THREAD_ID hermes-hooks revoke x &",
        // An agent's own ways to run without hooks.
        "codex features disable hooks",
        "codex exec --disable hooks 'rm -rf ~'",
        "codex --disable=hooks exec x",
        "codex -c features.hooks=false exec x",
        "hermes plugins disable hermes-hooks",
        "hermes plugins remove hermes-hooks",
        "claude --settings '{\"disableAllHooks\": true}' -p hi",
        // A program's own code that runs hermes-hooks: read as text.
        "python3 -c \"import os; os.system('setsid -f sh -c \\\"env -u AI_AGENT hermes-hooks revoke x\\\"')\"",
        "node -e \"require('child_process').execSync('hermes-hooks approve --yes')\"",
        "perl -e 'system(\"hermes-hooks\", \"uninstall\", \"claude-code\")'",
        "python3 -c \"import subprocess; subprocess.run(['hermes-hooks', 'setup', '--yes'])\"",
    ] {
        assert!(denied(&bash(&env, command)), "{command}");
    }
    for command in [
        "setsid -f sleep 1",
        "pipx run hermes-hooks list",
        "npx hermes-hooks doctor",
        "npm install hermes-hooks",
        "$NPM install left-pad",
        "script -qc 'ls -la' /dev/null",
        "git commit -m 'docs: run hermes-hooks approve after cloning'",
        "python3 -c \"import subprocess; subprocess.run(['hermes-hooks', 'list'])\"",
        "python3 -c 'print(1)'",
        "codex features list",
        "hermes plugins list",
        "claude --version",
    ] {
        assert!(!denied(&bash(&env, command)), "{command}");
    }
}

#[test]
fn a_project_wired_without_an_agents_folder_keeps_its_wiring() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.work().join(".git")).unwrap();
    for args in [
        &["new", "--rules", "destructive"][..],
        &["approve", "--yes"],
        &["install", "claude-code", "--project", "."],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
    assert!(!env.work().join(".agents").exists());
    for command in [
        "sed -i d .claude/settings.json",
        "rm -rf .claude",
        "mv .claude /tmp/elsewhere",
        "chmod 000 .claude/settings.json",
        "echo '{\"disableAllHooks\": true}' | tee .claude/settings.local.json",
        "bash -lc ': > .claude/settings.json'",
    ] {
        assert!(denied(&bash(&env, command)), "{command}");
    }
    let write = claude(
        &env,
        "s1",
        "Write",
        &json!({"file_path": ".claude/settings.local.json", "content": "{\"disableAllHooks\": true}"}),
    );
    assert!(denied(&write), "{write}");
    assert!(!denied(&bash(&env, "cat .claude/settings.json")));
}

#[test]
fn an_edit_or_a_write_to_a_guard_file_is_blocked_and_reads_go_on() {
    let env = guarded();
    let edit = claude(
        &env,
        "s1",
        "Edit",
        &json!({"file_path": ".agents/rules.yaml", "old_string": "fail_closed: true", "new_string": ""}),
    );
    assert!(denied(&edit), "{edit}");
    let write = claude(
        &env,
        "s1",
        "Write",
        &json!({"file_path": env.work().join(".claude/settings.json"), "content": "{}"}),
    );
    assert!(denied(&write), "{write}");
    for command in [
        "cat .agents/rules.yaml",
        "ls -la .agents",
        "grep -n rm .agents/rules.yaml",
    ] {
        assert!(!denied(&bash(&env, command)), "{command}");
    }
    let read = claude(
        &env,
        "s1",
        "Read",
        &json!({"file_path": ".agents/rules.yaml"}),
    );
    assert!(!denied(&read), "{read}");
    // Work on the project's own files goes on.
    for command in ["rm -rf build", "echo x > notes.md", "mv a.txt b.txt"] {
        assert!(!denied(&bash(&env, command)), "{command}");
    }
    let write = claude(
        &env,
        "s1",
        "Write",
        &json!({"file_path": "src/main.rs", "content": "x"}),
    );
    assert!(!denied(&write), "{write}");
}

#[test]
fn a_link_to_a_guard_file_is_followed() {
    let env = guarded();
    std::os::unix::fs::symlink(
        env.work().join(".agents/rules.yaml"),
        env.work().join("innocent.yaml"),
    )
    .unwrap();
    assert!(denied(&bash(&env, "echo 'rules: []' > innocent.yaml")));
    let edit = claude(
        &env,
        "s1",
        "Write",
        &json!({"file_path": "innocent.yaml", "content": "rules: []"}),
    );
    assert!(denied(&edit), "{edit}");
}

#[test]
fn the_person_is_told_once_per_session() {
    let env = guarded();
    let first = bash(&env, "rm .agents/rules.yaml");
    let told = first["systemMessage"].as_str().unwrap_or_default();
    assert!(
        told.contains("kept the model") && told.contains("rules.yaml"),
        "{first}"
    );
    let second = bash(&env, "mv .agents /tmp/x");
    assert!(denied(&second));
    assert!(second.get("systemMessage").is_none(), "{second}");
    let other = claude(
        &env,
        "s2",
        "Bash",
        &json!({"command": "rm .agents/rules.yaml"}),
    );
    assert!(other["systemMessage"].is_string(), "{other}");
}

#[test]
fn the_person_turns_it_off_in_settings_and_nothing_is_guarded_without_a_guard() {
    let env = guarded();
    std::fs::write(
        env.hermes_home().join("hermes-hooks/settings.yaml"),
        "self_protection: false\n",
    )
    .unwrap();
    assert!(!denied(&bash(&env, "rm .agents/rules.yaml")));
    assert!(!denied(&bash(&env, "hermes-hooks approve --yes")));
    // A variable the model could set does nothing.
    let env = guarded();
    let out = env
        .cmd()
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .env("HERMES_HOOKS_SELF_PROTECTION", "0")
        .write_stdin(
            json!({"session_id": "s", "cwd": env.work(), "tool_name": "Bash",
                   "tool_input": {"command": "rm .agents/rules.yaml"}})
            .to_string(),
        )
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("deny"));
    // Nothing approved: nothing to guard.
    let bare = TestEnv::new();
    std::fs::create_dir_all(bare.work().join(".agents")).unwrap();
    std::fs::write(bare.work().join(".agents/rules.yaml"), "rules: []\n").unwrap();
    assert!(!denied(&bash(&bare, "rm .agents/rules.yaml")));
    assert!(!denied(&bash(&bare, "hermes-hooks approve --yes")));
}

/// `rm -rf /` or `rm -rf ~` takes the guard with everything else: the rules and hooks answer
/// first in their own words, and a call they let through is still blocked.
#[test]
fn a_sweeping_delete_is_left_to_the_rules_first_and_never_let_through() {
    let env = guarded();
    let answer = bash(&env, "rm -rf ~");
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains("home folder"),
        "the pack's own words: {answer}"
    );
    // Only a hook that lets everything through is approved: the guard still holds.
    let env = passing_hook_only();
    let answer = bash(&env, "rm -rf /");
    assert!(denied(&answer), "{answer}");
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("guard's own files"), "{reason}");
}

/// A guard's file named through what the shell expands (a glob, a brace list, a variable) is
/// named all the same: with only a hook that lets everything through approved, the guard alone
/// stops each of these, and leaves the project's own globs alone.
#[test]
fn a_guard_file_named_through_a_glob_or_a_variable_is_still_named() {
    let env = passing_hook_only();
    let hermes = env.hermes_home().display().to_string();
    let parent = env.hermes_home().parent().unwrap().display().to_string();
    let last = env
        .hermes_home()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let first = &last[..1];
    for command in [
        format!("rm {hermes}/*"),
        format!("rm -f {hermes}/config.y?ml"),
        format!("rm -f {hermes}/shell-hooks-allowlist.*"),
        format!("rm -f {hermes}/shell-hooks-allowlist.jso[n]"),
        format!("mv {hermes}/config.{{yaml,bak}} /tmp/"),
        format!("echo x > {hermes}/conf*.yaml"),
        format!("rm -rf {parent}/{first}*"),
        format!("rm -rf {parent}/**/config.yaml"),
        "rm -f $HERMES_HOME/config.yaml".to_owned(),
        "rm -f \"${HERMES_HOME}\"/shell-hooks-allowlist.json".to_owned(),
        format!("d={hermes}; rm -f \"$d/config.yaml\""),
    ] {
        let answer = bash(&env, &command);
        assert!(denied(&answer), "{command}: {answer}");
    }
    assert!(env.hermes_home().join("config.yaml").is_file());
    for command in [
        "rm -f *.o build/*",
        "rm -rf target/{debug,release}",
        "rm -rf \"$BUILD_DIR\"",
        "rm -f \"$f\"",
        "rm -rf \"$SCRATCH_DIR/test-dir\"",
        "rm -rf ${SCRATCH_DIR}/.hermes",
        "echo data > ${SCRATCH_DIR:-/tmp}/passwd",
        "dd if=/dev/zero of=$SCRATCH_DIR/cache.bin",
    ] {
        let answer = bash(&env, command);
        assert!(!denied(&answer), "{command}: {answer}");
    }
}

/// What a command quotes is not expanded by the shell: braces, brackets, parentheses and `$`
/// in quotes name themselves, so a request body that reads like a brace list or a glob does
/// not stand for the guard's files; the same characters unquoted still do.
#[test]
fn quoted_text_that_reads_like_a_pattern_names_only_itself() {
    let env = guarded();
    let rules = env.work().join(".agents/rules.yaml");
    assert!(rules.is_file());
    for command in [
        r#"curl -X PATCH https://api.example.com/graphql -d 'mutation { setConfig(input: {key: "cache", value: "redis://prod"}) { ok } }'"#,
        r#"curl -s https://api.example.com/q -d "{\"query\": \"{ items(first: 5) { id } }\"}""#,
        "touch '{x,y}/[a' 'notes (draft)/$v' \\*",
        "printf '%s' 'a/*/b' '[rules]/*' | wc -c",
        "touch .agents/rules.yaml'{'",
    ] {
        let answer = bash(&env, command);
        assert!(!denied(&answer), "{command}: {answer}");
    }
    for command in [
        "rm -f .agents/rules.y?ml",
        "rm -f .agents/{rules,x}.yaml",
        "rm -f .agents/'rules'.*",
        "rm -f '.agents/rules.yaml'",
    ] {
        let answer = bash(&env, command);
        assert!(denied(&answer), "{command}: {answer}");
    }
    assert!(rules.is_file());
}

/// A link or a move put in place of a link to the guard's home takes the home away with all
/// it holds.
#[test]
fn a_link_to_the_guard_home_cannot_be_pointed_elsewhere() {
    let env = TestEnv::new();
    let real = env.work().join("real-home");
    std::fs::create_dir_all(&real).unwrap();
    let link = env.work().join("linked-home");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let script = env
        .script("allow.sh", "cat >/dev/null; printf '{}'")
        .display()
        .to_string();
    let home = link.display().to_string();
    std::fs::write(
        real.join("config.yaml"),
        format!("hooks:\n  pre_tool_call:\n    - command: {script}\n"),
    )
    .unwrap();
    let approve = env
        .cmd()
        .env("HERMES_HOME", &link)
        .args(["approve", "--all", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&approve), 0, "{}", stderr(&approve));
    for command in [
        format!("ln -sfn /tmp {home}"),
        format!("ln -sfT /tmp {home}"),
        format!("mv -T /tmp/elsewhere {home}"),
        format!("mv /tmp/elsewhere-link {home}"),
    ] {
        let payload = json!({
            "session_id": "s1",
            "cwd": env.work(),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        });
        let out = env
            .cmd()
            .env("HERMES_HOME", &link)
            .args(["run", "--agent", "claude-code", "PreToolUse"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert!(denied(&answer), "{command}: {answer}");
    }
}

/// A copy, link or move into a guard's folder writes each source by its own name there, and an
/// archive unpacked into it or a folder's contents copied into it may write any file in it.
#[test]
fn a_file_copied_or_unpacked_into_a_guard_folder_is_kept_out() {
    let env = passing_hook_only();
    let hermes = env.hermes_home().display().to_string();
    let elsewhere = env.work().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let elsewhere = elsewhere.display().to_string();
    for command in [
        format!("cp /tmp/config.yaml {hermes}/"),
        format!("cp /tmp/config.yaml {hermes}"),
        format!("mv x/config.yaml {hermes}"),
        format!("install -m 644 config.yaml {hermes}/"),
        format!("ln -sf /tmp/config.yaml {hermes}"),
        format!("cp -t {hermes} /tmp/shell-hooks-allowlist.json"),
        format!("rsync -a /tmp/mine/ {hermes}"),
        format!("cp -r /tmp/mine/. {hermes}/"),
        format!("tar -xf /tmp/mine.tar -C {hermes}"),
        format!("unzip -o /tmp/mine.zip -d {hermes}"),
    ] {
        let answer = bash(&env, &command);
        assert!(denied(&answer), "{command}: {answer}");
    }
    for command in [
        format!("cp notes.txt {hermes}/"),
        format!("cp config.yaml {elsewhere}/"),
        format!("rsync -a build/ {elsewhere}"),
        format!("tar -xf site.tar -C {elsewhere}"),
    ] {
        let answer = bash(&env, &command);
        assert!(!denied(&answer), "{command}: {answer}");
    }
}

/// A program this reader does not know, given a guard's file, may write it: it is kept. Known
/// readers go on, and `find` that deletes reaches a guard's file only by a name it keeps to.
#[test]
fn a_guard_file_given_to_a_program_that_is_not_a_reader_is_kept() {
    let env = passing_hook_only();
    let h = env.hermes_home().display().to_string();
    for command in [
        format!("find {h} -name config.yaml -delete"),
        format!("find {h} -type f -exec rm {{}} +"),
        format!("vim -c wq {h}/config.yaml"),
        format!("ex -sc '%d|x' {h}/config.yaml"),
        format!("awk -i inplace 1 {h}/config.yaml"),
        format!("rename s/config/x/ {h}/config.yaml"),
        format!("patch {h}/config.yaml < /tmp/p"),
        format!("curl -o {h}/config.yaml http://localhost/x"),
        format!("wget -O {h}/config.yaml http://localhost/x"),
        format!("yq -i '.hooks={{}}' {h}/config.yaml"),
        format!("sort -o {h}/config.yaml x"),
        format!("gzip {h}/config.yaml"),
        format!("zip -m /tmp/x.zip {h}/config.yaml"),
        format!("tar --remove-files -cf /tmp/x.tar {h}/config.yaml"),
        format!("git clean -fdx {h}"),
        format!("python3 x.py {h}/config.yaml"),
        format!("mount --bind /tmp {h}"),
        format!("echo {h}/config.yaml | xargs rm"),
        "hermes config set hooks_auto_accept true".to_owned(),
        "hermes config unset hooks".to_owned(),
        format!("for f in {h}/*; do rm \"$f\"; done"),
        format!("printf '%s\\n' {h}/shell-hooks-allowlist.json | xargs rm -f"),
        format!("ln {h}/config.yaml /tmp/c"),
        format!("cp -l {h}/shell-hooks-allowlist.json /tmp/a"),
    ] {
        let answer = bash(&env, &command);
        assert!(denied(&answer), "{command}: {answer}");
    }
    for command in [
        format!("cat {h}/config.yaml"),
        format!("grep -n hooks {h}/config.yaml"),
        format!("yq '.hooks' {h}/config.yaml"),
        format!("jq . {h}/shell-hooks-allowlist.json"),
        format!("diff {h}/config.yaml /tmp/other.yaml"),
        format!("sort {h}/config.yaml"),
        format!("gzip -c {h}/config.yaml"),
        format!("tar -czf /tmp/backup.tgz {h}"),
        format!("cp {h}/config.yaml /tmp/backup.yaml"),
        format!("find {h} -name '*.pyc' -delete"),
        format!("find {h} -type f -exec grep -l hooks {{}} +"),
        format!("ls -la {h}"),
        format!("ln -s {h}/config.yaml /tmp/c"),
        "echo a.o b.o | xargs rm".to_owned(),
        "hermes config set model.default gpt-5".to_owned(),
        "hermes config show".to_owned(),
        "for f in *.o; do rm \"$f\"; done".to_owned(),
        format!("python3 {h}/check.py"),
        "sh -c 'cat > f <<EOF\ntext with **stars** in it\nEOF'".to_owned(),
    ] {
        let answer = bash(&env, &command);
        assert!(!denied(&answer), "{command}: {answer}");
    }
}

#[test]
fn a_guard_file_named_inside_code_or_handed_on_by_find_or_ls_is_kept() {
    let env = passing_hook_only();
    let h = env.hermes_home().display().to_string();
    for command in [
        // find's own writing primaries, and dd's `of=` where it runs.
        format!("find . -fprint {h}/config.yaml"),
        format!("find . -fls {h}/shell-hooks-allowlist.json"),
        format!("cd {h} && dd if=/dev/null of=config.yaml"),
        // What find or ls names, handed on to a program through xargs.
        format!("find {h} | xargs rm"),
        format!("find {h} -name config.yaml | xargs rm -f"),
        format!("find {h} -print0 | xargs -0 rm"),
        format!("ls {h}/* | xargs rm"),
        format!("ls -d {h} | xargs rm -rf"),
        // A path in the code an interpreter or a scripted program is given.
        format!("python3 -c \"open('{h}/config.yaml', 'w')\""),
        format!("python3 -c \"import shutil; shutil.rmtree('{h}')\""),
        format!("perl -e 'unlink \"{h}/config.yaml\"'"),
        format!("node -e \"require('fs').unlinkSync('{h}/config.yaml')\""),
        format!("awk 'BEGIN {{ print \"\" > \"{h}/config.yaml\" }}'"),
        format!("sqlite3 x.db \".output {h}/config.yaml\""),
        format!("cd {h}/.. && rm -rf $(basename {h})"),
        // Code fed to an interpreter, and a target a command makes.
        format!("python3 - <<'EOF'\nimport os\nos.remove('{h}/config.yaml')\nEOF"),
        format!("node <<< \"require('fs').rmSync('{h}', {{recursive: true}})\""),
        format!("cat /dev/null > $(echo {h}/config.yaml)"),
        format!("cp -rT /tmp/empty {h}"),
        // A link the line makes, written through.
        format!("ln -s {h} /tmp/x-link && cp /dev/null /tmp/x-link/config.yaml"),
        format!("ln -sfn {h}/config.yaml ./c; echo > ./c"),
        format!("ln -s {h}/config.yaml c && truncate -s0 c"),
        // Commands given to run later.
        format!("echo 'rm -f {h}/config.yaml' | at now + 1 minute"),
        format!("echo '* * * * * rm -rf {h}' | crontab -"),
    ] {
        let answer = bash(&env, &command);
        assert!(denied(&answer), "{command}: {answer}");
    }
    for command in [
        format!("bash -c 'cat {h}/config.yaml'"),
        format!("sh -c \"grep hooks {h}/config.yaml\""),
        format!("awk '{{print $1}}' {h}/config.yaml"),
        format!("find {h} -name '*.pyc' | xargs rm -f"),
        format!("find {h} -type f | xargs grep -l hooks"),
        "find . -name '*.o' -print0 | xargs -0 rm".to_owned(),
        "find /tmp/build -type f | xargs rm".to_owned(),
        "ls *.log | xargs rm".to_owned(),
        "python3 -c \"import os; print(os.listdir('/tmp'))\"".to_owned(),
        "python3 -c \"import os; print(os.listdir(os.path.expanduser('~')))\"".to_owned(),
        "node -e \"console.log(require('fs').readdirSync('/home'))\"".to_owned(),
        "git commit -m 'fix (a, b) in /src/x.rs'".to_owned(),
        "dd if=/dev/zero of=disk.img bs=1M count=10".to_owned(),
        "find . -fprint files.txt".to_owned(),
        "python3 - <<'EOF'\nimport os\nos.remove('/tmp/scratch.txt')\nEOF".to_owned(),
        "echo done > $(mktemp)".to_owned(),
        "python3 - <<'PY'\n/** a comment */\n// another\nprint('/* not a path */')\nPY".to_owned(),
        "node -e \"/* x */ console.log(require('path').join('/', 'y'))\"".to_owned(),
        "cp -rT /tmp/template ./site".to_owned(),
        format!("ln -s {h}/config.yaml ./c && cat ./c"),
        "ln -s /tmp/cache ./cache && rm -rf ./cache/*".to_owned(),
    ] {
        let answer = bash(&env, &command);
        assert!(!denied(&answer), "{command}: {answer}");
    }
}

#[test]
fn git_may_discard_work_but_not_the_guard_files_it_would_change() {
    let env = guarded();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(env.work())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    std::fs::remove_dir_all(env.work().join(".git")).unwrap();
    git(&["init", "-q"]);
    std::fs::create_dir_all(env.work().join("src")).unwrap();
    std::fs::write(env.work().join("main.rs"), "fn main() {}").unwrap();
    git(&["add", "main.rs"]);
    git(&["commit", "-q", "-m", "code"]);
    let verdicts = |blocked: &[&str], going: &[&str]| {
        for command in blocked {
            assert!(denied(&bash(&env, command)), "{command} should be blocked");
        }
        for command in going {
            {
                let a = bash(&env, command);
                assert!(!denied(&a), "{command} should go: {a}");
            }
        }
    };
    // The wiring and the rules file are not committed: only what sweeps untracked files away
    // reaches them.
    verdicts(
        &[
            "git stash -u",
            "git stash push --all",
            "git stash save -u wip",
        ],
        &[
            "git stash",
            "git reset --hard",
            "git checkout .",
            "git restore .",
        ],
    );
    // Committed, then changed by the person: putting back the committed version undoes it.
    std::thread::sleep(std::time::Duration::from_millis(20));
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "guards"]);
    let settings = env.work().join(".claude/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, format!("{text}\n")).unwrap();
    verdicts(
        &[
            "git checkout -- .claude",
            "git checkout .",
            "git restore .",
            "git reset --hard",
            "git stash",
            "git checkout -f main",
            "cd src && git reset --hard",
            // Paths are relative to where `-C` takes git.
            "cd src && git -C .. checkout -- .claude",
            "cd src && git -C.. restore .claude/settings.json",
            "git -C src -C .. checkout -- .claude/settings.json",
            // Git expands a pathspec's glob itself, quoted or not, and its `*` crosses folders.
            "git checkout -- '.claude/*'",
            "git restore '*.json'",
            "git restore '.cl?ude'",
            "git rm -f '.agents/*.yaml'",
            "git rm -r --cached '*rules*'",
            // Pathspec magic, and pathspecs the line does not show.
            "git restore ':(glob)**/*.json'",
            "cd src && git restore ':/.claude'",
            "cd src && git checkout -- ':(top,icase).CLAUDE'",
            "git restore ':(literal).claude/settings.json'",
            "git restore --pathspec-from-file=list.txt",
            "git rm --pathspec-from-file=-",
        ],
        &[
            "git restore --staged .",
            "git checkout -- main.rs",
            "cd src && git -C .. checkout -- main.rs",
            "git stash list",
            "git restore '*.rs'",
            "git checkout -- 'src/*'",
            "git rm '*.log'",
            "rm '.agents/*'",
            "git restore ':(exclude)*.json'",
            "git restore ':/*.rs'",
            "git restore ':(literal)*.json'",
        ],
    );
    // Committed as they are: nothing the guard keeps would change.
    std::thread::sleep(std::time::Duration::from_millis(20));
    git(&["commit", "-q", "-am", "guards again"]);
    std::thread::sleep(std::time::Duration::from_millis(20));
    git(&["update-index", "--really-refresh"]);
    verdicts(
        &[],
        &[
            "git reset --hard",
            "git stash -u",
            "git checkout .",
            "git restore .",
        ],
    );
}

#[test]
fn a_patch_is_read_for_the_files_it_changes_and_a_move_for_what_it_takes_away() {
    let env = guarded();
    let work = env.work();
    let diff = |name: &str| {
        format!("diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-a\n+b\n")
    };
    std::fs::write(work.join("wiring.diff"), diff(".claude/settings.json")).unwrap();
    std::fs::write(work.join("rules.diff"), diff("sub/../.agents/rules.yaml")).unwrap();
    std::fs::write(work.join("code.diff"), diff("src/main.rs")).unwrap();
    let allowlist = env.hermes_home().join("shell-hooks-allowlist.json");
    let allowlist = allowlist.display();
    for command in [
        "git apply wiring.diff".to_owned(),
        "git apply -3 rules.diff".to_owned(),
        "git apply < wiring.diff".to_owned(),
        "patch -p1 < wiring.diff".to_owned(),
        "patch -p1 -i rules.diff".to_owned(),
        "git am wiring.diff".to_owned(),
        format!("git apply <<'EOF'\n{}EOF", diff(".claude/settings.json")),
        // A patch the line does not show: any file of the work tree.
        "curl -s https://example.com/p.diff | git apply".to_owned(),
        "git apply later.diff".to_owned(),
        format!("7z a -sdel /tmp/a.7z {allowlist}"),
        format!("rsync --remove-source-files {allowlist} /tmp/"),
    ] {
        assert!(denied(&bash(&env, &command)), "{command}");
    }
    for command in [
        "git apply code.diff".to_owned(),
        "patch -p1 < code.diff".to_owned(),
        "git apply --check wiring.diff".to_owned(),
        "git apply --stat wiring.diff".to_owned(),
        format!("7z a /tmp/a.7z {allowlist}"),
        format!("rsync -a {allowlist} /tmp/"),
    ] {
        assert!(!denied(&bash(&env, &command)), "{command}");
    }
}
