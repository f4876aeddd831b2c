
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'hermes-hooks' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'hermes-hooks'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'hermes-hooks' {
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every hook with its matcher, timeout, consent and script state')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List every hook with its matcher, timeout, consent and script state')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run an event''s hooks against a synthetic payload and show what each one answered')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Answer events read as JSON lines on stdin, one JSON line each on stdout, keeping the hooks loaded between them (for agents that fire many events)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Review and approve hooks (asks on a terminal; --yes for scripts)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove the approvals of a command')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the approvals of a command')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove the approvals of a command')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'Print the event table; with an event, its payloads and how a hook answers there')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Scaffold a hook that works as it is: an Agent Hooks folder, or a script and the hooks: entry to paste')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Wire an agent''s settings (claude-code, codex, gemini, cursor) to run these hooks')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove the wiring `install` wrote into an agent''s settings')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show recent decisions from the audit log: which hook blocked what, and why')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hermes-hooks;list' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only this event''s hooks (any of its names)')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval')
            [CompletionResult]::new('--long', '--long', [CompletionResultType]::ParameterName, 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of the table')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;ls' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only this event''s hooks (any of its names)')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval')
            [CompletionResult]::new('--long', '--long', [CompletionResultType]::ParameterName, 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of the table')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;test' {
            [CompletionResult]::new('--for-tool', '--for-tool', [CompletionResultType]::ParameterName, 'Set tool_name in the payload and apply tool matchers')
            [CompletionResult]::new('--payload-file', '--payload-file', [CompletionResultType]::ParameterName, 'A payload merged over the synthetic one, key by key; any shape (keyword arguments, the Hermes wire with tool_input and extra, an Agent Hooks payload)')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Exit 1 unless the aggregated directive is this one, answered by the hooks themselves')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of the report')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;doctor' {
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--no-exec', '--no-exec', [CompletionResultType]::ParameterName, 'Skip the smoke runs: execute no hook')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 on warnings too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the findings as one JSON document')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;run' {
            [CompletionResult]::new('--payload-file', '--payload-file', [CompletionResultType]::ParameterName, 'Read the payload from FILE (''-'' for stdin) instead of stdin')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Read the event name and payload as AGENT sends them and answer in its contract: its own JSON (or nothing) on stdout and the exit code it reads [default: hermes, the answer line]')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Append one JSON line per event (each hook''s command, script sha256, status, directive) to FILE [env: HERMES_HOOKS_AUDIT_LOG]')
            [CompletionResult]::new('--gate-limit', '--gate-limit', [CompletionResultType]::ParameterName, 'On pre_verify, "keep working" answers honoured in a row per session before the agent is let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check matchers and consent and report what would run; run nothing, write nothing')
            [CompletionResult]::new('--audit-payload', '--audit-payload', [CompletionResultType]::ParameterName, 'Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]')
            [CompletionResult]::new('--fail-closed', '--fail-closed', [CompletionResultType]::ParameterName, 'When the runner cannot check a call (a config or HOOK.md that does not parse, a payload it cannot read, an unreadable allowlist), block it instead of letting it go on, on events where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;serve' {
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Append one JSON line per event (each hook''s command, script sha256, status, directive) to FILE [env: HERMES_HOOKS_AUDIT_LOG]')
            [CompletionResult]::new('--gate-limit', '--gate-limit', [CompletionResultType]::ParameterName, 'On pre_verify, "keep working" answers honoured in a row per session before the agent is let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--audit-payload', '--audit-payload', [CompletionResultType]::ParameterName, 'Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]')
            [CompletionResult]::new('--fail-closed', '--fail-closed', [CompletionResultType]::ParameterName, 'When the runner cannot check a call (a config or HOOK.md that does not parse, a payload it cannot read, an unreadable allowlist), block it instead of letting it go on, on events where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;approve' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only hooks of this event (any of its names)')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Also re-approve hooks that are approved already, pinning their current content')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Approve without asking (for scripts and CI); without a terminal, approve refuses unless this is given')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Approve without asking (for scripts and CI); without a terminal, approve refuses unless this is given')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of a line per hook')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;revoke' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only the approval for this event (any of its names)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of a sentence')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;remove' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only the approval for this event (any of its names)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of a sentence')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;rm' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only the approval for this event (any of its names)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of a sentence')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;events' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'List the events as AGENT fires them (`run --agent AGENT` takes these names): each with the event it stands for and what hooks can do there for that agent')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document ({"schema_version", "events": [...]}, or the event''s details)')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;new' {
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'The event it runs on: canonical, Agent Hooks or Claude Code name')
            [CompletionResult]::new('--matcher', '--matcher', [CompletionResultType]::ParameterName, 'Run only for tools whose whole name matches this regex (tool events only)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The script''s language')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'An Agent Hooks folder in <DIR>/.agents/hooks/ (the default; DIR: the project root)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A script in <hermes home>/agent-hooks/ and the hooks: entry to paste into FILE [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'An Agent Hooks folder at user level (--user-hooks, default ~/.config/agents/hooks)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document: what was written and what to do next')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;install' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s settings (the default; DIR: the project root) [default: the project found from the current directory, else the repository root, else the current directory]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The agent''s user settings (in the home folder)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a unified diff on stdout and write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document: the file, each event''s change, the backup, what is left to do')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;uninstall' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s settings (the default; DIR: the project root) [default: the project found from the current directory, else the repository root, else the current directory]')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The agent''s user settings (in the home folder)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a unified diff on stdout and write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document: the file, each event''s change, the backup, what is left to do')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;log' {
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'The audit log to read [env: HERMES_HOOKS_AUDIT_LOG]')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only runs of this event (any of its names)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only runs of this session id')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only hooks with this status (ok, blocked, unapproved, changed, failed, timed_out, ...)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Show one decision whole: every hook of the run with this id (a prefix that names one)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the last N rows; 0 shows all')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show the last N rows; 0 shows all')
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--blocked', '--blocked', [CompletionResultType]::ParameterName, 'Only hooks that blocked (or, on pre_verify, asked to keep working)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Also show hooks that did not run, or whose matcher passed over the call')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document ({"schema_version", "log", "rows": [...]})')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;completions' {
            [CompletionResult]::new('--hermes-home', '--hermes-home', [CompletionResultType]::ParameterName, 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Hermes config file [default: <hermes home>/config.yaml]')
            [CompletionResult]::new('--user-hooks', '--user-hooks', [CompletionResultType]::ParameterName, 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in human output [env: NO_COLOR disables it]')
            [CompletionResult]::new('--accept-hooks', '--accept-hooks', [CompletionResultType]::ParameterName, 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still show)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hermes-hooks;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every hook with its matcher, timeout, consent and script state')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run an event''s hooks against a synthetic payload and show what each one answered')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Answer events read as JSON lines on stdin, one JSON line each on stdout, keeping the hooks loaded between them (for agents that fire many events)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Review and approve hooks (asks on a terminal; --yes for scripts)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove the approvals of a command')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'Print the event table; with an event, its payloads and how a hook answers there')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Scaffold a hook that works as it is: an Agent Hooks folder, or a script and the hooks: entry to paste')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Wire an agent''s settings (claude-code, codex, gemini, cursor) to run these hooks')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove the wiring `install` wrote into an agent''s settings')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show recent decisions from the audit log: which hook blocked what, and why')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hermes-hooks;help;list' {
            break
        }
        'hermes-hooks;help;test' {
            break
        }
        'hermes-hooks;help;doctor' {
            break
        }
        'hermes-hooks;help;run' {
            break
        }
        'hermes-hooks;help;serve' {
            break
        }
        'hermes-hooks;help;approve' {
            break
        }
        'hermes-hooks;help;revoke' {
            break
        }
        'hermes-hooks;help;events' {
            break
        }
        'hermes-hooks;help;new' {
            break
        }
        'hermes-hooks;help;install' {
            break
        }
        'hermes-hooks;help;uninstall' {
            break
        }
        'hermes-hooks;help;log' {
            break
        }
        'hermes-hooks;help;completions' {
            break
        }
        'hermes-hooks;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
