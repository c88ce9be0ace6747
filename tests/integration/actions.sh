#!/usr/bin/env bash
# The runner's side of the actions and of `botdesk mcp`, without X: a stand-in for botdesk-act
# records how it was run. Bad arguments are exit 2 before anything runs; no desktop is exit 3;
# a human's lease (or an unreadable one) is exit 4 and botdesk-act is never run (take runs
# botdesk-act-pointer --release-held, to let go of the agent's keys); otherwise the
# runner execs it with the verified profile directory as an open descriptor, the desktop's
# DISPLAY and XAUTHORITY, the log_typed_text setting and the action's arguments untouched, and
# no other descriptor of its own; the pointer commands run botdesk-act-pointer the same way.
# `botdesk mcp` execs botdesk-mcp for the profile; `botdesk batch` execs it with --batch once the
# desktop runs and the agent holds it.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_xlock; fake_xserver; fake_publish; fake_hold')
# The stand-in for both programs; the pointer commands' one says which ran.
FAKE_ACT=$(cat <<'FAKE'
# What is open in this shell (255 is the script bash reads): listed by a plain child, so no pipe
# or saved descriptor of the shell's own shows.
ls "/proc/$$/fd" >|"$BD_MARKS/act.fds"
{
    printf '%s\n' "$@"
    echo "dirfd $(readlink "/proc/self/fd/$3")"
    sort -n "$BD_MARKS/act.fds" | tr '\n' ' '
    echo
    echo "program ${BD_FAKE_PROGRAM:-act}"
} >|"$BD_MARKS/act"
exit 0
FAKE
)
ACT=$(it_fake act <<<"$FAKE_ACT")
POINTER=$(it_fake pointer <<<"BD_FAKE_PROGRAM=pointer
$FAKE_ACT")
MCP=$(it_fake mcp <<'FAKE'
printf '%s\n' "$@" >|"$BD_MARKS/mcp"
FAKE
)
export BOTDESK_ACT=$ACT BOTDESK_ACT_POINTER=$POINTER BOTDESK_MCP=$MCP

# Usage errors: exit 2, named, nothing run (not even the desktop looked at).
for args in "click 1" "click 1 2 --double --button up" "scroll 1 2" "type --delay 5000 x" \
    "key" "screenshot --region 1,2,3" "wait-change --timeout 0" "move 1 2 --max 3x3"; do
    # shellcheck disable=SC2086
    it_bd $args
    it_expect_rc 2 "$args"
done
it_expect_absent "$S/marks/act" "a usage error ran botdesk-act"

# No desktop: exit 3.
it_bd click 10 20
it_expect_rc 3 "click with no desktop"
it_expect_in "$ERR" "start" "click with no desktop says how to start one"
it_expect_absent "$S/marks/act" "click with no desktop ran botdesk-act"

it_start
# A human holds the desktop: exit 4 for every action, botdesk-act never runs.
it_bd take --reason "password prompt"
it_expect_rc 0 "take"
# take lets go of what the agent holds: botdesk-act-pointer --release-held on the desktop, with
# the verified directory.
mapfile -t got <"$S/marks/act"
it_expect_eq "${got[6]}" "--release-held" "take runs the release of the agent's keys"
it_expect_eq "${got[3]}" "$(sed -n 's/^DISPLAY=//p' "$P/env")" "the release's DISPLAY"
it_expect_eq "${got[7]}" "dirfd $P" "the release gets the profile's directory"
it_expect_eq "${got[9]}" "program pointer" "the release is botdesk-act-pointer's"
rm -f "$S/marks/act"
for args in "click 10 20" "type secret" "key Return" "screenshot" "cursor" "wait-idle"; do
    # shellcheck disable=SC2086
    it_bd $args
    it_expect_rc 4 "$args under a human's lease"
    it_expect_in "$ERR" "a human holds the desktop of profile 'default'" "$args: the message"
done
it_expect_absent "$S/marks/act" "an action under a human's lease ran botdesk-act"
# An unreadable lease counts as a human's.
it_bd release
printf 'holder=agent\ngarbage\n' >"$P/lease"
it_own "$P/lease"
it_bd click 10 20
it_expect_rc 4 "click under an unreadable lease"
it_expect_absent "$S/marks/act" "an unreadable lease ran botdesk-act"
it_bd release

# The agent holds it: exec with the verified directory.
it_bd type -- "-a b"
it_expect_rc 0 "type"
mapfile -t got <"$S/marks/act"
it_expect_eq "${got[0]}" default "botdesk-act's profile"
it_expect_eq "${got[1]}" "$P" "botdesk-act's directory"
it_expect_eq "${got[3]}" "$(sed -n 's/^DISPLAY=//p' "$P/env")" "botdesk-act's DISPLAY"
it_expect_eq "${got[4]}" "$P/Xauthority" "botdesk-act's XAUTHORITY"
it_expect_eq "${got[5]}" 0 "log_typed_text is off by default"
it_expect_eq "${got[*]:6:3}" "type -- -a b" "the action's arguments, untouched"
it_expect_eq "${got[9]}" "dirfd $P" "the descriptor is the profile's directory"
it_expect_eq "${got[10]}" "0 1 2 ${got[2]} 255 " "no other descriptor crosses the exec"
it_expect_eq "${got[11]}" "program act" "type runs botdesk-act"
export BOTDESK_LOG_TYPED_TEXT=yes
it_bd click 1 2
it_expect_rc 0 "click with log_typed_text=yes ($ERR)"
mapfile -t got <"$S/marks/act"
it_expect_eq "${got[5]}" 1 "log_typed_text=yes reaches botdesk-act"
it_expect_eq "${got[6]}" click "click's arguments"
it_expect_eq "${got[9]}" "dirfd $P" "botdesk-act-pointer gets the profile's directory"
it_expect_eq "${got[11]}" "program pointer" "click runs botdesk-act-pointer"
export BOTDESK_LOG_TYPED_TEXT=maybe
it_bd click 1 2
it_expect_rc 1 "a bad log_typed_text"
it_expect_in "$ERR" "BOTDESK_LOG_TYPED_TEXT='maybe' is not valid" "the bad setting is named"
unset BOTDESK_LOG_TYPED_TEXT

it_bd --profile other mcp
it_expect_rc 0 "mcp"
it_expect_eq "$(tr '\n' ' ' <"$S/marks/mcp")" "--profile other " "botdesk-mcp's arguments"
# `botdesk batch` execs botdesk-mcp --batch for the running desktop's profile, its stdin the
# batch; refused (3, 4) from the files before it runs, and --json or an argument is usage (2).
rm -f "$S/marks/mcp"
it_bd batch </dev/null
it_expect_rc 0 "batch"
it_expect_eq "$(tr '\n' ' ' <"$S/marks/mcp")" "--profile default --batch " "botdesk-mcp's arguments for batch"
for args in "batch --json" "batch extra" "batch --bogus"; do
    rm -f "$S/marks/mcp"
    # shellcheck disable=SC2086
    it_bd $args
    it_expect_rc 2 "$args"
    it_expect_absent "$S/marks/mcp" "$args ran botdesk-mcp"
done
it_bd --profile other batch </dev/null
it_expect_rc 3 "batch with no desktop for the profile"
it_expect_absent "$S/marks/mcp" "batch with no desktop ran botdesk-mcp"
it_bd take
it_bd batch </dev/null
it_expect_rc 4 "batch under a human's lease"
it_expect_absent "$S/marks/mcp" "batch under a human's lease ran botdesk-mcp"
it_bd release
echo "ok: actions"
