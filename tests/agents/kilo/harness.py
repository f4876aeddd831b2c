#!/usr/bin/env python3
"""Drives the real Kilo Code CLI (`kilo run PROMPT`) against a scripted model and checks what the
hermes-hooks plugin (src/agents/opencode_plugin/hermes-hooks.js, OpenCode's, in the project's
.kilo/plugins/) achieves, after Kilo's own plugin as the control.

    harness.py KILO HERMES_HOOKS

The checks and how each run is made: ../plugin_agents.py.
"""

import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import plugin_agents  # noqa: E402

DRIVER = plugin_agents.OpenCodeDriver("kilo", "Kilo Code", ".kilo", "kilo.json",
                                      "https://app.kilo.ai/config.json")

if __name__ == "__main__":
    sys.exit(plugin_agents.main(DRIVER))
