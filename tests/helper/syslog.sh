#!/usr/bin/env bash
# The helper logs to authpriv the caller's uid, the operation and the outcome, and nothing else:
# not the environment (a token planted there), not the request's bytes. A private mount namespace
# puts a listening socket at /dev/log for the test build, so no syslog daemon is needed.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
unshare -m true 2>/dev/null || bd_skip "no mount namespaces here"

log=$(mktemp)
work=$(mktemp -d)
bdh_on_exit 'rm -rf "$log" "$work"'
mkdir "$work/stub"
echo ok >"$work/stub/mode"
mkdir "$work/stub/lists" && : >"$work/stub/lists/x_Packages"

unshare -m --propagation private bash -s "$work" "$log" <<'EOS'
set -euo pipefail
work=$1 log=$2
dev=$work/dev
mkdir "$dev"
mount -t tmpfs -o mode=0755 tmpfs "$dev"
: >"$dev/null"
mount --bind /dev/null "$dev/null"
# Three messages are expected; the listener stops after them, or after 20 s.
python3 - "$dev/log" "$log" 3 <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
open(sys.argv[2] + ".ready", "w").close()
with open(sys.argv[2], "w") as out:
    for _ in range(int(sys.argv[3])):
        try:
            out.write(s.recv(4096).decode("utf-8", "replace") + "\n")
        except socket.timeout:
            break
PY
listener=$!
for _ in $(seq 200); do [ -e "$log.ready" ] && break; sleep 0.05; done
rm -f "$log.ready"
mount --bind "$dev" /dev
export SECRET_TOKEN=hunter2-secret BOTDESK_HELPER_TEST_DIR=$work/stub
"$BD_BUILDDIR/tests/helper/bdh-client" --op decide "$BD_BUILDDIR/helper/botdesk-helper-test" >/dev/null
"$BD_BUILDDIR/tests/helper/bdh-client" --op install "$BD_BUILDDIR/helper/botdesk-helper-test" >/dev/null
"$BD_BUILDDIR/tests/helper/bdh-client" --raw 424452510100020068756e746572320a \
    "$BD_BUILDDIR/helper/botdesk-helper-test" >/dev/null
wait "$listener"
EOS

cat "$log" >&2
[ "$(grep -c . "$log")" = 3 ] || bd_fail "expected three log messages"
# <85>: facility authpriv (10), severity notice (5).
grep -Eq '^<85>.* botdesk-helper\[[0-9]+\]: uid=0 op=decide outcome=ok$' "$log" || bd_fail "no decide record"
grep -Eq '^<85>.* botdesk-helper\[[0-9]+\]: uid=0 op=install outcome=ok$' "$log" || bd_fail "no install record"
grep -Eq '^<85>.* botdesk-helper\[[0-9]+\]: uid=0 op=- outcome=bad-request$' "$log" || bd_fail "no refusal record"
bdh_expect_no "$log" hunter2 SECRET
# Syslog took the lines: the fallback file (audit-file.sh) stays unwritten.
[ ! -e "$work/stub/helper.log" ] || bd_fail "the fallback log was written although syslog listened"
echo "syslog: uid, operation and outcome only"
