#!/usr/bin/env bash
# The idle stop on real Xvnc, with a 2-second setting (0.034 min): an unused desktop stops by
# itself (the session, no cron job), a desktop a human holds does not, and once they hand it
# back it stops after the same idle time. status says when.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST
P=$ST/default
export BOTDESK_IDLE_STOP_MINUTES=0.034

e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start"
[ "$(e2e_json idle_stop_seconds)" = 2 ] || bd_fail "status: $OUT"
[[ $(e2e_json stop_in_seconds) =~ ^[0-2]$ ]] || bd_fail "status says no stop is due: $OUT"
launcher=$(e2e_json pid)
bd_wait_gone "$launcher" 15 || bd_fail "an unused desktop with a 2 s idle stop still runs after 15 s"
grep -q 'stopping the desktop: unused for 2 s' "$P/launcher.log" || bd_fail "the log: $(tail -3 "$P/launcher.log")"
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json running)" = false ] || bd_fail "status after the idle stop: $OUT"

# Held by a human: the desktop outlives three idle periods.
e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start again"
launcher=$(e2e_json pid)
e2e_bd "$U" "$ST" take
e2e_expect_rc 0 "take"
if bd_wait_gone "$launcher" 7; then
    bd_fail "the desktop stopped while a human held it"
fi
e2e_bd "$U" "$ST" status
[[ $OUT == *"no idle stop while a human holds it"* ]] || bd_fail "status: $OUT"
e2e_bd "$U" "$ST" release
bd_wait_gone "$launcher" 15 || bd_fail "the desktop did not stop after the hand-back"

# 0 turns it off.
BOTDESK_IDLE_STOP_MINUTES=0 e2e_bd "$U" "$ST" status --json
[ "$(e2e_json idle_stop_seconds)" = null ] || bd_fail "idle_stop_minutes 0: $OUT"
echo "ok: an unused desktop stops by itself, a held one does not"
