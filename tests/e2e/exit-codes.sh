#!/usr/bin/env bash
# Exit statuses keep their meaning, for every command: each row of exit-codes.tsv (a command, the
# state of the desktop it needs, the status, the arguments) runs as a real non-root user against
# one real desktop, brought down, up, and held by a human in turn. The commands come from the
# code: every command of `botdesk --list-commands` (runner/main.c's and act/acttable.c's tables)
# needs a row of usage (2), and every command whose handler checks that the desktop runs
# (need_running) or that the agent holds it (need_agent) needs a row of 3, or of 4; each must be
# in docs/CLI.md and botdesk(1) too. All mismatches are listed at once.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user_a

table=$BD_SRCDIR/tests/e2e/exit-codes.tsv
main_c=$BD_SRCDIR/runner/main.c
problems=()
problem() { problems+=("$*"); }

# The command names from the program's own table (--list-commands), and per handler what it
# checks first, from its source (runner/*.c): never from a list kept here.
declare -A handler=() checks=()
while read -r name _; do
    handler[$name]=unknown
done < <("$BOTDESK_BIN" --list-commands)
((${#handler[@]} >= 20)) || bd_fail "botdesk --list-commands named only ${#handler[@]} commands"
while read -r name fn; do
    [ -n "${handler[$name]:-}" ] && handler[$name]=$fn
done < <(
    grep -oE '\{"[a-z-]+", *cmd_[a-z_]+[,}]' "$main_c" | sed -E 's/\{"([a-z-]+)", *(cmd_[a-z_]+)[,}]/\1 \2/'
    # Every action of act/acttable.c is cmd_act's (main.c's action_command).
    grep -oE '^\s*\.name = "[a-z-]+",' "$BD_SRCDIR/act/acttable.c" | sed -E 's/.*"([a-z-]+)".*/\1 cmd_act/'
)
while read -r fn what; do
    checks[$fn]+=" $what"
done < <(awk '/^(static )?int cmd_[a-z_]+\(/ { fn = $0; sub(/^(static )?int /, "", fn); sub(/\(.*/, "", fn) }
    fn && /need_running\(/ { print fn, "running" }
    fn && /need_agent\(/ { print fn, "agent" }
    /^}/ { fn = "" }' "$BD_SRCDIR"/runner/*.c | sort -u)

# The table's rows, and what it covers per command.
declare -A has=()
rows=()
while IFS=$'\t' read -r cmd state want args; do
    [[ -z $cmd || $cmd == \#* ]] && continue
    [ -n "${handler[$cmd]:-}" ] || problem "exit-codes.tsv names '$cmd', which botdesk --list-commands does not"
    case $state in down | up | human) ;; *) bd_fail "exit-codes.tsv: '$state' is no state (row: $cmd $args)" ;; esac
    has[$cmd:$want]=1
    rows+=("$state"$'\t'"$want"$'\t'"$cmd"$'\t'"$args")
done <"$table"

for cmd in "${!handler[@]}"; do
    fn=${handler[$cmd]}
    [ "$fn" != unknown ] || problem "'$cmd' has no {\"$cmd\", cmd_...} entry in $main_c to read its checks from"
    [ -n "${has[$cmd:2]:-}" ] || problem "'$cmd' has no row of bad usage (exit 2) in exit-codes.tsv"
    if [[ ${checks[$fn]:-} == *running* && -z ${has[$cmd:3]:-} ]]; then
        problem "'$cmd' checks that the desktop runs ($fn) but has no row of exit 3"
    fi
    if [[ ${checks[$fn]:-} == *agent* && -z ${has[$cmd:4]:-} ]]; then
        problem "'$cmd' checks that the agent holds the desktop ($fn) but has no row of exit 4"
    fi
    grep -q "^| \`${cmd}[ \`]" "$BD_SRCDIR/docs/CLI.md" || problem "'$cmd' is not in docs/CLI.md's tables"
    grep -q "^\*$cmd\*" "$BD_SRCDIR/docs/botdesk.1.scd" || problem "'$cmd' is not in botdesk(1)'s commands"
done

# @RO@: a file in a directory its owner may not write (0555), so creating the temporary beside
# it fails with EACCES, the errno a human's lease was once told apart by.
rodir=$E2E_SCRATCH/ro-$U
mkdir -p "$rodir"
bd_is_root && chown "$U:" "$rodir"
chmod 0555 "$rodir"
noread=$E2E_SCRATCH/noread-$U
: >"$noread"
bd_is_root && chown "$U:" "$noread"
chmod 0000 "$noread"

run_rows() {
    local phase=$1 row state want cmd args a n
    local -a words argv
    for row in "${rows[@]}"; do
        IFS=$'\t' read -r state want cmd args <<<"$row"
        [ "$state" = "$phase" ] || continue
        # Split at spaces without globbing.
        IFS=' ' read -r -a words <<<"$args"
        argv=()
        for a in "${words[@]}"; do
            case $a in
            @RO@) a=$rodir/out.png ;;
            @NOREAD@) a=$noread ;;
            @OTHER@) a=root ;;
            esac
            argv+=("$a")
        done
        RC=0 n=${#problems[@]}
        BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" "$cmd" "${argv[@]}" </dev/null \
            >"$E2E_SCRATCH/row.out" 2>"$E2E_SCRATCH/row.err" || RC=$?
        if [ "$RC" != "$want" ]; then
            problem "botdesk $cmd $args ($phase): exit $RC, expected $want; stderr: $(head -c 300 "$E2E_SCRATCH/row.err")"
        elif [ "$want" = 4 ] && ! grep -q 'a human holds the desktop of profile' "$E2E_SCRATCH/row.err"; then
            problem "botdesk $cmd $args ($phase): exit 4 without saying a human holds it: $(head -c 300 "$E2E_SCRATCH/row.err")"
        elif [ "$want" != 0 ] && [ ! -s "$E2E_SCRATCH/row.err" ] && [ "$want" != 3 ]; then
            problem "botdesk $cmd $args ($phase): exit $RC with nothing on stderr"
        fi
        ((${#problems[@]} > n)) || echo "ok: $phase: botdesk $cmd $args -> $RC"
    done
}

run_rows down

# One desktop for every row that needs it: the agent's, then the human's.
e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
run_rows up
e2e_bd "$U" "$ST" take --reason "exit-codes test"
e2e_expect_rc 0 "take"
run_rows human
e2e_bd "$U" "$ST" release
e2e_expect_rc 0 "release"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"

if ((${#problems[@]})); then
    printf 'FAIL: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "every command of runner/main.c exits as documented (${#rows[@]} rows)"
