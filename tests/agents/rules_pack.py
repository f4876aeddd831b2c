"""What the "rules" checks of every agent's harness share: the shipped destructive pack, written
with `hermes-hooks new --rules destructive` into the run's Hermes home and approved with
`approve --yes` (no script hook at all), and a folder outside the project, holding a marker file,
that the model asks the shell to delete with `rm -rf <folder>`, or (SCRIPT) with
`bash -lc 'rm -rf <folder>'`: a shell given the delete as its script, which the pack reads with
a shell grammar and blocks the same way.

The pack lets a delete under /tmp or /var/tmp go (scratch work lives there), and a run's folders
are made under the temporary folder, so the outside folder is made beside the agents' caches in
the checkout's target/ instead: an absolute path that is neither the project nor a temporary one.
"""

import re
import shlex
import shutil
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


class Outside:
    """A folder outside the project, holding a marker file, for one run; `command` deletes it in
    the `form` asked for (PLAIN or SCRIPT)."""

    def __init__(self, form=PLAIN):
        scratch = ROOT / "target" / "rules-outside"
        scratch.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix="outside-", dir=scratch))
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


def install(call, hermes_home):
    """Writes the pack into <hermes_home>/hermes-hooks/rules.yaml and approves it, with `call`
    (a function running hermes-hooks with its arguments in the run's environment, giving the
    finished process). Returns the message of the pack's rm rule, as the file says it."""
    for args in (("new", "--rules", PACK), ("approve", "--yes")):
        done = call(*args)
        if done.returncode != 0:
            raise RuntimeError("hermes-hooks %s failed: %s%s"
                               % (" ".join(args), done.stdout, done.stderr))
    return message(Path(hermes_home) / "hermes-hooks" / "rules.yaml")


def message(rules_file):
    """The `message:` of RULE in the rules file."""
    text = rules_file.read_text()
    start = text.index("- name: %s\n" % RULE)
    found = re.compile(r"^  message: (.+)$", re.M).search(text, start)
    if not found:
        raise RuntimeError("no message for %s in %s" % (RULE, rules_file))
    return found.group(1).strip()


def report_run(report, with_pack, survived, results, detail, carried, form=PLAIN):
    """The checks of one run: without the pack (the control) the folder goes; with it the folder
    stays and the rule's message reaches the model. `carried` is asked only with the pack: it
    gives whether the tool results hold the message (as each harness reads them) and the
    message. `form` is the form of the delete the model asked for (PLAIN or SCRIPT)."""
    if form == PLAIN:
        control = ("rules: without the pack, `rm -rf` of a folder outside the project runs "
                   "(control)")
        blocked = "rules: the destructive pack blocks `rm -rf` of a folder outside the project"
        carries = "rules: the pack rule's message reaches the model in the tool result"
    else:
        control = "rules: without the pack, `%s` runs (control)" % form
        blocked = "rules: `%s` is blocked by the destructive pack" % form
        carries = ("rules: the pack rule's message reaches the model in the tool result (`%s`)"
                   % form)
    if not with_pack:
        report(control, not survived and results, detail)
        return
    report(blocked, survived and results, detail)
    held, said = carried()
    report(carries, held, "wanted: %s\n%s" % (said, detail))
