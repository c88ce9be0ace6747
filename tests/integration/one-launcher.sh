#!/usr/bin/env bash
# Invariant 4, one launcher per profile: concurrent starts of one profile spawn one launcher and
# all report its pid; a start of a running profile reports it and spawns nothing.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
# Slow to come up, so the starts overlap for the whole bring-up.
BOTDESK_LAUNCHER=$(it_fake slow <<'FAKE'
sleep 0.5
fake_up
FAKE
)
export BOTDESK_LAUNCHER

for name in a b c; do
    it_bd_bg "$name" start --json
done
pids=()
for name in a b c; do
    it_bd_collect "$name"
    it_expect_rc 0 "concurrent start $name"
    it_expect_eq "$(it_json running)" true "concurrent start $name reports a running desktop"
    pids+=("$(it_json pid)")
done
it_expect_eq "$(it_spawns)" 1 "three concurrent starts of one profile spawn one launcher"
it_expect_eq "${pids[1]}" "${pids[0]}" "every concurrent start reports the one launcher"
it_expect_eq "${pids[2]}" "${pids[0]}" "every concurrent start reports the one launcher"
it_expect_eq "$(it_launcher_pid)" "${pids[0]}" "launcher.pid names the one launcher"

# Starting a running profile only reports it.
it_start
it_expect_eq "$J_pid" "${pids[0]}" "start of a running profile reports its launcher"
it_expect_eq "$(it_spawns)" 1 "start of a running profile spawns nothing"
it_expect_alive "${pids[0]}" "the running launcher"

# Another profile at the same time is not held back by this one's start lock.
it_start --profile other
it_expect_ne "$J_pid" "${pids[0]}" "another profile gets its own launcher"
it_expect_eq "$(it_spawns)" 2 "one launcher per profile"
it_bd stop
it_expect_rc 0 "stop"
it_bd --profile other stop
it_expect_rc 0 "stop of the other profile"

# A stop during a start waits for it (the start lock), then stops what it brought up.
gate=$(it_fifo publish)
export BOTDESK_LAUNCHER=$(it_fake gated <<FAKE
fake_xlock
: >"\$BD_MARKS/gated-running"
fake_gate $gate
fake_publish
fake_hold
FAKE
)
it_bd_bg starting --profile serial start --json
it_wait_file 10 "$S/marks/gated-running" || bd_fail "the gated launcher never ran"
it_watch open "$BOTDESK_STATE_DIR/serial/start.lock"
it_bd_bg stopping --profile serial stop
# Once the stop has opened the start lock it can only go on when the start lets go of it.
it_watch_wait || bd_fail "the stop never opened the profile's start lock"
it_expect_absent "$S/out/stopping.rc" "stop finished while a start of the profile was under way"
it_open_gate "$gate"
it_bd_collect starting
it_expect_rc 0 "the start a stop waited for"
launcher=$(it_json pid)
it_bd_collect stopping
it_expect_rc 0 "the stop that waited for a start stops its desktop"
it_expect_gone "$launcher" "the desktop the start brought up is stopped"
echo "PASS"
