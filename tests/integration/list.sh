#!/usr/bin/env bash
# Issue 12: `botdesk list [--json]` (every profile of the caller with a state directory: running,
# display, holder, idle, memory, uptime), `list --all` (root or the policy's admin group: every
# desktop on the host, from X locks and /proc) and `stop --user U --profile P` (root).
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
it_fake_desktop 40-49

# list_json_get PROFILE KEY: a key of one profile's entry in the JSON in $OUT.
list_get() {
    "$IT_PYTHON" -c '
import json, sys
d = [e for e in json.loads(sys.argv[1])["desktops"] if e["profile"] == sys.argv[2]]
v = d[0][sys.argv[3]] if d else "absent"
print(v if isinstance(v, str) else json.dumps(v))' "$OUT" "$1" "$2"
}

it_bd list
it_expect_rc 0 "list with no state at all"
it_expect_in "$OUT" "no profiles yet" "an empty list says so"

it_start --profile a
pid_a=$J_pid
it_start --profile b
pid_b=$J_pid
it_start --profile c
it_bd --profile c stop
# Not profiles: a hidden directory, a symlink, a file.
mkdir -p "$BOTDESK_STATE_DIR/.hidden"
ln -s "$BOTDESK_STATE_DIR/a" "$BOTDESK_STATE_DIR/link"
: >"$BOTDESK_STATE_DIR/file"
it_own "$BOTDESK_STATE_DIR"

it_bd list --json
it_expect_rc 0 "list --json"
it_expect_eq "$("$IT_PYTHON" -c 'import json,sys; print(" ".join(e["profile"] for e in json.loads(sys.argv[1])["desktops"]))' "$OUT")" "a b c" \
    "every profile with a state directory, in order, and nothing else"
it_expect_eq "$(list_get a running)" true "a runs"
it_expect_eq "$(list_get a pid)" "$pid_a" "a's launcher"
it_expect_eq "$(list_get a display)" ":40" "a's display"
it_expect_eq "$(list_get b display)" ":41" "b's display"
it_expect_eq "$(list_get a holder)" agent "no lease: the agent holds it"
[[ $(list_get a idle_seconds) =~ ^[0-9]+$ ]] || bd_fail "a's idle seconds: $OUT"
[[ $(list_get a uptime_seconds) =~ ^[0-9]+$ ]] || bd_fail "a's uptime: $OUT"
[[ $(list_get a memory_mb) =~ ^[0-9]+$ ]] && [ "$(list_get a memory_mb)" -gt 0 ] ||
    bd_fail "a's memory (PSS of its processes): $OUT"
it_expect_eq "$(list_get c running)" false "c is stopped"
it_expect_eq "$(list_get c display)" null "a stopped profile has no display"
it_expect_eq "$(list_get c memory_mb)" null "nor memory"

# The session's published PSS figure (fresh) is what list shows, without walking page tables;
# a stale one (its session stopped renewing it) is not.
printf 'pss_kb=123456\n' >"$BOTDESK_STATE_DIR/a/memory"
it_own "$BOTDESK_STATE_DIR/a/memory"
it_bd list --json
it_expect_eq "$(list_get a memory_mb)" 120 "the session's fresh figure"
touch -d '-2 minutes' "$BOTDESK_STATE_DIR/a/memory"
it_bd list --json
it_expect_ne "$(list_get a memory_mb)" 120 "a stale figure is measured again"
[ "$(list_get a memory_mb)" -gt 0 ] || bd_fail "a's memory measured: $OUT"

# The holder, from the lease file: its holder line; anything unreadable is a human's.
printf 'holder=human\nepoch=3\nsince=1700000000\nreason=took over\n' >"$BOTDESK_STATE_DIR/a/lease"
printf 'garbage\n' >"$BOTDESK_STATE_DIR/b/lease"
it_own "$BOTDESK_STATE_DIR"
it_bd list --json
it_expect_eq "$(list_get a holder)" human "a lease held by a human"
it_expect_eq "$(list_get b holder)" human "a lease that cannot be parsed counts as a human's"
printf 'holder=agent\nepoch=4\nsince=1700000000\nreason=\n' >"$BOTDESK_STATE_DIR/a/lease"
it_bd list
it_expect_rc 0 "list as text"
it_expect_in "$OUT" "PROFILE" "a header"
it_expect_in "$(grep '^a ' <<<"$OUT")" ":40" "a's line shows its display"
it_expect_in "$(grep '^a ' <<<"$OUT")" "agent" "and its holder"

# --all: not for an ordinary user.
it_bd list --all
it_expect_rc 1 "list --all as an ordinary user"
it_expect_in "$ERR" "it takes root, or membership of the group an administrator names as admin_group" "who may, and where that is set"

if bd_is_root; then
    # Root sees every user's desktops, from the X locks and /proc.
    OUT=$("$BOTDESK_BIN" list --all --json)
    it_expect_eq "$(list_get a user)" "$U" "a's user"
    it_expect_eq "$(list_get a pid)" "$pid_a" "a's launcher, found from its server's session"
    it_expect_eq "$(list_get b display)" ":41" "b's display"
    it_expect_eq "$(list_get a holder)" null "the holder is in private state, which --all does not read"
    # The private RSS (statm) of the fake's small processes: readable, a number, maybe 0 MiB.
    [[ $(list_get a memory_mb) =~ ^[0-9]+$ ]] || bd_fail "root reads a's memory: $OUT"
    [[ $(list_get a idle_seconds) =~ ^[0-9]+$ ]] || bd_fail "a's idle seconds from its X lock: $OUT"
    it_expect_eq "$(list_get c profile)" absent "a stopped profile is not a desktop"

    # root stops another user's desktop by user and profile.
    server_a=$(tr -d ' \n' <"$BOTDESK_X_LOCK_DIR/.X40-lock")
    RC=0
    "$BOTDESK_BIN" stop --user "$U" --profile a >"$S/out/last.out" 2>"$S/out/last.err" || RC=$?
    OUT=$(<"$S/out/last.out") ERR=$(<"$S/out/last.err")
    it_expect_rc 0 "stop --user"
    it_expect_in "$OUT" "stopped the desktop of profile 'a' of user $U" "what was stopped"
    it_expect_gone "$pid_a" "a's launcher after stop --user"
    it_expect_gone "$server_a" "a's server after stop --user"
    it_expect_alive "$pid_b" "b is another profile"
    RC=0
    "$BOTDESK_BIN" stop --user "$U" --profile a >/dev/null 2>&1 || RC=$?
    it_expect_rc 3 "stop --user with nothing of that profile left"
fi
it_bd stop --user root --profile b
it_expect_rc 1 "stop --user as an ordinary user"
it_expect_in "$ERR" "it takes root" "stop --user names what it takes"
it_expect_alive "$pid_b" "b after a refused stop --user"
it_bd --profile b stop
it_expect_rc 0 "stop b"
echo "PASS"
