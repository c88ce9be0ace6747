#!/usr/bin/env bash
# botdesk web's page in a real browser (headless Chromium) against another user's server on the
# same host (bdtest-out, tests/e2e/webimpostor.py):
# - a page of theirs on another loopback port sets a cookie under the name all servers once
#   shared (cookies ignore ports); the owner's page still loads: its cookie is its server's own;
# - when the owner's --listen server stops with its page open and the outsider binds the port,
#   the page does not take their word: their lease cannot prove the page's key, the page stops
#   reconnecting and says why, and their server gets no stream, no RFB, nothing typed.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open
e2e_outsider

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
br_start --size 1024x700
free_port() {
    "$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
pa=$(free_port)
pb=$(free_port)
A=127.0.0.1:$pa
web_start default --listen "$A"
br_ok open "$WEB_URL"
br_ok wait 'window.botdeskConnected >= 1' 20

# The outsider's server, first on another port.
imp_log=$E2E_SCRATCH/impostor.log
: >"$imp_log"
chmod 0666 "$imp_log"
impostor() {
    bd_as "$OUTSIDER" "$E2E_PY" "$BD_SRCDIR/tests/e2e/webimpostor.py" "$1" >>"$imp_log" 2>&1 &
    IMP_JOB=$!
    grep -q -m1 '^listening' < <(timeout 10 tail -n +1 -F "$imp_log" 2>/dev/null) ||
        bd_fail "the impostor did not listen on $1: $(<"$imp_log")"
}
impostor "127.0.0.1:$pb"
br_ok open "http://127.0.0.1:$pb/"
grep -q '^request GET /$' "$imp_log" || bd_fail "the browser did not reach the other port: $(<"$imp_log")"
kill "$IMP_JOB"
# Back to the owner's page: it loads, with its own cookie, beside the stranger's.
br_ok open "http://$A/"
br_ok wait 'window.botdeskConnected >= 1 && document.getElementById("holder").dataset.holder === "agent"' 20

# The server stops with the page open; the outsider binds its port.
: >"$imp_log"
pid=$(pgrep -u "$OUTSIDER" -f "webimpostor.py 127.0.0.1:$pb") && kill "$pid"
web_stop
impostor "$A"
br wait 'window.botdeskStopped' 30
[ "$BR_OUT" = ok ] || bd_fail "the page did not stop at the impostor: $BR_OUT; it saw: $(<"$imp_log")"
br eval "document.getElementById('link').textContent"
[[ $BR_OUT == *"not the server this page came from"* ]] || bd_fail "the page does not say why: $BR_OUT"
br eval "document.getElementById('holder').textContent"
[ "$BR_OUT" = 'value "The agent holds the desktop"' ] || bd_fail "the page shows the impostor's bar: $BR_OUT"
# Typing into the stopped page reaches nobody.
br_ok click 500 400
br_ok key x
# Stopped means stopped: no more requests for a while (the page's slowest retry is 5 s).
n=$(grep -c '^request' "$imp_log" || true)
br wait 'false' 6
[ "$(grep -c '^request' "$imp_log" || true)" = "$n" ] || bd_fail "the page kept reconnecting: $(<"$imp_log")"
# Nothing but nonces went to the impostor's websocket: no RFB, no key.
if grep '^frame' "$imp_log" | grep -qv '^frame [0-9a-f]\{64\}$'; then
    bd_fail "the page sent the impostor more than a nonce: $(<"$imp_log")"
fi
! grep -q '^request POST' "$imp_log" || bd_fail "the page posted to the impostor: $(<"$imp_log")"
kill "$IMP_JOB" 2>/dev/null || true
pid=$(pgrep -u "$OUTSIDER" -f "webimpostor.py $A") && kill "$pid"
br_stop
echo "PASS"
