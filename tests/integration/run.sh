#!/usr/bin/env bash
# botdesk run: the desktop in the foreground. It starts (or adopts) the desktop and stays; TERM or
# INT stops the desktop cleanly and exits 0; the desktop dying on its own exits non-zero with the
# reason.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init

export BOTDESK_LAUNCHER=$(it_fake up <<'FAKE'
sleep 300 &
fake_xlock $!
fake_publish
fake_note up "$$ $!"
wait
FAKE
)

# run_ready NAME: waits (bounded, on inotify through tail -F) until the foreground botdesk NAME
# says it is watching its desktop, then prints its pid.
export BOTDESK_DEBUG=1
run_ready() {
    timeout 10 grep -m1 -q "running in the foreground" <(tail -n +1 -F "$S/out/$1.err" 2>/dev/null) ||
        bd_fail "botdesk run ($1) never reached the foreground: $(cat "$S/out/$1.err")"
    pgrep -u "$U" -f -- "$BOTDESK_BIN run" | head -1
}

for sig in TERM INT; do
    rm -f "$S/marks/up"
    it_bd_bg "fg$sig" run
    it_wait_file 10 "$S/marks/up" || bd_fail "botdesk run did not start the desktop"
    read -r launcher child <"$S/marks/up"
    pid=$(run_ready "fg$sig")
    it_status
    it_expect_eq "$J_running" true "the desktop runs while botdesk run is in the foreground"
    kill -"$sig" "$pid"
    it_bd_collect "fg$sig" 20
    it_expect_rc 0 "botdesk run stopped by SIG$sig"
    it_expect_gone "$launcher" "SIG$sig to botdesk run stops the launcher"
    it_expect_gone "$child" "and everything in its group"
    it_expect_absent "$P/launcher.pid" "a clean stop leaves no launcher.pid"
    it_status
    it_expect_eq "$J_running" false "not running after botdesk run ended"
done

# Adopting a running desktop: run does not start a second launcher, and a TERM stops that one.
it_start
adopted=$J_pid
spawns=$(it_spawns)
it_bd_bg adopt run
pid=$(run_ready adopt)
it_expect_eq "$(it_spawns)" "$spawns" "botdesk run adopts the running desktop instead of spawning"
kill -TERM "$pid"
it_bd_collect adopt 20
it_expect_rc 0 "botdesk run of an adopted desktop stopped by TERM"
it_expect_gone "$adopted" "the adopted launcher is stopped"

# The desktop dying on its own: run exits non-zero and says why.
rm -f "$S/marks/up"
it_bd_bg dies run
it_wait_file 10 "$S/marks/up" || bd_fail "botdesk run did not start the desktop"
read -r launcher child <"$S/marks/up"
run_ready dies >/dev/null
kill -KILL "$child" "$launcher"
it_bd_collect dies 20
it_expect_ne "$RC" 0 "botdesk run exits non-zero when the desktop dies on its own"
it_expect_in "$ERR" "ended on its own" "and says the desktop ended on its own"
it_expect_in "$ERR" "launcher.log" "and where its log is"

# TERM while the desktop is still starting: the launch is taken down and run exits 0, as for any
# TERM (a container being stopped early is no failure).
export BOTDESK_LAUNCHER=$(it_fake slow <<'FAKE'
fake_note slow "$$"
fake_hold
FAKE
)
rm -f "$S/marks/slow"
it_bd_bg early run --wait 60
it_wait_file 10 "$S/marks/slow" || bd_fail "botdesk run did not spawn the slow launcher"
slow=$(<"$S/marks/slow")
pid=$(pgrep -u "$U" -f -- "$BOTDESK_BIN run" | head -1)
kill -TERM "$pid"
it_bd_collect early 20
it_expect_rc 0 "botdesk run told to stop while the desktop starts"
it_expect_gone "$slow" "the half-started launcher is taken down"
it_expect_absent "$P/launcher.pid" "and not recorded"
echo "PASS"
