#!/usr/bin/env bash
# Issue 12, per-desktop limits on real desktops: two desktops of one user in a delegated cgroup,
# each in a cgroup of its own with max_memory_mb = 400. A program run on the first (botdesk exec)
# that grows past the limit is the one the kernel kills: the first desktop keeps working, the
# second never sees an OOM kill. And when the OOM killer picks the first desktop's Xvnc, its
# session survives to tear the desktop down cleanly (no X lock, socket or process left) and names
# the signal in its log.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
bd_is_root || bd_skip "needs root to make and delegate a cgroup"
# Under ASan every process of ours carries shadow memory in the same small cgroup, so the OOM
# killer's choice (which this test is about) is the sanitizer's, not the desktop's: the plain
# build proves it.
! grep -qa '__asan_init' "$E2E_SESSION" || bd_skip "botdesk-session is built with a sanitizer"
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST
export BOTDESK_DISPLAY_BAND=75-79 BOTDESK_MAX_MEMORY_MB=400 BOTDESK_CGROUP_ROOT=/sys/fs/cgroup

if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || echo +memory >/sys/fs/cgroup/cgroup.subtree_control
    cg=/sys/fs/cgroup/botdesk-e2e-$$
    events=memory.events
elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    rel=$(sed -n 's/^[0-9]*:[^:]*\bmemory\b[^:]*://p' /proc/self/cgroup)
    cg=/sys/fs/cgroup/memory${rel%/}/botdesk-e2e-$$
    events=memory.oom_control
else
    bd_skip "no memory cgroup controller here"
fi
mkdir "$cg"
cleanup_cg() {
    local d
    for d in $(find "$cg" -depth -type d 2>/dev/null); do
        xargs -r kill -KILL <"$d/cgroup.procs" 2>/dev/null || true
    done
    for d in $(find "$cg" -depth -type d 2>/dev/null); do
        for _ in $(seq 50); do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
    done
}
trap 'e2e_cleanup; cleanup_cg' EXIT
chown "$U:" "$cg" "$cg/cgroup.procs"
[ ! -e "$cg/tasks" ] || chown "$U:" "$cg/tasks"
shell=$cg
if [ -e "$cg/cgroup.subtree_control" ]; then
    chown "$U:" "$cg/cgroup.subtree_control"
    echo +memory >"$cg/cgroup.subtree_control"
    mkdir "$cg/shell"
    chown "$U:" "$cg/shell" "$cg/shell/cgroup.procs"
    shell=$cg/shell
fi

# in_cg ARGS...: botdesk as the user, from inside the delegated cgroup.
in_cg() {
    local out=$E2E_SCRATCH/out.$$ err=$E2E_SCRATCH/err.$$
    RC=0
    (
        echo "$BASHPID" >"$shell/cgroup.procs"
        BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" "$@"
    ) >"$out" 2>"$err" || RC=$?
    OUT=$(<"$out")
    ERR=$(<"$err")
}

oom_kills() { # DESKTOP_CGROUP
    sed -n 's/^oom_kill \([0-9]*\)$/\1/p' "$1/$events"
}

in_cg --profile one start --json
e2e_expect_rc 0 "start one"
one=$(e2e_json pid)
n1=$(e2e_json display)
in_cg --profile two start --json
e2e_expect_rc 0 "start two"
two=$(e2e_json pid)
cg1=$cg/botdesk/desktop-${n1#:}-one
cg2=$cg/botdesk/desktop-$(e2e_json display | tr -d :)-two
[ -d "$cg1" ] && [ -d "$cg2" ] || bd_fail "no cgroups of their own: $(find "$cg" -type d)"
two_pids=$(e2e_desktop_pids "$two")
in_cg --profile one status --json
echo "one: $(e2e_json desktop_memory_mb) MB of $(e2e_json desktop_memory_max_mb) MB at rest"
# The session publishes its desktop's PSS for list (session/memfile.h), a few seconds after start.
bd_wait_file "$ST/one/memory" 10 || bd_fail "the session published no memory figure"
pss=$(sed -n 's/^pss_kb=//p' "$ST/one/memory")
[ "$pss" -gt 10000 ] || bd_fail "an implausible PSS figure: $pss kB"
in_cg list --json
case $OUT in
*"\"profile\":\"one\""*"\"memory_mb\":$((pss / 1024)),"*) ;;
*) bd_fail "list does not show the published figure $((pss / 1024)) MB: $OUT" ;;
esac

# A program on desktop one that wants 1 GB: the kernel kills it, in one's cgroup only.
hog='import sys
b = []
for i in range(100):
    b.append(bytearray(10 << 20))
    for j in range(0, len(b[-1]), 4096):
        b[-1][j] = 1
print("survived 1000 MB", flush=True)'
in_cg --profile one exec -- /usr/bin/python3 -c "$hog"
[ "$RC" = 137 ] || bd_fail "the hog was not killed by the OOM killer: exit $RC; $OUT $ERR"
k1=$(oom_kills "$cg1") k2=$(oom_kills "$cg2")
[ "${k1:-0}" -ge 1 ] || bd_fail "no OOM kill counted in one's cgroup: $(cat "$cg1/$events")"
[ "${k2:-0}" = 0 ] || bd_fail "two's cgroup saw an OOM kill: $(cat "$cg2/$events")"
in_cg --profile one exec -- xdpyinfo
e2e_expect_rc 0 "one works after its program was killed"
for p in $two_pids; do
    bd_gone "$p" && bd_fail "a process of two died: $p"
done
echo "figure: a 1000 MB program on desktop one (max_memory_mb 400) was OOM-killed in one's cgroup ($k1 kill); desktop two: ${k2:-0} kills, all $(wc -w <<<"$two_pids") processes alive"

# Now the OOM killer picks one's Xvnc (as it may when Xvnc is the largest): the session lives to
# tear the desktop down.
xvnc=$(e2e_xvnc_pid "${n1#:}")
echo 1000 >"/proc/$xvnc/oom_score_adj"
in_cg --profile one exec -- /usr/bin/python3 -c "$hog"
bd_wait_gone "$one" 15 || bd_fail "the session of one did not end after its Xvnc was OOM-killed"
log=$(<"$ST/one/launcher.log")
case $log in
*"Xvnc ended (signal 9"*) ;;
*) bd_fail "the session's log does not name Xvnc's end: $log" ;;
esac
[ ! -e "/tmp/.X${n1#:}-lock" ] || bd_fail "one's X lock is left"
[ ! -e "/tmp/.X11-unix/X${n1#:}" ] || bd_fail "one's X socket is left"
for p in $two_pids; do
    bd_gone "$p" && bd_fail "a process of two died with one's Xvnc: $p"
done
in_cg --profile two exec -- xdpyinfo
e2e_expect_rc 0 "two works throughout"
in_cg --profile one start
e2e_expect_rc 0 "one starts again"
in_cg --profile one stop
in_cg --profile two stop
e2e_expect_rc 0 "stop two"
[ ! -e "$cg2" ] || bd_fail "two's cgroup is left after stop"
echo "ok: the desktop over its max_memory_mb pays, its neighbour does not, and its session survives its Xvnc's OOM kill"
