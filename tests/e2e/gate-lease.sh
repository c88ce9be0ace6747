#!/usr/bin/env bash
# The lease on real Xvnc. One controller's viewer stays connected throughout: its input is
# dropped while the agent holds the desktop, reaches it after `botdesk take` (no reconnect), may
# resize it, and is dropped again after `botdesk release`, which returns with the screen back at
# the configured 1440x900. While a human holds it, every agent-side action exits 4. A corrupt
# lease stops agent actions until a release repairs it. Epochs count real transitions only.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
[ "$(e2e_json controller)" = agent ] || bd_fail "a new desktop is not the agent's: $OUT"
gate_record default

# The controller's viewer connects while the agent holds the desktop and waits on a FIFO
# between its two halves.
FIFO=$E2E_SCRATCH/hold
mkfifo -m 0666 "$FIFO"
bd_as "$U" "$E2E_PY" "$GATE_RFB" "$P/rfb.sock" --chunk random ptr:111,111 key:61 size:1024x768 \
    sync "hold:$FIFO" ptr:222,222 key:62 size:1024x768 sync >"$E2E_SCRATCH/ctl.out" 2>&1 &
viewer=$!
grep -q -m1 '^synced' < <(timeout 10 tail -n +1 -F "$E2E_SCRATCH/ctl.out") ||
    bd_fail "the controller's viewer never synced: $(cat "$E2E_SCRATCH/ctl.out")"
grep -q '^synced 1440x900$' "$E2E_SCRATCH/ctl.out" || bd_fail "resized by the agent-held door: $(cat "$E2E_SCRATCH/ctl.out")"

e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json epoch)" = 0 ] || bd_fail "a fresh lease: $OUT"
e2e_bd "$U" "$ST" take --reason "2FA prompt" --json
e2e_expect_rc 0 "take"
[ "$(e2e_json holder)" = human ] && [ "$(e2e_json epoch)" = 1 ] && [ "$(e2e_json reason)" = "2FA prompt" ] ||
    bd_fail "take: $OUT"
[ "$(stat -c '%a' "$P/lease")" = 600 ] || bd_fail "the lease is not private"
e2e_bd "$U" "$ST" take --json
[ "$(e2e_json epoch)" = 1 ] || bd_fail "a repeated take bumped the epoch: $OUT"

echo go >"$FIFO"
wait "$viewer" || bd_fail "the controller's viewer failed: $(cat "$E2E_SCRATCH/ctl.out")"
grep -q '^synced 1024x768$' "$E2E_SCRATCH/ctl.out" || bd_fail "the human could not resize: $(cat "$E2E_SCRATCH/ctl.out")"
gate_wait_line '^motion 222 222$'
gate_wait_line '^key 0x62 '
gate_wait_line '^root 1024 768$'
gate_never '^motion 111 111$' "the controller's pointer while the agent held the lease"
gate_never '^key 0x61 ' "the controller's key while the agent held the lease"

# Every agent-side action exits 4 while the human holds the desktop; status says so.
for action in "env" "exec -- true" "thumbnail --output $E2E_SCRATCH/out-$U/t.png"; do
    # shellcheck disable=SC2086
    e2e_bd "$U" "$ST" $action
    e2e_expect_rc 4 "$action while a human holds the desktop"
    [[ $ERR == *"a human holds the desktop of profile 'default'"*"2FA prompt"*"botdesk release"* ]] ||
        bd_fail "$action: the message: $ERR"
done
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json controller)" = human ] && [ "$(e2e_json stop_in_seconds)" = null ] ||
    bd_fail "status while a human holds it: $OUT"

# Hand-back: release returns with the screen at its configured size, so the agent's very next
# action sees 1440x900.
e2e_bd "$U" "$ST" release --json
e2e_expect_rc 0 "release"
[ "$(e2e_json holder)" = agent ] && [ "$(e2e_json epoch)" = 2 ] || bd_fail "release: $OUT"
e2e_bd "$U" "$ST" exec -- xdpyinfo
e2e_expect_rc 0 "exec after release"
grep -q "dimensions: *1440x900 pixels" <<<"$OUT" || bd_fail "release did not restore 1440x900: $(grep dimensions <<<"$OUT")"
gate_wait_line '^root 1440 900$'
e2e_bd "$U" "$ST" release --json
[ "$(e2e_json epoch)" = 2 ] || bd_fail "a release while the agent holds it bumped the epoch: $OUT"

# Agent again: the controller's door is a watcher's door.
gate_rfb_ok "$P/rfb.sock" ptr:333,333 size:800x600 sync
[ "$(tail -n1 <<<"$OUT")" = "synced 1440x900" ] || bd_fail "resized after release: $OUT"
e2e_bd "$U" "$ST" take
gate_rfb_ok "$P/rfb.sock" ptr:444,444 sync
gate_wait_line '^motion 444 444$'
gate_never '^motion 333 333$' "the controller's pointer after the hand-back"
e2e_bd "$U" "$ST" release
e2e_expect_rc 0 "release"

# A corrupt lease is the human's: agent actions stop, the controller's input passes; the next
# write repairs it.
printf 'holder=agent\nepoch=2\n' >"$P/lease.tmp"
chown "$U:" "$P/lease.tmp"
mv "$P/lease.tmp" "$P/lease"
for action in "env" "exec -- true"; do
    # shellcheck disable=SC2086
    e2e_bd "$U" "$ST" $action
    e2e_expect_rc 4 "$action with a corrupt lease"
    [[ $ERR == *"cannot be read"*"botdesk release"* ]] || bd_fail "$action: the message: $ERR"
done
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = human ] && [ "$(e2e_json readable)" = false ] || bd_fail "lease: $OUT"
gate_rfb_ok "$P/rfb.sock" ptr:555,555 sync
gate_wait_line '^motion 555 555$'
e2e_bd "$U" "$ST" release --json
e2e_expect_rc 0 "release of a corrupt lease"
[ "$(e2e_json readable)" = true ] && [ "$(e2e_json holder)" = agent ] || bd_fail "not repaired: $OUT"
e2e_bd "$U" "$ST" exec -- true
e2e_expect_rc 0 "exec after the repair"

# stop hands the lease back: the next desktop is the agent's.
e2e_bd "$U" "$ST" take
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop while a human holds it"
e2e_bd "$U" "$ST" lease --json
[ "$(e2e_json holder)" = agent ] || bd_fail "stop kept the human's lease: $OUT"
echo "ok: the controller's input follows the lease, and hand-back restores the screen"
