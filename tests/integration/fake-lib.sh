# Sourced by the fake launchers the integration tests write (it_fake in common.sh). A fake
# stands in for botdesk-session: it gets the launcher contract's BOTDESK_* variables and shows
# the runner the same files the real one does, at moments the test chooses.

# -C: a fake never writes through a file that is already there (a planted symlink).
set -euC

# Every spawn leaves a mark named after its pid (= its process group): tests count spawns with
# it and the cleanup kills what is left by it.
: >"$BD_MARKS/spawned.$$"

# fake_notify LINE: one line of the start's handshake on the runner's pipe (BOTDESK_NOTIFY_FD),
# as botdesk-session writes it. Nothing once fake_notify_close closed it: a fake that claims
# after publishing must not fail (set -e) on a closed fd.
fake_notify() {
    [ -n "${BOTDESK_NOTIFY_FD:-}" ] || return 0
    printf '%s\n' "$1" >&"$BOTDESK_NOTIFY_FD"
}

# fake_notify_close: the session's end of the handshake goes, as after "ready": the runner sees
# EOF, and nothing the fake starts later inherits the pipe.
fake_notify_close() {
    [ -n "${BOTDESK_NOTIFY_FD:-}" ] || return 0
    exec {BOTDESK_NOTIFY_FD}>&-
    unset BOTDESK_NOTIFY_FD
}

# fake_xlock [PID]: claims the display as X does, "%10d\n" in .X<n>-lock, published by rename,
# and says so on the handshake.
fake_xlock() {
    local lock="$BOTDESK_X_LOCK_DIR/.X$BOTDESK_DISPLAY_NUM-lock"
    printf '%10d\n' "${1:-$$}" >"$lock.tmp.$$"
    mv -f "$lock.tmp.$$" "$lock"
    fake_notify "claimed $BOTDESK_DISPLAY_NUM"
}

# fake_xserver [SOCKET]: an X server stand-in that listens (and never answers) on the display's
# path socket, so exec and thumbnail find a server of the right user. Ready when it returns.
fake_xserver() {
    local sock=${1:-$BOTDESK_X_LOCK_DIR/.X11-unix/X$BOTDESK_DISPLAY_NUM} ready
    mkdir -p "$(dirname "$sock")"
    rm -f "$sock" # a killed fake's, as a server clears a dead socket
    exec {ready}< <(exec python3 -c '
import signal, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
print("ok", flush=True)
signal.pause()' "$sock")
    read -r -u "$ready" _
}

# fake_ready: the handshake's last line, then its end.
fake_ready() {
    fake_notify ready
    fake_notify_close
}

# fake_publish: the socket path, then the env file (written whole, then renamed into place),
# then "ready".
fake_publish() {
    : >"$BOTDESK_SOCKET"
    printf 'DISPLAY=:%s\nXAUTHORITY=%s\nDBUS_SESSION_BUS_ADDRESS=unix:path=%s/bus\n' \
        "$BOTDESK_DISPLAY_NUM" "$BOTDESK_XAUTH" "$BOTDESK_CONFIG_HOME" >"$BOTDESK_ENV_FILE.tmp.$$"
    mv -f "$BOTDESK_ENV_FILE.tmp.$$" "$BOTDESK_ENV_FILE"
    fake_ready
}

# fake_note NAME VALUE: leaves VALUE in $BD_MARKS/NAME whole (by rename), for a test that
# wakes on the name appearing.
fake_note() {
    printf '%s\n' "$2" >"$BD_MARKS/.$1.$$"
    mv -f "$BD_MARKS/.$1.$$" "$BD_MARKS/$1"
}

# fake_gate FIFO: blocks until the test writes a line into FIFO.
fake_gate() {
    local line
    read -r line <"$1"
}

# fake_hold: stays up like the real supervisor, with a bound in case every cleanup fails.
fake_hold() {
    exec sleep 300
}

# The usual fake: claim the number, publish, stay up.
fake_up() {
    fake_xlock
    fake_publish
    fake_hold
}
