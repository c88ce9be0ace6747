#!/usr/bin/env bash
# Invariant 10 (env/exec and status): env and exec act only while the launcher is verified
# alive (exit 3 otherwise, even with a stale env file); exec runs the program with the published
# variables merged in and WAYLAND_DISPLAY removed, and stamps activity; status --json is one
# object with every key, and idle_seconds is a number while running.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_xlock; fake_xserver; fake_publish; fake_hold')

# Nothing running.
it_bd env
it_expect_rc 3 "env with no desktop"
it_expect_in "$ERR" "start" "env with no desktop says how to start one"
it_bd exec -- touch "$S/marks/ran"
it_expect_rc 3 "exec with no desktop"
it_expect_absent "$S/marks/ran" "exec with no desktop runs nothing"
it_status
for key in profile supported installed missing running pid display socket geometry \
    configured_geometry install_command blocker memory_available_mb memory_limit_mb idle_seconds; do
    v=J_$key
    [ -n "${!v+set}" ] || bd_fail "status --json lacks '$key'"
done
it_expect_eq "$J_profile" default "status: profile"
it_expect_eq "$J_running" false "status: running"
it_expect_eq "$J_display" null "status: display"
it_expect_eq "$J_socket" null "status: socket"
it_expect_eq "$J_idle_seconds" null "status: idle_seconds while down"
it_expect_eq "$J_geometry" 800x600 "status: geometry"

# Running: env prints the published variables.
it_start
launcher=$J_pid
disp=$J_display
it_expect_eq "$J_socket" "$P/rfb.sock" "status: socket while running"
[[ $J_idle_seconds =~ ^[0-9]+$ ]] || bd_fail "idle_seconds is not a number while running: $J_idle_seconds"
# The live size: what the desktop publishes in 'geometry' (a viewer may have resized it), with
# the configured one beside it; anything malformed there is no size.
it_expect_eq "$J_geometry" 800x600 "status: the configured size while the desktop has published none"
printf '1024x768\n' >"$P/geometry"
it_own "$P/geometry"
it_status
it_expect_eq "$J_geometry" 1024x768 "status --json: the screen's live size"
it_expect_eq "$J_configured_geometry" 800x600 "status --json: the configured size beside it"
it_bd status
it_expect_in "$OUT" "geometry: 1024x768 (configured: 800x600)" "status shows both sizes when they differ"
printf '800x600\n' >"$P/geometry"
it_bd status
it_expect_in "$OUT" $'geometry: 800x600\n' "status shows one size when they agree"
for junk in "" "1024x" "x768" "-1x5" "1024x768x2" "99999x768" "$(printf 'a%.0s' {1..100})"; do
    printf '%s\n' "$junk" >"$P/geometry"
    it_status
    it_expect_eq "$J_geometry" 800x600 "a malformed live size ('$junk') is no size"
done
rm -f "$P/geometry"

it_bd env
it_expect_rc 0 "env while running"
it_expect_eq "$OUT" "$(<"$P/env")" "env prints the published file"
it_expect_in "$OUT" "DISPLAY=$disp" "env has DISPLAY"

# env --shell: export lines a shell evaluates back to the exact values, of only what a program
# needs to reach the desktop (no XDG homes: a shell must not move into the desktop's config).
it_bd env --shell
it_expect_rc 0 "env --shell while running"
it_expect_eq "$(cut -d= -f1 <<<"$OUT")" "export DISPLAY
export XAUTHORITY
export DBUS_SESSION_BUS_ADDRESS" "env --shell exports DISPLAY, XAUTHORITY and the bus, nothing else"
it_run sh -c 'eval "$("$0" env --shell)" && printf "%s|%s|%s" "$DISPLAY" "$XAUTHORITY" "$DBUS_SESSION_BUS_ADDRESS"' "$BOTDESK_BIN"
it_expect_eq "$OUT" "$disp|$P/Xauthority|unix:path=$P/xdg/bus" "a shell takes env --shell's values verbatim"
it_bd env --shell extra
it_expect_rc 2 "env --shell takes no argument"
it_bd status --shell
it_expect_rc 2 "only env takes --shell"

# exec: the published variables win over the caller's, WAYLAND_DISPLAY goes, the rest stays,
# the exit status is the program's.
it_run env DISPLAY=:0 XAUTHORITY=/elsewhere WAYLAND_DISPLAY=wayland-1 KEEP_ME=yes \
    "$BOTDESK_BIN" exec -- sh -c 'echo "$DISPLAY"; echo "${WAYLAND_DISPLAY-unset}"; echo "$XAUTHORITY"; echo "$KEEP_ME"; exit 7'
it_expect_rc 7 "exec returns the program's exit status"
it_expect_eq "$OUT" "$disp
unset
$P/Xauthority
yes" "exec runs with the published DISPLAY and XAUTHORITY, no WAYLAND_DISPLAY"

# Arguments pass through untouched, options after -- included.
it_bd exec -- printf '%s|' --json "a b" ''
it_expect_rc 0 "exec of printf"
it_expect_eq "$OUT" "--json|a b||" "exec passes its arguments verbatim"

# exec stamps activity: make the desktop look idle for years, then use it.
touch -d '2001-01-01' "$P/activity"
it_status
[ "$J_idle_seconds" -gt 100000000 ] || bd_fail "idle_seconds does not follow activity: $J_idle_seconds"
it_bd exec -- true
it_expect_rc 0 "exec of true"
it_expect_eq "$(find "$P/activity" -newermt '2001-01-02' | wc -l)" 1 "exec stamps activity"
it_status
[ "$J_idle_seconds" -lt 100000000 ] || bd_fail "idle_seconds after exec: $J_idle_seconds"

# env and status do not count as use.
touch -d '2001-01-01' "$P/activity"
it_bd env
it_status
[ "$J_idle_seconds" -gt 100000000 ] || bd_fail "env or status stamped activity"

# A program that cannot run: exit 1 (not 3: the desktop is there).
it_bd exec -- "$S/no-such-program"
it_expect_rc 1 "exec of a missing program"
it_expect_in "$ERR" "no-such-program" "the message names the program"

# The launcher dies, the env file stays: env and exec no longer act.
kill -KILL -- "-$launcher"
it_wait_gone 10 "$launcher" || bd_fail "the killed launcher lives on"
it_expect_present "$P/env" "the stale env file (the precondition)"
it_bd env
it_expect_rc 3 "env with a dead launcher and a stale env file"
it_expect_eq "$OUT" "" "env prints nothing stale"
it_bd exec -- touch "$S/marks/ran"
it_expect_rc 3 "exec with a dead launcher and a stale env file"
it_expect_absent "$S/marks/ran" "exec with a dead launcher runs nothing"
printf '1024x768\n' >"$P/geometry"
it_own "$P/geometry"
it_status
it_expect_eq "$J_running" false "status with a dead launcher"
it_expect_eq "$J_geometry" 800x600 "a dead desktop's live size is not reported"
it_expect_eq "$J_display" null "status with a dead launcher shows no display"

# Values a shell would act on are quoted: nothing in them runs, each arrives verbatim.
export BOTDESK_LAUNCHER=$(it_fake tricky <<'FAKE'
fake_xlock
: >"$BOTDESK_SOCKET"
cat >"$BOTDESK_ENV_FILE.tmp" <<ENV
DISPLAY=:$BOTDESK_DISPLAY_NUM
XAUTHORITY=$BOTDESK_XAUTH it's
DBUS_SESSION_BUS_ADDRESS=unix:path=\$(touch $BD_MARKS/pwned);\`touch $BD_MARKS/pwned\` "q" \\n * ~
XDG_CONFIG_HOME=$BOTDESK_CONFIG_HOME
ENV
mv -f "$BOTDESK_ENV_FILE.tmp" "$BOTDESK_ENV_FILE"
fake_ready
fake_hold
FAKE
)
it_bd --profile tricky start
it_expect_rc 0 "start of the profile with odd values"
want=$(grep -v '^XDG' "$BOTDESK_STATE_DIR/tricky/env" | cut -d= -f2-)
for sh in sh bash; do
    it_run "$sh" -c 'eval "$("$0" --profile tricky env --shell)" && printf "%s\n" "$DISPLAY" "$XAUTHORITY" "$DBUS_SESSION_BUS_ADDRESS"' "$BOTDESK_BIN"
    it_expect_rc 0 "$sh evaluates env --shell"
    it_expect_eq "$OUT" "$want" "$sh takes quotes, \$(...), backquotes, backslashes and globs verbatim"
done
it_expect_absent "$S/marks/pwned" "nothing in a published value runs in the shell"

# The README's old recipe, every published line exported: the shell now has the desktop's
# XDG_CONFIG_HOME, yet botdesk run from it still reads the user's own botdesk.conf.
home=$S/home
mkdir -p "$home/.config/botdesk" "$BOTDESK_STATE_DIR/tricky/xdg/botdesk"
echo "geometry = 1024x768" >"$home/.config/botdesk/botdesk.conf"
echo "geometry = 640x480" >"$BOTDESK_STATE_DIR/tricky/xdg/botdesk/botdesk.conf"
it_own "$home" "$BOTDESK_STATE_DIR/tricky/xdg"
it_run env -u BOTDESK_GEOMETRY HOME="$home" sh -c 'eval "$("$0" --profile tricky env | grep ^XDG | sed "s/^/export /")" && echo "$XDG_CONFIG_HOME" && "$0" --profile tricky status --json' "$BOTDESK_BIN"
it_expect_rc 0 "status from a shell with the desktop's XDG_CONFIG_HOME"
it_expect_eq "$(head -1 <<<"$OUT")" "$BOTDESK_STATE_DIR/tricky/xdg" "the shell has the desktop's XDG_CONFIG_HOME (the precondition)"
OUT=$(tail -1 <<<"$OUT")
it_expect_eq "$(it_json geometry)" 1024x768 "botdesk reads ~/.config/botdesk/botdesk.conf, not the desktop's"
it_bd --profile tricky stop

# Alive but never published (no DISPLAY in env): not running either.
export BOTDESK_LAUNCHER=$(it_fake silent <<'FAKE'
fake_xlock
: >"$BOTDESK_SOCKET"
printf 'XAUTHORITY=%s\n' "$BOTDESK_XAUTH" >"$BOTDESK_ENV_FILE"
fake_hold
FAKE
)
it_bd start --wait 0.3
it_expect_rc 1 "a launcher whose env has no DISPLAY has not published"
it_bd env
it_expect_rc 3 "env of a desktop that never published"

# Issue 8.9: the number the desktop published is served by nobody, then by another user (as when
# a desktop is gone and a neighbour serves its number): exec and thumbnail refuse to connect.
export BOTDESK_LAUNCHER=$(it_fake noserver <<<'fake_up')
it_start
n=${J_display#:}
it_bd exec -- touch "$S/marks/ran"
it_expect_rc 1 "exec when no X server answers on the published number"
it_expect_in "$ERR" "does not answer" "the message says the server does not answer"
it_expect_absent "$S/marks/ran" "exec without a server runs nothing"
install -d -m 1777 "$S/xlocks/.X11-unix"
rm -f "$S/xlocks/.X11-unix/X$n" # the stand-in of an earlier fake
exec {stranger}< <(exec setpriv --reuid="$BD_USER_B" --regid="$BD_USER_B" --clear-groups /usr/bin/python3 -c '
import os, signal, socket, sys
os.umask(0)  # connectable by anyone, as an X server makes its socket
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
print("ok", flush=True)
signal.pause()' "$S/xlocks/.X11-unix/X$n" 2>/dev/null)
stranger_pid=$!
trap 'kill "$stranger_pid" 2>/dev/null; it_cleanup' EXIT
read -r -u "$stranger" _ || bd_fail "the stranger's listener did not start"
for cmd in "exec -- touch $S/marks/ran" "thumbnail --output $S/marks/thumb.png"; do
    it_bd $cmd
    it_expect_rc 1 "$cmd against another user's server on the published number"
    it_expect_in "$ERR" "runs as uid $(id -u "$BD_USER_B")" "$cmd names the stranger's uid"
done
it_expect_absent "$S/marks/ran" "exec against a stranger's server runs nothing"
it_expect_absent "$S/marks/thumb.png" "thumbnail against a stranger's server writes nothing"
echo "PASS"
