#!/usr/bin/env bash
# botdesk web in a real browser (Debian's headless Chromium on its DevTools pipe), on a real
# desktop: the ticket URL becomes a cookie and leaves the address bar, the page shows the desktop
# (its picture's colours are the thumbnail's, not a black canvas), a watcher's typing reaches
# nothing even when the page is told to send it, Take over switches the stream to the control
# door without a reload (the bar says human, typing reaches the desktop, the desktop takes the
# window's size), requests without the cookie or from a foreign Origin get 403 and reach
# nothing, and Hand back gives the agent the desktop at its configured size. Prints the time
# from botdesk web to the first frame in the browser.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
e2e_wait_drawn "$U" "$ST" default 960 600
br_start --size 1280x800

port=$("$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
A=127.0.0.1:$port
# The first frame: the canvas has a pixel that is not black.
frame='(() => { const c = document.querySelector("#screen canvas"); if (!c || !c.width) return false;
  const d = c.getContext("2d").getImageData(c.width / 2 | 0, c.height / 2 | 0, 1, 1).data;
  return d[0] + d[1] + d[2] > 0; })()'
frame=${frame//$'\n'/ }
t0=$(date +%s%N)
web_start default --listen "$A"
br_ok open "$WEB_URL"
br_ok wait "$frame" 20
t1=$(date +%s%N)
echo "figure: botdesk web to the first frame in Chromium: $(((t1 - t0) / 1000000)) ms"

br eval location.href
[ "$BR_OUT" = "value \"http://$A/\"" ] || bd_fail "the ticket stays in the address bar: $BR_OUT"
br eval document.cookie
[ "$BR_OUT" = 'value ""' ] || bd_fail "the session cookie is visible to scripts: $BR_OUT"
br eval "document.getElementById('holder').textContent"
[ "$BR_OUT" = 'value "The agent holds the desktop"' ] || bd_fail "the bar: $BR_OUT"

# The page shows the desktop: the canvas's colours are the thumbnail's.
br_ok shot "$BR_DIR/page.png"
br eval '(() => { const r = document.querySelector("#screen canvas").getBoundingClientRect();
  return [r.x, r.y, r.width, r.height].map(Math.round).join(" "); })()'
read -r cx cy cw ch <<<"$(tr -d '"' <<<"${BR_OUT#value }")"
page=$("$WEB_PNGMEAN" "$BR_DIR/page.png" "$cx" "$cy" "$cw" "$ch") || bd_fail "pngmean: $page"
e2e_bd "$U" "$ST" thumbnail --max 960x600 --output "$BR_DIR/thumb.png"
e2e_expect_rc 0 "thumbnail"
thumb=$("$WEB_PNGMEAN" "$BR_DIR/thumb.png")
read -r _ pr pg pb _ pdark <<<"$page"
read -r _ tr tg tb _ _ <<<"$thumb"
for c in "$pr:$tr" "$pg:$tg" "$pb:$tb"; do
    d=$((${c%:*} - ${c#*:}))
    [ "${d#-}" -le 10 ] || bd_fail "the browser's picture ($page) is not the desktop's ($thumb)"
done
[ "$pdark" -lt 200 ] || bd_fail "the browser's canvas is mostly black: $page"

# A watcher types: nothing reaches the desktop, even with the page told to send input.
gate_record default
cxm=$((cx + cw / 2))
cym=$((cy + ch / 2))
br eval 'window.botdeskRfb.viewOnly = false; true'
br_ok click "$cxm" "$cym"
br_ok key q

# Take over: the same page, a new stream on the control door; the bar says human.
br eval '(() => { const r = document.getElementById("toggle").getBoundingClientRect();
  return Math.round(r.x + r.width / 2) + " " + Math.round(r.y + r.height / 2); })()'
read -r bx by <<<"$(tr -d '"' <<<"${BR_OUT#value }")"
br_ok click "$bx" "$by"
br_ok wait 'window.botdeskConnected >= 2 && document.getElementById("holder").dataset.holder === "human"' 10
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = human ] || bd_fail "Take over did not take the lease: $OUT"
br eval "document.getElementById('toggle').textContent"
[ "$BR_OUT" = 'value "Hand back"' ] || bd_fail "the button: $BR_OUT"
br_ok click "$cxm" "$cym"
br_ok key w
gate_wait_line '^key 0x77 '
# The desktop follows the window while the human holds it.
gate_wait_line '^root (1[0-3][0-9][0-9]|[0-9]{3}) '
gate_never '^key 0x71 ' "a watcher's key from the browser"

# Without the cookie, with a foreign Origin: 403, and the desktop sees nothing of it even now.
web_req "$A" GET /
web_status 403 "no cookie"
web_req "$A" GET "/?${WEB_URL#*\?}"
web_status 403 "the browser's used ticket"
e2e_bd "$U" "$ST" web --ticket
cookie=$(web_cookie "$A" "$OUT")
web_req "$A" WS /websockify --cookie "$cookie" --origin http://evil.example --key 78
web_status 403 "a foreign Origin"
web_req "$A" WS /websockify --origin "http://$A" --key 78
web_status 403 "no cookie on the websocket"
web_req "$A" WS /websockify --cookie "$cookie" --origin "http://$A" --key 79
web_status 101 "the test's own websocket"
gate_wait_line '^key 0x79 '
gate_never '^key 0x78 ' "a refused websocket's key"

# Hand back: the agent's again, at the configured size, the page on the view door.
br_ok click "$bx" "$by"
br_ok wait 'window.botdeskConnected >= 3 && document.getElementById("holder").dataset.holder === "agent"' 10
gate_wait_line '^root 1440 900$'
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = agent ] || bd_fail "Hand back did not release: $OUT"
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json geometry)" = 1440x900 ] || bd_fail "not back at the configured size: $OUT"
br_ok wait '(() => { const c = document.querySelector("#screen canvas");
  return c && c.width === 1440 && c.height === 900; })()' 10
br_ok shot "$BR_DIR/page-back.png"
[ -n "${BD_WEB_SHOT:-}" ] && cp "$BR_DIR/page.png" "$BD_WEB_SHOT"

# The agent asks for a human (botdesk ask): the bar says so first, with the reason, within its
# 5-second look at the lease; a take from the bar answers it.
e2e_bd "$U" "$ST" ask --reason "a CAPTCHA"
[ "$RC" = 0 ] || bd_fail "ask: $ERR"
br_ok wait 'document.getElementById("holder").dataset.requested === "yes" &&
  document.getElementById("holder").textContent.includes("asks for a human: a CAPTCHA")' 10
br_ok click "$bx" "$by"
br_ok wait 'document.getElementById("holder").dataset.holder === "human" &&
  document.getElementById("holder").dataset.requested === ""' 10
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json requested)" = null ] || bd_fail "the bar's Take over did not answer the request: $OUT"

br_stop
web_stop
echo "PASS"
