#!/usr/bin/env bash
# Issue 12, defect 4 (second half): a launcher that fails on a full state file system cannot write
# its log, and the runner used to show the empty log as "(nothing)". It now says the log could
# not be written, and why (the errno of a write beside it, and the space left). A control: with
# room, a launcher that writes nothing still reads "(nothing)".
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
bd_is_root || bd_skip "needs root to mount a small file system"
small=$S/small
mkdir "$small"
mount -t tmpfs -o size=1m,mode=0755 botdesk-it "$small" || bd_skip "cannot mount a tmpfs here"
trap 'umount -l "$small" 2>/dev/null || true; it_cleanup' EXIT
mkdir -p "$small/state" "$small/fill"
chown "$U:" "$small/state" "$small/fill"
export BOTDESK_STATE_DIR=$small/state
P=$BOTDESK_STATE_DIR/default

# The file system fills up while the launcher starts: its message is lost.
export BD_FILL=$small/fill/filler
export BD_PIDFILE=$P/launcher.pid
export BOTDESK_PASS_ENV=$BOTDESK_PASS_ENV,BD_FILL,BD_PIDFILE
# The fake fills it once the runner has recorded it (launcher.pid): before that, the record is
# what fails, a different message (a race the loaded CI machine once lost). Bounded: 10 s.
export BOTDESK_LAUNCHER=$(it_fake fills <<'FAKE'
for _ in $(seq 1000); do [ -e "$BD_PIDFILE" ] && break; sleep 0.01; done
dd if=/dev/zero of="$BD_FILL" bs=64k 2>/dev/null || true
echo "fake: this message is lost" >&2 || true
exit 1
FAKE
)
it_bd start
it_expect_rc 1 "a launcher that fails on a full file system"
it_expect_in "$ERR" "it could not be written, No space left on device" "the log's emptiness explained"
it_expect_in "$ERR" "the file system holding $P has" "the file system named"
it_expect_not_in "$ERR" "(nothing)" "not an empty tail shown as nothing"

# With room again, a launcher that says nothing: "(nothing)", and no invented cause.
rm -f "$BD_FILL"
export BOTDESK_LAUNCHER=$(it_fake quiet <<<'exit 1')
it_bd start
it_expect_rc 1 "a launcher that exits without a word"
it_expect_in "$ERR" "ends with:
(nothing)" "an empty log with room to write it"
echo "PASS"
