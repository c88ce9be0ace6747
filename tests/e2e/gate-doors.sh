#!/usr/bin/env bash
# The two doors, on real Xvnc: Xvnc serves only its private xvnc.sock; rfb.sock and view.sock are
# the gate's and answer RFB 003.008. A watcher's pointer, keys, clipboard, QEMU keys,
# SetDesktopSize and xvp never reach the desktop, in RFB 3.3, 3.7 and 3.8, sent whole, a byte at
# a time or in random pieces; nor does the controller's while the agent holds the lease. A
# clipboard over 256 KiB and an unknown message close the viewer at once, and streams of
# clipboards a watcher may not send do not grow the gate's memory. With a view group, its
# members can watch (never type) and reach nothing else; other users reach nothing.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
[[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
n=${BASH_REMATCH[1]}
[ "$(e2e_json view_socket)" = "$P/view.sock" ] || bd_fail "status names no view socket: $OUT"
for s in rfb.sock view.sock xvnc.sock; do
    [ "$(stat -c '%a %U %F' "$P/$s")" = "600 $U socket" ] ||
        bd_fail "$s is $(stat -c '%a %U %F' "$P/$s"), expected a 0600 socket of $U"
done
cmd=$(tr '\0' ' ' <"/proc/$(e2e_xvnc_pid "$n")/cmdline")
[[ $cmd == *"-rfbunixpath $P/xvnc.sock "* ]] || bd_fail "Xvnc does not serve xvnc.sock: $cmd"
for s in rfb.sock view.sock; do
    hello=$(e2e_rfb_hello "$U" "$P/$s")
    [ "$hello" = "RFB 003.008" ] || bd_fail "$s said '$hello'"
done
gate=$(gate_pid default) || bd_fail "no botdesk-gate below the session"

gate_record default
# Every kind of input, from every door the agent's lease closes, in every chunking; each run
# ends with a FramebufferUpdate round trip, so Xvnc has handled all of it before we look.
i=0
for door in view.sock rfb.sock; do
    for v in 3.3 3.7 3.8; do
        for chunk in whole bytes random; do
            i=$((i + 1))
            gate_rfb_ok "$P/$door" --version "$v" --chunk "$chunk" --seed "$i" pf \
                "ptr:$((100 + i)),$((100 + i))" "ptr:$((100 + i)),$((100 + i)),1" \
                "key:$(printf '%x' $((0x61 + i % 20)))" "qkey:7a" cut:100 size:1024x768 \
                xvp "ptr:$((400 + i)),401" sync
            [ "$(tail -n1 <<<"$OUT")" = "synced 1440x900" ] || bd_fail "$door $v $chunk: $OUT"
        done
    done
done
# The desktop does see input, from the one who holds it: a human at the controller's door.
e2e_bd "$U" "$ST" take --reason "gate-doors"
e2e_expect_rc 0 "take"
gate_rfb_ok "$P/rfb.sock" ptr:900,700 key:78 sync
gate_wait_line '^motion 900 700$'
gate_wait_line '^key 0x78 '
gate_never '^motion (1[0-9][0-9]|4[0-9][0-9]) ' "a watcher's or the agent-held controller's pointer"
gate_never '^key 0x(6[1-9a-f]|7[0-4a]) ' "a watcher's or the agent-held controller's keys"
gate_never '^root 1024 768' "a watcher's SetDesktopSize"
# Even now a watcher cannot type.
gate_rfb_ok "$P/view.sock" --chunk bytes ptr:50,60 key:79 size:800x600 sync
gate_rfb_ok "$P/rfb.sock" ptr:901,701 sync
gate_wait_line '^motion 901 701$'
gate_never '^motion 50 60$' "a watcher's pointer while a human holds the desktop"
gate_never '^key 0x79 ' "a watcher's key while a human holds the desktop"
e2e_bd "$U" "$ST" release
e2e_expect_rc 0 "release"

# A clipboard over 256 KiB is refused at its header: the gate closes the viewer without waiting
# for the text (none is sent). So does a message type nobody can frame.
for door in view.sock rfb.sock; do
    for len in 262145 -262145 1073741824; do
        gate_rfb_ok "$P/$door" "cuthead:$len" expect-close
        [ "$(tail -n1 <<<"$OUT")" = closed ] || bd_fail "$door kept a viewer that announced $len bytes of clipboard"
    done
    gate_rfb_ok "$P/$door" raw:07 expect-close
done
gate_rfb_ok "$P/view.sock" cut:262144 sync
grep -q 'clipboard over 262144 bytes' "$P/launcher.log" || bd_fail "the gate logged no refusal"

# Memory: 64 MiB of clipboards a watcher may not send pass through the filter without being
# held; the gate's resident size does not grow by more than noise.
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$gate/status"; }
before=$(rss)
for k in 1 2 3 4 5 6 7 8; do
    gate_rfb_ok "$P/view.sock" repeat:32 cut:262144 end sync
done
after=$(rss)
((after - before < 2048)) || bd_fail "the gate grew from $before kB to $after kB on dropped clipboards"

# Other users reach neither door (the profile's directory is 0700).
OTHER=$(bd_test_user "$BD_USER_B")
if [ "$OTHER" != "$U" ]; then
    for s in rfb.sock view.sock; do
        rc=0
        bd_as "$OTHER" "$E2E_PY" "$GATE_RFB" "$P/$s" sync >/dev/null 2>&1 || rc=$?
        [ "$rc" != 0 ] || bd_fail "$OTHER could connect to $s"
    done

    # A view group: its members watch through a door of their own and can never type.
    VD=$E2E_SCRATCH/view-$U
    mkdir -m 0710 "$VD"
    chown "$U:botdesk" "$VD"
    BOTDESK_VIEW_GROUP=botdesk BOTDESK_VIEW_DIR=$VD e2e_bd "$U" "$ST" --profile grp start --json
    e2e_expect_rc 0 "start with a view group"
    [ "$(e2e_json view_socket)" = "$VD/grp.sock" ] || bd_fail "status: $OUT"
    [ "$(stat -c '%a %U %G %F' "$VD/grp.sock")" = "660 $U botdesk socket" ] ||
        bd_fail "the group's door is $(stat -c '%a %U %G %F' "$VD/grp.sock")"
    gate_record grp
    e2e_bd "$U" "$ST" --profile grp take
    bd_as "$OTHER" "$E2E_PY" "$GATE_RFB" "$VD/grp.sock" ptr:77,88 key:71 sync >"$E2E_SCRATCH/grp.out" 2>&1 ||
        bd_fail "a member of the view group cannot watch: $(cat "$E2E_SCRATCH/grp.out")"
    gate_rfb_ok "$ST/grp/rfb.sock" ptr:99,98 sync
    gate_wait_line '^motion 99 98$'
    gate_never '^motion 77 88$' "the view group's pointer"
    gate_never '^key 0x71 ' "the view group's key"
    OUTSIDER=$(bd_test_user "$BD_USER_OUT")
    rc=0
    bd_as "$OUTSIDER" "$E2E_PY" "$GATE_RFB" "$VD/grp.sock" sync >/dev/null 2>&1 || rc=$?
    [ "$rc" != 0 ] || bd_fail "a user outside the view group could watch"
    e2e_bd "$U" "$ST" --profile grp stop
    e2e_expect_rc 0 "stop grp"
    [ ! -e "$VD/grp.sock" ] || bd_fail "stop left the group's door"
fi

e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
for s in rfb.sock view.sock xvnc.sock; do
    [ ! -e "$P/$s" ] || bd_fail "stop left $s"
done
bd_gone "$gate" || bd_fail "the gate outlived its desktop"
echo "ok: the doors let only the holder's input through"
