"""What the "rules" checks of every agent's harness share: the shipped destructive pack, written
with `hermes-hooks new --rules destructive` into the run's Hermes home and approved with
`approve --yes` (no script hook at all), and a folder outside the project, holding a marker file,
that the model asks the shell to delete with `rm -rf <folder>`.

The pack lets a delete under /tmp or /var/tmp go (scratch work lives there), and a run's folders
are made under the temporary folder, so the outside folder is made beside the agents' caches in
the checkout's target/ instead: an absolute path that is neither the project nor a temporary one.
"""

import re
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PACK = "destructive"
RULE = "destructive-rm-outside-project"
MARKER = "marker.txt"


class Outside:
    """A folder outside the project, holding a marker file, for one run."""

    def __init__(self):
        scratch = ROOT / "target" / "rules-outside"
        scratch.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix="outside-", dir=scratch))
        (self.folder / MARKER).write_text("the pack must keep me\n")
        self.command = "rm -rf %s" % self.folder

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


def report_run(report, with_pack, survived, results, detail, carried):
    """The checks of one run: without the pack (the control) the folder goes; with it the folder
    stays and the rule's message reaches the model. `carried` is asked only with the pack: it
    gives whether the tool results hold the message (as each harness reads them) and the
    message."""
    if not with_pack:
        report("rules: without the pack, `rm -rf` of a folder outside the project runs "
               "(control)", not survived and results, detail)
        return
    report("rules: the destructive pack blocks `rm -rf` of a folder outside the project",
           survived and results, detail)
    held, said = carried()
    report("rules: the pack rule's message reaches the model in the tool result",
           held, "wanted: %s\n%s" % (said, detail))
