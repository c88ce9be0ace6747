#!/usr/bin/env bash
# Many desktops at once, reduced (issue 29): bench-hundred --check starts 20 desktops across four
# users (two of them made for the run and removed after) at once under a host policy of its own
# (a private mount namespace: the host's /etc is untouched), then runs actions on random ones,
# `list --all`, and stops them all. It passes only when every desktop was usable (start returned,
# exec xdpyinfo worked), every action and stop succeeded, and nothing was left: no process of a
# desktop, no socket, no X lock. Nothing is timed. Root only (it acts as several users).
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
bd_is_root || bd_skip "needs root: it creates bench users and a private mount namespace"
e2e_need_desktop
command -v unshare >/dev/null && command -v useradd >/dev/null || bd_skip "no unshare or useradd"
BOTDESK_LAUNCHER=$BD_SESSION_BIN "$E2E_PY" "$BD_SRCDIR/bench/runner/bench-hundred" --check \
    --desktops "${BD_HUNDRED_DESKTOPS:-20}" --actions 60 --botdesk "$BOTDESK_BIN" ||
    bd_fail "bench-hundred --check failed (its output is above)"
echo "ok: ${BD_HUNDRED_DESKTOPS:-20} desktops of four users usable at once, nothing left after"
