#!/usr/bin/env bash
# The launcher contract: the launcher runs as a new session leader, stdin /dev/null, stdout and
# stderr to launcher.log (truncated at each start), the handshake's pipe on fd 3 (write only,
# announced as BOTDESK_NOTIFY_FD=3) and no other inherited fd; its environment is an
# allowlist of the runner's (benign fixed names plus BOTDESK_PASS_ENV's, never the display
# variables), plus every BOTDESK_* contract variable with the right value (set by the runner,
# whatever the caller had).
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_DISPLAY_BAND=44-45

export BOTDESK_LAUNCHER=$(it_fake recorder <<'FAKE'
out=$BD_MARKS/contract
# ls lists its own fds: what it inherited from us (we open no fd of our own that is not
# close-on-exec) plus the one it opens to read the directory.
ls /proc/self/fd >|"$out.fds"
s=$(</proc/$$/stat)
s=${s##*) }
set -- $s
echo "pid=$$ pgid=$3 sid=$4" >|"$out.ids"
links="0=$(readlink /proc/$$/fd/0)
1=$(readlink /proc/$$/fd/1)
2=$(readlink /proc/$$/fd/2)
3=$(readlink /proc/$$/fd/3)"
echo "$links" >|"$out.links"
sed -n 's/^flags:[[:space:]]*//p' /proc/$$/fdinfo/3 >|"$out.notify-flags"
stdin=$(stat -L -c '%t:%T %F' /proc/$$/fd/0)
echo "$stdin" >|"$out.stdin"
tr '\0' '\n' </proc/$$/environ >|"$out.env"
n=$(cat "$BD_MARKS/runs" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >|"$BD_MARKS/runs"
echo "stdout of run $n"
echo "stderr of run $n" >&2
fake_up
FAKE
)

it_run env \
    DISPLAY=:0 XAUTHORITY=/home/x/.Xauthority WAYLAND_DISPLAY=wayland-0 \
    DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus SESSION_MANAGER=local/host:@/tmp/.ICE-unix/1 \
    FOO_TOKEN=t1 FOO_SECRET=t2 FOO_API_KEY=t3 FOO_PASSWORD=t4 GITHUB_TOKEN=t5 OPENAI_API_KEY=t6 \
    AWS_ACCESS_KEY_ID=t7 AWS_SECRET_ACCESS_KEY=t8 AWS_SESSION_TOKEN=t9 \
    AWS_REGION=eu-west-1 BENIGN_VAR=hello TOKEN_COUNT=3 SECRETARY=alice \
    PGPASSWORD=t10 DATABASE_URL=t11 AWS_SECRET_KEY=t12 SECRET_KEY=t13 github_token=t14 \
    OPENAI_KEY=t15 API_KEY=t16 AZURE_OPENAI_KEY=t17 GH_PAT=t18 MYSQL_PWD=t19 SSH_AUTH_SOCK=t20 \
    TZ=Europe/Paris LC_TIME=C.UTF-8 \
    BOTDESK_PASS_ENV="$BOTDESK_PASS_ENV,BENIGN_VAR,DISPLAY" \
    BOTDESK_SOCKET=/tmp/evil.sock BOTDESK_DISPLAY_NUM=99 BOTDESK_ENV_FILE=/tmp/evil.env \
    BOTDESK_NOTIFY_FD=7 \
    "$BOTDESK_BIN" --profile contract start --json
it_expect_rc 0 "start with the recorder"
pid=$(it_json pid)
disp=$(it_json display)
dir=$BOTDESK_STATE_DIR/contract
c=$S/marks/contract

# A session and a process group of its own.
it_expect_eq "$(<"$c.ids")" "pid=$pid pgid=$pid sid=$pid" "the launcher leads a new session and group"

# stdin is /dev/null; stdout and stderr go to launcher.log.
it_expect_eq "$(<"$c.stdin")" "1:3 character special file" "stdin is /dev/null (char 1:3)"
it_expect_eq "$(sed -n 1p "$c.links")" "0=/dev/null" "stdin is /dev/null"
it_expect_eq "$(sed -n 2p "$c.links")" "1=$dir/launcher.log" "stdout goes to launcher.log"
it_expect_eq "$(sed -n 3p "$c.links")" "2=$dir/launcher.log" "stderr goes to launcher.log"
it_expect_in "$(<"$dir/launcher.log")" "stdout of run 1" "the launcher's stdout is in the log"
it_expect_in "$(<"$dir/launcher.log")" "stderr of run 1" "the launcher's stderr is in the log"

# No inherited fd beyond 0-2 and the handshake's 3 (4 is ls's own directory); 3 is a pipe's write
# end.
it_expect_eq "$(sort -n "$c.fds" | tr '\n' ' ')" "0 1 2 3 4 " "the launcher inherits fds 0-3 only"
[[ "$(sed -n 4p "$c.links")" == 3=pipe:* ]] || bd_fail "fd 3 is not a pipe: $(sed -n 4p "$c.links")"
it_expect_eq "$((0$(<"$c.notify-flags") & 3))" 1 "fd 3 is the pipe's write end"

# The environment.
envf=$(<"$c.env")
for var in DISPLAY XAUTHORITY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS SESSION_MANAGER \
    FOO_TOKEN FOO_SECRET FOO_API_KEY FOO_PASSWORD GITHUB_TOKEN OPENAI_API_KEY \
    AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN \
    PGPASSWORD DATABASE_URL AWS_SECRET_KEY SECRET_KEY github_token OPENAI_KEY API_KEY \
    AZURE_OPENAI_KEY GH_PAT MYSQL_PWD SSH_AUTH_SOCK AWS_REGION TOKEN_COUNT SECRETARY; do
    ! grep -q "^$var=" "$c.env" || bd_fail "the launcher inherited $var"
done
for secret in t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 t16 t17 t18 t19 t20; do
    ! grep -q "=$secret\$" "$c.env" || bd_fail "a credential value ($secret) reached the launcher"
done
# The fixed benign list, and what the user passed by name.
for kept in TZ=Europe/Paris LC_TIME=C.UTF-8 BENIGN_VAR=hello "BD_MARKS=$BD_MARKS"; do
    grep -qx "$kept" "$c.env" || bd_fail "the launcher lost $kept"
done
want=(
    "BOTDESK_PROFILE=contract"
    "BOTDESK_DISPLAY_NUM=${disp#:}"
    "BOTDESK_SOCKET=$dir/rfb.sock"
    "BOTDESK_XAUTH=$dir/Xauthority"
    "BOTDESK_ENV_FILE=$dir/env"
    "BOTDESK_CONFIG_HOME=$dir/xdg"
    "BOTDESK_GEOMETRY=800x600"
    "BOTDESK_X_LOCK_DIR=$BOTDESK_X_LOCK_DIR"
    "BOTDESK_PASS_ENV=$BOTDESK_PASS_ENV,BENIGN_VAR,DISPLAY"
    "BOTDESK_NOTIFY_FD=3"
)
for kv in "${want[@]}"; do
    grep -qx "$kv" "$c.env" || bd_fail "the launcher's environment lacks $kv:
$envf"
    it_expect_eq "$(grep -c "^${kv%%=*}=" "$c.env")" 1 "${kv%%=*} is set once"
done
it_expect_eq "$disp" ":44" "the display the launcher was given is the one reported"

# The log is truncated at each start.
it_bd --profile contract stop
it_expect_rc 0 "stop"
it_bd --profile contract start
it_expect_rc 0 "second start"
log=$(<"$dir/launcher.log")
it_expect_in "$log" "stdout of run 2" "the second run's output is in the log"
it_expect_not_in "$log" "run 1" "launcher.log is truncated at each start"
it_bd --profile contract stop

# A geometry setting reaches the launcher normalised.
BOTDESK_GEOMETRY=1024x768 it_bd --profile contract start
it_expect_rc 0 "start with a geometry"
grep -qx "BOTDESK_GEOMETRY=1024x768" "$c.env" || bd_fail "the launcher did not get the geometry"
it_bd --profile contract stop

# A pass list that is not a list of names is refused, naming the setting.
BOTDESK_PASS_ENV='OK,BAD-NAME' it_bd --profile contract start
[ "$RC" != 0 ] || bd_fail "a bad BOTDESK_PASS_ENV was accepted"
it_expect_in "$ERR" "BOTDESK_PASS_ENV" "the message names the setting"
it_expect_in "$ERR" "BAD-NAME" "and the bad name"
echo "PASS"
