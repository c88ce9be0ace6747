#!/usr/bin/env bash
# Issue 22.16: a member of group botdesk grew the helper's audit log without bound (628 lines a
# second, looping the helper). Now each uid may add AUDIT_BURST (30) lines per window (60 s);
# the rest of a burst is counted and its last line kept in root's pace directory, and both are
# written when the next window opens: the first and the last lines of a burst reach the log. As
# in audit-file.sh, private mount namespaces stand in for a host without a syslog daemon, and a
# scratch /run/botdesk-helper keeps this test's budgets away from the host's.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
bdh_bare_host
work=$BDH_WORK
line='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z botdesk-helper\[[0-9]+\]: '

# The real helper, setuid, looped by a member of group botdesk: 200 refusals in one window.
bdh_need_users
bdh_setuid_copy audit-flood
uid_b=$(id -u "$BD_USER_B")
bdh_in_bare_host setpriv --reuid="$BD_USER_B" --regid="$(id -g "$BD_USER_B")" --init-groups --reset-env \
    env -i PATH=/usr/bin:/bin bash -c 'for i in $(seq 200); do "$1" --raw 00 "$2" || exit 1; done' \
    bash "$BDH_CLIENT" "$BDH_SUID" >"$work/out" || bd_fail "the member's loop failed: $(tail -n 3 "$work/out")"
[ "$(grep -c "result: bad-request" "$work/out")" = 200 ] || bd_fail "the helper did not answer each refusal"
real=$work/varlog/botdesk-helper.log
[ -f "$real" ] || bd_fail "no /var/log/botdesk-helper.log"
n=$(grep -c "uid=$uid_b " "$real")
[ "$n" = 31 ] || bd_fail "200 refusals of uid $uid_b left $n lines in the log, expected 30 and the note that the rest are counted"
[ "$(grep -Ec "^${line}uid=$uid_b op=- outcome=bad-request\$" "$real")" = 30 ] || bd_fail "not the burst's first 30 lines"
grep -Eq "^${line}uid=$uid_b wrote 30 lines in this window: the next are counted, not written" "$real" ||
    bd_fail "no note that the rest are counted"

# The test build (the same audit.c), its window ended by moving its start back: the next line
# brings the held-back count and the burst's last line with it.
stub=$work/stub
mkdir "$stub" "$stub/lists"
echo ok >"$stub/mode"
: >"$stub/lists/x_Packages"
for i in $(seq 50); do
    bdh_in_bare_host env BOTDESK_HELPER_TEST_DIR="$stub" "$BDH_CLIENT" --raw 00 "$BDH_TEST" >/dev/null
done
bdh_in_bare_host env BOTDESK_HELPER_TEST_DIR="$stub" "$BDH_CLIENT" --op decide "$BDH_TEST" >/dev/null
log=$stub/helper.log
[ "$(grep -c . "$log")" = 31 ] || bd_fail "51 lines of uid 0 left $(grep -c . "$log") in the log, expected 31"
budget=$stub/pace/audit-0
[ "$(stat -c '%U %a' "$budget")" = "root 600" ] || bd_fail "the budget file is $(stat -c '%U %a' "$budget")"
grep -q "op=decide outcome=ok" "$budget" || bd_fail "the burst's last line is not kept in $budget"
python3 - "$budget" <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(8)
    f.write(struct.pack("<Q", 1))
PY
bdh_in_bare_host env BOTDESK_HELPER_TEST_DIR="$stub" "$BDH_CLIENT" --op decide "$BDH_TEST" >/dev/null
grep -Eq "^${line}uid=0 held back 21 lines; the last: [0-9T:Z-]+ uid=0 op=decide outcome=ok\$" "$log" ||
    bd_fail "the next window's first line does not bring the held-back count and the last line: $(tail -n 3 "$log")"
[ "$(tail -n 1 "$log" | grep -Ec "${line}uid=0 op=decide outcome=ok\$")" = 1 ] || bd_fail "the new window's line was not written"
echo "audit-flood: 30 lines per uid per window; the rest counted, their last line kept and written next"
