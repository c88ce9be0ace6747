#!/usr/bin/env bash
# SIGKILL the session supervisor: status says not running at once, and the next start comes up
# again; stop then leaves nothing. The desktop's parts end with their session (PR_SET_PDEATHSIG,
# tests/e2e/session-kill.sh), so whatever the next start still finds is reaped through its lock.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST

e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start"
launcher=$(e2e_json pid)
[[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
n=${BASH_REMATCH[1]}
old=$(e2e_desktop_pids "$launcher")

kill -KILL "$launcher"
# Its parent is init, which reaps when it gets to it: a zombie counts as gone, so poll for that
# rather than wait for the pid to vanish.
for _ in $(seq 100); do
    bd_gone "$launcher" && break
    sleep 0.05
done
bd_gone "$launcher" || bd_fail "the launcher survived SIGKILL"
e2e_bd "$U" "$ST" status --json
e2e_expect_rc 0 "status"
[ "$(e2e_json running)" = false ] || bd_fail "status says running with a dead launcher: $OUT"
e2e_bd "$U" "$ST" env
e2e_expect_rc 3 "env with a dead launcher"

e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start after the launcher was killed"
[ "$(e2e_json running)" = true ] || bd_fail "not running after the second start: $OUT"
new=$(e2e_json pid)
[ "$new" != "$launcher" ] || bd_fail "the same launcher pid"
left=$(for x in $old; do bd_gone "$x" || echo "$x $(tr '\0' ' ' <"/proc/$x/cmdline")"; done)
[ -z "$left" ] || bd_fail "the orphaned desktop was not reaped: $left"
e2e_bd "$U" "$ST" exec -- xdpyinfo
e2e_expect_rc 0 "exec xdpyinfo on the new desktop"

e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json running)" = false ] || bd_fail "running after stop"
echo "ok: the orphan of a SIGKILLed launcher was reaped and the desktop came back"
