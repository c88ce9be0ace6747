#!/usr/bin/env bash
# Invariant 5, failed starts clean up: a launcher that exits early gives its exit status and its
# log's tail, and its number is forgotten; a launch that misses the deadline has its whole group
# killed (TERM, then KILL), launcher.pid, env and rfb.sock removed, an error naming the log, and
# nothing of it publishes later.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_DISPLAY_BAND=40-43

# An early exit, on a recorded number (the one the seed's wedge kept picking).
mkdir -p "$P"
echo 42 >"$P/display"
it_own "$BOTDESK_STATE_DIR"
export BOTDESK_LAUNCHER=$(it_fake dies <<'FAKE'
echo "FIRST-LINE of a long log"
head -c 3000 /dev/zero | tr '\0' 'x'
echo
echo "Fatal server error: no screens found on :$BOTDESK_DISPLAY_NUM"
exit 1
FAKE
)
it_bd start
it_expect_rc 1 "start with a launcher that exits 1"
it_expect_in "$ERR" "botdesk: " "the message is botdesk's"
it_expect_in "$ERR" "exited with status 1" "the message gives the exit status"
it_expect_in "$ERR" "Fatal server error: no screens found on :42" "the message has the log's tail"
it_expect_not_in "$ERR" "FIRST-LINE" "only the log's tail, not all of it"
it_expect_in "$ERR" "$P/launcher.log" "the message says where the log is"
it_expect_absent "$P/display" "a failed number is forgotten"
it_expect_absent "$P/launcher.pid" "a failed start records no launcher"
it_expect_absent "$P/env" "a failed start publishes nothing"
it_status
it_expect_eq "$J_running" false "status after a failed start"

# The next start allocates afresh instead of retrying the number that failed.
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
it_start
it_expect_eq "$J_display" ":40" "the start after a failure picks afresh, not the forgotten :42"
it_bd stop

# Killed by a signal: said so.
export BOTDESK_LAUNCHER=$(it_fake crash <<'FAKE'
kill -SEGV $$
FAKE
)
it_bd start
it_expect_rc 1 "start with a launcher killed by a signal"
it_expect_in "$ERR" "signal 11" "the message names the signal"

# The deadline: the launcher claims its number for a child, then never publishes (it waits on a
# FIFO nobody opens).
never=$(it_fifo never)
export BOTDESK_LAUNCHER=$(it_fake never <<FAKE
sleep 300 &
echo "\$\$ \$!" >"\$BD_MARKS/pids.\$\$"
fake_xlock \$!
fake_gate $never
fake_publish
fake_hold
FAKE
)
deadline() {
    it_bd start --wait 0.3
    it_expect_rc 1 "start whose launcher misses the deadline"
    it_expect_in "$ERR" "botdesk: " "the message is botdesk's"
    it_expect_in "$ERR" "did not publish" "the message says the desktop did not publish"
    it_expect_in "$ERR" "$P/launcher.log" "the message names the log"
    local f
    f=$(ls "$S"/marks/pids.* | tail -n 1)
    read -r launcher child <"$f"
    rm -f "$f"
    it_expect_gone "$launcher" "the launcher that missed the deadline is stopped"
    it_expect_gone "$child" "its child (the X server) goes with it"
    [ -z "$(it_group_live "$launcher")" ] || bd_fail "members of the late launch are alive"
    it_expect_absent "$P/launcher.pid" "a late launch leaves no launcher.pid"
    it_expect_absent "$P/env" "a late launch leaves no env"
    it_expect_absent "$P/rfb.sock" "a late launch leaves no rfb.sock"
    it_expect_absent "$P/display" "a late launch's number is forgotten"
    it_status
    it_expect_eq "$J_running" false "status after a missed deadline"
}
deadline

# One that would publish a while after the deadline: killed first, so it never does.
export BOTDESK_LAUNCHER=$(it_fake late <<'FAKE'
sleep 300 &
echo "$$ $!" >"$BD_MARKS/pids.$$"
fake_xlock $!
sleep 5
fake_publish
fake_hold
FAKE
)
deadline

# One that ignores TERM, with a child that does too: KILL after the grace.
export BOTDESK_LAUNCHER=$(it_fake stubborn <<FAKE
trap '' TERM
bash -c 'trap "" TERM; exec sleep 300' &
echo "\$\$ \$!" >"\$BD_MARKS/pids.\$\$"
fake_xlock \$!
fake_gate $never
FAKE
)
deadline

# A launcher that exits 0 before publishing has failed too.
export BOTDESK_LAUNCHER=$(it_fake quits <<<'exit 0')
it_bd start
it_expect_rc 1 "start with a launcher that exits 0 without publishing"
it_expect_in "$ERR" "exited with status 0" "the message gives the exit status"
it_expect_in "$ERR" "(nothing)" "an empty log is said to be empty"

# Interrupted (Ctrl-C, or TERM): the half-started desktop goes down with the start.
declare -A interrupted_rc interrupted_err
for sig in INT TERM; do
    rm -f "$S/marks/starter"
    export BOTDESK_LAUNCHER=$(it_fake interrupted <<FAKE
sleep 300 &
echo "\$\$ \$!" >"\$BD_MARKS/pids.\$\$"
fake_xlock \$!
fake_note starter "\$PPID"
fake_gate $never
FAKE
)
    it_bd_bg interrupted start
    it_wait_file 10 "$S/marks/starter" || bd_fail "the launcher never ran"
    starter=$(<"$S/marks/starter")
    f=$(ls "$S"/marks/pids.* | tail -n 1)
    read -r launcher child <"$f"
    rm -f "$f"
    kill "-$sig" "$starter"
    it_bd_collect interrupted
    interrupted_rc[$sig]=$RC
    interrupted_err[$sig]=$ERR
    it_expect_gone "$launcher" "SIG$sig to the start stops its launcher"
    it_expect_gone "$child" "SIG$sig to the start stops the launcher's children"
    it_expect_absent "$P/launcher.pid" "an interrupted start leaves no launcher.pid"
    it_expect_absent "$P/display" "an interrupted start keeps no number"
done

# The starter itself dies (SIGKILL) while its launcher has not published: the next start
# finds that launcher alive but unpublished, stops it, and starts afresh.
export BOTDESK_LAUNCHER=$(it_fake orphaned-start <<FAKE
if [ ! -e "\$BD_MARKS/first-done" ]; then
    : >"\$BD_MARKS/first-done"
    sleep 300 &
    echo "\$\$ \$!" >"\$BD_MARKS/first"
    fake_xlock \$!
    fake_note starter "\$PPID"
    fake_gate $never
fi
fake_up
FAKE
)
rm -f "$S/marks/starter"
it_bd_bg killed start
it_wait_file 10 "$S/marks/starter" || bd_fail "the launcher never ran"
kill -KILL "$(<"$S/marks/starter")"
it_bd_collect killed
read -r launcher child <"$S/marks/first"
it_expect_alive "$launcher" "the launcher of a starter that died lives on (the precondition)"
it_status
it_expect_eq "$J_running" false "a launcher that never published is not running"
it_start
it_expect_ne "$J_pid" "$launcher" "the next start brings up a launcher of its own"
it_expect_gone "$launcher" "the next start stops the unpublished launcher"
it_expect_gone "$child" "and its children"
it_bd stop
it_expect_rc 0 "stop"

# The interrupted start says so and exits 1: the signal it polled on its signalfd must be
# consumed before the mask is restored, or it kills the runner and the message is lost.
for sig in INT TERM; do
    RC=${interrupted_rc[$sig]} ERR=${interrupted_err[$sig]} OUT=
    it_expect_rc 1 "start interrupted by SIG$sig"
    it_expect_in "$ERR" "interrupted" "the message says the start was interrupted"
done
echo "PASS"
