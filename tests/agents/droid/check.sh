#!/usr/bin/env bash
# Drives the real Factory Droid (the pinned version below) against a scripted model on 127.0.0.1
# (its `customModels` setting, Anthropic's API) and checks what its hooks achieve: natively (the
# control) and through hermes-hooks.
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/droid; versions, skips and exit codes as
# tests/agents/npm_agent.sh says. harness.py says what each check is.
name="droid"
package="droid"
pinned="0.215.0"
# Droid's releases moved to @factory/cli (a wrapper and one package per platform).
newest_package="@factory/cli"
program="droid"
source "$(dirname "$0")/../npm_agent.sh"
