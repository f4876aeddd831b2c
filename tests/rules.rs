//! Rules (rules.yaml): guards without scripts, approved per file, evaluated first, shown and
//! checked wherever a hook is.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, edit_keeping_times, json, statuses, stderr};

const GUARD: &str = r"rules:
- name: no-rm-rf
  tool: shell
  when:
    command: '\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r)\b'
  unless:
    command: '\brm\s+-rf\s+\./build\b'
  message: Recursive force delete was blocked by a rule.
  fail_closed: true
";

fn user_rules(env: &TestEnv, text: &str) -> PathBuf {
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, text).unwrap();
    file
}

fn project_rules(env: &TestEnv, text: &str) -> PathBuf {
    let file = env.work().join(".agents/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, text).unwrap();
    file
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

fn shell(command: &str) -> String {
    serde_json::json!({"tool_name": "terminal", "tool_input": {"command": command}}).to_string()
}

#[test]
fn an_approved_rule_blocks_a_matching_call_and_lets_its_exception_and_other_calls_through() {
    let env = TestEnv::new();
    user_rules(&env, GUARD);
    approve_all(&env);
    for blocked in ["rm -rf /", "sudo rm -fr ~", "cd /tmp && rm -Rf x; rm -fr y"] {
        let out = env.run("pre_tool_call", &shell(blocked));
        assert_eq!(code(&out), 2, "{blocked}: {}", stderr(&out));
        let line = json(&out);
        assert_eq!(line["action"], "block", "{line}");
        assert_eq!(
            line["message"],
            "Recursive force delete was blocked by a rule."
        );
        assert_eq!(line["hooks"][0]["source"], "rules", "{line}");
        assert_eq!(statuses(&line), ["blocked"]);
    }
    for allowed in ["rm -rf ./build", "rm file.txt", "ls -la"] {
        let out = env.run("pre_tool_call", &shell(allowed));
        assert_eq!(code(&out), 0, "{allowed}: {}", stderr(&out));
        assert_eq!(statuses(&json(&out)), ["not_matched"], "{allowed}");
    }
    // Not a shell tool: the rule is for the shell class only.
    let write =
        r#"{"tool_name": "write_file", "tool_input": {"path": "x", "content": "rm -rf /"}}"#;
    assert_eq!(code(&env.run("pre_tool_call", write)), 0);
}

#[test]
fn a_rules_file_is_approved_as_one_unit_and_an_edit_stops_every_rule_until_it_is_reviewed() {
    let env = TestEnv::new();
    let file = user_rules(
        &env,
        &format!("{GUARD}- name: no-curl\n  tool: shell\n  when: {{command: curl}}\n"),
    );
    let out = env
        .cmd()
        .args(["approve", "--yes", "--json"])
        .output()
        .unwrap();
    let outcome = json(&out);
    assert_eq!(
        outcome["approved"].as_array().unwrap().len(),
        1,
        "{outcome}"
    );
    assert_eq!(outcome["approved"][0]["event"], "rules");
    let approvals = env.approvals();
    assert_eq!(approvals.len(), 1, "{approvals:?}");
    assert_eq!(
        approvals[0]["command"],
        Value::from(file.to_string_lossy().as_ref())
    );
    assert_eq!(code(&env.run("pre_tool_call", &shell("curl x"))), 2);
    // An edit anywhere in the file (here, loosening the other rule) stops every rule.
    let text = fs::read_to_string(&file).unwrap();
    fs::write(
        &file,
        text.replace("when: {command: curl}", "when: {command: wget}"),
    )
    .unwrap();
    let out = env.run("pre_tool_call", &shell("rm -rf /"));
    // The fail_closed rule blocks, saying why; the other one does not run at all.
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(
        line["message"],
        "rule no-rm-rf changed since it was approved, so this call was blocked (fail_closed)"
    );
    assert!(
        stderr(&out).contains(&format!(
            "the rules file {} changed since it was approved",
            file.display()
        )),
        "the file is named: {}",
        stderr(&out)
    );
    // What was approved decides: the edited rule's `wget` was never approved, and `curl`, which
    // the approved copy covered, is not checked (that rule was not fail_closed).
    let out = env.run("pre_tool_call", &shell("wget x"));
    assert_eq!(code(&out), 0);
    assert_eq!(statuses(&json(&out)), ["not_matched", "not_matched"]);
    let out = env.run("pre_tool_call", &shell("curl x"));
    assert_eq!(code(&out), 0);
    assert_eq!(statuses(&json(&out)), ["not_matched", "changed"]);
    // Reviewing shows every rule and what changed.
    let out = env
        .cmd()
        .args(["approve", "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["approved"][0]["was"], "changed");
    assert_eq!(code(&env.run("pre_tool_call", &shell("wget x"))), 2);
}

#[test]
fn an_unapproved_project_rules_file_decides_nothing_and_a_project_of_rules_alone_is_found() {
    let env = TestEnv::new();
    fs::create_dir_all(env.work().join(".git")).unwrap();
    project_rules(
        &env,
        "rules:\n- name: quiet\n  tool: shell\n  when: {command: curl}\n",
    );
    let out = env.run("pre_tool_call", &shell("curl x"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["unapproved"]);
    assert!(
        stderr(&out).contains("hermes-hooks approve"),
        "{}",
        stderr(&out)
    );
    approve_all(&env);
    let out = env.run("pre_tool_call", &shell("curl x"));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(json(&out)["message"], "blocked by rule quiet");
}

#[test]
fn rules_come_before_config_hooks_and_a_rule_block_spares_the_scripts() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    let script = env.script("mark.sh", &format!("touch {}", marker.display()));
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        script.display()
    ));
    env.approve("pre_tool_call", &script.to_string_lossy());
    user_rules(&env, GUARD);
    approve_all(&env);
    let out = env.run("pre_tool_call", &shell("rm -rf /"));
    assert_eq!(code(&out), 2);
    assert_eq!(statuses(&json(&out)), ["blocked", "not_run"]);
    assert!(!marker.exists(), "the script after the rule never started");
}

#[test]
fn a_rule_can_ask_a_person_and_add_context_where_its_event_allows() {
    let env = TestEnv::new();
    user_rules(
        &env,
        "rules:\n- name: ask-push\n  tool: shell\n  when: {command: 'git push'}\n  action: ask\n  \
         message: Pushing needs a person.\n- name: house\n  event: pre_llm_call\n  action: \
         context\n  message: Answer briefly.\n- name: wrong\n  event: post_tool_call\n  action: \
         ask\n",
    );
    let listed = env.cmd().arg("list").output().unwrap();
    assert!(
        stderr(&listed).contains(
            "rules.yaml:11: rule 'wrong' is skipped: action ask is not possible on post_tool_call"
        ),
        "{}",
        stderr(&listed)
    );
    approve_all(&env);
    let out = env.run("pre_tool_call", &shell("git push origin main"));
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(line["action"], "approve", "{line}");
    assert_eq!(line["message"], "Pushing needs a person.");
    let out = env.run("pre_llm_call", "{}");
    assert_eq!(json(&out)["context"], "Answer briefly.");
}

#[test]
fn every_mistake_in_a_rules_file_names_the_file_and_line_and_silences_only_that_rule() {
    let env = TestEnv::new();
    user_rules(
        &env,
        "rules:\n- name: good\n  tool: shell\n  when: {command: curl}\n- name: Bad\n- name: \
         typo\n  unles: {command: x}\n- name: broken\n  when: {command: '(unclosed'}\n- name: \
         good\n",
    );
    let out = env.cmd().arg("list").output().unwrap();
    let said = stderr(&out);
    for expected in [
        "rules.yaml:5: rule 'Bad' is skipped: name 'Bad' must be lowercase",
        "rules.yaml:6: rule 'typo' is skipped: unknown key 'unles'",
        "rules.yaml:8: rule 'broken' is skipped: when.command: missing ), unterminated",
        "rules.yaml:10: rule 'good' is skipped: the name 'good' is used by an earlier rule",
    ] {
        assert!(said.contains(expected), "{expected}\n{said}");
    }
    approve_all(&env);
    assert_eq!(code(&env.run("pre_tool_call", &shell("curl x"))), 2);
    // With --fail-closed, a rule that could not be read may have been a guard: the call stops.
    let out = env
        .cmd()
        .args(["run", "--fail-closed", "pre_tool_call"])
        .write_stdin(shell("ls"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    // A file that is not a rules file at all is one error naming it; other sources still run.
    user_rules(&env, "rule:\n- name: x\n");
    let out = env.run("pre_tool_call", &shell("curl x"));
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("not a rules file: unknown field `rule`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn list_test_events_and_the_audit_log_show_rules_as_rules() {
    let env = TestEnv::new();
    user_rules(&env, GUARD);
    approve_all(&env);
    let listed = json(&env.cmd().args(["list", "--json"]).output().unwrap());
    let rule = &listed["hooks"][0];
    assert_eq!(rule["source"], "rules", "{rule}");
    assert_eq!(rule["matcher"], "shell");
    assert_eq!(rule["rule"]["action"], "block");
    assert_eq!(rule["rule"]["unless"][0]["field"], "command");
    assert_eq!(rule["run_would"], "apply it");
    let payload = env.path("payload.json");
    fs::write(&payload, shell("rm -rf /")).unwrap();
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--expect",
            "block",
            "--payload-file",
        ])
        .arg(&payload)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--expect",
            "allow",
            "--payload-file",
        ])
        .arg(&payload)
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "--expect allow fails on a rule's block");
    let events = json(
        &env.cmd()
            .args(["events", "pre_tool_call", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(events["can"]["rules"], serde_json::json!(["block", "ask"]));
    assert!(
        events["rule_example"]
            .as_str()
            .unwrap()
            .contains("tool: shell")
    );
    let log = env.path("audit.jsonl");
    let out = env
        .cmd()
        .env("HERMES_HOOKS_AUDIT_LOG", &log)
        .args(["run", "pre_tool_call"])
        .write_stdin(shell("rm -rf /"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let entry: Value = serde_json::from_str(fs::read_to_string(&log).unwrap().trim()).unwrap();
    assert_eq!(entry["hooks"][0]["source"], "rules", "{entry}");
    assert_eq!(entry["hooks"][0]["status"], "blocked");
}

#[test]
fn doctor_names_rules_that_never_match_fields_no_agent_sends_and_shadowed_and_slow_rules() {
    let env = TestEnv::new();
    user_rules(
        &env,
        "rules:\n- name: never\n  tool: shell\n  when: {command: '[^\\s\\S]'}\n- name: \
         wrong-tool\n  tool: edit\n  when: {command: 'rm'}\n- name: typo\n  when: \
         {comand: 'rm'}\n- name: broad\n  tool: shell\n  when: {command: 'git'}\n- name: \
         narrow\n  tool: shell\n  when: {command: 'git', description: 'x'}\n- name: slow\n  \
         tool: shell\n  when: {command: '(a|a)+\\1b'}\n",
    );
    approve_all(&env);
    let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(code(&out), 1, "errors make doctor fail");
    let findings = json(&out)["findings"].clone();
    let said = |hook: &str, level: &str, words: &str| {
        findings.as_array().unwrap().iter().any(|f| {
            f["hook"] == hook
                && f["level"] == level
                && f["message"].as_str().unwrap().contains(words)
        })
    };
    assert!(said("never", "error", "can never match"), "{findings}");
    assert!(
        said("wrong-tool", "error", "no shell command"),
        "{findings}"
    );
    assert!(
        said("typo", "warning", "no agent is known to send"),
        "{findings}"
    );
    assert!(said("narrow", "warning", "rule broad"), "{findings}");
    assert!(said("slow", "warning", "backtracks too much"), "{findings}");
    assert!(!said("broad", "warning", "blocks every call"), "{findings}");
    let consent: Vec<&Value> = findings
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "consent")
        .collect();
    assert_eq!(
        consent.len(),
        1,
        "one consent finding for the file: {consent:?}"
    );
}

#[test]
fn new_rules_writes_a_pack_for_review_appends_to_a_file_and_never_writes_into_one_it_cannot_read() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["new", "--rules", "destructive", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let made = json(&out);
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    assert_eq!(made["file"], Value::from(file.to_string_lossy().as_ref()));
    assert_eq!(made["created"], true);
    // Nothing is approved by writing it.
    let listed = json(&env.cmd().args(["list", "--json"]).output().unwrap());
    assert!(
        listed["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["consent"] == "unapproved")
    );
    let out = env
        .cmd()
        .args(["new", "--rules", "force-push"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("destructive-rm-outside-project") && text.contains("force-push-"));
    // Twice writes nothing, says so, and the file stays as it is.
    let out = env
        .cmd()
        .args(["new", "--rules", "force-push", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again = json(&out);
    assert_eq!(again["packs"], json!([]));
    assert_eq!(again["already"], json!(["force-push"]));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    // A file with only some rules of a pack (one renamed) is left as it is.
    let renamed = text.replacen(
        "- name: force-push-update-ref-delete",
        "- name: mine-update-ref-delete",
        1,
    );
    fs::write(&file, &renamed).unwrap();
    let out = env
        .cmd()
        .args(["new", "--rules", "git-discard,force-push"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("but not the whole force-push pack"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), renamed);
    fs::write(&file, &text).unwrap();
    // A file that does not read as rules is never written into.
    let broken = project_rules(&env, "rules:\n  - name: [unclosed\n");
    let before = fs::read(&broken).unwrap();
    let out = env
        .cmd()
        .args(["new", "--rules", "secrets", "--project"])
        .arg(env.work())
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("is left as it is"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&broken).unwrap(), before);
    fs::remove_file(&broken).unwrap();
    let out = env
        .cmd()
        .args(["new", "--rules", "secrets", "--project"])
        .arg(env.work())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bits = fs::metadata(&broken).unwrap().permissions().mode() & 0o777;
    assert_eq!(bits, 0o644, "a project file others clone and review");
}

#[test]
fn new_rules_writes_every_pack_several_or_lists_them_and_a_bad_name_is_an_error_not_a_block() {
    let env = TestEnv::new();
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    // No pack named: the packs, one line each, and nothing written.
    let out = env.cmd().args(["new", "--rules"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    for pack in ["destructive", "git-discard", "databases", "secret-stores"] {
        assert!(
            shown.lines().any(|line| line.starts_with(pack)),
            "{pack}: {shown}"
        );
    }
    let listed = json(
        &env.cmd()
            .args(["new", "--rules", "--json"])
            .output()
            .unwrap(),
    );
    let packs = listed["packs"].as_array().unwrap();
    assert_eq!(packs.len(), 14);
    assert!(
        packs
            .iter()
            .all(|pack| !pack["about"].as_str().unwrap().is_empty()
                && !pack["rules"].as_array().unwrap().is_empty())
    );
    assert!(!file.exists());
    // A name that is no pack: exit 1, the names said, nothing written.
    for bad in ["bogus", "git-discard,bogus", ","] {
        let out = env.cmd().args(["new", "--rules", bad]).output().unwrap();
        assert_eq!(code(&out), 1, "{bad}");
        assert!(stderr(&out).contains("secret-stores"), "{}", stderr(&out));
        assert!(!file.exists(), "{bad}");
    }
    // Two, in the order named, in one file.
    let two = json(
        &env.cmd()
            .args(["new", "--rules", "databases, git-discard", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(two["packs"], json!(["databases", "git-discard"]));
    assert_eq!(two["created"], true);
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.find("databases-").unwrap() < text.find("git-discard-").unwrap());
    // Then every one: the two are there already, the other twelve are appended.
    let all = json(
        &env.cmd()
            .args(["new", "--rules", "all", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(all["already"], json!(["git-discard", "databases"]));
    assert_eq!(all["packs"].as_array().unwrap().len(), 12);
    assert_eq!(all["created"], false);
    // Every pack's rule reads from the file, and once approved, doctor finds nothing to fix in
    // them: where two packs overlap, that is a note.
    let listed = json(&env.cmd().args(["list", "--json"]).output().unwrap());
    let names: Vec<&str> = listed["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|hook| hook["source"] == "rules")
        .map(|hook| hook["name"].as_str().unwrap())
        .collect();
    let wanted = packs
        .iter()
        .flat_map(|pack| pack["rules"].as_array().unwrap())
        .count();
    assert_eq!(names.len(), wanted);
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let project = env.work().join("app");
    fs::create_dir_all(project.join(".git")).unwrap();
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["doctor", "--strict", "--no-exec", "--json"])
        .output()
        .unwrap();
    let report = json(&out);
    let findings: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["level"] == "warning" || finding["level"] == "error")
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let notes: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["level"] == "note")
        .filter_map(|finding| finding["message"].as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|note| note.contains("git-discard-update-ref-delete of the git-discard pack")),
        "{notes:?}"
    );
}

#[test]
fn doctor_warns_of_a_rule_of_a_persons_own_that_a_pack_shadows_or_one_that_repeats_another() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["new", "--rules", "git-discard"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    let mut text = fs::read_to_string(&file).unwrap();
    text.push_str(
        "\n- name: mine-reset\n  tool: shell\n  when:\n    program: '^git$'\n    subcommand: \
         '^reset$'\n    flags: '^--(ha|har|hard|me|mer|merg|merge)$'\n  action: block\n  \
         message: Not here.\n\
         - name: ask-make\n  tool: shell\n  when: {command: 'make'}\n  action: ask\n  \
         message: Use just.\n- name: ask-make-again\n  tool: shell\n  when: {command: \
         'make'}\n  action: ask\n  message: Use just.\n",
    );
    fs::write(&file, text).unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = json(
        &env.cmd()
            .args(["doctor", "--no-exec", "--json"])
            .output()
            .unwrap(),
    );
    let said = |hook: &str| -> Vec<(String, String)> {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|finding| finding["hook"] == hook && finding["check"] == "rule")
            .map(|finding| {
                (
                    finding["level"].as_str().unwrap().to_owned(),
                    finding["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let reset = said("mine-reset");
    assert!(
        reset.iter().any(|(level, message)| level == "warning"
            && message.contains("rule git-discard-reset-hard")
            && message.contains("never decides")),
        "{reset:?}"
    );
    let again = said("ask-make-again");
    assert!(
        again.iter().any(|(level, message)| level == "warning"
            && message.contains("rule ask-make")
            && message.contains("does what this rule does")),
        "{again:?}"
    );
    assert!(said("ask-make").is_empty(), "{:?}", said("ask-make"));
}

#[test]
fn a_hostile_rules_file_is_refused_with_its_name_and_never_hangs_or_crashes() {
    let env = TestEnv::new();
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let deep = format!(
        "rules:\n- name: deep\n  when: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let wide = format!("rules:\n{}", "- name: r\n".repeat(2000));
    let big = format!("rules: []\n#{}\n", "x".repeat(2 * 1024 * 1024));
    for text in [deep, wide, big] {
        fs::write(&file, &text).unwrap();
        let out = env.run("pre_tool_call", &shell("ls"));
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(stderr(&out).contains("rules.yaml"), "{}", stderr(&out));
    }
    // A FIFO where the file should be: refused at once, nothing read from it.
    fs::remove_file(&file).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &file,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let out = env.run("pre_tool_call", &shell("ls"));
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("not a regular file") || stderr(&out).contains("FIFO"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_shipped_packs_together_are_clean_for_doctor_and_block_the_calls_they_name() {
    let env = TestEnv::new();
    fs::create_dir_all(env.work().join(".git")).unwrap();
    for pack in ["destructive", "force-push", "secrets", "outside-project"] {
        let out = env.cmd().args(["new", "--rules", pack]).output().unwrap();
        assert_eq!(code(&out), 0, "{pack}: {}", stderr(&out));
    }
    approve_all(&env);
    let out = env
        .cmd()
        .args(["doctor", "--strict", "--json"])
        .output()
        .unwrap();
    let summary = json(&out);
    assert_eq!(code(&out), 0, "{summary}");
    let noisy: Vec<&Value> = summary["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["source"] == "rules" && f["level"] != "ok")
        .collect();
    assert!(noisy.is_empty(), "{noisy:?}");
    for (call, pack) in [
        (shell("rm -rf ~"), "destructive-"),
        (shell("git push --force origin main"), "force-push-"),
        (shell("cat .env"), "secrets-"),
        (
            serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/hosts", "content": "x"}})
                .to_string(),
            "outside-project-",
        ),
    ] {
        let out = env.run("pre_tool_call", &call);
        assert_eq!(code(&out), 2, "{call}: {}", stderr(&out));
        let line = json(&out);
        let by = line["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["status"] == "blocked")
            .unwrap();
        assert!(by["name"].as_str().unwrap().starts_with(pack), "{line}");
    }
    assert_eq!(
        code(&env.run("pre_tool_call", &shell("cargo test && git push"))),
        0
    );
}

#[test]
fn a_dotted_field_reaches_into_the_tool_input_and_the_payload() {
    let env = TestEnv::new();
    user_rules(
        &env,
        "rules:\n- name: by-input\n  when: {tool_input.options.mode: '^force$'}\n- name: \
         by-session\n  when: {session_id: '^ci-'}\n",
    );
    approve_all(&env);
    let nested = r#"{"tool_name": "deploy", "tool_input": {"options": {"mode": "force"}}, "session_id": "s"}"#;
    let out = env.run("pre_tool_call", nested);
    assert_eq!(json(&out)["message"], "blocked by rule by-input");
    let ci = r#"{"tool_name": "deploy", "tool_input": {}, "session_id": "ci-42"}"#;
    assert_eq!(
        json(&env.run("pre_tool_call", ci))["message"],
        "blocked by rule by-session"
    );
    let other = r#"{"tool_name": "deploy", "tool_input": {"options": {"mode": "forced"}}}"#;
    assert_eq!(code(&env.run("pre_tool_call", other)), 0);
}

/// The memos of one home's rules files, with their bytes.
fn memos(env: &TestEnv) -> Vec<(PathBuf, Vec<u8>)> {
    let parsed = env.home().join(".cache/hermes-hooks/parsed");
    let mut memos: Vec<_> = fs::read_dir(&parsed)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "body"))
        .map(|path| {
            let bytes = fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    memos.sort();
    memos
}

fn holds(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

#[test]
fn a_rules_memo_whose_patterns_went_missing_still_guards() {
    let env = TestEnv::new();
    user_rules(&env, GUARD);
    approve_all(&env);
    assert_eq!(code(&env.run("pre_tool_call", &shell("ls"))), 0);
    // The patterns' memo holds the patterns and no rule's name; the rules' memo the names.
    let mut removed = 0;
    for (path, bytes) in memos(&env) {
        if holds(&bytes, r"\brm\s+(-") && !holds(&bytes, "no-rm-rf") {
            fs::remove_file(&path).unwrap();
            removed += 1;
        }
    }
    assert_eq!(removed, 1, "the patterns are kept apart from the rules");
    let out = env.run("pre_tool_call", &shell("rm -rf /"));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["blocked"]);
}

#[test]
fn a_rules_file_known_by_its_stamp_is_read_again_after_an_edit_that_keeps_its_size_and_times() {
    let env = TestEnv::new();
    let file = user_rules(
        &env,
        "rules:\n- name: no-curl\n  tool: shell\n  when: {command: curl}\n",
    );
    approve_all(&env);
    // Written again (the same bytes, so still approved) just before the first run, so that the
    // run sees a file changed a moment ago.
    let text = fs::read_to_string(&file).unwrap();
    fs::write(&file, &text).unwrap();
    let written = std::time::Instant::now();
    assert_eq!(code(&env.run("pre_tool_call", &shell("curl x"))), 2);
    let late = written.elapsed() > std::time::Duration::from_millis(90);
    let before = memos(&env).len();
    // A file is known by its stamp only once a second change could no longer leave it as it is.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(code(&env.run("pre_tool_call", &shell("curl x"))), 2);
    // On a loaded machine the first run may itself have come too late to be racy, and kept it.
    let kept = memos(&env).len();
    assert!(
        kept == before + 1 || (late && kept == before),
        "the stamp's memo is kept: {before} then {kept}"
    );
    assert_eq!(code(&env.run("pre_tool_call", &shell("curl x"))), 2);
    // Same size, same modification time: only the change time (which no program can set back)
    // tells the edit, and the edited rules are not the approved ones: the approved copy stands
    // in, reported changed where it applies.
    let text = fs::read_to_string(&file).unwrap();
    edit_keeping_times(&file, &text.replace("curl", "wget"));
    for (call, status) in [("curl x", "changed"), ("wget x", "not_matched")] {
        let out = env.run("pre_tool_call", &shell(call));
        assert_eq!(code(&out), 0, "{call}: {}", stderr(&out));
        assert_eq!(statuses(&json(&out)), [status], "{call}");
    }
}

// The shipped packs read the commands a line would run, as the shell reads it (SPEC section 11,
// "Commands as the shell reads them"). Each call below was read wrongly by the packs when they
// matched the command as one line of text.

/// A home folder and a project folder (with `.git`) outside /tmp (the packs exempt the
/// temporary folders), with all four shipped packs written to the user's rules file by
/// `new --rules` and approved.
struct Packed {
    env: TestEnv,
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

/// What an agent was told about one call: `deny`, `ask`, `allow` (nothing said, or no decision),
/// or `odd` (anything else), with the reason it was given.
#[derive(Debug)]
struct Decided {
    decision: String,
    reason: String,
}

const ALL_PACKS: [&str; 4] = ["destructive", "force-push", "secrets", "outside-project"];

/// What a pack says when it cannot tell what a command would run.
const CANNOT_TELL: &str = "cannot tell what this command would run";

/// Whether the packs would read `path` as anything but a person's folder: scratch space (a
/// temporary folder, where deletes go) or the system's (where writes are stopped; `/root` among
/// them).
fn special(path: &Path) -> bool {
    let mut scratch = vec![PathBuf::from("/tmp"), PathBuf::from("/var/tmp")];
    scratch.push(std::env::temp_dir());
    let system = [
        "/etc", "/boot", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/root", "/srv",
        "/var", "/System", "/Library",
    ];
    scratch
        .iter()
        .map(|t| t.canonicalize().unwrap_or_else(|_| t.clone()))
        .chain(system.iter().map(PathBuf::from))
        .any(|t| path.starts_with(t))
}

/// A folder for the packed homes and projects that the packs read as a person's, wherever the
/// checkout is: beside the build's own scratch folder; when the checkout lies in a temporary
/// folder, `hermes-hooks-tests` in the home folder (not under a dot folder, which the packs read
/// as the person's setup); when that is `/root`, `/home/hermes-hooks-tests`. Left there empty.
fn outside_temporary_folders() -> PathBuf {
    let candidates = [
        Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR"))),
        std::env::home_dir().map(|home| home.join("hermes-hooks-tests")),
        Some(PathBuf::from("/home/hermes-hooks-tests")),
    ];
    for base in candidates.into_iter().flatten() {
        if special(&base) || fs::create_dir_all(&base).is_err() {
            continue;
        }
        if let Ok(real) = base.canonicalize()
            && !special(&real)
        {
            return real;
        }
    }
    panic!(
        "no folder the packs read as a person's: the checkout, the home folder and /home all lie \
         in a temporary or system folder"
    );
}

impl Packed {
    fn new() -> Self {
        let env = TestEnv::new();
        let base = outside_temporary_folders();
        let root = tempfile::Builder::new()
            .prefix("hermes-hooks-packs")
            .tempdir_in(&base)
            .unwrap();
        let top = root.path().canonicalize().unwrap();
        let home = top.join("home");
        let project = top.join("project");
        fs::create_dir_all(home.join(".hermes")).unwrap();
        fs::create_dir_all(project.join(".git")).unwrap();
        let packed = Self {
            env,
            _root: root,
            home,
            project,
        };
        for pack in ALL_PACKS {
            let out = packed
                .cmd()
                .args(["new", "--rules", pack])
                .output()
                .unwrap();
            assert_eq!(code(&out), 0, "{pack}: {}", stderr(&out));
        }
        let rules = packed.home.join(".hermes/hermes-hooks/rules.yaml");
        assert!(rules.is_file(), "the packs go to the user's rules file");
        let out = packed.cmd().args(["approve", "--yes"]).output().unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        packed
    }

    /// The binary with this HOME, run in the project folder.
    fn cmd(&self) -> assert_cmd::Command {
        let mut cmd = self.env.std_cmd();
        cmd.env("HOME", &self.home).current_dir(&self.project);
        assert_cmd::Command::from_std(cmd)
    }

    /// `run --agent <agent> PreToolUse` with `payload`.
    fn decide(&self, agent: &str, payload: &Value) -> Decided {
        let out = self
            .cmd()
            .args(["run", "--agent", agent, "PreToolUse"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        decided(&out)
    }

    /// Claude Code's Bash tool running `command`.
    fn claude(&self, command: &str) -> Decided {
        self.decide(
            "claude-code",
            &serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": command}, "cwd": self.project, "session_id": "s"}),
        )
    }

    /// Codex's shell tool given `command` (text or an argv list), as Codex sends it.
    fn codex(&self, command: &Value) -> Decided {
        self.decide(
            "codex",
            &serde_json::json!({"session_id": "019a-session", "turn_id": "019a-turn",
                "transcript_path": null, "cwd": self.project, "hook_event_name": "PreToolUse",
                "model": "gpt-5.5", "permission_mode": "bypassPermissions",
                "tool_name": "Bash", "tool_input": {"command": command},
                "tool_use_id": "call_1"}),
        )
    }
}

/// Reads the answer Claude Code and Codex act on: exit 0, and either nothing on stdout (the
/// call goes on) or one JSON document whose `hookSpecificOutput.permissionDecision` decides.
fn decided(out: &std::process::Output) -> Decided {
    let text = String::from_utf8_lossy(&out.stdout);
    if code(out) != 0 {
        return Decided {
            decision: "odd".into(),
            reason: format!("exit {}: {text} {}", code(out), stderr(out)),
        };
    }
    if text.trim().is_empty() {
        return Decided {
            decision: "allow".into(),
            reason: String::new(),
        };
    }
    let Ok(answer) = serde_json::from_str::<Value>(text.trim()) else {
        return Decided {
            decision: "odd".into(),
            reason: format!("not one JSON document: {text}"),
        };
    };
    let specific = &answer["hookSpecificOutput"];
    let decision = specific["permissionDecision"]
        .as_str()
        .unwrap_or("allow")
        .to_owned();
    let reason = specific["permissionDecisionReason"]
        .as_str()
        .map_or_else(|| answer.to_string(), str::to_owned);
    Decided { decision, reason }
}

/// Sends each command through Claude Code and collects those not denied. A command marked
/// `true` may instead be handed to a person (`ask`), but only by a pack that says it cannot
/// tell what the command would run.
fn not_denied(packed: &Packed, cases: &[(&str, bool)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for &(command, may_ask) in cases {
        let got = packed.claude(command);
        let fine = got.decision == "deny"
            || (may_ask && got.decision == "ask" && got.reason.contains(CANNOT_TELL));
        if !fine {
            wrong.push(format!("{command:?} -> {got:?}"));
        }
    }
    wrong
}

#[test]
fn shells_given_a_script_and_wrappers_do_not_walk_past_the_packs() {
    let packed = Packed::new();
    let wrong = not_denied(
        &packed,
        &[
            ("bash -lc 'rm -rf ~'", false),
            ("bash -ec 'rm -rf ~'", false),
            ("zsh -lc 'git push --force origin main'", false),
            ("bash -c -- 'rm -rf ~'", false),
            ("bash <<< \"rm -rf ~\"", true),
            ("timeout -s KILL 10 rm -rf ~", false),
            ("eval rm -rf ~", true),
            ("/usr/bin/env rm -rf ~", false),
            ("setsid rm -rf ~", false),
            ("case x in x) rm -rf ~;; esac", false),
        ],
    );
    assert!(
        wrong.is_empty(),
        "not denied through a shell or a wrapper:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn git_options_and_redirections_before_the_subcommand_do_not_hide_a_force_push() {
    let packed = Packed::new();
    let wrong = not_denied(
        &packed,
        &[
            ("git -P push -f origin main", false),
            ("git --git-dir .git push -f origin main", false),
            ("git>/dev/null push --force origin main", false),
        ],
    );
    assert!(
        wrong.is_empty(),
        "force pushes to main not denied:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn option_clusters_object_names_and_one_line_scripts_are_read_as_their_programs_read_them() {
    let packed = Packed::new();
    let wrong = not_denied(
        &packed,
        &[
            (
                "curl -fsSLo /usr/local/bin/tool https://example.com/tool",
                false,
            ),
            ("wget -qO ~/.bashrc https://example.com/rc", false),
            ("kubectl get secret/db -o yaml", false),
            (
                "python3 -c \"import os; print(os.environ['OPENAI_API_KEY'])\"",
                false,
            ),
        ],
    );
    assert!(wrong.is_empty(), "not denied:\n{}", wrong.join("\n"));
}

#[test]
fn an_argv_list_from_codex_is_read_as_the_words_it_runs() {
    let packed = Packed::new();
    let got = packed.codex(&serde_json::json!(["sh", "-c", "rm -rf ~"]));
    assert_eq!(
        got.decision, "deny",
        "Codex's [\"sh\", \"-c\", \"rm -rf ~\"] was not denied: {got:?}"
    );
}

#[test]
fn quoted_text_and_heredoc_bodies_are_data_to_the_packs() {
    let packed = Packed::new();
    let mut wrong = Vec::new();
    for command in [
        "cat > RUNBOOK.md <<'EOF'\nrm -rf ~\nEOF\n",
        "git commit -m \"wip; rm -rf ~/.cache/x\"",
        "shred --help",
        "python3 -c \"print(open('~/.ssh/known_hosts').read())\"",
        // A folder under /tmp that holds none of this test's own files, wherever the checkout
        // is (`/tmp/*` would reach the guard's files of a checkout under /tmp).
        "rm -rf /tmp/scratch-of-no-test/*",
    ] {
        let got = packed.claude(command);
        if got.decision != "allow" {
            wrong.push(format!("{command:?} -> {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "data or a harmless call was stopped:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_command_the_packs_cannot_read_is_handed_to_a_person() {
    let packed = Packed::new();
    let mut wrong = Vec::new();
    for command in ["$RM -rf ~", "eval \"$cmd\""] {
        let got = packed.claude(command);
        let stopped = got.decision == "ask" || got.decision == "deny";
        if !(stopped && got.reason.contains(CANNOT_TELL)) {
            wrong.push(format!("{command:?} -> {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "not handed to a person as a command the packs cannot read:\n{}",
        wrong.join("\n")
    );
}
