#!/usr/bin/env bash
# Issue 12, defect 1 on the real desktop: `start; rm -rf <state>/c5` used to leave its 11
# processes, ~250 MB and a display number for ever. stop now ends every one of them, and a start
# ends the lost desktop before it brings up the new one.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST
export BOTDESK_DISPLAY_BAND=80-84

start_c5() {
    e2e_bd "$U" "$ST" --profile c5 start --json
    e2e_expect_rc 0 "start c5"
    LAUNCHER=$(e2e_json pid)
    [[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
    N=${BASH_REMATCH[1]}
    PIDS=$(e2e_desktop_pids "$LAUNCHER")
    [ "$(wc -w <<<"$PIDS")" -ge 5 ] || bd_fail "too few processes in the desktop: $PIDS"
}

all_gone() {
    local left="" p
    for p in $PIDS; do
        bd_wait_gone "$p" 10 || left+="$p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null); "
    done
    [ -z "$left" ] || bd_fail "$1: left running: $left"
}

# The user's rm -rf of a live desktop's directory: the desktop may write a file into it (its log,
# a stamp) while rm walks it, which fails rm with "Directory not empty"; a user runs it again.
lose_state() {
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        rm -rf "$ST/c5" 2>/dev/null && return 0
    done
    rm -rf "$ST/c5" || bd_fail "the state directory could not be removed"
}

start_c5
lose_state
e2e_bd "$U" "$ST" --profile c5 stop
e2e_expect_rc 0 "stop after the state directory was removed"
all_gone "stop of the lost desktop"
[ ! -e "/tmp/.X$N-lock" ] || bd_fail "the lost desktop's X lock is left"
[ ! -e "/tmp/.X11-unix/X$N" ] || bd_fail "the lost desktop's X socket is left"

start_c5
old=$PIDS
lose_state
start_c5
new=$PIDS
PIDS=$old
all_gone "start after the state directory was removed"
e2e_bd "$U" "$ST" --profile c5 exec -- xdpyinfo
e2e_expect_rc 0 "the new desktop works"
PIDS=$new
e2e_bd "$U" "$ST" --profile c5 stop
e2e_expect_rc 0 "stop of the new desktop"
all_gone "stop of the new desktop"
echo "ok: a desktop whose state directory was removed is found and ended by stop and by start"
