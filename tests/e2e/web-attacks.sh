#!/usr/bin/env bash
# botdesk web against its attacks (docs/SECURITY.md, "Attacks on the web page, before and
# after"), on a real desktop, other users attacking as themselves:
# - a rebound DNS name (Host and Origin that name another host) gets 421 before any route, on
#   the default unix socket and on an address: no CSRF token, no lease, no stream;
# - --open hands xdg-open a 0600 page of the owner's, never the ticket (argv, environment);
# - the cookie's name is this server's own;
# - with the view_dir setting the page's stream reaches the watchers' door where it is;
# - 200 idle and 40 slow connections of the outsider (bdtest-out) do not keep the owner from the
#   page, a ticket and the stream.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open
e2e_outsider

# The watchers' door elsewhere (issue 23.7): the view group's directory, as in gate-doors.sh.
VD=$E2E_SCRATCH/view-$U
mkdir -m 0710 "$VD"
chown "$U:botdesk" "$VD"
export BOTDESK_VIEW_GROUP=botdesk BOTDESK_VIEW_DIR=$VD
e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start with view_dir"
[ -S "$VD/default.sock" ] && [ ! -e "$P/view.sock" ] || bd_fail "the view door is not in $VD: $(ls -l "$VD" "$P")"

# ---- the default unix socket (ssh -L 6080:.../web.sock) ----
web_start default
W=unix:$P/web.sock
web_req "$W" GET /lease
web_status 200 "the lease by localhost"
csrf=$(grep -o '"csrf":"[0-9a-f]*"' <<<"$OUT" | cut -d'"' -f4)
key=$(grep -o '"key":"[0-9a-f]*"' <<<"$OUT" | cut -d'"' -f4)
[ ${#csrf} = 32 ] && [ ${#key} = 64 ] || bd_fail "the lease has no CSRF token or page key: $OUT"
for h in 127.0.0.1:6080 '[::1]:6080' localhost LOCALHOST:8080; do
    web_req "$W" GET /lease --host "$h"
    web_status 200 "the lease by Host $h"
done
# A page on a rebound name: its Host and Origin are that name. Nothing answers it.
rb=rebind.example:6080
for h in "$rb" localhost.rebind.example 127.0.0.1.nip.example:6080 '127.0.0.1:6080@x' ''; do
    web_req "$W" GET /lease --host "$h" --origin "http://$h"
    web_status 421 "the lease by Host '$h'"
    [[ $OUT != *csrf* ]] || bd_fail "a rebound name read the CSRF token: $OUT"
done
web_req "$W" GET / --host "$rb"
web_status 421 "the page by a rebound name"
web_req "$W" POST /take --host "$rb" --origin "http://$rb" --header "X-Botdesk-CSRF: $csrf"
web_status 421 "take by a rebound name"
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = agent ] || bd_fail "a rebound name took the lease: $OUT"
web_req "$W" WS /websockify --host "$rb" --origin "http://$rb"
web_status 421 "a stream by a rebound name"
# The Origin's name is checked against the same names.
web_req "$W" POST /take --origin "http://$rb" --header "X-Botdesk-CSRF: $csrf"
web_status 403 "take from a rebound Origin"
# The page's own stream: the server proves the page's key, then the watchers' door in view_dir.
web_req "$W" WS /websockify --origin http://localhost:6080 --page-key "$key"
web_status 101 "the stream"
[ "$(sed -n 2p <<<"$OUT")" = "hello RFB 003.008" ] ||
    bd_fail "no RFB from the watchers' door in view_dir: $OUT; $(tail -3 "$WEB_OUT")"
web_stop

# ---- an address: --open and the cookie ----
port=$("$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
A=127.0.0.1:$port
stub=$E2E_SCRATCH/stub
mkdir -m 0755 "$stub"
opened=$E2E_SCRATCH/xdg-open.out
: >"$opened"
chown "$U:" "$opened"
# xdg-open as a stub: what it was given (argv, environment) and the page it was pointed at.
cat >"$stub/xdg-open" <<'SH'
#!/bin/sh
{
    printf 'argv:'
    printf ' %s' "$@"
    echo
    tr '\0' '\n' </proc/$$/environ
    f=${1#file://}
    stat -c 'page: %a %U %F' "$f"
    cat "$f"
    echo done
} >>"$BD_XDG_OUT" 2>&1
SH
chmod 0755 "$stub/xdg-open"
BD_XDG_OUT=$opened BD_PATH="$stub:/usr/local/bin:/usr/bin:/bin" web_start default --listen "$A" --open
grep -q -m1 '^done$' < <(timeout 10 tail -n +1 -F "$opened" 2>/dev/null) ||
    bd_fail "xdg-open was not run: $(<"$opened"); $(<"$WEB_OUT")"
ticket=${WEB_URL#*ticket=}
[ ${#ticket} = 32 ] || bd_fail "no ticket URL: $(<"$WEB_OUT")"
argv=$(sed -n 's/^argv: //p' "$opened")
[ "$argv" = "file://$P/web-open.html" ] || bd_fail "xdg-open's argv: $argv"
! grep -q "$ticket" < <(sed '/^page: /,$d' "$opened") || bd_fail "the ticket in xdg-open's argv or environment: $(<"$opened")"
# No process of the owner's has the ticket in its command line or environment.
for pid in $(pgrep -u "$U"); do
    ! grep -qa "$ticket" "/proc/$pid/cmdline" "/proc/$pid/environ" 2>/dev/null ||
        bd_fail "the ticket in the argv or environment of $(ps -o args= -p "$pid")"
done
grep -q "^page: 600 $U regular file$" "$opened" || bd_fail "the page for the browser: $(<"$opened")"
target=$(grep -o -m1 'url=[^"]*' "$opened" | cut -d= -f2-)
[ "$target" = "$WEB_URL" ] || bd_fail "the page sends the browser to '$target', not $WEB_URL"
# Its target works once; the page is gone then.
cookie=$(web_cookie "$A" "$target")
[ ! -e "$P/web-open.html" ] || bd_fail "the page with the used ticket is left"
# The cookie's name is this server's own: another server on this host (cookies ignore ports)
# neither overwrites it nor sends it under its name.
[[ $cookie =~ ^botdesk_session_[0-9a-f]{16}=[0-9a-f]{32}$ ]] || bd_fail "the cookie is not this server's own: $cookie"
value=${cookie#*=}
web_req "$A" GET /lease --cookie "botdesk_session=$value"
web_status 403 "the session under the shared name"
web_req "$A" GET /lease --cookie "botdesk_session_0123456789abcdef=$value"
web_status 403 "the session under another server's name"
web_req "$A" GET /lease --cookie "$cookie"
web_status 200 "the lease with the cookie"
key=$(grep -o '"key":"[0-9a-f]*"' <<<"$OUT" | cut -d'"' -f4)
web_req "$A" GET /lease --cookie "$cookie" --host "rebind.example:$port" --origin "http://rebind.example:$port"
web_status 421 "a rebound name on an address"

# ---- others' connections ----
flood() {
    local who=$1 idle=$2 slow=$3
    coproc FLOOD { bd_as "$who" "$E2E_PY" "$BD_SRCDIR/tests/e2e/webflood.py" "$A" "$idle" "$slow" 90 2>&1; }
    read -r -t 30 line <&"${FLOOD[0]}" || bd_fail "the flood of $who did not start"
    [ "$line" = flooding ] || bd_fail "the flood of $who: $line"
}
flood "$OUTSIDER" 200 40
out_fd=${FLOOD[1]}
out_pid=$FLOOD_PID
# The owner, with the cookie: the page, the lease, and a stream to the desktop, each in bounded
# time (webclient's own timeouts; the whole under one bound).
try_owner() {
    local i
    for i in 1 2 3; do
        RC=0
        OUT=$(bd_as "$U" timeout 30 "$E2E_PY" "$WEB_CLIENT" "$@" 2>"$E2E_SCRATCH/web.err") || RC=$?
        [ "$RC" = 0 ] && return 0
    done
    bd_fail "the owner was kept out ($*): $(<"$E2E_SCRATCH/web.err")"
}
try_owner "$A" GET / --cookie "$cookie"
web_status 200 "the page under the flood"
try_owner "$A" GET /lease --cookie "$cookie"
web_status 200 "the lease under the flood"
try_owner "$A" WS /websockify --cookie "$cookie" --origin "http://$A" --page-key "$key"
web_status 101 "the stream under the flood"
[ "$(sed -n 2p <<<"$OUT")" = "hello RFB 003.008" ] || bd_fail "no RFB under the flood: $OUT"
# A fresh ticket too: a new page load.
e2e_bd "$U" "$ST" web --ticket
e2e_expect_rc 0 "web --ticket under the flood"
try_owner "$A" GET "/?${OUT#*\?}"
web_status 302 "a ticket under the flood"
exec {out_fd}>&-
wait "$out_pid" 2>/dev/null || true
web_stop
echo "PASS"
