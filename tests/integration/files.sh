#!/usr/bin/env bash
# Invariant 11, files: everything the runner writes is written atomically (a temporary, then a
# rename) and never through a symlink: a symlink planted in the state directory is refused or
# replaced, never followed, and its target is untouched. The state root and the profile
# directories are private (0700) whatever the umask.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_xlock; fake_xserver; fake_publish; fake_hold')

# Private directories, even under umask 000.
export BOTDESK_STATE_DIR=$S/fresh/state
it_run sh -c 'umask 000 && exec "$@"' sh "$BOTDESK_BIN" start
it_expect_rc 0 "start under umask 000"
it_expect_eq "$(stat -c %a "$BOTDESK_STATE_DIR")" 700 "the state root is created 0700"
it_expect_eq "$(stat -c %a "$BOTDESK_STATE_DIR/default")" 700 "the profile directory is created 0700"
for f in display launcher.pid launcher.log activity start.lock; do
    mode=$(stat -c %a "$BOTDESK_STATE_DIR/default/$f")
    [ $((8#$mode & 8#077)) = 0 ] || bd_fail "$f is mode $mode under umask 000: not private"
done
it_bd stop
it_expect_rc 0 "stop"

# An existing profile directory others may read is made private again.
mkdir -p "$BOTDESK_STATE_DIR/loose"
chmod 0755 "$BOTDESK_STATE_DIR/loose"
it_own "$BOTDESK_STATE_DIR/loose"
it_bd --profile loose status
it_expect_rc 0 "status of a profile with a 0755 directory"
it_expect_eq "$(stat -c %a "$BOTDESK_STATE_DIR/loose")" 700 "a loose profile directory is made 0700"

# A profile directory that is a symlink is refused, and nothing lands where it points.
mkdir -p "$S/elsewhere"
ln -s "$S/elsewhere" "$BOTDESK_STATE_DIR/linked"
it_own "$S/elsewhere" "$BOTDESK_STATE_DIR/linked"
it_bd --profile linked start
it_expect_rc 1 "start of a profile whose directory is a symlink"
it_expect_eq "$(ls -A "$S/elsewhere")" "" "nothing is written through a symlinked profile directory"

# A profile directory of another user is refused (root only: it takes a chown).
if bd_is_root; then
    other=$(bd_test_user "$BD_USER_B")
    mkdir -p "$BOTDESK_STATE_DIR/foreign"
    chmod 0755 "$BOTDESK_STATE_DIR/foreign"
    chown "$other:" "$BOTDESK_STATE_DIR/foreign"
    it_bd --profile foreign start
    it_expect_rc 1 "start in a profile directory of another user"
    it_expect_eq "$(ls -A "$BOTDESK_STATE_DIR/foreign")" "" "nothing is written into another user's directory"
fi

# Planted symlinks, one file at a time, to a file of the user's own (so following it would
# succeed) and to a file that does not exist yet (so following it would create it).
export BOTDESK_STATE_DIR=$S/state
planted=(launcher.log env display launcher.pid activity start.lock rfb.sock)
for name in "${planted[@]}"; do
    for kind in existing dangling; do
        prof=sym-$kind-${name//./-}
        dir=$BOTDESK_STATE_DIR/$prof
        target=$S/target-$prof
        mkdir -p "$dir"
        chmod 0700 "$BOTDESK_STATE_DIR" "$dir"
        if [ "$kind" = existing ]; then
            printf 'precious\n' >"$target"
            touch -d '2001-02-03 04:05:06' "$target"
        fi
        ln -s "$target" "$dir/$name"
        it_own "$BOTDESK_STATE_DIR" "$S"/target-* 2>/dev/null || true
        before=$(stat -c '%s %y' "$target" 2>/dev/null || echo absent)

        it_bd --profile "$prof" start
        rc=$RC
        if [ "$rc" != 0 ]; then
            it_expect_in "$ERR" "symbolic link" "start with a planted $name refuses and says why"
        fi
        it_bd --profile "$prof" status
        it_bd --profile "$prof" exec -- true
        it_bd --profile "$prof" stop
        it_bd --profile "$prof" start
        it_bd --profile "$prof" stop

        after=$(stat -c '%s %y' "$target" 2>/dev/null || echo absent)
        it_expect_eq "$after" "$before" "the target of a planted $name ($kind) is untouched"
        if [ "$kind" = existing ]; then
            it_expect_eq "$(<"$target")" precious "the content behind a planted $name"
        fi
    done
done

# Published by rename: display and launcher.pid (and activity) appear whole, never created in
# place or written into.
prof=atomic
dir=$BOTDESK_STATE_DIR/$prof
mkdir -p "$dir"
chmod 0700 "$dir"
it_own "$dir"
mkfifo "$S/inotify.out" "$S/inotify.err"
inotifywait -m -e create,modify,moved_to,close_write --format '%e %f' "$dir" \
    >"$S/inotify.out" 2>"$S/inotify.err" &
IT_BG+=("$!")
exec {events}<"$S/inotify.out" {diag}<"$S/inotify.err"
while :; do
    read -r -t 10 -u "$diag" line || bd_fail "inotifywait did not set up its watch"
    [[ $line != *established* ]] || break
done
it_bd --profile "$prof" start
it_expect_rc 0 "start"
it_bd --profile "$prof" exec -- true
it_expect_rc 0 "exec"
: >"$dir/zz-end"
log=
while read -r -t 10 -u "$events" line; do
    log+="$line"$'\n'
    [ "$line" != "CREATE zz-end" ] || break
done
[[ $log == *"CREATE zz-end"* ]] || bd_fail "inotifywait saw no end: $log"
for name in display launcher.pid activity; do
    it_expect_in "$log" "MOVED_TO $name" "$name is published by a rename"
    while read -r ev file; do
        # The writer closes its temporary after the rename, so CLOSE_WRITE may follow.
        case $ev in CREATE* | MODIFY*) [ "$file" != "$name" ] ||
            bd_fail "$name was written in place ($ev), not published by a rename:
$log" ;;
        esac
    done <<<"$log"
done
[[ $(<"$dir/display") =~ ^[0-9]+$ ]] || bd_fail "display is not one number: $(<"$dir/display")"
[[ $(<"$dir/launcher.pid") =~ ^[0-9]+\ [0-9]+$ ]] || bd_fail "launcher.pid is not '<pid> <starttime>'"
[ "$(tail -c 1 "$dir/display" | od -An -c | tr -d ' ')" = '\n' ] || bd_fail "display is not a complete line"
[ "$(tail -c 1 "$dir/launcher.pid" | od -An -c | tr -d ' ')" = '\n' ] || bd_fail "launcher.pid is not a complete line"
it_expect_eq "$(ls -A "$dir" | grep -c '\.tmp' || true)" 0 "no temporary is left behind"
it_bd --profile "$prof" stop
echo "PASS"
