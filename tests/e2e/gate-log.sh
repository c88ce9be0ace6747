#!/usr/bin/env bash
# launcher.log stays bounded and whole under viewers: 2,000 connections on view.sock (every
# tenth closed by the gate for a message nobody can frame, which the gate logs) leave the log
# under 512 KiB (Xvnc logs at level 10: a connect and a close per viewer; level 30 wrote ~600
# bytes each, 1.2 MB here), and every line of the gate's is whole: each part of the desktop
# writes into a pipe of its own and the session writes launcher.log a whole line at a time.
# Rotation at 1 MiB is tested on its own in tests/session/test-logrelay.c.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
bd_as "$U" "$E2E_PY" - "$P/view.sock" <<'PY' || bd_fail "the viewers failed"
import os, socket, struct, sys
sys.path.insert(0, os.environ["BD_SRCDIR"] + "/tests/e2e")
from e2elib import recv_exact

for i in range(2000):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(sys.argv[1])
    recv_exact(s, 12)
    s.sendall(b"RFB 003.008\n")
    (n,) = struct.unpack(">B", recv_exact(s, 1))
    recv_exact(s, n)
    s.sendall(b"\x01")
    recv_exact(s, 4)
    s.sendall(b"\x01")
    recv_exact(s, 20)
    (name,) = struct.unpack(">I", recv_exact(s, 4))
    recv_exact(s, name)
    if i % 10 == 0:
        # A message type nobody can frame: the gate closes the viewer and says so.
        s.sendall(b"\x07")
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
    s.close()
PY
# A viewer's round trip after the rest: Xvnc has handled (and logged) every close before it.
gate_rfb_ok "$P/view.sock" sync
log=$P/launcher.log
size=$(stat -c %s "$log")
((size < 512 * 1024)) || bd_fail "2,000 viewers left launcher.log at $size bytes"
[ ! -e "$log.1" ] || ((size + $(stat -c %s "$log.1") < 2 * 1024 * 1024 + 8192)) ||
    bd_fail "launcher.log.1 is $(stat -c %s "$log.1") bytes"
want='botdesk-gate: warning: closed a viewer on view.sock: it sent what a viewer may not (a message that cannot be framed, a security type other than None, or a clipboard over 262144 bytes)'
whole=$(grep -cxF "$want" "$log" || true)
torn=$(grep -F 'botdesk-gate' "$log" | grep -vxF "$want" | head -3 || true)
[ -z "$torn" ] || bd_fail "the gate's lines are cut or mixed with others: $torn"
[ "$whole" = 200 ] || bd_fail "$whole whole gate lines, expected 200: $(grep -c 'closed a viewer' "$log")"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: 2,000 viewers left $size bytes of log, the gate's 200 lines whole"
