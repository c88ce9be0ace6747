# Shared shell helpers for the integration, helper and end-to-end suites. Source it; it needs
# bash. Every wait here is bounded and wakes on an event (inotifywait, a pipe, a pidfd via
# `tail --pid`) or polls a cheap condition with a deadline when no event exists.

set -euo pipefail

# The non-root users scripts/test creates: A and B are in group botdesk, OUT is not.
BD_USER_A=${BD_USER_A:-bdtest-a}
BD_USER_B=${BD_USER_B:-bdtest-b}
BD_USER_OUT=${BD_USER_OUT:-bdtest-out}

# The binaries under test: the build tree's, or with BD_INSTALLED=1 the installed package's
# (scripts/test-package runs the end-to-end suite that way).
if [ "${BD_INSTALLED:-0}" = 1 ]; then
    BOTDESK_BIN=/usr/bin/botdesk
    BD_SESSION_BIN=/usr/lib/botdesk/botdesk-session
    BD_HELPER_BIN=/usr/lib/botdesk/botdesk-helper
    unset BOTDESK_THUMBNAILER BOTDESK_ACT BOTDESK_ACT_POINTER BOTDESK_MCP BOTDESK_RECORDER BOTDESK_ACT_A11Y
else
    BD_SESSION_BIN=${BD_BUILDDIR:-}/session/botdesk-session
    BD_HELPER_BIN=${BD_BUILDDIR:-}/helper/botdesk-helper
fi
export BOTDESK_BIN BD_SESSION_BIN BD_HELPER_BIN

bd_fail() {
    echo "FAIL: $*" >&2
    exit 1
}

bd_skip() {
    echo "SKIP: $*" >&2
    exit 77
}

bd_is_root() {
    [ "$(id -u)" = 0 ]
}

# Prints the user tests of unprivileged behaviour run as: a created non-root user when we are
# root (CI), else ourselves (a developer's checkout).
bd_test_user() {
    local want=${1:-$BD_USER_A}
    if bd_is_root; then
        id -u "$want" >/dev/null 2>&1 || bd_skip "user $want is missing: run scripts/test (it creates the test users)"
        echo "$want"
    else
        id -un
    fi
}

# bd_as USER CMD...: runs CMD as USER with a clean, minimal environment (plus any BOTDESK_* and
# BD_* variables of ours). As a non-root developer, USER must be ourselves.
declare -gA BD_HOME_OF=() BD_GID_OF=()
bd_as() {
    local user=$1
    shift
    # Looked up once per user: tests call this hundreds of times.
    if [ -z "${BD_HOME_OF[$user]:-}" ]; then
        local entry
        entry=$(getent passwd "$user") || bd_fail "no such user: $user"
        IFS=: read -r _ _ _ BD_GID_OF[$user] _ BD_HOME_OF[$user] _ <<<"$entry"
    fi
    local home=${BD_HOME_OF[$user]}
    local -a keep=()
    local v
    for v in $(compgen -e); do
        case $v in
        BOTDESK_* | BD_* | LANG | LC_ALL) keep+=("$v=${!v}") ;;
        esac
    done
    if bd_is_root && [ "$user" != root ]; then
        setpriv --reuid="$user" --regid="${BD_GID_OF[$user]}" --init-groups --reset-env \
            env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="${BD_PATH:-/usr/local/bin:/usr/bin:/bin}" "${keep[@]}" "$@"
    else
        env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="${BD_PATH:-/usr/local/bin:/usr/bin:/bin}" "${keep[@]}" "$@"
    fi
}

# bd_scratch: a fresh directory the test user can use, removed at exit.
bd_scratch() {
    local user=${1:-$(bd_test_user)}
    local d
    d=$(mktemp -d "${TMPDIR:-/tmp}/botdesk-test.XXXXXX")
    chmod 0755 "$d"
    if bd_is_root; then
        chown "$user:" "$d"
    fi
    echo "$d"
}

# bd_wait_gone PID TIMEOUT_S: waits for PID to exit (or become a zombie) within the bound.
bd_wait_gone() {
    local pid=$1 t=${2:-5}
    timeout "$t" tail --pid="$pid" -f /dev/null 2>/dev/null && return 0
    # tail --pid keeps waiting on a zombie; a zombie counts as gone.
    bd_gone "$pid"
}

# bd_gone PID: the process is absent or a zombie.
bd_gone() {
    local st
    st=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); print f[1] }' "/proc/$1/stat" 2>/dev/null) || return 0
    [ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}

# bd_wait_file PATH TIMEOUT_S: waits for PATH to exist (inotify on its directory).
bd_wait_file() {
    local path=$1 t=${2:-5} deadline
    deadline=$(($(date +%s) + t))
    while [ ! -e "$path" ]; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        timeout 1 inotifywait -qq -e create,moved_to "$(dirname "$path")" 2>/dev/null || true
    done
}
