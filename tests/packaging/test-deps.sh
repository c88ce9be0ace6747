#!/usr/bin/env bash
# One list of packages, by purpose (scripts/deps/): the Dockerfile, debian/control, scripts/setup
# and scripts/test follow it, every meson dependency() and every library the built programs link
# is in it (tests/packaging/check-deps.py). And the check bites: each way the lists and their
# readers once drifted apart, made again on a copy, is caught and named.
source "$BD_SRCDIR/tests/lib.sh"
command -v dpkg-query >/dev/null && command -v objdump >/dev/null ||
    bd_skip "needs dpkg-query and objdump (a Debian system with binutils)"
check=$BD_SRCDIR/tests/packaging/check-deps.py

python3 "$check" "$BD_SRCDIR" "$BD_BUILDDIR" || bd_fail "the package lists and their readers differ (above)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh() {
    rm -rf "$tmp/src"
    mkdir -p "$tmp/src/debian"
    cp -r "$BD_SRCDIR/scripts" "$BD_SRCDIR/policy" "$BD_SRCDIR/Dockerfile" "$BD_SRCDIR/meson.build" "$tmp/src/"
    cp "$BD_SRCDIR/debian/control" "$tmp/src/debian/"
}
# expect_breach WHAT PATTERN [BUILDDIR]: the mutant in $tmp/src fails the check, naming PATTERN.
expect_breach() {
    local what=$1 pattern=$2
    if python3 "$check" "$tmp/src" ${3:+"$3"} 2>"$tmp/err"; then
        bd_fail "$what went unnoticed"
    fi
    grep -q -- "$pattern" "$tmp/err" || bd_fail "$what: the breach does not name '$pattern': $(cat "$tmp/err")"
}

# A copy as it is passes: the mutants below fail for their mutation alone.
fresh
python3 "$check" "$tmp/src" || bd_fail "an unchanged copy does not pass"

# scripts/setup with a list of its own, as it had (it lacked libjpeg, xtst, ...).
fresh
sed -i 's|\$(scripts/deps/list build)|build-essential meson ninja-build pkg-config python3 libx11-dev|' "$tmp/src/scripts/setup"
expect_breach "scripts/setup installing its own list" "scripts/setup does not install .*libjpeg62-turbo-dev"

# A script installing a package by name that no list holds.
fresh
sed -i 's|\$(scripts/deps/list build)|$(scripts/deps/list build) vim|' "$tmp/src/scripts/setup"
expect_breach "a package installed outside the lists" "scripts/setup installs vim"

# A new build dependency in meson.build without its package.
fresh
printf "dep_foo = dependency('libfoo-1.0')\n" >>"$tmp/src/meson.build"
expect_breach "a dependency() no list satisfies" "dependency('libfoo-1.0')"

# A package said to satisfy a dependency() it does not (libpng-dev ships no x11.pc).
fresh
sed -i 's/^libx11-dev x11$/libx11-dev/; s/^libpng-dev libpng$/libpng-dev libpng x11/' "$tmp/src/scripts/deps/build.txt"
expect_breach "a wrong dependency() mapping" "libpng-dev is said to satisfy dependency('x11')"

# The Dockerfile's build stage or debian/control's Build-Depends edited by hand.
fresh
sed -i '/^       libjpeg62-turbo-dev \\$/d' "$tmp/src/Dockerfile"
expect_breach "a package dropped from the Dockerfile's build stage" "Dockerfile"
fresh
sed -i '/^ *libxtst-dev,$/d' "$tmp/src/debian/control"
expect_breach "a package dropped from debian/control" "debian/control"
# A package added to the build list reaches both (scripts/sync-deps writes them).
fresh
echo "libxinerama-dev" >>"$tmp/src/scripts/deps/build.txt"
expect_breach "a build package the Dockerfile and debian/control lack" "Dockerfile debian/control"
python3 "$tmp/src/scripts/sync-deps" --root "$tmp/src" || bd_fail "scripts/sync-deps failed on the copy"
grep -q '^               libxinerama-dev$' "$tmp/src/debian/control" || bd_fail "sync-deps did not add it to Build-Depends"
grep -q '^       libxinerama-dev \\$' "$tmp/src/Dockerfile" || bd_fail "sync-deps did not add it to the build stage"
grep -q '^               meson (>= 1.0),$' "$tmp/src/debian/control" || bd_fail "sync-deps lost meson's version constraint"

# A library the programs link, missing from the image's runtime stage.
fresh
sed -i '/^libpng16-16 image$/d' "$tmp/src/scripts/deps/run.txt"
python3 "$tmp/src/scripts/sync-deps" --root "$tmp/src"
expect_breach "a linked library missing from the runtime list" "links libpng16.so.16 from libpng16-16" "$BD_BUILDDIR"
echo "deps: ok"
