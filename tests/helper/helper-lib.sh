# Shared by the helper's shell tests. Source it after setting nothing; it sources tests/lib.sh.
# shellcheck shell=bash
source "$BD_SRCDIR/tests/lib.sh"

BDH_HELPER=$BD_BUILDDIR/helper/botdesk-helper
BDH_TEST=$BD_BUILDDIR/helper/botdesk-helper-test
BDH_CLIENT=$BD_BUILDDIR/tests/helper/bdh-client
BDH_STUB=$BD_BUILDDIR/tests/helper/bdh-stub-pm

# What the helper may give the package manager, and nothing else (the test build adds one).
BDH_ENV=(
    "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
    "HOME=/root"
    "LC_ALL=C.UTF-8"
    "DEBIAN_FRONTEND=noninteractive"
    "DEBCONF_NONINTERACTIVE_SEEN=true"
    "APT_LISTCHANGES_FRONTEND=none"
)
# The install bounding set: chown dac_override fowner fsetid kill setgid setuid setpcap
# net_bind_service sys_chroot mknod audit_write setfcap.
BDH_CAPBND=00000000a80405fb

# bdh_on_exit CMD: runs CMD (a string for eval) when the test exits, after those added before.
BDH_EXIT_CMDS=()
bdh_on_exit() {
    BDH_EXIT_CMDS+=("$1")
    trap 'for _c in "${BDH_EXIT_CMDS[@]}"; do eval "$_c" || true; done' EXIT
}

bdh_need_root() {
    bd_is_root || bd_skip "needs root: the helper's privileged side only runs as root (CI runs as root)"
}

# bdh_need_users: the test users scripts/test creates, able to reach the build tree.
bdh_need_users() {
    local u
    for u in "$BD_USER_A" "$BD_USER_OUT"; do
        id -u "$u" >/dev/null 2>&1 || bd_skip "user $u is missing: run scripts/test (it creates the test users)"
    done
    getent group botdesk >/dev/null || bd_skip "group botdesk is missing: run scripts/test"
    setpriv --reuid="$BD_USER_A" --regid="$(id -g "$BD_USER_A")" --init-groups test -x "$BDH_CLIENT" ||
        bd_skip "the build tree is not reachable by $BD_USER_A (build in a world-readable place)"
}

# bdh_bare_host: the stand-in for a host where no syslog daemon listens (the audit tests): skips
# without mount namespaces; BDH_WORK is a scratch directory (removed at exit) holding varlog, the
# /var/log that bdh_in_bare_host gives its command.
bdh_bare_host() {
    unshare -m true 2>/dev/null || bd_skip "no mount namespaces here"
    BDH_WORK=$(mktemp -d)
    bdh_on_exit 'rm -rf "$BDH_WORK"'
    chmod 0755 "$BDH_WORK"
    mkdir -m 0755 "$BDH_WORK/varlog" "$BDH_WORK/dev" "$BDH_WORK/run"
}

# bdh_in_bare_host CMD...: CMD in a mount namespace whose /dev has no log socket and whose
# /var/log is $BDH_WORK/varlog, which outlives it; /run is a scratch tmpfs.
bdh_in_bare_host() {
    unshare -m --propagation private bash -c '
set -euo pipefail
work=$1
shift
mount -t tmpfs -o mode=0755 tmpfs "$work/dev"
: >"$work/dev/null"
mount --bind /dev/null "$work/dev/null"
mount --bind "$work/dev" /dev
mount --bind "$work/varlog" /var/log
mount -t tmpfs -o mode=0755 tmpfs "$work/run"
mount --bind "$work/run" /run
"$@"' bash "$BDH_WORK" "$@"
}

# bdh_stub_dir MODE: a scratch directory for one run of the test build; the stub reads its mode
# there and records every run in ran.
bdh_stub_dir() {
    local d
    d=$(mktemp -d "${TMPDIR:-/tmp}/bdh-stub.XXXXXX")
    echo "$1" >"$d/mode"
    echo "$d"
}

# bdh_setuid_copy NAME: the real helper made setuid root, group botdesk, mode 4750, in a
# root-owned directory of the build tree that the test users can reach but not write. Removed
# when the test exits: no setuid binary is left lying around. Call it outside $(...), so the
# removal is registered in the test's own shell; the path is in $BDH_SUID.
bdh_setuid_copy() {
    local dir=$BD_BUILDDIR/tests/helper/suid-$1
    rm -rf "$dir"
    bdh_on_exit "rm -rf '$dir'"
    install -d -m 0755 -o root -g root "$dir"
    install -m 4750 -o root -g botdesk "$BDH_HELPER" "$dir/botdesk-helper"
    BDH_SUID=$dir/botdesk-helper
}

# bdh_expect FILE TEXT...: every TEXT is a whole line of FILE.
bdh_expect() {
    local f=$1 t
    shift
    for t in "$@"; do
        grep -qxF -- "$t" "$f" || {
            echo "--- $f:" >&2
            cat "$f" >&2
            bd_fail "expected the line '$t'"
        }
    done
}

# bdh_expect_no FILE TEXT...: no line of FILE contains TEXT.
bdh_expect_no() {
    local f=$1 t
    shift
    for t in "$@"; do
        if grep -qF -- "$t" "$f"; then
            echo "--- $f:" >&2
            cat "$f" >&2
            bd_fail "did not expect '$t'"
        fi
    done
}

# bdh_nothing_ran DIR: the stub package manager never started.
bdh_nothing_ran() {
    [ ! -e "$1/ran" ] || bd_fail "the package manager ran: $(cat "$1/ran")"
}

# bdh_wait_parser HELPER_PID: waits (bounded) until the helper has forked its parser child and
# prints the child's pid. No event tells us when a process forks, so this polls, briefly.
bdh_wait_parser() {
    local pid=$1 deadline children
    deadline=$(($(date +%s) + 10))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        children=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null || true)
        if [ -n "$children" ]; then
            echo "${children%% *}"
            return 0
        fi
        sleep 0.02
    done
    bd_fail "the helper $pid forked no parser child within 10 s"
}
