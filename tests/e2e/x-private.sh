#!/usr/bin/env bash
# Issue 8: another local user at the X layer. As the outsider (a real user outside group
# botdesk):
#   1. a flood of silent connections to the owner's display gets EACCES on the path socket and
#      ECONNREFUSED on the abstract name (held as the claim, never listened on), while the
#      owner's exec and thumbnail keep working;
#   3. a compiled-keymap file squatted in /tmp makes that number taken: start uses the next one,
#      and the session itself refuses the squatted number with exit 75, naming the file;
#   7. credentials in the caller's environment reach neither Xvnc nor the window manager;
#   9. with the desktop's Xvnc dead (its supervisor stopped), the outsider can take neither X
#      socket of the number, and exec refuses instead of talking to whatever answers.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
bd_is_root || bd_skip "needs the outsider test user: run as root (scripts/test creates it)"
e2e_user "$BD_USER_A"
UA=$E2E_U
STA=$E2E_ST
OUTSIDER=$(bd_test_user "$BD_USER_OUT")

e2e_free_displays 2 60 69
lo=$E2E_LO
squat=/tmp/server-$lo.xkm
trap 'rm -f "$squat"; e2e_cleanup' EXIT
export BOTDESK_DISPLAY_BAND=$lo-$((lo + 1))

# 3. The outsider squats the keymap file of the first number.
bd_as "$OUTSIDER" sh -c ": >'$squat'"
[ "$(stat -c %U "$squat")" = "$OUTSIDER" ] || bd_fail "the squat file is not the outsider's"

# 7. Start with secrets in the environment the way a user's shell has them.
RC=0
OUT=$(BOTDESK_STATE_DIR=$STA bd_as "$UA" env PGPASSWORD=pg-secret DATABASE_URL=postgres://u:db-secret@h/d \
    github_token=gh-secret SSH_AUTH_SOCK=/tmp/agent-secret "$BOTDESK_BIN" start --json 2>"$E2E_SCRATCH/start.err") || RC=$?
ERR=$(<"$E2E_SCRATCH/start.err")
e2e_expect_rc 0 "start with the first number's keymap file squatted"
n=$(e2e_json display)
n=${n#:}
[ "$n" = $((lo + 1)) ] || bd_fail "start used :$n, expected :$((lo + 1)) (the squatted :$lo counts as taken)"
launcher=$(e2e_json pid)
xvnc=$(e2e_xvnc_pid "$n")
wm=$(pgrep -u "$UA" -s "$launcher" -x xfwm4 | head -1)
[ -n "$wm" ] || bd_fail "no xfwm4 in the desktop"
for p in "$xvnc" "$wm"; do
    if tr '\0' '\n' <"/proc/$p/environ" | grep -E 'secret|^PGPASSWORD=|^DATABASE_URL=|^github_token=|^SSH_AUTH_SOCK='; then
        bd_fail "a credential reached $(cat "/proc/$p/comm") ($p)"
    fi
done

# 3, the session's own check: asked for the squatted number directly, it refuses with 75.
d=$STA/direct
bd_as "$UA" mkdir -p "$d/xdg"
RC=0
bd_as "$UA" env BOTDESK_CONFIG_HOME="$d/xdg" BOTDESK_DISPLAY_NUM="$lo" BOTDESK_SOCKET="$d/rfb.sock" \
    BOTDESK_XAUTH="$d/Xauthority" BOTDESK_ENV_FILE="$d/env" "$E2E_SESSION" \
    >/dev/null 2>"$E2E_SCRATCH/direct.err" || RC=$?
[ "$RC" = 75 ] || bd_fail "the session on a squatted number: exit $RC, expected 75: $(cat "$E2E_SCRATCH/direct.err")"
grep -q "server-$lo.xkm belongs to uid $(id -u "$OUTSIDER")" "$E2E_SCRATCH/direct.err" ||
    bd_fail "the session's refusal does not name the squatted file: $(cat "$E2E_SCRATCH/direct.err")"
[ ! -e "/tmp/.X$lo-lock" ] && [ ! -e "/tmp/.X11-unix/X$lo" ] || bd_fail "the refused claim left files behind"

# 1. The sockets: the path is the owner's alone, the abstract name listens for nobody.
[ "$(stat -c '%a %U' "/tmp/.X11-unix/X$n")" = "700 $UA" ] ||
    bd_fail "/tmp/.X11-unix/X$n is $(stat -c '%a %U' "/tmp/.X11-unix/X$n"), expected 700 $UA"
awk -v want="@/tmp/.X11-unix/X$n" '$8 == want && $4 == "00010000" { bad = 1 } END { exit bad }' /proc/net/unix ||
    bd_fail "something listens on the abstract X socket of :$n"

# The flood: 300 silent connections to each, held open while the owner works.
coproc FLOOD { bd_as "$OUTSIDER" "$E2E_PY" -c '
import errno, socket, sys
path = "/tmp/.X11-unix/X" + sys.argv[1]
held, seen = [], {}
for kind, addr in (("abstract", "\0" + path), ("path", path)):
    for _ in range(300):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(addr)
            held.append(s)
            key = kind + ":connected"
        except OSError as e:
            s.close()
            key = kind + ":" + errno.errorcode.get(e.errno, str(e.errno))
        seen[key] = seen.get(key, 0) + 1
print(" ".join(sorted("%s=%d" % kv for kv in seen.items())), flush=True)
sys.stdin.read()
' "$n" 2>&1; }
read -r -t 60 -u "${FLOOD[0]}" flood || bd_fail "the flood did not report"
[ "$flood" = "abstract:ECONNREFUSED=300 path:EACCES=300" ] ||
    bd_fail "the outsider's flood got through: $flood"
e2e_bd "$UA" "$STA" exec -- xdpyinfo
e2e_expect_rc 0 "the owner's exec during the flood"
e2e_bd "$UA" "$STA" thumbnail --output "$E2E_SCRATCH/out-$UA/flood.png"
e2e_expect_rc 0 "the owner's thumbnail during the flood"
exec {FLOOD[1]}>&-
wait "$FLOOD_PID" 2>/dev/null || true

# 9. The desktop's Xvnc dies while its supervisor is stopped: its number stays claimed.
kill -STOP "$launcher"
kill -KILL "$xvnc"
bd_wait_gone "$xvnc" 10 || bd_fail "Xvnc outlived SIGKILL"
coproc TAKE { bd_as "$OUTSIDER" "$E2E_PY" -c '
import os, socket, sys, select
os.umask(0)
path = "/tmp/.X11-unix/X" + sys.argv[1]
got = []
for kind, addr in (("abstract", "\0" + path), ("path", path)):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(addr)
        s.listen(8)
        got.append(s)
        print(kind + ":bound", flush=True)
    except OSError as e:
        print(kind + ":" + str(e.errno), flush=True)
print("ready", flush=True)
r, _, _ = select.select(got + [sys.stdin], [], [], 60)
print("connected" if any(x is not sys.stdin for x in r) else "none", flush=True)
' "$n" 2>&1; }
took=
while read -r -t 30 -u "${TAKE[0]}" line && [ "$line" != ready ]; do
    took+="$line "
done
[[ $took != *bound* ]] || bd_fail "the outsider took an X socket of the owner's number: $took"
e2e_bd "$UA" "$STA" exec -- xdpyinfo
[ "$RC" = 1 ] || bd_fail "exec with the desktop's Xvnc dead: exit $RC, expected 1 ($ERR)"
[[ $ERR == *"does not answer"* ]] || bd_fail "exec's refusal does not say why: $ERR"
exec {TAKE[1]}>&-
read -r -t 30 -u "${TAKE[0]}" verdict || verdict=
[ "$verdict" = none ] || bd_fail "a client of the owner reached the outsider's socket ($verdict)"
kill -CONT "$launcher"
bd_wait_gone "$launcher" 20 || bd_fail "the session did not end after its Xvnc died"
e2e_bd "$UA" "$STA" status --json
[ "$(e2e_json running)" = false ] || bd_fail "status after the desktop ended: $OUT"
[ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ] || bd_fail "the ended desktop left its X files"
echo "PASS"
