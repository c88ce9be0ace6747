#!/usr/bin/env bash
# Handshakes on view.sock never lock the owner out of rfb.sock. Every viewer reaches Xvnc
# through the gate, one address to Xvnc: with its failed-handshake blacklist on, five aborted
# handshakes on view.sock (by anyone in the view group) locked every door for 10 s. Now Xvnc
# keeps no blacklist and the gate bounds each door on its own: a handshake deadline, at most
# RELAY_MAX_HANDSHAKES viewers mid-handshake per door, and slots the view door cannot take.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
e2e_init
e2e_user_a
U=$E2E_U
# The attacker: a member of the view group, another user where we are root.
OTHER=$(bd_test_user "$BD_USER_B")
VD=$E2E_SCRATCH/view-$U
mkdir -m 0710 "$VD"
bd_is_root && chown "$U:botdesk" "$VD"
BOTDESK_VIEW_GROUP=botdesk BOTDESK_VIEW_DIR=$VD e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start with a view group"
DOOR=$(e2e_json view_socket)
[ -S "$DOOR" ] || bd_fail "no view door: $OUT"

# 20 aborted handshakes: the version, then gone; then a half-done one that never ends.
bd_as "$OTHER" "$E2E_PY" - "$DOOR" <<'PY' || bd_fail "$OTHER could not reach the view door"
import socket, sys
for i in range(20):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(sys.argv[1])
    try:
        s.recv(12)
        s.sendall(b"RFB 003.008\n")
        if i % 2:
            s.recv(64)  # the security types, then gone without choosing
    except OSError:
        pass  # refused mid-way: still an aborted handshake
    s.close()
PY
# The owner's door answers at once: a whole handshake and a frame, within a bounded wait.
RC=0
OUT=$(timeout 10 bash -c 'source "$BD_SRCDIR/tests/lib.sh"; bd_as "$1" "$2" "$3" "$4" sync' _ \
    "$U" "$E2E_PY" "$GATE_RFB" "$ST/default/rfb.sock" 2>&1) || RC=$?
[ "$RC" = 0 ] || bd_fail "after 20 aborted handshakes on view.sock the owner's rfb.sock failed (exit $RC): $OUT"
[[ $OUT == *"synced 1440x900"* ]] || bd_fail "rfb.sock: $OUT"

# Watchers holding every connection they can, most mid-handshake, leave rfb.sock open too.
FIFO=$E2E_SCRATCH/hold
mkfifo -m 0666 "$FIFO"
bd_as "$OTHER" "$E2E_PY" - "$DOOR" "$FIFO" >"$E2E_SCRATCH/held" 2>&1 <<'PY' &
import socket, sys
held = []
for i in range(80):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1])
    except OSError:
        break
    held.append(s)
print("held %d" % len(held), flush=True)
with open(sys.argv[2]) as f:
    f.readline()
PY
holder=$!
deadline=$((SECONDS + 10))
until grep -q '^held' "$E2E_SCRATCH/held"; do
    ((SECONDS < deadline)) || bd_fail "the holder never connected: $(cat "$E2E_SCRATCH/held")"
    inotifywait -qq -t 1 -e modify "$E2E_SCRATCH/held" 2>/dev/null || true
done
RC=0
OUT=$(timeout 10 bash -c 'source "$BD_SRCDIR/tests/lib.sh"; bd_as "$1" "$2" "$3" "$4" sync' _ \
    "$U" "$E2E_PY" "$GATE_RFB" "$ST/default/rfb.sock" 2>&1) || RC=$?
echo x >"$FIFO"
wait "$holder" || true
[ "$RC" = 0 ] || bd_fail "with view.sock held ($(cat "$E2E_SCRATCH/held")) the owner's rfb.sock failed (exit $RC): $OUT"
grep -q 'view.sock turned .* viewer(s) away' "$ST/default/launcher.log" ||
    bd_fail "the gate did not say it turned watchers away: $(tail -5 "$ST/default/launcher.log")"

# A viewer that never finishes its handshake is closed by the gate (RELAY_HANDSHAKE_MS, 10 s):
# waited for as the connection's end, bounded at 20 s.
bd_as "$OTHER" "$E2E_PY" - "$DOOR" <<'PY' || bd_fail "a silent viewer was never closed"
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(20)
s.connect(sys.argv[1])
while s.recv(4096):
    pass
PY

e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: view.sock's handshakes never lock rfb.sock"
