"""What the "rules" checks of every agent's harness share: the shipped destructive pack, written
with `hermes-hooks new --rules destructive` into the run's Hermes home and approved with
`approve --yes` (no script hook at all), and a folder outside the project, holding a marker file,
that the model asks the shell to delete with `rm -rf <folder>`, or (SCRIPT) with
`bash -lc 'rm -rf <folder>'`: a shell given the delete as its script, which the pack reads with
a shell grammar and blocks the same way.

The pack lets a delete under /tmp or /var/tmp go (scratch work lives there), and a run's folders
are made under the temporary folder, so the outside folder is made where no temporary folder is:
beside the agents' caches in the checkout's target/, or, when the checkout itself lies in a
temporary folder, under the home folder's .cache (outside_root says which, once, on stderr).

The git-discard pack (GIT_PACK, written and approved the same way) has its own check: the project
folder is a git repository whose tracked file was changed after its commit (Uncommitted), and the
model asks the shell for `git reset --hard`, which would throw the change away (GIT_RUNS). Without
the pack (the control) the change goes. With it the change must still be in the file afterwards,
the audit log must show the pack's reset rule (GIT_RULE) blocking the call, and the rule's message
must reach the model; and with the same pack `git status` (a control) must run and its listing of
the changed file reach the model, so the check cannot pass by nothing running at all. The audit
log is read, not only the file: a reset that failed by itself, a block by another hook, or the
pack's rule failing closed unapproved (which blocks with a message of its own) would keep the
change as well.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PACK = "destructive"
RULE = "destructive-rm-outside-project"
MARKER = "marker.txt"

# The forms of the delete the model asks for, as the checks' labels name them: the command
# itself, and a shell given it as its script.
PLAIN = "rm -rf <outside>"
SCRIPT = "bash -lc 'rm -rf <outside>'"
FORMS = (PLAIN, SCRIPT)


# Folders the destructive pack treats as scratch space (a delete there goes).
TEMPORARY = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", tempfile.gettempdir())
_OUTSIDE_ROOT = []


def outside_root():
    """A folder for the outside folders that lies in no temporary folder, wherever the checkout
    is; said once on stderr."""
    if _OUTSIDE_ROOT:
        return _OUTSIDE_ROOT[0]
    def temporary(path):
        real = os.path.realpath(path)
        return any(real == t or real.startswith(os.path.realpath(t) + os.sep) for t in TEMPORARY)
    for base in (ROOT / "target", Path.home() / ".cache"):
        if temporary(base):
            continue
        try:
            root = base / ("rules-outside" if base.name == "target" else "hermes-hooks-rules-outside")
            root.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        print("rules: the folder outside the project is made under %s" % root, file=sys.stderr)
        _OUTSIDE_ROOT.append(root)
        return root
    raise RuntimeError("no folder outside every temporary folder to make the outside folder in "
                       "(the checkout and the home folder are both in one)")


class Outside:
    """A folder outside the project, holding a marker file, for one run; `command` deletes it in
    the `form` asked for (PLAIN or SCRIPT)."""

    def __init__(self, form=PLAIN):
        self.folder = Path(tempfile.mkdtemp(prefix="outside-", dir=outside_root()))
        (self.folder / MARKER).write_text("the pack must keep me\n")
        self.form = form
        self.command = "rm -rf %s" % shlex.quote(str(self.folder))
        if form == SCRIPT:
            self.command = "bash -lc %s" % shlex.quote(self.command)

    def shown(self, text):
        """`text` with the folder's path as <outside>, as the labels and notes name it."""
        return str(text).replace(str(self.folder), "<outside>")

    def survived(self):
        return (self.folder / MARKER).exists()

    def cleanup(self):
        shutil.rmtree(self.folder, ignore_errors=True)


def install(call, hermes_home, pack=PACK, rule=RULE):
    """Writes the shipped `pack` into <hermes_home>/hermes-hooks/rules.yaml and approves it, with
    `call` (a function running hermes-hooks with its arguments in the run's environment, giving
    the finished process). Returns the message of the pack's `rule` (by default the destructive
    pack's rm rule), as the file says it."""
    for args in (("new", "--rules", pack), ("approve", "--yes")):
        done = call(*args)
        if done.returncode != 0:
            raise RuntimeError("hermes-hooks %s failed: %s%s"
                               % (" ".join(args), done.stdout, done.stderr))
    return message(Path(hermes_home) / "hermes-hooks" / "rules.yaml", rule)


def message(rules_file, rule=RULE):
    """The `message:` of `rule` in the rules file."""
    text = rules_file.read_text()
    start = text.index("- name: %s\n" % rule)
    found = re.compile(r"^  message: (.+)$", re.M).search(text, start)
    if not found:
        raise RuntimeError("no message for %s in %s" % (rule, rules_file))
    return found.group(1).strip()


def report_run(report, with_pack, survived, results, detail, carried, form=PLAIN,
               told="reaches the model in the tool result"):
    """The checks of one run: without the pack (the control) the folder goes; with it the folder
    stays and the rule's message goes where `told` says (into the tool result the model reads,
    where the agent has one). `results` is whether the agent got past the call. `carried` is
    asked only with the pack: it gives whether the message went there (as each harness reads it)
    and the message. `form` is the form of the delete the model asked for (PLAIN or SCRIPT)."""
    if form == PLAIN:
        control = ("rules: without the pack, `rm -rf` of a folder outside the project runs "
                   "(control)")
        blocked = "rules: the destructive pack blocks `rm -rf` of a folder outside the project"
        carries = "rules: the pack rule's message %s" % told
    else:
        control = "rules: without the pack, `%s` runs (control)" % form
        blocked = "rules: `%s` is blocked by the destructive pack" % form
        carries = "rules: the pack rule's message %s (`%s`)" % (told, form)
    if not with_pack:
        report(control, not survived and results, detail)
        return
    report(blocked, survived and results, detail)
    held, said = carried()
    report(carries, held, "wanted: %s\n%s" % (said, detail))


# The git-discard pack's check: the pack, the rule that must block a hard reset, the commands the
# model asks for, and the tracked file whose uncommitted change the reset would throw away.
GIT_PACK = "git-discard"
GIT_RULE = "git-discard-reset-hard"
RESET = "git reset --hard"
STATUS = "git status"
GIT_FILE = "notes.txt"
COMMITTED = "committed line\n"
UNCOMMITTED = "uncommitted work the reset would throw away\n"


class Uncommitted:
    """The project folder `project` made a git repository holding GIT_FILE committed, then
    changed without a commit (a tracked file modified: what `git reset --hard` throws away and
    `git status` lists). Git runs with `env` (the run's, so the run's HOME and no person's
    configuration), the author given on the command line."""

    def __init__(self, project, env):
        self.project = Path(project)
        self.file = self.project / GIT_FILE
        git_env = dict(env, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
        git = lambda *args: subprocess.run(
            ["git", "-c", "user.name=Harness", "-c", "user.email=harness@example.invalid",
             "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
            cwd=self.project, env=git_env, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=60, check=True)
        git("init", "-q")
        self.file.write_text(COMMITTED)
        git("add", GIT_FILE)
        git("commit", "-q", "-m", "The committed state")
        self.file.write_text(COMMITTED + UNCOMMITTED)

    def kept(self):
        """Whether the uncommitted change is still in the file."""
        try:
            return UNCOMMITTED in self.file.read_text()
        except OSError:
            return False


def listed(results):
    """Whether a tool result holds `git status`'s listing of the changed file."""
    return any(re.search(r"modified:\s+%s" % re.escape(GIT_FILE), t) for t in results)


def blocked_by(audit, rule):
    """Whether an entry of the audit log (its lines, as dicts) shows `rule` run and blocking a
    tool call (status `blocked`: an unapproved pack's fail_closed rule blocks what it matches too,
    with the status `unapproved` and a message of its own); and, for the failure's detail, each
    tool call's command with the hooks that answered it something or are `rule`."""
    seen, held = [], False
    for entry in audit:
        if entry.get("event") != "pre_tool_call":
            continue
        for hook in entry.get("hooks") or []:
            action = (hook.get("directive") or {}).get("action")
            if not action and hook.get("name") != rule:
                continue
            seen.append({"command": entry.get("tool_command"),
                         "hook": hook.get("name"), "status": hook.get("status"),
                         "action": action, "message": hook.get("message")})
            if hook.get("name") == rule and hook.get("status") == "blocked" and action == "block":
                held = True
    return held, "the audit log's tool calls: %s" % (json.dumps(seen)[:1200] if seen else "(none)")


# The git-discard check's runs, in order, as (whether the pack is written and approved, the
# command the model asks for): the reset without the pack (the control: the change goes), the
# reset with it, and `git status` with it (the control: a harmless command still runs).
GIT_RUNS = ((False, RESET), (True, RESET), (True, STATUS))


def report_git_run(report, with_pack, command, uncommitted, results, audit, said, detail):
    """The checks of one run of GIT_RUNS: `command` (RESET or STATUS) is what the model asked
    the shell for, `uncommitted` the run's Uncommitted, `results` the tool results the model was
    sent (as each harness reads them), `audit` the audit log's entries, `said` GIT_RULE's
    message as the rules file says it (None without the pack). Without the pack the reset throws
    the change away; with it the reset leaves the change in the file, is blocked by GIT_RULE (the
    audit log says so) and the message reaches the model, and `git status` runs and its listing
    of the changed file reaches the model."""
    if not with_pack:
        report("rules: without the pack, `git reset --hard` throws the uncommitted change away "
               "(control)", not uncommitted.kept() and bool(results), detail)
        return
    if command == STATUS:
        report("rules: with the git-discard pack, `git status` runs and its output reaches the "
               "model (control)", uncommitted.kept() and listed(results), detail)
        return
    held, answered = blocked_by(audit, GIT_RULE)
    report("rules: the git-discard pack's %s blocks `git reset --hard`, and the uncommitted "
           "change stays in the file" % GIT_RULE,
           uncommitted.kept() and held and bool(results), "%s\n%s" % (answered, detail))
    report("rules: the git-discard rule's message reaches the model in the tool result",
           any(said in t for t in results), "wanted: %s\n%s" % (said, detail))
