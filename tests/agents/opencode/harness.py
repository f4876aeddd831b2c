#!/usr/bin/env python3
"""Drives the real OpenCode (`opencode run PROMPT`) against a scripted model and checks what the
hermes-hooks plugin (src/agents/opencode_plugin/hermes-hooks.js, in the project's
.opencode/plugins/) achieves, after OpenCode's own plugin as the control.

    harness.py OPENCODE HERMES_HOOKS

The checks and how each run is made: ../plugin_agents.py.
"""

import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import plugin_agents  # noqa: E402

DRIVER = plugin_agents.OpenCodeDriver("opencode", "OpenCode", ".opencode", "opencode.json",
                                      "https://opencode.ai/config.json")

if __name__ == "__main__":
    sys.exit(plugin_agents.main(DRIVER))
