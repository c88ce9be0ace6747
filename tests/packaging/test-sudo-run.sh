#!/usr/bin/env bash
# scripts/test run by a user who is not root runs itself again, whole, under sudo (root's run:
# the tests must become other users), with the BD_* variables kept and the named tests passed on;
# when sudo refuses, it stops with a message. It never goes on as the user, which skipped or failed
# every test of other users and of the helper (issue 23: "77 passed, 2 failed, 36 skipped"). A
# stand-in sudo first on PATH records how it is called: nothing here becomes root. The real sudo
# path was run by hand as a user with passwordless sudo (see scripts/test's header).
source "$BD_SRCDIR/tests/lib.sh"
user=$(bd_test_user)
dir=$(bd_scratch "$user")
trap 'rm -rf "$dir"' EXIT
cat >"$dir/sudo" <<'SUDO'
#!/bin/sh
# Records each call. -v answers as BD_FAKE_SUDO_V says; scripts/test run again "succeeds";
# anything else (a step run piecemeal with sudo) is refused, so that a script that goes on as the
# user stops at its first sudo.
printf '%s\n' "$*" >>"$BD_FAKE_SUDO_LOG"
case $1 in
-v) exit "${BD_FAKE_SUDO_V:-0}" ;;
esac
case "$*" in
*/scripts/test*) exit 0 ;;
esac
exit 1
SUDO
chmod 0755 "$dir/sudo"
export BD_PATH=$dir:/usr/local/bin:/usr/bin:/bin BD_FAKE_SUDO_LOG=$dir/calls

# sudo allows: one check, then the whole script again as root, the named tests passed on.
bd_as "$user" touch "$dir/calls"
out=$(BD_FAKE_SUDO_V=0 bd_as "$user" "$BD_SRCDIR/scripts/test" env-exec --suite helper 2>&1) ||
    bd_fail "scripts/test as $user with sudo allowed failed: $out"
mapfile -t calls <"$dir/calls"
[ "${#calls[@]}" = 2 ] || bd_fail "sudo was called ${#calls[@]} times, not twice (-v, then scripts/test): ${calls[*]}"
[ "${calls[0]}" = -v ] || bd_fail "the first sudo call is '${calls[0]}', not the check -v"
[[ ${calls[1]} == --preserve-env=*" $BD_SRCDIR/scripts/test env-exec --suite helper" ]] ||
    bd_fail "scripts/test was not run again whole under sudo with its arguments: sudo ${calls[1]}"
for v in BD_BUILDDIR BD_FAKE_SUDO_LOG; do
    [[ ${calls[1]} == --preserve-env=*"$v"* ]] || bd_fail "sudo does not keep $v: sudo ${calls[1]}"
done
grep -q 'running as root through sudo' <<<"$out" || bd_fail "scripts/test does not say it runs through sudo: $out"

# sudo refuses: a message naming the way out, exit 1, nothing else tried.
rm -f "$dir/calls"
bd_as "$user" touch "$dir/calls"
if out=$(BD_FAKE_SUDO_V=1 bd_as "$user" "$BD_SRCDIR/scripts/test" 2>&1); then
    bd_fail "scripts/test went on though sudo refused: $out"
fi
grep -q "sudo refused $user" <<<"$out" || bd_fail "the refusal does not say so: $out"
[ "$(cat "$dir/calls")" = -v ] || bd_fail "scripts/test tried more than the check: $(cat "$dir/calls")"
echo "sudo run: ok"
