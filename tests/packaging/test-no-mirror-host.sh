#!/usr/bin/env bash
# No package mirror is named in the project (issue 23.4): scripts/check-mirrors passes on the
# tree, and it bites (a file naming a mirror fails it, and is named); the neutral fixture name
# passes. scripts/host-apt-sources, where the image steps take the archive from instead, reads
# a host's one-line and deb822 sources.
source "$BD_SRCDIR/tests/lib.sh"
check=$BD_SRCDIR/scripts/check-mirrors
"$check" "$BD_SRCDIR" >/dev/null || bd_fail "the tree names a package mirror host (above)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built from pieces, so this file names no host either.
dd=debian.org
com=com net=net
for host in "deb.$dd" "ftp.de.$dd" "security.$dd" "archive.ubuntu.$com" "mirrors.example.$net"; do
    rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/sub"
    printf 'ok line\nURIs: http://%s/debian\n' "$host" >"$tmp/tree/sub/f.sources"
    if "$check" "$tmp/tree" 2>"$tmp/err" >/dev/null; then
        bd_fail "check-mirrors let $host through"
    fi
    grep -q 'sub/f.sources:2:' "$tmp/err" || bd_fail "check-mirrors did not name the file and line for $host: $(cat "$tmp/err")"
done
rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
printf 'http://archive.invalid/debian\nthe mirror of a gradient\nwww.%s/doc\n' "$dd" >"$tmp/tree/f"
"$check" "$tmp/tree" >/dev/null 2>"$tmp/err" || bd_fail "check-mirrors refused a neutral name: $(cat "$tmp/err")"

# The host's sources, one-line and deb822 (disabled entries, deb-src and comments left out).
apt=$tmp/root/etc/apt
mkdir -p "$apt/sources.list.d"
printf 'VERSION_CODENAME=bookworm\n' >"$tmp/root/etc/os-release"
printf '# a comment\ndeb-src http://archive.invalid/debian bookworm main\n' >"$apt/sources.list"
cat >"$apt/sources.list.d/debian.sources" <<'EOS'
Types: deb
# a comment inside
URIs: http://archive.invalid/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://archive.invalid/off
Suites: bookworm
Components: main
Enabled: no
EOS
printf 'deb [arch=amd64] http://archive.invalid/security bookworm-security main\n' >"$apt/sources.list.d/sec.list"
printf 'deb http://archive.invalid/disabled bookworm main\n' >"$apt/sources.list.d/x.list.disabled"
got=$(BD_APT_ROOT=$tmp/root "$BD_SRCDIR/scripts/host-apt-sources")
want="deb [arch=amd64] http://archive.invalid/security bookworm-security main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://archive.invalid/debian bookworm main contrib
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://archive.invalid/debian bookworm-updates main contrib"
[ "$got" = "$want" ] || bd_fail "host-apt-sources printed:
$got
expected:
$want"
mirror=$(BD_APT_ROOT=$tmp/root "$BD_SRCDIR/scripts/host-apt-sources" --mirror)
[ "$mirror" = http://archive.invalid/debian ] || bd_fail "host-apt-sources --mirror printed '$mirror'"
rm "$apt/sources.list.d/debian.sources"
! BD_APT_ROOT=$tmp/root "$BD_SRCDIR/scripts/host-apt-sources" --mirror >/dev/null ||
    bd_fail "host-apt-sources --mirror found a mirror for bookworm where only bookworm-security is"
echo "no-mirror-host: ok (no mirror host in the tree; the check bites; host-apt-sources reads both formats)"
