#!/usr/bin/env bash
# The parser child is really confined. In the test build, probes run inside it: a forbidden system
# call after the filter ends it with SIGSYS, and setuid(0) after the drop fails. The installed
# helper's parser child, seen from outside while it waits for the request: every uid and gid
# unprivileged, no groups, every capability set empty, no_new_privs, seccomp filtering; and the
# caller cannot signal it.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

out=$(mktemp)
bdh_on_exit 'rm -f "$out"'

# A forbidden system call: the child dies of SIGSYS (31), the helper refuses, nothing runs.
d=$(bdh_stub_dir ok)
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_PROBE=sigsys "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: internal manager=none detail=$(kill -l SIGSYS)" "exit: 12"
bdh_nothing_ran "$d"
rm -rf "$d"

# setuid(0) after the drop: fails with EPERM (the probe exits 42; 43 would mean it worked).
d=$(bdh_stub_dir ok)
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_PROBE=setuid "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: internal manager=none detail=$((42 << 8))" "exit: 12"
bdh_nothing_ran "$d"
rm -rf "$d"

# The installed-mode helper's parser child, run by a non-root group member.
bdh_need_users
bdh_setuid_copy confine
suid=$BDH_SUID
coproc HOLD { bd_as "$BD_USER_A" timeout 30 "$BDH_CLIENT" --hold "$suid" 2>/dev/null; }
hold=$HOLD_PID
read -r -t 10 line <&"${HOLD[0]}" || bd_fail "the held helper did not start"
helper=${line#helper-pid: }
parser=$(bdh_wait_parser "$helper")
status=/proc/$parser/status
bdh_expect "$status" \
    $'Uid:\t65534\t65534\t65534\t65534' \
    $'Gid:\t65534\t65534\t65534\t65534' \
    $'CapInh:\t0000000000000000' \
    $'CapPrm:\t0000000000000000' \
    $'CapEff:\t0000000000000000' \
    $'CapBnd:\t0000000000000000' \
    $'CapAmb:\t0000000000000000' \
    $'NoNewPrivs:\t1' \
    $'Seccomp:\t2'
grep -Eq '^Groups:[[:space:]]*$' "$status" || bd_fail "the parser child has supplementary groups"
# Limits of the child: no files, no fds, no processes.
grep -Eq '^Max file size +0 +0 ' "/proc/$parser/limits" || bd_fail "the parser may create files"
grep -Eq '^Max processes +0 +0 ' "/proc/$parser/limits" || bd_fail "the parser may fork"
# The caller can signal neither the parser child nor read the helper's memory.
bd_as "$BD_USER_A" kill -0 "$parser" 2>/dev/null && bd_fail "the caller can signal the parser child"
[ "$(stat -c %u "/proc/$helper")" = 0 ] || bd_fail "the helper is dumpable by the caller"
echo >&"${HOLD[1]}"
cat <&"${HOLD[0]}" >"$out"
wait "$hold" || true
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
echo "confine: the parser child holds nothing"
