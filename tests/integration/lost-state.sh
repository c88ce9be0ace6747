#!/usr/bin/env bash
# Issue 12, defect 1: a desktop whose state directory was removed while it ran used to be
# orphaned for good (status: not running; stop: exit 3; start: a second desktop; stop: only the
# second). Its launcher carries BOTDESK_DESKTOP=<uid>:<profile>:<state root> in its environment,
# and an X server whose launcher died names the profile's socket: start and stop find either,
# however the directory was lost, and end it. Another profile's desktop is never touched.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
# A server of the launcher's group (an "Xvnc" naming the profile's socket) whose pid is in the X
# lock, then the published files.
it_fake_desktop 40-45

# desktop PROFILE: starts it; sets LAUNCHER and SERVER.
desktop() {
    it_start --profile "$1"
    LAUNCHER=$J_pid
    SERVER=$(<"$BOTDESK_X_LOCK_DIR/.X${J_display#:}-lock")
    SERVER=${SERVER// /}
    it_expect_alive "$SERVER" "the server of $1"
}

desktop keep
keep_launcher=$LAUNCHER keep_server=$SERVER

# stop finds the desktop whose state directory is gone.
desktop c5
rm -rf "$BOTDESK_STATE_DIR/c5"
it_status --profile c5
it_expect_eq "$J_running" false "status reads files only: not running without them"
it_bd --profile c5 stop
it_expect_rc 0 "stop of a desktop whose state directory was removed"
it_expect_gone "$LAUNCHER" "stop ends the launcher found by its marker"
it_expect_gone "$SERVER" "and its server"
it_expect_absent "$BOTDESK_STATE_DIR/c5" "stop does not make a state directory"
it_bd --profile c5 stop
it_expect_rc 3 "then nothing is left to stop"

# start ends it before it starts a new one: one desktop, not two.
desktop c5
old_launcher=$LAUNCHER old_server=$SERVER
rm -rf "$BOTDESK_STATE_DIR/c5"
desktop c5
it_expect_ne "$LAUNCHER" "$old_launcher" "start comes up with a new launcher"
it_expect_gone "$old_launcher" "start ends the launcher whose state directory was lost"
it_expect_gone "$old_server" "and its server"
it_expect_in "$ERR" "state directory" "start says what it stopped"
it_bd --profile c5 stop
it_expect_rc 0 "stop of the new desktop"
it_expect_gone "$LAUNCHER" "the new launcher after stop"

# The launcher SIGKILLed and the directory removed: the server naming the profile's socket is
# found by its command line, and its dead launcher's group goes with it.
desktop c5
kill -KILL "$LAUNCHER"
it_wait_gone 10 "$LAUNCHER" || bd_fail "the launcher survived SIGKILL"
rm -rf "$BOTDESK_STATE_DIR/c5"
it_bd --profile c5 stop
it_expect_rc 0 "stop of an orphaned server whose state directory was removed"
it_expect_gone "$SERVER" "the orphaned server"
it_expect_absent "$BOTDESK_X_LOCK_DIR/.X${J_display#:}-lock" "its X lock"

# The other profile's desktop lived through all of it.
it_expect_alive "$keep_launcher" "another profile's launcher"
it_expect_alive "$keep_server" "another profile's server"
it_status --profile keep
it_expect_eq "$J_running" true "another profile is still running"
it_bd --profile keep stop
it_expect_rc 0 "stop of the other profile"
echo "PASS"
