#!/usr/bin/env bash
# The session's wait for the window manager does not sleep on the X socket while the event it
# waits for is already in Xlib's queue (one start of a hundred hung 106 s so): wmwait makes a
# check's round trip read the event into the queue and fails if the wait then polls. It runs on a
# real desktop, as the test user, through botdesk exec.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user_a

e2e_bd "$U" "$ST" start --json
e2e_expect_rc 0 "start"
e2e_bd "$U" "$ST" exec -- "$BD_BUILDDIR/tests/e2e/wmwait"
e2e_expect_rc 0 "wmwait"
[ "$OUT" = ok ] || bd_fail "wmwait printed '$OUT' ($ERR)"
e2e_bd "$U" "$ST" stop
e2e_expect_rc 0 "stop"
echo "ok: the wait for the window manager looks at Xlib's queue before the socket"
