#!/usr/bin/env bash
# Drives the real Kilo Code CLI (the pinned version below) against a scripted model on 127.0.0.1
# (a provider in the project's kilo.json, OpenAI's chat completions) and checks what a plugin
# achieves: Kilo's own (the control) and hermes-hooks's (OpenCode's plugin,
# src/agents/opencode_plugin/hermes-hooks.js).
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent's platform package (@kilocode/cli-linux-x64, ...) with npm into
# target/agents/kilo: the wrapper @kilocode/cli has no 7.7.9, and its 7.8.1 fails to install on
# linux-x64 (no @kilocode/cli-linux-x64-baseline-musl@7.8.1), so the newest release run skips
# until the platform packages catch up. Versions, skips and exit codes as
# tests/agents/platform_agent.sh says. ../plugin_agents.py says what each check is.
name="kilo"
package="@kilocode/cli"
platform_prefix="@kilocode/cli"
pinned="7.7.9"
program="kilo"
source "$(dirname "$0")/../platform_agent.sh"
