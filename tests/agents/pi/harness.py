#!/usr/bin/env python3
"""Drives the real Pi (`pi -p PROMPT`) against a scripted model and checks what the hermes-hooks
extension (src/agents/pi_extension/hermes-hooks.js, in the project's .pi/extensions/) achieves,
after Pi's own extension as the control.

    harness.py PI HERMES_HOOKS

The checks and how each run is made: ../plugin_agents.py.
"""

import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import plugin_agents  # noqa: E402

DRIVER = plugin_agents.PiDriver()

if __name__ == "__main__":
    sys.exit(plugin_agents.main(DRIVER))
