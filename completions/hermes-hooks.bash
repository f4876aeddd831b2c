
_hermes_hooks() {
    local IFS=$'\013'
    local words=("${COMP_WORDS[@]}")
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        words[COMP_CWORD]="$2"
    fi
    local space=true
    if compopt +o nospace 2> /dev/null; then
        space=false
    fi
    local reply
    reply=$(_CLAP_IFS="$IFS" _CLAP_COMPLETE_INDEX="$COMP_CWORD" COMPLETE=bash hermes-hooks -- "${words[@]}") || return
    local noglob=true
    if [[ $- != *f* ]]; then
        noglob=false
        set -f
    fi
    COMPREPLY=( $reply )
    if [[ $noglob == false ]]; then
        set +f
    fi
    if [[ $space == false && "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o bashdefault -o nosort -F _hermes_hooks hermes-hooks
else
    complete -o nospace -o bashdefault -F _hermes_hooks hermes-hooks
fi
