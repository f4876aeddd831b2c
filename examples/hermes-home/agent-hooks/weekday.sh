#!/bin/sh
# Adds the current weekday to every turn (pre_llm_call context). Ignores its payload.
cat >/dev/null
printf '{"context": "Today is %s."}\n' "$(date +%A)"
