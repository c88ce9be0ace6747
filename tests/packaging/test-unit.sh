#!/usr/bin/env bash
# The systemd user unit parses (systemd-analyze verify), runs `botdesk --profile %i run`, and keeps
# the sandboxing that leaves Xvnc working: no PrivateTmp (X claims numbers in the shared /tmp),
# no network families but unix and netlink.
source "$BD_SRCDIR/tests/lib.sh"
unit=$BD_BUILDDIR/data/botdesk@.service
[ -f "$unit" ] || bd_fail "the unit was not generated"
grep -qE '^ExecStart=/.+/botdesk --profile %i run$' "$unit" || bd_fail "ExecStart does not run 'botdesk --profile %i run'"
grep -q '^KillMode=mixed' "$unit" || bd_fail "KillMode is not mixed (botdesk run stops the desktop on TERM)"
grep -q '^NoNewPrivileges=yes' "$unit" || bd_fail "NoNewPrivileges is missing"
grep -q '^RestrictAddressFamilies=AF_UNIX AF_NETLINK' "$unit" || bd_fail "the unit may open network sockets"
grep -q '^PrivateTmp=' "$unit" && bd_fail "PrivateTmp would hide the X locks and sockets of other users"
command -v systemd-analyze >/dev/null || bd_skip "no systemd-analyze to verify the unit with"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Verified against the build's binary: the installed path need not exist on this machine.
sed "s|^ExecStart=[^ ]*|ExecStart=$BOTDESK_BIN|" "$unit" >"$tmp/botdesk@.service"
out=$(cd "$tmp" && systemd-analyze verify --man=no "$tmp/botdesk@.service" 2>&1) ||
    bd_fail "systemd-analyze verify: $out"
[ -z "$out" ] || bd_fail "systemd-analyze verify complains: $out"
echo "unit: ok"
