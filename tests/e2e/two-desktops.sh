#!/usr/bin/env bash
# Two profiles started at once come up on distinct displays; each RFB socket is 0600, answers the
# RFB handshake and is the only way in (nothing listens on TCP); the published env works (exec
# xdpyinfo); an exec'd window is decorated and focused; thumbnails of both, taken at the same
# time with each profile's own cookie, decode as PNGs of the expected size that are not one flat
# colour; stop leaves no process and no lock.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user_a

# One of each desktop: "one" the lean default, "two" the full component set of before.
declare -A DESKTOP=([one]=lean [two]=full)
for p in one two; do
    (
        rc=0
        BOTDESK_DESKTOP_PROFILE=${DESKTOP[$p]} BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" \
            --profile "$p" start --json \
            >"$E2E_SCRATCH/start.$p" 2>"$E2E_SCRATCH/start.$p.err" || rc=$?
        echo "$rc" >"$E2E_SCRATCH/start.$p.rc"
    ) &
done
wait

declare -A NUM SOCK
for p in one two; do
    [ "$(<"$E2E_SCRATCH/start.$p.rc")" = 0 ] ||
        bd_fail "start of $p failed: $(cat "$E2E_SCRATCH/start.$p.err")"
    OUT=$(<"$E2E_SCRATCH/start.$p")
    [ "$(e2e_json running)" = true ] || bd_fail "$p is not running after start: $OUT"
    d=$(e2e_json display)
    [[ $d =~ ^:([0-9]+)$ ]] || bd_fail "$p: display is '$d'"
    NUM[$p]=${BASH_REMATCH[1]}
    SOCK[$p]=$(e2e_json socket)
done
[ "${NUM[one]}" != "${NUM[two]}" ] || bd_fail "both profiles got display :${NUM[one]}"

for p in one two; do
    n=${NUM[$p]}
    sock=${SOCK[$p]}
    [ "$(stat -c '%a %U %F' "$sock")" = "600 $U socket" ] ||
        bd_fail "$p: $sock is $(stat -c '%a %U %F' "$sock"), expected a 0600 socket of $U"
    hello=$(e2e_rfb_hello "$U" "$sock")
    [ "$hello" = "RFB 003.008" ] || bd_fail "$p: the RFB socket said '$hello'"
    xvnc=$(e2e_xvnc_pid "$n")
    cmd=$(tr '\0' ' ' <"/proc/$xvnc/cmdline")
    [[ $cmd == *"-rfbunixpath ${sock%/rfb.sock}/xvnc.sock "* && $cmd == *"-rfbport -1 "* && $cmd == *"-nolisten tcp "* ]] ||
        bd_fail "$p: Xvnc's command line: $cmd"
    [[ $cmd != *MIT-MAGIC* ]] || bd_fail "$p: a cookie on Xvnc's command line"
    listeners=$(e2e_tcp_listeners "$xvnc")
    [ -z "$listeners" ] || bd_fail "$p: Xvnc listens on TCP: $listeners"
    [ "$(stat -c '%a %U' "$ST/$p/Xauthority")" = "600 $U" ] || bd_fail "$p: Xauthority is not 0600"
    [ "$(stat -c '%a %U' "$ST/$p/env")" = "600 $U" ] || bd_fail "$p: env is not 0600"

    e2e_bd "$U" "$ST" --profile "$p" exec -- xdpyinfo
    e2e_expect_rc 0 "$p: exec xdpyinfo"
    grep -q "^name of display: *:$n\$" <<<"$OUT" || bd_fail "$p: xdpyinfo shows another display: $OUT"
    grep -q "dimensions: *1440x900 pixels" <<<"$OUT" || bd_fail "$p: not 1440x900: $OUT"
    # The window manager owns the screen the moment start returned.
    e2e_bd "$U" "$ST" --profile "$p" exec -- xprop -root _NET_SUPPORTING_WM_CHECK
    [[ $OUT == *"window id #"* ]] || bd_fail "$p: no window manager: $OUT"
    e2e_wait_drawn "$U" "$ST" "$p" 960 600
    # A program started with exec gets a decorated window (a frame with a title bar) that has the
    # focus, on both desktops.
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" --profile "$p" exec -- \
        xmessage -name bdprobe -timeout 60 "probe $p" >/dev/null 2>&1 &
    probe=$!
    deadline=$((SECONDS + 15))
    while :; do
        e2e_bd "$U" "$ST" --profile "$p" exec -- xprop -root _NET_ACTIVE_WINDOW
        win=$(grep -o '0x[0-9a-f]*' <<<"$OUT" | head -n 1) || true
        if [[ $win == 0x* && $win != 0x0 ]]; then
            e2e_bd "$U" "$ST" --profile "$p" exec -- xprop -id "$win" WM_CLASS _NET_FRAME_EXTENTS
            [[ $OUT == *'"bdprobe"'* && $OUT == *"_NET_FRAME_EXTENTS(CARDINAL) = "* ]] && break
        fi
        ((SECONDS < deadline)) || bd_fail "$p: the exec'd window never got the focus and a frame: $OUT"
        sleep 0.1
    done
    if ! [[ $OUT =~ _NET_FRAME_EXTENTS\(CARDINAL\)\ =\ [0-9]+,\ [0-9]+,\ ([0-9]+), ]] ||
        ((BASH_REMATCH[1] == 0)); then
        bd_fail "$p: the exec'd window has no title bar: $OUT"
    fi
    # botdesk exec became xmessage: the background job itself, or its one child.
    pkill -P "$probe" 2>/dev/null || true
    kill "$probe" 2>/dev/null || true
    wait "$probe" 2>/dev/null || true
done

# Both thumbnails at the same moment, each with its own cookie.
for p in one two; do
    (
        rc=0
        BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" --profile "$p" thumbnail \
            --output "$OUTD/$p.png" 2>"$E2E_SCRATCH/thumb.$p.err" || rc=$?
        echo "$rc" >"$E2E_SCRATCH/thumb.$p.rc"
    ) &
done
wait
for p in one two; do
    [ "$(<"$E2E_SCRATCH/thumb.$p.rc")" = 0 ] ||
        bd_fail "thumbnail of $p failed: $(cat "$E2E_SCRATCH/thumb.$p.err")"
    "$E2E_PNGCHECK" "$OUTD/$p.png" 960 600 || bd_fail "thumbnail of $p"
done
e2e_bd "$U" "$ST" --profile one thumbnail --max 480x480 --output "$OUTD/small.png"
e2e_expect_rc 0 "thumbnail --max 480x480"
"$E2E_PNGCHECK" "$OUTD/small.png" 480 300 || bd_fail "thumbnail --max 480x480"
e2e_bd "$U" "$ST" --profile two thumbnail
e2e_expect_rc 0 "thumbnail as a data URL"
[[ $OUT == data:image/png\;base64,* ]] || bd_fail "thumbnail without --output: ${OUT:0:60}"
base64 -d <<<"${OUT#data:image/png;base64,}" >"$OUTD/url.png" || bd_fail "the data URL is not base64"
"$E2E_PNGCHECK" "$OUTD/url.png" 960 600 || bd_fail "thumbnail from the data URL"

# Stop one: nothing of it is left, the other desktop is untouched.
for p in one two; do
    e2e_bd "$U" "$ST" --profile "$p" status --json
    launcher=$(e2e_json pid)
    pids=$(e2e_desktop_pids "$launcher")
    names=$(for x in $pids; do cat "/proc/$x/comm" 2>/dev/null; done | sort -u | tr '\n' ' ')
    for want in botdesk-session Xtigervnc dbus-daemon xfwm4 xfce4-panel xfconfd; do
        [[ " $names" == *" $want "* ]] || bd_fail "$p: no $want among the desktop's processes: $names"
    done
    # The lean desktop runs no xfsettingsd, xfdesktop or tray, and its server no GLX.
    xvnc=$(e2e_xvnc_pid "${NUM[$p]}")
    for want in xfsettingsd xfdesktop panel-4-systray; do
        if [ "${DESKTOP[$p]}" = full ]; then
            [[ " $names" == *" $want "* ]] || bd_fail "$p: no $want in the full desktop: $names"
        else
            [[ " $names" != *" $want "* ]] || bd_fail "$p: $want runs in the lean desktop"
        fi
    done
    if [ "${DESKTOP[$p]}" = full ]; then
        ! grep -qz '^GLX$' "/proc/$xvnc/cmdline" || bd_fail "$p: the full desktop's Xvnc turns GLX off"
    else
        grep -qz '^GLX$' "/proc/$xvnc/cmdline" || bd_fail "$p: the lean desktop's Xvnc loads GLX"
    fi
    e2e_bd "$U" "$ST" --profile "$p" stop
    e2e_expect_rc 0 "stop $p"
    left=$(for x in $pids; do bd_gone "$x" || echo "$x $(tr '\0' ' ' <"/proc/$x/cmdline")"; done)
    [ -z "$left" ] || bd_fail "$p: still running after stop: $left"
    n=${NUM[$p]}
    [ ! -e "/tmp/.X$n-lock" ] || bd_fail "$p: /tmp/.X$n-lock is left"
    [ ! -e "/tmp/.X11-unix/X$n" ] || bd_fail "$p: /tmp/.X11-unix/X$n is left"
    [ ! -e "${SOCK[$p]}" ] || bd_fail "$p: the RFB socket is left"
    ! grep -q "@/tmp/.X11-unix/X$n\$" /proc/net/unix || bd_fail "$p: @/tmp/.X11-unix/X$n is still bound"
    e2e_bd "$U" "$ST" --profile "$p" thumbnail --output "$OUTD/none.png"
    e2e_expect_rc 3 "thumbnail of a stopped desktop"
    if [ "$p" = one ]; then
        e2e_bd "$U" "$ST" --profile two exec -- xdpyinfo
        e2e_expect_rc 0 "the other desktop after stopping one"
    fi
done
echo "ok: two desktops on :${NUM[one]} and :${NUM[two]}"
