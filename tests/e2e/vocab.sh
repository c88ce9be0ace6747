#!/usr/bin/env bash
# The models' vocabulary on the CLI (issue 25.5) on a real desktop, as a real non-root user, seen
# by the suite's recording window (xrecorder):
#  - click --triple is three presses at the point; --hold shift presses Shift before the button;
#  - mouse-down and mouse-up hold the button across a move, also where the pointer is;
#  - drag --path passes through every point in turn;
#  - key --hold-for sends the key; wait pauses (its --json says how long, at least asked);
#  - a take during a hold stops it (exit 4, "after 1 of 2 key events") and the key is let go;
#  - while a human holds the lease every new action exits 4 and nothing reaches the window;
#  - actions.jsonl has a line for each, with the click count, the held keys and the path.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
# A pointer action's --json also names the window it landed on (issue 26): not this test's point.
no_window() {
    python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("window", None); print(json.dumps(d, separators=(",", ":")))'
}
e2e_init
e2e_user_a

bd start --json
e2e_expect_rc 0 "start"
e2e_recorder

# -- triple click: three presses at the point, back to back
m=$(e2e_rec_mark)
bd click 300 200 --triple --json
e2e_expect_rc 0 "click --triple"
[ "$(no_window <<<"$OUT")" = '{"x":300,"y":200,"screen":"1440x900"}' ] || bd_fail "click --triple --json: $OUT"
bd click 1 801
e2e_rec_wait '^release 1 1 801$' "$m"
[ "$(e2e_rec_since "$m" | grep -c '^press 1 300 200$')" = 3 ] || bd_fail "triple click: $(e2e_rec_since "$m")"

# -- keys held around a click: Shift goes down before the button, and is up again after
m=$(e2e_rec_mark)
bd click 320 220 --hold shift
e2e_expect_rc 0 "click --hold shift"
bd key a
e2e_rec_wait '^key 0x61 0$' "$m"
e2e_rec_since "$m" | grep -E '^(key|press)' | head -2 | tr '\n' ' ' | grep -q '^key 0xffe1 0 press 1 320 220 $' ||
    bd_fail "click --hold shift: Shift then the press expected: $(e2e_rec_since "$m")"
bd click 330 230 --hold ctrl+nosuchkey
e2e_expect_rc 2 "--hold with an unknown key"

# -- mouse-down, a move, mouse-up: a drag of the script's own; then where the pointer is
m=$(e2e_rec_mark)
bd mouse-down 400 300
e2e_expect_rc 0 "mouse-down"
bd move 450 320
bd mouse-up 500 350 --json
e2e_expect_rc 0 "mouse-up"
e2e_rec_wait '^release 1 500 350$' "$m"
e2e_rec_since "$m" | grep -q '^press 1 400 300$' || bd_fail "mouse-down: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^motion 450 320$' || bd_fail "the move with the button down: $(e2e_rec_since "$m")"
m=$(e2e_rec_mark)
bd move 600 400
bd mouse-down --button right
e2e_expect_rc 0 "mouse-down where the pointer is"
bd mouse-up --button right --json
[ "$(no_window <<<"$OUT")" = '{"x":600,"y":400,"screen":"1440x900"}' ] || bd_fail "mouse-up where the pointer is: $OUT"
e2e_rec_wait '^release 3 600 400$' "$m"
e2e_rec_since "$m" | grep -q '^press 3 600 400$' || bd_fail "mouse-down where the pointer is: $(e2e_rec_since "$m")"

# -- drag along a path: every point passed, in order
m=$(e2e_rec_mark)
bd drag --path 100,100 200,100 200,250 50,250 --json
e2e_expect_rc 0 "drag --path"
[ "$(no_window <<<"$OUT")" = '{"x":100,"y":100,"x2":50,"y2":250,"screen":"1440x900"}' ] || bd_fail "drag --path --json: $OUT"
e2e_rec_wait '^release 1 50 250$' "$m"
got=$(e2e_rec_since "$m" | grep -E '^motion (200 100|200 250|50 250)$' | uniq | tr '\n' ' ')
[ "$got" = "motion 200 100 motion 200 250 motion 50 250 " ] || bd_fail "drag --path: $(e2e_rec_since "$m")"
e2e_rec_since "$m" | grep -q '^press 1 100 100$' || bd_fail "drag --path did not press at the first point"
bd drag --path 1,1 1440,1
e2e_expect_rc 2 "a path point off the screen"

# -- a key held for a while, a pause
m=$(e2e_rec_mark)
bd key b --hold-for 0.3 --json
e2e_expect_rc 0 "key --hold-for"
e2e_rec_wait '^key 0x62 0$' "$m"
bd wait 0.3 --json
e2e_expect_rc 0 "wait"
(($(e2e_json waited_ms) >= 300)) || bd_fail "wait 0.3 waited less: $OUT"
bd wait 0
e2e_expect_rc 2 "wait 0"

# -- a take during a hold: the release is not sent (the take let the key go), exit 4
m=$(e2e_rec_mark)
(
    rc=0
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" key shift --hold-for 3 >"$OUTD/hold.out" 2>&1 || rc=$?
    echo "$rc" >"$OUTD/hold.rc"
) &
HOLD=$!
e2e_rec_wait '^key 0xffe1 0$' "$m"
bd take --reason "mid-hold"
e2e_expect_rc 0 "take during a hold"
wait $HOLD
[ "$(cat "$OUTD/hold.rc")" = 4 ] || bd_fail "key --hold-for cut by a take: exit $(cat "$OUTD/hold.rc"): $(cat "$OUTD/hold.out")"
grep -q "after 1 of 2 key events" "$OUTD/hold.out" || bd_fail "the hold's message: $(cat "$OUTD/hold.out")"
bd release
m=$(e2e_rec_mark)
bd key a
e2e_rec_wait '^key 0x61 ' "$m"
e2e_rec_since "$m" | grep -q '^key 0x61 0$' || bd_fail "Shift still held after the take: $(e2e_rec_since "$m")"
grep -q '"command":"key".*"result":"stopped: a human took the desktop after 1 of 2 key events","sent":1' \
    "$ST/default/actions.jsonl" || bd_fail "the cut hold's log line: $(grep '"key"' "$ST/default/actions.jsonl")"

# -- a human holds the desktop: every new action exits 4, nothing arrives
bd take --reason "checking"
e2e_expect_rc 0 "take"
m=$(e2e_rec_mark)
for a in "click 10 10 --triple" "click 10 10 --hold shift" "mouse-down 10 10" "mouse-up" \
    "drag --path 1,1 5,5 9,1" "key a --hold-for 0.1" "wait 0.1"; do
    # shellcheck disable=SC2086
    bd $a
    e2e_expect_rc 4 "$a while a human holds the desktop"
done
bd release
e2e_expect_rc 0 "release"
bd click 2 802
e2e_rec_wait '^release 1 2 802$' "$m"
[ "$(e2e_rec_since "$m" | grep -c .)" -le 3 ] || bd_fail "events reached the window while a human held the desktop: $(e2e_rec_since "$m")"

# -- the action log
"$E2E_PY" - "$ST/default/actions.jsonl" <<'PY' || bd_fail "actions.jsonl: $(cat "$ST/default/actions.jsonl")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
by = lambda c: [l for l in lines if l["command"] == c and l["result"] == "ok"]
assert any(l.get("clicks") == 3 for l in by("click")), "no triple click"
assert any(l.get("hold") == "shift" for l in by("click")), "no held shift"
assert any(l.get("path_points") == 4 for l in by("drag")), "no path"
assert by("mouse-down") and by("mouse-up"), "no mouse-down/up"
assert any(l.get("hold_ms") == 300 for l in by("key")), "no key hold"
assert any(l.get("seconds") == 0.3 for l in by("wait")), "no wait"
PY
bd stop
echo "ok: vocab"
