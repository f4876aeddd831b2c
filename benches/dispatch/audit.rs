//! What the audit log kept by default costs: the same decision with the log on (as it is unless
//! a person turns it off) and with `HERMES_HOOKS_AUDIT_LOG=off`, in turns. The decision is a rule
//! that blocks, the cheapest one there is (no process), so the log's share is as large as it
//! gets; a script hook's decision takes milliseconds more, with the same log line.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::cpu::on_one_cpu;
use super::{Row, Server, ms, request, rules, side_by_side, timed, tool, us};

/// A shell call the fixture's rule blocks.
const CURL: &[u8] = br#"{"tool_name": "terminal", "args": {"command": "curl x"}, "session_id": "bench", "tool_call_id": "c1"}"#;

/// A home whose one source is an approved user rules file with one cheap rule.
pub(super) fn home(root: &Path) -> PathBuf {
    rules::approved_home(
        &root.join("audit-home"),
        "rules:\n- name: no-curl\n  tool: shell\n  when: {command: '\\bcurl\\b'}\n",
    )
}

fn run(home: &Path, off: bool) -> Command {
    let mut cmd = tool(home, None);
    if off {
        cmd.env("HERMES_HOOKS_AUDIT_LOG", "off");
    }
    cmd.args(["run", "pre_tool_call"]);
    cmd
}

/// `run` and `serve` answering the same blocked call, the default log on against off.
pub(super) fn rows(home: &Path) -> Vec<Row> {
    let log = home.join("hermes-hooks").join("audit.jsonl");
    let [on, off] = side_by_side(
        200,
        [&mut || timed(&mut run(home, false), CURL), &mut || {
            timed(&mut run(home, true), CURL)
        }],
    );
    assert!(
        log.exists(),
        "run with the log on wrote no line to {}",
        log.display()
    );
    let run_ratio = ms(on.median) / ms(off.median);
    let mut on_server = Server::start(home, None);
    let mut off_server = Server::start_with(home, None, &[("HERMES_HOOKS_AUDIT_LOG", "off")]);
    let hit = request(CURL);
    on_server.ask(&hit);
    off_server.ask(&hit);
    let pids = [on_server.child.id(), off_server.child.id()];
    let ([served_on, served_off], one_cpu) = on_one_cpu(&pids, || {
        side_by_side(
            2000,
            [&mut || on_server.ask(&hit), &mut || off_server.ask(&hit)],
        )
    });
    on_server.stop();
    off_server.stop();
    let serve_ratio = us(served_on.median) / us(served_off.median);
    vec![
        Row {
            figure: "run, a rule blocks: audit log on / off",
            measured: format!(
                "{:.2} / {:.2} ms = {run_ratio:.2}x",
                ms(on.median),
                ms(off.median)
            ),
            target: "(reference)",
            met: None,
        },
        Row {
            figure: "serve, a rule blocks: audit log on / off, one CPU",
            measured: format!(
                "{:.1} / {:.1} us = {serve_ratio:.2}x{}",
                us(served_on.median),
                us(served_off.median),
                if one_cpu { "" } else { " (not pinned)" }
            ),
            target: "(reference)",
            met: None,
        },
    ]
}
