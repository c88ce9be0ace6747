# Shared set-up for the integration tests: a scratch world per test (state root, X lock
# directory, allocation lock, memory fixtures, stub desktop programs on PATH), fake launchers,
# decoy processes, and botdesk run as the real non-root test user. Source it after lib.sh's
# variables are in the environment (meson's test_env gives BOTDESK_BIN, BD_SRCDIR, BD_BUILDDIR).

# shellcheck source=../lib.sh
source "$BD_SRCDIR/tests/lib.sh"

IT_DIR=$BD_SRCDIR/tests/integration
IT_PIDWAIT=$BD_BUILDDIR/tests/integration/pidwait
IT_HOLD_ZOMBIES=$BD_BUILDDIR/tests/integration/hold-zombies
IT_FILEWAIT=$BD_BUILDDIR/tests/integration/filewait
IT_BG=()
# By absolute path: some tests give the test user a PATH with nothing on it.
IT_ENV=$(command -v env)
# The system's python3 when there is one: a version manager's shim costs a tenth of a second.
IT_PYTHON=/usr/bin/python3
[ -x "$IT_PYTHON" ] || IT_PYTHON=python3

# The programs the runner requires on PATH (policy/packages.tsv); empty stubs are enough for a
# runner that only looks them up.
IT_PROGRAMS=(Xtigervnc Xvnc dbus-run-session xfwm4 xfdesktop xfce4-panel xfsettingsd)

# it_private_etc ARGS...: for a test of the host policy (root's /etc/botdesk/policy.conf), with
# the script's arguments, before anything else: runs the script again in a private mount
# namespace (a skip without root or namespaces), where /etc is overlaid by a scratch layer so that
# the host's /etc is never touched, and sets POLICY to the policy file's path there.
it_private_etc() {
    if [ "${IT_POLICY_NS:-}" != 1 ]; then
        bd_is_root || bd_skip "needs root for a private mount namespace"
        unshare --mount --propagation private true 2>/dev/null || bd_skip "no mount namespaces here"
        local ov rc=0
        ov=$(mktemp -d /tmp/botdesk-policy.XXXXXX)
        unshare --mount --propagation private env IT_POLICY_NS=1 IT_OV="$ov" bash "$0" "$@" || rc=$?
        rmdir "$ov"
        exit "$rc"
    fi
    mount -t tmpfs botdesk-policy "$IT_OV"
    mkdir "$IT_OV/upper" "$IT_OV/work"
    mount -t overlay overlay -o "lowerdir=/etc,upperdir=$IT_OV/upper,workdir=$IT_OV/work" /etc ||
        bd_skip "no overlay file system here"
    mkdir -p /etc/botdesk
    POLICY=/etc/botdesk/policy.conf
}

it_cleanup() {
    local f pid
    it_cgroup_cleanup
    for pid in "${IT_BG[@]}"; do
        { kill -KILL "$pid" && wait "$pid"; } 2>/dev/null || true
    done
    # Everything a fake launcher started is in its process group, named by its spawn mark.
    for f in "$S"/marks/spawned.*; do
        [ -e "$f" ] || continue
        kill -KILL -- "-${f##*.}" 2>/dev/null || true
    done
    for f in "$S"/pids/*; do
        case $f in *.signals | *.tmp) continue ;; esac
        [ -f "$f" ] || continue
        pid=$(<"$f")
        kill -KILL "$pid" 2>/dev/null || true
    done
    cd /
    rm -rf "$S" 2>/dev/null || true
}

# it_own PATH...: hands fixtures the test (maybe root) made to the test user.
it_own() {
    if bd_is_root; then
        chown -hR "$U:" "$@"
    fi
}

# it_init: the scratch world, exported as BOTDESK_* settings so bd_as passes them on.
it_init() {
    U=$(bd_test_user)
    S=$(bd_scratch "$U")
    trap it_cleanup EXIT
    cd "$S"
    mkdir -p "$S"/{bin,marks,pids,xlocks,cgroup,fakes,out,empty}
    local p
    for p in "${IT_PROGRAMS[@]}"; do
        : >"$S/bin/$p"
        chmod 0755 "$S/bin/$p"
    done
    it_meminfo 8192 6144
    unset BOTDESK_PROFILE BOTDESK_LAUNCHER BOTDESK_HELPER BOTDESK_BROWSER BOTDESK_DEBUG
    export BOTDESK_STATE_DIR=$S/state
    export BOTDESK_X_LOCK_DIR=$S/xlocks
    # Nonexistent: the host's real X servers stay out of the band; tests that need a table
    # write one and point here.
    export BOTDESK_X_UNIX_TABLE=$S/unix-table
    export BOTDESK_ALLOC_LOCK=$S/alloc.lock
    export BOTDESK_DISPLAY_BAND=40-49
    export BOTDESK_MIN_FREE_MB=1536
    export BOTDESK_MEMINFO=$S/meminfo
    export BOTDESK_CGROUP_ROOT=$S/cgroup
    export BOTDESK_GEOMETRY=800x600
    export BOTDESK_PACKAGE_MANAGER=none
    export BD_MARKS=$S/marks
    # The desktop's environment is an allowlist: the fakes need these of ours.
    export BOTDESK_PASS_ENV=BD_SRCDIR,BD_MARKS,BD_BUILDDIR
    export BD_PATH=$S/bin:/usr/local/bin:/usr/bin:/bin
    P=$BOTDESK_STATE_DIR/default
    it_own "$S"
    # The X socket directory as botdesk requires it (root's, 1777) where we can make it so.
    install -d -m 1777 "$S/xlocks/.X11-unix"
    ! bd_is_root || chown root:root "$S/xlocks/.X11-unix"
}

# it_meminfo TOTAL_MB AVAILABLE_MB [FILE]: a /proc/meminfo fixture.
it_meminfo() {
    local f=${3:-$S/meminfo}
    printf 'MemTotal:       %d kB\nMemFree:         1024 kB\nMemAvailable:   %d kB\nBuffers:           0 kB\n' \
        $(($1 * 1024)) $(($2 * 1024)) >"$f.tmp"
    mv -f "$f.tmp" "$f"
    it_own "$f"
}

# it_fake NAME < BODY: writes a fake launcher (fake-lib.sh's helpers available) and prints its path.
it_fake() {
    local f=$S/fakes/$1.sh
    {
        echo '#!/bin/bash'
        # Where the fakes find their library and their marks, also when a caller runs them with
        # an environment of its own (a take's release program gets almost none).
        echo "[ -n \"\${BD_SRCDIR:-}\" ] || export BD_SRCDIR=${BD_SRCDIR@Q}"
        echo "[ -n \"\${BD_MARKS:-}\" ] || export BD_MARKS=${BD_MARKS@Q}"
        echo '. "$BD_SRCDIR/tests/integration/fake-lib.sh"'
        cat
    } >"$f"
    chmod 0755 "$f"
    it_own "$f"
    echo "$f"
}

# it_fake_desktop BAND: the display band and a launcher like the real session's: an "Xvnc"
# naming its profile and the profile's socket, whose pid is in the X lock, then the published
# files; it waits to be stopped.
it_fake_desktop() {
    export BOTDESK_DISPLAY_BAND=$1
    BOTDESK_LAUNCHER=$(it_fake desk <<'FAKE'
( exec -a Xvnc perl -e 'sleep 300' -- ":$BOTDESK_DISPLAY_NUM" -rfbunixpath "$BOTDESK_SOCKET" \
    -desktop "botdesk:$BOTDESK_PROFILE" ) &
fake_xlock $!
fake_publish
wait
FAKE
)
    export BOTDESK_LAUNCHER
}

# it_fifo NAME: a FIFO a fake can block on; prints its path.
it_fifo() {
    mkfifo "$S/$1"
    it_own "$S/$1"
    echo "$S/$1"
}

# it_open_gate FIFO: lets a fake blocked in fake_gate go on (bounded: the fake must be reading).
it_open_gate() {
    timeout 10 bash -c 'echo go >"$1"' _ "$1" || bd_fail "nobody was waiting at the gate $1"
}

# it_run CMD...: runs CMD as the test user; sets OUT, ERR and RC.
it_run() {
    RC=0
    # An empty configuration directory: the test user's own botdesk.conf, if any, stays out.
    bd_as "$U" "$IT_ENV" XDG_CONFIG_HOME="$S/config" "$@" >"$S/out/last.out" 2>"$S/out/last.err" || RC=$?
    OUT=$(<"$S/out/last.out")
    ERR=$(<"$S/out/last.err")
}

# it_bd ARGS...: runs botdesk as the test user; sets OUT, ERR and RC.
it_bd() {
    it_run "$BOTDESK_BIN" "$@"
}

# it_bd_bg NAME ARGS...: starts botdesk in the background; collect it with it_bd_collect NAME.
it_bd_bg() {
    local name=$1
    shift
    (
        rc=0
        bd_as "$U" "$IT_ENV" XDG_CONFIG_HOME="$S/config" "$BOTDESK_BIN" "$@" \
            >"$S/out/$name.out" 2>"$S/out/$name.err" || rc=$?
        echo "$rc" >"$S/out/$name.rc"
    ) &
    IT_BG+=("$!")
    eval "IT_BG_$name=$!"
}

# it_bd_collect NAME [TIMEOUT_S]: waits for a background botdesk; sets OUT, ERR and RC.
it_bd_collect() {
    local name=$1 t=${2:-30} pidvar="IT_BG_$1"
    "$IT_PIDWAIT" $((t * 1000)) "${!pidvar}" || bd_fail "botdesk ($name) still running after ${t}s"
    wait "${!pidvar}" || true
    RC=$(<"$S/out/$name.rc")
    OUT=$(<"$S/out/$name.out")
    ERR=$(<"$S/out/$name.err")
}

# it_decoy NAME [--exe PROGRAM] [--argv0 ARGV0] [decoy.pl options and args]: starts decoy.pl as
# the test user in a session of its own; prints its pid once it runs.
it_decoy() {
    local name=$1 exe=perl argv0=perl
    shift
    while [ $# -gt 0 ]; do
        case $1 in
        --exe) exe=$2 argv0=$2 && shift 2 ;;
        --argv0) argv0=$2 && shift 2 ;;
        *) break ;;
        esac
    done
    local pidfile=$S/pids/$name
    # A name is one decoy at a time: an earlier one of that name is done with.
    if [ -f "$pidfile" ]; then
        kill -KILL "$(<"$pidfile")" 2>/dev/null || true
        rm -f "$pidfile" "$pidfile.signals" "$pidfile.child"
    fi
    bd_as "$U" setsid -f bash -c 'exe=$1; shift; exec -a "$0" "$exe" "$@"' \
        "$argv0" "$exe" "$IT_DIR/decoy.pl" "$pidfile" "$@" </dev/null >/dev/null 2>&1
    it_wait_file 10 "$pidfile" || bd_fail "decoy $name did not start"
    cat "$pidfile"
}

# it_dead_pid: a pid that just exited (as good as any unused pid for a test).
it_dead_pid() {
    local pid
    sleep 0 &
    pid=$!
    wait "$pid"
    echo "$pid"
}

# it_starttime PID: field 22 of /proc/PID/stat (the command name may hold spaces and parens).
it_starttime() {
    local s
    s=$(<"/proc/$1/stat")
    s=${s##*) }
    # After the name: state is field 3, so starttime (22) is the 20th word.
    set -- $s
    echo "${20}"
}

# it_stat_field PID N: field N (>= 3) of /proc/PID/stat.
it_stat_field() {
    local s n=$(($2 - 2))
    s=$(<"/proc/$1/stat")
    s=${s##*) }
    set -- $s
    echo "${!n}"
}

# it_wait_gone TIMEOUT_S PID...: every PID exited (a zombie counts as exited).
it_wait_gone() {
    local t=$1
    shift
    "$IT_PIDWAIT" $((t * 1000)) "$@"
}

# it_group_live PGID: prints the live (non-zombie) members of process group PGID.
it_group_live() {
    local want=$1 f st pid
    for f in /proc/[0-9]*/stat; do
        { read -r st <"$f"; } 2>/dev/null || continue
        pid=${st%% *}
        st=${st##*) }
        set -- $st
        # After the name: $1 is the state, $3 the process group.
        if [ "$3" = "$want" ] && [ "$1" != Z ] && [ "$1" != X ]; then
            echo "$pid"
        fi
    done
}

# it_wait_file TIMEOUT_S PATH: PATH exists (inotify on its directory, bounded).
it_wait_file() {
    "$IT_FILEWAIT" $(($1 * 1000)) "$2"
}

# it_watch EVENTS PATH: arms a one-shot inotify watch (inotifywait -e EVENTS) and returns once
# it is established; it_watch_wait then waits (bounded) for the event.
it_watch() {
    local line
    rm -f "$S/out/watch.err"
    mkfifo "$S/out/watch.err"
    inotifywait -t 20 -e "$1" "$2" >/dev/null 2>"$S/out/watch.err" &
    IT_WATCH=$!
    IT_BG+=("$IT_WATCH")
    exec {IT_WATCH_FD}<"$S/out/watch.err"
    while :; do
        read -r -t 10 -u "$IT_WATCH_FD" line || bd_fail "inotifywait did not set up its watch on $2"
        [[ $line != *established* ]] || break
    done
}

it_watch_wait() {
    local rc=0
    wait "$IT_WATCH" || rc=$?
    exec {IT_WATCH_FD}<&-
    [ "$rc" = 0 ]
}

# it_status [ARGS...]: runs `botdesk [ARGS] status --json` and sets J_<key> for every key
# (strings raw, the rest as JSON), with one python3 for all of them.
it_status() {
    it_bd "$@" status --json
    it_expect_rc 0 "status --json"
    eval "$(it_json_vars <<<"$OUT")"
}

# it_start [ARGS...]: `botdesk [ARGS] start --json`, which must succeed; sets J_<key>.
it_start() {
    it_bd "$@" start --json
    it_expect_rc 0 "start"
    eval "$(it_json_vars <<<"$OUT")"
}

# it_json_vars < JSON: shell assignments J_<key>=<value>, after forgetting the previous ones.
it_json_vars() {
    local v
    for v in $(compgen -v J_); do
        echo "unset $v"
    done
    "$IT_PYTHON" -c '
import json, shlex, sys
for k, v in json.loads(sys.stdin.read()).items():
    print("J_%s=%s" % (k, shlex.quote(v if isinstance(v, str) else json.dumps(v))))'
}

# it_json KEY: the value of KEY in the JSON object in $OUT (strings raw, the rest as JSON).
it_json() {
    "$IT_PYTHON" -c '
import json, sys
v = json.loads(sys.stdin.read())[sys.argv[1]]
print(v if isinstance(v, str) else json.dumps(v))' "$1" <<<"$OUT"
}

# it_spawns: how many launchers have been spawned so far.
it_spawns() {
    local n=0 f
    for f in "$S"/marks/spawned.*; do
        [ -e "$f" ] && n=$((n + 1))
    done
    echo "$n"
}

# it_launcher_pid: the pid in the default profile's launcher.pid.
it_launcher_pid() {
    local l
    l=$(<"${1:-$P}/launcher.pid")
    echo "${l%% *}"
}

# Assertions: each names the invariant it guards in its message.
it_expect_rc() {
    [ "$RC" = "$1" ] || bd_fail "$2: exit status $RC, expected $1
stdout: $OUT
stderr: $ERR"
}

it_expect_eq() {
    [ "$1" = "$2" ] || bd_fail "$3: got '$1', expected '$2'"
}

it_expect_ne() {
    [ "$1" != "$2" ] || bd_fail "$3: got '$1' both times"
}

it_expect_in() {
    case $1 in
    *"$2"*) ;;
    *) bd_fail "$3: '$2' not found in: $1" ;;
    esac
}

it_expect_not_in() {
    case $1 in
    *"$2"*) bd_fail "$3: '$2' found in: $1" ;;
    *) ;;
    esac
}

it_expect_absent() {
    [ ! -e "$1" ] && [ ! -L "$1" ] || bd_fail "$2: $1 exists"
}

it_expect_present() {
    [ -e "$1" ] || bd_fail "$2: $1 is missing"
}

it_expect_alive() {
    ! bd_gone "$1" || bd_fail "$2: pid $1 is gone"
}

it_expect_gone() {
    it_wait_gone "${3:-10}" "$1" || bd_fail "$2: pid $1 is still alive"
}

# it_cgroup NAME LIMIT_MB: a fresh memory cgroup limited to LIMIT_MB (0: no limit) where the
# memory controller works here: the root of a unified hierarchy that holds it, else below our own
# cgroup in v1's memory controller (a hybrid host). Prints its path; removed at exit once empty.
# Skips (77) without root or without a memory controller we can use.
it_cgroup() {
    local name=$1 mb=$2 parent cg rel
    bd_is_root || bd_skip "needs root to make a cgroup"
    if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        parent=/sys/fs/cgroup
        grep -qw memory "$parent/cgroup.subtree_control" ||
            echo +memory >"$parent/cgroup.subtree_control" 2>/dev/null ||
            bd_skip "cannot enable the memory controller in $parent"
    elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
        rel=$(sed -n 's/^[0-9]*:[^:]*\bmemory\b[^:]*://p' /proc/self/cgroup)
        parent=/sys/fs/cgroup/memory$rel
        [ "$rel" != / ] || parent=/sys/fs/cgroup/memory
    else
        bd_skip "no memory cgroup controller here"
    fi
    cg=$parent/botdesk-it-$name-$$
    mkdir "$cg" || bd_skip "cannot make a cgroup under $parent"
    # Recorded in a file: this runs in a command substitution's subshell.
    echo "$cg" >>"$S/cgroups.list"
    if [ "$mb" != 0 ]; then
        if [ -e "$cg/memory.max" ]; then
            echo $((mb * 1048576)) >"$cg/memory.max"
        else
            echo $((mb * 1048576)) >"$cg/memory.limit_in_bytes"
        fi
    fi
    echo "$cg"
}

# it_cgroup_delegate CG: hands CG to the test user as a delegated subtree.
it_cgroup_delegate() {
    chown "$U:" "$1" "$1/cgroup.procs"
    [ ! -e "$1/cgroup.subtree_control" ] || chown "$U:" "$1/cgroup.subtree_control"
    [ ! -e "$1/cgroup.threads" ] || chown "$U:" "$1/cgroup.threads"
}

# it_cgroup_cleanup: kills what is left in the test's cgroups and removes them, deepest first.
it_cgroup_cleanup() {
    local cg d pids
    [ -f "$S/cgroups.list" ] || return 0
    while read -r cg; do
        [ -d "$cg" ] || continue
        while read -r d; do
            xargs -r kill -KILL <"$d/cgroup.procs" 2>/dev/null || true
        done < <(find "$cg" -depth -type d)
        while read -r d; do
            pids=$(cat "$d/cgroup.procs" 2>/dev/null) || true
            [ -z "$pids" ] || "$IT_PIDWAIT" 5000 $pids || true
            rmdir "$d" 2>/dev/null || true
        done < <(find "$cg" -depth -type d)
    done <"$S/cgroups.list"
}

# it_bd_in CG ARGS...: botdesk as the test user, run inside cgroup CG; sets OUT, ERR and RC.
it_bd_in() {
    local cg=$1
    shift
    RC=0
    (
        echo "$BASHPID" >"$cg/cgroup.procs"
        bd_as "$U" "$IT_ENV" XDG_CONFIG_HOME="$S/config" "$BOTDESK_BIN" "$@"
    ) >"$S/out/last.out" 2>"$S/out/last.err" || RC=$?
    OUT=$(<"$S/out/last.out")
    ERR=$(<"$S/out/last.err")
}
