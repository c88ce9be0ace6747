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
# refuses FILE WHAT LINES WANT...: c-shape fails FILE (WHAT names it in the message when it
# passes), says every WANT, and says LINES lines with ': ' in all (the problems and their count).
refuses() {
    local file=$1 what=$2 lines=$3 out want
    shift 3
    if out=$("$src/scripts/c-shape" "$file" 2>&1); then
        echo "c-shape passed $what: $out" >&2
        exit 1
    fi
    for want in "$@"; do
        grep -qF "$want" <<<"$out" || { echo "c-shape did not say '$want': $out" >&2; exit 1; }
    done
    [ "$(grep -c ': ' <<<"$out")" -eq "$lines" ] || { echo "c-shape said more than it should: $out" >&2; exit 1; }
}
refuses "$dir/desk/warns.c" "library code that prints" 3 \
    "warns.c:3: library code prints in stop_it" "warns.c:4: library code prints in stop_it"
refuses "$dir/bad.c" bad.c 4 "bad.c:4: bare close() in open_it" \
    "bad.c:6: nested ternary in open_it" "bad.c:11: nested ternary in nested"
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
refuses "$dir/big.c" "a long function and a long file" 3 "big.c: long_one() is 81 lines" \
    "big.c: 601 lines"
sed -i '3d' "$dir/big.c"  # now 600 lines, and long_one() 80
"$src/scripts/c-shape" "$dir/big.c" >/dev/null || { echo "c-shape failed 600 lines and an 80-line function" >&2; exit 1; }
"$src/scripts/c-shape" "$dir/good.c" >/dev/null || { echo "c-shape failed good.c" >&2; exit 1; }
"$src/scripts/c-shape"
