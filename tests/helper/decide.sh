#!/usr/bin/env bash
# The decision table of `botdesk install --dry-run`, row by row, with real processes: real
# non-root users in and out of group botdesk, with and without no_new_privs, against a helper
# made setuid root here, one left without the bit, and one on a nosuid mount. The helper's own
# answers (not permitted, not privileged) are checked beside the runner's words.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
bdh_need_users

out=$(mktemp)
state=$(bd_scratch "$BD_USER_A")
state_out=$(bd_scratch "$BD_USER_OUT")
bdh_on_exit 'rm -rf "$out" "$state" "$state_out"'
bdh_setuid_copy decide
suid=$BDH_SUID
mapfile -t apt_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt)
admin_cmd="apt-get install -y --no-install-recommends ${apt_pkgs[*]}"
docker_line="RUN apt-get update && apt-get install -y --no-install-recommends ${apt_pkgs[*]} && rm -rf /var/lib/apt/lists/*"

# The refusals matter only when something is missing (with every program present, `install` has
# nothing to do and succeeds, whoever asks): the users get a PATH without the desktop programs,
# with just the wrappers the rows use.
nodesk=$(bd_scratch "$BD_USER_A")
ln -s "$(command -v setpriv)" "$nodesk/setpriv"
ln -s "$(command -v env)" "$nodesk/env"
export BD_PATH=$nodesk
bdh_on_exit 'rm -rf "$nodesk"'

# dry_run USER HELPER [WRAPPER...]: `botdesk install --dry-run` (of the set --$DRY_SET when
# DRY_SET is set) as USER; output in $out, status in $rc.
dry_run() {
    local user=$1 helper=$2 dir=$state
    shift 2
    [ "$user" != "$BD_USER_OUT" ] || dir=$state_out
    set +e
    BOTDESK_HELPER=$helper BOTDESK_STATE_DIR=$dir bd_as "$user" "$@" "$BOTDESK_BIN" install \
        ${DRY_SET:+"--$DRY_SET"} --dry-run >"$out" 2>&1
    rc=$?
    set -e
}
# set_dry_run SET USER VAR=VALUE: dry_run of the set SET as USER through the setuid copy, with
# VAR=VALUE in botdesk's environment making the set's packages look absent.
set_dry_run() { DRY_SET=$1 dry_run "$2" "$suid" env "$3"; }
contains() {
    local t
    for t in "$@"; do
        grep -qF -- "$t" "$out" || { cat "$out" >&2; bd_fail "expected '$t'"; }
    done
}
# The words are looked for outside the paths the output names (the build directory's, which may
# hold anything: a CI copy of a user named bdsudo's checkout made one 'sudo').
lacks() {
    local t words
    words=$(sed -e "s#$BD_BUILDDIR##g" -e "s#$BD_SRCDIR##g" "$out")
    for t in "$@"; do
        if grep -qiF -- "$t" <<<"$words"; then
            cat "$out" >&2
            bd_fail "did not expect '$t'"
        fi
    done
}

# A member of group botdesk, with the setuid helper: the install can run; the helper names it.
dry_run "$BD_USER_A" "$suid"
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "group member: dry run exited $rc"; }
contains "would run, as root" "/usr/bin/apt-get" "--no-install-recommends --no-remove install ${apt_pkgs[*]}"

# The same user under no_new_privs (a container's usual state): baked into the image.
dry_run "$BD_USER_A" "$suid" setpriv --no-new-privs
[ "$rc" = 1 ] || bd_fail "no_new_privs: exit $rc"
contains "baked in" "no_new_privs" "$docker_line"
lacks "sudo"

# Not a member of the group: the exact admin command, and how to grant the right instead.
dry_run "$BD_USER_OUT" "$suid"
[ "$rc" = 1 ] || bd_fail "not in group: exit $rc"
contains "$BD_USER_OUT is not in group botdesk" "$admin_cmd" "usermod -aG botdesk $BD_USER_OUT" \
    "chown root:botdesk $suid && chmod 4750 $suid"
lacks "sudo"

# A helper without the setuid bit (as a plain build leaves it): ask the admin.
dry_run "$BD_USER_A" "$BDH_HELPER"
[ "$rc" = 1 ] || bd_fail "not setuid: exit $rc"
contains "is not installed setuid root" "$admin_cmd" "usermod -aG botdesk $BD_USER_A"

# No helper at all.
dry_run "$BD_USER_A" "/nonexistent/botdesk-helper"
[ "$rc" = 1 ] || bd_fail "no helper: exit $rc"
contains "/nonexistent/botdesk-helper is not installed" "$admin_cmd"

# The helper on a nosuid mount (a private mount namespace, so nothing outlives the test).
nosuid_dir=$(mktemp -d)
set +e
unshare -m --propagation private bash -c '
    set -e
    mount -t tmpfs -o nosuid,mode=0755 tmpfs "$1"
    install -m 4750 -o root -g botdesk "$2" "$1/botdesk-helper"
    source "$BD_SRCDIR/tests/lib.sh"
    BOTDESK_HELPER=$1/botdesk-helper BOTDESK_STATE_DIR=$4 bd_as "$3" "$BOTDESK_BIN" install --dry-run
' _ "$nosuid_dir" "$BDH_HELPER" "$BD_USER_A" "$state" >"$out" 2>&1
rc=$?
set -e
rmdir "$nosuid_dir"
if grep -q "mount: .*permission denied\|mount: .*not permitted" "$out"; then
    echo "decide: no nosuid mount possible here; that row is covered by the unit test" >&2
else
    [ "$rc" = 1 ] || { cat "$out" >&2; bd_fail "nosuid: exit $rc"; }
    contains "baked in" "nosuid" "$docker_line"
fi

# Root: runs, through the helper as well.
set +e
BOTDESK_HELPER=$BDH_HELPER BOTDESK_STATE_DIR=$state "$BOTDESK_BIN" install --dry-run >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "root: dry run exited $rc"; }
contains "would run, as root" "${apt_pkgs[*]}"

# No package manager (the test override only changes the runner's words): no word of privilege.
dry_run "$BD_USER_A" "$suid" env BOTDESK_PACKAGE_MANAGER=none
[ "$rc" = 1 ] || bd_fail "no manager: exit $rc"
contains "package manager" "with your distribution's own tools" "Xvnc"
lacks "sudo" "unprivileged" "root" "privilege" "admin"

# The web viewer's set (botdesk install --web): the same rows name novnc alone. noVNC is made to
# look absent (BOTDESK_NOVNC), or an outsider would rightly hear "nothing to install".
mapfile -t web_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt web)
set_dry_run web "$BD_USER_A" BOTDESK_NOVNC=/nonexistent
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "web, group member: dry run exited $rc"; }
contains "botdesk install --web would run, as root" "--no-install-recommends --no-remove install ${web_pkgs[*]}"
lacks "${apt_pkgs[0]}"
set_dry_run web "$BD_USER_OUT" BOTDESK_NOVNC=/nonexistent
[ "$rc" = 1 ] || { cat "$out" >&2; bd_fail "web, not in group: exit $rc"; }
contains "$BD_USER_OUT may not install the web viewer's package (noVNC)" \
    "apt-get install -y --no-install-recommends ${web_pkgs[*]}" "'botdesk install --web'" \
    "usermod -aG botdesk $BD_USER_OUT"
lacks "${apt_pkgs[0]}"

# The fonts set (botdesk install --fonts): the same rows name the two font packages alone.
# fontconfig is made to find nothing (BOTDESK_FC_LIST), or a host with the fonts would rightly
# say "nothing to install".
mapfile -t font_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt fonts)
set_dry_run fonts "$BD_USER_A" BOTDESK_FC_LIST=/bin/true
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "fonts, group member: dry run exited $rc"; }
contains "botdesk install --fonts would run, as root" "--no-install-recommends --no-remove install ${font_pkgs[*]}"
lacks "${apt_pkgs[0]}" "novnc"
set_dry_run fonts "$BD_USER_OUT" BOTDESK_FC_LIST=/bin/true
[ "$rc" = 1 ] || { cat "$out" >&2; bd_fail "fonts, not in group: exit $rc"; }
contains "$BD_USER_OUT may not install the international fonts (CJK, colour emoji)" \
    "apt-get install -y --no-install-recommends ${font_pkgs[*]}" "'botdesk install --fonts'" \
    "usermod -aG botdesk $BD_USER_OUT"
lacks "${apt_pkgs[0]}" "novnc"

# The helper's own view of the same rows, from bdh-client.
bd_as "$BD_USER_OUT" "$BDH_CLIENT" "$suid" >"$out" 2>&1 || true
contains "exec-error: Permission denied"
bdh_setuid_copy decide-loose
loose=$BDH_SUID
chmod 4755 "$loose"
bd_as "$BD_USER_OUT" "$BDH_CLIENT" "$loose" >"$out" 2>&1
contains "result: not-permitted manager=none detail=0" "exit: 3"
bd_as "$BD_USER_A" setpriv --no-new-privs "$BDH_CLIENT" "$suid" >"$out" 2>&1
contains "result: not-privileged manager=none detail=0" "exit: 2"
bd_as "$BD_USER_A" "$BDH_CLIENT" "$BDH_HELPER" >"$out" 2>&1
contains "result: not-privileged manager=none detail=0" "exit: 2"
echo "decide: every row of the table, with real users and a real setuid helper"
