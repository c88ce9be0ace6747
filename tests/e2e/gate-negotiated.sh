#!/usr/bin/env bash
# An extension's message reaches Xvnc only once the viewer announced its pseudo-encoding. Xvnc
# 1.12 dies (SIGSEGV) on a SetDesktopSize from a viewer whose SetEncodings left out
# ExtendedDesktopSize (-308), and the controller's door lets SetDesktopSize through while a
# human holds the desktop: one message used to end the desktop. Now the gate drops it, Xvnc
# stays up, and a viewer that did announce the extension still resizes.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
gate_processes
e2e_bd "$U" "$ST" take --reason "gate-negotiated"
e2e_expect_rc 0 "take"

# Raw and DesktopSize only, in every chunking: each message dropped whole, the stream framed on.
i=0
for chunk in whole bytes random; do
    i=$((i + 1))
    gate_rfb "$P/rfb.sock" --chunk "$chunk" --seed "$i" --encodings 0,-223 size:1024x768 \
        raw:96010000000005a00384 raw:f8000000800000000161 size:800x600 sync
    bd_gone "$XVNC" && bd_fail "Xvnc died of a SetDesktopSize the viewer had not negotiated ($chunk): $(tail -5 "$P/launcher.log")"
    [ "$RC" = 0 ] || bd_fail "$chunk: rfbclient: $ERR; $OUT"
    [ "$(tail -n1 <<<"$OUT")" = "synced 1440x900" ] || bd_fail "$chunk: the screen changed: $OUT"
done
bd_gone "$GATE" && bd_fail "the gate died"

# A viewer that announced ExtendedDesktopSize resizes as before.
gate_rfb_ok "$P/rfb.sock" size:1024x768 sync
[ "$(tail -n1 <<<"$OUT")" = "synced 1024x768" ] || bd_fail "an announced SetDesktopSize did not resize: $OUT"
e2e_bd "$U" "$ST" release
e2e_expect_rc 0 "release"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: an unannounced SetDesktopSize is dropped and Xvnc lives"
