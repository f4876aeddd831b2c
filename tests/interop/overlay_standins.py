"""Minimal stand-ins, in newest.sh's scratch copy only, for names a newer Hermes file imports
from a module the pinned Hermes has in an older form:

    overlay_standins.py SITE_PACKAGES

Each stand-in is appended to the copied module when the name is missing there, and said on one
line. They do what the POSIX path of the newer names needs, nothing more.
"""

import sys
from pathlib import Path

STANDINS = [
    ("hermes_cli/_subprocess_compat.py", "split_command_line", '''
def split_command_line(command):
    """Stand-in: a command line split as a POSIX shell splits words."""
    import shlex

    return shlex.split(command)
'''),
    ("hermes_cli/_subprocess_compat.py", "kill_process_tree", '''
def kill_process_tree(proc):
    """Stand-in: kill the process group a hook was started in (process_group=0), else it."""
    import os
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass
'''),
    ("hermes_cli/plugins.py", "SHELL_UNSUPPORTED_HOOKS", '''
# Stand-in: events a shell hook may not register for (none known to this Hermes).
SHELL_UNSUPPORTED_HOOKS = frozenset()
'''),
]


def main():
    site = Path(sys.argv[1])
    for relative, name, text in STANDINS:
        module = site / relative
        source = module.read_text(encoding="utf-8")
        if f"def {name}(" in source or f"\n{name} =" in source or f"\n{name}:" in source:
            continue
        module.write_text(source + "\n" + text, encoding="utf-8")
        dotted = relative[: -len(".py")].replace("/", ".")
        print(f"stand-in: {dotted}.{name} (this Hermes has none)", flush=True)


if __name__ == "__main__":
    main()
