#!/usr/bin/env bash
# An install with nothing to do takes no lock, and one uid cannot start installs back to back
# (issue 8, item 5). A member looping `botdesk install` kept /var/lib/dpkg/lock-frontend busy,
# and the administrator's own apt-get failed 7 tries of 8. Now, when every package is installed
# at its candidate version (dpkg-query and apt-cache policy, which take no lock), the answer is
# already-installed without the host lock, dpkg's lock or the package manager; and a uid's next
# install may start only PROTO_INSTALL_INTERVAL_S (60 s) after its last one started or ended.
# The test build answers from a stub; the real setuid helper, run by bdtest-a while this test
# holds the host lock and dpkg's locks, must answer every one of a loop of installs at once.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

out=$(mktemp)
bdh_on_exit 'rm -f "$out"'

# run_install INSTALLED [ENV...]: one install through the test build; the stub's packages are
# INSTALLED (all, upgradable, half, missing, none); its directory is in $d, lists present.
new_dir() {
    d=$(bdh_stub_dir ok)
    mkdir "$d/lists" && : >"$d/lists/x_Packages"
    [ "$1" = none ] || echo "$1" >"$d/installed"
}
run_install() {
    local installed=$1
    shift
    new_dir "$installed"
    env BOTDESK_HELPER_TEST_DIR="$d" "$@" timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
}

# Nothing to do: answered while the host lock is held by somebody else (the old helper took it,
# and said busy), with no run of the package manager and no stamp.
new_dir all
exec {lock}>"$d/helper.lock"
flock -n "$lock" || bd_fail "cannot take the test lock"
BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
exec {lock}>&-
bdh_expect "$out" "result: already-installed manager=apt detail=0" "exit: 14"
bdh_expect_no "$out" "line:"
bdh_nothing_ran "$d"
[ "$(cat "$d/queried")" = $'-W\npolicy' ] || bd_fail "expected the two queries: $(cat "$d/queried")"
[ ! -e "$d/pace/0" ] || bd_fail "nothing to do, yet a stamp was taken"
rm -rf "$d"

# Anything to do (a newer candidate, a package unpacked but not configured, one missing, none
# installed): the install runs, once.
for installed in upgradable half missing none; do
    run_install "$installed"
    bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
    [ "$(grep -c ' install ' "$d/ran")" = 1 ] || bd_fail "$installed: the install did not run once"
    rm -rf "$d"
done

# dnf: no such query (its metadata refresh takes dnf's own lock anyway); the install runs.
run_install all BOTDESK_HELPER_TEST_MANAGER=dnf
bdh_expect "$out" "result: ok manager=dnf detail=0"
[ ! -e "$d/queried" ] || bd_fail "dnf: queried $(cat "$d/queried")"
rm -rf "$d"

# Through `botdesk install`: nothing to do is success, and says so.
new_dir all
BOTDESK_HELPER=$BDH_TEST BOTDESK_HELPER_TEST_DIR=$d BOTDESK_STATE_DIR=$d/state \
    timeout 60 "$BOTDESK_BIN" install >"$out" 2>&1 || { cat "$out" >&2; bd_fail "botdesk install failed"; }
bdh_expect "$out" "The desktop's packages are already installed; nothing to do."
rm -rf "$d"

# The pace: a second install right after the first is refused with the seconds to wait, and
# nothing runs; through `botdesk install` the user is told when to retry.
run_install none
bdh_expect "$out" "result: ok manager=apt detail=0"
[ "$(stat -c '%U %a %F' "$d/pace")" = "root 700 directory" ] || bd_fail "the stamp directory is $(stat -c '%U %a %F' "$d/pace")"
[ "$(stat -c '%U %a %F' "$d/pace/0")" = "root 600 regular empty file" ] || bd_fail "the stamp is $(stat -c '%U %a %F' "$d/pace/0")"
BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
grep -Eqx 'result: too-soon manager=apt detail=(60|[1-5][0-9]|[1-9])' "$out" || { cat "$out" >&2; bd_fail "the second install was not refused"; }
bdh_expect "$out" "exit: 15"
[ "$(wc -l <"$d/ran")" = 1 ] || bd_fail "the package manager ran again"
set +e
BOTDESK_HELPER=$BDH_TEST BOTDESK_HELPER_TEST_DIR=$d BOTDESK_STATE_DIR=$d/state \
    timeout 60 "$BOTDESK_BIN" install >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$out" >&2; bd_fail "botdesk install exited $rc when too soon"; }
grep -Eq "started an install less than 60 seconds ago.*again in [0-9]+ seconds" "$out" || { cat "$out" >&2; bd_fail "no retry time"; }
# A minute later (the stamp moved back, rather than a wait), the next install runs.
touch -d '-61 seconds' "$d/pace/0"
BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: ok manager=apt detail=0"
[ "$(wc -l <"$d/ran")" = 2 ] || bd_fail "the install after the pause did not run"
# A stamp from the future (the clock was set back) holds nobody up.
touch -d '+1 hour' "$d/pace/0"
BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: ok manager=apt detail=0"
rm -rf "$d"

# A stamp directory or stamp somebody else made is not trusted: refused, nothing runs.
for planted in "mode 0755" "owner" "symlinked directory" "symlinked stamp"; do
    new_dir none
    other=$(mktemp -d)
    case $planted in
    "mode 0755") install -d -m 0755 "$d/pace" ;;
    owner) install -d -m 0700 -o nobody "$d/pace" ;;
    "symlinked directory") ln -s "$other" "$d/pace" ;;
    "symlinked stamp") install -d -m 0700 "$d/pace" && ln -s "$other/x" "$d/pace/0" ;;
    esac
    BOTDESK_HELPER_TEST_DIR=$d timeout 60 "$BDH_CLIENT" --op install "$BDH_TEST" >"$out" 2>&1
    bdh_expect "$out" "exit: 12"
    grep -q '^result: internal ' "$out" || { cat "$out" >&2; bd_fail "$planted: not refused"; }
    bdh_nothing_ran "$d"
    [ -z "$(ls -A "$other")" ] || bd_fail "$planted: something was written through the link"
    rm -rf "$d" "$other"
done

# The real setuid helper, run by a member of group botdesk, on this host: when every package of
# the policy is installed at its candidate version, a loop of installs is answered at once while
# the host lock and dpkg's locks are held (the old helper said busy every time, having tried).
bdh_need_users
[ -x /usr/bin/apt-get ] && [ -x /usr/bin/dpkg-query ] && [ -x /usr/bin/apt-cache ] || bd_skip "not an apt system"
mapfile -t pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt)
for p in "${pkgs[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] ||
        bd_skip "$p is not installed here (CI installs the desktop first: tests/helper/ci-setup.sh)"
    pol=$(apt-cache policy "$p")
    inst=$(sed -n 's/^  Installed: //p' <<<"$pol")
    [ "$inst" = "$(sed -n 's/^  Candidate: //p' <<<"$pol")" ] || bd_skip "$p has a newer candidate here"
done
bdh_setuid_copy pacing
suid=$BDH_SUID
uid_a=$(id -u "$BD_USER_A")
stamp_before=$(stat -c %Y "/run/botdesk-helper/$uid_a" 2>/dev/null || echo none)
[ -e /run/botdesk-helper.lock ] || install -m 0600 /dev/null /run/botdesk-helper.lock
coproc LOCKS {
    exec python3 -c '
import fcntl, sys
held = [open("/run/botdesk-helper.lock", "a")]
fcntl.flock(held[0], fcntl.LOCK_EX | fcntl.LOCK_NB)
for path in ("/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock"):
    f = open(path, "a")
    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    held.append(f)
print("held", flush=True)
sys.stdin.readline()
'
}
locks=$LOCKS_PID
bdh_on_exit "kill $locks 2>/dev/null"
read -r -t 10 held <&"${LOCKS[0]}" && [ "$held" = held ] ||
    bd_skip "the host lock or dpkg's locks are busy (another install runs)"
state=$(bd_scratch "$BD_USER_A")
bdh_on_exit "rm -rf '$state'"
for i in 1 2 3; do
    set +e
    BOTDESK_HELPER=$suid BOTDESK_STATE_DIR=$state bd_as "$BD_USER_A" timeout 60 "$BOTDESK_BIN" install >"$out" 2>&1
    rc=$?
    set -e
    [ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "install $i of $BD_USER_A, locks held: exit $rc"; }
    bdh_expect "$out" "The desktop's packages are already installed; nothing to do."
done
echo >&"${LOCKS[1]}"
wait "$locks" || true
[ "$(stat -c %Y "/run/botdesk-helper/$uid_a" 2>/dev/null || echo none)" = "$stamp_before" ] ||
    bd_fail "nothing to do, yet $BD_USER_A's stamp changed"
echo "pacing: nothing to do takes no lock; one install per uid a minute"
