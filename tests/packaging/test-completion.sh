#!/usr/bin/env bash
# The bash completion offers botdesk's commands, each command's options, and the names of the
# profiles that exist in the state directory. Every command of the runner's tables (runner/main.c)
# and every action's options (act/acttable.c, through botdesk --list-commands) complete.
source "$BD_SRCDIR/tests/lib.sh"
# The completion asks the botdesk it completes for its table: the build's, first on PATH.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$BOTDESK_BIN" "$bin/botdesk"
export PATH=$bin:$PATH
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

# The tables in the source (runner/main.c's commands, then act/acttable.c's
# actions): the binary lists exactly these, and each completes.
table=$({
    sed -n '/^static const struct command commands\[\] = {$/,/^};$/p' "$BD_SRCDIR/runner/main.c" |
        grep -o '{"[a-z-]*", cmd_' | sed 's/{"\([a-z-]*\)".*/\1/'
    # A name with verbs (clipboard get, clipboard set) is one command.
    grep -oE '^\s*\.name = "[a-z-]+",' "$BD_SRCDIR/act/acttable.c" | sed -E 's/.*"([a-z-]+)".*/\1/' | uniq
})
[ "$(wc -l <<<"$table")" -ge 25 ] || bd_fail "the command and action tables were not found: $table"
listed=$("$BOTDESK_BIN" --list-commands) || bd_fail "botdesk --list-commands failed"
[ "$(awk '{ print $1 }' <<<"$listed")" = "$table" ] ||
    bd_fail "botdesk --list-commands differs from the tables: $(diff <(echo "$table") <(awk '{ print $1 }' <<<"$listed"))"
for c in $table; do
    expect "botdesk " "$c"
    expect "botdesk --profile work " "$c"
done
expect "botdesk " "mcp click move drag scroll cursor type key screenshot wait-idle wait-change"
# Each action's options, as the parser takes them (its row's in act/acttable.c).
expect "botdesk click " "--button --double --from --json"
expect "botdesk scroll " "--up --down --left --right --from"
expect "botdesk type " "--file --delay"
expect "botdesk key " "--press --release --delay"
expect "botdesk screenshot " "--max --region --format --quality --output"
expect "botdesk wait-idle " "--timeout --quiet"
expect "botdesk clipboard " "--primary --json"
expect "botdesk windows " "--json"
expect "botdesk wait-change " "--timeout"
refuse "botdesk screenshot " "--json"
refuse "botdesk move " "--button"
while read -r c opts; do
    [ -z "$opts" ] || expect "botdesk $c " "$opts"
done <<<"$listed"

state=$(mktemp -d)
trap 'rm -rf "$state" "$bin"' EXIT
mkdir -p "$state/work" "$state/research"
export BOTDESK_STATE_DIR=$state
expect "botdesk --profile " "work research"
expect "botdesk --profile re" "research"
refuse "botdesk --profile re" "work"
echo "completion: ok"
