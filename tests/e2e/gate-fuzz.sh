#!/usr/bin/env bash
# The gate's differential fuzz against a real Xvnc (tests/e2e/rfbfuzz.py): mutated RFB client
# streams through both doors, with a human holding the desktop so that the controller's input
# and SetDesktopSize reach Xvnc; after every stream Xvnc and the gate are alive and answer.
# Bounded: BD_FUZZ_SECONDS (60 by default); BD_FUZZ_SEED replays a run.
source "$BD_SRCDIR/tests/e2e/gate-lib.sh"
gate_open
gate_processes
# The recorder grabs the pointer and keyboard: the fuzz's keys and moves reach it, never a
# shortcut of the window manager or the panel.
gate_record default
e2e_bd "$U" "$ST" take --reason "gate-fuzz"
e2e_expect_rc 0 "take"
seed=${BD_FUZZ_SEED:-$(date +%s)}
rc=0
bd_as "$U" "$E2E_PY" "$BD_SRCDIR/tests/e2e/rfbfuzz.py" --rfb "$P/rfb.sock" --view "$P/view.sock" \
    --xvnc "$XVNC" --gate "$GATE" --seconds "${BD_FUZZ_SECONDS:-60}" --seed "$seed" \
    >"$E2E_SCRATCH/fuzz.out" 2>"$E2E_SCRATCH/fuzz.err" || rc=$?
cat "$E2E_SCRATCH/fuzz.out"
[ "$rc" = 0 ] || bd_fail "$(cat "$E2E_SCRATCH/fuzz.err"); the log: $(tail -20 "$P/launcher.log")"
grep -q '^streams [1-9]' "$E2E_SCRATCH/fuzz.out" || bd_fail "the fuzzer sent no stream"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: 0 crashes"
