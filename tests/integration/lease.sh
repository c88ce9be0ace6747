#!/usr/bin/env bash
# The control lease through the real botdesk against a fake launcher: take, release and lease
# (epochs count real transitions only, reasons are one line, the files are private even when
# written before any desktop, a planted symlink is neither followed nor trusted); exit 4 from
# env, exec and thumbnail while a human holds the desktop, with nothing run; release waits for
# the desktop's confirmation (bounded) and says so when none comes; status names the holder;
# stop hands the lease back.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init

# Before any desktop: the agent's, and a take writes private files in a private directory.
it_bd lease --json
it_expect_rc 0 "lease with no state"
it_expect_in "$OUT" '"holder":"agent"' "no lease file is the agent's"
it_expect_in "$OUT" '"epoch":0' "no lease file: epoch 0"
it_bd take --reason "log in"
it_expect_rc 0 "take before any desktop"
it_expect_eq "$(stat -c %a "$P")" 700 "the state directory"
it_expect_eq "$(stat -c %a "$P/lease")" 600 "the lease"
it_expect_eq "$(stat -c %a "$P/lease.lock")" 600 "the lease lock"
it_bd take --reason $'two\nlines'
it_expect_rc 2 "a reason of two lines"
it_bd release --json
it_expect_in "$OUT" '"epoch":2' "release after take"
it_bd release --json
it_expect_in "$OUT" '"epoch":2' "a release while the agent holds it"

# A running desktop whose session confirms every lease it sees at once.
export BOTDESK_LAUNCHER=$(it_fake up <<<'printf "999\n" >"$(dirname "$BOTDESK_SOCKET")/lease.applied"; fake_xlock; fake_xserver; fake_publish; fake_hold')
cat >"$S/bin/thumbnailer" <<EOF2
#!/bin/sh
: >"$S/marks/thumbnailer-ran"
EOF2
chmod 0755 "$S/bin/thumbnailer"
export BOTDESK_THUMBNAILER=$S/bin/thumbnailer
it_start
it_expect_eq "$J_controller" agent "status: controller"
it_bd take --json
it_expect_rc 0 "take"
it_expect_in "$OUT" '"holder":"human"' "take"
it_expect_in "$OUT" '"epoch":3' "take counts"
it_bd take --reason other --json
it_expect_in "$OUT" '"epoch":3' "a repeated take"
it_status
it_expect_eq "$J_controller" human "status while a human holds it"
it_expect_eq "$J_stop_in_seconds" null "no idle stop is due while a human holds it"
it_bd env
it_expect_rc 4 "env while a human holds the desktop"
it_expect_in "$ERR" "a human holds the desktop of profile 'default'" "the exit-4 message"
it_bd exec -- touch "$S/marks/exec-ran"
it_expect_rc 4 "exec while a human holds the desktop"
it_expect_absent "$S/marks/exec-ran" "exec ran nothing"
it_bd thumbnail --output "$S/out/t.png"
it_expect_rc 4 "thumbnail while a human holds the desktop"
it_expect_absent "$S/marks/thumbnailer-ran" "thumbnail grabbed nothing"
it_bd release
it_expect_rc 0 "release with a confirming desktop"
it_expect_eq "$ERR" "" "release says nothing more when the desktop confirms"
it_bd exec -- touch "$S/marks/exec-ran"
it_expect_rc 0 "exec once the agent holds it again"

# A lease that is not a lease is the human's until a release rewrites it.
for bad in '' 'holder=agent' '{"holder":"agent"}' 'holder=agent
epoch=1
since=1
reason=
extra=1'; do
    printf '%s' "$bad" >"$P/lease"
    it_bd env
    it_expect_rc 4 "env with a lease of '$bad'"
    it_expect_in "$ERR" "cannot be read" "the corrupt lease's message"
done
ln -sf "$S/out/target" "$P/lease"
it_bd exec -- true
it_expect_rc 4 "exec with a symlinked lease"
it_bd release
it_expect_rc 0 "release repairs"
[ -f "$P/lease" ] && [ ! -L "$P/lease" ] || bd_fail "release did not replace the symlink"
it_expect_absent "$S/out/target" "the symlink's target"
it_bd env
it_expect_rc 0 "env after the repair"

# stop hands back.
it_bd take
it_bd stop
it_expect_rc 0 "stop"
it_bd lease --json
it_expect_in "$OUT" '"holder":"agent"' "stop hands the lease back"

# A desktop that never confirms: release still hands back, and says the screen may lag.
export BOTDESK_LAUNCHER=$(it_fake silent <<<'fake_up')
it_start
it_bd take
it_bd release
it_expect_rc 0 "release with a silent desktop"
it_expect_in "$ERR" "has not confirmed the hand-back" "release's warning"
it_bd lease --json
it_expect_in "$OUT" '"holder":"agent"' "handed back all the same"
echo "ok: the lease"
