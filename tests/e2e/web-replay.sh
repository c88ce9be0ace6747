#!/usr/bin/env bash
# The flight recorder's replay in botdesk web (issue 28), in Debian's headless Chromium: a real
# desktop's recording (clicks, a take with its reason, a release) opened at /replay/ID behind the
# live view's ticket and cookie shows a frame of the desktop and the timeline beside it; a click
# on an entry seeks the picture there (the time printed is a figure, never asserted). Without the
# cookie every replay route is refused, and an id that is no recording's is not found.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open

bd start
e2e_expect_rc 0 "start"
e2e_wait_drawn "$U" "$ST" default 960 600
bd record start --json
e2e_expect_rc 0 "record start"
ID=$(e2e_json id)
bd click 300 310
e2e_expect_rc 0 "click"
bd take --reason "2FA prompt"
e2e_expect_rc 0 "take"
bd release
e2e_expect_rc 0 "release"
bd click 500 520
e2e_expect_rc 0 "second click"
# Seconds of screen to play: this sleep makes content, it waits for nothing.
sleep 2
bd record stop
e2e_expect_rc 0 "record stop"

port=$("$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
A=127.0.0.1:$port
web_start default --listen "$A"

# Behind the same ticket and cookie as the live view.
for path in "/replay/$ID" "/replay/$ID/stream" "/replay/$ID/events" /replay/actions; do
    web_req "$A" GET "$path"
    web_status 403 "$path without the cookie"
done
cookie=$(web_cookie "$A" "$WEB_URL")
web_req "$A" GET "/replay/$ID/stream" --cookie "$cookie"
web_status 200 "the stream with the cookie"
for path in /replay/20000101-000000 "/replay/$ID/../../launcher.pid" /replay/..%2Fenv "/replay/$ID/nope"; do
    web_req "$A" GET "$path" --cookie "$cookie"
    [[ $(head -n1 <<<"$OUT") == "status 404" || $(head -n1 <<<"$OUT") == "status 403" ]] ||
        bd_fail "$path: $OUT"
done

br_start --size 1280x800
ticket=$(BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" web --ticket) || bd_fail "web --ticket"
br_ok open "$ticket"
br_ok open "http://$A/replay/$ID"
br_ok wait 'document.body.dataset.timeline !== undefined && document.body.dataset.frame !== undefined || document.body.dataset.error !== undefined' 20
br eval 'document.body.dataset.error || ""'
[ "$BR_OUT" = 'value ""' ] || bd_fail "the replay page failed: $BR_OUT"
# A frame of the desktop: the canvas at the desktop's size, not one flat colour.
br eval '(() => { const c = document.getElementById("screen"); const d = c.getContext("2d")
  .getImageData(0, 0, c.width, c.height).data; const seen = new Set();
  for (let i = 0; i < d.length; i += 4 * 997) seen.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]);
  return c.width + "x" + c.height + " " + seen.size; })()'
read -r size colours <<<"$(tr -d '"' <<<"${BR_OUT#value }")"
[ "$size" = 1440x900 ] || bd_fail "the replay's picture is $size, not the desktop's 1440x900"
((colours >= 3)) || bd_fail "the replay's picture is flat ($colours colours)"
br eval '[...document.querySelectorAll("#timeline li")].map(l => l.textContent.replace(/^\+[0-9.]+ s +/, "")).join("|")'
items=${BR_OUT#value }
[[ $items == *'click 300 310|take: 2FA prompt|release|click 500 520'* ]] ||
    bd_fail "the timeline is not as done: $items"
# A click on the take seeks there.
t0=$(date +%s%N)
br eval '(() => { const li = [...document.querySelectorAll("#timeline li")].find(l => l.textContent.includes("take:"));
  li.click(); return li.classList.contains("current") && Math.abs(window.botdeskReplay.t -
  parseFloat(li.textContent.slice(1)) * 1000) < 100; })()'
t1=$(date +%s%N)
[ "$BR_OUT" = "value true" ] || bd_fail "a click on the take did not seek there: $BR_OUT"
echo "figure: a seek to an action in Chromium, the whole round trip: $(((t1 - t0) / 1000000)) ms"
br_stop
web_stop
echo "PASS"
