#!/usr/bin/env bash
# Issue 12, per-desktop limits: where the caller has a delegated cgroup subtree, each desktop
# runs in a cgroup of its own, <delegated>/botdesk/desktop-<N>-<profile>, with the memory limit
# of max_memory_mb; exec joins it; status and list report its own usage; stop removes it. Where
# delegation is missing, start says the limit is not enforced and doctor says how to get it.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_DISPLAY_BAND=40-49
export BOTDESK_LAUNCHER=$(it_fake serving <<'FAKE'
fake_xserver
fake_up
FAKE
)
export BOTDESK_CGROUP_ROOT=/sys/fs/cgroup
export BOTDESK_MAX_MEMORY_MB=100
MiB=1048576

cg=$(it_cgroup deleg 0)
it_cgroup_delegate "$cg"
[ ! -e "$cg/tasks" ] || chown "$U:" "$cg/tasks"
if [ -e "$cg/cgroup.subtree_control" ]; then
    # The delegated cgroup hands the memory controller down only while it holds no process:
    # the user's shell lives in a child, as under a systemd user manager.
    echo +memory >"$cg/cgroup.subtree_control"
    mkdir "$cg/shell"
    chown "$U:" "$cg/shell" "$cg/shell/cgroup.procs"
    shell=$cg/shell
    max_file=memory.max
else
    shell=$cg
    max_file=memory.limit_in_bytes
fi

it_bd_in "$shell" start --json
it_expect_rc 0 "start in a delegated cgroup"
it_expect_not_in "$ERR" "not enforced" "no warning where the limit is enforced"
launcher=$(it_json pid)
desk=$cg/botdesk/desktop-40-default
[ -d "$desk" ] || bd_fail "no cgroup of its own: $(ls -R "$cg")"
it_expect_eq "$(<"$desk/$max_file")" $((100 * MiB)) "its limit is max_memory_mb"
grep -q "/botdesk/desktop-40-default\$" "/proc/$launcher/cgroup" ||
    bd_fail "the launcher is not in its own cgroup: $(cat "/proc/$launcher/cgroup")"
it_bd_in "$shell" status --json
it_expect_eq "$(it_json desktop_memory_max_mb)" 100 "status reports the desktop's own limit"
[[ $(it_json desktop_memory_mb) =~ ^[0-9]+$ ]] || bd_fail "status reports its own usage: $OUT"
it_bd_in "$shell" list --json
[[ $OUT =~ \"cgroup_memory_mb\":[0-9]+ ]] || bd_fail "list reports its own usage: $OUT"
# exec runs its program inside the desktop's cgroup: its memory counts against the limit.
it_bd_in "$shell" exec -- cat /proc/self/cgroup
it_expect_rc 0 "exec"
it_expect_in "$OUT" "/botdesk/desktop-40-default" "exec's program is in the desktop's cgroup"
it_bd_in "$shell" stop
it_expect_rc 0 "stop"
[ ! -e "$desk" ] || bd_fail "stop leaves the desktop's cgroup behind"

# A SIGKILLed desktop leaves its cgroup; the next start sweeps it.
it_bd_in "$shell" start --json
launcher=$(it_json pid)
kill -KILL -- "-$launcher"
it_wait_gone 10 "$launcher" || bd_fail "the launcher survived SIGKILL"
it_bd_in "$shell" --profile other start
it_expect_rc 0 "start of another profile"
[ ! -e "$desk" ] || bd_fail "the killed desktop's empty cgroup was not swept"
it_bd_in "$shell" --profile other stop

# Without delegation: the desktop starts, and the user learns the limit is not enforced and how
# to have it.
it_bd start
it_expect_rc 0 "start without a delegated cgroup"
it_expect_in "$ERR" "max_memory_mb = 100 is not enforced: your cgroup" "the warning says why"
it_expect_in "$ERR" "Delegate=yes" "and how"
it_bd stop
it_bd doctor
it_expect_in "$OUT" "desktop cgroups" "doctor has a line for it"
it_expect_in "$OUT" "max_memory_mb is not enforced" "doctor says the limit is not enforced"
it_bd_in "$shell" doctor
it_expect_in "$OUT" "ok   desktop cgroups    delegated: $cg" "doctor names the delegated cgroup"
echo "PASS"
