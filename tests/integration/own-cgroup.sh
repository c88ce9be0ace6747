#!/usr/bin/env bash
# Issue 12, defect 2: the memory gate reads the cgroup the caller actually runs in
# (/proc/self/cgroup: the unified hierarchy and v1's memory controller) and each of its ancestors,
# not the files at the root of the hierarchy. Run in a real 300 MB and a real 40 MB cgroup: start
# is refused naming that limit and spawns nothing; status reports it; outside, the host's numbers.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_CGROUP_ROOT=/sys/fs/cgroup
export BOTDESK_MEMINFO=/proc/meminfo
export BOTDESK_MIN_FREE_MB=1536

cg=$(it_cgroup gate 300)
it_bd_in "$cg" start
it_expect_rc 1 "start in a 300 MB cgroup with a 1536 MB floor"
it_expect_in "$ERR" "MB available of 300 MB, 1536 MB needed" "the refusal names the cgroup's limit"
it_expect_eq "$(it_spawns)" 0 "a refused start spawns nothing"
it_bd_in "$cg" status --json
it_expect_rc 0 "status in the cgroup"
it_expect_eq "$(it_json memory_limit_mb)" 300 "status reports the caller's cgroup limit"

# The limit set on an ancestor binds too: the caller one level further down.
mkdir "$cg/inner"
it_bd_in "$cg/inner" status --json
it_expect_eq "$(it_json memory_limit_mb)" 300 "a limit on the parent cgroup binds its children"

# 40 MB with a floor of 100 MB: refused, not started to be OOM-killed moments later.
small=$(it_cgroup small 40)
BOTDESK_MIN_FREE_MB=100 it_bd_in "$small" start
it_expect_rc 1 "start in a 40 MB cgroup with a 100 MB floor"
it_expect_in "$ERR" "MB available of 40 MB, 100 MB needed" "the refusal names the 40 MB limit"
it_expect_eq "$(it_spawns)" 0 "nothing spawned in the 40 MB cgroup"

# Outside those cgroups the same settings see the host (a positive control).
it_status
it_expect_ne "$J_memory_limit_mb" 300 "outside the cgroup"
it_bd start
it_expect_rc 0 "start outside the small cgroups"
it_bd stop
it_expect_rc 0 "stop"
echo "PASS"
