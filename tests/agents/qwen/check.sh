#!/usr/bin/env bash
# Drives the real Qwen Code (the pinned version below) against a scripted model on 127.0.0.1
# (OpenAI's chat completions, named by OPENAI_BASE_URL) and checks what its hooks achieve:
# natively (the control) and through hermes-hooks.
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/qwen; versions, skips and exit codes as
# tests/agents/npm_agent.sh says. harness.py says what each check is.
name="qwen"
package="@qwen-code/qwen-code"
pinned="0.24.4"
program="qwen"
source "$(dirname "$0")/../npm_agent.sh"
