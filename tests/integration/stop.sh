#!/usr/bin/env bash
# Invariant 7, stop: TERM to the launcher's group, KILL after the grace, done once no member is
# alive, a zombie counting as gone (how promptly init reaps must not change how long stop takes);
# launcher.pid, env and activity removed.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init

# A launcher with a child in its group, both leaving zombies behind under a parent that never
# reaps: hold-zombies is the subreaper the launcher is reparented to once `start` exits.
# (The launcher ends as a `sleep` that never reaps its child either, so both stay zombies.)
export BOTDESK_LAUNCHER=$(it_fake family <<'FAKE'
sleep 300 &
echo "$$ $!" >"$BD_MARKS/family"
fake_xlock $!
fake_publish
fake_hold
FAKE
)
it_run "$IT_HOLD_ZOMBIES" bash -c '
    set -u
    "$BOTDESK_BIN" start >/dev/null || exit 10
    read -r launcher child <"$BD_MARKS/family"
    "$BOTDESK_BIN" stop
    rc=$?
    # The precondition: what stop ended is still there, as zombies nobody reaped.
    state() { s=$(<"/proc/$1/stat"); s=${s##*) }; echo "${s%% *}"; }
    echo "launcher=$(state "$launcher") child=$(state "$child")"
    exit "$rc"'
it_expect_rc 0 "stop of a group whose dead members stay zombies"
it_expect_in "$OUT" "launcher=Z child=Z" "the group's members were left as zombies (the precondition)"
it_expect_in "$OUT" "stopped" "stop says it stopped the desktop"
it_expect_absent "$P/launcher.pid" "stop removes launcher.pid"
it_expect_absent "$P/env" "stop removes env"
it_expect_absent "$P/activity" "stop removes activity"

# A launcher that ignores TERM, with a child that does too: KILL after the grace, exit 0.
export BOTDESK_LAUNCHER=$(it_fake stubborn <<'FAKE'
trap '' TERM
bash -c 'trap "" TERM; exec sleep 300' &
echo "$$ $!" >"$BD_MARKS/stubborn"
fake_xlock $!
fake_publish
while :; do wait || true; done
FAKE
)
it_start
it_expect_present "$P/activity" "start stamps activity"
read -r launcher child <"$S/marks/stubborn"
it_bd stop
it_expect_rc 0 "stop of a launcher that ignores TERM"
it_expect_gone "$launcher" "a TERM-ignoring launcher is killed" 1
it_expect_gone "$child" "its TERM-ignoring child is killed" 1
[ -z "$(it_group_live "$launcher")" ] || bd_fail "members of the stopped group are alive"
it_expect_absent "$P/launcher.pid" "stop removes launcher.pid"
it_expect_absent "$P/env" "stop removes env"
it_expect_absent "$P/activity" "stop removes activity"
it_status
it_expect_eq "$J_running" false "status after stop"

# A stopped (SIGSTOP) member must not hold stop up until KILL either; it still ends.
export BOTDESK_LAUNCHER=$(it_fake frozen <<'FAKE'
sleep 300 &
echo "$$ $!" >"$BD_MARKS/frozen"
kill -STOP $!
fake_xlock $!
fake_publish
wait
FAKE
)
it_start
read -r launcher child <"$S/marks/frozen"
it_bd stop
it_expect_rc 0 "stop of a group with a stopped member"
it_expect_gone "$child" "the stopped member ends" 1

# Nothing running: exit 3, and --json says so.
it_bd stop --json
it_expect_rc 3 "stop with nothing running"
it_expect_eq "$(it_json stopped)" false "stop --json with nothing running"
echo "PASS"
