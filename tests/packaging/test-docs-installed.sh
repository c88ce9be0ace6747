#!/usr/bin/env bash
# The documentation a user is pointed to exists where they are pointed: every command and option
# `botdesk --help` lists is in botdesk(1) and docs/CLI.md; the document --help names is installed
# at that path, and so are the man pages; scripts/setup installs scdoc, so a host it sets up gets
# them. (run and doctor were missing from both, --help pointed at an uninstalled docs/CLI.md, and
# setup built no man pages.)
source "$BD_SRCDIR/tests/lib.sh"
man1=$BD_SRCDIR/docs/botdesk.1.scd
cli=$BD_SRCDIR/docs/CLI.md
help=$("$BOTDESK_BIN" --help)

n=0
while read -r cmd rest; do
    n=$((n + 1))
    grep -q "^\*$cmd\*" "$man1" || bd_fail "botdesk(1) does not describe '$cmd' (botdesk --help lists it)"
    grep -q "^| \`$cmd[ \`]" "$cli" || bd_fail "docs/CLI.md's table does not describe '$cmd' (botdesk --help lists it)"
    for opt in $(grep -oE -- '--[a-z-]+' <<<"$rest" || true); do
        grep -q -- "^\*$cmd\*.*\*$opt\*" "$man1" || bd_fail "botdesk(1) does not give '$cmd $opt'"
        grep -q -- "^| \`$cmd[^|]*$opt" "$cli" || bd_fail "docs/CLI.md does not give '$cmd $opt'"
    done
done < <(sed -n '/^Commands:/,/^$/p' <<<"$help" | grep -E '^  [a-z]+( |$)')
[ "$n" -ge 9 ] || bd_fail "botdesk --help lists only $n commands: $help"

# The document --help points to is one that is installed there.
doc=$(grep -oE '[^ ]+\.md' <<<"$help" | head -1)
[ -n "$doc" ] || bd_fail "botdesk --help names no document: $help"
[[ $doc != *docs/* ]] || bd_fail "botdesk --help points into the source tree: $doc"
# scripts/setup installs scripts/deps/build.txt (the deps test checks that it installs all of it).
sed -n '/apt-get install/,/[^\\]$/p' "$BD_SRCDIR/scripts/setup" | grep -q 'scripts/deps/list build' &&
    sh "$BD_SRCDIR/scripts/deps/list" build | grep -qx scdoc ||
    bd_fail "scripts/setup does not install scdoc (scripts/deps/build.txt): a host it sets up has no man pages"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$BD_BUILDDIR" --no-rebuild --destdir "$tmp" >"$tmp.log" 2>&1 ||
    bd_fail "meson install: $(cat "$tmp.log")"
rm -f "$tmp.log"
[ -f "$tmp$doc" ] || bd_fail "botdesk --help points to $doc, which is not installed"
[ -f "$(dirname "$tmp$doc")/README.md" ] || bd_fail "README.md is not installed beside $doc"
command -v scdoc >/dev/null || bd_skip "no scdoc here: the man pages are not built (scripts/setup and scripts/test install it)"
for page in man1/botdesk.1 man5/botdesk.conf.5 man8/botdesk-helper.8; do
    found=$(find "$tmp" -path "*/man/$page" | head -1)
    [ -n "$found" ] || bd_fail "the man page $page is not installed"
done
echo "docs installed: $n commands, $doc, man pages"
