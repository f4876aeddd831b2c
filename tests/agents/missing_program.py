"""What the "missing" checks of the Claude Code and Codex harnesses share: the agent wired with
`hermes-hooks install <agent> --project .` while hermes-hooks is on PATH, the shipped destructive
pack approved, then the agent started where `hermes-hooks` cannot be found (a PATH without it, a
home whose ~/.profile does not put it back), and the model asks the shell to delete a folder
outside the project (rules_pack.Outside).

With the wiring `install` writes by default (`--if-missing block`), the command on the agent's
pre-tool event ends in a shell tail that turns "not found" (exit 127) into exit 2: the call is
blocked, the folder's marker survives, and the model reads that hermes-hooks "cannot be found or
started". The control is the wiring of `install --if-missing allow` (the command alone): the hook
fails as any missing program does, the agent goes on, and the folder is deleted although the pack
is approved, since nothing runs it.
"""

import json
import os
import shutil

# What the tail of the wiring says on stderr when hermes-hooks cannot be run
# (src/agents/settings/mod.rs, the --if-missing block text).
MESSAGE = "cannot be found or started"

# The two wirings, as `install` is asked for them, and as the checks name them.
BLOCK = "block"
ALLOW = "allow"
MODES = (BLOCK, ALLOW)
FLAGS = {BLOCK: (), ALLOW: ("--if-missing", "allow")}
NAMED = {BLOCK: "`install --project .` (--if-missing block, the default)",
         ALLOW: "`install --project . --if-missing allow` (control)"}

# The folders a login shell's PATH starts from on common systems (/etc/profile sets it anew).
LOGIN_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")


def path_without(program="hermes-hooks"):
    """This process's PATH without the folders that hold `program`."""
    dirs = os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
    return os.pathsep.join(d for d in dirs if not os.path.exists(os.path.join(d, program)))


def still_found(path, program="hermes-hooks"):
    """Where `program` is still found on `path` or a login shell's PATH, or None."""
    return (shutil.which(program, path=path)
            or shutil.which(program, path=os.pathsep.join(LOGIN_PATH)))


def wiring_has_tail(text):
    """Whether the wiring `text` holds the tail that blocks when hermes-hooks cannot be run."""
    return MESSAGE in text and "exit 2" in text


def report_run(report, note, mode, agent, survived, results, wiring, command, detail):
    """The checks of one run: `mode` the wiring (BLOCK or ALLOW), `survived` whether the outside
    folder's marker survived, `results` the tool results the model read, `wiring` the text of the
    file `install` wrote and `command` its command on the pre-tool event; `detail` what the run
    did, for a failed check. Notes say what the model read, and whether the message reached it
    from the hook's stderr or only inside the hook's command, which an agent may quote."""
    told = any(MESSAGE in result for result in results)
    prefix = "missing, %s, %s" % (agent, NAMED[mode])
    note("%s: the model read: %s" % (
        prefix, json.dumps(results[0][:300]) if results else "(no tool result)"))
    if told:
        from_stderr = any(MESSAGE in result.replace(command, "") for result in results)
        note("%s: the message reached the model %s" % (
            prefix, "from the hook's stderr" if from_stderr
            else "only inside the hook's command, which %s quotes" % agent))
    if mode == BLOCK:
        report("%s: the pre-tool command ends in the tail that blocks when hermes-hooks cannot "
               "be run" % prefix, wiring_has_tail(wiring), wiring)
        report("%s: hermes-hooks not on PATH, `rm` of a folder outside the project is blocked "
               "(its marker survives)" % prefix, survived and bool(results), detail)
        report("%s: the model reads that hermes-hooks %s" % (prefix, MESSAGE), told, detail)
        return
    report("%s: the wiring is the bare command, with no tail" % prefix,
           MESSAGE not in wiring and "hermes-hooks run" in wiring, wiring)
    report("%s: hermes-hooks not on PATH, the agent goes on and `rm` of a folder outside the "
           "project runs, the approved pack unread" % prefix, not survived and not told, detail)
