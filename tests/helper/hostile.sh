#!/usr/bin/env bash
# Hostile callers. Nothing a caller controls before exec (argv, fds 0-2, what sits on fd 3, stray
# fds, the environment, the umask, resource limits, blocked or ignored signals, a controlling
# terminal, interval timers, the timer slack, nice, scheduling policy, I/O priority, CPU affinity,
# a dup of the helper's socket end) changes what runs or leaks into the package manager: the test build's stub package
# manager reports exactly what it got. The installed-mode helper, made setuid root and run by a
# non-root user, refuses the same malformed invocations and answers the rest unchanged.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

out=$(mktemp)
ref=$(mktemp)
bdh_on_exit 'rm -f "$out" "$ref"; [ -z "${server:-}" ] || kill "$server" 2>/dev/null'

mapfile -t apt_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt)
want_argv="$BDH_STUB -q -o DPkg::Lock::Timeout=120 -o Dpkg::Options::=--force-confdef"
want_argv+=" -o Dpkg::Options::=--force-confold -o APT::Status-Fd=1 -y --no-install-recommends --no-remove"
want_argv+=" install ${apt_pkgs[*]}"

poison=(
    LD_PRELOAD=/nonexistent/evil.so LD_LIBRARY_PATH=/tmp/evil GCONV_PATH=/tmp/evil
    PATH=/tmp/evil:/usr/bin APT_CONFIG=/tmp/evil/apt.conf LANG=tr_TR.UTF-8 LC_ALL=tr_TR.UTF-8
    LOCPATH=/tmp/evil NLSPATH=/tmp/evil IFS=x DNF_VAR_evil=1 BASH_ENV=/tmp/evil/rc
    ENV=/tmp/evil/rc TMPDIR=/tmp/evil MALLOC_CHECK_=3 HOME=/tmp/evil
    DEBIAN_FRONTEND=readline BOTDESK_STUB_DIR=/tmp/evil SECRET_TOKEN=hunter2
)

# Tiny limits. Where even root may not raise a hard limit (some sandboxes), only the soft limits
# are lowered: the helper cannot undo a hard limit there, and says so nowhere.
hard() {
    prlimit --raw --noheadings -o HARD "--$1" | sed 's/unlimited/18446744073709551615/'
}
if prlimit --nofile="$(ulimit -Sn):$(($(hard nofile) + 1))" true 2>/dev/null; then
    tiny=(--rlimit nofile=8 --rlimit fsize=1 --rlimit stack=1048576 --rlimit cpu=5)
else
    tiny=(--rlimit "nofile=8:$(hard nofile)" --rlimit "fsize=1:$(hard fsize)"
        --rlimit "stack=1048576:$(hard stack)" --rlimit "cpu=5:$(hard cpu)")
fi

# check_sched: the package manager runs at nice 0, SCHED_OTHER, the default I/O priority, the usual
# timer slack, on the CPUs a clean run gets (the first run is the clean one).
sched_ref=
check_sched() {
    local now
    now=$(grep -E '^line: stub-(sched|timerslack|status: Cpus_allowed_list)' "$out" || true)
    grep -qE '^line: stub-sched: nice=0 policy=0 ioprio=[0-9]+$' <<<"$now" ||
        bd_fail "the caller's nice value or scheduling policy reached the package manager: $now"
    grep -qx 'line: stub-timerslack: 50000' <<<"$now" ||
        bd_fail "the caller's timer slack reached the package manager: $now"
    [ -n "$sched_ref" ] || sched_ref=$now
    [ "$now" = "$sched_ref" ] ||
        bd_fail "the caller's I/O priority or CPU affinity reached the package manager: $now (clean: $sched_ref)"
}

# check_report: the stub's report in $out is what the helper compiles in, nothing of the caller.
check_report() {
    local d=$1
    bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
    diff <(sed -n 's/^line: stub-env: //p' "$out" | sort) \
        <(printf '%s\n' "${BDH_ENV[@]}" "BOTDESK_STUB_DIR=$d" | sort) >&2 ||
        bd_fail "the package manager's environment is not exactly the fixed one"
    bdh_expect "$out" "line: stub-argv: $want_argv" \
        "line: stub-fds: 0 1 2" \
        $'line: stub-status: Umask:\t0022' \
        $'line: stub-status: SigBlk:\t0000000000000000' \
        $'line: stub-status: SigIgn:\t0000000000000000' \
        $'line: stub-status: Uid:\t0\t0\t0\t0' \
        $'line: stub-status: Gid:\t0\t0\t0\t0' \
        $'line: stub-status: CapInh:\t0000000000000000' \
        $'line: stub-status: CapAmb:\t0000000000000000' \
        $'line: stub-status: CapBnd:\t'"$BDH_CAPBND" \
        "line: stub-stdin: devnull" \
        "line: stub-cwd: /" \
        "line: stub-limit: fsize -1 -1" \
        "line: stub-limit: core 0 0" \
        "line: stub-oom: 0"
    grep -Eq '^line: stub-session: pid=([0-9]+) sid=\1 pgid=\1$' "$out" ||
        bd_fail "the package manager is not the leader of a session of its own"
    bdh_expect_no "$out" "line: stub-tty: open" "hunter2" "/tmp/evil" "tr_TR"
    local nofile stack
    nofile=$(sed -n 's/^line: stub-limit: nofile \([0-9-]*\) .*/\1/p' "$out")
    stack=$(sed -n 's/^line: stub-limit: stack \([0-9-]*\) .*/\1/p' "$out")
    [ "$nofile" -ge 1024 ] || bd_fail "nofile soft limit $nofile: the caller's limit leaked"
    [ "$stack" -ge 8388608 ] || bd_fail "stack soft limit $stack: the caller's limit leaked"
    check_sched
}

# run_test_build ARGS...: one install through the test build, as root, with the stub.
run_test_build() {
    local d
    d=$(bdh_stub_dir ok)
    mkdir "$d/lists" && : >"$d/lists/archive.invalid_debian_dists_bookworm_main_binary-amd64_Packages"
    BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$@" "$BDH_TEST" >"$out" 2>/dev/null
    check_report "$d"
    [ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "expected exactly one run of the package manager"
    rm -rf "$d"
}

run_test_build
run_test_build_env() {
    local d
    d=$(bdh_stub_dir ok)
    mkdir "$d/lists" && : >"$d/lists/x_Packages"
    env "${poison[@]}" BOTDESK_HELPER_TEST_DIR="$d" timeout 60 "$BDH_CLIENT" --op install \
        "$@" "$BDH_TEST" >"$out" 2>/dev/null
    check_report "$d"
    rm -rf "$d"
}
run_test_build_env
run_test_build --umask 000
run_test_build "${tiny[@]}"
run_test_build --block-signals
run_test_build --ignore-signals
run_test_build --many-fds
run_test_build --close-stdio
run_test_build --pty
bdh_expect "$out" "line: stub-tty: No such device or address"
# Idle scheduling, a huge timer slack, interval timers (the real-time one is the subject of
# bounds.sh) and a dup of the helper's socket end, held but unused.
idle=(--sched-idle --timerslack --itimer 30000 --dup-end)
run_test_build "${idle[@]}"
run_test_build_env --umask 000 "${tiny[@]}" --block-signals --ignore-signals --pty "${idle[@]}"

# refusals REFUSED: the starts a helper refuses before it reads a request (argv without a name,
# empty or with extras: 64; fd 3 missing, a file or a socket of the wrong kind: 65), each as
# REFUSED CODE ARGS...
refusals() {
    local fd3
    "$1" 64 --argv argc0
    "$1" 64 --argv empty
    "$1" 64 --argv argc0 --close-stdio
    "$1" 64 --argv extra
    for fd3 in file none stream dgram; do
        "$1" 65 --fd3 "$fd3"
    done
}

# Refused before anything runs: no reply, a fixed exit status, the package manager never started.
refused_test_build() {
    local code=$1 d
    shift
    d=$(bdh_stub_dir ok)
    BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$@" "$BDH_TEST" >"$out" 2>/dev/null
    bdh_expect "$out" "exit: $code"
    bdh_expect_no "$out" "result:" "line:"
    bdh_nothing_ran "$d"
    rm -rf "$d"
}
refusals refused_test_build
refused_test_build 65 --fd3 file --close-stdio

# The installed-mode helper, setuid root, used by a non-root member of group botdesk.
bdh_need_users
bdh_setuid_copy hostile
suid=$BDH_SUID
as_a() { bd_as "$BD_USER_A" "$@"; }
as_a timeout 60 "$BDH_CLIENT" "$suid" >"$ref" 2>/dev/null
bdh_expect "$ref" "result: ok manager=apt detail=0" "exit: 0"
grep -q "^line: /usr/bin/apt-get .* install ${apt_pkgs[*]}\$" "$ref" || bd_fail "decide did not name the command"
same_as_clean() {
    diff "$ref" "$out" >&2 || bd_fail "the answer changed under: $*"
}
for opts in "" "--umask 000" "${tiny[*]}" "--block-signals" "--ignore-signals" \
    "--many-fds" "--close-stdio" "--pty" "${idle[*]}"; do
    # shellcheck disable=SC2086 # word splitting of the option list is intended
    as_a timeout 60 "$BDH_CLIENT" $opts "$suid" >"$out" 2>/dev/null
    same_as_clean "$opts"
done
as_a env "${poison[@]}" timeout 60 "$BDH_CLIENT" "$suid" >"$out" 2>/dev/null
same_as_clean "a poisoned environment"

refused_suid() {
    local code=$1
    shift
    as_a timeout 60 "$BDH_CLIENT" "$@" "$suid" >"$out" 2>/dev/null
    bdh_expect "$out" "exit: $code"
    bdh_expect_no "$out" "result:" "line:"
}
refusals refused_suid
# A socket whose peer is somebody else (root's service): the helper will not speak for it.
name=botdesk-test-foreign-$$
coproc SERVER { exec "$BDH_CLIENT" --serve "$name" 2>/dev/null; }
server=$SERVER_PID
read -r -t 10 ready <&"${SERVER[0]}" || bd_fail "the foreign server did not start"
[ "$ready" = ready ] || bd_fail "the foreign server said '$ready'"
refused_suid 65 --fd3 "foreign:$name"
kill "$server"
wait "$server" 2>/dev/null || true
server=

# The test build, whose package manager is a stub the tests control, refuses to run setuid.
tdir=$BD_BUILDDIR/tests/helper/suid-hostile-test
rm -rf "$tdir"
bdh_on_exit "rm -rf '$tdir'"
install -d -m 0755 -o root -g root "$tdir"
install -m 4755 -o root -g root "$BDH_TEST" "$tdir/botdesk-helper-test"
d=$(bdh_stub_dir ok)
chmod 0755 "$d"
as_a env BOTDESK_HELPER_TEST_DIR="$d" timeout 60 "$BDH_CLIENT" --op install "$tdir/botdesk-helper-test" >"$out" 2>/dev/null
bdh_expect "$out" "exit: 71"
bdh_expect_no "$out" "result:" "line:"
bdh_nothing_ran "$d"
rm -rf "$d" "$tdir"

# The privileged side is not the caller's to inspect: /proc of the helper is root's.
coproc HOLD { as_a timeout 30 "$BDH_CLIENT" --hold "$suid" 2>/dev/null; }
hold=$HOLD_PID
read -r -t 10 line <&"${HOLD[0]}" || bd_fail "the held helper did not start"
helper_pid=${line#helper-pid: }
bdh_wait_parser "$helper_pid" >/dev/null
[ "$(stat -c %u "/proc/$helper_pid")" = 0 ] || bd_fail "the helper's /proc entry is not root's (dumpable?)"
as_a cat "/proc/$helper_pid/environ" >/dev/null 2>&1 && bd_fail "the caller can read the helper's environment"
echo >&"${HOLD[1]}"
cat <&"${HOLD[0]}" >"$out"
wait "$hold" || true
bdh_expect "$out" "result: ok manager=apt detail=0"
echo "hostile: nothing the caller controls reached the package manager"
