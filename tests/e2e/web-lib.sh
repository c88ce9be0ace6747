# Shared by the web tests: botdesk web as the test user, the test's HTTP client (webclient.py)
# and Debian's headless Chromium on its DevTools pipe (webbrowser.py). Source it (it sources
# gate-lib.sh and e2e-lib.sh); call web_open before the rest.

# shellcheck source=gate-lib.sh
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"

WEB_CLIENT=$BD_SRCDIR/tests/e2e/webclient.py
WEB_BROWSER=$BD_SRCDIR/tests/e2e/webbrowser.py
WEB_PNGMEAN=$BD_BUILDDIR/tests/e2e/pngmean

web_need() {
    [ -n "${BOTDESK_WEB:-}" ] && [ -x "$BOTDESK_WEB" ] ||
        bd_skip "botdesk-web was not built: install libwebsockets-dev (scripts/deps/build.txt)"
    [ -f /usr/share/novnc/core/rfb.js ] || bd_skip "no noVNC: install novnc"
}

# web_open: the opening of a web test: a scratch directory, botdesk-web and noVNC there (or a
# skip), and BD_USER_A (see e2e_user_a for U, ST, P and OUTD).
web_open() {
    e2e_init
    web_need
    e2e_user_a
}

# web_start PROFILE ARGS...: botdesk web as the test user in the background; waits (bounded, on
# its output) for the line that says how to reach it. Sets WEB_OUT (its output file), WEB_PID
# (botdesk-web's pid) and, with --listen, WEB_URL (the first ticket's URL).
web_start() {
    local profile=$1
    shift
    WEB_OUT=$E2E_SCRATCH/web.$profile.out
    : >"$WEB_OUT"
    chmod 0666 "$WEB_OUT"
    BOTDESK_STATE_DIR=$E2E_ST bd_as "$E2E_U" "$BOTDESK_BIN" --profile "$profile" web "$@" \
        >>"$WEB_OUT" 2>&1 &
    WEB_JOB=$!
    grep -q -m1 -E 'Ctrl-C stops it|^botdesk: ' < <(timeout 10 tail -n +1 -F "$WEB_OUT" 2>/dev/null) ||
        bd_fail "botdesk web said nothing: $(<"$WEB_OUT")"
    # This test's server by its state directory: other tests (and other checkouts) may run
    # their own as the same user.
    WEB_PID=$(pgrep -u "$E2E_U" -f -- "botdesk-web --profile $profile --state $E2E_ST/$profile --") ||
        bd_fail "botdesk web is not running: $(<"$WEB_OUT")"
    WEB_URL=$(grep -o -m1 'https\?://[^ ]*?ticket=[0-9a-f]*' "$WEB_OUT" || true)
}

# web_stop: Ctrl-C to botdesk web; it must end (bounded) with status 0.
web_stop() {
    kill -INT "$WEB_PID"
    timeout 10 tail --pid="$WEB_PID" -f /dev/null || bd_fail "botdesk web did not stop on SIGINT"
    local rc=0
    wait "$WEB_JOB" || rc=$?
    [ "$rc" = 0 ] && grep -q '^botdesk web: stopped$' "$WEB_OUT" ||
        bd_fail "botdesk web did not stop cleanly (exit $rc): $(<"$WEB_OUT")"
    WEB_PID=
}

# web_req ADDR METHOD PATH ARGS...: one request as the test user; sets RC and OUT.
web_req() {
    RC=0
    OUT=$(bd_as "$E2E_U" "$E2E_PY" "$WEB_CLIENT" "$@" 2>"$E2E_SCRATCH/web.err") || RC=$?
    [ "$RC" = 0 ] || bd_fail "webclient $*: $(<"$E2E_SCRATCH/web.err")"
}

# web_status N WHAT: the last request's status.
web_status() {
    [ "$(head -n1 <<<"$OUT")" = "status $1" ] || bd_fail "$2: expected status $1, got: $OUT"
}

# web_cookie ADDR URL: exchanges the ticket of URL; prints the cookie (NAME=VALUE).
web_cookie() {
    web_req "$1" GET "/?${2#*\?}"
    web_status 302 "a fresh ticket"
    sed -n 's/^set-cookie: \([^;]*\);.*/\1/p' <<<"$OUT"
}

# The browser: br_start runs it as the test user; br CMD sends one command and sets BR_OUT.
br_start() {
    command -v chromium >/dev/null || bd_skip "no chromium: install chromium (scripts/deps/test.txt)"
    local home=$E2E_SCRATCH/home-$E2E_U
    BR_DIR=$home
    mkdir -p "$home"
    bd_is_root && chown "$E2E_U:" "$home"
    coproc BR { bd_as "$E2E_U" env HOME="$home" TMPDIR="$home" "$E2E_PY" "$WEB_BROWSER" "$@" 2>"$E2E_SCRATCH/browser.err"; }
    read -r -t 60 BR_OUT <&"${BR[0]}" || bd_fail "chromium did not start: $(tail -5 "$E2E_SCRATCH/browser.err")"
    [ "$BR_OUT" = ready ] || bd_fail "chromium: $BR_OUT"
}

br() {
    # One command a line: an expression written over several lines is sent as one.
    local cmd=$*
    echo "${cmd//$'\n'/ }" >&"${BR[1]}"
    read -r -t 60 BR_OUT <&"${BR[0]}" || bd_fail "the browser did not answer '$*': $(tail -5 "$E2E_SCRATCH/browser.err")"
}

br_ok() {
    br "$@"
    [ "$BR_OUT" = ok ] || bd_fail "browser: $*: $BR_OUT"
}

br_stop() {
    echo quit >&"${BR[1]}"
    wait "$BR_PID" 2>/dev/null || true
}
