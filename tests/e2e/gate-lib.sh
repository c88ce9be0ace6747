# Shared by the gate's end-to-end tests: a recorder on the desktop (xrecorder: what input reaches
# it), the test's RFB viewer (rfbclient.py), and waits on the recorder's output. Source it (it
# sources e2e-lib.sh); call gate_open, or e2e_init and e2e_user, before the rest.

# shellcheck source=e2e-lib.sh
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"

GATE_RFB=$BD_SRCDIR/tests/e2e/rfbclient.py

# gate_open: the opening of a gate test: BD_USER_A's default desktop started (see e2e_user_a for
# U, ST, P and OUTD); its status is in OUT.
gate_open() {
    e2e_init
    e2e_user_a
    e2e_bd "$U" "$ST" start --json
    e2e_expect_rc 0 "start"
}

# gate_processes: after gate_open, XVNC (the desktop's X server, by the X lock of the display in
# OUT) and GATE (its botdesk-gate).
gate_processes() {
    [[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
    XVNC=$(e2e_xvnc_pid "${BASH_REMATCH[1]}")
    GATE=$(gate_pid default) || bd_fail "no botdesk-gate below the session"
}

# gate_rfb SOCKET ARGS...: the test's viewer as the test user; sets RC and OUT.
gate_rfb() {
    RC=0
    OUT=$(bd_as "$E2E_U" "$E2E_PY" "$GATE_RFB" "$@" 2>"$E2E_SCRATCH/rfb.err") || RC=$?
    ERR=$(<"$E2E_SCRATCH/rfb.err")
}

# gate_rfb_ok SOCKET ARGS...: the same, and it must succeed.
gate_rfb_ok() {
    gate_rfb "$@"
    [ "$RC" = 0 ] || bd_fail "rfbclient $*: exit $RC: $ERR; $OUT"
}

# gate_record PROFILE: starts the recorder on the desktop (while the agent holds it, see
# e2e_recorder) and waits until it holds the pointer and keyboard. Its lines go to $GATE_REC.
gate_record() {
    e2e_recorder "$1"
    GATE_REC=$REC
}

# gate_wait_line REGEX [SECONDS]: waits (on the file's growth, bounded) for a recorder line.
gate_wait_line() {
    grep -q -m1 -E "$1" < <(timeout "${2:-10}" tail -n +1 -F "$GATE_REC" 2>/dev/null) ||
        bd_fail "the desktop never saw '$1'; it saw: $(tr '\n' '|' <"$GATE_REC")
$(e2e_recorder_diag)"
}

# gate_never REGEX WHAT: the recorder has no such line.
gate_never() {
    ! grep -q -E "$1" "$GATE_REC" || bd_fail "$2: the desktop saw: $(grep -E "$1" "$GATE_REC" | head -3 | tr '\n' '|')"
}

# gate_pid PROFILE: the profile's botdesk-gate.
gate_pid() {
    local launcher
    launcher=$(cut -d' ' -f1 "$E2E_ST/$1/launcher.pid")
    pgrep -P "$launcher" -x botdesk-gate
}
