#!/usr/bin/env bash
# Invariant 9, missing desktop programs: a start is refused with the truth. With no package
# manager the message says so, with no word of sudo or privilege; as root with one it names the
# packages (the non-root verdicts are the helper's tests). status --json lists what is missing.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
# Only what a lookup may find: nothing (the host may well have the real programs in /usr/bin).
export BD_PATH=$S/empty

it_bd start
it_expect_rc 1 "start with no desktop program on PATH"
it_expect_in "$ERR" "botdesk: " "the message is botdesk's"
it_expect_in "$ERR" "package manager" "with no package manager, the message says so"
it_expect_not_in "$ERR" "sudo" "no package manager is no matter of privilege"
it_expect_not_in "$ERR" "unprivileged" "no package manager is no matter of privilege"
it_expect_eq "$(it_spawns)" 0 "a refused start spawns nothing"
it_expect_absent "$P/display" "a refused start allocates nothing"
it_status
it_expect_eq "$J_installed" false "status: installed"
it_expect_eq "$J_running" false "status: running"
it_expect_in "$J_blocker" "package manager" "status: the blocker is the missing programs"
# Either name of the X server may stand for the pair.
missing=$("$IT_PYTHON" -c '
import json, sys
names = ["Xvnc" if m == "Xtigervnc" else m for m in json.loads(sys.argv[1])]
print(" ".join(sorted(names)))' "$J_missing")
it_expect_eq "$missing" "Xvnc dbus-run-session xfce4-panel xfdesktop xfsettingsd xfwm4" \
    "status: missing lists every required program, once"

# One program short: exactly that one is missing. A non-executable file does not count, and
# either name of the X server will do.
mkdir -p "$S/some"
for p in Xtigervnc dbus-run-session xfdesktop xfce4-panel xfsettingsd; do
    : >"$S/some/$p"
    chmod 0755 "$S/some/$p"
done
: >"$S/some/xfwm4"
chmod 0644 "$S/some/xfwm4"
mkdir "$S/some/Xvnc"
it_own "$S/some"
BD_PATH=$S/some it_status
it_expect_eq "$J_missing" '["xfwm4"]' "only the program that is not an executable file is missing"
it_expect_eq "$J_installed" false "status: installed with one program missing"
BD_PATH=$S/some it_bd start
it_expect_rc 1 "start with one program missing"
it_expect_in "$ERR" "xfwm4" "the message names the missing program"
it_expect_not_in "$ERR" "xfdesktop" "the message names only what is missing"
chmod 0755 "$S/some/xfwm4"
BD_PATH=$S/some it_status
it_expect_eq "$J_installed" true "Xtigervnc stands in for Xvnc"
it_expect_eq "$J_missing" '[]' "nothing missing"
it_expect_eq "$J_blocker" null "nothing blocks"

# A running desktop never has a blocker, even when its programs vanish from PATH meanwhile.
BD_PATH=$S/bin:/usr/bin:/bin it_start
BD_PATH=$S/empty it_status
it_expect_eq "$J_running" true "the desktop runs"
it_expect_eq "$J_installed" false "status still says what is missing"
it_expect_eq "$J_blocker" null "a running desktop has no blocker"
BD_PATH=$S/empty it_start
it_expect_eq "$J_running" true "a start of a running desktop reports it, programs or not"
BD_PATH=$S/bin:/usr/bin:/bin it_bd stop
it_expect_rc 0 "stop"
spawned=$(it_spawns)

# Root with a package manager: the command and the packages, from the policy table.
if bd_is_root; then
    as_root() {
        RC=0
        bd_as root "$@" >"$S/out/root.out" 2>"$S/out/root.err" || RC=$?
        OUT=$(<"$S/out/root.out")
        ERR=$(<"$S/out/root.err")
    }
    export BOTDESK_STATE_DIR=$S/root-state
    for pm in apt dnf pacman; do
        want=$("$IT_PYTHON" "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" "$pm")
        BOTDESK_PACKAGE_MANAGER=$pm as_root "$BOTDESK_BIN" start
        it_expect_rc 1 "root start with $pm and the programs missing"
        for pkg in $want; do
            it_expect_in "$ERR" "$pkg" "root with $pm: the message names package $pkg"
        done
        [ "$pm" != pacman ] || continue # botdesk names pacman's packages but runs no pacman
        BOTDESK_PACKAGE_MANAGER=$pm as_root "$BOTDESK_BIN" status --json
        eval "$(it_json_vars <<<"$OUT")"
        for pkg in $want; do
            it_expect_in "$J_install_command" "$pkg" "root with $pm: install_command has $pkg"
        done
    done
    BOTDESK_PACKAGE_MANAGER=apt as_root "$BOTDESK_BIN" start
    it_expect_in "$ERR" "tigervnc-standalone-server" "root with apt: the X server's package"
    it_expect_in "$ERR" "apt-get install" "root with apt: the command"
    it_expect_not_in "$ERR" "sudo" "root needs no sudo"
    BOTDESK_PACKAGE_MANAGER=dnf as_root "$BOTDESK_BIN" start
    it_expect_in "$ERR" "tigervnc-x11-server" "root with dnf: the X server's package"
    it_expect_not_in "$ERR" "xorg-x11-server-utils" "root with dnf: no retired package names"
    it_expect_eq "$(it_spawns)" "$spawned" "root's refused starts spawn nothing"
else
    echo "not root: the root rows are skipped"
fi
echo "PASS"
