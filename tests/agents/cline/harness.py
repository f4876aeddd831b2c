#!/usr/bin/env python3
"""Drives the real Cline (`cline --yolo PROMPT`) against a scripted model and checks what the
hermes-hooks scripts (src/agents/cline_hooks/hook.sh, written into ~/.cline/hooks/ by `install
cline`) achieve, after a hook of Cline's own as the control.

    harness.py CLINE HERMES_HOOKS

The checks and how each run is made: ../plugin_agents.py (ClineDriver says where Cline's differ).
"""

import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import plugin_agents  # noqa: E402

if __name__ == "__main__":
    sys.exit(plugin_agents.main(plugin_agents.ClineDriver()))
