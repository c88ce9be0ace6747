#!/usr/bin/env bash
# Issue 13, item 6: the start's handshake. The runner learns "claimed" and "ready" from the pipe
# it hands the launcher (BOTDESK_NOTIFY_FD), not from the directories, and believes neither on the
# launcher's word: "claimed" lets other starts allocate only when the X lock names a live server,
# "ready" is a success only when the env file and rfb.sock are there. A launcher that says
# nothing times out as before, even if it published.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_DISPLAY_BAND=60-63

alloc_held() {
    ! flock -n "$BOTDESK_ALLOC_LOCK" true
}

# The X lock alone, unannounced, does not let the allocation lock go; "claimed" does, before
# "ready".
lock=$(it_fifo lock)
claim=$(it_fifo claim)
publish=$(it_fifo publish)
export BOTDESK_LAUNCHER=$(it_fake gated <<FAKE
fake_gate $lock
lockf="\$BOTDESK_X_LOCK_DIR/.X\$BOTDESK_DISPLAY_NUM-lock"
printf '%10d\n' \$\$ >"\$lockf.tmp"
mv -f "\$lockf.tmp" "\$lockf"
: >"\$BD_MARKS/locked"
fake_gate $claim
fake_notify "claimed \$BOTDESK_DISPLAY_NUM"
fake_gate $publish
fake_publish
fake_hold
FAKE
)
it_bd_bg gated --profile gated start --json
it_open_gate "$lock"
it_wait_file 10 "$S/marks/locked" || bd_fail "the gated launcher never wrote its X lock"
# Time for a runner that still watched the directory to see the lock and let go.
sleep 0.3
alloc_held || bd_fail "the allocation lock went at the X lock, before the launcher said claimed"
it_open_gate "$claim"
flock -w 10 "$BOTDESK_ALLOC_LOCK" true ||
    bd_fail "the allocation lock is still held after the launcher said claimed"
it_expect_absent "$S/out/gated.rc" "the start returned before the launcher said ready"
it_open_gate "$publish"
it_bd_collect gated
it_expect_rc 0 "the gated start, once ready"
it_bd --profile gated stop

# "claimed" with no live server named in the X lock (a lie, or a server already dead): the
# allocation lock stays until the attempt ends.
publish2=$(it_fifo publish2)
export BOTDESK_LAUNCHER=$(it_fake liar <<FAKE
fake_notify "claimed \$BOTDESK_DISPLAY_NUM"
fake_notify "claimed 9999"
: >"\$BD_MARKS/lied"
fake_gate $publish2
fake_xlock
fake_publish
fake_hold
FAKE
)
it_bd_bg liar --profile liar start --json
it_wait_file 10 "$S/marks/lied" || bd_fail "the lying launcher never ran"
sleep 0.3
alloc_held || bd_fail "a claim with no X lock behind it let the allocation lock go"
it_open_gate "$publish2"
it_bd_collect liar
it_expect_rc 0 "the liar's start, once it really claimed and published"
it_bd --profile liar stop

# "ready" without the env file or rfb.sock: no success, and nothing left running, at once (not
# at the deadline).
export BOTDESK_LAUNCHER=$(it_fake early <<'FAKE'
sleep 300 &
echo "$$ $!" >"$BD_MARKS/pids.early"
fake_xlock $!
: >"$BOTDESK_SOCKET"
fake_ready
fake_hold
FAKE
)
it_bd --profile early start --wait 20
it_expect_rc 1 "a launcher that says ready without publishing"
it_expect_in "$ERR" "said its desktop on :60 was ready" "the message says what the launcher claimed"
it_expect_in "$ERR" "launcher.log" "the message names the log"
read -r launcher child <"$S/marks/pids.early"
it_expect_gone "$launcher" "the launcher that lied is stopped"
it_expect_gone "$child" "its child goes with it"
it_expect_absent "$BOTDESK_STATE_DIR/early/launcher.pid" "no launcher.pid"
it_expect_absent "$BOTDESK_STATE_DIR/early/rfb.sock" "no rfb.sock"
it_status --profile early
it_expect_eq "$J_running" false "status after a false ready"

# Never a word, though it published: the deadline, as before (no directory watch to fall back
# on: the handshake is the contract).
export BOTDESK_LAUNCHER=$(it_fake mute <<'FAKE'
exec {BOTDESK_NOTIFY_FD}>&-
unset BOTDESK_NOTIFY_FD
fake_xlock
fake_publish
fake_hold
FAKE
)
it_bd --profile mute start --wait 0.5
it_expect_rc 1 "a launcher that never speaks the handshake"
it_expect_in "$ERR" "did not publish within the wait" "the deadline's message"
it_expect_absent "$BOTDESK_STATE_DIR/mute/launcher.pid" "no launcher.pid after the deadline"

# A line no handshake has (too long, or garbage) is ignored or ends the pipe; then the launcher's
# exit decides.
export BOTDESK_LAUNCHER=$(it_fake garbage <<'FAKE'
fake_notify "hello"
fake_notify "$(printf 'x%.0s' {1..100})"
fake_xlock
fake_publish
exit 3
FAKE
)
it_bd --profile garbage start --wait 10
it_expect_rc 1 "a launcher that writes garbage and exits"
it_expect_in "$ERR" "exited with status 3" "its exit decides"
echo "PASS"
