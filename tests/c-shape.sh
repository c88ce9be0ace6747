#!/usr/bin/env bash
# scripts/c-shape catches what it is for, and only that: a bare close() and a nested ternary fail
# it, each named by file, line and function; so does library code (desk/, common/) that prints
# rather than warning through its caller; the same fd closed in a cleanup function, through
# safe_close(), and two ternaries side by side pass. A file over 600 lines and a function over 80
# fail it; 600 and 80 pass. Then the tree itself passes it.
set -euo pipefail
src=${1:?usage: c-shape.sh SRCDIR}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/bad.c" <<'C'
static int open_it(int fd)
{
	if (fd > 2) {
		close(fd);
	}
	return fd == 1 ? 1 : fd == 2 ? 2 : 3;
}

static int nested(int a)
{
	return a ? (a > 1 ? 2 : 1) : 0;
}
C
cat >"$dir/good.c" <<'C'
static void thing_close(int fd)
{
	close(fd);
}

static int open_it(int fd)
{
	/* close( in a comment, and "close(" in a string, are no calls. */
	const char *s = "close(";
	fd = safe_close(fd);
	printf("%s %s", fd ? "a" : "b", fd > 1 ? "c" : "d");
	return s ? 1 : 0;
}
C
mkdir "$dir/desk"
cat >"$dir/desk/warns.c" <<'C'
static void stop_it(const struct settings *s)
{
	log_warn("stopped");
	fprintf(stderr, "stopped\n");
	desk_warn(s, "stopped");
}
C
if out=$("$src/scripts/c-shape" "$dir/desk/warns.c" 2>&1); then
    echo "c-shape passed library code that prints: $out" >&2
    exit 1
fi
for want in "warns.c:3: library code prints in stop_it" "warns.c:4: library code prints in stop_it"; do
    grep -qF "$want" <<<"$out" || { echo "c-shape did not say '$want': $out" >&2; exit 1; }
done
[ "$(grep -c ': ' <<<"$out")" -eq 3 ] || { echo "c-shape said more than it should: $out" >&2; exit 1; }
if out=$("$src/scripts/c-shape" "$dir/bad.c" 2>&1); then
    echo "c-shape passed bad.c: $out" >&2
    exit 1
fi
for want in "bad.c:4: bare close() in open_it" "bad.c:6: nested ternary in open_it" \
    "bad.c:11: nested ternary in nested"; do
    grep -qF "$want" <<<"$out" || { echo "c-shape did not say '$want': $out" >&2; exit 1; }
done
[ "$(grep -c ': ' <<<"$out")" -eq 4 ] || { echo "c-shape said more than it should: $out" >&2; exit 1; }
# Size: a function of 81 lines and a file of 601 fail, named; 80 and 600 pass.
{
    printf 'static int long_one(void)\n{\n'
    for i in $(seq 79); do printf '\tstep(%d);\n' "$i"; done
    printf '}\n'
    printf 'static int fits(void)\n{\n'
    for i in $(seq 78); do printf '\tstep(%d);\n' "$i"; done
    printf '}\n'
    for i in $(seq $((601 - 163))); do printf 'int v%d;\n' "$i"; done
} >"$dir/big.c"
if out=$("$src/scripts/c-shape" "$dir/big.c" 2>&1); then
    echo "c-shape passed a long function and a long file: $out" >&2
    exit 1
fi
for want in "big.c: long_one() is 81 lines" "big.c: 601 lines"; do
    grep -qF "$want" <<<"$out" || { echo "c-shape did not say '$want': $out" >&2; exit 1; }
done
[ "$(grep -c ': ' <<<"$out")" -eq 3 ] || { echo "c-shape said more than it should: $out" >&2; exit 1; }
sed -i '3d' "$dir/big.c"  # now 600 lines, and long_one() 80
"$src/scripts/c-shape" "$dir/big.c" >/dev/null || { echo "c-shape failed 600 lines and an 80-line function" >&2; exit 1; }
"$src/scripts/c-shape" "$dir/good.c" >/dev/null || { echo "c-shape failed good.c" >&2; exit 1; }
"$src/scripts/c-shape"
