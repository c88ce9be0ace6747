#!/usr/bin/env bash
# Speed, as behaviour: `status` of a running desktop is a handful of file reads, with no child
# process and no /proc scan (the figures themselves are bench/'s, not a test's).
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
command -v strace >/dev/null || bd_skip "strace is not installed"
it_run strace -o /dev/null true
[ "$RC" = 0 ] || bd_skip "strace cannot trace here: $ERR"
# A sanitizer runtime reads /proc and starts threads of its own.
# (clang links its runtime statically, so ask the binary itself, not ldd)
! grep -qaE '__(a|t)san_init' "$BOTDESK_BIN" || bd_skip "botdesk is built with a sanitizer"

it_start
launcher=$J_pid
trace=$S/out/status.trace
for args in "status" "status --json" "env"; do
    rm -f "$trace"
    # shellcheck disable=SC2086 # word splitting is the point
    it_run strace -f -qq -o "$trace" -e trace=process,openat,open,getdents64,getdents "$BOTDESK_BIN" $args
    it_expect_rc 0 "botdesk $args under strace"
    t=$(<"$trace")
    it_expect_eq "$(grep -c 'execve(' "$trace")" 1 "botdesk $args executes nothing but itself:
$t"
    ! grep -Eq '(^|[^a-z_])(clone|clone3|fork|vfork)\(' "$trace" ||
        bd_fail "botdesk $args starts a process:
$t"
    ! grep -Eq 'getdents' "$trace" || bd_fail "botdesk $args lists a directory:
$t"
    # The only /proc files it opens are the launcher's own, and our own cgroup (the memory
    # figures are those of the cgroup we run in).
    while read -r path; do
        case $path in
        "/proc/$launcher/"* | /proc/self/cgroup) ;;
        /proc*) bd_fail "botdesk $args opens $path (only the launcher's own /proc files are needed):
$t" ;;
        esac
    done < <(grep -oE 'open(at)?\([^"]*"[^"]*"' "$trace" | sed 's/.*"\(.*\)"/\1/')
    echo "botdesk $args: $(grep -cE 'open(at)?\(' "$trace") opens"
done
it_status
it_expect_eq "$J_running" true "the desktop was running throughout"
it_bd stop
echo "PASS"
