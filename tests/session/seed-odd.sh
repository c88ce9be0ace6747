#!/usr/bin/env bash
# botdesk-session --seed-only with hostile profile names and browser commands, as the test user:
# every generated XML file still parses and says what it should, every desktop entry is one
# line per key, and nothing is written outside the config home.
source "$BD_SRCDIR/tests/lib.sh"
U=$(bd_test_user)
S=$(bd_scratch "$U")
trap 'rm -rf "$S"' EXIT
SESSION=$BD_BUILDDIR/session/botdesk-session
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

mkdir -p "$S/bin"
printf '#!/bin/sh\n' >"$S/bin/xfce4-terminal"
printf '#!/bin/sh\n' >"$S/bin/web%browser"
chmod 0755 "$S/bin/xfce4-terminal" "$S/bin/web%browser"
[ "$(id -u)" = 0 ] && chown -R "$U:" "$S"

names=(
    'plain'
    'a&b<c>"d'"'"'e'
    ']]><!ENTITY x SYSTEM "file:///etc/passwd">'
    '--help'
    '../../etc'
    'ünïcödé ✓'
    '$(touch pwned)`touch pwned2`'
)
i=0
for name in "${names[@]}"; do
    home=$S/h$i/xdg
    mkdir -p "$S/h$i"
    [ "$(id -u)" = 0 ] && chown "$U:" "$S/h$i"
    BOTDESK_CONFIG_HOME=$home BOTDESK_PROFILE=$name BOTDESK_BROWSER='web%browser --x=$HOME --y=1'  \
        BD_PATH=$S/bin:/usr/bin:/bin bd_as "$U" "$SESSION" --seed-only ||
        bd_fail "seeding for profile name '$name' failed"
    "$PY" - "$home" "$name" <<'PYEOF' || bd_fail "generated config broken for profile name '$name'"
import configparser, os, sys, xml.etree.ElementTree as ET
home, name = sys.argv[1], sys.argv[2]
xfconf = os.path.join(home, "xfce4/xfconf/xfce-perchannel-xml")
channels = sorted(os.listdir(xfconf))
want = ["keyboard-layout.xml", "xfce4-desktop.xml", "xfce4-keyboard-shortcuts.xml",
        "xfce4-panel.xml", "xfce4-power-manager.xml", "xfce4-screensaver.xml", "xfwm4.xml",
        "xsettings.xml"]
# The shortcuts come from the system's file, when there is one.
if not os.path.exists("/etc/xdg/xfce4/xfconf/xfce-perchannel-xml/xfce4-keyboard-shortcuts.xml"):
    want.remove("xfce4-keyboard-shortcuts.xml")
assert channels == want, channels
for c in channels:
    root = ET.parse(os.path.join(xfconf, c)).getroot()
    assert root.tag == "channel" and root.get("name") + ".xml" == c, c
wm = ET.parse(os.path.join(xfconf, "xfwm4.xml")).getroot()
general = wm.find("property[@name='general']")
assert general.find("property[@name='use_compositing']").get("value") == "false"
assert general.find("property[@name='workspace_count']").get("value") == "1"
names = [v.get("value") for v in general.find("property[@name='workspace_names']")]
assert names == ["botdesk:" + name], names
# Ours, then xfwm4's own defaults, each once.
settings = [p.get("name") for p in general]
assert len(settings) > 8 and len(settings) == len(set(settings)), settings
panel = ET.parse(os.path.join(xfconf, "xfce4-panel.xml")).getroot()
plugins = {p.get("name"): p.get("value") for p in panel.find("property[@name='plugins']")}
assert plugins["plugin-21"] == "launcher" and plugins["plugin-22"] == "launcher", plugins
launchers = {}
for d in ("launcher-21", "launcher-22"):
    (f,) = os.listdir(os.path.join(home, "xfce4/panel", d))
    cp = configparser.RawConfigParser(strict=True, interpolation=None)
    cp.optionxform = str
    cp.read(os.path.join(home, "xfce4/panel", d, f))
    launchers[f] = cp["Desktop Entry"]["Exec"]
assert launchers["botdesk-terminal.desktop"].endswith("/bin/xfce4-terminal"), launchers
exe = launchers["botdesk-browser.desktop"]
assert exe.endswith('/bin/web%%browser "--x=\\\\$HOME" --y=1'), exe
keys = ET.parse(os.path.join(xfconf, "xfce4-keyboard-shortcuts.xml")).getroot() \
    if "xfce4-keyboard-shortcuts.xml" in channels else None
if keys is not None:
    custom = keys.find("property[@name='xfwm4']/property[@name='custom']")
    assert custom.find("property[@name='override']").get("value") == "true"
    assert len(list(custom)) > 1
    assert [v.get("value") for v in keys.find("property[@name='providers']")] == \
        ["xfwm4", "commands"]
for f in os.listdir(os.path.join(home, "autostart")):
    assert "\nHidden=true\n" in open(os.path.join(home, "autostart", f)).read(), f
PYEOF
    i=$((i + 1))
done
[ ! -e "$S/pwned" ] && [ ! -e "$S/pwned2" ] && [ ! -e pwned ] || bd_fail "a profile name ran a command"
[ -z "$(find "$S" -maxdepth 1 -newer "$S/bin" ! -name 'h*' ! -name bin ! -path "$S")" ] ||
    bd_fail "seeding wrote outside the config homes: $(ls -A "$S")"

# A geometry with odd characters is refused before anything is written.
BOTDESK_CONFIG_HOME=$S/g/xdg BOTDESK_GEOMETRY='1440x900"/><x' bd_as "$U" "$SESSION" --seed-only 2>"$S/err" &&
    bd_fail "an odd geometry was accepted"
grep -q BOTDESK_GEOMETRY "$S/err" || bd_fail "the refusal does not name BOTDESK_GEOMETRY: $(cat "$S/err")"
[ ! -e "$S/g" ] || bd_fail "an odd geometry still wrote files"
echo "ok: ${#names[@]} profile names seed well-formed configuration"
