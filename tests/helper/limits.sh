#!/usr/bin/env bash
# Resource limits and the OOM score the caller set (issue 8, item 4). Where root lacks
# CAP_SYS_RESOURCE (Docker's default capability set), a hard limit the caller lowered cannot be
# raised again: with `prlimit --fsize=0:0` the root apt-get used to die of SIGXFSZ, and dpkg with
# it, half-way through an unpack. Now every limit of the helper's table that cannot reach its floor
# is refused (outcome limits, exit 13) before the request is even read; soft limits are raised; a
# raised oom_score_adj is put back to 0. Run without CAP_SYS_RESOURCE in the bounding set (setpriv
# drops it, so the exec of the helper cannot get it back): by root through the test build, whose
# package manager is a stub that reports what it got, and by bdtest-a through the real setuid
# helper, asking only what an install would run, so that nothing real ever runs here.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
setpriv --bounding-set -sys_resource true 2>/dev/null || bd_skip "setpriv cannot drop CAP_SYS_RESOURCE here"

out=$(mktemp)
bdh_on_exit 'rm -f "$out"'
nores=(setpriv --bounding-set -sys_resource)
inf=18446744073709551615

# One hard limit below its floor, for each limit the issue names and the two time limits.
lowered=(
    fsize=0:0 nofile=64:64 nproc=1000:1000 as=4294967296:4294967296 stack=1048576:1048576
    data=4294967296:4294967296 sigpending=100:100 msgqueue=8192:8192 cpu=100000:100000
    rttime=1000000:1000000
)
# A sanitizer build reserves terabytes of shadow memory at start: under a 4 GiB address space
# or data limit it cannot even start, so those two are the plain build's to prove.
if grep -qa '__asan_init' "$BDH_TEST"; then
    lowered=("${lowered[@]/as=*/}")
    lowered=("${lowered[@]/data=*/}")
    lowered=($(printf '%s\n' "${lowered[@]}" | grep .))
fi

# test_build ARGS...: one install through the test build, as root without CAP_SYS_RESOURCE.
test_build() {
    d=$(bdh_stub_dir ok)
    mkdir "$d/lists" && : >"$d/lists/x_Packages"
    BOTDESK_HELPER_TEST_DIR=$d timeout 60 "${nores[@]}" "$BDH_CLIENT" --op install "$@" "$BDH_TEST" >"$out" 2>&1
}

# Nothing lowered: the install runs, with the helper's limits (where the hard limit could not be
# raised, the one the host gave is kept), and an OOM score of 0.
test_build
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0" "line: stub-limit: fsize -1 -1" \
    "line: stub-limit: cpu -1 -1" "line: stub-oom: 0"
rm -rf "$d"

# Only soft limits lowered: raised again, nothing refused.
test_build --rlimit "fsize=0:$inf" --rlimit "cpu=1:$inf" --rlimit "stack=65536:$inf"
bdh_expect "$out" "result: ok manager=apt detail=0" "line: stub-limit: fsize -1 -1" \
    "line: stub-limit: cpu -1 -1" "line: stub-limit: stack 8388608 -1"
rm -rf "$d"

for lim in "${lowered[@]}"; do
    test_build --rlimit "$lim"
    grep -qx "result: limits manager=none detail=0" "$out" || {
        cat "$out" >&2
        bd_fail "test build, hard $lim: not refused"
    }
    bdh_expect "$out" "exit: 13"
    bdh_expect_no "$out" "line:"
    bdh_nothing_ran "$d"
    rm -rf "$d"
done

# A raised OOM score does not reach the package manager.
test_build --oom 1000
bdh_expect "$out" "result: ok manager=apt detail=0" "line: stub-oom: 0"
rm -rf "$d"

# With CAP_SYS_RESOURCE (root on a plain host), lowered hard limits are simply raised again.
if [ $(((16#$(sed -n 's/^CapBnd:\t//p' /proc/self/status) >> 24) & 1)) = 1 ]; then
    d=$(bdh_stub_dir ok)
    mkdir "$d/lists" && : >"$d/lists/x_Packages"
    BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install --rlimit fsize=0:0 \
        --rlimit nofile=64:64 "$BDH_TEST" >"$out" 2>&1
    bdh_expect "$out" "result: ok manager=apt detail=0" "line: stub-limit: fsize -1 -1" \
        "line: stub-limit: nofile 1024 524288"
    rm -rf "$d"
fi

# The real setuid helper, run by a member of group botdesk without CAP_SYS_RESOURCE.
bdh_need_users
bdh_setuid_copy limits
suid=$BDH_SUID
as_a_nores() {
    "${nores[@]}" --reuid="$BD_USER_A" --regid="$(id -g "$BD_USER_A")" --init-groups --reset-env \
        env -i PATH=/usr/bin:/bin "$@"
}
as_a_nores timeout 60 "$BDH_CLIENT" "$suid" >"$out" 2>&1
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
for lim in "${lowered[@]}"; do
    as_a_nores timeout 60 "$BDH_CLIENT" --rlimit "$lim" "$suid" >"$out" 2>&1
    grep -qx "result: limits manager=none detail=0" "$out" || {
        cat "$out" >&2
        bd_fail "setuid helper run by $BD_USER_A, hard $lim: not refused"
    }
    bdh_expect "$out" "exit: 13"
    bdh_expect_no "$out" "line:"
done

# bdtest-a's OOM score of 1000 is 0 in the privileged side (seen while it waits for the request).
coproc HOLD { as_a_nores timeout 30 "$BDH_CLIENT" --oom 1000 --hold "$suid" 2>/dev/null; }
hold=$HOLD_PID
read -r -t 10 line <&"${HOLD[0]}" || bd_fail "the held helper did not start"
helper_pid=${line#helper-pid: }
bdh_wait_parser "$helper_pid" >/dev/null
score=$(cat "/proc/$helper_pid/oom_score_adj")
echo >&"${HOLD[1]}"
cat <&"${HOLD[0]}" >"$out"
wait "$hold" || true
[ "$score" = 0 ] || bd_fail "the helper kept the caller's oom_score_adj: $score"
bdh_expect "$out" "result: ok manager=apt detail=0"

# And through `botdesk install --dry-run`: the user is told to run it as root.
state=$(bd_scratch "$BD_USER_A")
bdh_on_exit "rm -rf '$state'"
# (Through a pipe: under a file size of 0, writing to a file would kill botdesk itself.)
set +e
said=$(as_a_nores BOTDESK_HELPER="$suid" BOTDESK_STATE_DIR="$state" HOME="$state" \
    prlimit --fsize=0:0 timeout 60 "$BOTDESK_BIN" install --dry-run 2>&1)
rc=$?
set -e
[ "$rc" = 1 ] || bd_fail "botdesk install --dry-run exited $rc under fsize 0: $said"
grep -q "run 'botdesk install' as root" <<<"$said" || bd_fail "no advice to run it as root: $said"
echo "limits: lowered hard limits refused, soft limits and the OOM score reset"
