#!/usr/bin/env bash
# A human's take stops the agent part way, on a real desktop, as a real non-root user (issue 22):
#  - a long `botdesk type` (and one through MCP) stops when `botdesk take` runs: after take has
#    returned, no key of the agent's reaches the desktop (the recorder sees the take's own
#    release of Shift, then a marker key sent after take returned, and no letter after either);
#  - every key and button the agent held (`key --press shift`, a button pressed through XTEST)
#    is released by take, before it returns;
#  - the command exits 4 saying after how many characters it stopped, the MCP tool result is an
#    error saying the same, and actions.jsonl records where it stopped.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v xdotool >/dev/null || bd_skip "no xdotool: install xdotool"
e2e_user_a

bd() { e2e_bd "$U" "$ST" "$@"; }

bd start
e2e_expect_rc 0 "start"
e2e_recorder

# rec_wait PATTERN [FROM_LINE]: waits (bounded; woken by the file growing) until a line after
# FROM_LINE matches the extended regex PATTERN.
rec_wait() {
    local pat=$1 from=${2:-0} deadline=$((SECONDS + 30))
    until tail -n +$((from + 1)) "$REC" | grep -Eq -- "$pat"; do
        ((SECONDS < deadline)) || bd_fail "the recorder never got '$pat' (after line $from): $(tail -n +$((from + 1)) "$REC" | tail -20)
$(e2e_recorder_diag)"
        kill -0 "$RECPID" 2>/dev/null || bd_fail "the recorder died: $(cat "$REC_ERR")"
        inotifywait -qq -t 1 -e modify "$REC" 2>/dev/null || true
    done
}
mark() { wc -l <"$REC"; }
since() { tail -n +$(($1 + 1)) "$REC"; }

# xdotool as the desktop's user, as a human's own tool would (botdesk exec refuses while a human
# holds the desktop).
DISP=$(sed -n 's/^DISPLAY=//p' "$ST/default/env")
XAUTH=$(sed -n 's/^XAUTHORITY=//p' "$ST/default/env")
xdo() {
    RC=0
    OUT=$(bd_as "$U" env DISPLAY="$DISP" XAUTHORITY="${XAUTH:-$ST/default/Xauthority}" xdotool "$@" 2>&1) || RC=$?
    ERR=$OUT
}

N=10000
TEXT=$(printf 'a%.0s' $(seq $N))

# hold: the agent holds Shift (so every letter it types arrives as 'A', key 0x41 with state 1)
# and button 1 (through XTEST, as the agent's drag would).
hold() {
    bd key --press shift
    e2e_expect_rc 0 "key --press shift"
    local m
    m=$(mark)
    xdo mousedown 1
    e2e_expect_rc 0 "xdotool mousedown 1"
    rec_wait '^press 1 ' "$m"
}

# check_stop FROM SENT WHO: after take returned, a marker key (F12) is sent; it must arrive with
# no modifier and no button held (take released them), the letters before it must be exactly
# the SENT the agent reported, all typed with Shift held, and none may follow it.
check_stop() {
    local from=$1 sent=$2 who=$3 ev
    xdo key F12
    e2e_expect_rc 0 "the marker key"
    rec_wait '^key 0xffc9 ' "$from"
    ev=$(since "$from")
    grep -q '^key 0xffc9 0$' <<<"$ev" ||
        bd_fail "$who: the marker key arrived with a key or button still held (take did not release them): $(grep '^key 0xffc9' <<<"$ev")"
    sed -n '/^key 0xffc9 /,$p' <<<"$ev" | grep -q '^key 0x[46]1 ' &&
        bd_fail "$who: letters arrived after take returned: $(sed -n '/^key 0xffc9 /,$p' <<<"$ev" | grep -c '^key 0x[46]1 ')"
    local before
    before=$(sed -n '/^key 0xffc9 /q;p' <<<"$ev")
    grep -q '^key 0x61 ' <<<"$before" &&
        bd_fail "$who: a letter arrived after take had released Shift: $(grep -c '^key 0x61 ' <<<"$before")"
    grep -q '^release 1 ' <<<"$before" || bd_fail "$who: take did not release button 1"
    [ "$(grep -c '^key 0x41 ' <<<"$before")" = "$sent" ] ||
        bd_fail "$who: $(grep -c '^key 0x41 ' <<<"$before") letters arrived, the agent reported $sent"
    ((sent > 0 && sent < N)) || bd_fail "$who: stopped after $sent of $N"
}

# -- botdesk type, cut short by botdesk take
hold
m=$(mark)
(
    rc=0
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" type "$TEXT" >"$OUTD/type.out" 2>"$OUTD/type.err" || rc=$?
    echo "$rc" >"$OUTD/type.rc"
) &
TYPER=$!
deadline=$((SECONDS + 30))
until (($(since "$m" | grep -c '^key 0x41 ') >= 30)); do
    ((SECONDS < deadline)) || bd_fail "typing never started: $(since "$m" | tail -5)"
    inotifywait -qq -t 1 -e modify "$REC" 2>/dev/null || true
done
bd take --reason "mid-way"
e2e_expect_rc 0 "take"
timeout 30 tail --pid=$TYPER -f /dev/null || bd_fail "botdesk type still runs 30 s after take"
wait $TYPER
[ "$(cat "$OUTD/type.rc")" = 4 ] || bd_fail "botdesk type cut short: exit $(cat "$OUTD/type.rc"), expected 4: $(cat "$OUTD/type.err")"
sent=$(sed -n "s/.*stopped: a human took the desktop after \([0-9]*\) of $N characters.*/\1/p" "$OUTD/type.err")
[ -n "$sent" ] || bd_fail "botdesk type's message: $(cat "$OUTD/type.err")"
check_stop "$m" "$sent" "botdesk type"
tail -n 1 "$ST/default/actions.jsonl" | grep -q "\"command\":\"type\".*\"result\":\"stopped: a human took the desktop after $sent of $N characters\",\"sent\":$sent}" ||
    bd_fail "actions.jsonl: $(tail -n 1 "$ST/default/actions.jsonl")"
bd release
e2e_expect_rc 0 "release"

# -- the same through MCP
hold
m=$(mark)
RES=$(BOTDESK_STATE_DIR=$ST bd_as "$U" "$E2E_PY" "$BD_SRCDIR/tests/e2e/mcp-take.py" "$BOTDESK_BIN" "$REC" "$N") ||
    bd_fail "the MCP client: $RES"
sent=$("$E2E_PY" - "$RES" "$N" <<'PY'
import json, re, sys
res = json.loads(sys.argv[1])
assert res.get("isError") is True, res
m = re.search(r"stopped: a human took the desktop after (\d+) of %s characters" % sys.argv[2], res["content"][0]["text"])
assert m, res
print(m.group(1))
PY
) || bd_fail "the MCP result: $RES"
check_stop "$m" "$sent" "MCP type"
tail -n 1 "$ST/default/actions.jsonl" | grep -q "\"source\":\"mcp\",\"command\":\"type\".*\"result\":\"stopped: a human took the desktop after $sent of $N characters\"" ||
    bd_fail "actions.jsonl after MCP: $(tail -n 1 "$ST/default/actions.jsonl")"

bd stop
echo "ok: take-midway"
