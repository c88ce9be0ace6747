# Shared set-up for the end-to-end tests: the real botdesk with the real botdesk-session on real
# Xvnc and Xfce, run as the non-root test users. Source it; meson's test_env gives BOTDESK_BIN,
# BD_SRCDIR and BD_BUILDDIR.

# shellcheck source=../lib.sh
source "$BD_SRCDIR/tests/lib.sh"

# lib.sh points these at the build tree, or with BD_INSTALLED=1 at the installed package.
E2E_SESSION=$BD_SESSION_BIN
E2E_PNGCHECK=$BD_BUILDDIR/tests/e2e/pngcheck
E2E_XRECORDER=$BD_BUILDDIR/tests/e2e/xrecorder
E2E_PY=/usr/bin/python3
[ -x "$E2E_PY" ] || E2E_PY=python3
E2E_USERS=()
E2E_STATES=()
E2E_RECORDERS=()

# Skips (77) where the desktop cannot run: no TigerVNC or no Xfce.
e2e_need_desktop() {
    command -v Xtigervnc >/dev/null || command -v Xvnc >/dev/null ||
        bd_skip "no Xvnc: install tigervnc-standalone-server (.ci/run does)"
    local p
    for p in dbus-run-session xfwm4 xfdesktop xfce4-panel xfsettingsd xdpyinfo xwininfo; do
        command -v "$p" >/dev/null || bd_skip "no $p: install the desktop packages (.ci/run does)"
    done
    # X clients look for their sockets here; made as root (sticky, world-writable) when it is
    # missing, so no test user owns it.
    if [ ! -d /tmp/.X11-unix ] && bd_is_root; then
        install -d -m 1777 -o root -g root /tmp/.X11-unix
    fi
}

e2e_cleanup() {
    local i st f pid
    for pid in "${E2E_RECORDERS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    # A botdesk web a failed test left running (web-lib.sh's web_start; web_stop clears it).
    if [ -n "${WEB_PID:-}" ]; then
        kill "$WEB_PID" 2>/dev/null || true
    fi
    for i in "${!E2E_USERS[@]}"; do
        st=${E2E_STATES[$i]}
        for f in "$st"/*/launcher.pid; do
            [ -f "$f" ] || continue
            BOTDESK_STATE_DIR=$st bd_as "${E2E_USERS[$i]}" "$BOTDESK_BIN" \
                --profile "$(basename "$(dirname "$f")")" stop >/dev/null 2>&1 || true
            pid=$(cut -d' ' -f1 "$f" 2>/dev/null) || continue
            [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null || true
        done
    done
    # For a post-mortem: BD_E2E_KEEP=DIR keeps a copy of the scratch directory (the state
    # directories, the recorders' events and errors) in DIR.
    if [ -n "${BD_E2E_KEEP:-}" ]; then
        mkdir -p "$BD_E2E_KEEP" && cp -r "$E2E_SCRATCH" "$BD_E2E_KEEP/" 2>/dev/null || true
    fi
    cd /
    rm -rf "${E2E_SCRATCH:-/nonexistent}" 2>/dev/null || true
}

# e2e_init: a scratch directory, and one state directory per test user (e2e_user).
e2e_init() {
    e2e_need_desktop
    E2E_SCRATCH=$(mktemp -d /tmp/botdesk-e2e.XXXXXX)
    chmod 0755 "$E2E_SCRATCH"
    trap e2e_cleanup EXIT
    unset BOTDESK_PROFILE BOTDESK_BROWSER BOTDESK_DEBUG BOTDESK_GEOMETRY BOTDESK_DISPLAY_BAND
    unset BOTDESK_X_LOCK_DIR BOTDESK_X_UNIX_TABLE BOTDESK_ALLOC_LOCK BOTDESK_STATE_DIR
    # Against the installed package, the launcher is its compiled-in default, as for a user.
    if [ "${BD_INSTALLED:-0}" = 1 ]; then
        unset BOTDESK_LAUNCHER
    else
        export BOTDESK_LAUNCHER=$E2E_SESSION
    fi
    # The desktop's memory is the host's business here; the gate has its own tests.
    export BOTDESK_MIN_FREE_MB=0
}

# e2e_user NAME: sets E2E_U to the test user NAME stands for and E2E_ST to its state root
# (created, owned by that user), with a directory for its output files beside it:
# $E2E_SCRATCH/out-$E2E_U. Not in a subshell: it records the user for the cleanup.
e2e_user() {
    local u st
    u=$(bd_test_user "$1")
    st=$E2E_SCRATCH/state-$u
    mkdir -p "$st" "$E2E_SCRATCH/out-$u"
    chmod 0700 "$st"
    bd_is_root && chown "$u:" "$st" "$E2E_SCRATCH/out-$u"
    E2E_USERS+=("$u")
    E2E_STATES+=("$st")
    E2E_U=$u
    E2E_ST=$st
}

# e2e_user_a: the one user most tests need, as e2e_user "$BD_USER_A", with the short names they
# use: U (the user), ST (its state root), P (its default profile's directory) and OUTD (its
# output directory); and bd ARGS...: botdesk as U on ST (see e2e_bd).
e2e_user_a() {
    e2e_user "$BD_USER_A"
    U=$E2E_U
    ST=$E2E_ST
    P=$ST/default
    OUTD=$E2E_SCRATCH/out-$U
}
bd() { e2e_bd "$U" "$ST" "$@"; }

# e2e_recorder [PROFILE]: starts the suite's recording window (xrecorder) on E2E_U's desktop of
# PROFILE (default: default) through botdesk exec; it prints every event it gets to REC
# ($E2E_SCRATCH/out-$E2E_U/events, or events.PROFILE, its errors beside it in rec.err or
# rec.err.PROFILE) and ends with its desktop. Sets REC, REC_ERR and RECPID and returns once it
# holds the pointer and the keyboard (bounded, woken by the file growing).
e2e_recorder() {
    local profile=${1:-default} outd=$E2E_SCRATCH/out-$E2E_U sfx=
    [ "$profile" = default ] || sfx=.$profile
    # Who runs it and where, for e2e_recorder_diag.
    REC_PROFILE=$profile REC_U=$E2E_U REC_ST=$E2E_ST
    REC=$outd/events$sfx
    REC_ERR=$outd/rec.err$sfx
    : >"$REC"
    if bd_is_root; then
        chown "$E2E_U:" "$REC"
    fi
    BOTDESK_STATE_DIR=$E2E_ST bd_as "$E2E_U" "$BOTDESK_BIN" --profile "$profile" exec -- \
        "$E2E_XRECORDER" >>"$REC" 2>"$REC_ERR" &
    RECPID=$!
    E2E_RECORDERS+=("$RECPID")
    local deadline=$((SECONDS + 15))
    until grep -q '^ready ' "$REC"; do
        ((SECONDS < deadline)) || bd_fail "the recorder never became ready: $(cat "$REC_ERR")"
        kill -0 "$RECPID" 2>/dev/null || bd_fail "the recorder died: $(cat "$REC_ERR")"
        inotifywait -qq -t 1 -e modify "$REC" 2>/dev/null || true
    done
}

# e2e_rec_mark: how many lines the recorder (REC) has written so far: a FROM_LINE for the two
# below. e2e_rec_since FROM_LINE: the recorder's lines after FROM_LINE.
e2e_rec_mark() { wc -l <"$REC"; }
e2e_rec_since() { tail -n +$(($1 + 1)) "$REC"; }

# e2e_rec_wait PATTERN [FROM_LINE [SECONDS [COUNT]]]: waits (bounded: SECONDS, 15 by default;
# woken by the file growing) until COUNT (1 by default) of the recorder's lines after FROM_LINE
# match the extended regex PATTERN. Fails at once when the recorder died.
e2e_rec_wait() {
    local pat=$1 from=${2:-0} count=${4:-1} deadline=$((SECONDS + ${3:-15}))
    until (($(e2e_rec_since "$from" | grep -Ec -- "$pat") >= count)); do
        ((SECONDS < deadline)) || bd_fail "the recorder never got $count of '$pat' (after line $from): $(e2e_rec_since "$from" | tail -40)
$(e2e_recorder_diag)"
        kill -0 "$RECPID" 2>/dev/null || bd_fail "the recorder died: $(cat "$REC_ERR")"
        inotifywait -qq -t 1 -e modify "$REC" 2>/dev/null || true
    done
}

# e2e_recorder_diag: for a failure message, the last recorder's errors and what decides where
# input goes on its desktop (xrecorder --diag: the stacking, the pointer, the focus).
e2e_recorder_diag() {
    echo "the recorder's errors: $(tail -n 30 "$REC_ERR")"
    BOTDESK_STATE_DIR=$REC_ST bd_as "$REC_U" "$BOTDESK_BIN" --profile "$REC_PROFILE" exec -- \
        "$E2E_XRECORDER" --diag 2>&1 || true
}

# e2e_chromium_app URL: Debian's Chromium as E2E_U on its default desktop (botdesk exec, in the
# background), a window of 800x600 showing URL as an app, on a fresh browser profile
# ($E2E_SCRATCH/out-$E2E_U/chromium; its output in chromium.out beside it). Sets E2E_CHROMIUM to
# the exec's pid, which the cleanup ends.
e2e_chromium_app() {
    local outd=$E2E_SCRATCH/out-$E2E_U
    local -a nosandbox=()
    mkdir -p "$outd/chromium"
    bd_is_root && chown "$E2E_U:" "$outd/chromium"
    [ -n "${BD_CHROMIUM_NO_SANDBOX:-}" ] && nosandbox=(--no-sandbox)
    BOTDESK_STATE_DIR=$E2E_ST bd_as "$E2E_U" "$BOTDESK_BIN" exec -- chromium "${nosandbox[@]}" \
        --no-first-run --no-default-browser-check --disable-gpu --disable-extensions \
        --password-store=basic --user-data-dir="$outd/chromium" --window-size=800,600 \
        --app="$1" >"$outd/chromium.out" 2>&1 &
    E2E_CHROMIUM=$!
    E2E_RECORDERS+=("$E2E_CHROMIUM")
}

# e2e_outsider: sets OUTSIDER to the test user outside group botdesk (BD_USER_OUT); skips where
# there is none (not run as root, every test user is ourselves).
e2e_outsider() {
    OUTSIDER=$(bd_test_user "$BD_USER_OUT")
    [ "$OUTSIDER" != "$E2E_U" ] || bd_skip "needs the test users (run as root)"
}

# e2e_bd USER STATE ARGS...: botdesk as USER; sets RC, OUT and ERR.
e2e_bd() {
    local u=$1 st=$2
    shift 2
    local out=$E2E_SCRATCH/out.$$ err=$E2E_SCRATCH/err.$$
    RC=0
    BOTDESK_STATE_DIR=$st bd_as "$u" "$BOTDESK_BIN" "$@" >"$out" 2>"$err" || RC=$?
    OUT=$(<"$out")
    ERR=$(<"$err")
}

e2e_expect_rc() {
    [ "$RC" = "$1" ] || bd_fail "$2: exit $RC, expected $1; stderr: $ERR; stdout: $OUT"
}

# e2e_json KEY: a top-level value of the JSON object in OUT (strings unquoted).
e2e_json() {
    "$E2E_PY" -c 'import json,sys; v=json.loads(sys.argv[1])[sys.argv[2]]; print("null" if v is None else (str(v).lower() if isinstance(v,bool) else v))' "$OUT" "$1"
}

# e2e_wait_drawn USER STATE PROFILE W H: waits (bounded) until the desktop has drawn more than
# its background (the panel), so that a thumbnail is not one flat colour. No event says so:
# thumbnails are taken until one is not flat; each must succeed and have the right size.
e2e_wait_drawn() {
    local u=$1 st=$2 profile=$3 w=$4 h=$5 deadline=$((SECONDS + 20))
    local png=$E2E_SCRATCH/out-$u/drawn.png
    while ((SECONDS < deadline)); do
        BOTDESK_STATE_DIR=$st bd_as "$u" "$BOTDESK_BIN" --profile "$profile" thumbnail \
            --output "$png" || bd_fail "thumbnail of $profile failed"
        if "$E2E_PNGCHECK" "$png" "$w" "$h" >/dev/null 2>"$E2E_SCRATCH/drawn.err"; then
            return 0
        fi
        grep -q 'one flat colour' "$E2E_SCRATCH/drawn.err" ||
            bd_fail "thumbnail of $profile: $(cat "$E2E_SCRATCH/drawn.err")"
        sleep 0.2
    done
    bd_fail "the desktop of profile $profile never drew more than its background"
}

# e2e_desktop_pids LAUNCHER: every live process of a desktop: the launcher's session (its
# process group and anything a component moved elsewhere stays below the subreaper).
e2e_desktop_pids() {
    local launcher=$1 p
    {
        ps -o pid= -s "$launcher" 2>/dev/null
        e2e_descendants "$launcher"
    } | sort -un | while read -r p; do
        bd_gone "$p" || echo "$p"
    done
}

e2e_descendants() {
    local c
    for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$c"
        e2e_descendants "$c"
    done
}

# e2e_display_free N: nothing holds display N on this host: no X lock, socket (path or abstract)
# or keymap file of that number.
e2e_display_free() {
    [ ! -e "/tmp/.X$1-lock" ] && [ ! -e "/tmp/.X11-unix/X$1" ] && [ ! -e "/tmp/server-$1.xkm" ] &&
        ! grep -q "/tmp/.X11-unix/X$1\$" /proc/net/unix
}

# e2e_free_displays COUNT FIRST LAST: sets E2E_LO to the first of COUNT free display numbers in a
# row, tried from FIRST in steps of COUNT, none past LAST; skips when there are none.
e2e_free_displays() {
    local count=$1 first=$2 last=$3 n i
    for ((n = first; n + count - 1 <= last; n += count)); do
        for ((i = n; i < n + count; i++)); do
            e2e_display_free "$i" || continue 2
        done
        E2E_LO=$n
        return 0
    done
    bd_skip "no $count free display numbers in a row in $first-$last"
}

# e2e_xvnc_pid DISPLAY_NUMBER: the pid in the X lock.
e2e_xvnc_pid() {
    tr -d ' \n' <"/tmp/.X$1-lock"
}

# e2e_rfb_hello SOCKET: the first 12 bytes the RFB socket sends, as the user who owns it.
e2e_rfb_hello() {
    local u=$1 sock=$2
    bd_as "$u" "$E2E_PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
data = b""
while len(data) < 12:
    chunk = s.recv(12 - len(data))
    if not chunk:
        break
    data += chunk
sys.stdout.write(data.decode("ascii", "replace"))
' "$sock"
}

# e2e_tcp_listeners PID: the TCP sockets PID listens on (inodes found in /proc/net/tcp{,6}).
e2e_tcp_listeners() {
    local pid=$1 inodes
    inodes=$(find "/proc/$pid/fd" -maxdepth 1 -lname 'socket:*' -printf '%l\n' 2>/dev/null |
        sed 's/socket:\[\(.*\)\]/\1/')
    [ -n "$inodes" ] || return 0
    awk -v want="$(echo "$inodes" | tr '\n' ' ')" '
        BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ino[w[i]] = 1 }
        FNR > 1 && $4 == "0A" && ($10 in ino) { print FILENAME ": " $2 }
    ' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
