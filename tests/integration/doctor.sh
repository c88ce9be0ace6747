#!/usr/bin/env bash
# botdesk doctor tells what is true of this host, with the fix for each problem: programs
# missing from PATH, the helper's mode and group, the caller's group, no_new_privs, memory
# against the floor, and how much of the display band is in use. What matters only for installing
# (the helper, the group, no_new_privs, the package manager) is a problem only when programs are
# missing, else a note. In botdesk's container image (the marker simulated by
# BOTDESK_IMAGE_MARKER) none of it matters: the packages are baked in.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init

# fontconfig's answer, made up: fc-list finds a font for each word in $S/fonts ("cjk emoji": both,
# the default, so that the rows below are about what they test), or fails with "broken".
cat >"$S/fc-list" <<'EOF'
#!/bin/sh
have=$(cat "${0%/*}/fonts")
case "$have" in *broken*) exit 2 ;; esac
case "$1" in
:lang=ja) case "$have" in *cjk*) echo "Noto Sans CJK JP" ;; esac ;;
:lang=und-zsye) case "$have" in *emoji*) echo "Noto Color Emoji" ;; esac ;;
*) exit 1 ;;
esac
EOF
chmod 0755 "$S/fc-list"
echo "cjk emoji" >"$S/fonts"
chmod 0644 "$S/fonts"
export BOTDESK_FC_LIST=$S/fc-list

# A helper stand-in that is not setuid: doctor must say so and name the exact fix. With every
# program present nothing needs installing, so it is a note, not a problem: exit 0.
: >"$S/helper"
chmod 0755 "$S/helper"
export BOTDESK_HELPER=$S/helper
# Nonexistent: this is no container image (the image's own rows are below).
export BOTDESK_IMAGE_MARKER=$S/no-image
it_bd doctor
it_expect_rc 0 "doctor with every program present and only an install path to fix"
it_expect_in "$OUT" "ok   desktop programs" "the stub programs on PATH count as present"
it_expect_in "$OUT" "note helper" "a helper without the setuid bit is a note when nothing is missing"
it_expect_in "$OUT" "not setuid root" "a helper without the setuid bit is reported"
it_expect_in "$OUT" "chmod 4750 $S/helper" "with the exact fix"
it_expect_in "$OUT" "memory" "memory is reported"
it_expect_in "$OUT" "40-49: 0 of 10 numbers in use" "the band's use is reported"
it_expect_in "$OUT" "nothing to fix" "and it says so"

# The international fonts (botdesk install --fonts): named when missing, with the command, as a
# note (the desktop works without them: text in CJK or emoji is empty boxes).
it_expect_in "$OUT" "ok   fonts" "fonts present are reported"
echo "" >"$S/fonts"
it_bd doctor
it_expect_rc 0 "missing fonts are a note, not a problem"
it_expect_in "$OUT" "note fonts" "missing fonts are named"
it_expect_in "$OUT" "no font for CJK (Chinese, Japanese, Korean) or emoji" "both kinds are named"
it_expect_in "$OUT" "install fonts for CJK text and colour emoji with your distribution's own tools" \
    "with no package manager, the distribution's tools"
# With apt (the words only: the helper here is no setuid program, so an administrator acts).
BOTDESK_PACKAGE_MANAGER=apt it_bd doctor
it_expect_in "$OUT" "botdesk install --fonts" "with the command that installs them"
it_expect_in "$OUT" "apt-get install -y --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji" \
    "and the packages"
echo "cjk" >"$S/fonts"
it_bd doctor
it_expect_in "$OUT" "no font for emoji" "only the missing kind is named"
it_expect_not_in "$OUT" "no font for CJK" "not the one present"
echo "broken" >"$S/fonts"
it_bd doctor
it_expect_rc 0 "an fc-list that fails is no problem of the desktop"
it_expect_in "$OUT" "cannot tell: $S/fc-list failed" "doctor says it cannot tell, and why"
echo "cjk emoji" >"$S/fonts"

# With programs missing, the helper is a problem: it stands between the user and the install.
BD_PATH=$S/empty it_bd doctor
it_expect_rc 1 "doctor exits 1 when something needs fixing"
it_expect_in "$OUT" "FIX  helper" "a helper without the setuid bit is a problem when programs are missing"
it_expect_in "$OUT" "chmod 4750 $S/helper" "with the exact fix"

# A number in use shows in the band line.
printf '%10d\n' $$ >"$BOTDESK_X_LOCK_DIR/.X41-lock"
it_bd doctor
it_expect_in "$OUT" "40-49: 1 of 10 numbers in use" "a live X lock counts in the band"

# Capacity (issue 29): how many more desktops, by memory, by the band and by the per-user cap;
# the smallest wins. 3100 MB available less a 100 MB floor at 30 MB each (nothing of ours runs to
# measure): 100 by memory; 9 free numbers; the default cap of 8.
printf 'MemTotal: 8000000 kB\nMemAvailable: %d kB\n' $((3100 * 1024)) >"$S/meminfo.cap"
BOTDESK_MEMINFO=$S/meminfo.cap BOTDESK_MIN_FREE_MB=100 it_bd doctor
it_expect_in "$OUT" "capacity           8 more desktops: 100 by memory (3100 MB available, 100 MB kept free, 30 MB each" "capacity by memory"
it_expect_in "$OUT" "9 by the display band, 8 by the per-user cap (8, you run 0)" "by the band and the cap"
# Memory the tightest: 160 MB above the floor is 5 desktops.
printf 'MemTotal: 8000000 kB\nMemAvailable: %d kB\n' $((260 * 1024)) >"$S/meminfo.cap"
BOTDESK_MEMINFO=$S/meminfo.cap BOTDESK_MIN_FREE_MB=100 it_bd doctor
it_expect_in "$OUT" "capacity           5 more desktops: 5 by memory" "memory the tightest limit"

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
install -d -m 1777 "$xdir"
chmod 1777 "$xdir"

# Short memory and missing programs are problems, each with its fix.
it_meminfo 4096 400
BD_PATH=$S/empty it_bd doctor
it_expect_in "$OUT" "FIX  memory" "memory below the floor is a problem"
it_expect_in "$OUT" "BOTDESK_MIN_FREE_MB" "its fix names the setting"
it_expect_in "$OUT" "FIX  desktop programs" "missing programs are a problem"
it_expect_in "$OUT" "Xvnc" "and they are named"

it_meminfo 8192 6144

# no_new_privs is reported when set: a problem when something must be installed, else a note.
if command -v setpriv >/dev/null; then
    mkdir -p "$S/only-setpriv"
    ln -s "$(command -v setpriv)" "$S/only-setpriv/setpriv"
    BD_PATH=$S/only-setpriv it_run setpriv --no-new-privs "$BOTDESK_BIN" doctor
    it_expect_in "$OUT" "FIX  no_new_privs" "no_new_privs is a problem when programs are missing"
    it_run setpriv --no-new-privs "$BOTDESK_BIN" doctor
    it_expect_in "$OUT" "note no_new_privs" "no_new_privs is a note when nothing is missing"
fi

# Outside group botdesk (CI: a real user not in the group): the group is needed only to install.
# With a helper installed as it should be (setuid root, group botdesk), the outsider is told so,
# and it is a problem only when programs are missing.
if bd_is_root && id -u "$BD_USER_OUT" >/dev/null 2>&1; then
    OUTSIDER=$BD_USER_OUT
    # Never executed: only its owner, group and mode are looked at.
    install -m 4750 -o root -g botdesk /dev/null "$S/suid-helper"
    outsider() {
        RC=0
        OUT=$(bd_as "$OUTSIDER" "$IT_ENV" XDG_CONFIG_HOME="$S/config" BOTDESK_HELPER="$S/suid-helper" "$@" 2>&1) || RC=$?
    }
    outsider "$BOTDESK_BIN" doctor
    it_expect_in "$OUT" "note group" "a user outside group botdesk with nothing to install gets a note"
    it_expect_in "$OUT" "needed only to install" "saying what the group is for"
    it_expect_in "$OUT" "usermod -aG botdesk $OUTSIDER" "with the exact command"
    it_expect_not_in "$OUT" "FIX  group" "the group is no problem when nothing is missing"
    BD_PATH=$S/empty outsider "$BOTDESK_BIN" doctor
    it_expect_in "$OUT" "FIX  group" "a user outside group botdesk who must install is told"
    it_expect_in "$OUT" "usermod -aG botdesk $OUTSIDER" "with the exact command"
fi

# botdesk's container image (its Dockerfile writes the marker): the packages are baked in, the
# helper is an ordinary file and the user in no group. With everything there, nothing to fix.
printf '# botdesk container image\ndesktop=1\n' >"$S/image"
it_own "$S/image"
export BOTDESK_IMAGE_MARKER=$S/image
it_bd doctor
it_expect_rc 0 "doctor in botdesk's image with the desktop baked in"
it_expect_in "$OUT" "ok   image" "doctor says it is botdesk's image"
it_expect_in "$OUT" "nothing to fix" "and that nothing needs fixing"
for word in "FIX" "note" "chmod" "usermod" "setuid"; do
    it_expect_not_in "$OUT" "$word" "doctor in the image says nothing of '$word'"
done
it_run setpriv --no-new-privs "$BOTDESK_BIN" doctor
it_expect_rc 0 "doctor in the image under no_new_privs (a pod's allowPrivilegeEscalation: false)"
# Something missing in the image: the image must bake it, nobody is to fix the helper.
BD_PATH=$S/empty it_bd doctor
it_expect_rc 1 "doctor in an image that lacks the desktop"
it_expect_in "$OUT" "FIX  desktop programs" "the missing programs are the problem"
it_expect_in "$OUT" "botdesk's container image" "in the image"
it_expect_in "$OUT" "baked in when it is built" "the image must bake them"
it_expect_in "$OUT" "RUN apt-get update && apt-get install" "with the Dockerfile line"
for word in "chmod" "usermod" "setuid root" "administrator"; do
    it_expect_not_in "$OUT" "$word" "doctor in the image never says '$word'"
done
# Fonts missing in the image: the image bakes them too (the Dockerfile line names them).
echo "" >"$S/fonts"
BOTDESK_PACKAGE_MANAGER=apt it_bd doctor
it_expect_rc 0 "missing fonts in the image are a note"
it_expect_in "$OUT" "note fonts" "named in the image too"
it_expect_in "$OUT" "install -y --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji" "with the Dockerfile line"
echo "cjk emoji" >"$S/fonts"
printf 'desktop=0\n' >"$S/image"
BD_PATH=$S/empty it_bd doctor
it_expect_in "$OUT" "BOTDESK_DESKTOP=0" "an image built without its desktop layer is told to build it with one"
echo "PASS"
