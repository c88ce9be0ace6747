#!/usr/bin/env bash
# A viewer resizes the desktop (RFB SetDesktopSize, as TigerVNC's viewer does when its window is
# resized; through rfb.sock while a human holds the lease, the only time the gate lets it pass):
# status then reports the screen's live size, and the configured one beside it, without an X
# connection of its own (the session republishes the size it hears from X); hand-back restores
# the configured size and status says so; after stop no size file is left.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST
export BOTDESK_GEOMETRY=1440x900

e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start"
[ "$(e2e_json geometry)" = 1440x900 ] || bd_fail "geometry before any resize: $OUT"
[ "$(e2e_json configured_geometry)" = 1440x900 ] || bd_fail "configured_geometry: $OUT"
sock=$(e2e_json socket)
[ "$(<"$ST/default/geometry")" = 1440x900 ] || bd_fail "the session did not publish the screen's size"

# Resize as a viewer does, and wait (inotify, bounded) for the session to republish the size:
# the watch is established before the resize, and every rename in the directory is a look.
coproc WATCH { exec inotifywait -m -e moved_to "$ST/default" 2>&1; }
while read -r -t 10 line <&"${WATCH[0]}"; do
    [[ $line != *established* ]] || break
done
[[ ${line:-} == *established* ]] || bd_fail "inotifywait did not set up its watch"
e2e_bd "$U" "$ST" take --reason "resize test"
e2e_expect_rc 0 "take"
out=$(bd_as "$U" "$E2E_PY" "$BD_SRCDIR/tests/e2e/rfb-resize.py" "$sock" 1000 800 2>&1) ||
    bd_fail "the viewer's resize failed: $out"
until [ "$(<"$ST/default/geometry")" = 1000x800 ]; do
    read -r -t 20 line <&"${WATCH[0]}" ||
        bd_fail "the session did not republish the size within 20 s: $(<"$ST/default/geometry")"
done

e2e_bd "$U" "$ST" status --json
[ "$(e2e_json geometry)" = 1000x800 ] || bd_fail "status --json does not report the live size: $OUT"
[ "$(e2e_json configured_geometry)" = 1440x900 ] || bd_fail "status --json lost the configured size: $OUT"
e2e_bd "$U" "$ST" status
[[ $OUT == *"geometry: 1000x800 (configured: 1440x900)"* ]] || bd_fail "status does not show both sizes: $OUT"

# Hand-back: the configured size again, and status says so (no "configured:" beside it).
e2e_bd "$U" "$ST" release
e2e_expect_rc 0 "release"
until [ "$(<"$ST/default/geometry")" = 1440x900 ]; do
    read -r -t 20 line <&"${WATCH[0]}" ||
        bd_fail "the size was not restored on hand-back within 20 s: $(<"$ST/default/geometry")"
done
kill "$WATCH_PID" 2>/dev/null || true
e2e_bd "$U" "$ST" status
[[ $OUT == *"geometry: 1440x900"* && $OUT != *configured:* ]] || bd_fail "status after hand-back: $OUT"

e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
[ ! -e "$ST/default/geometry" ] || bd_fail "the size file outlived the desktop"
echo "PASS"
