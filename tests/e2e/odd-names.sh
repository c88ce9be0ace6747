#!/usr/bin/env bash
# A profile name or geometry with odd characters cannot break the generated config files: the
# runner refuses what its grammar does not allow, and the odd names it does allow (and an odd but
# valid geometry) give a working desktop with well-formed configuration.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user "$BD_USER_A"
U=$E2E_U
ST=$E2E_ST

for bad in 'a b' 'x"/><y' '../etc' '.hidden' "$(printf 'a\nb')" ''; do
    e2e_bd "$U" "$ST" --profile "$bad" start
    e2e_expect_rc 2 "start of profile '$bad'"
done
for bad in '1440x900"/><x' '1440x900;id' '0x0' '1440'; do
    BOTDESK_GEOMETRY=$bad e2e_bd "$U" "$ST" start
    [ "$RC" != 0 ] || bd_fail "geometry '$bad' was accepted"
    [[ $ERR == *BOTDESK_GEOMETRY* ]] || bd_fail "the refusal of '$bad' does not name BOTDESK_GEOMETRY: $ERR"
done
[ -z "$(ls -A "$ST")" ] || bd_fail "refused starts left state: $(ls -A "$ST")"

name='-_odd.name-'
BOTDESK_GEOMETRY=1001x667 e2e_bd "$U" "$ST" --profile="$name" start --json
e2e_expect_rc 0 "start of profile '$name'"
[[ $(e2e_json display) =~ ^:([0-9]+)$ ]] || bd_fail "no display: $OUT"
n=${BASH_REMATCH[1]}
cmd=$(tr '\0' '\n' <"/proc/$(e2e_xvnc_pid "$n")/cmdline")
grep -qx -- "botdesk:$name" <<<"$cmd" || bd_fail "Xvnc's -desktop is not botdesk:$name"
grep -qx -- "1001x667" <<<"$cmd" || bd_fail "Xvnc's geometry is not 1001x667"
"$E2E_PY" - "$ST/$name/xdg" "$name" <<'PYEOF' || bd_fail "the seeded configuration is broken"
import os, sys, xml.etree.ElementTree as ET
home, name = sys.argv[1], sys.argv[2]
d = os.path.join(home, "xfce4/xfconf/xfce-perchannel-xml")
for c in os.listdir(d):
    ET.parse(os.path.join(d, c))
wm = ET.parse(os.path.join(d, "xfwm4.xml")).getroot()
names = [v.get("value") for v in wm.iter("value")]
assert names == ["botdesk:" + name], names
PYEOF
e2e_wait_drawn "$U" "$ST" "$name" 900 600
e2e_bd "$U" "$ST" --profile="$name" stop
e2e_expect_rc 0 "stop of '$name'"
echo "ok: odd names and geometries are refused or harmless"
