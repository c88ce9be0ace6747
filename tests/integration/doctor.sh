#!/usr/bin/env bash
# botdesk doctor tells what is true of this host, with the fix for each problem: programs
# missing from PATH, the helper's mode and group, the caller's group, no_new_privs, memory
# against the floor, and how much of the display band is in use.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init

# A helper stand-in that is not setuid: doctor must say so and name the exact fix.
: >"$S/helper"
chmod 0755 "$S/helper"
export BOTDESK_HELPER=$S/helper
it_bd doctor
it_expect_rc 1 "doctor exits 1 when something needs fixing"
it_expect_in "$OUT" "ok   desktop programs" "the stub programs on PATH count as present"
it_expect_in "$OUT" "not setuid root" "a helper without the setuid bit is reported"
it_expect_in "$OUT" "chmod 4750 $S/helper" "with the exact fix"
it_expect_in "$OUT" "memory" "memory is reported"
it_expect_in "$OUT" "40-49: 0 of 10 numbers in use" "the band's use is reported"

# A number in use shows in the band line.
printf '%10d\n' $$ >"$BOTDESK_X_LOCK_DIR/.X41-lock"
it_bd doctor
it_expect_in "$OUT" "40-49: 1 of 10 numbers in use" "a live X lock counts in the band"

# Issue 8.2: the X socket directory must be root's and sticky 1777; doctor names the fix.
xdir=$BOTDESK_X_LOCK_DIR/.X11-unix
rm -rf "$xdir"
it_bd doctor
it_expect_in "$OUT" "FIX  X socket directory $xdir is missing" "a missing X socket directory is reported"
it_expect_in "$OUT" "install -d -m 1777 -o root -g root $xdir" "with the exact fix"
if bd_is_root; then
    install -d -m 1777 -o root -g root "$xdir"
    it_bd doctor
    it_expect_in "$OUT" "ok   X socket directory $xdir root's, mode 1777" "a right one is ok"
    chown "$BD_USER_B" "$xdir"
    it_bd doctor
    it_expect_in "$OUT" "owned by uid $(id -u "$BD_USER_B") with mode 1777" "a user's directory is reported"
    it_expect_in "$OUT" "rm -rf $xdir && install -d -m 1777" "with the fix"
    chown root "$xdir"
    chmod 0777 "$xdir"
    it_bd doctor
    it_expect_in "$OUT" "with mode 0777" "a directory without the sticky bit is reported"
fi

# Short memory and missing programs are problems, each with its fix.
it_meminfo 4096 400
BD_PATH=$S/empty it_bd doctor
it_expect_in "$OUT" "FIX  memory" "memory below the floor is a problem"
it_expect_in "$OUT" "BOTDESK_MIN_FREE_MB" "its fix names the setting"
it_expect_in "$OUT" "FIX  desktop programs" "missing programs are a problem"
it_expect_in "$OUT" "Xvnc" "and they are named"

# no_new_privs is reported when set.
if command -v setpriv >/dev/null; then
    it_run setpriv --no-new-privs "$BOTDESK_BIN" doctor
    it_expect_in "$OUT" "FIX  no_new_privs" "no_new_privs is reported when set"
fi

# Outside group botdesk (CI: a real user not in the group), the group line says so and how to fix it.
if bd_is_root && id -u "$BD_USER_OUT" >/dev/null 2>&1; then
    OUTSIDER=$BD_USER_OUT
    RC=0
    OUT=$(bd_as "$OUTSIDER" "$IT_ENV" XDG_CONFIG_HOME="$S/config" "$BOTDESK_BIN" doctor 2>&1) || RC=$?
    it_expect_in "$OUT" "FIX  group" "a user outside group botdesk is told"
    it_expect_in "$OUT" "usermod -aG botdesk $OUTSIDER" "with the exact command"
fi
echo "PASS"
