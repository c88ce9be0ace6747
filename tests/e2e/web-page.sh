#!/usr/bin/env bash
# botdesk web without a browser, on a real desktop: the default unix socket (0600, its owner's
# only: another user gets EACCES), the page, Debian's noVNC with its content types and nothing
# beside it, the lease as JSON and its change only with the Origin and the CSRF token, the
# websocket through the door the lease gives (RFB 003.008; nothing of it before "go", and a
# stream without "go" ended by the server), a foreign Origin refused; on
# host:port a ticket works once (403 for none, a used one and a forged one), the cookie is
# HttpOnly and SameSite=Strict, botdesk web --ticket gives a fresh one; plain HTTP beyond
# loopback is refused, one server per profile, Ctrl-C stops it and removes its sockets.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open

# No desktop, no server.
e2e_bd "$U" "$ST" web
e2e_expect_rc 3 "web with no desktop"
e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"

# Plain HTTP beyond loopback, a host name, half a TLS pair: refused before anything listens.
e2e_bd "$U" "$ST" web --listen 0.0.0.0:6089
e2e_expect_rc 2 "web on 0.0.0.0 without TLS"
[[ $ERR == *"--tls-cert FILE --tls-key FILE"* ]] || bd_fail "the refusal names no fix: $ERR"
e2e_bd "$U" "$ST" web --listen localhost:6089
e2e_expect_rc 2 "web on a host name"
e2e_bd "$U" "$ST" web --listen 127.0.0.1:6089 --tls-cert /nonexistent
e2e_expect_rc 2 "web with a certificate and no key"

# Without Debian's noVNC there is no page: said before anything listens.
e2e_bd "$U" "$ST" web --novnc /nonexistent
e2e_expect_rc 1 "web without noVNC"
[[ $ERR == *"'botdesk install --web'"* ]] || bd_fail "no noVNC, no fix named: $ERR"
[ ! -e "$P/web.sock" ] || bd_fail "web listened without noVNC"
# The same through the setting botdesk web and botdesk install --web share.
BOTDESK_NOVNC=/nonexistent e2e_bd "$U" "$ST" web
e2e_expect_rc 1 "web without noVNC (BOTDESK_NOVNC)"
[[ $ERR == *"/nonexistent/core/rfb.js"* ]] || bd_fail "BOTDESK_NOVNC did not reach botdesk web: $ERR"

web_start default
W=unix:$P/web.sock
[ "$(stat -c '%a %U %F' "$P/web.sock")" = "600 $U socket" ] ||
    bd_fail "web.sock is $(stat -c '%a %U %F' "$P/web.sock"), expected a 0600 socket of $U"
grep -q "ssh -N -L 6080:$P/web.sock" "$WEB_OUT" || bd_fail "no ssh line: $(<"$WEB_OUT")"
# Another local user: the socket's mode says no (as the directory's would).
other=$(bd_test_user "$BD_USER_B")
got=$(bd_as "$other" "$E2E_PY" -c '
import errno, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1]); print("connected")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))' "$P/web.sock")
[ "$got" = EACCES ] || bd_fail "another user connecting to web.sock: $got"
# A second server for the profile is refused; the first goes on.
e2e_bd "$U" "$ST" web
e2e_expect_rc 1 "a second botdesk web"
[[ $ERR == *"already serves profile 'default'"* ]] || bd_fail "second server: $ERR"

web_req "$W" GET /
web_status 200 "the page"
[[ $OUT =~ '<script type="module" async src="/v/'[0-9a-f]{16}'/web/bar.js">' ]] || bd_fail "not our page: $OUT"
for f in core/rfb.js app/styles/base.css app/images/info.svg; do
    bd_as "$U" curl -s -o /dev/null -w '%{http_code} %{content_type}\n' --unix-socket "$P/web.sock" \
        "http://localhost/novnc/$f" >"$E2E_SCRATCH/ct" || bd_fail "curl $f"
    case $f in
    *.js) want="200 text/javascript; charset=utf-8" ;;
    *.css) want="200 text/css; charset=utf-8" ;;
    *.svg) want="200 image/svg+xml" ;;
    esac
    [ "$(<"$E2E_SCRATCH/ct")" = "$want" ] || bd_fail "/novnc/$f: $(<"$E2E_SCRATCH/ct")"
done
# Nothing but noVNC's and our files: no way up, no dot files, no other types.
for path in /novnc/../../../etc/passwd /novnc/core/../../../../etc/passwd /novnc/.hidden \
    /novnc/core/rfb.js.map /web/../web-main.c /etc/passwd /novnc/; do
    web_req "$W" GET "$path"
    web_status 404 "GET $path"
done

web_req "$W" GET /lease
web_status 200 "the lease"
[[ $OUT == *'"holder":"agent"'* ]] || bd_fail "the lease: $OUT"
csrf=$(grep -o '"csrf":"[0-9a-f]*"' <<<"$OUT" | cut -d'"' -f4)
origin=http://localhost:6080
# Taking over needs the page's Origin and its CSRF token, both.
web_req "$W" POST /take --origin "$origin"
web_status 403 "take without the CSRF token"
web_req "$W" POST /take --header "X-Botdesk-CSRF: $csrf"
web_status 403 "take without an Origin"
web_req "$W" POST /take --origin http://evil.example --header "X-Botdesk-CSRF: $csrf"
web_status 403 "take from a foreign Origin"
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = agent ] || bd_fail "a refused take changed the lease: $OUT"

gate_record default
# The websocket: the page's Origin only, the door of the lease (the view door now: a key is
# dropped), a foreign Origin refused before anything reaches the desktop.
web_req "$W" WS /websockify --origin http://evil.example --key 71
web_status 403 "a websocket from a foreign Origin"
web_req "$W" WS /websockify --key 71
web_status 403 "a websocket without an Origin"
web_req "$W" WS /websockify --origin "$origin" --key 72
web_status 101 "the websocket"
[ "$(sed -n 2p <<<"$OUT")" = "hello RFB 003.008" ] || bd_fail "no RFB through the websocket: $OUT"
[ "$(sed -n 3p <<<"$OUT")" = synced ] || bd_fail "the RFB exchange did not finish: $OUT"
# The door is opened with the stream, ahead of the page's proof (docs/web.md, "The stream before
# the proof"): a stream that never says "go" gets nothing of it, and is ended by the server.
web_req "$W" WS /websockify --origin "$origin" --no-go
web_status 101 "the websocket without go"
[[ "$(sed -n 2p <<<"$OUT")" == "closed after 0 frames: "* ]] ||
    bd_fail "a stream without go got the desktop's bytes, or was not ended: $OUT"

web_req "$W" POST /take --origin "$origin" --header "X-Botdesk-CSRF: $csrf"
web_status 200 "take"
[[ $OUT == *'"holder":"human"'* ]] || bd_fail "take answered: $OUT"
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = human ] || bd_fail "the page's take is not the lease: $OUT"
# Now the websocket is the controller's: the key reaches the desktop.
web_req "$W" WS /websockify --origin "$origin" --key 73
web_status 101 "the websocket under the human's lease"
gate_wait_line '^key 0x73 '
gate_never '^key 0x7[12] ' "a key from a refused websocket or through the view door"
web_req "$W" POST /release --origin "$origin" --header "X-Botdesk-CSRF: $csrf"
web_status 200 "release"
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = agent ] || bd_fail "the page's release is not the lease: $OUT"

web_stop
[ ! -e "$P/web.sock" ] || bd_fail "web.sock is left after Ctrl-C"

# On host:port: tickets and the cookie.
port=$("$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
web_start default --listen "127.0.0.1:$port"
A=127.0.0.1:$port
[[ $WEB_URL == "http://127.0.0.1:$port/?ticket="* ]] || bd_fail "no ticket URL: $(<"$WEB_OUT")"
[ "$(stat -c '%a %U' "$P/web-ctl.sock")" = "600 $U" ] || bd_fail "web-ctl.sock: $(stat -c '%a %U' "$P/web-ctl.sock")"
web_req "$A" GET /
web_status 403 "no ticket"
[ "$(sed -n 2p <<<"$OUT")" = "body: forbidden" ] || bd_fail "a 403 said more: $OUT"
web_req "$A" GET /lease
web_status 403 "the lease without a cookie"
web_req "$A" GET "/?ticket=0123456789abcdef0123456789abcdef"
web_status 403 "a forged ticket"
web_req "$A" GET "/?${WEB_URL#*\?}"
web_status 302 "the ticket"
grep -q '^set-cookie: botdesk_session_[0-9a-f]\{16\}=[0-9a-f]\{32\}; Path=/; HttpOnly; SameSite=Strict$' <<<"$OUT" ||
    bd_fail "the cookie: $OUT"
grep -q '^location: /$' <<<"$OUT" || bd_fail "the ticket stays in the address bar: $OUT"
cookie=$(sed -n 's/^set-cookie: \([^;]*\);.*/\1/p' <<<"$OUT")
web_req "$A" GET "/?${WEB_URL#*\?}"
web_status 403 "a used ticket"
web_req "$A" GET / --cookie "$cookie"
web_status 200 "the page with the cookie"
web_req "$A" GET / --cookie "botdesk_session=0123456789abcdef0123456789abcdef"
web_status 403 "a forged cookie"
web_req "$A" WS /websockify --origin "http://$A"
web_status 403 "a websocket without the cookie"
web_req "$A" WS /websockify --cookie "$cookie" --origin http://evil.example
web_status 403 "a websocket with the cookie from a foreign Origin"
web_req "$A" WS /websockify --cookie "$cookie" --origin "http://$A"
web_status 101 "a websocket with the cookie"
# A fresh ticket from the running server, through its 0600 control socket.
e2e_bd "$U" "$ST" web --ticket
e2e_expect_rc 0 "web --ticket"
[[ $OUT == "http://127.0.0.1:$port/?ticket="* ]] && [ "$OUT" != "$WEB_URL" ] || bd_fail "web --ticket: $OUT"
web_cookie "$A" "$OUT" >/dev/null
web_stop
[ ! -e "$P/web-ctl.sock" ] || bd_fail "web-ctl.sock is left after Ctrl-C"
e2e_bd "$U" "$ST" web --ticket
e2e_expect_rc 3 "web --ticket with no server"

# Under TLS: the same ticket, and the cookie is Secure.
if command -v openssl >/dev/null; then
    tls=$E2E_SCRATCH/tls
    mkdir -p "$tls"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/key.pem" -out "$tls/cert.pem" \
        -days 1 -subj /CN=127.0.0.1 >/dev/null 2>&1 || bd_fail "openssl could not make a certificate"
    chown -R "$U:" "$tls"
    web_start default --listen "$A" --tls-cert "$tls/cert.pem" --tls-key "$tls/key.pem"
    [[ $WEB_URL == "https://$A/?ticket="* ]] || bd_fail "no https ticket URL: $(<"$WEB_OUT")"
    got=$(bd_as "$U" curl -sk -o /dev/null -D - "$WEB_URL" | tr -d '\r' | grep -i '^set-cookie:')
    [[ $got == *"; HttpOnly; SameSite=Strict; Secure" ]] || bd_fail "the cookie under TLS: $got"
    got=$(bd_as "$U" curl -sk -o /dev/null -w '%{http_code}' "https://$A/lease")
    [ "$got" = 403 ] || bd_fail "the lease over TLS without a cookie: $got"
    web_stop
fi

# botdesk run --web: the desktop and its page from one process tree; a TERM to run (a container
# stopping) stops both.
e2e_bd "$U" "$ST" stop
WEB_OUT=$E2E_SCRATCH/run.out
: >"$WEB_OUT"
chmod 0666 "$WEB_OUT"
BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" run --web --listen "$A" >>"$WEB_OUT" 2>&1 &
job=$!
grep -q -m1 'Ctrl-C stops it' < <(timeout 20 tail -n +1 -F "$WEB_OUT" 2>/dev/null) ||
    bd_fail "run --web served no page: $(<"$WEB_OUT")"
url=$(grep -o -m1 'http://[^ ]*?ticket=[0-9a-f]*' "$WEB_OUT")
cookie=$(web_cookie "$A" "$url")
web_req "$A" WS /websockify --cookie "$cookie" --origin "http://$A"
web_status 101 "run --web's websocket"
[ "$(sed -n 2p <<<"$OUT")" = "hello RFB 003.008" ] || bd_fail "run --web: no RFB: $OUT"
web=$(pgrep -u "$U" -f -- "botdesk-web --profile default --state $P --") || bd_fail "no botdesk-web under run"
runner=$(ps -o ppid= -p "$web" | tr -d ' ')
[ "$(ps -o comm= -p "$runner")" = botdesk ] || bd_fail "botdesk-web is not run's child"
kill -TERM "$runner"
timeout 20 tail --pid="$runner" -f /dev/null || bd_fail "run --web did not stop on TERM"
wait "$job" || bd_fail "run --web ended with $?: $(<"$WEB_OUT")"
! kill -0 "$web" 2>/dev/null || bd_fail "botdesk-web outlived run"
grep -q '^botdesk web: stopped$' "$WEB_OUT" || bd_fail "the page did not stop cleanly: $(<"$WEB_OUT")"
echo "PASS"
