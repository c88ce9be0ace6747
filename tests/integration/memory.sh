#!/usr/bin/env bash
# Invariant 8, the memory gate (before a spawn, never against a running desktop): available is
# the tighter of MemAvailable and the cgroup's limit minus its working set (usage minus
# inactive_file; v2 "max" and v1's huge value mean no limit). Below the floor: refuse with the
# exact message, spawning nothing; below floor + floor/3: start with a warning; unknown memory
# never blocks; exactly the floor is enough; a floor of 0 turns the gate off.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_MIN_FREE_MB=1536
MiB=1048576

refused() { # AVAILABLE LIMIT FLOOR WHAT
    local spawns
    spawns=$(it_spawns)
    it_bd --profile gate start
    it_expect_rc 1 "$4: start"
    it_expect_in "$ERR" "botdesk: Not enough free memory for a desktop: $1 MB available of $2 MB, $3 MB needed" "$4: the refusal"
    it_expect_eq "$(it_spawns)" "$spawns" "$4: a refused start spawns nothing"
    it_status --profile gate
    it_expect_eq "$J_blocker" "Not enough free memory for a desktop: $1 MB available of $2 MB, $3 MB needed" "$4: status --json blocker"
    it_expect_eq "$J_memory_available_mb" "$1" "$4: status --json memory_available_mb"
    it_expect_eq "$J_memory_limit_mb" "$2" "$4: status --json memory_limit_mb"
}

started() { # WHAT: starts, checks, stops; leaves the start's stderr in START_ERR
    it_bd --profile gate start
    it_expect_rc 0 "$1: start"
    START_ERR=$ERR
    it_status --profile gate
    it_expect_eq "$J_running" true "$1: running"
    it_expect_eq "$J_blocker" null "$1: a running desktop has no blocker"
    it_bd --profile gate stop
    it_expect_rc 0 "$1: stop"
}

quiet() {
    started "$1"
    it_expect_not_in "$START_ERR" "MB available" "$1: no headroom warning"
}

warned() { # AVAILABLE WHAT
    started "$2"
    it_expect_in "$START_ERR" "$1 MB available" "$2: the headroom warning"
}

it_meminfo 8192 1000
refused 1000 8192 1536 "below the floor"
it_meminfo 8192 1535
refused 1535 8192 1536 "one below the floor"
it_meminfo 8192 1536
warned 1536 "exactly the floor is enough"
it_meminfo 8192 1800
warned 1800 "tight (floor..floor+floor/3)"
it_meminfo 8192 2047
warned 2047 "one below floor+floor/3"
it_meminfo 8192 2048
quiet "floor+floor/3 is comfortable"
it_meminfo 8192 7000
quiet "comfortable"

# Another floor: the message and the threshold follow it.
it_meminfo 8192 2000
BOTDESK_MIN_FREE_MB=3000 refused 2000 8192 3000 "a floor of 3000"

# A floor of 0 never blocks, nor warns.
it_meminfo 8192 10
BOTDESK_MIN_FREE_MB=0 quiet "a floor of 0"

# Unknown memory never blocks: no file, an unreadable one, one without the numbers.
BOTDESK_MEMINFO=$S/no-meminfo quiet "no meminfo"
printf 'MemTotal: 8388608 kB\nMemAvailable: 100 kB\n' >"$S/meminfo-locked"
chmod 000 "$S/meminfo-locked"
it_own "$S/meminfo-locked"
BOTDESK_MEMINFO=$S/meminfo-locked quiet "unreadable meminfo"
printf 'MemTotal: 8388608 kB\nMemFree: 100 kB\n' >"$S/meminfo-partial"
it_own "$S/meminfo-partial"
BOTDESK_MEMINFO=$S/meminfo-partial quiet "meminfo without MemAvailable"
printf 'MemTotal: 8388608 kB\nMemAvailable: lots kB\n' >"$S/meminfo-junk"
it_own "$S/meminfo-junk"
BOTDESK_MEMINFO=$S/meminfo-junk quiet "meminfo with junk for a number"

# cgroup v2 tighter than the host: limit - (current - inactive_file), not limit - current.
it_meminfo 8192 7000
cg2=$S/cg2
mkdir -p "$cg2"
echo $((2048 * MiB)) >"$cg2/memory.max"
echo $((1536 * MiB)) >"$cg2/memory.current"
printf 'anon 1000\nfile 2000\nactive_file 123\ninactive_file %d\nshmem 0\n' $((256 * MiB)) >"$cg2/memory.stat"
it_own "$cg2"
BOTDESK_CGROUP_ROOT=$cg2 refused 768 2048 1536 "cgroup v2 limit minus working set"

# Page cache is headroom: with more of it inactive, the same cgroup is comfortable.
printf 'inactive_file %d\n' $((1536 * MiB)) >"$cg2/memory.stat"
BOTDESK_CGROUP_ROOT=$cg2 quiet "cgroup v2 whose usage is inactive page cache"

# v2 "max": no limit, the host's numbers.
echo max >"$cg2/memory.max"
it_meminfo 8192 1000
BOTDESK_CGROUP_ROOT=$cg2 refused 1000 8192 1536 "cgroup v2 without a limit"

# The host tighter than the cgroup: the host wins.
echo $((16384 * MiB)) >"$cg2/memory.max"
echo $((1024 * MiB)) >"$cg2/memory.current"
BOTDESK_CGROUP_ROOT=$cg2 refused 1000 16384 1536 "the host tighter than the cgroup"

# cgroup v1 with a limit: total_inactive_file is the page cache.
cg1=$S/cg1
mkdir -p "$cg1/memory"
echo $((2048 * MiB)) >"$cg1/memory/memory.limit_in_bytes"
echo $((1536 * MiB)) >"$cg1/memory/memory.usage_in_bytes"
printf 'cache 1\ninactive_file 2\ntotal_cache 3\ntotal_inactive_file %d\n' $((256 * MiB)) >"$cg1/memory/memory.stat"
it_own "$cg1"
it_meminfo 8192 7000
BOTDESK_CGROUP_ROOT=$cg1 refused 768 2048 1536 "cgroup v1 limit minus working set"

# v1's "unlimited" (a page-aligned value near 2^63): the host's numbers.
echo 9223372036854771712 >"$cg1/memory/memory.limit_in_bytes"
it_meminfo 8192 1000
BOTDESK_CGROUP_ROOT=$cg1 refused 1000 8192 1536 "cgroup v1 unlimited"
it_meminfo 8192 7000
BOTDESK_CGROUP_ROOT=$cg1 quiet "cgroup v1 unlimited, comfortable host"

# A running desktop is never refused for the memory it uses, nor reported blocked.
it_meminfo 8192 7000
it_start
pid=$J_pid
spawns=$(it_spawns)
it_meminfo 8192 100
it_start
it_expect_eq "$J_pid" "$pid" "a start of a running desktop under pressure reports it"
it_expect_eq "$(it_spawns)" "$spawns" "and spawns nothing"
it_expect_eq "$J_blocker" null "a running desktop has no blocker"
it_expect_eq "$J_memory_available_mb" 100 "status still reports the memory"
it_bd stop
it_expect_rc 0 "stop"
it_status
it_expect_in "$J_blocker" "Not enough free memory" "once stopped, the pressure blocks a new start"
echo "PASS"
