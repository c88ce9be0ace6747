#!/usr/bin/env bash
# The accessibility tree on a real desktop, as a real non-root user (issue 27):
#  - a Chromium page started with botdesk exec, no accessibility flag from the test, is in the
#    tree with its button, entry and link by role and name; `button` finds the push button;
#  - the button's bounds cover its pixels in a screenshot (the page paints it red);
#  - click --element and type --element act on elements found by role and name, and the page
#    sees it (its form's submit handler puts the text in the title, so in the tree);
#  - none or several matches are refused (exit 2), naming the candidates;
#  - an xfce4-terminal window is in the tree by its title; tree --window gives only it;
#  - an application that does not answer (stopped) is named and left out, the call still
#    returns with the others;
#  - MCP find returns the same element (same id, role and name);
#  - the accessibility bus listens in the profile's private directory;
#  - the lease applies: exit 4 for tree, find and --element under a human's.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v chromium >/dev/null || bd_skip "no chromium: install chromium (scripts/deps/test.txt)"
command -v xfce4-terminal >/dev/null || bd_skip "no xfce4-terminal: install the desktop's packages"
[ -x /usr/libexec/at-spi-bus-launcher ] || bd_skip "no at-spi2-core: install it (scripts/deps/run.txt)"
# Chromium's flag comes from the file botdesk installs where Debian's wrapper reads it
# (data/chromium.d: the package's botdesk-accessibility, or the build's copy that
# tests/helper/ci-setup.sh installs as botdesk-accessibility-build).
flags=
for f in /etc/chromium.d/botdesk-accessibility /etc/chromium.d/botdesk-accessibility-build; do
    [ -f "$f" ] && flags=$f
done
[ -n "$flags" ] || bd_skip "/etc/chromium.d/botdesk-accessibility is not installed: run tests/helper/ci-setup.sh or meson install"
cmp -s "$flags" "$BD_SRCDIR/data/chromium.d/botdesk-accessibility" ||
    bd_fail "$flags is not the tree's data/chromium.d/botdesk-accessibility: install it again"
e2e_user_a
E2E_PNGMEAN=$BD_BUILDDIR/tests/e2e/pngmean

bd start --json
e2e_expect_rc 0 "start"

# The accessibility bus's socket: in the profile's 0700 directory, not in /tmp or abstract.
[ "$(stat -c %a "$P")" = 700 ] || bd_fail "the profile's directory is $(stat -c %a "$P")"
grep -q "<servicedir>$P/a11y-services</servicedir>" "$P/bus.conf" ||
    bd_fail "bus.conf names no service directory of the desktop's: $(cat "$P/bus.conf")"

page=$E2E_SCRATCH/form.html
cp "$BD_SRCDIR/tests/e2e/a11y/form.html" "$page"
chmod 0644 "$page"
home=$E2E_SCRATCH/home-$U
mkdir -p "$home"
bd_is_root && chown "$U:" "$home"
# Started as an agent would: botdesk exec, and no accessibility flag.
BOTDESK_STATE_DIR=$ST bd_as "$U" env HOME="$home" "$BOTDESK_BIN" exec -- chromium \
    --user-data-dir="$home/chromium" --no-first-run --no-default-browser-check \
    --window-position=0,0 --window-size=900,700 "file://$page" >"$OUTD/chromium.log" 2>&1 &
E2E_RECORDERS+=("$!")
title=a11y-term-$$
BOTDESK_STATE_DIR=$ST bd_as "$U" env HOME="$home" "$BOTDESK_BIN" exec -- xfce4-terminal \
    --disable-server --title "$title" --geometry 60x10+950+100 >"$OUTD/terminal.log" 2>&1 &
E2E_RECORDERS+=("$!")

# until_found WHAT ARGS...: find, again (bounded) until it matches: no event says that an
# application has published its tree.
until_found() {
    local what=$1 deadline=$((SECONDS + 60))
    shift
    while :; do
        bd find "$@"
        [ "$RC" = 0 ] || bd_fail "find $*: exit $RC: $ERR"
        [ -n "$OUT" ] && return 0
        ((SECONDS < deadline)) || bd_fail "$what never showed in the accessibility tree: $(bd tree --depth 3; echo "$OUT"; tail -5 "$OUTD/chromium.log")"
        sleep 0.5
    done
}

until_found "Chromium's button" --role "push button" --name "Send report"

# The accessibility bus runs, in the private directory, and another user cannot reach it.
sock=$(ls -d "$P"/at-spi/bus_* 2>/dev/null | head -1)
[ -S "$sock" ] || bd_fail "no accessibility bus socket in $P/at-spi: $(ls -la "$P" "$P/at-spi" 2>&1)"
if bd_is_root && command -v dbus-send >/dev/null; then
    ub=$(bd_test_user "$BD_USER_B")
    ! bd_as "$ub" dbus-send --bus="unix:path=$sock" --print-reply --dest=org.freedesktop.DBus \
        / org.freedesktop.DBus.GetId >"$OUTD/other.out" 2>&1 ||
        bd_fail "$ub reached the accessibility bus: $(cat "$OUTD/other.out")"
    grep -qi "permission denied\|access denied\|EACCES\|not.*allowed" "$OUTD/other.out" ||
        bd_fail "$ub's refusal was not a permission's: $(cat "$OUTD/other.out")"
fi
until_found "the terminal" --role frame --name "$title"

# -- the page's elements by role and name, in the tree and by find
bd tree --json
e2e_expect_rc 0 "tree --json"
echo "$OUT" >"$OUTD/tree.json"
"$E2E_PY" - "$OUTD/tree.json" "$title" <<'PY' || bd_fail "tree --json: see above"
import json, sys
tree = json.load(open(sys.argv[1]))
nodes = []
def walk(n, depth):
    nodes.append((n, depth))
    for c in n["children"]:
        walk(c, depth + 1)
for n in tree["nodes"]:
    walk(n, 1)
assert tree["count"] == len(nodes), (tree["count"], len(nodes))
def one(role, name):
    m = [n for n, _ in nodes if n["role"] == role and n["name"] == name]
    assert len(m) == 1, f"{role} {name!r}: {len(m)} nodes"
    return m[0]
b = one("push button", "Send report")
assert (b["width"], b["height"]) == (240, 70), b
assert "enabled" in b["states"], b
one("entry", "Email")
one("link", "Help")
t = one("frame", sys.argv[2])
ids = [n["id"] for n, _ in nodes]
assert len(ids) == len(set(ids)), "ids repeat"
for n, depth in nodes:
    assert n["id"].count(".") == depth - 1, n["id"]
    for k in ("x", "y", "width", "height"):
        assert isinstance(n[k], int), n
PY
bd tree --depth 2
e2e_expect_rc 0 "tree --depth 2"
grep -q '^application "xfce4-terminal"' <<<"$OUT" ||
    bd_fail "the terminal's application is not in tree --depth 2: $OUT"
grep -q "^  frame \"$title\"" <<<"$OUT" || bd_fail "tree --depth 2: no frame \"$title\": $OUT"
# The outline's indentation is the depth: nothing below the windows with --depth 2.
! grep -q '^    ' <<<"$OUT" || bd_fail "tree --depth 2 went deeper: $OUT"

bd find --role button --name "Send report" --json
e2e_expect_rc 0 "find --role button"
read -r bid bx by bw bh < <("$E2E_PY" -c 'import json,sys
m=json.loads(sys.argv[1])["matches"]
assert len(m)==1 and m[0]["role"]=="push button", m
print(m[0]["id"], m[0]["x"], m[0]["y"], m[0]["width"], m[0]["height"])' "$OUT") ||
    bd_fail "find --role button --json: $OUT"
bd find --role entry --name email
e2e_expect_rc 0 "find --name, a part in another case"
grep -q '^entry "Email" .* in "Form test - Chromium"$' <<<"$OUT" || bd_fail "find --role entry: $OUT"
bd find --role link --name Help
grep -q '^link "Help" ' <<<"$OUT" || bd_fail "find --role link: $OUT"

# -- the bounds cover the button's pixels: red inside, not red around it
bd screenshot --output "$OUTD/screen.png" --format png
e2e_expect_rc 0 "screenshot"
read -r _ r g b _ _ < <("$E2E_PNGMEAN" "$OUTD/screen.png" $((bx + 4)) $((by + 4)) $((bw - 8)) $((bh - 8)))
((r > 200 && g < 60 && b < 60)) || bd_fail "the button's bounds $bx,$by ${bw}x$bh hold mean $r $g $b, not red"
read -r _ r g b _ _ < <("$E2E_PNGMEAN" "$OUTD/screen.png" $((bx - 12)) $((by + 4)) 8 $((bh - 8)))
((g > 200)) || bd_fail "left of the button's bounds is mean $r $g $b: the bounds are off"
read -r _ r g b _ _ < <("$E2E_PNGMEAN" "$OUTD/screen.png" $((bx + 4)) $((by + bh + 4)) $((bw - 8)) 8)
((g > 200)) || bd_fail "below the button's bounds is mean $r $g $b: the bounds are off"

# -- acting on elements: typed into the entry, the button clicked, the page saw both
bd type --element "entry:Email" "ada@example.org" --json
e2e_expect_rc 0 "type --element"
bd click --element "push button:Send report" --json
e2e_expect_rc 0 "click --element"
[[ $OUT == "{\"x\":$((bx + bw / 2)),\"y\":$((by + bh / 2)),"* ]] || bd_fail "click --element clicked at $OUT"
until_found "the page's answer" --role frame --name "sent:ada@example.org"
# By node id, as tree and find give them.
bd click --element "$bid"
e2e_expect_rc 0 "click --element ID"

# -- refused: none, several, a malformed spec
bd click --element "push button:No such button"
e2e_expect_rc 2 "click --element of nothing"
[[ $ERR == *"no element showing matches"* ]] || bd_fail "none: $ERR"
bd click --element "entry:"
e2e_expect_rc 2 "click --element of several"
[[ $ERR == *"matches "*" elements ("*"entry \"Email\""* ]] || bd_fail "several: $ERR"
bd click 1 1 --element "entry:Email"
e2e_expect_rc 2 "click X Y --element"

# -- one window by its title, and by its id
bd tree --window "$title"
e2e_expect_rc 0 "tree --window TITLE"
head -1 <<<"$OUT" | grep -q "^frame \"$title\"" || bd_fail "tree --window: $OUT"
! grep -q "Send report" <<<"$OUT" || bd_fail "tree --window gave another window's nodes"
tid=$(head -1 <<<"$OUT" | sed -n 's/.* #\([0-9.]*\)$/\1/p')
bd tree --window "$tid" --depth 1
e2e_expect_rc 0 "tree --window ID"
[ "$(wc -l <<<"$OUT")" = 1 ] && grep -q "^frame \"$title\"" <<<"$OUT" || bd_fail "tree --window $tid --depth 1: $OUT"
bd tree --window "no such window $$"
e2e_expect_rc 2 "tree --window of nothing"

# -- MCP find: the same element
cat >"$OUTD/mcp.py" <<'PY'
import json, subprocess, sys
srv = subprocess.Popen([sys.argv[1], "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def call(i, method, params):
    srv.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    srv.stdin.flush()
    return json.loads(srv.stdout.readline())
call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}})
tools = [t["name"] for t in call(2, "tools/list", {})["result"]["tools"]]
assert "tree" in tools and "find" in tools, tools
r = call(3, "tools/call", {"name": "find", "arguments": {"role": "button", "name": "Send report"}})["result"]
text = r["content"][0]["text"]
assert not r["isError"] and text.startswith('push button "Send report" ') and ("#" + sys.argv[2] + " ") in text, text
r = call(4, "tools/call", {"name": "tree", "arguments": {"depth": 2}})["result"]
assert not r["isError"] and 'frame "sent:ada@example.org - Chromium"' in r["content"][0]["text"], r
r = call(5, "tools/call", {"name": "click", "arguments": {"element": "push button:No such button"}})["result"]
assert r["isError"] and "no element showing matches" in r["content"][0]["text"], r
srv.stdin.close()
srv.wait()
PY
chmod 0644 "$OUTD/mcp.py"
BOTDESK_STATE_DIR=$ST bd_as "$U" "$E2E_PY" "$OUTD/mcp.py" "$BOTDESK_BIN" "$bid" >"$OUTD/mcp.out" 2>&1 ||
    bd_fail "MCP find: $(cat "$OUTD/mcp.out")"

# -- an application that does not answer is named and left out; the call returns
tpid=$(pgrep -u "$U" -f -- "--title $title" | head -1)
[ -n "$tpid" ] || bd_fail "the terminal's process is not found"
kill -STOP "$tpid"
bd tree --timeout 20
kill -CONT "$tpid"
e2e_expect_rc 0 "tree with a stopped application"
grep -q "did not answer in time, left out: xfce4-terminal" <<<"$OUT" || bd_fail "the stopped terminal is not named: $OUT"
grep -q 'push button "Send report"' <<<"$OUT" || bd_fail "the other applications went missing: $OUT"

# -- the lease
bd take --reason "a11y test"
e2e_expect_rc 0 "take"
for a in "tree" "find --role button" "click --element push_button:Send_report" \
    "type --element entry:Email x"; do
    # shellcheck disable=SC2086
    bd $a
    e2e_expect_rc 4 "$a while a human holds the desktop"
done
echo "PASS"
