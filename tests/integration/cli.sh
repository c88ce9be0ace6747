#!/usr/bin/env bash
# The CLI and settings contract: invalid profile names and unknown commands or options are usage
# errors (exit 2) that touch nothing; malformed settings are errors naming the variable (exit 1);
# botdesk.conf is honoured with the environment winning and unknown keys named by file and line;
# the default allocation lock lives in a private directory of the user's, never in /tmp.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_STATE_DIR=$S/cli-state

# Invalid profile names: exit 2, for --profile and for BOTDESK_PROFILE, and nothing is created.
long65=$(printf 'a%.0s' {1..65})
long64=$(printf 'a%.0s' {1..64})
for name in "" ".hidden" "a/b" ".." "." "x y" "/abs" "a\\b" $'a\nb' "$long65" "é" "a*"; do
    shown=${name//$'\n'/\\n}
    it_bd --profile "$name" start
    it_expect_rc 2 "start --profile '$shown'"
    it_expect_in "$ERR" "botdesk: " "the usage error is botdesk's"
    it_expect_in "$ERR" "--profile=" "the usage error names --profile"
    it_bd "--profile=$name" status
    it_expect_rc 2 "status --profile='$shown'"
    if [ -n "$name" ]; then
        BOTDESK_PROFILE=$name it_bd start
        it_expect_rc 2 "BOTDESK_PROFILE='$shown' start"
        it_expect_in "$ERR" "BOTDESK_PROFILE='" "the usage error names the variable BOTDESK_PROFILE"
        # --profile wins, so a valid one makes a bad variable harmless.
        BOTDESK_PROFILE=$name it_bd --profile ok status
        it_expect_rc 0 "a valid --profile over BOTDESK_PROFILE='$shown'"
    fi
done
it_expect_absent "$BOTDESK_STATE_DIR" "invalid profile names create nothing"
for name in "$long64" "a.b-c_D9" "-dash" "x..y"; do
    it_bd --profile "$name" status
    it_expect_rc 0 "status --profile '$name' (a valid name)"
done
BOTDESK_PROFILE=from-env it_bd status --json
it_expect_eq "$(it_json profile)" from-env "BOTDESK_PROFILE names the profile"
BOTDESK_PROFILE=from-env it_bd --profile from-flag status --json
it_expect_eq "$(it_json profile)" from-flag "--profile wins over BOTDESK_PROFILE"
it_bd status --json
it_expect_eq "$(it_json profile)" default "the default profile"
# Only start creates state: status, env, exec and stop of a profile never started touch nothing.
it_bd stop
it_expect_rc 3 "stop of a profile never started"
it_bd env
it_expect_rc 3 "env of a profile never started"
it_bd exec -- true
it_expect_rc 3 "exec of a profile never started"
it_expect_absent "$BOTDESK_STATE_DIR" "status, env, exec and stop create no state"

# Usage errors.
usage=(
    ""
    "frobnicate"
    "--bogus status"
    "status --bogus"
    "status extra"
    "stop --wait 3"
    "start --wait"
    "start --wait abc"
    "start --wait -1"
    "start --wait 1e3"
    "start --wait 99999"
    "start extra"
    "exec"
    "exec --"
    "exec -x -- true"
    "--profile"
)
for args in "${usage[@]}"; do
    # shellcheck disable=SC2086 # word splitting is the point
    it_bd $args
    it_expect_rc 2 "botdesk $args"
done
it_bd --help
it_expect_rc 0 "--help"
it_expect_in "$OUT" "Usage" "--help prints the usage"
# --help is read from the command tables: every command is in it, and it fits a terminal.
help=$OUT
while read -r name _; do
    grep -Eq "^  $name( |$)" <<<"$help" || bd_fail "--help lacks the command '$name'"
done < <("$BOTDESK_BIN" --list-commands)
long=$(awk 'length > 79' <<<"$help")
[ -z "$long" ] || bd_fail "--help has lines over 79 columns: $long"
it_bd --version
it_expect_rc 0 "--version"

# Malformed settings: exit 1, and the message names the variable.
bad=(
    BOTDESK_DISPLAY_BAND=abc BOTDESK_DISPLAY_BAND=50-40 BOTDESK_DISPLAY_BAND=40-
    BOTDESK_DISPLAY_BAND=-40 BOTDESK_DISPLAY_BAND=40 BOTDESK_DISPLAY_BAND=40-99999
    "BOTDESK_DISPLAY_BAND= 40-45" BOTDESK_DISPLAY_BAND=40-45x BOTDESK_DISPLAY_BAND=4O-45
    BOTDESK_DISPLAY_BAND=+40-45 BOTDESK_DISPLAY_BAND=
    BOTDESK_GEOMETRY=800 BOTDESK_GEOMETRY=800x BOTDESK_GEOMETRY=x600 BOTDESK_GEOMETRY=0x0
    BOTDESK_GEOMETRY=10x10 BOTDESK_GEOMETRY=800x600x BOTDESK_GEOMETRY=axb
    BOTDESK_GEOMETRY=99999x600 BOTDESK_GEOMETRY=-800x600 BOTDESK_GEOMETRY=
    BOTDESK_MIN_FREE_MB=-1 BOTDESK_MIN_FREE_MB=1.5 BOTDESK_MIN_FREE_MB=abc
    BOTDESK_MIN_FREE_MB=99999999999999999999999 "BOTDESK_MIN_FREE_MB= 5" BOTDESK_MIN_FREE_MB=
    BOTDESK_X_LOCK_DIR=tmp BOTDESK_X_LOCK_DIR=./tmp BOTDESK_X_LOCK_DIR=
    BOTDESK_X_UNIX_TABLE=proc/net/unix BOTDESK_ALLOC_LOCK=alloc.lock BOTDESK_MEMINFO=meminfo
    BOTDESK_CGROUP_ROOT=cgroup BOTDESK_LAUNCHER=fake.sh BOTDESK_STATE_DIR=state
    BOTDESK_PACKAGE_MANAGER=yum
)
for kv in "${bad[@]}"; do
    it_run env "$kv" "$BOTDESK_BIN" status
    it_expect_rc 1 "status with $kv"
    it_expect_in "$ERR" "botdesk: " "the message for $kv is botdesk's"
    it_expect_in "$ERR" "${kv%%=*}" "the message for $kv names the variable"
done

# botdesk.conf: every key honoured, comments and blanks skipped, the environment wins.
conf_env=("$IT_ENV" -u BOTDESK_LAUNCHER -u BOTDESK_X_LOCK_DIR -u BOTDESK_X_UNIX_TABLE
    -u BOTDESK_ALLOC_LOCK -u BOTDESK_DISPLAY_BAND -u BOTDESK_MIN_FREE_MB -u BOTDESK_MEMINFO
    -u BOTDESK_CGROUP_ROOT -u BOTDESK_GEOMETRY -u BOTDESK_PACKAGE_MANAGER
    XDG_CONFIG_HOME="$S/conf")
mkdir -p "$S/conf/botdesk" "$S/xlocks2" "$S/cg-conf"
it_meminfo 8192 400 "$S/meminfo-conf"
echo $((1024 * 1048576)) >"$S/cg-conf/memory.max"
echo 0 >"$S/cg-conf/memory.current"
printf '%s\n' "Num RefCount Protocol Flags Type St Inode Path" \
    "0000000000000000: 00000002 00000000 00010000 0001 01 22250 @/tmp/.X11-unix/X45" >"$S/unix-conf"
conf_launcher=$(it_fake conf-recorder <<'FAKE'
fake_note conf-env "browser=${BOTDESK_BROWSER-unset} geometry=$BOTDESK_GEOMETRY"
fake_up
FAKE
)
cat >"$S/conf/botdesk/botdesk.conf" <<CONF
# botdesk settings for the CLI test

launcher = $conf_launcher
x_lock_dir=$S/xlocks2
	x_unix_table   =   $S/unix-conf
alloc_lock = $S/alloc-conf.lock
display_band = 45-47
min_free_mb = 300
meminfo = $S/meminfo-conf
cgroup_root = $S/cg-conf
geometry = 1024x768
helper = /nonexistent/botdesk-helper
browser = /usr/bin/true
package_manager = none
CONF
it_own "$S"
it_run "${conf_env[@]}" "$BOTDESK_BIN" --profile conf status --json
it_expect_rc 0 "status with botdesk.conf"
eval "$(it_json_vars <<<"$OUT")"
it_expect_eq "$J_geometry" 1024x768 "botdesk.conf: geometry"
it_expect_eq "$J_memory_available_mb" 400 "botdesk.conf: meminfo"
it_expect_eq "$J_memory_limit_mb" 1024 "botdesk.conf: cgroup_root"
it_expect_eq "$J_blocker" null "botdesk.conf: min_free_mb (400 MB clear a 300 MB floor)"
it_run "${conf_env[@]}" "$BOTDESK_BIN" --profile conf start --json
it_expect_rc 0 "start with botdesk.conf"
eval "$(it_json_vars <<<"$OUT")"
it_expect_eq "$J_display" ":46" "botdesk.conf: display_band and x_unix_table (:45 is bound)"
it_expect_present "$S/xlocks2/.X46-lock" "botdesk.conf: x_lock_dir reaches the launcher"
it_expect_present "$S/alloc-conf.lock" "botdesk.conf: alloc_lock"
it_expect_eq "$(it_spawns)" 1 "botdesk.conf: launcher"
it_expect_eq "$(<"$S/marks/conf-env")" "browser=/usr/bin/true geometry=1024x768" \
    "botdesk.conf: browser and geometry reach the launcher"
it_run "${conf_env[@]}" "$BOTDESK_BIN" --profile conf stop
it_expect_rc 0 "stop with botdesk.conf"

# The environment wins.
it_run "${conf_env[@]}" BOTDESK_GEOMETRY=800x600 BOTDESK_MIN_FREE_MB=1536 \
    "$BOTDESK_BIN" --profile conf status --json
eval "$(it_json_vars <<<"$OUT")"
it_expect_eq "$J_geometry" 800x600 "BOTDESK_GEOMETRY wins over botdesk.conf"
it_expect_in "$J_blocker" "1536 MB needed" "BOTDESK_MIN_FREE_MB wins over botdesk.conf"
BD_PATH=$S/empty it_run "${conf_env[@]}" "$BOTDESK_BIN" --profile conf status --json
eval "$(it_json_vars <<<"$OUT")"
it_expect_eq "$J_install_command" null "botdesk.conf: package_manager = none"
BD_PATH=$S/empty it_run "${conf_env[@]}" BOTDESK_PACKAGE_MANAGER=apt "$BOTDESK_BIN" --profile conf status --json
eval "$(it_json_vars <<<"$OUT")"
it_expect_in "$J_install_command" "apt-get install" "BOTDESK_PACKAGE_MANAGER wins over botdesk.conf"
it_run "${conf_env[@]}" BOTDESK_GEOMETRY=junk "$BOTDESK_BIN" --profile conf status
it_expect_rc 1 "a malformed environment value is not rescued by the file"

# A malformed value in the file names the variable; an unknown key names the file and line.
conf=$S/conf/botdesk/botdesk.conf
printf 'geometry = 1024x768\ngeometry = huge\n' >"$conf"
it_run "${conf_env[@]}" "$BOTDESK_BIN" status
it_expect_rc 1 "a malformed geometry in botdesk.conf"
it_expect_in "${ERR,,}" "geometry" "the message names the setting"
printf '# comment\n\ngeometry = 1024x768\ncolour = blue\n' >"$conf"
it_run "${conf_env[@]}" "$BOTDESK_BIN" status
it_expect_rc 1 "an unknown key in botdesk.conf"
it_expect_in "$ERR" "$conf:4" "the message names the file and line"
it_expect_in "$ERR" "colour" "the message names the key"
printf 'geometry 1024x768\n' >"$conf"
it_run "${conf_env[@]}" "$BOTDESK_BIN" status
it_expect_rc 1 "a line without '=' in botdesk.conf"
it_expect_in "$ERR" "$conf:1" "the message names the file and line"
rm -f "$conf"

# The default allocation lock and state: under the user's own home, private even under umask
# 000; XDG_RUNTIME_DIR when there is one.
home=$S/home
mkdir -p "$home" "$S/run"
chmod 0700 "$S/run"
it_own "$home" "$S/run"
(
    unset BOTDESK_ALLOC_LOCK BOTDESK_STATE_DIR
    it_run env HOME="$home" sh -c 'umask 000 && exec "$@"' sh "$BOTDESK_BIN" start
    it_expect_rc 0 "start with the default allocation lock and state"
    it_expect_present "$home/.cache/botdesk/alloc.lock" "with no XDG_RUNTIME_DIR the lock is under ~/.cache/botdesk"
    it_expect_eq "$(stat -c '%a %U' "$home/.cache/botdesk")" "700 $U" "the lock's directory is the user's and private"
    it_expect_present "$home/.local/state/botdesk/default/launcher.pid" "the default state root is ~/.local/state/botdesk"
    it_run env HOME="$home" "$BOTDESK_BIN" stop
    it_expect_rc 0 "stop"
    it_run env HOME="$home" XDG_RUNTIME_DIR="$S/run" XDG_STATE_HOME="$S/xdg-state" "$BOTDESK_BIN" start
    it_expect_rc 0 "start with XDG_RUNTIME_DIR and XDG_STATE_HOME"
    it_expect_present "$S/run/botdesk-alloc.lock" "the lock is in XDG_RUNTIME_DIR"
    it_expect_present "$S/xdg-state/botdesk/default/launcher.pid" "the state root is in XDG_STATE_HOME"
    it_run env HOME="$home" XDG_STATE_HOME="$S/xdg-state" "$BOTDESK_BIN" stop
    it_expect_rc 0 "stop"
)

# An empty BOTDESK_PROFILE is a usage error too, not an unset one (an empty BOTDESK_* setting
# is an error everywhere else).
BOTDESK_PROFILE='' it_bd status
it_expect_rc 2 "an empty BOTDESK_PROFILE is a usage error"
it_expect_in "$ERR" "BOTDESK_PROFILE=''" "the usage error names the variable"
echo "PASS"
