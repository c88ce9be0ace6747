#!/usr/bin/env bash
# Invariant 1, identity: launcher.pid holds "<pid> <starttime>" (field 22 of /proc/<pid>/stat);
# anything else (a recycled pid, the old bare format, garbage, overflow, pid 0/1/negative, a
# zombie) is "not running", and no signal ever reaches a process not verified as ours.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
export BOTDESK_LAUNCHER

# The real thing: a start records the launcher's pid and its start time from /proc.
it_bd start
it_expect_rc 0 "start with an instant fake launcher"
line=$(<"$P/launcher.pid")
pid=${line%% *}
it_expect_eq "$line" "$pid $(it_starttime "$pid")" "launcher.pid is '<pid> <field 22 of /proc/pid/stat>'"
it_expect_eq "$(it_stat_field "$pid" 5)" "$pid" "the recorded pid is the launcher (its own process group)"
it_status
it_expect_eq "$J_running" true "status after start"
it_expect_eq "$J_pid" "$pid" "status reports the recorded launcher"
it_bd stop
it_expect_rc 0 "stop of a running desktop"
it_expect_gone "$pid" "stop ends the launcher"

# A stranger: a live process of the same user, leader of its own group, that records any signal
# it gets. Only the identity check stands between it and a stop.
stranger=$(it_decoy stranger --trap)
start=$(it_starttime "$stranger")
mkdir -p "$P"
it_own "$P"

# plant CONTENT: a launcher.pid with CONTENT next to a published env, as a crashed desktop
# might leave them.
plant() {
    printf '%s' "$1" >"$P/launcher.pid"
    printf 'DISPLAY=:47\n' >"$P/env"
    it_own "$P/launcher.pid" "$P/env"
}

# The positive control: the stranger's true identity reads as a running launcher. Without it,
# every "not running" below could be a runner that never recognises anything.
plant "$stranger $start"$'\n'
it_status
it_expect_eq "$J_running" true "a live pid with its true start time is our launcher"
it_expect_eq "$J_pid" "$stranger" "status names the verified launcher"
it_bd env
it_expect_rc 0 "env of a verified launcher"
it_expect_in "$OUT" "DISPLAY=:47" "env prints the published file"

bad=(
    "$stranger $((start + 1))"$'\n' # recycled: alive, born at another time
    "$stranger $((start - 1))"
    "$stranger"$'\n' # the old bare-number format
    "$stranger"
    "$stranger $start.0" # the Python original's float start time
    "$stranger ${start}x"
    "$stranger $start 7"
    "+$stranger $start"
    " $stranger $start"
    "$stranger  $start"
    "$stranger"$'\t'"$start"
    "garbage"
    "garbage here"
    ""
    "$(printf '9%.0s' {1..40}) 1"
    "$(printf '9%.0s' {1..40}) $start"
    "$stranger $(printf '9%.0s' {1..40})"
    "0 0"
    "0 $start"
    "1 $(it_starttime 1)"
    "-5 0"
    "-$stranger $start"
    "$((stranger + 4294967296)) $start" # the pid wrapped past 32 bits
)
for content in "${bad[@]}"; do
    what="launcher.pid '${content//$'\n'/\\n}'"
    plant "$content"
    it_status
    it_expect_eq "$J_running" false "$what is not a running launcher"
    it_expect_eq "$J_pid" null "$what names no launcher"
    it_bd env
    it_expect_rc 3 "env with $what"
    it_bd stop
    it_expect_rc 3 "stop with $what has nothing to stop"
    it_expect_alive "$stranger" "stop with $what"
    [ ! -e "$S/pids/stranger.signals" ] ||
        bd_fail "stop with $what signalled the stranger: $(tr '\n' ' ' <"$S/pids/stranger.signals")"
done

# A command name with spaces and parentheses: field 22 is counted from the last ')'.
ln -s "$(command -v perl)" "$S/bin/x) 1 2 (y"
odd=$(it_decoy odd --exe "$S/bin/x) 1 2 (y" --trap)
it_expect_in "$(</proc/"$odd"/stat)" "(x) 1 2 (y)" "the decoy's command name holds ') ('"
plant "$odd $(it_starttime "$odd")"$'\n'
it_status
it_expect_eq "$J_running" true "a launcher whose name holds ') (' is recognised"
plant "$odd $(($(it_starttime "$odd") + 100))"$'\n'
it_bd stop
it_expect_rc 3 "stop of an odd-named stranger with the wrong start time"
it_expect_alive "$odd" "the odd-named stranger"
[ ! -e "$S/pids/odd.signals" ] || bd_fail "stop signalled the odd-named stranger"

# A zombie is dead, whatever its start time says.
holder=$(it_decoy zombie-holder --zombie --trap)
zombie=$(<"$S/pids/zombie-holder.child")
it_wait_gone 10 "$zombie" || bd_fail "the decoy's child did not exit"
it_expect_eq "$(it_stat_field "$zombie" 3)" Z "the precondition: an unreaped child is a zombie"
plant "$zombie $(it_starttime "$zombie")"$'\n'
it_status
it_expect_eq "$J_running" false "a zombie launcher is not running"
it_bd env
it_expect_rc 3 "env with a zombie launcher"
it_bd stop
it_expect_rc 3 "stop with a zombie launcher has nothing to stop"
it_expect_alive "$holder" "the zombie's parent"
[ ! -e "$S/pids/zombie-holder.signals" ] || bd_fail "stop signalled the zombie's parent"
echo "PASS"
