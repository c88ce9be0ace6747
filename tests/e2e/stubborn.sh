#!/usr/bin/env bash
# stop when part of the desktop ignores TERM and has left the launcher's process group, out of
# reach of the runner's signals: the session KILLs it after its grace, and its whole teardown
# (the KILL, the reaping, removing the claim) ends inside the runner's own grace, so no process,
# X lock or X socket is left.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user_a

# An xfwm4 (both desktops run it) first on PATH that leaves behind a TERM-ignoring daemon in a
# session of its own, then becomes the real one.
real=$(command -v xfwm4)
wrap=$E2E_SCRATCH/wrap
mkdir -p "$wrap"
cat >"$wrap/xfwm4" <<WRAP
#!/bin/sh
trap '' TERM
setsid sh -c 'echo \$\$ >"\$0.tmp" && mv "\$0.tmp" "\$0"; exec sleep 300' "$OUTD/stubborn.pid" </dev/null >/dev/null 2>&1 &
trap - TERM
exec "$real" "\$@"
WRAP
chmod 0755 "$wrap" "$wrap/xfwm4"

BD_PATH=$wrap:/usr/local/bin:/usr/bin:/bin e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start"
launcher=$(e2e_json pid)
[[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
n=${BASH_REMATCH[1]}
sock=$(e2e_json socket)
for _ in $(seq 100); do
    [ -s "$OUTD/stubborn.pid" ] && break
    sleep 0.05
done
stubborn=$(<"$OUTD/stubborn.pid") || bd_fail "the wrapper's daemon never started"
bd_gone "$stubborn" && bd_fail "the wrapper's daemon is not running"
pgid=$(ps -o pgid= -p "$stubborn" | tr -d ' ')
[ "$pgid" != "$launcher" ] || bd_fail "the daemon is still in the launcher's process group"
# SigIgn is a hex mask; TERM is signal 15, bit 14.
ign=$(awk '/^SigIgn:/ { print $2 }' "/proc/$stubborn/status")
(((16#$ign >> 14) & 1)) || bd_fail "the daemon does not ignore TERM (SigIgn $ign)"
pids=$(e2e_desktop_pids "$launcher")

e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
left=$(for x in $pids $stubborn; do bd_gone "$x" || echo "$x $(tr '\0' ' ' <"/proc/$x/cmdline")"; done)
[ -z "$left" ] || bd_fail "still running after stop: $left"
[ ! -e "/tmp/.X$n-lock" ] || bd_fail "/tmp/.X$n-lock is left"
[ ! -e "/tmp/.X11-unix/X$n" ] || bd_fail "/tmp/.X11-unix/X$n is left"
[ ! -e "$sock" ] || bd_fail "the RFB socket is left"
! grep -q "@/tmp/.X11-unix/X$n\$" /proc/net/unix || bd_fail "@/tmp/.X11-unix/X$n is still bound"
e2e_bd "$U" "$ST" status --json
[ "$(e2e_json running)" = false ] || bd_fail "running after stop: $OUT"
echo "ok: a TERM-ignoring daemon outside the process group was KILLed and :$n released in time"
