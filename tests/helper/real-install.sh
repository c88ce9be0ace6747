#!/usr/bin/env bash
# The real thing: a package of the desktop is removed, then installed again by `botdesk install`
# run by a non-root member of group botdesk, through the helper made setuid root, with the real
# apt-get. A DPkg::Pre-Invoke hook (root's own apt configuration, written here, not something the
# helper passes) records the capability sets of a process apt starts: the install works with the
# cut bounding set, and a capability outside it (CAP_SYS_MODULE) is absent. Then the package is
# removed again and the same member asks at once: refused until a minute after the first install
# (the helper's pace per uid), and nothing runs.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
bdh_need_users
[ -x /usr/bin/apt-get ] && command -v dpkg-query >/dev/null || bd_skip "not an apt system"

pkg=xfce4-terminal
bdh_setuid_copy real-install
suid=$BDH_SUID
out=$(mktemp)
state=$(bd_scratch "$BD_USER_A")
caps=$(mktemp -p /run botdesk-test-caps.XXXXXX)
hook=/etc/apt/apt.conf.d/99botdesk-test-caps
# The member's pace starts afresh (CI's own install through the helper may be a moment ago), and
# ends so: what this test leaves holds up nobody.
stamp=/run/botdesk-helper/$(id -u "$BD_USER_A")
rm -f "$stamp"
cleanup() {
    rm -f "$hook" "$caps" "$out" "$stamp"
    rm -rf "$state"
    # Whatever happened, leave the package installed as it was.
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg" >/dev/null 2>&1 || true
}
bdh_on_exit cleanup
printf 'DPkg::Pre-Invoke { "grep -E ^Cap /proc/self/status > %s"; };\n' "$caps" >"$hook"

if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    dpkg -r "$pkg" >/dev/null
fi
dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' && bd_fail "$pkg is still installed"

set +e
BOTDESK_HELPER=$suid BOTDESK_STATE_DIR=$state bd_as "$BD_USER_A" timeout 900 "$BOTDESK_BIN" install >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "botdesk install through the setuid helper exited $rc"; }
grep -qx "The desktop's packages are installed." "$out" || { cat "$out" >&2; bd_fail "no success line"; }
dpkg-query -W -f='${Status}' "$pkg" | grep -q 'install ok installed' || bd_fail "$pkg was not installed"

# What apt's own child held: exactly the install bounding set; no module loading.
[ -s "$caps" ] || bd_fail "the Pre-Invoke hook did not run"
grep -qx $'CapBnd:\t'"$BDH_CAPBND" "$caps" || { cat "$caps" >&2; bd_fail "unexpected bounding set"; }
eff=$(sed -n 's/^CapEff:\t//p' "$caps")
[ $(((16#$eff >> 16) & 1)) = 0 ] || bd_fail "CAP_SYS_MODULE is in the package manager's effective set"
[ $(((16#$eff >> 0) & 1)) = 1 ] || bd_fail "CAP_CHOWN is missing: the install set was cut too far"

# Again at once: too soon. The user is told when to retry; nothing runs (the package stays out).
rm -f "$hook"
dpkg -r "$pkg" >/dev/null
set +e
BOTDESK_HELPER=$suid BOTDESK_STATE_DIR=$state bd_as "$BD_USER_A" timeout 900 "$BOTDESK_BIN" install >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$out" >&2; bd_fail "a second install at once exited $rc"; }
grep -Eq "again in [0-9]+ seconds" "$out" || { cat "$out" >&2; bd_fail "the refusal names no time to retry"; }
! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
    bd_fail "the second install ran"
# The web viewer's set through the same helper: with novnc installed at its candidate (CI installs
# it), the real dpkg-query and apt-cache answer "nothing to do" before any lock or pace, so it
# succeeds right after the refusal above and names the web set.
novnc_state=$(apt-cache policy novnc 2>/dev/null | awk '/Installed:/ {i=$2} /Candidate:/ {c=$2} END {print (i != "" && i != "(none)" && i == c) ? "current" : "other"}')
if [ "$novnc_state" = current ]; then
    set +e
    BOTDESK_HELPER=$suid BOTDESK_STATE_DIR=$state bd_as "$BD_USER_A" timeout 900 "$BOTDESK_BIN" install --web >"$out" 2>&1
    rc=$?
    set -e
    [ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "botdesk install --web with novnc installed exited $rc"; }
    grep -qx "The web viewer's package (noVNC) is already installed; nothing to do." "$out" ||
        { cat "$out" >&2; bd_fail "install --web did not say noVNC is there"; }
else
    echo "real-install: novnc is not installed at its candidate version here; the install --web row is protocol.sh's (stub)" >&2
fi
echo "real-install: $pkg installed through the setuid helper by $BD_USER_A, without CAP_SYS_MODULE; a second install at once refused"
