#!/usr/bin/env bash
# International text, for real (issue 23.9): with the CJK and emoji fonts absent, `botdesk doctor`
# names them; `botdesk install --fonts`, run by a non-root member of group botdesk through the
# helper made setuid root with the real apt-get, installs them; then fontconfig matches a CJK font
# from them for Japanese (not a fallback that would draw empty boxes), finds an emoji font, and
# doctor says the fonts are there. The host is left as found: fonts this test installed are
# removed again.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root
bdh_need_users
[ -x /usr/bin/apt-get ] && command -v dpkg-query >/dev/null || bd_skip "not an apt system"
command -v fc-match >/dev/null || bd_skip "no fontconfig (fc-match)"
mapfile -t pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt fonts)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

bdh_setuid_copy fonts-install
suid=$BDH_SUID
out=$(mktemp)
# Another member than real-install's: the helper's pace (one install a minute per uid) is theirs.
user=$BD_USER_B
state=$(bd_scratch "$user")
stamp=/run/botdesk-helper/$(id -u "$user")
rm -f "$stamp"
was=()
for p in "${pkgs[@]}"; do
    installed "$p" && was+=("$p")
done
cleanup() {
    rm -f "$out" "$stamp"
    rm -rf "$state"
    # Leave the host as found: what was not installed before goes again.
    local p k keep
    for p in "${pkgs[@]}"; do
        keep=false
        for k in "${was[@]}"; do [ "$k" = "$p" ] && keep=true; done
        if $keep; then
            installed "$p" || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                "$p" >/dev/null 2>&1 || true
        else
            dpkg -P "$p" >/dev/null 2>&1 || true
        fi
    done
}
bdh_on_exit cleanup
# Start from none of them (the ones the host had are back when the test ends).
for p in "${pkgs[@]}"; do
    if installed "$p"; then dpkg -r "$p" >/dev/null; fi
done

as_member() { BOTDESK_HELPER=$suid BOTDESK_STATE_DIR=$state bd_as "$user" "$@"; }
as_member "$BOTDESK_BIN" doctor >"$out" 2>&1 || true
grep -q '^note fonts .*no font for .*emoji' "$out" || { cat "$out" >&2; bd_fail "doctor does not name the missing emoji font"; }
grep -q 'botdesk install --fonts' "$out" || { cat "$out" >&2; bd_fail "doctor does not name botdesk install --fonts"; }

set +e
as_member timeout 900 "$BOTDESK_BIN" install --fonts >"$out" 2>&1
rc=$?
set -e
[ "$rc" = 0 ] || { cat "$out" >&2; bd_fail "botdesk install --fonts through the setuid helper exited $rc"; }
grep -q "^The international fonts are installed" "$out" || { cat "$out" >&2; bd_fail "no success line"; }
for p in "${pkgs[@]}"; do
    installed "$p" || bd_fail "$p was not installed"
done

# What a program on the desktop gets for Japanese and for emoji: the fonts just installed.
cjk=$(as_member fc-match -f '%{family}\n%{file}\n' ':lang=ja')
grep -q 'Noto Sans CJK\|Noto Serif CJK' <<<"$cjk" || bd_fail "fontconfig matches no Noto CJK font for Japanese: $cjk"
emoji=$(as_member fc-match -f '%{family}\n' 'emoji')
grep -q 'Noto Color Emoji' <<<"$emoji" || bd_fail "fontconfig matches no colour emoji font: $emoji"
# A kanji and an emoji are in the matched fonts' character sets (not drawn as empty boxes).
as_member fc-list ':charset=65e5' family | grep -q 'CJK' || bd_fail "no installed font has 日 (U+65E5)"
as_member fc-list ':charset=1f600' family | grep -q 'Noto Color Emoji' || bd_fail "no installed font has U+1F600"
as_member "$BOTDESK_BIN" doctor >"$out" 2>&1 || true
grep -q '^ok   fonts ' "$out" || { cat "$out" >&2; bd_fail "doctor does not see the installed fonts"; }
echo "fonts-install: doctor named the fonts, install --fonts installed ${pkgs[*]} through the setuid helper, fontconfig draws CJK and emoji with them"
