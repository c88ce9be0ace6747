#!/usr/bin/env bash
# Invariant 2, in use: a display number is taken when its X lock names a live, non-zombie pid or
# its X socket is bound in the unix table (abstract or path form, exact match only); no table
# means the lock alone decides; a stale lock (dead pid, no socket) does not count.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_LAUNCHER

# lock N PID: an X lock file for :N naming PID, in X's own "%10d\n" format.
lock() {
    printf '%10d\n' "$2" >"$BOTDESK_X_LOCK_DIR/.X$1-lock"
    it_own "$BOTDESK_X_LOCK_DIR/.X$1-lock"
}

# The unix table: :40 bound abstract, :41 bound by path, :420 is not :42, nor is :4 anything in
# the band, and unnamed or unrelated sockets are noise.
cat >"$S/unix" <<'TABLE'
Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 22242 @/tmp/.X11-unix/X40
0000000000000000: 00000002 00000000 00010000 0001 01 22243 /tmp/.X11-unix/X41
0000000000000000: 00000003 00000000 00000000 0001 03 22244 @/tmp/.X11-unix/X420
0000000000000000: 00000002 00000000 00010000 0001 01 22245 @/tmp/.X11-unix/X4
0000000000000000: 00000003 00000000 00000000 0001 03 22246
0000000000000000: 00000002 00000000 00010000 0001 01 22247 /run/user/1000/bus
0000000000000000: 00000002 00000000 00010000 0001 01 22248 /tmp/.X11-unix/X43.old
TABLE
it_own "$S/unix"

# Bound sockets count in both forms, and only exact names: 40 and 41 are taken, 42 is free.
BOTDESK_X_UNIX_TABLE=$S/unix BOTDESK_DISPLAY_BAND=40-43 it_start --profile table
it_expect_eq "$J_display" ":42" "abstract X40 and path X41 are taken; X420 is not X42"
pid=$(it_launcher_pid "$BOTDESK_STATE_DIR/table")
it_expect_eq "$(it_stat_field "$pid" 3)" S "the launcher is up"
it_bd --profile table stop
it_expect_rc 0 "stop"

# A live lock (a process of ours, named X's way) takes its number even with no table at all.
holder=$(it_decoy holder)
lock 40 "$holder"
it_start --profile live-lock
it_expect_eq "$J_display" ":41" "a lock naming a live process takes its number"
it_bd --profile live-lock stop
it_expect_rc 0 "stop"
it_expect_alive "$holder" "the lock's holder is nobody botdesk may stop"
it_expect_eq "$(<"$BOTDESK_X_LOCK_DIR/.X40-lock")" "$(printf '%10d' "$holder")" \
    "a live server's lock is left alone"

# A lock naming a zombie is stale: the server is dead, whatever its parent does about it.
zholder=$(it_decoy zombie-holder --zombie)
zombie=$(<"$S/pids/zombie-holder.child")
it_wait_gone 10 "$zombie" || bd_fail "the decoy's child did not exit"
lock 41 "$zombie"
BOTDESK_DISPLAY_BAND=41-42 it_start --profile zombie-lock
it_expect_eq "$J_display" ":41" "a lock naming a zombie does not take its number"
it_bd --profile zombie-lock stop
it_expect_alive "$zholder" "the zombie's parent"

# A stale lock (dead pid) with a table that does not list the number: reused, and the new
# server's lock replaces it.
dead=$(it_dead_pid)
lock 43 "$dead"
BOTDESK_X_UNIX_TABLE=$S/unix BOTDESK_DISPLAY_BAND=43-44 it_start --profile stale
it_expect_eq "$J_display" ":43" "a stale lock (dead pid, no socket) is reclaimed"
it_expect_eq "$(<"$BOTDESK_X_LOCK_DIR/.X43-lock")" "$(printf '%10d' "$J_pid")" \
    "the new server holds :43"
it_bd --profile stale stop

# Garbage in a lock file is no claim.
for junk in "" "abc" "-1" "0" "$(printf '9%.0s' {1..30})" "$holder$holder"; do
    printf '%s\n' "$junk" >"$BOTDESK_X_LOCK_DIR/.X45-lock"
    it_own "$BOTDESK_X_LOCK_DIR/.X45-lock"
    BOTDESK_DISPLAY_BAND=45-46 it_start --profile junk
    it_expect_eq "$J_display" ":45" "a lock holding '$junk' names no live server"
    it_bd --profile junk stop
    it_expect_rc 0 "stop"
done

# The table is consulted when it exists, and its absence leaves the lock alone to decide.
printf '%s\n' "Num RefCount Protocol Flags Type St Inode Path" \
    "0000000000000000: 00000002 00000000 00010000 0001 01 22250 @/tmp/.X11-unix/X46" >"$S/unix46"
it_own "$S/unix46"
BOTDESK_X_UNIX_TABLE=$S/unix46 BOTDESK_DISPLAY_BAND=46-47 it_start --profile with-table
it_expect_eq "$J_display" ":47" "a bound socket with no lock file takes its number"
BOTDESK_DISPLAY_BAND=46-47 it_start --profile no-table
it_expect_eq "$J_display" ":46" "no table: the lock alone decides"

# Another user's leftovers (a stale lock, a dead server's socket file) cannot be removed by us in
# the sticky X directories, so our server could never claim those numbers: they count as taken.
if bd_is_root && [ "$U" != "$BD_USER_B" ] && id -u "$BD_USER_B" >/dev/null 2>&1; then
    rm -rf "$P" "$BOTDESK_X_LOCK_DIR"/.X*-lock
    export BOTDESK_X_UNIX_TABLE=$S/no-table
    printf '%10d\n' "$(it_dead_pid)" >"$BOTDESK_X_LOCK_DIR/.X40-lock"
    mkdir -p "$BOTDESK_X_LOCK_DIR/.X11-unix"
    chmod 1777 "$BOTDESK_X_LOCK_DIR/.X11-unix"
    : >"$BOTDESK_X_LOCK_DIR/.X11-unix/X41"
    chown "$BD_USER_B:" "$BOTDESK_X_LOCK_DIR/.X40-lock" "$BOTDESK_X_LOCK_DIR/.X11-unix/X41"
    printf '%10d\n' "$(it_dead_pid)" >"$BOTDESK_X_LOCK_DIR/.X42-lock"
    it_own "$BOTDESK_X_LOCK_DIR/.X42-lock"
    it_start
    it_expect_eq "$J_display" ":42" "another user's stale leftovers on :40 and :41 are skipped, our own stale lock on :42 is reused"
    it_bd stop
fi
echo "PASS"
