#!/usr/bin/env bash
# Issue 8.2: /tmp/.X11-unix must be root's, sticky and 1777, or botdesk refuses; a non-root
# botdesk never creates it. Each case runs in a private mount namespace (so the host's directory
# is untouched) with the desktop's state outside /tmp:
#   - the directory belongs to another user (who could rename sockets and serve fake ones):
#     start fails, naming the owner and the fix, and no socket is made in it;
#   - the directory is missing: start fails naming the fix, and the directory stays missing.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
bd_is_root || bd_skip "needs root for a private mount namespace and the test users"
unshare --mount --propagation private true 2>/dev/null || bd_skip "no mount namespaces here"
e2e_user "$BD_USER_A"
UA=$E2E_U
UB=$(bd_test_user "$BD_USER_B")
[ "$UA" != "$UB" ] || bd_skip "needs two test users"
# Outside /tmp: a tmpfs over /tmp in the namespace would hide it.
st=$(mktemp -d /var/tmp/botdesk-xdir.XXXXXX)
chown "$UA:" "$st"
chmod 0700 "$st"
trap 'rm -rf "$st"; e2e_cleanup' EXIT
export BOTDESK_DISPLAY_BAND=60-69

# in_ns SETUP: runs SETUP as root in a new mount namespace, then start (printing its exit status
# and messages) and a stop, as the owner; then what the socket directory looks like.
in_ns() {
    unshare --mount --propagation private env SETUP="$1" UA="$UA" ST="$st" \
        BIN="$BOTDESK_BIN" bash -c '
set -e
eval "$SETUP"
rc=0
BOTDESK_STATE_DIR=$ST setpriv --reuid="$UA" --regid="$(id -g "$UA")" --init-groups \
    env HOME="$ST" PATH=/usr/bin:/bin ${BOTDESK_LAUNCHER:+BOTDESK_LAUNCHER=$BOTDESK_LAUNCHER} BOTDESK_ALLOC_LOCK="$ST/alloc.lock" \
    BOTDESK_DISPLAY_BAND="$BOTDESK_DISPLAY_BAND" BOTDESK_MIN_FREE_MB=0 \
    BOTDESK_STATE_DIR="$ST" "$BIN" start --wait 30 >/dev/null 2>"$ST/start.err" || rc=$?
BOTDESK_STATE_DIR=$ST setpriv --reuid="$UA" --regid="$(id -g "$UA")" --init-groups \
    env HOME="$ST" PATH=/usr/bin:/bin ${BOTDESK_LAUNCHER:+BOTDESK_LAUNCHER=$BOTDESK_LAUNCHER} BOTDESK_ALLOC_LOCK="$ST/alloc.lock" \
    BOTDESK_STATE_DIR="$ST" "$BIN" stop >/dev/null 2>&1 || true
echo "rc=$rc"
if [ -e /tmp/.X11-unix ]; then stat -c "dir=%U:%a" /tmp/.X11-unix; ls -A /tmp/.X11-unix | sed "s/^/entry=/"; else echo dir=absent; fi
'
}

# Another user's directory.
out=$(in_ns 'mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix && chown '"$UB"' /tmp/.X11-unix')
err=$(<"$st/start.err")
[[ $out == *"rc=1"* ]] || bd_fail "start in a socket directory owned by $UB: $out; $err"
[[ $err == *"owned by uid $(id -u "$UB") with mode 1777"* ]] || bd_fail "the refusal does not name the owner: $err"
[[ $err == *"install -d -m 1777 -o root -g root /tmp/.X11-unix"* ]] || bd_fail "the refusal does not name the fix: $err"
[[ $out != *entry=* ]] || bd_fail "a socket was made in another user's directory: $out"

# No directory at all: a non-root start must not create it. A fresh /tmp, with the build and
# source trees bound back in where they live under /tmp.
old=$st/old-tmp
mkdir -p "$old"
out=$(in_ns 'mount --bind /tmp '"$old"' && mount -t tmpfs -o mode=1777 tmpfs /tmp &&
    for p in '"$(dirname "$BOTDESK_BIN")"' '"$BD_SRCDIR"' '"$BD_BUILDDIR"'; do
        case $p in /tmp/*) mkdir -p "$p" && mount --bind '"$old"'"${p#/tmp}" "$p" ;; esac
    done')
err=$(<"$st/start.err")
[[ $out == *"rc=1"* ]] || bd_fail "start with no socket directory: $out; $err"
[[ $out == *"dir=absent"* ]] || bd_fail "a non-root start created /tmp/.X11-unix: $out"
[[ $err == *"is missing, and only root may create it"* ]] || bd_fail "the refusal does not say why: $err"
[[ $err == *"install -d -m 1777 -o root -g root /tmp/.X11-unix"* ]] || bd_fail "the refusal does not name the fix: $err"
echo "PASS"
