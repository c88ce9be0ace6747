#!/usr/bin/env bash
# The bash completion offers botdesk's commands, each command's options, and the names of the
# profiles that exist in the state directory.
source "$BD_SRCDIR/tests/lib.sh"
[ -f /usr/share/bash-completion/bash_completion ] || bd_skip "bash-completion is not installed"
set +eu
source /usr/share/bash-completion/bash_completion
source "$BD_SRCDIR/data/botdesk.bash-completion"

complete_line() {
    COMP_LINE=$1
    read -r -a COMP_WORDS <<<"$1"
    # A trailing space starts a new, empty word.
    [ "${1: -1}" = " " ] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _botdesk botdesk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}

expect() {
    local line=$1 want=$2 got
    got=$(complete_line "$line")
    for w in $want; do
        case " $got " in *" $w "*) ;; *) bd_fail "'$line' does not offer $w (got: $got)" ;; esac
    done
}
refuse() {
    local line=$1 unwanted=$2 got
    got=$(complete_line "$line")
    case " $got " in *" $unwanted "*) bd_fail "'$line' offers $unwanted (got: $got)" ;; esac
}

expect "botdesk " "start stop status env exec run install thumbnail doctor take release lease --profile --version"
expect "botdesk take " "--reason --json"
expect "botdesk lease " "--json"
expect "botdesk st" "start stop status"
refuse "botdesk st" "env"
expect "botdesk start " "--wait --json"
expect "botdesk install " "--web --dry-run"
expect "botdesk env " "--shell"
expect "botdesk thumbnail " "--max --output"
expect "botdesk --profile work stop " "--json"

state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
mkdir -p "$state/work" "$state/research"
export BOTDESK_STATE_DIR=$state
expect "botdesk --profile " "work research"
expect "botdesk --profile re" "research"
refuse "botdesk --profile re" "work"
echo "completion: ok"
