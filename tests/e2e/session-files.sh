#!/usr/bin/env bash
# Issue 22.12, 22.13, 22.15: what the session makes where other users are, with the outsider (a
# real user outside group botdesk) as the attacker.
#   12. The desktop's session bus listened in shared /tmp (dbus-run-session's default), where any
#       user could fill it with idle connections. Its address now names a socket in the
#       profile's own 0700 directory, and the outsider cannot connect.
#   13. The session's temporary X lock had a name anyone could predict (.tX<n>-lock.botdesk.<pid>):
#       the outsider pre-created it, and the start failed with exit 1 (no retry). Now its name
#       is random and made O_EXCL: the same squat, for the session's exact pid and for the pids
#       a start is likely to get, blocks nothing.
#   15. Under umask 000, Xvnc's files in /tmp (its compiled keymap) were writable by everyone.
#       Xvnc now runs under umask 077, the desktop under the caller's umask with 022 added.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
bd_is_root || bd_skip "needs the outsider test user: run as root (scripts/test creates it)"
e2e_user_a
OUTSIDER=$(bd_test_user "$BD_USER_OUT")

e2e_free_displays 2 70 79
lo=$E2E_LO
hi=$((lo + 1))
export BOTDESK_DISPLAY_BAND=$lo-$hi
squats=$E2E_SCRATCH/squats
direct_pid=
unsquat() {
    local f
    while IFS= read -r -d '' f; do
        rm -f -- "$f"
    done <"$squats"
}
# The hand-started session is stopped with TERM first: KILLed, it would leave its X lock.
stop_direct() {
    [ -n "$direct_pid" ] || return 0
    kill -TERM "$direct_pid" 2>/dev/null || return 0
    bd_wait_gone "$direct_pid" 10 || kill -KILL "$direct_pid" 2>/dev/null || true
}
trap 'stop_direct; unsquat; e2e_cleanup' EXIT
: >"$squats"

# squat NUMBER PID...: the outsider's temporaries, as the session used to name its own.
squat() {
    local n=$1
    shift
    bd_as "$OUTSIDER" "$E2E_PY" -c '
import os, sys
n = sys.argv[1]
for pid in sys.argv[2:]:
    p = "/tmp/.tX%s-lock.botdesk.%s" % (n, pid)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    os.close(fd)
    sys.stdout.write(p + "\0")
' "$n" "$@" >>"$squats" || bd_fail "the outsider could not plant its temporaries"
}

# 13, exactly: the session started by hand, its pid known before it runs, the temporary for that
# pid and number planted.
d=$ST/direct
bd_as "$U" mkdir -p "$d/xdg"
chmod 0700 "$d"
# Started by hand, the session is no session leader: its components are its children.
coproc DIRECT { bd_as "$U" sh -c 'echo $$ && read go && umask 000 && exec "$@" </dev/null >/dev/null 2>"$0"' \
    "$E2E_SCRATCH/out-$U/direct.err" env BOTDESK_CONFIG_HOME="$d/xdg" BOTDESK_DISPLAY_NUM="$lo" \
    BOTDESK_SOCKET="$d/rfb.sock" BOTDESK_XAUTH="$d/Xauthority" BOTDESK_ENV_FILE="$d/env" "$E2E_SESSION"; }
read -r -t 10 -u "${DIRECT[0]}" direct_pid || bd_fail "the hand-started session did not report its pid"
squat "$lo" "$direct_pid"
direct_in=${DIRECT[1]}
direct_job=$DIRECT_PID
echo go >&"$direct_in"
deadline=$((SECONDS + 60))
until [ -e "$d/env" ]; do
    if bd_gone "$direct_pid"; then
        wait "$direct_job" 2>/dev/null && rc=0 || rc=$?
        bd_fail "the session with its temporary lock squatted ended (exit $rc) instead of starting: $(cat "$E2E_SCRATCH/out-$U/direct.err")"
    fi
    ((SECONDS < deadline)) || bd_fail "the hand-started session never published its env file"
    inotifywait -qq -t 1 -e create -e moved_to "$d" 2>/dev/null || true
done
[ "$(tr -d ' \n' <"/tmp/.X$lo-lock")" != "" ] || bd_fail "no X lock for :$lo"

# 15: the hand-started session ran under umask 000.
xvnc=$(e2e_xvnc_pid "$lo")
[ "$(awk '/^Umask:/ {print $2}' "/proc/$xvnc/status")" = 0077 ] ||
    bd_fail "Xvnc runs under umask $(awk '/^Umask:/ {print $2}' "/proc/$xvnc/status") (the caller's was 000)"
wm=$(pgrep -u "$U" -P "$direct_pid" -x xfwm4 | head -1)
[ -n "$wm" ] || bd_fail "no xfwm4 in the hand-started desktop"
[ "$(awk '/^Umask:/ {print $2}' "/proc/$wm/status")" = 0022 ] ||
    bd_fail "the desktop runs under umask $(awk '/^Umask:/ {print $2}' "/proc/$wm/status") (the caller's was 000)"
# Its compiled keymap, when it is still there, is the user's and writable by nobody else.
xkm=/tmp/server-$lo.xkm
if [ -e "$xkm" ]; then
    [ "$(stat -c %U "$xkm")" = "$U" ] && ! bd_as "$OUTSIDER" sh -c ": >>'$xkm'" 2>/dev/null ||
        bd_fail "the outsider could write $xkm ($(stat -c '%a %U' "$xkm"))"
fi
kill -TERM "$direct_pid"
bd_wait_gone "$direct_pid" 20 || bd_fail "the hand-started session did not end on TERM"
direct_pid=
exec {direct_in}>&-

# 13, through start: temporaries for every number of the band and the next 1500 pids.
last=$(cat /proc/sys/kernel/ns_last_pid)
pids=$(seq $((last + 1)) $((last + 1500)))
squat "$lo" $pids
squat "$hi" $pids
e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start with the likely temporaries of both numbers squatted"
launcher=$(e2e_json pid)
[ "$launcher" -le $((last + 1500)) ] || echo "note: the launcher's pid $launcher was beyond the squatted range" >&2

# 12: the bus is in the profile's directory, 0700 and the user's; the outsider cannot connect.
bus=$(sed -n 's/^DBUS_SESSION_BUS_ADDRESS=//p' "$P/env")
case $bus in
unix:path=*) ;;
*) bd_fail "the desktop's bus is at '$bus', not a unix:path=" ;;
esac
sock=${bus#unix:path=}
sock=${sock%%,*}
[ "$(dirname "$sock")" = "$P" ] || bd_fail "the bus socket $sock is not in the profile's directory $P"
[ "$(stat -c '%a %U' "$(dirname "$sock")")" = "700 $U" ] ||
    bd_fail "the bus socket's directory is $(stat -c '%a %U' "$(dirname "$sock")"), expected 700 $U"
[ -S "$sock" ] || bd_fail "no socket at $sock"
out=$(bd_as "$OUTSIDER" "$E2E_PY" -c '
import errno, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1])
    print("connected")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
' "$sock")
[ "$out" = EACCES ] || bd_fail "the outsider's connection to the bus: $out, expected EACCES"
# The desktop's own clients still use it.
e2e_bd "$U" "$ST" exec -- dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames
e2e_expect_rc 0 "a D-Bus call from the desktop"
[[ $OUT == *org.freedesktop.DBus* ]] || bd_fail "the bus did not answer: $OUT"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
[ ! -e "$sock" ] && [ ! -e "$P/bus.conf" ] || bd_fail "the stopped desktop left its bus files"
echo "PASS"
