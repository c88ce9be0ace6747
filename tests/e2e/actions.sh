#!/usr/bin/env bash
# The agent's hands and eyes on a real desktop, as a real non-root user. A window of the test
# suite (xrecorder) covers the screen, holds the pointer and keyboard and prints every event it
# gets:
#  - click, double-click, right-click, drag, scroll and move arrive at the right root
#    coordinates, also from a 960x600 picture (--from), and cursor reports the position;
#  - key combos arrive with their modifiers, --press/--release hold and let go;
#  - `type` of ASCII, accents, €, CJK and emoji arrives exactly under the us, de and fr layouts
#    (setxkbmap on the desktop), and the whole keyboard map is as before afterwards;
#  - screenshot: full size, --max, --region, JPEG; bad input exits 2 naming the argument;
#  - wait-change wakes on a change, times out without one; wait-idle returns on a quiet screen;
#  - while a human holds the lease every action exits 4 and nothing reaches the window;
#  - actions.jsonl has a line per action and never the typed text.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v setxkbmap >/dev/null || bd_skip "no setxkbmap: install x11-xkb-utils"
e2e_user_a

bd start --json
e2e_expect_rc 0 "start"

# The recorder, on the desktop, through botdesk exec.
e2e_recorder

# A click that is also the marker that everything before it arrived: events come in order.
SENTINEL=0
sentinel() {
    SENTINEL=$((SENTINEL + 1))
    local y=$((800 + SENTINEL % 50))
    bd click 1 "$y"
    e2e_expect_rc 0 "sentinel click"
    e2e_rec_wait "^release 1 1 $y\$" "$1"
}

# -- pointer
m=$(e2e_rec_mark)
bd click 100 200 --json
e2e_expect_rc 0 "click"
# The point, the screen, and the window it landed on (the recorder covers the screen; it is not
# managed, so no application window: null).
[ "$OUT" = '{"x":100,"y":200,"screen":"1440x900","window":null}' ] || bd_fail "click --json: $OUT"
e2e_rec_wait '^release 1 100 200$' "$m"
e2e_rec_since "$m" | grep -q '^press 1 100 200$' || bd_fail "click: no press at 100 200: $(e2e_rec_since "$m")"

m=$(e2e_rec_mark)
bd click 300 400 --button right
e2e_rec_wait '^release 3 300 400$' "$m"
m=$(e2e_rec_mark)
bd click 500 300 --double
e2e_rec_wait '^release 1 500 300$' "$m"
sentinel "$m"
[ "$(e2e_rec_since "$m" | grep -c '^press 1 500 300$')" = 2 ] || bd_fail "double click: $(e2e_rec_since "$m")"

# From the 960x600 thumbnail: pixel 480,300 covers screen [720, 721.5) x [450, 451.5): its centre
# is in 720,450; the last pixel, 959,599, covers [1438.5, 1440) x [898.5, 900): 1439,899.
m=$(e2e_rec_mark)
bd click 480 300 --from 960x600 --json
e2e_expect_rc 0 "click --from"
[ "$(e2e_json x),$(e2e_json y)" = "720,450" ] || bd_fail "click --from 960x600: $OUT"
e2e_rec_wait '^release 1 720 450$' "$m"
m=$(e2e_rec_mark)
bd click 959 599 --from 960x600
e2e_rec_wait '^release 1 1439 899$' "$m"

m=$(e2e_rec_mark)
bd drag 100 100 400 300
e2e_expect_rc 0 "drag"
e2e_rec_wait '^release 1 400 300$' "$m"
e2e_rec_since "$m" | grep -q '^press 1 100 100$' || bd_fail "drag did not press at 100 100: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^motion 250 200$' || bd_fail "drag did not pass through the middle: $(e2e_rec_since "$m")"
m=$(e2e_rec_mark)
bd drag 0 0 480 300 --from 960x600
e2e_rec_wait '^release 1 720 450$' "$m"
e2e_rec_since "$m" | grep -q '^press 1 0 0$' || bd_fail "drag --from: $(e2e_rec_since "$m")"

for d in up:4 down:5 left:6 right:7; do
    m=$(e2e_rec_mark)
    bd scroll 200 250 "--${d%:*}" 3
    e2e_expect_rc 0 "scroll --${d%:*}"
    sentinel "$m"
    [ "$(e2e_rec_since "$m" | grep -c "^press ${d#*:} 200 250\$")" = 3 ] || bd_fail "scroll --${d%:*} 3: $(e2e_rec_since "$m")"
done

bd move 640 480
e2e_expect_rc 0 "move"
bd cursor
[ "$OUT" = "640 480" ] || bd_fail "cursor after move: $OUT"
bd cursor --from 960x600 --json
[ "$OUT" = '{"x":427,"y":320,"screen":"1440x900"}' ] || bd_fail "cursor --from: $OUT"

# -- bad input: exit 2, the argument named, nothing delivered
m=$(e2e_rec_mark)
bd click 1440 10
e2e_expect_rc 2 "click off the screen"
[[ $ERR == *"X,Y = 1440,10 is off the 1440x900 screen"* ]] || bd_fail "off-screen message: $ERR"
bd click 960 10 --from 960x600
e2e_expect_rc 2 "click off the picture"
[[ $ERR == *"off the 960x600 picture"* ]] || bd_fail "off-picture message: $ERR"
bd key ctrl+nosuchkey
e2e_expect_rc 2 "unknown key"
[[ $ERR == *"unknown key name 'nosuchkey'"* ]] || bd_fail "unknown key message: $ERR"
bd type "$(printf 'caf\xe9')"
e2e_expect_rc 2 "text that is not UTF-8"
[[ $ERR == *"not UTF-8"* ]] || bd_fail "not-UTF-8 message: $ERR"
printf 'ok\xff' >"$OUTD/bad.txt"
bd type --file "$OUTD/bad.txt"
e2e_expect_rc 2 "a file that is not UTF-8"
[[ $ERR == *"$OUTD/bad.txt is not UTF-8"* ]] || bd_fail "not-UTF-8 file message: $ERR"
bd screenshot --region 1000,800,500,200
e2e_expect_rc 2 "a region outside the screen"
[[ $ERR == *"--region 1000,800,500,200 reaches outside the 1440x900 screen"* ]] || bd_fail "region message: $ERR"
sentinel "$m"
[ "$(e2e_rec_since "$m" | grep -c .)" -le 3 ] || bd_fail "bad input reached the window: $(e2e_rec_since "$m")"

# -- keys
m=$(e2e_rec_mark)
bd key ctrl+l shift+Tab Return F5 ctrl+shift+a
e2e_expect_rc 0 "key combos"
e2e_rec_wait '^key 0x41 0x5$' "$m"
e2e_rec_since "$m" | grep -q '^key 0x6c 0x4$' || bd_fail "ctrl+l: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^key 0xfe20 0x1$' || bd_fail "shift+Tab: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^key 0xff0d 0$' || bd_fail "Return: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^key 0xffc2 0$' || bd_fail "F5: $(e2e_rec_since "$m")"
m=$(e2e_rec_mark)
bd key --press ctrl
bd key b
bd key --release ctrl
bd key b
e2e_expect_rc 0 "key b"
sentinel "$m"
[ "$(e2e_rec_since "$m" | grep '^key 0x62 ' | tr '\n' ' ')" = "key 0x62 0x4 key 0x62 0 " ] ||
    bd_fail "--press/--release ctrl around b: $(e2e_rec_since "$m")"

# -- typing, under three layouts
TEXT='Hello, World! ~`^@#$%&*()_+-=[]{}|;:"<>?/\ 0123456789 àéèêëïôùüçñßÄÖÜ € 中文字 😀 Q'
expected=$("$E2E_PY" -c 'import sys; print(" ".join("U+%04X" % ord(c) for c in sys.argv[1]))' "$TEXT")
for layout in us de fr; do
    bd exec -- setxkbmap "$layout"
    e2e_expect_rc 0 "setxkbmap $layout"
    bd exec -- "$E2E_XRECORDER" --keymap
    e2e_expect_rc 0 "keymap before"
    before=$OUT
    [[ $before == *"group=0 "* ]] || bd_fail "$layout: $before"
    m=$(e2e_rec_mark)
    bd type "$TEXT" --json
    e2e_expect_rc 0 "type under $layout"
    e2e_rec_wait '^char U\+0051$' "$m"
    got=$(e2e_rec_since "$m" | sed -n 's/^char //p' | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$expected" ] || bd_fail "type under $layout: got
$got
expected
$expected"
    bd exec -- "$E2E_XRECORDER" --keymap
    [ "$OUT" = "$before" ] || bd_fail "the keymap under $layout differs after typing: $(diff <(echo "$before") <(echo "$OUT") | head)"
done
# From standard input and from a file, with a newline and a delay.
bd exec -- setxkbmap us
printf 'ab\ncd' >"$OUTD/t.txt"
m=$(e2e_rec_mark)
BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" type --delay 5 <"$OUTD/t.txt" || bd_fail "type from stdin"
e2e_rec_wait '^char U\+0064$' "$m"
[ "$(e2e_rec_since "$m" | sed -n 's/^char //p' | tr '\n' ' ')" = "U+0061 U+0062 U+000A U+0063 U+0064 " ] ||
    bd_fail "type from stdin: $(e2e_rec_since "$m")"
m=$(e2e_rec_mark)
bd type --file "$OUTD/t.txt"
e2e_rec_wait '^char U\+0064$' "$m"

# -- screenshots
bd screenshot --output "$OUTD/full.png"
e2e_expect_rc 0 "screenshot"
"$E2E_PNGCHECK" "$OUTD/full.png" 1440 900 || bd_fail "full-size screenshot"
bd screenshot --max 960x600 --output "$OUTD/small.png"
"$E2E_PNGCHECK" "$OUTD/small.png" 960 600 || bd_fail "screenshot --max"
bd screenshot --region 90,190,20,20 --output "$OUTD/region.png"
"$E2E_PNGCHECK" "$OUTD/region.png" 20 20 || bd_fail "screenshot --region (the square drawn at 100,200 is in it)"
bd screenshot --format jpeg --output "$OUTD/shot.jpg"
e2e_expect_rc 0 "jpeg screenshot"
"$E2E_PY" - "$OUTD/shot.jpg" <<'PY' || bd_fail "the JPEG screenshot"
import os, sys
sys.path.insert(0, os.environ["BD_SRCDIR"] + "/tests/e2e")
from e2elib import jpeg_size
size = jpeg_size(open(sys.argv[1], "rb").read())
assert size == (1440, 900), size
PY
bd screenshot --output -
[ "${OUT:1:3}" = PNG ] || bd_fail "screenshot --output - is not a PNG"
bd screenshot
[[ $OUT == data:image/png\;base64,* ]] || bd_fail "screenshot without --output: ${OUT:0:40}"

# -- waits: the recorder draws a square on every press
bd wait-change --timeout 0.5
e2e_expect_rc 1 "wait-change on a still screen"
[[ $ERR == *"did not change within 0.500 s"* ]] || bd_fail "wait-change timeout message: $ERR"
(
    rc=0
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" wait-change --timeout 20 --json >"$OUTD/wc.out" 2>&1 || rc=$?
    echo "$rc" >"$OUTD/wc.rc"
) &
WC=$!
# No event says when it is watching: click (each press draws a square) until it has returned,
# waiting on its exit in between.
deadline=$((SECONDS + 15))
while ! grep -q . "$OUTD/wc.rc" 2>/dev/null && ((SECONDS < deadline)); do
    bd click 700 10
    timeout 0.5 tail --pid=$WC -f /dev/null || true
done
wait $WC
[ "$(cat "$OUTD/wc.rc")" = 0 ] || bd_fail "wait-change missed the change: $(cat "$OUTD/wc.out")"
grep -q '"changed":true' "$OUTD/wc.out" || bd_fail "wait-change --json: $(cat "$OUTD/wc.out")"
bd wait-idle --quiet 0.2 --timeout 10 --json
e2e_expect_rc 0 "wait-idle"
grep -q '"idle":true' <<<"$OUT" || bd_fail "wait-idle --json: $OUT"

# -- the lease: a human holds the desktop, every action exits 4, nothing arrives
bd take --reason "typing a password"
e2e_expect_rc 0 "take"
m=$(e2e_rec_mark)
lines_before=$(wc -l <"$ST/default/actions.jsonl")
for a in "click 10 10" "move 20 20" "drag 1 1 5 5" "scroll 5 5 --down" "cursor" "type secret" \
    "key Return" "screenshot --output $OUTD/no.png" "wait-idle" "wait-change --timeout 1"; do
    # shellcheck disable=SC2086
    bd $a
    e2e_expect_rc 4 "$a while a human holds the desktop"
    [[ $ERR == *"a human holds the desktop of profile 'default' since "*"(typing a password)"* ]] ||
        bd_fail "$a: the message: $ERR"
done
# botdesk-act and botdesk-act-pointer read the lease again themselves (a human may take the
# desktop between the runner's check and the action): run directly, they refuse too.
disp=$(sed -n 's/^DISPLAY=//p' "$ST/default/env")
RC=0
# shellcheck disable=SC2016 # expanded by the inner shell
bd_as "$U" bash -c 'exec 3<"$1"; exec "$2" default "$1" 3 "$3" "$1/Xauthority" 0 click 10 10' \
    _ "$ST/default" "${BOTDESK_ACT:-/usr/lib/botdesk/botdesk-act}" "$disp" 2>"$OUTD/act.err" || RC=$?
[ "$RC" = 4 ] || bd_fail "botdesk-act under a human's lease: exit $RC: $(cat "$OUTD/act.err")"
RC=0
# shellcheck disable=SC2016 # expanded by the inner shell
bd_as "$U" bash -c 'exec 3<"$1"; exec "$2" default "$1" 3 "$3" "$1/Xauthority" 0 click 10 10' \
    _ "$ST/default" "${BOTDESK_ACT_POINTER:-/usr/lib/botdesk/botdesk-act-pointer}" "$disp" 2>"$OUTD/act.err" || RC=$?
[ "$RC" = 4 ] || bd_fail "botdesk-act-pointer under a human's lease: exit $RC: $(cat "$OUTD/act.err")"
[ ! -e "$OUTD/no.png" ] || bd_fail "a screenshot was written while a human held the desktop"
[ "$(wc -l <"$ST/default/actions.jsonl")" = "$lines_before" ] || bd_fail "refused actions were logged as done"
bd release
e2e_expect_rc 0 "release"
sentinel "$m"
[ "$(e2e_rec_since "$m" | grep -c .)" -le 3 ] || bd_fail "events reached the window while a human held the desktop: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^key ' && bd_fail "keys reached the window while a human held the desktop"

# -- the action log
LOG=$ST/default/actions.jsonl
[ "$(stat -c '%a %U' "$LOG")" = "600 $U" ] || bd_fail "actions.jsonl is $(stat -c '%a %U' "$LOG")"
"$E2E_PY" - "$LOG" "$TEXT" <<'PY' || bd_fail "actions.jsonl"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
cmds = [l["command"] for l in lines]
for c in ("click", "drag", "scroll", "move", "cursor", "key", "type", "screenshot", "wait-change", "wait-idle"):
    assert c in cmds, c
click = next(l for l in lines if l["command"] == "click" and l.get("from") == "960x600")
assert (click["x"], click["y"]) == (720, 450), click
typed = [l for l in lines if l["command"] == "type" and l["result"] == "ok"]
assert typed[0]["text_length"] == len(sys.argv[2]), typed[0]
raw = open(sys.argv[1], encoding="utf-8").read()
assert "Hello" not in raw and "secret" not in raw and "text\"" not in raw, "typed text in the log"
assert all("time" in l and l["source"] == "cli" for l in lines)
PY
# Every action is a use of the desktop for the idle clock.
touch -d '2001-01-01' "$ST/default/activity"
bd cursor
bd status --json
(($(e2e_json idle_seconds) < 100)) || bd_fail "an action did not stamp the activity: $OUT"

# botdesk-act-pointer checks who runs the X server on the very socket it connects, before it
# sends anything (the runner leaves that check to it): a stranger listening on a display number
# gets refused, and never sees the cookie.
if bd_is_root; then
    B=$(bd_test_user "$BD_USER_B")
    n=32000
    while [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
    GOT=$OUTD/stranger-got
    : >"$GOT"
    chown "$B:" "$GOT"
    exec {stranger}< <(exec setpriv --reuid="$B" --regid="$(id -g "$B")" --clear-groups "$E2E_PY" -c '
import os, socket, sys
os.umask(0)  # connectable by anyone, as an X server makes its socket
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
print("ok", flush=True)
c, _ = s.accept()
c.settimeout(2)
got = b""
try:
    while True:
        d = c.recv(4096)
        if not d:
            break
        got += d
except socket.timeout:
    pass
open(sys.argv[2], "w").write(str(len(got)))
os.unlink(sys.argv[1])' "/tmp/.X11-unix/X$n" "$GOT" 2>/dev/null)
    stranger_pid=$!
    read -r -u "$stranger" _ || bd_fail "the stranger's listener did not start"
    RC=0
    # shellcheck disable=SC2016 # expanded by the inner shell
    bd_as "$U" bash -c 'exec 3<"$1"; exec "$2" default "$1" 3 "$3" "$1/Xauthority" 0 click 10 10' \
        _ "$ST/default" "${BOTDESK_ACT_POINTER:-/usr/lib/botdesk/botdesk-act-pointer}" ":$n" 2>"$OUTD/act.err" || RC=$?
    [ "$RC" = 1 ] || bd_fail "botdesk-act-pointer against a stranger's server: exit $RC: $(cat "$OUTD/act.err")"
    grep -q "runs as uid $(id -u "$B")" "$OUTD/act.err" || bd_fail "the refusal names no uid: $(cat "$OUTD/act.err")"
    tail --pid="$stranger_pid" -f /dev/null
    [ "$(cat "$GOT")" = 0 ] || bd_fail "the stranger's server got $(cat "$GOT") bytes"
fi
bd stop
echo "ok: actions"
