#!/usr/bin/env bash
# Bounds the caller cannot lift. The caller keeps a dup of the helper's own socket end and uses it
# to change the socket's timeouts, buffer size and O_NONBLOCK, to fill the helper's queue and to
# stall its request; it never reads; it leaves an interval timer, a huge timer slack and idle
# scheduling behind the exec. The install still ends by its own timeout with the package
# manager's whole group killed and the host lock released, and the parser child is bounded too,
# even when another process stops it. The real setuid helper, used so by a member of the group,
# still exits on its own.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

out=$(mktemp)
d=
bdh_on_exit 'stop_strays; rm -f "$out" "$out".*; [ -z "$d" ] || rm -rf "$d"'

# Without the bounds, the runs below hang root processes: a failing run leaves them to this.
is_ours() {
    case $(readlink "/proc/$1/exe" 2>/dev/null) in
    "$BDH_TEST" | "$BDH_STUB" | */suid-bounds/botdesk-helper) return 0 ;;
    esac
    return 1
}
stop_strays() {
    local pid member
    for pid in $(sed -n 's/^helper-pid: //p' "$out" "$out".* 2>/dev/null); do
        if is_ours "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    done
    [ -n "$d" ] && [ -f "$d/pids" ] || return 0
    while read -r pid; do
        for member in $(pgrep -g "$pid" || true); do
            if is_ours "$member"; then kill -KILL "$member" 2>/dev/null || true; fi
        done
    done <"$d/pids"
}
# done_with_run: the run passed; nothing of it is left to stop.
done_with_run() {
    rm -rf "$d"
    d=
    : >"$out"
}

# 1. A runner that wedges the socket and never reads, an ITIMER_REAL due long before the install's
# timeout, a timer slack of an hour, nice 19 / SCHED_IDLE / idle I/O on one CPU: the hung package
# manager (it ignores TERM) is killed by its timeout and the helper exits with that outcome.
d=$(bdh_stub_dir hang)
mkdir "$d/lists" && : >"$d/lists/x_Packages"
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_TIMEOUT=1.5 BOTDESK_HELPER_TEST_GRACE=0.3 \
    BOTDESK_HELPER_TEST_REPLY_TIMEOUT=0.5 timeout 30 "$BDH_CLIENT" --op install --wedge \
    --itimer 500 --timerslack --sched-idle "$BDH_TEST" >"$out" 2>&1 || true
bdh_expect "$out" "exit: 11"
grep -q '^wedged: [1-9][0-9]* junk records$' "$out" || bd_fail "the client did not fill the queue"
[ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "expected exactly one run of the package manager"
[ "$(wc -l <"$d/pids")" = 1 ] || bd_fail "expected one package manager pid"
pgid=$(cat "$d/pids")
members=$(pgrep -g "$pgid" || true)
[ -z "$members" ] || bd_fail "the package manager's group outlived the install: $members"
flock -n "$d/helper.lock" true || bd_fail "the host lock is still held"
done_with_run

# 2. The request stalled: the runner's dup resets SO_RCVTIMEO to "forever" once the parser child
# runs, sends its request and keeps the connection open. The parser child ends on its own clock.
d=$(bdh_stub_dir ok)
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_REQUEST_TIMEOUT=2 timeout 30 "$BDH_CLIENT" \
    --op install --stall-request "$BDH_TEST" >"$out" 2>&1 || true
bdh_expect "$out" "result: request-timeout manager=none detail=0" "exit: 5"
bdh_nothing_ran "$d"
done_with_run

# 3. The parser child stopped by somebody else (any process of uid 65534 may): the privileged side
# stops waiting at its own deadline and kills it.
d=$(bdh_stub_dir ok)
coproc HOLD {
    BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_REQUEST_TIMEOUT=2 BOTDESK_HELPER_TEST_GRACE=0.3 \
        exec timeout 30 "$BDH_CLIENT" --op install --hold "$BDH_TEST" 2>&1
}
hold=$HOLD_PID
read -r -t 10 line <&"${HOLD[0]}" || bd_fail "the held helper did not start"
helper_pid=${line#helper-pid: }
echo "helper-pid: $helper_pid" >"$out.held"
parser=$(bdh_wait_parser "$helper_pid")
kill -STOP "$parser"
echo >&"${HOLD[1]}"
cat <&"${HOLD[0]}" >"$out" || true
wait "$hold" || true
bdh_expect "$out" "result: request-timeout manager=none detail=0" "exit: 5"
bd_gone "$parser" || { kill -KILL "$parser"; bd_fail "the stopped parser child $parser was left behind"; }
bdh_nothing_ran "$d"
rm -f "$out.held"
done_with_run

# 4. The real setuid helper, run by a member of the group (an outsider cannot even exec it): once
# wedging the socket before its request, with an ITIMER_REAL and idle scheduling, so the answer
# cannot be delivered, and once stalling its request. The helper exits on its own both times, with
# the outcome as its status (its installed bounds: 10 s each).
bdh_need_users
bdh_setuid_copy bounds
suid=$BDH_SUID
bd_as "$BD_USER_A" timeout 60 "$BDH_CLIENT" --wedge --itimer 500 --timerslack --sched-idle \
    "$suid" >"$out.wedge" 2>&1 &
wedge=$!
bd_as "$BD_USER_A" timeout 60 "$BDH_CLIENT" --stall-request --sched-idle "$suid" >"$out.stall" 2>&1 &
stall=$!
wait "$wedge" || true
wait "$stall" || true
bdh_expect "$out.wedge" "exit: 0"
bdh_expect "$out.stall" "result: request-timeout manager=none detail=0" "exit: 5"
bdh_expect_no "$out.wedge" "signal:"
rm -f "$out.wedge" "$out.stall"
echo "bounds: every wait of the helper ended on its own clock"
