#!/usr/bin/env bash
# The systemd user unit parses (systemd-analyze verify), runs `botdesk --profile %i run`, keeps
# its sandboxing, and has none of the options docs/systemd.md lists as never allowed: those that
# take the network from the desktop's programs (the dock's terminal and browser could not resolve
# a name) and PrivateTmp (X claims numbers in the shared /tmp). The check is proven to bite: each
# forbidden option, added to a copy of the unit, must be caught. tests/e2e/systemd-unit.sh runs
# the unit under a real user manager.
source "$BD_SRCDIR/tests/lib.sh"
unit=$BD_BUILDDIR/data/botdesk@.service
doc=$BD_SRCDIR/docs/systemd.md
[ -f "$unit" ] || bd_fail "the unit was not generated"
grep -qE '^ExecStart=/.+/botdesk --profile %i run$' "$unit" || bd_fail "ExecStart does not run 'botdesk --profile %i run'"
grep -q '^KillMode=mixed' "$unit" || bd_fail "KillMode is not mixed (botdesk run stops the desktop on TERM)"
grep -q '^NoNewPrivileges=yes' "$unit" || bd_fail "NoNewPrivileges is missing"
grep -q '^RestrictSUIDSGID=yes' "$unit" || bd_fail "RestrictSUIDSGID is missing"

# The forbidden options, from the documented table (the first column's `Name=` words).
mapfile -t forbidden < <(sed -n '/<!-- forbidden-options/,/<!-- end forbidden-options/p' "$doc" |
    grep '^| `' | cut -d'|' -f2 | grep -oE '`[A-Za-z]+=' | tr -d '`=' | sort -u)
[ "${#forbidden[@]}" -ge 8 ] || bd_fail "docs/systemd.md lists too few forbidden options: ${forbidden[*]}"
for must in PrivateNetwork IPAddressDeny RestrictAddressFamilies PrivateTmp; do
    printf '%s\n' "${forbidden[@]}" | grep -qx "$must" || bd_fail "docs/systemd.md does not list $must"
done

# breaches UNIT: prints every rule UNIT breaks; exits 1 when it breaks one.
breaches() {
    local f=$1 opt line rc=0
    for opt in "${forbidden[@]}"; do
        [ "$opt" != RestrictAddressFamilies ] || continue
        if line=$(grep -E "^[[:space:]]*$opt=" "$f"); then
            echo "forbidden: $line"
            rc=1
        fi
    done
    # Address families may be restricted, as long as IP stays.
    while read -r line; do
        local v=${line#*=}
        if [[ $v == "~"* || " $v " != *" AF_INET "* || " $v " != *" AF_INET6 "* ]]; then
            echo "forbidden: $line (the desktop's programs need AF_INET and AF_INET6)"
            rc=1
        fi
    done < <(grep -E '^[[:space:]]*RestrictAddressFamilies=' "$f")
    return "$rc"
}
out=$(breaches "$unit") || bd_fail "the unit takes the network from the desktop (see docs/systemd.md): $out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The check bites: each forbidden option in a copy of the unit is caught.
mutant() {
    sed "/^\[Service\]/a $1" "$unit" >"$tmp/mutant.service"
    breaches "$tmp/mutant.service" >/dev/null && bd_fail "the check misses '$1'"
    return 0
}
for opt in "${forbidden[@]}"; do
    case $opt in
    RestrictAddressFamilies)
        mutant "RestrictAddressFamilies=AF_UNIX AF_NETLINK"
        mutant "RestrictAddressFamilies=AF_UNIX AF_INET"
        mutant "RestrictAddressFamilies=~AF_INET AF_INET6"
        ;;
    *) mutant "$opt=yes" ;;
    esac
done
sed "s/^RestrictAddressFamilies=.*/RestrictAddressFamilies=AF_UNIX AF_NETLINK/" "$unit" >"$tmp/mutant.service"
breaches "$tmp/mutant.service" >/dev/null && bd_fail "the check misses the old AF_UNIX AF_NETLINK restriction"

command -v systemd-analyze >/dev/null || bd_skip "no systemd-analyze to verify the unit with"
# Verified against the build's binary: the installed path need not exist on this machine.
sed "s|^ExecStart=[^ ]*|ExecStart=$BOTDESK_BIN|" "$unit" >"$tmp/botdesk@.service"
out=$(cd "$tmp" && systemd-analyze verify --man=no "$tmp/botdesk@.service" 2>&1) ||
    bd_fail "systemd-analyze verify: $out"
[ -z "$out" ] || bd_fail "systemd-analyze verify complains: $out"
echo "unit: ok"
