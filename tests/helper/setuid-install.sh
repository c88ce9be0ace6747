#!/usr/bin/env bash
# The meson option that installs the helper setuid: off by default (a plain install leaves mode
# 0755), on with -Dsetuid_install=true (root:botdesk 4750, as dbus's launch helper is). Both ways,
# installed as root into a scratch DESTDIR.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
getent group botdesk >/dev/null || bd_skip "group botdesk is missing: run scripts/test"

work=$(mktemp -d)
bdh_on_exit 'rm -rf "$work"'
for setuid in false true; do
    b=$work/build-$setuid
    meson setup "$b" "$BD_SRCDIR" --prefix=/usr -Dsetuid_install=$setuid -Dtests=disabled >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; bd_fail "meson setup failed"; }
    ninja -C "$b" helper/botdesk-helper >"$work/log" 2>&1 || { cat "$work/log" >&2; bd_fail "build failed"; }
    DESTDIR=$work/dest-$setuid meson install -C "$b" --no-rebuild --tags helper >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; bd_fail "meson install failed"; }
    got=$(stat -c '%a %U %G' "$work/dest-$setuid/usr/libexec/botdesk-helper")
    case $setuid in
    false) want="755 root root" ;;
    true) want="4750 root botdesk" ;;
    esac
    [ "$got" = "$want" ] || bd_fail "-Dsetuid_install=$setuid installed '$got', want '$want'"
done
echo "setuid-install: off by default, root:botdesk 4750 when asked"
