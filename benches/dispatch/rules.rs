//! The rows of rules (guards written as patterns, evaluated in the process), each timed in turns
//! with the figure it must stay near: the same command where hooks are configured and none applies.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hermes_hooks::{Approval, record, sha256_file};

use super::cpu::on_one_cpu;
use super::{Fixture, MISS, PAYLOAD, Row, Server, ms, request, side_by_side, timed, tool, us};

/// A shell call the destructive pack blocks.
const RM_ROOT: &[u8] = br#"{"tool_name": "terminal", "args": {"command": "rm -rf /"}, "session_id": "bench", "tool_call_id": "c1"}"#;

/// The home with rules and the project it is run in.
pub(super) struct Homes {
    /// A home whose one source is an approved user rules file: every shipped pack.
    packs: PathBuf,
    /// A project (it has `.git`) without hooks, so that `${project}` stands for a folder.
    project: PathBuf,
    /// How many rules the packs hold.
    pack_rules: usize,
}

/// Makes the home under `root`.
pub(super) fn homes(root: &Path) -> Homes {
    let project = root.join("rules-project");
    std::fs::create_dir_all(project.join(".git")).expect("project");
    let packs_text = packs();
    let pack_rules = packs_text
        .lines()
        .filter(|l| l.starts_with("- name:"))
        .count();
    let packs = approved_home(&root.join("rules-packs"), &packs_text);
    Homes {
        packs,
        project,
        pack_rules,
    }
}

/// Every shipped pack as one rules file (`src/engine/rules/packs/*.yaml`, by name), each appended as
/// `new --rules all` appends it: its header comment and items, without its own `rules:` line.
fn packs() -> String {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/rules/packs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the packs' folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    let mut text = String::from("rules:\n");
    for file in files {
        let pack = std::fs::read_to_string(file).expect("pack");
        for line in pack.lines().filter(|line| *line != "rules:") {
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// A Hermes home whose one source is `rules` as its user rules file, approved.
pub(super) fn approved_home(home: &Path, rules: &str) -> PathBuf {
    let file = home.join("hermes-hooks").join("rules.yaml");
    std::fs::create_dir_all(file.parent().expect("folder")).expect("home");
    std::fs::write(&file, rules).expect("rules file");
    let approval = Approval {
        event: "rules".to_owned(),
        command: file.display().to_string(),
        script: Some(file.clone()),
        sha256: sha256_file(&file).ok(),
        mtime: None,
        manifest: None,
    };
    record(&home.join("shell-hooks-allowlist.json"), &[approval]).expect("approve");
    home.to_path_buf()
}

/// Waits until the fixture's rules file is old enough to be known by their stamp, as a rules
/// file in use nearly always is (one that has just changed is hashed on every call).
fn settle(homes: &Homes) {
    let file = homes.packs.join("hermes-hooks").join("rules.yaml");
    let age = std::fs::metadata(&file)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|modified| modified.elapsed().ok())
        .unwrap_or_default();
    std::thread::sleep(std::time::Duration::from_secs(3).saturating_sub(age));
}

/// `run pre_tool_call` in `home` with the rules project.
fn run_rules(home: &Path, project: &Path) -> Command {
    let mut cmd = tool(home, Some(project));
    cmd.args(["run", "pre_tool_call"]);
    cmd
}

/// Runs `cmd` once with `payload` and checks the exit status says `blocked` (2) or not (0), so
/// that no figure is taken of a fixture whose rules do not load.
fn expect(cmd: &mut Command, payload: &[u8], blocked: bool) {
    use std::io::Write as _;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(payload).expect("payload");
    drop(pipe);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(if blocked { 2 } else { 0 }),
        "run with the rules fixture: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `run` with every pack, a call no rule blocks and one a rule blocks, each in turns with
/// `run` where hooks are configured and none applies, in the same project.
pub(super) fn run_rows(fx: &Fixture) -> Vec<Row> {
    let homes = &fx.rules;
    settle(homes);
    expect(&mut run_rules(&homes.packs, &homes.project), PAYLOAD, false);
    expect(&mut run_rules(&homes.packs, &homes.project), RM_ROOT, true);
    // The baseline is given the same project: finding and reading a project is not the rules'
    // cost. The call a rule blocks (which builds that rule's pattern) takes its own turns, so that
    // building does not weigh on the first pair.
    let [passed, none] = side_by_side(
        200,
        [
            &mut || timed(&mut run_rules(&homes.packs, &homes.project), PAYLOAD),
            &mut || timed(&mut run_rules(&fx.home, &homes.project), MISS),
        ],
    );
    let [blocked, none_beside] = side_by_side(
        200,
        [
            &mut || timed(&mut run_rules(&homes.packs, &homes.project), RM_ROOT),
            &mut || timed(&mut run_rules(&fx.home, &homes.project), MISS),
        ],
    );
    let ratio = ms(passed.median) / ms(none.median);
    // Each ratio against the baseline taken in its own turns: the machine's speed may have
    // moved between the two pairs.
    let blocked_ratio = ms(blocked.median) / ms(none_beside.median);
    vec![
        Row {
            figure: "run, rules only (every pack), `ls -la` / none applies",
            measured: format!(
                "{:.2} / {:.2} ms = {ratio:.2}x ({} rules)",
                ms(passed.median),
                ms(none.median),
                homes.pack_rules
            ),
            target: "<= 1.15x",
            met: Some(ratio <= 1.15),
        },
        Row {
            figure: "run, a pack rule blocks `rm -rf /` / none applies",
            measured: format!(
                "{:.2} / {:.2} ms = {blocked_ratio:.2}x",
                ms(blocked.median),
                ms(none_beside.median)
            ),
            target: "<= 1.3x",
            met: Some(blocked_ratio <= 1.3),
        },
    ]
}

/// `serve` with every pack, one of whose rules blocks the call, in turns with `serve` where hooks are
/// configured and none applies; the harness and both servers on one CPU.
pub(super) fn serve_row(fx: &Fixture) -> Row {
    let homes = &fx.rules;
    settle(homes);
    let requests = 2000;
    let mut none = Server::start(&fx.home, None);
    let mut rules = Server::start(&homes.packs, Some(&homes.project));
    let (miss, hit) = (request(MISS), request(RM_ROOT));
    rules.ask(&hit);
    assert!(
        rules.line.contains("\"block\""),
        "serve with every pack did not block: {}",
        rules.line
    );
    let ls = request(PAYLOAD);
    let pids = [none.child.id(), rules.child.id()];
    let rules = std::cell::RefCell::new(rules);
    let ([decided, passed, nothing], one_cpu) = on_one_cpu(&pids, || {
        side_by_side(
            requests,
            [
                &mut || rules.borrow_mut().ask(&hit),
                &mut || rules.borrow_mut().ask(&ls),
                &mut || none.ask(&miss),
            ],
        )
    });
    none.stop();
    rules.into_inner().stop();
    let (decided, passed) = (us(decided.median), us(passed.median));
    let mut measured = format!(
        "{decided:.1} / {passed:.1} us (none applies: {:.1} us; {} rules)",
        us(nothing.median),
        homes.pack_rules
    );
    if !one_cpu {
        measured.push_str(" (not pinned)");
    }
    Row {
        figure: "serve, every pack, a rule blocks / `ls -la` passes, one CPU",
        measured,
        target: "each <= 100 us",
        met: Some(decided <= 100.0 && passed <= 100.0),
    }
}
