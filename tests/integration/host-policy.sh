#!/usr/bin/env bash
# Issue 12, host policy: /etc/botdesk/policy.conf bounds each user's own settings (the display
# band, desktops per user, the memory floor, the largest geometry); a file anyone but root could
# have written is ignored with a warning; a full band says truthfully what holds each number; the
# per-user cap has its own message. Runs in a private mount namespace with /etc overlaid, so the
# host's /etc is never touched.
source "$BD_SRCDIR/tests/integration/common.sh"
it_private_etc "$@"
it_init
it_fake_desktop 40-49

# Every policy here lets the scratch world's test settings (fake launcher, meminfo, lock places)
# through: host-policy-users.sh shows what a policy without that line does to them.
policy() { # TEXT [MODE] [OWNER]
    printf '%s\nhonour_test_settings = yes\n' "$1" >"$POLICY"
    chmod "${2:-0644}" "$POLICY"
    chown "${3:-root}:root" "$POLICY"
}

stop_all() {
    local p
    for p in "$@"; do
        it_bd --profile "$p" stop
    done
}

# The band: the user's 40-49 narrowed to the host's 42-43; doctor prints the policy in force.
policy 'display_band = 42-43'
it_bd doctor
it_expect_in "$OUT" "host policy        $POLICY" "doctor names the policy file"
it_expect_in "$OUT" "band 42-43, 8 desktops per user" "doctor prints the policy in force"
it_expect_in "$OUT" "yours: band 42-43" "and the user's settings under it"
it_start --profile a
it_expect_eq "$J_display" ":42" "the first number of the host's band"
# Another user's empty lock file on 43: not a running X server, and the message says so.
UB=$(bd_test_user "$BD_USER_B")
: >"$BOTDESK_X_LOCK_DIR/.X43-lock"
chown "$UB:" "$BOTDESK_X_LOCK_DIR/.X43-lock"
it_bd --profile b start
it_expect_rc 1 "a full band"
it_expect_in "$ERR" "no free X display number in the band 42-43: 1 held by running X servers, 0 by bound X sockets, 1 by lock or socket files other users' servers left behind" \
    "the full band's numbers each for what holds them"
it_expect_in "$ERR" "inside the host's band" "the way out stays inside the host's band"
rm -f "$BOTDESK_X_LOCK_DIR/.X43-lock"
# A band set by the user entirely outside the host's: refused, naming both.
BOTDESK_DISPLAY_BAND=60-69 it_bd --profile b start
it_expect_rc 1 "a band outside the host's"
it_expect_in "$ERR" "your display band 60-69" "the user's band named"
it_expect_in "$ERR" "the host's band 42-43, set in $POLICY" "the host's band and file named"
stop_all a

# Desktops per user: the policy's cap, with its own message; nothing spawned beyond it.
policy 'max_desktops_per_user = 2'
it_start --profile a
it_start --profile b
spawns=$(it_spawns)
it_bd --profile c start
it_expect_rc 1 "a third desktop over a cap of 2"
it_expect_in "$ERR" "you already run 2 botdesk desktops on this host, and one user may run 2 (max_desktops_per_user in $POLICY)" "the cap's own message"
it_expect_eq "$(it_spawns)" "$spawns" "nothing spawned over the cap"
stop_all a b

# Without a policy file the default cap is 8.
rm -f "$POLICY"
for p in p1 p2 p3 p4 p5 p6 p7 p8; do
    it_start --profile "$p"
done
it_bd --profile p9 start
it_expect_rc 1 "a ninth desktop with no policy"
it_expect_in "$ERR" "one user may run 8 (the default; an administrator may change it in $POLICY)" "the default cap"
stop_all p1 p2 p3 p4 p5 p6 p7 p8

# The memory floor: a user may raise it, never lower it.
policy 'min_free_mb = 5000'
it_meminfo 8192 4000
BOTDESK_MIN_FREE_MB=0 it_bd --profile m start
it_expect_rc 1 "a floor of 0 under a host floor of 5000"
it_expect_in "$ERR" "4000 MB available of 8192 MB, 5000 MB needed" "the host's floor applies"
BOTDESK_MIN_FREE_MB=6000 it_bd --profile m start
it_expect_in "$ERR" "6000 MB needed" "a user may raise the floor"
it_meminfo 8192 7000
it_bd --profile m start
it_expect_rc 0 "above the host's floor"
stop_all m

# The largest geometry: the default shrinks to fit, a larger one the user asks for is refused.
policy 'max_geometry = 1024x700'
(
    unset BOTDESK_GEOMETRY
    it_status --profile g
    it_expect_eq "$J_geometry" "1024x700" "the default geometry shrunk to the host's largest"
)
BOTDESK_GEOMETRY=1440x900 it_bd --profile g start
it_expect_rc 1 "a geometry larger than the host allows"
it_expect_in "$ERR" "your geometry 1440x900" "the user's geometry named"
it_expect_in "$ERR" "1024x700, set in $POLICY" "the host's largest named"

# The admin group may list every user's desktops (found from X locks and /proc), but reads no
# private state nor another user's process memory.
groupadd bdtest-listers
usermod -aG bdtest-listers "$UB"
policy 'admin_group = bdtest-listers'
it_start --profile a
out=$(bd_as "$UB" "$BOTDESK_BIN" list --all --json)
it_expect_in "$out" "\"user\":\"$U\",\"uid\":$(id -u "$U"),\"profile\":\"a\",\"running\":true,\"pid\":$J_pid,\"display\":\"$J_display\",\"holder\":null" \
    "a member of the admin group sees another user's desktop"
it_expect_in "$out" '"memory_mb":null' "without privilege, another user's memory is unknown"
policy 'admin_group = nobody-here'
rc=0
bd_as "$UB" "$BOTDESK_BIN" list --all >/dev/null 2>"$S/out/lister.err" || rc=$?
it_expect_eq "$rc" 1 "list --all outside the admin group"
it_expect_in "$(<"$S/out/lister.err")" "membership of group nobody-here (admin_group in $POLICY)" "the group named"
stop_all a

# A policy someone else could have written is ignored, with a warning that says why and how.
policy 'max_desktops_per_user = 1' 0666
it_bd doctor
it_expect_in "$OUT" "FIX  host policy        ignoring $POLICY" "doctor flags an ignored policy"
it_start --profile a
it_expect_in "$ERR" "ignoring $POLICY: it belongs to uid 0 with mode 0666" "a world-writable policy"
it_start --profile b
it_expect_eq "$J_running" true "the ignored policy's cap does not apply"
stop_all a b
policy 'max_desktops_per_user = 1' 0644 "$UB"
it_bd --profile a status
it_expect_in "$ERR" "ignoring $POLICY: it belongs to uid $(id -u "$UB")" "a policy owned by a user"
policy 'max_desktops_per_user = 1'
chmod 0777 /etc/botdesk
it_bd --profile a status
it_expect_in "$ERR" "the directory /etc/botdesk is not root's alone" "a policy in a writable directory"
chmod 0755 /etc/botdesk
mv "$POLICY" /etc/botdesk/real.conf
ln -s real.conf "$POLICY"
it_bd --profile a status
it_expect_in "$ERR" "ignoring $POLICY: it is a symbolic link" "a symlinked policy"
rm -f "$POLICY" /etc/botdesk/real.conf

# A trusted policy that does not parse is an error naming the file and line: guessing could lift
# a limit the administrator meant.
policy $'# the host\nmax_desktops_per_user = lots'
it_bd --profile a status
it_expect_rc 1 "a malformed policy"
it_expect_in "$ERR" "$POLICY:2: max_desktops_per_user = 'lots' is not valid" "file and line named"
policy 'max_desktop = 3'
it_bd --profile a status
it_expect_in "$ERR" "$POLICY:1: unknown setting 'max_desktop'" "an unknown key named"
rm -f "$POLICY"
echo "PASS"
