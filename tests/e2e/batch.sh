#!/usr/bin/env bash
# botdesk batch on a real desktop, as a real non-root user (issue 25.4): the steps of one JSON
# array on stdin, in one process, checked in what reached the recording window:
#  - all done: every step in order, one result each, exit 0, a line per step in actions.jsonl;
#  - a step that fails stops the batch (exit 1): the result names the step and why, and no later
#    step reaches the desktop;
#  - malformed input (not JSON, an unknown tool, a step's bad arguments) is exit 2 before any
#    step runs: not even the first step's click arrives;
#  - a human's take part way through a step (a long type) stops it at once (exit 4): the step's
#    own lease watch cuts the typing, and no later step is sent;
#  - a take and a hand-back between two steps stop it too (exit 4): the lease's epoch is checked
#    before every step, so the rest of a batch planned under the agent's lease is not sent under
#    a new one.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v xdotool >/dev/null || bd_skip "no xdotool: install xdotool"
e2e_user_a

# batch JSON: botdesk batch with JSON on stdin; sets RC, OUT, ERR.
batch() {
    RC=0
    printf '%s' "$1" >"$OUTD/batch.in"
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" batch <"$OUTD/batch.in" >"$OUTD/batch.out" 2>"$OUTD/batch.err" || RC=$?
    OUT=$(<"$OUTD/batch.out")
    ERR=$(<"$OUTD/batch.err")
}
# json EXPR: EXPR (Python, over the batch's output as `r`) must be true.
json() {
    "$E2E_PY" -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
        "$OUTD/batch.out" "$1" || bd_fail "the batch's result does not satisfy $1: $(head -c 1500 "$OUTD/batch.out")"
}
# marker X Y FROM: a click of the agent's own after the batch; once it arrived, whatever the
# batch sent has arrived too (one X connection after the other, each synced).
marker() {
    bd click "$1" "$2"
    e2e_expect_rc 0 "the marker click"
    e2e_rec_wait "^release 1 $1 $2\$" "$3" 30
}

bd start
e2e_expect_rc 0 "start"
e2e_recorder
DISP=$(sed -n 's/^DISPLAY=//p' "$P/env")
XAUTH=$(sed -n 's/^XAUTHORITY=//p' "$P/env")

# -- all done, in order, logged
m=$(e2e_rec_mark)
log0=$(wc -l <"$P/actions.jsonl" 2>/dev/null || echo 0)
batch '[{"tool":"click","arguments":{"x":100,"y":110}},{"tool":"click","arguments":{"x":200,"y":210,"button":"right"}},
 {"tool":"type","arguments":{"text":"ok"}},{"tool":"key","arguments":{"keys":["Return"]}},{"tool":"cursor"},
 {"tool":"screenshot","arguments":{"max":"96x60","format":"png"}}]'
[ "$RC" = 0 ] || bd_fail "a batch that should all be done: exit $RC: $ERR"
json 'r["status"] == "done" and r["steps"] == 6 and r["done"] == 6 and "stopped" not in r'
json '[s["step"] for s in r["results"]] == [1, 2, 3, 4, 5, 6] and all(s["ok"] for s in r["results"])'
# The CLI's space is the screen's, as its single actions'.
# A pointer step's result also names the window it landed on (issue 26): not this test's point.
json '{k: v for k, v in r["results"][1]["result"].items() if k != "window"} == {"x": 200, "y": 210, "screen": "1440x900"}'
json 'r["results"][4]["result"]["x"] == 200 and r["results"][4]["result"]["y"] == 210'
json 'r["results"][5]["result"]["width"] == 96 and r["results"][5]["images"][0].startswith("data:image/png;base64,iVBOR")'
e2e_rec_wait '^key 0xff0d ' "$m" 30
ev=$(e2e_rec_since "$m" | grep -E '^(press|char|key 0xff0d)')
expected="press 1 100 110
press 3 200 210
char U+006F
char U+006B
key 0xff0d 0
char U+000A"
[ "$ev" = "$expected" ] || bd_fail "the batch's events, in order: $ev"
tail -n +$((log0 + 1)) "$P/actions.jsonl" | grep -o '"source":"cli","command":"[a-z-]*"' | cut -d'"' -f8 | paste -sd' ' |
    grep -qx 'click click type key cursor screenshot' ||
    bd_fail "actions.jsonl has no line per step: $(tail -n +$((log0 + 1)) "$P/actions.jsonl")"
echo "ok: all done"

# -- a failing step stops the batch
m=$(e2e_rec_mark)
batch '[{"tool":"click","arguments":{"x":300,"y":310}},{"tool":"click","arguments":{"x":5000,"y":5}},{"tool":"click","arguments":{"x":400,"y":410}}]'
[ "$RC" = 1 ] || bd_fail "a batch with a step off the screen: exit $RC, expected 1: $ERR"
json 'r["status"] == "failed" and r["done"] == 1 and len(r["results"]) == 2'
json 'r["stopped"]["step"] == 2 and r["stopped"]["reason"] == "failed" and "off the 1440x900 screen" in r["stopped"]["message"]'
grep -q "the batch stopped at step 2 (click): X,Y = 5000,5 is off" <<<"$ERR" || bd_fail "stderr: $ERR"
marker 31 32 "$m"
e2e_rec_since "$m" | grep -q '^press 1 300 310$' || bd_fail "the step before the failure did not arrive"
e2e_rec_since "$m" | grep -q '^press 1 400 410$' && bd_fail "a step after the failure arrived"
echo "ok: a failure stops it"

# -- malformed input: nothing runs
m=$(e2e_rec_mark)
for input in 'not json' '{"tool":"click"}' '[]' '[{"tool":"click","arguments":{"x":500,"y":510}},{"tool":"teleport"}]' \
    '[{"tool":"click","arguments":{"x":500,"y":510}},{"tool":"click","arguments":{"x":1}}]' \
    '[{"tool":"click","arguments":{"x":500,"y":510}},{"tool":"batch","arguments":{"steps":[]}}]'; do
    batch "$input"
    [ "$RC" = 2 ] || bd_fail "malformed batch $input: exit $RC, expected 2: $ERR"
    [ -z "$OUT" ] || bd_fail "malformed batch $input printed a result: $OUT"
done
grep -q "step 2 (click): invalid arguments: 'y' is required" <<<"$ERR$(batch '[{"tool":"cursor"},{"tool":"click","arguments":{"x":1}}]'; echo "$ERR")" ||
    bd_fail "the bad step's message: $ERR"
head -c $((1024 * 1024 + 10)) /dev/zero | tr '\0' ' ' >"$OUTD/big.in"
RC=0
BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" batch <"$OUTD/big.in" >/dev/null 2>"$OUTD/batch.err" || RC=$?
[ "$RC" = 2 ] && grep -q "longer than 1048576 bytes" "$OUTD/batch.err" || bd_fail "an oversize batch: exit $RC: $(cat "$OUTD/batch.err")"
marker 33 34 "$m"
e2e_rec_since "$m" | grep -q '^press 1 500 510$' && bd_fail "a malformed batch's first step arrived"
echo "ok: malformed input runs nothing"

# -- a take part way through a step: the typing stops, and no later step is sent
N=10000
m=$(e2e_rec_mark)
printf '[{"tool":"type","arguments":{"text":"%s"}},{"tool":"click","arguments":{"x":600,"y":610}}]' "$(printf 'a%.0s' $(seq $N))" >"$OUTD/long.in"
(
    rc=0
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" batch <"$OUTD/long.in" >"$OUTD/batch.out" 2>"$OUTD/batch.err" || rc=$?
    echo "$rc" >"$OUTD/batch.rc"
) &
BATCHER=$!
e2e_rec_wait '^key 0x61 ' "$m" 30 30
bd take --reason "mid-batch"
e2e_expect_rc 0 "take"
timeout 30 tail --pid=$BATCHER -f /dev/null || bd_fail "botdesk batch still runs 30 s after take"
wait $BATCHER
[ "$(cat "$OUTD/batch.rc")" = 4 ] || bd_fail "a batch cut short by a take: exit $(cat "$OUTD/batch.rc"), expected 4: $(cat "$OUTD/batch.err")"
json 'r["status"] == "human" and r["done"] == 0 and r["stopped"]["step"] == 1 and r["stopped"]["reason"] == "human"'
json 'r["stopped"]["message"].startswith("stopped: a human took the desktop after ")'
sent=$(e2e_rec_since "$m" | grep -c '^key 0x61 ')
((sent < N)) || bd_fail "all $N characters arrived despite the take"
bd release
e2e_expect_rc 0 "release"
marker 35 36 "$m"
e2e_rec_since "$m" | grep -q '^press 1 600 610$' && bd_fail "the step after the take arrived"
echo "ok: a take during a step stops the batch ($sent of $N characters)"

# -- a take and a hand-back between two steps: the next step's check sees a new epoch
m=$(e2e_rec_mark)
batch_bg() {
    (
        rc=0
        BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" batch <"$OUTD/between.in" >"$OUTD/batch.out" 2>"$OUTD/batch.err" || rc=$?
        echo "$rc" >"$OUTD/batch.rc"
    ) &
    BATCHER=$!
}
# A move draws nothing; the wait then lasts until the screen changes, which only the human's
# click below does (the recorder covers the screen and draws on a press).
printf '%s' '[{"tool":"move","arguments":{"x":321,"y":322}},{"tool":"wait","arguments":{"for":"change","timeout":60}},{"tool":"click","arguments":{"x":700,"y":710}}]' >"$OUTD/between.in"
batch_bg
e2e_rec_wait '^motion 321 322$' "$m" 30
bd take --reason "between steps"
e2e_expect_rc 0 "take"
bd release
e2e_expect_rc 0 "release"
kill -0 "$BATCHER" 2>/dev/null || bd_fail "the batch ended before the screen changed: $(cat "$OUTD/batch.err")"
RC=0
bd_as "$U" env DISPLAY="$DISP" XAUTHORITY="${XAUTH:-$P/Xauthority}" xdotool mousemove 41 42 click 1 || RC=$?
[ "$RC" = 0 ] || bd_fail "the human's click (xdotool): exit $RC"
timeout 30 tail --pid=$BATCHER -f /dev/null || bd_fail "botdesk batch still runs 30 s after the screen changed"
wait $BATCHER
[ "$(cat "$OUTD/batch.rc")" = 4 ] || bd_fail "a batch across a take and a hand-back: exit $(cat "$OUTD/batch.rc"), expected 4: $(cat "$OUTD/batch.err")"
json 'r["status"] == "human" and r["done"] == 2 and r["stopped"]["step"] == 3 and r["stopped"]["reason"] == "human"'
json '"handed it back" in r["stopped"]["message"]'
marker 37 38 "$m"
e2e_rec_since "$m" | grep -q '^press 1 700 710$' && bd_fail "the step after the hand-back arrived"
echo "ok: a take and a hand-back between steps stop the batch"

# -- held by a human from the start: refused before any step (exit 4)
bd take
m=$(e2e_rec_mark)
batch '[{"tool":"click","arguments":{"x":800,"y":810}}]'
[ "$RC" = 4 ] && grep -q 'a human holds the desktop of profile' <<<"$ERR" || bd_fail "a batch under a human's lease: exit $RC: $ERR"
bd release
marker 39 40 "$m"
e2e_rec_since "$m" | grep -q '^press 1 800 810$' && bd_fail "a batch under a human's lease was sent"

bd stop
echo "ok: batch"
