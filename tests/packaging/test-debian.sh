#!/usr/bin/env bash
# debian/: every contact address has the form lintian accepts (bogus-mail-host: a host that is a
# real domain name, not localhost or a bare name), in the Maintainer field and in every changelog
# trailer. scripts/test-package runs lintian itself on the built package (--fail-on
# error,warning); this catches the address without building it.
source "$BD_SRCDIR/tests/lib.sh"

# check_address WHERE 'Name <user@host>'
check_address() {
    local where=$1 value=$2
    [[ $value =~ ^[^\<\>]+\ \<([^@\<\>[:space:]]+)@([^@\<\>[:space:]]+)\>$ ]] ||
        { echo "$where: '$value' is not 'Name <user@host>'"; return 1; }
    local host=${BASH_REMATCH[2]}
    case $host in
    localhost | localhost.* | *.localdomain | *.local) echo "$where: $host is not a routable host"; return 1 ;;
    esac
    [[ $host =~ ^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$ ]] ||
        { echo "$where: $host is not a domain name"; return 1; }
}

check_debian() {
    local dir=$1 rc=0 line
    check_address "debian/control Maintainer" "$(sed -n 's/^Maintainer: //p' "$dir/control")" || rc=1
    while IFS= read -r line; do
        check_address "debian/changelog" "$line" || rc=1
    done < <(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$dir/changelog")
    [ -n "$(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$dir/changelog")" ] || { echo "debian/changelog has no trailer"; rc=1; }
    return "$rc"
}
out=$(check_debian "$BD_SRCDIR/debian") || bd_fail "$out"

# The check bites on the address the package once had.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$BD_SRCDIR"/debian/{control,changelog} "$tmp/"
sed -i 's/^Maintainer: .*/Maintainer: botdesk developers <botdesk@localhost>/' "$tmp/control"
check_debian "$tmp" >/dev/null && bd_fail "the check lets botdesk@localhost through in Maintainer"
cp "$BD_SRCDIR"/debian/control "$tmp/"
sed -i 's/^ -- [^<]*<[^>]*>/ -- botdesk developers <botdesk@localhost>/' "$tmp/changelog"
check_debian "$tmp" >/dev/null && bd_fail "the check lets botdesk@localhost through in the changelog"
echo "debian: ok"
