#!/usr/bin/env bash
# Invariant 6, orphans: with no live launcher, start and stop find the X server a dead launcher
# left (through the recorded display's X lock when it is in the dead launcher's group or names
# our socket; with no lock, by an Xvnc whose arguments name our socket), kill it and drop the
# stale state. Any other server is somebody else's and is never touched.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_DISPLAY_BAND=40-43

# The launcher's X server ("sleep") is in its group and outlives a SIGKILL of the launcher;
# the X lock names the server, as the real one does.
export BOTDESK_LAUNCHER=$(it_fake orphaning <<'FAKE'
sleep 300 &
fake_xlock $!
fake_publish
wait
FAKE
)

# orphan: starts a desktop and SIGKILLs its launcher; sets LAUNCHER, SERVER and DISP.
orphan() {
    it_start
    LAUNCHER=$J_pid
    DISP=${J_display#:}
    SERVER=$(<"$BOTDESK_X_LOCK_DIR/.X$DISP-lock")
    SERVER=${SERVER// /}
    it_expect_eq "$(it_stat_field "$SERVER" 5)" "$LAUNCHER" "the server is in the launcher's group"
    kill -KILL "$LAUNCHER"
    it_wait_gone 10 "$LAUNCHER" || bd_fail "the SIGKILLed launcher lives on"
    it_expect_alive "$SERVER" "the X server outlives its launcher (the precondition)"
    it_status
    it_expect_eq "$J_running" false "a SIGKILLed launcher is not running"
}

# start reaps the orphan and comes up with a new launcher.
orphan
it_start
it_expect_gone "$SERVER" "start reaps the dead launcher's X server"
it_expect_ne "$J_pid" "$LAUNCHER" "start comes up with a new launcher"
it_expect_eq "$J_running" true "start after reaping"
it_bd stop
it_expect_rc 0 "stop of the new desktop"

# stop reaps it too, and says it stopped something.
orphan
it_bd stop
it_expect_rc 0 "stop with only an orphaned X server left stops it"
it_expect_gone "$SERVER" "stop reaps the dead launcher's X server"
it_expect_absent "$P/rfb.sock" "the orphan's socket is removed"
it_expect_absent "$P/env" "the orphan's env is removed"
it_expect_absent "$P/launcher.pid" "the dead launcher's pid file is removed"
it_expect_absent "$BOTDESK_X_LOCK_DIR/.X$DISP-lock" "the orphan's X lock is removed"
it_bd stop
it_expect_rc 3 "a second stop has nothing left to stop"

# The lock-less orphan: no X lock, no recorded display, launcher.pid naming nobody of ours; an
# Xvnc whose arguments name our socket is still ours.
lockless() {
    mkdir -p "$P"
    : >"$P/rfb.sock"
    printf '1 0\n' >"$P/launcher.pid"
    rm -f "$P/display"
    it_own "$P"
    ORPHAN=$(it_decoy xvnc --argv0 "$S/bin/Xvnc" :43 -rfbunixpath "$P/rfb.sock" -rfbport -1)
    it_expect_in "$(tr '\0' ' ' </proc/"$ORPHAN"/cmdline)" "$S/bin/Xvnc" "the orphan looks like Xvnc"
}
lockless
it_bd stop
it_expect_rc 0 "stop finds the lock-less orphan by its arguments"
it_expect_gone "$ORPHAN" "stop reaps the lock-less orphan"
it_expect_absent "$P/rfb.sock" "the lock-less orphan's socket is removed"

lockless
it_start
it_expect_gone "$ORPHAN" "start reaps the lock-less orphan"
it_expect_eq "$J_running" true "start after reaping the lock-less orphan"
it_bd stop
it_expect_rc 0 "stop"

# An Xvnc of ours for another socket, or a non-Xvnc naming our socket, is not the orphan.
mkdir -p "$P"
: >"$P/rfb.sock"
printf '1 0\n' >"$P/launcher.pid"
it_own "$P"
other=$(it_decoy other-xvnc --trap --argv0 "$S/bin/Xvnc" :44 -rfbunixpath "$P/rfb.sock.other")
notx=$(it_decoy not-xvnc --trap --argv0 "$S/bin/Xvfb" :45 -rfbunixpath "$P/rfb.sock")
it_bd stop
it_expect_rc 3 "stop finds no orphan among servers that are not ours"
it_expect_alive "$other" "an Xvnc for another socket"
it_expect_alive "$notx" "a non-Xvnc process naming our socket"
[ ! -e "$S/pids/other-xvnc.signals" ] || bd_fail "stop signalled an Xvnc for another socket"
[ ! -e "$S/pids/not-xvnc.signals" ] || bd_fail "stop signalled a non-Xvnc process"

# The stranger decoy: after our launcher died, somebody else's server took our recorded number.
# It is called Xvnc, it is ours by uid, but it is neither in the dead launcher's group nor
# serving our socket: never signalled, and start picks another number.
stranger_on_recorded() {
    mkdir -p "$P"
    echo 41 >"$P/display"
    printf '%s %s\n' "$(it_dead_pid)" 12345 >"$P/launcher.pid"
    : >"$P/rfb.sock"
    it_own "$P"
    rm -f "$S/pids/stranger.signals"
    STRANGER=$(it_decoy stranger --trap --argv0 "$S/bin/Xvnc" :41 -rfbunixpath "$S/elsewhere.sock")
    printf '%10d\n' "$STRANGER" >"$BOTDESK_X_LOCK_DIR/.X41-lock"
    it_own "$BOTDESK_X_LOCK_DIR/.X41-lock"
}
stranger_on_recorded
it_bd stop
it_expect_rc 3 "stop with a stranger on the recorded number has nothing of ours to stop"
it_expect_alive "$STRANGER" "the stranger after stop"
[ ! -e "$S/pids/stranger.signals" ] || bd_fail "stop signalled the stranger"
it_expect_eq "$(<"$BOTDESK_X_LOCK_DIR/.X41-lock")" "$(printf '%10d' "$STRANGER")" \
    "the stranger's X lock is left alone"

stranger_on_recorded
it_start
it_expect_ne "$J_display" ":41" "start does not take the stranger's number"
it_expect_alive "$STRANGER" "the stranger after start"
[ ! -e "$S/pids/stranger.signals" ] || bd_fail "start signalled the stranger"
it_bd stop
it_expect_rc 0 "stop of our own desktop"
it_expect_alive "$STRANGER" "the stranger after stopping our desktop"
[ ! -e "$S/pids/stranger.signals" ] || bd_fail "stop signalled the stranger"

# A recorded launcher pid recycled as another process of ours, leading a group that holds an X
# server on the recorded number: the group id is no evidence then (the pid belongs to someone
# else now), so neither the group nor its server is touched.
mkdir -p "$P"
rm -f "$P/launcher.pid" "$P/rfb.sock" "$S/pids/recycled.signals"
echo 42 >"$P/display"
RECYCLED=$(it_decoy recycled --trap --argv0 "$S/bin/Xvnc" :42 -rfbunixpath "$S/elsewhere.sock")
printf '%s %s\n' "$RECYCLED" "$(($(it_starttime "$RECYCLED") - 1))" >"$P/launcher.pid"
printf '%10d\n' "$RECYCLED" >"$BOTDESK_X_LOCK_DIR/.X42-lock"
it_own "$P" "$BOTDESK_X_LOCK_DIR/.X42-lock"
it_bd stop
it_expect_rc 3 "stop with the launcher's pid recycled as a stranger's group leader"
it_expect_alive "$RECYCLED" "the recycled pid's group after stop"
[ ! -e "$S/pids/recycled.signals" ] || bd_fail "stop signalled a group through a recycled pid"
echo "PASS"
