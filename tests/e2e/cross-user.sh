#!/usr/bin/env bash
# The cross-user race: two users' runners cannot see each other's allocation lock, so both can
# pick the same number at the same moment. The one atomic claim (the abstract X socket, bound by
# botdesk-session before anything else) decides; the loser exits 75 and its runner retries on a
# fresh number. Both end up with a working desktop on distinct numbers, and neither's socket or
# lock is touched by the other.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
UA=$E2E_U
STA=$E2E_ST
e2e_user "$BD_USER_B"
UB=$E2E_U
STB=$E2E_ST
[ "$UA" != "$UB" ] || bd_skip "needs two test users (run as root: scripts/test creates them)"

# Three free numbers in a row: a band of two for the race, and one more for round 2.
e2e_free_displays 3 70 89
lo=$E2E_LO
export BOTDESK_DISPLAY_BAND=$lo-$((lo + 1))

# check USER STATE: the user's desktop runs on a number of the band, its lock names its own Xvnc
# and is the user's, the X socket and the RFB socket are the user's, and X answers. Prints the
# number.
check() {
    local u=$1 st=$2 n xvnc cmd
    e2e_bd "$u" "$st" status --json
    [ "$(e2e_json running)" = true ] || bd_fail "$u: not running: $OUT"
    [[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "$u: no display"
    n=${BASH_REMATCH[1]}
    ((n >= lo && n <= lo + 2)) || bd_fail "$u: display :$n is outside the band $BOTDESK_DISPLAY_BAND"
    [ "$(stat -c %U "/tmp/.X$n-lock")" = "$u" ] || bd_fail "$u: /tmp/.X$n-lock is not $u's"
    [ "$(stat -c %U "/tmp/.X11-unix/X$n")" = "$u" ] || bd_fail "$u: /tmp/.X11-unix/X$n is not $u's"
    xvnc=$(e2e_xvnc_pid "$n")
    [ "$(stat -c %U "/proc/$xvnc")" = "$u" ] || bd_fail "$u: the lock of :$n names another user's process"
    cmd=$(tr '\0' ' ' <"/proc/$xvnc/cmdline")
    [[ $cmd == *"-rfbunixpath $st/default/xvnc.sock "* ]] || bd_fail "$u: the lock of :$n names another Xvnc: $cmd"
    [ "$(stat -c '%a %U' "$st/default/rfb.sock")" = "600 $u" ] || bd_fail "$u: the RFB socket"
    e2e_bd "$u" "$st" exec -- xdpyinfo
    e2e_expect_rc 0 "$u: exec xdpyinfo"
    echo "$n"
}

# Round 1, the race as it happens: both runners released by one barrier, picking from the same
# two numbers at the same moment.
barrier=$E2E_SCRATCH/go
for who in A B; do
    if [ $who = A ]; then u=$UA st=$STA; else u=$UB st=$STB; fi
    (
        bd_wait_file "$barrier" 30 || exit 99
        rc=0
        BOTDESK_STATE_DIR=$st bd_as "$u" "$BOTDESK_BIN" start >/dev/null 2>"$E2E_SCRATCH/race.$who.err" || rc=$?
        echo "$rc" >"$E2E_SCRATCH/race.$who.rc"
    ) &
done
sleep 0.2 # both waiters are watching the directory
touch "$barrier"
wait
for who in A B; do
    [ "$(<"$E2E_SCRATCH/race.$who.rc")" = 0 ] ||
        bd_fail "user $who's start failed in the race: $(cat "$E2E_SCRATCH/race.$who.err")"
done
na=$(check "$UA" "$STA")
nb=$(check "$UB" "$STB")
[ "$na" != "$nb" ] || bd_fail "both users got :$na"
collided=$(cat "$E2E_SCRATCH"/race.?.err | grep -c 'retrying on another number' || true)
echo "round 1: $UA on :$na, $UB on :$nb ($collided start(s) lost the number and retried)"

# Round 2, the race forced: B's runner is blind to A's claim (an empty socket table and an X lock
# directory of its own), its band starts at A's number and its profile has no recorded number, so
# it picks A's number for certain; only the session's bind stands in the way.
e2e_bd "$UB" "$STB" stop
e2e_expect_rc 0 "stop of $UB"
lock_a=$(stat -c '%i %Y %U' "/tmp/.X$na-lock")
sock_a=$(stat -c '%i %U' "/tmp/.X11-unix/X$na")
: >"$E2E_SCRATCH/empty-table"
mkdir -p "$E2E_SCRATCH/blind-locks"
chmod 0644 "$E2E_SCRATCH/empty-table"
bd_is_root && chown "$UB:" "$E2E_SCRATCH/blind-locks"
# Only the runner is blind: its launcher gets the real X directory back, since the session's path
# socket must be where X clients look (the X directory moves it too: common/launcher.h).
sighted=$E2E_SCRATCH/sighted-session
printf '#!/bin/sh\nBOTDESK_X_LOCK_DIR=/tmp exec '"'%s'"' "$@"\n' "$E2E_SESSION" >"$sighted"
chmod 0755 "$sighted"
BOTDESK_X_UNIX_TABLE=$E2E_SCRATCH/empty-table BOTDESK_X_LOCK_DIR=$E2E_SCRATCH/blind-locks \
    BOTDESK_LAUNCHER=$sighted BOTDESK_DISPLAY_BAND=$na-$((na + 1)) e2e_bd "$UB" "$STB" --profile forced start --json
e2e_expect_rc 0 "the forced start of $UB"
[[ $ERR == *"display :$na was taken by another X server"*"retrying on another number"* ]] ||
    bd_fail "$UB's start did not lose :$na and retry: $ERR"
[ "$(e2e_json display)" = ":$((na + 1))" ] || bd_fail "$UB is on $(e2e_json display), expected :$((na + 1))"
[ "$(stat -c '%i %Y %U' "/tmp/.X$na-lock")" = "$lock_a" ] || bd_fail "$UA's lock was touched"
[ "$(stat -c '%i %U' "/tmp/.X11-unix/X$na")" = "$sock_a" ] || bd_fail "$UA's X socket was touched"
e2e_bd "$UA" "$STA" exec -- xdpyinfo
e2e_expect_rc 0 "$UA's desktop after the forced race"
e2e_bd "$UB" "$STB" --profile forced exec -- xdpyinfo
e2e_expect_rc 0 "$UB's desktop after the forced race"
# Each cookie opens only its own display.
XA=$(grep '^XAUTHORITY=' "$STB/forced/env" | cut -d= -f2-)
if bd_as "$UB" env DISPLAY=":$na" XAUTHORITY="$XA" xdpyinfo >/dev/null 2>&1; then
    bd_fail "$UB's cookie opened $UA's display"
fi

e2e_bd "$UA" "$STA" stop
e2e_expect_rc 0 "stop of $UA"
BOTDESK_X_UNIX_TABLE=$E2E_SCRATCH/empty-table BOTDESK_X_LOCK_DIR=$E2E_SCRATCH/blind-locks \
    e2e_bd "$UB" "$STB" --profile forced stop
e2e_expect_rc 0 "stop of $UB"
for n in $lo $((lo + 1)) $((lo + 2)); do
    [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ] || bd_fail ":$n left a lock or socket"
done
echo "ok: both users got working desktops on distinct numbers"
