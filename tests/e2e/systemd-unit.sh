#!/usr/bin/env bash
# The systemd user unit, run by a real user manager (systemd --user) for a test user: the desktop
# it starts has the network (a program the desktop itself starts resolves a name through DNS),
# `botdesk run` says in the service's log when the desktop is up and who stopped it, and
# `botdesk stop` by its owner ends the service cleanly instead of counting as a crash.
#
# Hermetic: the test re-runs itself in a private mount and network namespace, with a DNS server
# of its own on 127.0.0.1:53 and a resolv.conf naming it, so nothing depends on the host's
# network. The user manager gets a cgroup delegated to the test user, as logind would give it.
# The probe is started by the desktop's own session bus (D-Bus activation), as the dock's
# terminal is started by the panel: a child of the desktop, under the unit's sandboxing.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"

SYSTEMD=/lib/systemd/systemd
if [ -z "${BD_UNIT_NS:-}" ]; then
    e2e_need_desktop
    bd_is_root || bd_skip "needs root: a user manager for a test user needs a delegated cgroup and private namespaces"
    [ -x "$SYSTEMD" ] || bd_skip "no $SYSTEMD (apt-get install systemd)"
    command -v unshare >/dev/null && command -v ip >/dev/null || bd_skip "needs unshare and ip"
    command -v dbus-send >/dev/null || bd_skip "needs dbus-send"
    exec unshare --mount --net --propagation private env BD_UNIT_NS=1 bash "$0" "$@"
fi

e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST
OUTD=$E2E_SCRATCH/out-$U
UID_U=$(id -u "$U")
GID_U=$(id -g "$U")
HOME_U=$(getent passwd "$U" | cut -d: -f6)
RT=/run/user/$UID_U
UNITDIR=$E2E_SCRATCH/config/systemd/user
PROFILE=unit
MGR=
CGROUPS=()

unit_cleanup() {
    if [ -n "$MGR" ] && ! bd_gone "$MGR"; then
        as_user systemctl --user stop "botdesk@$PROFILE" >/dev/null 2>&1 || true
        kill -TERM "$MGR" 2>/dev/null || true
        bd_wait_gone "$MGR" 20 || kill -KILL "$MGR" 2>/dev/null || true
    fi
    [ -z "${DNS:-}" ] || kill -TERM "$DNS" 2>/dev/null || true
    e2e_cleanup
    local c
    for c in "${CGROUPS[@]}"; do
        find "$c" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    done
}
trap unit_cleanup EXIT

# as_user CMD...: CMD as the test user, talking to its user manager.
as_user() {
    setpriv --reuid="$UID_U" --regid="$GID_U" --init-groups env -i HOME="$HOME_U" USER="$U" \
        LOGNAME="$U" PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="$RT" "$@"
}

# -- the namespace: loopback up, a DNS server that answers for *.botdesk.test, our resolv.conf.
ip link set lo up
cat >"$E2E_SCRATCH/dns.py" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
open(sys.argv[1] + ".tmp", "w").close()
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    q, peer = s.recvfrom(512)
    ident, flags, qd = struct.unpack(">HHH", q[:6])
    i = 12
    labels = []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode().lower())
        i += q[i] + 1
    qtype = struct.unpack(">H", q[i + 1:i + 3])[0]
    question = q[12:i + 5]
    name = ".".join(labels)
    ours = name.endswith("botdesk.test")
    answer = b""
    if ours and qtype == 1:
        answer = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + bytes([192, 0, 2, 7])
    rcode = 0 if ours else 3
    head = struct.pack(">HHHHHH", ident, 0x8180 | rcode, 1, 1 if answer else 0, 0, 0)
    s.sendto(head + question + answer, peer)
PY
"$E2E_PY" "$E2E_SCRATCH/dns.py" "$E2E_SCRATCH/dns.ready" &
DNS=$!
bd_wait_file "$E2E_SCRATCH/dns.ready" 10 || bd_fail "the test's DNS server did not start"
echo "nameserver 127.0.0.1" >"$E2E_SCRATCH/resolv.conf"
chmod 0644 "$E2E_SCRATCH/resolv.conf"
mount --bind "$E2E_SCRATCH/resolv.conf" /etc/resolv.conf
# The control: the name resolves for the test user outside the unit. (getent hosts, i.e.
# gethostbyname: getaddrinfo's AI_ADDRCONFIG would ask no server in a namespace whose only
# addresses are loopback ones.)
as_user getent hosts probe.botdesk.test | grep -q "^192\.0\.2\.7 " ||
    bd_fail "the test's own DNS set-up does not resolve probe.botdesk.test"

# -- a user manager: sd_booted() says yes in this namespace, a private runtime directory, a
# cgroup of its own the user may write (both hierarchies on a hybrid host).
mount -t tmpfs -o mode=0755 tmpfs /run/systemd
mkdir /run/systemd/system
mkdir -p /run/user
mount -t tmpfs -o mode=0755 tmpfs /run/user
install -d -m 0700 -o "$U" -g "$GID_U" "$RT"
for h in /sys/fs/cgroup/unified /sys/fs/cgroup/systemd /sys/fs/cgroup; do
    [ -f "$h/cgroup.procs" ] || continue
    [ "$h" = /sys/fs/cgroup ] && [ ${#CGROUPS[@]} -gt 0 ] && continue
    c=$h/botdesk-test-$$
    mkdir "$c" && chown -R "$U" "$c" && CGROUPS+=("$c")
done
[ ${#CGROUPS[@]} -gt 0 ] || bd_skip "no cgroup hierarchy to delegate to the user manager"

# The unit as built, run from the build tree; a drop-in only points it at this test's state
# and launcher and gives it a log file (there is no journal here). Its sandboxing is untouched.
mkdir -p "$UNITDIR/botdesk@.service.d"
sed "s|^ExecStart=[^ ]*|ExecStart=$BOTDESK_BIN|" "$BD_BUILDDIR/data/botdesk@.service" \
    >"$UNITDIR/botdesk@.service"
{
    echo "[Service]"
    echo "Environment=BOTDESK_STATE_DIR=$ST BOTDESK_MIN_FREE_MB=0"
    [ "${BD_INSTALLED:-0}" = 1 ] || echo "Environment=BOTDESK_LAUNCHER=$E2E_SESSION"
    echo "StandardOutput=append:$OUTD/unit.log"
    echo "StandardError=append:$OUTD/unit.log"
    # systemd's own verdict on each end of the service (what Restart=on-failure goes by).
    echo "ExecStopPost=/bin/sh -c 'echo \"\$\$SERVICE_RESULT \$\$EXIT_CODE \$\$EXIT_STATUS\" >$OUTD/result.tmp && mv $OUTD/result.tmp $OUTD/result'"
} >"$UNITDIR/botdesk@.service.d/test.conf"
chmod -R a+rX "$E2E_SCRATCH/config"
: >"$OUTD/unit.log"
chown "$U" "$OUTD/unit.log"

(
    for c in "${CGROUPS[@]}"; do
        echo "$BASHPID" >"$c/cgroup.procs"
    done
    exec setpriv --reuid="$UID_U" --regid="$GID_U" --init-groups env -i HOME="$HOME_U" USER="$U" \
        LOGNAME="$U" PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="$RT" \
        XDG_CONFIG_HOME="$E2E_SCRATCH/config" "$SYSTEMD" --user
) </dev/null >"$E2E_SCRATCH/manager.log" 2>&1 &
MGR=$!
bd_wait_file "$RT/systemd/private" 20 || bd_fail "the user manager did not come up: $(cat "$E2E_SCRATCH/manager.log")"
timeout 30 setpriv --reuid="$UID_U" --regid="$GID_U" --init-groups env -i XDG_RUNTIME_DIR="$RT" \
    systemctl --user is-system-running --wait >/dev/null 2>&1 || true

# -- the desktop, started by the unit.
install -d -m 0700 -o "$U" "$ST/$PROFILE"
as_user systemctl --user start "botdesk@$PROFILE" || bd_fail "systemctl --user start: $(cat "$OUTD/unit.log")"
bd_wait_file "$ST/$PROFILE/env" 60 || bd_fail "the unit's desktop never published its env: $(cat "$OUTD/unit.log")"
e2e_bd "$U" "$ST" --profile "$PROFILE" status --json
[ "$(e2e_json running)" = true ] || bd_fail "the unit's desktop is not running: $OUT"

# -- a program the desktop starts resolves a name. The probe is a D-Bus service of the
# desktop's own bus ($XDG_DATA_HOME/dbus-1/services), so the bus daemon starts it.
cat >"$OUTD/probe.sh" <<PROBE
#!/bin/sh
{ getent hosts probe.botdesk.test; echo "rc=\$?"; } >"$OUTD/probe.tmp" 2>&1
mv -f "$OUTD/probe.tmp" "$OUTD/probe.out"
PROBE
chmod 0755 "$OUTD/probe.sh"
services=$ST/$PROFILE/xdg/.local-share/dbus-1/services
install -d -o "$U" "$ST/$PROFILE/xdg/.local-share/dbus-1" "$services"
printf '[D-BUS Service]\nName=org.botdesk.Probe\nExec=%s\n' "$OUTD/probe.sh" >"$services/org.botdesk.Probe.service"
chown -R "$U" "$services" "$OUTD"
e2e_bd "$U" "$ST" --profile "$PROFILE" exec -- dbus-send --session --print-reply \
    --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.StartServiceByName \
    string:org.botdesk.Probe uint32:0
bd_wait_file "$OUTD/probe.out" 20 || bd_fail "the desktop's bus never started the probe: $ERR"
probe=$(<"$OUTD/probe.out")
[[ $probe == *"192.0.2.7 "* ]] ||
    bd_fail "a program started by the desktop under the unit cannot resolve a name: $probe"

# -- `botdesk stop` by the owner ends the service as a success: no failure, no restart.
e2e_bd "$U" "$ST" --profile "$PROFILE" stop
e2e_expect_rc 0 "botdesk stop of the unit's desktop"
bd_wait_file "$OUTD/result" 20 || bd_fail "the service did not end when its desktop was stopped: $(cat "$OUTD/unit.log")"
result=$(<"$OUTD/result")
[ "$result" = "success exited 0" ] ||
    bd_fail "botdesk stop counts as a failure of the service (Restart=on-failure brings it back): $result; log: $(cat "$OUTD/unit.log")"
log=$(<"$OUTD/unit.log")
[[ $log == *"desktop of profile '$PROFILE' running on display :"*"vncviewer $ST/$PROFILE/rfb.sock"* ]] ||
    bd_fail "botdesk run did not say in the service's log that the desktop is up: $log"
[[ $log == *"desktop of profile '$PROFILE' stopped by 'botdesk stop' (pid "*", user $U)"* ]] ||
    bd_fail "botdesk run did not say in the service's log who stopped the desktop: $log"
echo "PASS"
