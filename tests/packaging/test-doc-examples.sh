#!/usr/bin/env bash
# Every `botdesk exec -- PROGRAM` the documentation shows runs a program the desktop has: one a
# package of policy/packages.tsv provides (what `botdesk install` and the image install). Examples
# run in the container (a line naming docker or kubectl) may also use the image's first-check
# tools (policy/image-tools.txt). The README once showed `botdesk exec -- xterm`, which nothing
# installs. The package of a program is asked of dpkg, so the desktop packages must be installed.
source "$BD_SRCDIR/tests/lib.sh"
command -v dpkg >/dev/null || bd_skip "no dpkg to tell which package provides a program"
command -v Xtigervnc >/dev/null || bd_skip "the desktop packages are not installed (scripts/test installs them)"
policy=$(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt)
tools=$(grep -v '^#' "$BD_SRCDIR/policy/image-tools.txt" | grep -v '^[[:space:]]*$')

# provider PROGRAM: the Debian package that ships it, or nothing.
provider() {
    local d
    for d in /usr/bin /bin /usr/sbin /sbin; do
        dpkg -S "$d/$1" 2>/dev/null | cut -d: -f1 | head -1 && return 0
    done
    return 0
}

# check TEXT WHERE: fails for an example of TEXT whose program the desktop lacks.
check() {
    local line prog pkg allowed n=0
    while IFS= read -r line; do
        [[ $line =~ exec\ --\ ([A-Za-z0-9._+-]+) ]] || continue
        prog=${BASH_REMATCH[1]}
        # Placeholders, not programs.
        case $prog in PROGRAM | PROG | CMD) continue ;; esac
        n=$((n + 1))
        pkg=$(provider "$prog")
        allowed=$policy
        [[ $line != *docker* && $line != *kubectl* ]] || allowed+=$'\n'$tools
        [ -n "$pkg" ] && grep -qx "$pkg" <<<"$allowed" ||
            bd_fail "$2 runs '$prog' on the desktop, which ${pkg:-no installed package} provides: not a package the desktop has (policy/packages.tsv${tools:+, image-tools.txt in the image}): $line"
    done < <(grep -E 'botdesk.*exec -- ' <<<"$1" || true)
    echo "$2: $n example(s)"
}

for f in "$BD_SRCDIR"/README.md "$BD_SRCDIR"/docs/*.md "$BD_SRCDIR"/docs/*.scd "$BD_SRCDIR"/Dockerfile; do
    check "$(<"$f")" "${f#"$BD_SRCDIR"/}"
done

# The check bites: the README's old example, and an image tool used outside the image.
if (check 'botdesk exec -- xterm              # run a program on the desktop' probe) >/dev/null 2>&1; then
    bd_fail "the check lets 'botdesk exec -- xterm' through"
fi
if (check 'botdesk exec -- xdpyinfo' probe) >/dev/null 2>&1; then
    bd_fail "the check lets an image-only tool through on a host"
fi
(check 'docker exec desk botdesk exec -- xdpyinfo' probe) >/dev/null || bd_fail "an image tool in a docker example is refused"
echo "doc examples: ok"
