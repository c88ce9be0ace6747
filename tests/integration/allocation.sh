#!/usr/bin/env bash
# Invariant 3, allocation: numbers come from the band under the allocation lock, held from the
# pick until the launch's X lock names a live server (not for the whole bring-up); the recorded
# number is reused only when free; concurrent profiles get distinct numbers; a full band names
# the band; a launch that loses its number (exit 75) is retried on another (picked at random among
# the free ones), each number at most once.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_LAUNCHER BOTDESK_DISPLAY_BAND=40-43

lock() {
    printf '%10d\n' "$2" >"$BOTDESK_X_LOCK_DIR/.X$1-lock"
    it_own "$BOTDESK_X_LOCK_DIR/.X$1-lock"
}

record() {
    mkdir -p "$BOTDESK_STATE_DIR/$1"
    printf '%s\n' "$2" >"$BOTDESK_STATE_DIR/$1/display"
    it_own "$BOTDESK_STATE_DIR"
}

# The recorded number held by a live server (another profile's, say) is not taken over.
server=$(it_decoy server)
lock 41 "$server"
record rec 41
it_start --profile rec
it_expect_eq "$J_display" ":40" "a recorded number a live server holds is not reused"
it_expect_eq "$(<"$BOTDESK_STATE_DIR/rec/display")" 40 "the new number is recorded"
it_bd --profile rec stop
it_expect_rc 0 "stop"
it_expect_alive "$server" "the server on the recorded number"

# A free recorded number is reused even though a lower one is free too.
record rec 42
it_start --profile rec
it_expect_eq "$J_display" ":42" "a free recorded number is reclaimed first"
it_bd --profile rec stop

# A recorded number outside the band is not used.
record out 77
it_start --profile out
it_expect_eq "$J_display" ":40" "a recorded number outside the band is ignored"
it_bd --profile out stop

# A full band is an error naming the band, and nothing is spawned.
spawns=$(it_spawns)
server2=$(it_decoy server2)
lock 44 "$server"
lock 45 "$server2"
BOTDESK_DISPLAY_BAND=44-45 it_bd --profile full start
it_expect_rc 1 "start with every number of the band held"
it_expect_in "$ERR" "botdesk: " "the message is botdesk's"
it_expect_in "$ERR" "44-45" "the message names the band"
it_expect_eq "$(it_spawns)" "$spawns" "a full band spawns no launcher"
it_expect_in "$ERR" "2 held by running X servers" "two live locks are running servers"

# Issue 12: what holds each number, truthfully: an empty lock file another user left is no
# running X server (the old message said every number was).
if bd_is_root; then
    : >"$BOTDESK_X_LOCK_DIR/.X45-lock"
    chown "$(bd_test_user "$BD_USER_B"):" "$BOTDESK_X_LOCK_DIR/.X45-lock"
    BOTDESK_DISPLAY_BAND=44-45 it_bd --profile full start
    it_expect_rc 1 "start with one live lock and another user's empty lock file"
    it_expect_in "$ERR" "1 held by running X servers, 0 by bound X sockets, 1 by lock or socket files other users' servers left behind (only they or root can remove them)" \
        "the empty lock file is not called a running X server"
    rm -f "$BOTDESK_X_LOCK_DIR/.X45-lock"
fi

# Two profiles starting at once get distinct numbers: the fake claims its number only after a
# while, the window in which a second pick would see the number as free.
BOTDESK_LAUNCHER=$(it_fake slow-claim <<'FAKE'
sleep 0.5
fake_up
FAKE
)
it_bd_bg a --profile race-a start --json
it_bd_bg b --profile race-b start --json
it_bd_collect a
it_expect_rc 0 "start of race-a"
da=$(it_json display)
it_bd_collect b
it_expect_rc 0 "start of race-b"
db=$(it_json display)
it_expect_ne "$da" "$db" "two profiles starting at once share no display"
it_bd --profile race-a stop
it_bd --profile race-b stop

# The allocation lock: held from the pick (the launcher runs but has not claimed its number),
# free once the X lock names the launcher though the desktop has not published yet.
claim=$(it_fifo claim)
publish=$(it_fifo publish)
BOTDESK_LAUNCHER=$(it_fake gated <<FAKE
: >"\$BD_MARKS/running"
fake_gate $claim
fake_xlock
fake_gate $publish
fake_publish
fake_hold
FAKE
)
it_bd_bg gated --profile gated start --json
it_wait_file 10 "$S/marks/running" || bd_fail "the gated launcher never ran"
if flock -n "$BOTDESK_ALLOC_LOCK" true; then
    bd_fail "the allocation lock is free before the launcher claimed its number"
fi
it_open_gate "$claim"
flock -w 10 "$BOTDESK_ALLOC_LOCK" true ||
    bd_fail "the allocation lock is still held after the X lock named the launcher"
it_open_gate "$publish"
it_bd_collect gated
it_expect_rc 0 "the gated start publishes after all"
it_bd --profile gated stop

# Display taken (exit 75) once: a fresh number on the second attempt, with a warning.
export BOTDESK_LAUNCHER=$(it_fake taken-once <<'FAKE'
if [ ! -e "$BD_MARKS/took-$BOTDESK_PROFILE" ]; then
    : >"$BD_MARKS/took-$BOTDESK_PROFILE"
    echo "Fatal server error: Server is already active for display $BOTDESK_DISPLAY_NUM"
    exit 75
fi
fake_up
FAKE
)
spawns=$(it_spawns)
BOTDESK_DISPLAY_BAND=46-48 it_bd --profile retry start --json
it_expect_rc 0 "start whose first launch lost its number"
d=$(it_json display)
[ "$d" = :47 ] || [ "$d" = :48 ] || bd_fail "the retry uses another number of the band than the lost :46: $d"
it_expect_in "$ERR" ":46" "the warning names the lost number"
it_expect_eq "$(it_spawns)" $((spawns + 2)) "one retry, two launches"
it_bd --profile retry stop

# Taken every time: a clear failure, not a loop (each number of the band tried once, at most
# LAUNCH_MAX_ATTEMPTS), with the last launcher's words, and no number kept.
export BOTDESK_LAUNCHER=$(it_fake taken-always <<'FAKE'
echo "Fatal server error: Server is already active for display $BOTDESK_DISPLAY_NUM"
exit 75
FAKE
)
spawns=$(it_spawns)
BOTDESK_DISPLAY_BAND=46-48 it_bd --profile lost start
it_expect_rc 1 "start whose both launches lost their number"
it_expect_in "$ERR" "botdesk: " "the message is botdesk's"
it_expect_in "$ERR" "status 75" "the message says how the launcher ended"
it_expect_in "$ERR" "already active" "the message carries the launcher's log"
it_expect_eq "$(it_spawns)" $((spawns + 3)) "each of the band's three numbers tried once"
it_expect_absent "$BOTDESK_STATE_DIR/lost/display" "a lost number is not recorded"
it_expect_absent "$BOTDESK_STATE_DIR/lost/launcher.pid" "a failed start records no launcher"

# Two users at once, sharing the X lock directory (as /tmp is shared): their allocation locks
# are their own, so both may pick the same number; the loser's launcher finds the number taken
# (its atomic claim fails, as X's link() of the lock does) and exits 75, and its start retries on
# another number. Root only: it takes a second user.
if bd_is_root; then
    B=$(bd_test_user "$BD_USER_B")
    chmod 1777 "$BOTDESK_X_LOCK_DIR" "$S/marks" "$S/out"
    mkdir -p "$S/user-b"
    chown "$B:" "$S/user-b"
    export BOTDESK_LAUNCHER=$(it_fake claim-race <<'FAKE'
sleep 0.5
lock="$BOTDESK_X_LOCK_DIR/.X$BOTDESK_DISPLAY_NUM-lock"
printf '%10d\n' $$ >"$lock.tmp.$$"
if ! ln "$lock.tmp.$$" "$lock" 2>/dev/null; then
    rm -f "$lock.tmp.$$"
    echo "Fatal server error: Server is already active for display $BOTDESK_DISPLAY_NUM"
    exit 75
fi
rm -f "$lock.tmp.$$"
fake_publish
fake_hold
FAKE
)
    (
        rc=0
        BOTDESK_DISPLAY_BAND=50-53 BOTDESK_STATE_DIR=$S/user-b/state BOTDESK_ALLOC_LOCK=$S/user-b/alloc.lock \
            bd_as "$B" "$BOTDESK_BIN" --profile users start --json >"$S/out/userb.out" 2>"$S/out/userb.err" || rc=$?
        echo "$rc" >"$S/out/userb.rc"
    ) &
    IT_BG+=("$!")
    IT_BG_userb=$!
    BOTDESK_DISPLAY_BAND=50-53 it_bd --profile users start --json
    it_expect_rc 0 "user A's start racing user B's"
    da=$(it_json display)
    aerr=$ERR
    it_bd_collect userb
    it_expect_rc 0 "user B's start racing user A's"
    db=$(it_json display)
    it_expect_ne "$da" "$db" "two users starting at once end on distinct displays"
    # Informational: whether this run raced at all (a retry warning on either side).
    echo "two users: A on $da, B on $db; retried: $([[ "$aerr$ERR" == *retrying* ]] && echo yes || echo no)"
    BOTDESK_DISPLAY_BAND=50-53 it_bd --profile users stop
    BOTDESK_STATE_DIR=$S/user-b/state bd_as "$B" "$BOTDESK_BIN" --profile users stop >/dev/null
fi
echo "PASS"
