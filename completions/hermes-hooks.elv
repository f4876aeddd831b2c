
use builtin;
use str;

set edit:completion:arg-completer[hermes-hooks] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'hermes-hooks'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'hermes-hooks'= {
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List every hook with its matcher, timeout, consent and script state'
            cand ls 'List every hook with its matcher, timeout, consent and script state'
            cand test 'Run an event''s hooks against a synthetic payload and show what each one answered'
            cand doctor 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)'
            cand run 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked'
            cand serve 'Answer events read as JSON lines on stdin, one JSON line each on stdout, keeping the hooks loaded between them (for agents that fire many events)'
            cand approve 'Review and approve hooks (asks on a terminal; --yes for scripts)'
            cand revoke 'Remove the approvals of a command'
            cand remove 'Remove the approvals of a command'
            cand rm 'Remove the approvals of a command'
            cand events 'Print the event table; with an event, its payloads and how a hook answers there'
            cand new 'Scaffold a hook that works as it is: an Agent Hooks folder, or a script and the hooks: entry to paste'
            cand install 'Wire an agent''s settings (claude-code, codex, gemini, cursor) to run these hooks'
            cand uninstall 'Remove the wiring `install` wrote into an agent''s settings'
            cand log 'Show recent decisions from the audit log: which hook blocked what, and why'
            cand completions 'Print the completion script for a shell (bash, zsh, fish, elvish, powershell)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hermes-hooks;list'= {
            cand --event 'Only this event''s hooks (any of its names)'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand -l 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
            cand --long 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
            cand --json 'Print one JSON document instead of the table'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;ls'= {
            cand --event 'Only this event''s hooks (any of its names)'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand -l 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
            cand --long 'One record per hook with where it is declared, when it was approved, its sha256, what `run` would do with it now, and for a changed script the diff since approval'
            cand --json 'Print one JSON document instead of the table'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;test'= {
            cand --for-tool 'Set tool_name in the payload and apply tool matchers'
            cand --payload-file 'A payload merged over the synthetic one, key by key; any shape (keyword arguments, the Hermes wire with tool_input and extra, an Agent Hooks payload)'
            cand --expect 'Exit 1 unless the aggregated directive is this one, answered by the hooks themselves'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --json 'Print one JSON document instead of the report'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;doctor'= {
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --no-exec 'Skip the smoke runs: execute no hook'
            cand --strict 'Exit 1 on warnings too'
            cand --json 'Print the findings as one JSON document'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;run'= {
            cand --payload-file 'Read the payload from FILE (''-'' for stdin) instead of stdin'
            cand --agent 'Read the event name and payload as AGENT sends them and answer in its contract: its own JSON (or nothing) on stdout and the exit code it reads [default: hermes, the answer line]'
            cand --audit-log 'Append one JSON line per event (each hook''s command, script sha256, status, directive) to FILE [env: HERMES_HOOKS_AUDIT_LOG]'
            cand --gate-limit 'On pre_verify, "keep working" answers honoured in a row per session before the agent is let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --dry-run 'Check matchers and consent and report what would run; run nothing, write nothing'
            cand --audit-payload 'Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]'
            cand --fail-closed 'When the runner cannot check a call (a config or HOOK.md that does not parse, a payload it cannot read, an unreadable allowlist), block it instead of letting it go on, on events where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;serve'= {
            cand --audit-log 'Append one JSON line per event (each hook''s command, script sha256, status, directive) to FILE [env: HERMES_HOOKS_AUDIT_LOG]'
            cand --gate-limit 'On pre_verify, "keep working" answers honoured in a row per session before the agent is let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --audit-payload 'Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]'
            cand --fail-closed 'When the runner cannot check a call (a config or HOOK.md that does not parse, a payload it cannot read, an unreadable allowlist), block it instead of letting it go on, on events where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;approve'= {
            cand --event 'Only hooks of this event (any of its names)'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --all 'Also re-approve hooks that are approved already, pinning their current content'
            cand -y 'Approve without asking (for scripts and CI); without a terminal, approve refuses unless this is given'
            cand --yes 'Approve without asking (for scripts and CI); without a terminal, approve refuses unless this is given'
            cand --json 'Print one JSON document instead of a line per hook'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;revoke'= {
            cand --event 'Only the approval for this event (any of its names)'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --json 'Print one JSON document instead of a sentence'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;remove'= {
            cand --event 'Only the approval for this event (any of its names)'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --json 'Print one JSON document instead of a sentence'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;rm'= {
            cand --event 'Only the approval for this event (any of its names)'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --json 'Print one JSON document instead of a sentence'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;events'= {
            cand --agent 'List the events as AGENT fires them (`run --agent AGENT` takes these names): each with the event it stands for and what hooks can do there for that agent'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --json 'Print one JSON document ({"schema_version", "events": [...]}, or the event''s details)'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;new'= {
            cand --event 'The event it runs on: canonical, Agent Hooks or Claude Code name'
            cand --matcher 'Run only for tools whose whole name matches this regex (tool events only)'
            cand --lang 'The script''s language'
            cand --project 'An Agent Hooks folder in <DIR>/.agents/hooks/ (the default; DIR: the project root)'
            cand --config 'A script in <hermes home>/agent-hooks/ and the hooks: entry to paste into FILE [default: <hermes home>/config.yaml]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --user 'An Agent Hooks folder at user level (--user-hooks, default ~/.config/agents/hooks)'
            cand --json 'Print one JSON document: what was written and what to do next'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;install'= {
            cand --project 'The project''s settings (the default; DIR: the project root) [default: the project found from the current directory, else the repository root, else the current directory]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --user 'The agent''s user settings (in the home folder)'
            cand --dry-run 'Print the change as a unified diff on stdout and write nothing'
            cand --json 'Print one JSON document: the file, each event''s change, the backup, what is left to do'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;uninstall'= {
            cand --project 'The project''s settings (the default; DIR: the project root) [default: the project found from the current directory, else the repository root, else the current directory]'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --user 'The agent''s user settings (in the home folder)'
            cand --dry-run 'Print the change as a unified diff on stdout and write nothing'
            cand --json 'Print one JSON document: the file, each event''s change, the backup, what is left to do'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;log'= {
            cand --audit-log 'The audit log to read [env: HERMES_HOOKS_AUDIT_LOG]'
            cand --event 'Only runs of this event (any of its names)'
            cand --session 'Only runs of this session id'
            cand --status 'Only hooks with this status (ok, blocked, unapproved, changed, failed, timed_out, ...)'
            cand --run 'Show one decision whole: every hook of the run with this id (a prefix that names one)'
            cand -n 'Show the last N rows; 0 shows all'
            cand --limit 'Show the last N rows; 0 shows all'
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --blocked 'Only hooks that blocked (or, on pre_verify, asked to keep working)'
            cand --all 'Also show hooks that did not run, or whose matcher passed over the call'
            cand --json 'Print one JSON document ({"schema_version", "log", "rows": [...]})'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;completions'= {
            cand --hermes-home 'Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]'
            cand --config 'Hermes config file [default: <hermes home>/config.yaml]'
            cand --user-hooks 'User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else ~/.config/agents/hooks]'
            cand --project 'Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest folder with .agents/hooks from the current directory (for `run`, `serve` and `test --payload-file`, the payload''s cwd) up to the repository root, skipping one another user owns]'
            cand --color 'Colour in human output [env: NO_COLOR disables it]'
            cand --accept-hooks 'Approve unapproved or changed hooks on the spot (recording their sha256) and run them [env: HERMES_ACCEPT_HOOKS=1] [config: hooks_auto_accept: true]'
            cand -q 'Print no warnings or notes on stderr (errors still show)'
            cand --quiet 'Print no warnings or notes on stderr (errors still show)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hermes-hooks;help'= {
            cand list 'List every hook with its matcher, timeout, consent and script state'
            cand test 'Run an event''s hooks against a synthetic payload and show what each one answered'
            cand doctor 'Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)'
            cand run 'Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked'
            cand serve 'Answer events read as JSON lines on stdin, one JSON line each on stdout, keeping the hooks loaded between them (for agents that fire many events)'
            cand approve 'Review and approve hooks (asks on a terminal; --yes for scripts)'
            cand revoke 'Remove the approvals of a command'
            cand events 'Print the event table; with an event, its payloads and how a hook answers there'
            cand new 'Scaffold a hook that works as it is: an Agent Hooks folder, or a script and the hooks: entry to paste'
            cand install 'Wire an agent''s settings (claude-code, codex, gemini, cursor) to run these hooks'
            cand uninstall 'Remove the wiring `install` wrote into an agent''s settings'
            cand log 'Show recent decisions from the audit log: which hook blocked what, and why'
            cand completions 'Print the completion script for a shell (bash, zsh, fish, elvish, powershell)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hermes-hooks;help;list'= {
        }
        &'hermes-hooks;help;test'= {
        }
        &'hermes-hooks;help;doctor'= {
        }
        &'hermes-hooks;help;run'= {
        }
        &'hermes-hooks;help;serve'= {
        }
        &'hermes-hooks;help;approve'= {
        }
        &'hermes-hooks;help;revoke'= {
        }
        &'hermes-hooks;help;events'= {
        }
        &'hermes-hooks;help;new'= {
        }
        &'hermes-hooks;help;install'= {
        }
        &'hermes-hooks;help;uninstall'= {
        }
        &'hermes-hooks;help;log'= {
        }
        &'hermes-hooks;help;completions'= {
        }
        &'hermes-hooks;help;help'= {
        }
    ]
    $completions[$command]
}
