#!/usr/bin/env bash
# botdesk run: the desktop in the foreground. It starts (or adopts) the desktop, says once that it
# is usable, and stays; TERM or INT stops the desktop cleanly, as does its owner's `botdesk stop`,
# and both exit 0 with a line saying what stopped it; the desktop dying on its own exits non-zero
# with the reason.
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
# says its desktop is usable, then prints its pid. That line is what `docker logs` and the journal
# show: the display, the socket and how to view it.
run_ready() {
    timeout 10 grep -m1 -q "running on display :4[0-9] (launcher pid [0-9]*); view it with 'vncviewer $P/rfb.sock'" \
        <(tail -n +1 -F "$S/out/$1.out" 2>/dev/null) ||
        bd_fail "botdesk run ($1) never said its desktop is up: $(cat "$S/out/$1.out" "$S/out/$1.err")"
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
    it_expect_eq "$(tail -1 <<<"$OUT")" "desktop of profile 'default' stopped on SIG$sig" \
        "botdesk run's last line says what stopped the desktop"
    it_expect_eq "$(wc -l <<<"$OUT")" 2 "botdesk run says two lines: up, and the end"
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

# `botdesk stop` by the owner: run ends with 0 (a service manager must not bring the desktop
# back) and says who stopped it.
rm -f "$S/marks/up"
it_bd_bg owner run
it_wait_file 10 "$S/marks/up" || bd_fail "botdesk run did not start the desktop"
read -r launcher child <"$S/marks/up"
run_ready owner >/dev/null
it_bd stop
it_expect_rc 0 "botdesk stop of a desktop botdesk run watches"
it_bd_collect owner 20
it_expect_rc 0 "botdesk run whose desktop its owner stopped"
it_expect_in "$(tail -1 <<<"$OUT")" "desktop of profile 'default' stopped by 'botdesk stop' (pid " \
    "botdesk run says botdesk stop stopped it"
it_expect_in "$(tail -1 <<<"$OUT")" ", user $U)" "and whose stop it was"
it_expect_gone "$child" "the stopped desktop's processes are gone"
it_expect_absent "$P/stopped" "botdesk run consumed the stop's note"

# A stop nobody watched leaves its note; it must not excuse a later desktop that dies.
it_start
it_bd stop
it_expect_present "$P/stopped" "a stop with no botdesk run watching leaves its note (the precondition)"

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
it_expect_in "$OUT" "stopped on a signal while it was starting" "and it says so"
it_expect_gone "$slow" "the half-started launcher is taken down"
it_expect_absent "$P/launcher.pid" "and not recorded"
echo "PASS"
