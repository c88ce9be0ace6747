#!/usr/bin/env bash
# Issue 22.14: the allocation lock's directory. With XDG_RUNTIME_DIR pointing at a directory
# another user made (in /tmp, say), that user held the lock file there and every start waited
# out its deadline. A runtime directory that is not the caller's own 0700 directory (a symbolic
# link, another owner, looser modes) is refused at once, naming it and the way out; any other
# lock directory must at least be the caller's and writable by nobody else.
source "$BD_SRCDIR/tests/lib.sh"
source "$BD_SRCDIR/tests/integration/common.sh"
bd_is_root || bd_skip "needs the outsider test user: run as root (scripts/test creates it)"
it_init
it_fake_desktop 40-49
OUTSIDER=$(bd_test_user "$BD_USER_OUT")

# The outsider's "runtime directory" in /tmp, with the lock file anyone may open, held.
rt=$(bd_as "$OUTSIDER" mktemp -d /tmp/botdesk-rt.XXXXXX)
trap 'rm -rf "$rt"; it_cleanup' EXIT
chmod 0755 "$rt"
coproc HOLD { bd_as "$OUTSIDER" sh -c 'umask 000 && exec flock "$1" sh -c "echo held && read x"' sh "$rt/botdesk-alloc.lock"; }
read -r -t 10 -u "${HOLD[0]}" held || held=
[ "$held" = held ] || bd_fail "the outsider could not hold $rt/botdesk-alloc.lock"
[ "$(stat -c '%a %U' "$rt/botdesk-alloc.lock")" = "666 $OUTSIDER" ] || bd_fail "the planted lock is not the outsider's 0666 file"

(
    unset BOTDESK_ALLOC_LOCK
    # Before: the start waited out its whole deadline on the outsider's lock.
    it_run env XDG_RUNTIME_DIR="$rt" "$BOTDESK_BIN" start --wait 5
    it_expect_rc 1 "a start with another user's runtime directory"
    it_expect_in "$ERR" "XDG_RUNTIME_DIR $rt is a directory of uid $(id -u "$OUTSIDER") with mode 0755, not a private directory of yours" \
        "the refusal names the runtime directory, its owner and mode"
    it_expect_in "$ERR" "Point XDG_RUNTIME_DIR (or BOTDESK_ALLOC_LOCK) at a directory you own with mode 0700" "and the way out"
    it_expect_not_in "$ERR" "for too long" "refused, not timed out"
    it_expect_eq "$(it_spawns)" 0 "nothing started"

    # The caller's own directory, but readable by others, or reached through a symbolic link.
    mine=$S/run
    mkdir -p "$mine"
    chmod 0755 "$mine"
    it_own "$mine"
    it_run env XDG_RUNTIME_DIR="$mine" "$BOTDESK_BIN" start --wait 5
    it_expect_rc 1 "a runtime directory of mode 0755"
    it_expect_in "$ERR" "XDG_RUNTIME_DIR $mine is a directory of uid $(id -u "$U") with mode 0755" "a loose runtime directory"
    chmod 0700 "$mine"
    ln -s "$mine" "$S/run-link"
    it_own "$S/run-link"
    it_run env XDG_RUNTIME_DIR="$S/run-link" "$BOTDESK_BIN" start --wait 5
    it_expect_rc 1 "a runtime directory that is a symbolic link"
    it_expect_in "$ERR" "XDG_RUNTIME_DIR $S/run-link is a symbolic link" "the link named"

    # Its own 0700 directory: the start goes ahead, with the lock there.
    it_run env XDG_RUNTIME_DIR="$mine" "$BOTDESK_BIN" start
    it_expect_rc 0 "a private runtime directory"
    it_expect_present "$mine/botdesk-alloc.lock" "the lock is in the runtime directory"
    it_bd stop
)
# Another lock directory the user named: writable by others is refused too.
mkdir -p "$S/shared"
chmod 0777 "$S/shared"
it_own "$S/shared"
chmod 0777 "$S/shared"
BOTDESK_ALLOC_LOCK=$S/shared/alloc.lock it_bd start --wait 5
it_expect_rc 1 "an allocation lock in a directory others may write"
it_expect_in "$ERR" "the allocation lock's directory $S/shared is a directory of uid $(id -u "$U") with mode 0777" "the directory named"
exec {HOLD[1]}>&-
echo "PASS"
