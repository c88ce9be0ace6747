#!/usr/bin/env bash
# The flight recorder on a real desktop, as a real non-root user (issue 28):
#  - `record start` records through the view door; its timeline (`record show --json`) holds the
#    agent's clicks with their coordinates, a take with its reason, the human's input through
#    rfb.sock between it and the release, and an exec start; `record list --json` has the row (id, start, duration_ms, bytes, actions);
#  - `record export` gives a video ffprobe accepts: >= 2 s, >= 10 frames, >= 960 px wide, in
#    .webm (VP8) and .mp4 with --max and --captions;
#  - the recordings directory is 0700 and its files 0600, the owner's: the outsider cannot read
#    them;
#  - the recorder ends with the desktop: after `botdesk stop` no recorder process is left and
#    the recording has its end; `record = always` records from the start, and ends the same way;
#  - `record stop` with nothing recording exits 3, a second `record start` names the running one.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v ffprobe >/dev/null || bd_skip "no ffprobe: install ffmpeg (scripts/deps/test.txt)"
e2e_user_a
OUTSIDER=$(bd_test_user "$BD_USER_OUT")

py() { "$E2E_PY" -c "$@"; }

bd start --json
e2e_expect_rc 0 "start"
bd record stop
e2e_expect_rc 3 "record stop with nothing recording"

bd record start --json
e2e_expect_rc 0 "record start"
ID=$(e2e_json id)
[ "$(e2e_json recording)" = true ] || bd_fail "record start: $OUT"
RECPID_REC=$(cut -d' ' -f1 "$P/recorder") || bd_fail "no recorder file"
bd record start
e2e_expect_rc 0 "a second record start"
[ "$OUT" = "recording $ID" ] || bd_fail "a second start did not name the running recording: $OUT"

bd exec -- xdpyinfo
e2e_expect_rc 0 "exec"
bd click 300 310
e2e_expect_rc 0 "click"
bd click 500 520
e2e_expect_rc 0 "second click"
bd take --reason "2FA prompt"
e2e_expect_rc 0 "take"
# The human's input through the controller's door: the gate stamps it (at most once a second),
# the recorder notes it. Sent again until noted: the first stamp may be merged by inotify with
# the take's own, which the recorder skips.
EVENTS=$P/recordings/$ID.events
deadline=$((SECONDS + 15))
until grep -q '"kind":"input"' "$EVENTS"; do
    ((SECONDS < deadline)) || bd_fail "no human input on the timeline: $(cat "$EVENTS")"
    bd_as "$U" "$E2E_PY" "$BD_SRCDIR/tests/e2e/rfbclient.py" "$P/rfb.sock" ptr:40,40 \
        ptr:41,41 sync >/dev/null || bd_fail "the human's viewer failed"
    inotifywait -qq -t 2 -e modify "$EVENTS" 2>/dev/null || true
done
bd release
e2e_expect_rc 0 "release"
# The video needs seconds of screen to be seconds long: this sleep makes content, it waits for
# nothing.
sleep 2.5
bd record stop --json
e2e_expect_rc 0 "record stop"
[ "$(e2e_json id)" = "$ID" ] || bd_fail "record stop named another recording: $OUT"
bd_gone "$RECPID_REC" || bd_fail "the recorder $RECPID_REC outlived record stop"

bd record show "$ID" --json
e2e_expect_rc 0 "record show"
SHOW=$OUT
py '
import json, sys
r = json.loads(sys.argv[1])
tl = r["timeline"]
clicks = [e["event"] for e in tl if e["kind"] == "action" and e["event"]["command"] == "click"]
assert [(c["x"], c["y"]) for c in clicks] == [(300, 310), (500, 520)], clicks
takes = [e for e in tl if e["kind"] == "lease" and e["event"]["kind"] == "take"]
assert len(takes) == 1 and takes[0]["event"]["reason"] == "2FA prompt", tl
rel = [e for e in tl if e["kind"] == "lease" and e["event"]["kind"] == "release"]
assert len(rel) == 1 and rel[0]["offset_ms"] >= takes[0]["offset_ms"], tl
assert any(e["kind"] == "exec" and e["event"]["program"] == "xdpyinfo" for e in tl), tl
inp = [e for e in tl if e["kind"] == "input"]
assert inp and takes[0]["offset_ms"] <= inp[0]["offset_ms"] <= rel[0]["offset_ms"], tl
offs = [e["offset_ms"] for e in tl]
assert offs == sorted(offs) and all(0 <= o <= r["duration_ms"] for o in offs), offs
assert r["id"] == sys.argv[2] and r["duration_ms"] >= 2000 and r["bytes"] > 24, r
' "$SHOW" "$ID" || bd_fail "the timeline is not as done: $SHOW"

bd record list --json
e2e_expect_rc 0 "record list"
py '
import json, sys
rows = json.loads(sys.argv[1])
row = [r for r in rows if r["id"] == sys.argv[2]]
assert len(row) == 1, rows
r = row[0]
assert set(r) >= {"id", "start", "duration_ms", "bytes", "actions"}, r
assert r["actions"] == 2 and r["duration_ms"] >= 2000 and not r["recording"], r
' "$OUT" "$ID" || bd_fail "record list: $OUT"

# The files are the owner's alone.
RD=$P/recordings
[ "$(stat -c '%a %U' "$RD")" = "700 $U" ] || bd_fail "recordings dir: $(stat -c '%a %U' "$RD")"
for f in "$RD"/*; do
    [ "$(stat -c '%a %U' "$f")" = "600 $U" ] || bd_fail "$f: $(stat -c '%a %U' "$f")"
done
if bd_is_root; then
    bd_as "$OUTSIDER" cat "$RD/$ID.rfb" >/dev/null 2>&1 &&
        bd_fail "the outsider $OUTSIDER could read the recording"
    bd_as "$OUTSIDER" ls "$RD" >/dev/null 2>&1 && bd_fail "the outsider could list the recordings"
fi

# ffprobe's verdict: duration, frames counted by decoding, width.
probe() {
    ffprobe -v error -count_frames -select_streams v:0 \
        -show_entries stream=width,nb_read_frames:format=duration -of json "$1"
}
check_video() {
    local f=$1 min_w=$2 j
    j=$(probe "$f") || bd_fail "ffprobe refused $f"
    py '
import json, sys
j = json.loads(sys.argv[1])
s = j["streams"][0]
assert float(j["format"]["duration"]) >= 2.0, j
assert int(s["nb_read_frames"]) >= 10, j
assert int(s["width"]) >= int(sys.argv[2]), j
' "$j" "$min_w" || bd_fail "the video $f is not as asked: $j"
}
VID=$OUTD/rec.webm
bd record export "$ID" --output "$VID"
e2e_expect_rc 0 "export webm"
check_video "$VID" 1440
VID2=$OUTD/rec.mp4
bd record export "$ID" --output "$VID2" --max 1280x800 --captions
e2e_expect_rc 0 "export mp4 with captions"
check_video "$VID2" 1280
ls -a "$P" | grep -q '^export\.' && bd_fail "export left its captions directory behind"
# A recording cut short (a recorder killed mid-write, a full disk) exports up to its last whole
# update: a copy under another id, its last record torn.
CUT=20000102-000000
size=$(stat -c %s "$RD/$ID.rfb")
bd_as "$U" sh -c "head -c $((size - 7)) '$RD/$ID.rfb' >'$RD/$CUT.rfb' && cp '$RD/$ID.meta' '$RD/$CUT.meta'"
bd record export "$CUT" --output "$OUTD/cut.webm"
e2e_expect_rc 0 "export of a recording cut short"
check_video "$OUTD/cut.webm" 1440
# One that is not a recording at all is refused, naming it.
bd_as "$U" sh -c "head -c 4096 /dev/urandom >'$RD/$CUT.rfb'"
bd record export "$CUT" --output "$OUTD/junk.webm"
e2e_expect_rc 1 "export of bytes that are no recording"
[[ $ERR == *"not a recording"* ]] || bd_fail "export of junk: $ERR"
[ ! -e "$OUTD/junk.webm" ] || bd_fail "a failed export left its output"
bd_as "$U" rm -f "$RD/$CUT.rfb" "$RD/$CUT.meta"
bd record export "$ID" --output "$OUTD/rec.avi"
e2e_expect_rc 2 "export to an unknown container"
bd record show 20000101-000000
e2e_expect_rc 1 "show of no such recording"
bd record show ../../etc
e2e_expect_rc 2 "show of a path"

# The recorder ends with the desktop.
bd record start --json
e2e_expect_rc 0 "record start again"
ID2=$(e2e_json id)
RECPID_REC=$(cut -d' ' -f1 "$P/recorder")
bd stop
e2e_expect_rc 0 "stop"
bd_wait_gone "$RECPID_REC" 10 || bd_fail "the recorder $RECPID_REC outlived its desktop"
grep -q '^end_ms=[1-9]' "$RD/$ID2.meta" || bd_fail "the recording has no end: $(cat "$RD/$ID2.meta")"
[ ! -e "$P/recorder" ] || bd_fail "the recorder file outlived the recorder"

# record = always: from the desktop's start, a child of its session.
BOTDESK_RECORD=always bd start --json
e2e_expect_rc 0 "start with record = always"
bd_wait_file "$P/recorder" 15 || bd_fail "record = always started no recorder"
RECPID_REC=$(cut -d' ' -f1 "$P/recorder")
LAUNCHER=$(cut -d' ' -f1 "$P/launcher.pid")
[ "$(ps -o ppid= -p "$RECPID_REC" | tr -d ' ')" = "$LAUNCHER" ] ||
    bd_fail "the recorder is not the session's child"
bd stop
e2e_expect_rc 0 "stop the recorded desktop"
bd_wait_gone "$RECPID_REC" 10 || bd_fail "the session's recorder outlived its desktop"
bd record list --json
py 'import json,sys; assert len(json.loads(sys.argv[1])) == 3, sys.argv[1]' "$OUT" ||
    bd_fail "record = always made no recording: $OUT"
echo "PASS"
