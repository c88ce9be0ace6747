#!/usr/bin/env bash
# botdesk web's figures, by hand, as a normal user with the default desktop running (and the
# profile 'viewer' free for vncviewer's own desktop):
#     bench/web/web-fps.sh build [SECONDS]
# Prints the time from `botdesk web` to the first frame in headless Chromium, the frames per
# second of a full-screen repaint (bench/web/repaint) seen in Chromium (noVNC's completed
# updates) and in TigerVNC's vncviewer on view.sock (XDamage on its desktop), and botdesk-web's
# resident memory while Chromium watches.
set -eu
build=$(realpath "$1")
secs=${2:-5}
src=$(cd "$(dirname "$0")/../.." && pwd)
: "${BOTDESK_BIN:=$build/runner/botdesk}"
B=$BOTDESK_BIN
state=$("$B" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["view_socket"].rsplit("/",1)[0])')
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

coproc BR { python3 "$src/tests/e2e/webbrowser.py" --size 1600x1000 2>"$work/browser.err"; }
br() { echo "$*" >&"${BR[1]}"; read -r -t 60 BR_OUT <&"${BR[0]}"; }
read -r -t 60 BR_OUT <&"${BR[0]}"
[ "$BR_OUT" = ready ]
frame='(() => { const c = document.querySelector("#screen canvas"); if (!c || !c.width) return false; const d = c.getContext("2d").getImageData(c.width / 2 | 0, c.height / 2 | 0, 1, 1).data; return d[0] + d[1] + d[2] > 0; })()'

t0=$(date +%s%N)
"$B" web --listen "127.0.0.1:$port" >"$work/web.out" 2>&1 &
pid=$! # botdesk execs botdesk-web: the same process
grep -q -m1 'Ctrl-C stops it' < <(timeout 10 tail -n +1 -F "$work/web.out")
url=$(grep -o -m1 'http://[^ ]*ticket=[0-9a-f]*' "$work/web.out")
br open "$url"
br wait "$frame" 20
t1=$(date +%s%N)
echo "botdesk web to the first frame in Chromium: $(((t1 - t0) / 1000000)) ms"
echo "botdesk-web resident memory, idle with one page: $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status")"

"$B" exec -- "$build/bench/web/repaint" &
repaint=$!
sleep 1
br eval "window.botdeskFlips = 0; const d = window.botdeskRfb._display; const f = d.flip.bind(d); d.flip = (...a) => { window.botdeskFlips++; return f(...a); }; true"
sleep "$secs"
br eval "window.botdeskFlips"
echo "full-screen repaint in Chromium (noVNC through botdesk web): $(python3 -c "print(round(${BR_OUT#value } / $secs, 1))") fps"
echo "botdesk-web resident memory during the repaint: $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status")"
echo "botdesk-web peak resident memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"

"$B" --profile viewer start >/dev/null
"$B" --profile viewer exec -- vncviewer -ViewOnly -Shared "$state/view.sock" >"$work/vv.log" 2>&1 &
viewer=$!
sleep 2
echo "full-screen repaint in vncviewer (view.sock, XDamage on its desktop): $("$B" --profile viewer exec -- "$build/bench/web/damagecount" "$secs")"
kill "$viewer" 2>/dev/null || true
"$B" --profile viewer stop >/dev/null
echo quit >&"${BR[1]}"
kill -INT "$pid"
kill "$repaint" "$viewer" 2>/dev/null || true
