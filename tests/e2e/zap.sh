#!/usr/bin/env bash
# No keystroke ends the desktop (issue 22), on a real desktop as a real non-root user:
#  - `botdesk key Terminate_Server` (and the other keys that act on the X server) exits 2 naming
#    the key, and sends nothing;
#  - with the zap on the layout (setxkbmap -option terminate:ctrl_alt_bksp, which a desktop's
#    keyboard settings can do), Ctrl+Alt+BackSpace through `botdesk key` and through xdotool as
#    the desktop's user, and xdotool putting Terminate_Server on a spare key itself, all leave
#    Xvnc and the desktop running: its keymaps have no action that ends the server.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v xdotool >/dev/null || bd_skip "no xdotool: install xdotool"
command -v setxkbmap >/dev/null || bd_skip "no setxkbmap: install x11-xkb-utils"
e2e_user_a

bd start
e2e_expect_rc 0 "start"
# The panel is drawn a moment after start returns: a flat thumbnail then is no sign of a zap.
e2e_wait_drawn "$U" "$ST" default 960 600
DISP=$(sed -n 's/^DISPLAY=//p' "$ST/default/env")
XAUTH=$(sed -n 's/^XAUTHORITY=//p' "$ST/default/env")
XVNC=$(e2e_xvnc_pid "${DISP#:}")
[ -n "$XVNC" ] || bd_fail "no Xvnc for $DISP"
xdo() {
    bd_as "$U" env DISPLAY="$DISP" XAUTHORITY="${XAUTH:-$ST/default/Xauthority}" xdotool "$@" ||
        bd_fail "xdotool $*"
}

# alive WHAT: Xvnc is the same process, the desktop says running, and a thumbnail comes.
alive() {
    # The server handles a client's requests in order: a reply to this one comes after the key
    # before it was handled, or never, if that key ended the server.
    bd_as "$U" env DISPLAY="$DISP" XAUTHORITY="${XAUTH:-$ST/default/Xauthority}" xdpyinfo >/dev/null 2>&1 ||
        bd_fail "after $1: the X server does not answer"
    kill -0 "$XVNC" 2>/dev/null || bd_fail "after $1: Xvnc (pid $XVNC) is gone"
    bd status --json
    [ "$(e2e_json running)" = true ] || bd_fail "after $1: not running: $OUT"
    bd thumbnail --output "$OUTD/alive.png"
    e2e_expect_rc 0 "a thumbnail after $1"
    "$E2E_PNGCHECK" "$OUTD/alive.png" 960 600 || bd_fail "after $1: the thumbnail"
}

for k in Terminate_Server ctrl+alt+Terminate_Server XF86Switch_VT_1 XF86Ungrab XF86ClearGrab; do
    bd key "$k"
    e2e_expect_rc 2 "botdesk key $k"
    [[ $ERR == *"the key '${k##*+}' in '$k' is refused"* ]] || bd_fail "botdesk key $k: $ERR"
done
alive "botdesk key Terminate_Server"
grep -q '"command":"key"' "$ST/default/actions.jsonl" 2>/dev/null && bd_fail "a refused key was logged as sent"

# The zap on the layout, as the desktop's keyboard settings may put it.
bd exec -- setxkbmap -option terminate:ctrl_alt_bksp
e2e_expect_rc 0 "setxkbmap -option terminate:ctrl_alt_bksp"
bd key ctrl+alt+BackSpace
e2e_expect_rc 0 "botdesk key ctrl+alt+BackSpace"
alive "botdesk key ctrl+alt+BackSpace"
xdo key ctrl+alt+BackSpace
alive "xdotool key ctrl+alt+BackSpace"
# A client of the desktop putting the keysym on a spare key itself, as botdesk key once did.
xdo key Terminate_Server
alive "xdotool key Terminate_Server"

bd stop
e2e_expect_rc 0 "stop"
echo "ok: zap"
