#!/usr/bin/env bash
# The audit line reaches an admin where no syslog daemon listens (issue 8, item 8). In containers
# and minimal VMs there is no /dev/log, and the helper's line went nowhere. Now it is appended to
# a root-owned file, /var/log/botdesk-helper.log (0640), made O_APPEND|O_NOFOLLOW|O_CLOEXEC, and
# anything else found there (a symlink, a FIFO, a hard link, another owner, a file others may
# write) is refused, not written. Private mount namespaces stand in for such a host: /dev without
# a log socket, and a scratch /var/log. The test build writes to its test directory's
# helper.log; the real setuid helper, run by bdtest-a, to /var/log/botdesk-helper.log. A scratch
# /run/botdesk-helper gives this test a budget of its own: the suites before it spend bdtest-a's
# 30 audit lines a minute (issue 22.16), and a spent budget holds a line back until the next window.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
bdh_bare_host
work=$BDH_WORK
line='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z botdesk-helper\[[0-9]+\]: '

# The test build: a decide, an install and a refusal, each a line; the secret stays out.
stub=$work/stub
mkdir "$stub" "$stub/lists"
echo ok >"$stub/mode"
: >"$stub/lists/x_Packages"
client() {
    bdh_in_bare_host env SECRET_TOKEN=hunter2 BOTDESK_HELPER_TEST_DIR="$stub" "$BDH_CLIENT" "$@" "$BDH_TEST" >/dev/null
}
client --op decide
client --op install
client --raw 424452510100020068756e746572320a
log=$stub/helper.log
[ -f "$log" ] || bd_fail "no log file where /dev/log is missing: the line went nowhere"
cat "$log" >&2
[ "$(stat -c '%U:%G %a %F' "$log")" = "root:root 640 regular file" ] ||
    bd_fail "the log file is $(stat -c '%U:%G %a %F' "$log")"
[ "$(grep -c . "$log")" = 3 ] || bd_fail "expected three lines"
grep -Eqx "${line}uid=0 op=decide outcome=ok" "$log" || bd_fail "no decide line"
grep -Eqx "${line}uid=0 op=install outcome=ok" "$log" || bd_fail "no install line"
grep -Eqx "${line}uid=0 op=- outcome=bad-request" "$log" || bd_fail "no refusal line"
bdh_expect_no "$log" hunter2 SECRET

# Whatever else is at the path is neither followed nor written, and the helper still answers.
target=$work/target
: >"$target"
chmod 0640 "$target"
for planted in symlink fifo hardlink owner writable; do
    rm -f "$log"
    case $planted in
    symlink) ln -s "$target" "$log" ;;
    fifo) mkfifo -m 0640 "$log" ;;
    hardlink) ln "$target" "$log" ;;
    owner) install -m 0640 -o nobody /dev/null "$log" ;;
    writable) install -m 0666 /dev/null "$log" ;;
    esac
    out=$(bdh_in_bare_host env BOTDESK_HELPER_TEST_DIR="$stub" timeout 20 "$BDH_CLIENT" --op decide "$BDH_TEST")
    grep -qx "result: ok manager=apt detail=0" <<<"$out" || bd_fail "$planted: the helper did not answer: $out"
    [ ! -s "$target" ] || bd_fail "$planted: written through to $target"
    case $planted in
    symlink) [ -L "$log" ] ;;
    fifo) [ -p "$log" ] ;;
    *) [ ! -s "$log" ] ;;
    esac || bd_fail "$planted: the planted file was replaced or written"
done
rm -f "$log"

# An administrator's own log file (root's, group adm) is appended to, its group kept.
getent group adm >/dev/null && grp=adm || grp=root
install -m 0640 -g "$grp" /dev/null "$log"
echo "earlier line" >>"$log"
client --op decide
[ "$(sed -n 1p "$log")" = "earlier line" ] || bd_fail "the existing log was not appended to"
grep -Eqx "${line}uid=0 op=decide outcome=ok" <(sed -n 2p "$log") || bd_fail "no appended line"
[ "$(stat -c %G "$log")" = "$grp" ] || bd_fail "the administrator's group was changed"

# The real helper, setuid, run by a member of group botdesk: /var/log/botdesk-helper.log gets the
# member's uid, root's ownership (not the member's group: the member cannot read it), 0640.
bdh_need_users
bdh_setuid_copy audit-file
suid=$BDH_SUID
uid_a=$(id -u "$BD_USER_A")
bdh_in_bare_host setpriv --reuid="$BD_USER_A" --regid="$(id -g "$BD_USER_A")" --init-groups --reset-env \
    env -i PATH=/usr/bin:/bin "$BDH_CLIENT" "$suid" >"$work/out"
bdh_expect "$work/out" "result: ok manager=apt detail=0"
bdh_in_bare_host setpriv --reuid="$BD_USER_A" --regid="$(id -g "$BD_USER_A")" --init-groups --reset-env \
    env -i PATH=/usr/bin:/bin "$BDH_CLIENT" --raw 00 "$suid" >"$work/out"
bdh_expect "$work/out" "result: bad-request manager=none detail=0"
real=$work/varlog/botdesk-helper.log
[ -f "$real" ] || bd_fail "no /var/log/botdesk-helper.log where /dev/log is missing"
cat "$real" >&2
[ "$(stat -c '%U:%G %a' "$real")" = "root:root 640" ] || bd_fail "the log is $(stat -c '%U:%G %a' "$real")"
grep -Eqx "${line}uid=$uid_a op=decide outcome=ok" "$real" || bd_fail "no line for $BD_USER_A's decide"
grep -Eqx "${line}uid=$uid_a op=- outcome=bad-request" "$real" || bd_fail "no line for $BD_USER_A's refusal"
bd_as "$BD_USER_A" cat "$real" >/dev/null 2>&1 && bd_fail "$BD_USER_A can read the audit log"
echo "audit-file: without /dev/log the line goes to a root-owned file, and nothing planted there is written"
