#!/usr/bin/env bash
# Issue 22.17: the host policy against a user's own settings. Each limit was stepped around with
# a setting meant for tests: min_free_mb with a BOTDESK_MEMINFO of the user's making,
# max_geometry with a BOTDESK_LAUNCHER wrapper that rewrites the geometry, max_desktops_per_user
# with parallel starts each on its own BOTDESK_ALLOC_LOCK. Under a policy those settings are
# ignored for users, with a warning naming them, unless the policy itself (root's file) says
# honour_test_settings = yes; the allocation lock is then one per uid, whatever XDG_RUNTIME_DIR
# or HOME say. Runs in a private mount namespace with /etc overlaid, as host-policy.sh does.
source "$BD_SRCDIR/tests/integration/common.sh"
it_private_etc "$@"
it_init
it_fake_desktop 40-49

policy() {
    printf '%s\n' "$@" >"$POLICY"
    chmod 0644 "$POLICY"
}

# min_free_mb: the host cannot have a terabyte free; the user's fake meminfo says it has.
it_meminfo $((2048 * 1024)) $((2000 * 1024))
policy 'min_free_mb = 1048576'
it_bd --profile m doctor
it_expect_in "$OUT" "a desktop needs 1048576" "the host's floor"
it_expect_not_in "$OUT" "2048000 MB available" "the user's fake meminfo is not what is judged"
it_expect_in "$ERR" "ignoring BOTDESK_LAUNCHER, BOTDESK_MEMINFO, BOTDESK_CGROUP_ROOT, BOTDESK_ALLOC_LOCK, BOTDESK_X_LOCK_DIR, BOTDESK_X_UNIX_TABLE: settings for tests only, which the host's policy ($POLICY) does not honour for users" \
    "the warning names what was ignored and why"
it_bd --profile m start
it_expect_rc 1 "a start whose launcher setting is ignored (no botdesk-session installed here)"
it_expect_eq "$(it_spawns)" 0 "the user's launcher never ran"
# The same in botdesk.conf.
mkdir -p "$S/config/botdesk"
echo "meminfo = $S/meminfo" >"$S/config/botdesk/botdesk.conf"
it_own "$S/config"
(
    unset BOTDESK_MEMINFO
    it_bd --profile m doctor
    it_expect_in "$ERR" "ignoring BOTDESK_LAUNCHER, meminfo," "a key of botdesk.conf is named as such"
    it_expect_not_in "$OUT" "2048000 MB available" "and ignored too"
)
rm -f "$S/config/botdesk/botdesk.conf"

# max_geometry: a wrapper launcher that would start the desktop larger never runs.
policy 'max_geometry = 800x600'
wrapper=$(it_fake wrap <<'FAKE'
BOTDESK_GEOMETRY=4000x3000 exec "$BD_SRCDIR/tests/integration/fake-lib.sh" "$@"
FAKE
)
BOTDESK_LAUNCHER=$wrapper it_bd --profile g start
it_expect_in "$ERR" "ignoring BOTDESK_LAUNCHER" "the wrapper launcher is ignored"
it_expect_eq "$(it_spawns)" 0 "the wrapper never ran"

# max_desktops_per_user: the allocation lock is one per uid, not the user's choice.
policy 'max_desktops_per_user = 1'
(
    unset BOTDESK_LAUNCHER BOTDESK_MEMINFO BOTDESK_CGROUP_ROOT BOTDESK_X_LOCK_DIR BOTDESK_X_UNIX_TABLE
    mkdir -p "$S/rt-a"
    chmod 0700 "$S/rt-a"
    it_own "$S/rt-a"
    it_run env XDG_RUNTIME_DIR="$S/rt-a" BOTDESK_ALLOC_LOCK="$S/own.lock" "$BOTDESK_BIN" doctor
    it_expect_in "$ERR" "ignoring BOTDESK_ALLOC_LOCK: settings for tests only" "the user's own lock is ignored"
    [ ! -e "$S/own.lock" ] && [ ! -e "$S/rt-a/botdesk-alloc.lock" ] || bd_fail "a lock of the user's choosing was made"
)

# The administrator may let them through (this suite's own policies do).
policy 'min_free_mb = 1000' 'honour_test_settings = yes'
it_meminfo 8192 6000
it_start --profile h
it_expect_not_in "$ERR" "ignoring" "honour_test_settings = yes: nothing ignored"
it_bd --profile h stop
policy 'honour_test_settings = maybe'
it_bd --profile h status
it_expect_rc 1 "a malformed honour_test_settings"
it_expect_in "$ERR" "$POLICY:1: honour_test_settings = 'maybe' is not valid" "file and line named"
# Without a policy, the test settings work as before.
rm -f "$POLICY"
it_start --profile n
it_expect_not_in "$ERR" "ignoring" "no policy: nothing ignored"
it_bd --profile n stop
echo "PASS"
