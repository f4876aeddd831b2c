# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_hermes_hooks_global_optspecs
    string join \n hermes-home= config= user-hooks= project= accept-hooks color= q/quiet h/help V/version
end

function __fish_hermes_hooks_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_hermes_hooks_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_hermes_hooks_using_subcommand
    set -l cmd (__fish_hermes_hooks_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "run" -d 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "list" -d 'List every hook with its matcher, timeout, consent and script state'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "ls" -d 'List every hook with its matcher, timeout, consent and script state'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "test" -d 'Run an event\'s hooks against a synthetic payload and show what each one answered'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "approve" -d 'Review and approve hooks (asks on a terminal; --yes for scripts)'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "revoke" -d 'Remove the approvals of a command'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "remove" -d 'Remove the approvals of a command'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "rm" -d 'Remove the approvals of a command'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "doctor" -d 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "events" -d 'Print the event table: names, aliases, what hooks can do, payload fields'
complete -c hermes-hooks -n "__fish_hermes_hooks_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l payload-file -d 'Read the payload from FILE (\'-\' for stdin) instead of stdin' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l audit-log -d 'Append one JSON line per run (each hook\'s command, script sha256, status, directive) to FILE [env: HERMES_HOOKS_AUDIT_LOG]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l gate-limit -d 'On pre_verify, "keep working" answers honoured in a row per session before the agent is let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l dry-run -d 'Check matchers and consent and report what would run; run nothing, write nothing'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l audit-payload -d 'Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand run" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l event -d 'Only this event\'s hooks (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -s l -l long -d 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l json -d 'Print one JSON document instead of the table'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand list" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l event -d 'Only this event\'s hooks (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -s l -l long -d 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l json -d 'Print one JSON document instead of the table'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand ls" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l for-tool -d 'Set tool_name in the payload and apply tool matchers' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l payload-file -d 'A payload merged over the synthetic one, key by key; any shape (keyword arguments, the Hermes wire with tool_input and extra, an Agent Hooks payload)' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l expect -d 'Exit 1 unless the aggregated directive is this one' -r -f -a "block\t''
modify\t''
context\t''
continue\t''
none\t''"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l json -d 'Print one JSON document instead of the report'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand test" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l event -d 'Only hooks of this event (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l all -d 'Also re-approve hooks that are approved already, pinning their current content'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -s y -l yes -d 'Approve without asking (for scripts and CI); without a terminal, approve refuses unless this is given'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l json -d 'Print one JSON document instead of a line per hook'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand approve" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l event -d 'Only the approval for this event (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l json -d 'Print one JSON document instead of a sentence'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand revoke" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l event -d 'Only the approval for this event (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l json -d 'Print one JSON document instead of a sentence'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand remove" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l event -d 'Only the approval for this event (either name)' -r
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l json -d 'Print one JSON document instead of a sentence'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand rm" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l no-exec -d 'Skip the smoke runs: execute no hook'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l strict -d 'Exit 1 on warnings too'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l json -d 'Print the findings as one JSON document'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l hermes-home -d 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l config -d 'Hermes config file [default: <hermes home>/config.yaml]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l user-hooks -d 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l project -d 'Project root; its hooks are in <DIR>/.agents/hooks [default: the current directory]' -r -F
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l color -d 'Colour in human output [env: NO_COLOR disables it]' -r -f -a "auto\t'Only on a terminal, and not when NO_COLOR is set'
always\t'Always'
never\t'Never'"
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l json -d 'Print the table as one JSON document ({"schema_version", "events": [...]})'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -l accept-hooks -d 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still show)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand events" -s V -l version -d 'Print version'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "run" -d 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "list" -d 'List every hook with its matcher, timeout, consent and script state'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "test" -d 'Run an event\'s hooks against a synthetic payload and show what each one answered'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "approve" -d 'Review and approve hooks (asks on a terminal; --yes for scripts)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "revoke" -d 'Remove the approvals of a command'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "doctor" -d 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "events" -d 'Print the event table: names, aliases, what hooks can do, payload fields'
complete -c hermes-hooks -n "__fish_hermes_hooks_using_subcommand help; and not __fish_seen_subcommand_from run list test approve revoke doctor events help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
