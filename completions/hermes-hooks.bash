_hermes__hooks() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="hermes__hooks"
                ;;
            hermes__hooks,approve)
                cmd="hermes__hooks__subcmd__approve"
                ;;
            hermes__hooks,completions)
                cmd="hermes__hooks__subcmd__completions"
                ;;
            hermes__hooks,doctor)
                cmd="hermes__hooks__subcmd__doctor"
                ;;
            hermes__hooks,events)
                cmd="hermes__hooks__subcmd__events"
                ;;
            hermes__hooks,help)
                cmd="hermes__hooks__subcmd__help"
                ;;
            hermes__hooks,install)
                cmd="hermes__hooks__subcmd__install"
                ;;
            hermes__hooks,list)
                cmd="hermes__hooks__subcmd__list"
                ;;
            hermes__hooks,log)
                cmd="hermes__hooks__subcmd__log"
                ;;
            hermes__hooks,ls)
                cmd="hermes__hooks__subcmd__list"
                ;;
            hermes__hooks,new)
                cmd="hermes__hooks__subcmd__new"
                ;;
            hermes__hooks,remove)
                cmd="hermes__hooks__subcmd__revoke"
                ;;
            hermes__hooks,revoke)
                cmd="hermes__hooks__subcmd__revoke"
                ;;
            hermes__hooks,rm)
                cmd="hermes__hooks__subcmd__revoke"
                ;;
            hermes__hooks,run)
                cmd="hermes__hooks__subcmd__run"
                ;;
            hermes__hooks,serve)
                cmd="hermes__hooks__subcmd__serve"
                ;;
            hermes__hooks,test)
                cmd="hermes__hooks__subcmd__test"
                ;;
            hermes__hooks,uninstall)
                cmd="hermes__hooks__subcmd__uninstall"
                ;;
            hermes__hooks__subcmd__help,approve)
                cmd="hermes__hooks__subcmd__help__subcmd__approve"
                ;;
            hermes__hooks__subcmd__help,completions)
                cmd="hermes__hooks__subcmd__help__subcmd__completions"
                ;;
            hermes__hooks__subcmd__help,doctor)
                cmd="hermes__hooks__subcmd__help__subcmd__doctor"
                ;;
            hermes__hooks__subcmd__help,events)
                cmd="hermes__hooks__subcmd__help__subcmd__events"
                ;;
            hermes__hooks__subcmd__help,help)
                cmd="hermes__hooks__subcmd__help__subcmd__help"
                ;;
            hermes__hooks__subcmd__help,install)
                cmd="hermes__hooks__subcmd__help__subcmd__install"
                ;;
            hermes__hooks__subcmd__help,list)
                cmd="hermes__hooks__subcmd__help__subcmd__list"
                ;;
            hermes__hooks__subcmd__help,log)
                cmd="hermes__hooks__subcmd__help__subcmd__log"
                ;;
            hermes__hooks__subcmd__help,new)
                cmd="hermes__hooks__subcmd__help__subcmd__new"
                ;;
            hermes__hooks__subcmd__help,revoke)
                cmd="hermes__hooks__subcmd__help__subcmd__revoke"
                ;;
            hermes__hooks__subcmd__help,run)
                cmd="hermes__hooks__subcmd__help__subcmd__run"
                ;;
            hermes__hooks__subcmd__help,serve)
                cmd="hermes__hooks__subcmd__help__subcmd__serve"
                ;;
            hermes__hooks__subcmd__help,test)
                cmd="hermes__hooks__subcmd__help__subcmd__test"
                ;;
            hermes__hooks__subcmd__help,uninstall)
                cmd="hermes__hooks__subcmd__help__subcmd__uninstall"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        hermes__hooks)
            opts="-q -h -V --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version list ls test doctor run serve approve revoke remove rm events new install uninstall log completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__approve)
            opts="-y -q -h -V --event --all --yes --json --accept-hooks --hermes-home --config --user-hooks --project --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --event)
                    COMPREPLY=($(compgen -W "pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__completions)
            opts="-q -h -V --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__doctor)
            opts="-q -h -V --no-exec --strict --json --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__events)
            opts="-q -h -V --json --agent --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -W "hermes claude-code codex gemini cursor" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help)
            opts="list test doctor run serve approve revoke events new install uninstall log completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__approve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__doctor)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__events)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__install)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__log)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__new)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__test)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__help__subcmd__uninstall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__install)
            opts="-q -h -V --user --project --dry-run --json --accept-hooks --color --hermes-home --config --user-hooks --quiet --help --version claude-code codex gemini cursor hermes"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__list)
            opts="-l -q -h -V --event --long --json --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --event)
                    COMPREPLY=($(compgen -W "pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__log)
            opts="-n -q -h -V --audit-log --event --session --blocked --status --run --all --limit --json --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -W "pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact" -- "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -W "ok blocked modified context gated not_matched unapproved changed not_run async failed timed_out spawn_failed invalid_output" -- "${cur}"))
                    return 0
                    ;;
                --run)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__new)
            opts="-q -h -V --event --matcher --lang --project --user --config --json --accept-hooks --color --hermes-home --user-hooks --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --event)
                    COMPREPLY=($(compgen -W "pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact" -- "${cur}"))
                    return 0
                    ;;
                --matcher)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "sh python" -- "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__revoke)
            opts="-q -h -V --event --json --accept-hooks --color --hermes-home --config --user-hooks --project --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --event)
                    COMPREPLY=($(compgen -W "pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__run)
            opts="-q -h -V --payload-file --dry-run --agent --audit-log --audit-payload --gate-limit --fail-closed --color --hermes-home --config --user-hooks --project --accept-hooks --quiet --help --version pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --payload-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -W "hermes claude-code codex gemini cursor" -- "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gate-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__serve)
            opts="-q -h -V --audit-log --audit-payload --gate-limit --fail-closed --color --hermes-home --config --user-hooks --project --accept-hooks --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gate-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__test)
            opts="-q -h -V --for-tool --payload-file --expect --json --hermes-home --config --user-hooks --project --accept-hooks --color --quiet --help --version pre_tool_call pre-tool-call post_tool_call post-tool-call post-tool-call-failure pre_llm_call pre-agent-turn post_llm_call post-agent-turn pre_verify pre-agent-turn-stop on_session_start pre-session on_session_end post-session subagent_start pre-subagent subagent_stop post-subagent on_session_finalize on_session_reset pre_api_request post_api_request api_request_error pre_approval_request post_approval_response agent_loop_stopped gateway_platform_event kanban_task_blocked kanban_task_claimed kanban_task_completed on_interim_message on_kanban_dispatch_tick on_kanban_task_updated on_kanban_worker_exited on_kanban_worker_spawned on_kanban_worker_stale_claim on_room_member_activity on_skill_lifecycle on_stream_delta on_stream_end on_stream_start pre_command pre_gateway_dispatch pre_transcription transform_api_error_classification transform_llm_output transform_terminal_output transform_tool_result post-agent-turn-stop pre-context-compact post-context-compact PreToolUse PostToolUse PostToolUseFailure UserPromptSubmit Stop SubagentStart SubagentStop SessionStart SessionEnd PreCompact"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --for-tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --payload-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expect)
                    COMPREPLY=($(compgen -W "block modify context continue none" -- "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        hermes__hooks__subcmd__uninstall)
            opts="-q -h -V --user --project --dry-run --json --hermes-home --config --user-hooks --accept-hooks --color --quiet --help --version claude-code codex gemini cursor hermes"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hermes-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user-hooks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _hermes__hooks -o nosort -o bashdefault -o default hermes-hooks
else
    complete -F _hermes__hooks -o bashdefault -o default hermes-hooks
fi
