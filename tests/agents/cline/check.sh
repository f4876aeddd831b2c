#!/usr/bin/env bash
# Drives the real Cline (its command-line agent, the pinned version below) against a scripted
# model on 127.0.0.1 (an OpenAI-compatible provider set with `cline auth`) and checks what a hook
# script achieves: Cline's own (the control) and hermes-hooks's (src/agents/cline_hooks/hook.sh).
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/cline; versions, skips and exit codes as
# tests/agents/npm_agent.sh says. ../plugin_agents.py says what each check is.
name="cline"
package="cline"
pinned="3.0.65"
program="cline"
source "$(dirname "$0")/../npm_agent.sh"
