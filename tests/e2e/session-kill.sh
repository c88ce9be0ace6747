#!/usr/bin/env bash
# kill -9 of botdesk-session ends its desktop: Xvnc, the gate and the window manager are gone
# within a second (each child carries PR_SET_PDEATHSIG), the rest of the desktop's processes
# follow (the bus through the session's lifeline, X clients with their server; 5 s bound), and
# the doors stop accepting. Before, Xvnc and the gate went on serving a frozen desktop that status called
# stopped. Waits on pidfds (poll), bounded by BD_DEATH_WAIT_MS (1000).
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
launcher=$(e2e_json pid)
gate_processes
wm=$(pgrep -P "$launcher" -x xfwm4) || bd_fail "no xfwm4 below the session"
# Everything of the desktop: the launcher's session (process group) and what lives below it.
mapfile -t all < <(e2e_desktop_pids "$launcher" | grep -vx "$launcher")
((${#all[@]} >= 4)) || bd_fail "too few desktop processes: ${all[*]}"

# The pidfds are opened before the kill, so each names its process even once it is gone.
rc=0
"$E2E_PY" - "$launcher" "${BD_DEATH_WAIT_MS:-1000}" "$XVNC" "$GATE" "$wm" -- "${all[@]}" \
    >"$E2E_SCRATCH/death" 2>&1 <<'PY' || rc=$?
import os, select, signal, sys, time
launcher, wait_ms = int(sys.argv[1]), int(sys.argv[2])
sep = sys.argv.index("--")
named = [int(p) for p in sys.argv[3:sep]]
rest = [int(p) for p in sys.argv[sep + 1:] if int(p) not in named]
fds = {}
for pid in named + rest:
    try:
        fds[os.pidfd_open(pid)] = pid
    except ProcessLookupError:
        pass
os.kill(launcher, signal.SIGKILL)
t0 = time.monotonic()

def wait(fds, ms):
    """The pidfds among fds that are not readable (their process alive) by t0 + ms."""
    p = select.poll()
    for fd in fds:
        p.register(fd, select.POLLIN)
    left = dict(fds)
    while left:
        t = t0 + ms / 1000 - time.monotonic()
        if t <= 0:
            break
        for fd, _ in p.poll(t * 1000):
            p.unregister(fd)
            del left[fd]
    return left

def report(left, ms):
    for fd, pid in left.items():
        try:
            cmd = open("/proc/%d/cmdline" % pid, "rb").read().replace(b"\0", b" ").decode()
        except OSError:
            cmd = "?"
        print("alive %d ms after the kill: %d %s" % (ms, pid, cmd))

# Xvnc, the gate and the window manager within the bound; what they and the bus leave (X
# clients, bus services) follows them, given a few seconds more on a loaded machine.
left = wait({fd: pid for fd, pid in fds.items() if pid in named}, wait_ms)
report(left, wait_ms)
rest = wait({fd: pid for fd, pid in fds.items() if pid not in named}, wait_ms + 4000)
report(rest, wait_ms + 4000)
sys.exit(1 if left or rest else 0)
PY
[ "$rc" = 0 ] || bd_fail "the desktop outlived its session: $(cat "$E2E_SCRATCH/death")"

# The doors accept no viewer.
for s in rfb.sock view.sock; do
    r=0
    bd_as "$U" "$E2E_PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(2)
s.connect(sys.argv[1])
' "$P/$s" 2>/dev/null || r=$?
    [ "$r" != 0 ] || bd_fail "$s still accepts a viewer after the session was killed"
done
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json running)" = false ] || bd_fail "status: $OUT"
# The next start comes up on the same profile.
e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start after the session was killed"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: the desktop ends with its session"
