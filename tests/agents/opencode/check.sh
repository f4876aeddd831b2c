#!/usr/bin/env bash
# Drives the real OpenCode (the pinned version below) against a scripted model on 127.0.0.1 (a
# provider in the project's opencode.json, OpenAI's chat completions) and checks what a plugin
# achieves: OpenCode's own (the control) and hermes-hooks's
# (src/agents/opencode_plugin/hermes-hooks.js).
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent's platform package (opencode-linux-x64, ...: the binary that opencode-ai's
# postinstall would fetch) with npm into target/agents/opencode; versions, skips and exit codes
# as tests/agents/platform_agent.sh says. ../plugin_agents.py says what each check is.
name="opencode"
package="opencode-ai"
platform_prefix="opencode"
pinned="1.18.33"
program="opencode"
source "$(dirname "$0")/../platform_agent.sh"
