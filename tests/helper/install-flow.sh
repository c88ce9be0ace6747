#!/usr/bin/env bash
# The install, end to end against the test build's stub package manager: output relayed line by
# line (also through `botdesk install`, plain and on a terminal), empty package lists refreshed
# first, every exit mapped to its outcome, one install at a time, the overall timeout with TERM
# then KILL to the whole group, and a straggler that outlives the leader stopped too.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

out=$(mktemp)
bdh_on_exit 'rm -f "$out"'

# install MODE [ENV...]: one install through the test build, with a stub dir in $d.
install() {
    local mode=$1
    shift
    d=$(bdh_stub_dir "$mode")
    env BOTDESK_HELPER_TEST_DIR="$d" "$@" timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
}
with_lists() {
    mkdir -p "$d/lists"
    : >"$d/lists/archive.invalid_debian_dists_bookworm_main_binary-amd64_Packages.lz4"
}

# Empty lists: refreshed first, then the install; the lines arrive in order.
install ok
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0" "line: stub: update done" "line: stub: install done"
[ "$(grep -c '^line: + ' "$out")" = 2 ] || bd_fail "expected two commands"
grep -n 'stub: update done\|stub: install done' "$out" | head -1 | grep -q update || bd_fail "install ran before update"
[ "$(sed -n 1p "$d/ran" | grep -c ' update$')" = 1 ] || bd_fail "the first run was not the update"
grep -q ' install ' <(sed -n 2p "$d/ran") || bd_fail "the second run was not the install"
rm -rf "$d"

# Lists present: no refresh.
d=$(bdh_stub_dir ok)
with_lists
BOTDESK_HELPER_TEST_DIR=$d "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: ok manager=apt detail=0"
[ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "lists present, yet more than the install ran"
rm -rf "$d"

# Exit statuses mapped to causes.
for row in "not-found not-in-repos 7 100" "locked locked 8 100" "download download-failed 9 100" \
    "fail failed 10 100" "update-fail download-failed 9 100"; do
    read -r mode outcome code detail <<<"$row"
    install "$mode"
    bdh_expect "$out" "result: $outcome manager=apt detail=$detail" "exit: $code"
    rm -rf "$d"
done
# A failed refresh stops before the install.
install update-fail
[ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "the install ran after a failed refresh"
rm -rf "$d"

# dnf: its own argv, no apt lists refresh; no manager at all: refused, nothing runs.
mapfile -t dnf_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" dnf)
install ok BOTDESK_HELPER_TEST_MANAGER=dnf
bdh_expect "$out" "result: ok manager=dnf detail=0" \
    "line: stub-argv: $BDH_STUB -y --setopt=install_weak_deps=False install ${dnf_pkgs[*]}"
[ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "dnf: more than the install ran"
rm -rf "$d"
install ok BOTDESK_HELPER_TEST_MANAGER=none
bdh_expect "$out" "result: no-manager manager=none detail=0" "exit: 1"
bdh_nothing_ran "$d"
rm -rf "$d"

# One install at a time on the host: with the lock held, the next is refused at once.
d=$(bdh_stub_dir ok)
exec {lock}>"$d/helper.lock"
flock -n "$lock" || bd_fail "cannot take the test lock"
BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: busy manager=apt detail=0" "exit: 6"
bdh_nothing_ran "$d"
exec {lock}>&-
rm -rf "$d"

# The overall timeout: a package manager that ignores TERM is killed, and the result says so.
install hang BOTDESK_HELPER_TEST_TIMEOUT=0.5 BOTDESK_HELPER_TEST_GRACE=0.3
bdh_expect "$out" "result: timeout manager=apt detail=0" "exit: 11" "line: stub: hanging"
pid=$(sed -n 's/^line: stub-session: pid=\([0-9]*\) .*/\1/p' "$out" | tail -1)
bd_wait_gone "$pid" 5 || bd_fail "the hung package manager $pid survived"
rm -rf "$d"

# The leader exits, a member of its group lingers (ignoring TERM, holding the pipe): it gets the
# grace, then TERM, then KILL, and the install still reports the leader's success.
install straggler BOTDESK_HELPER_TEST_GRACE=0.3
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
pid=$(sed -n 's/^line: stub-straggler: \([0-9]*\)$/\1/p' "$out")
[ -n "$pid" ] || bd_fail "no straggler pid"
bd_wait_gone "$pid" 5 || bd_fail "the straggler $pid survived"
rm -rf "$d"

# Through `botdesk install`: plain lines when not on a terminal (status lines left out)...
# (Three installs in a row from one stub directory: no pause between them, see pacing.sh.)
export BOTDESK_HELPER_TEST_INTERVAL=0
d=$(bdh_stub_dir ok)
with_lists
BOTDESK_HELPER=$BDH_TEST BOTDESK_HELPER_TEST_DIR=$d BOTDESK_STATE_DIR=$d/state \
    timeout 60 "$BOTDESK_BIN" install >"$out" 2>&1 || { cat "$out" >&2; bd_fail "botdesk install failed"; }
bdh_expect "$out" "stub: install done" "The desktop's packages are installed."
bdh_expect_no "$out" "pmstatus:"
# ...a progress bar on a terminal.
if command -v script >/dev/null; then
    BOTDESK_HELPER=$BDH_TEST BOTDESK_HELPER_TEST_DIR=$d BOTDESK_STATE_DIR=$d/state \
        timeout 60 script -qec "$BOTDESK_BIN install" /dev/null >"$out" 2>&1 </dev/null ||
        { cat "$out" >&2; bd_fail "botdesk install on a terminal failed"; }
    grep -q '\[##########..........\]  50% installing' "$out" || { cat -v "$out" >&2; bd_fail "no progress bar"; }
fi
# ...and a failure explained, with the exit status of botdesk.
echo not-found >"$d/mode"
set +e
BOTDESK_HELPER=$BDH_TEST BOTDESK_HELPER_TEST_DIR=$d BOTDESK_STATE_DIR=$d/state \
    timeout 60 "$BOTDESK_BIN" install >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || bd_fail "botdesk install exited $rc on a missing package"
grep -q "^botdesk: a package is not in the configured repositories" "$out" || { cat "$out" >&2; bd_fail "no cause"; }
rm -rf "$d"
echo "install-flow: outcomes, relay, lock, timeout and stragglers"
