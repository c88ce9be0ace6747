#!/usr/bin/env bash
# The docs' action table is the action table's (act/acttable.c): every row `actdoc md` prints
# stands in docs/CLI.md as it is, and CLI.md has no other action row; every synopsis line
# `actdoc scd` prints stands in botdesk(1). Fails with the difference, so a changed row goes into
# the docs by pasting what it printed.
set -euo pipefail
actdoc=${1:?usage: action-docs.sh ACTDOC SRCDIR}
src=${2:?usage: action-docs.sh ACTDOC SRCDIR}
cli=$src/docs/CLI.md
man=$src/docs/botdesk.1.scd
problems=0
md=$("$actdoc" md)
scd=$("$actdoc" scd)
names=$(sed -E 's/^\| `([a-z-]+).*/\1/' <<<"$md")
[ "$(wc -l <<<"$names")" -ge 10 ] || { echo "actdoc printed too few rows: $md" >&2; exit 1; }
while IFS= read -r row; do
    # The name, and a verb when rows share the name (`clipboard get`, `clipboard set`).
    name=$(sed -E 's/^\| `([a-z-]+).*/\1/' <<<"$row")
    if [ "$(grep -c "^| \`$name " <<<"$md")" -gt 1 ]; then
        name=$(sed -E 's/^\| `([a-z-]+ [a-z]+).*/\1/' <<<"$row")
    fi
    have=$(grep -E "^\| \`$name[ \`]" "$cli" || true)
    if [ "$have" != "$row" ]; then
        printf 'docs/CLI.md: the row of %s differs from the table.\n  docs:  %s\n  table: %s\n' \
            "$name" "${have:-(none)}" "$row" >&2
        problems=$((problems + 1))
    fi
done <<<"$md"
while IFS= read -r line; do
    if ! grep -qxF -- "$line" "$man"; then
        name=$(sed -E 's/^\*([a-z-]+)\*.*/\1/' <<<"$line")
        printf 'docs/botdesk.1.scd: the synopsis of %s differs from the table.\n  docs:  %s\n  table: %s\n' \
            "$name" "$(grep -E "^\*$name\*" "$man" || echo '(none)')" "$line" >&2
        problems=$((problems + 1))
    fi
done <<<"$scd"
((problems == 0)) || exit 1
echo "action-docs: docs/CLI.md and botdesk(1) match the table ($(wc -l <<<"$md") actions)"
