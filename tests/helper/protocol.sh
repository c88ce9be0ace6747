#!/usr/bin/env bash
# Every malformed request is refused and nothing is installed: short, long, empty, bad magic, bad
# version, unknown operation, each reserved byte set, several messages (an empty record counts:
# it is not the end), none at all. Run against
# the test build (the full privileged path, with a stub package manager that records any run) and,
# for a few, against a real setuid copy used by a non-root group member.
source "$BD_SRCDIR/tests/helper/helper-lib.sh"
bdh_need_root

decide=4244525101000100
install=4244525101000200
zeros=0000000000000000
valid_install=$install$zeros

out=$(mktemp)
bdh_on_exit 'rm -f "$out"'

# refused HEX...: the records are refused with bad-request; the stub never ran.
refused() {
    local d
    d=$(bdh_stub_dir ok)
    local -a raw=()
    local h
    for h in "$@"; do raw+=(--raw "$h"); done
    BOTDESK_HELPER_TEST_DIR=$d "$BDH_CLIENT" "${raw[@]}" "$BDH_TEST" >"$out" 2>&1
    bdh_expect "$out" "result: bad-request manager=none detail=0" "exit: 4"
    bdh_nothing_ran "$d"
    rm -rf "$d"
}

# accepted HEX: the record, on a fresh stub (its directory in d, which the caller removes), is
# answered ok.
accepted() {
    d=$(bdh_stub_dir ok)
    BOTDESK_HELPER_TEST_DIR=$d "$BDH_CLIENT" --raw "$1" "$BDH_TEST" >"$out" 2>&1
    bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
}

# The valid request does install (so the refusals below mean something).
accepted "$valid_install"
grep -q ' install ' "$d/ran" || bd_fail "the valid request did not install"
rm -rf "$d"

# Op 4 (install-web) installs the web viewer's set, and only it; op 3 decides it.
accepted "4244525101000400$zeros"
grep -q ' install novnc$' "$d/ran" || bd_fail "install-web did not install novnc alone: $(cat "$d/ran")"
rm -rf "$d"
accepted "4244525101000300$zeros"
grep -q -- '--no-remove install novnc$' "$out" || bd_fail "decide-web did not name the web set: $(cat "$out")"
bdh_nothing_ran "$d"
rm -rf "$d"

# Op 6 (install-fonts) installs the fonts set, and only it; op 5 decides it.
mapfile -t font_pkgs < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt fonts)
accepted "4244525101000600$zeros"
grep -q " install ${font_pkgs[*]}\$" "$d/ran" || bd_fail "install-fonts did not install ${font_pkgs[*]} alone: $(cat "$d/ran")"
rm -rf "$d"
accepted "4244525101000500$zeros"
grep -q -- "--no-remove install ${font_pkgs[*]}\$" "$out" || bd_fail "decide-fonts did not name the fonts set: $(cat "$out")"
bdh_nothing_ran "$d"
rm -rf "$d"

refused "${valid_install:0:30}"                 # short by one byte
refused "${valid_install}00"                    # long by one byte
refused "${valid_install}$zeros$zeros"          # long by sixteen
refused ""                                      # empty record
refused "00"                                    # one byte
refused "4244525201000200$zeros"                # bad magic
refused "0000000001000200$zeros"                # no magic at all
refused "4244525102000200$zeros"                # version 2
refused "4244525100000200$zeros"                # version 0
refused "4244525101000000$zeros"                # op 0
refused "4244525101000700$zeros"                # op 7
refused "424452510100ffff$zeros"                # op 0xffff
refused "4244525101000201$zeros"                # op 0x0102
refused "4244525101000401$zeros"                # op 0x0104
for i in 0 1 2 3 4 5 6 7; do                    # each reserved byte
    res=
    for j in 0 1 2 3 4 5 6 7; do
        if [ "$i" = "$j" ]; then res+=80; else res+=00; fi
    done
    refused "$install$res"
done
refused "$valid_install" "$valid_install"       # two requests
refused "$decide$zeros" "$valid_install"        # two different requests
refused "$valid_install" "00"                   # a request and a stray byte
refused "$valid_install" ""                     # a request and an empty record
refused "$decide$zeros" "" "$valid_install"     # request, empty record, request (the fuzzer's)
refused "$valid_install" "" "" ""               # a request and empty records
refused "" "$valid_install"                     # an empty record, then the request
refused "$(printf 'ff%.0s' {1..16})"            # noise of the right size

# No request within the bound: refused as a timeout, nothing installed.
d=$(bdh_stub_dir ok)
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_REQUEST_TIMEOUT=0.3 \
    timeout 20 "$BDH_CLIENT" --op none --keep-open "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: request-timeout manager=none detail=0" "exit: 5"
bdh_nothing_ran "$d"
rm -rf "$d"
# A valid request, but the writing side never closed: the helper does not take it on trust.
d=$(bdh_stub_dir ok)
BOTDESK_HELPER_TEST_DIR=$d BOTDESK_HELPER_TEST_REQUEST_TIMEOUT=0.3 \
    timeout 20 "$BDH_CLIENT" --raw "$valid_install" --keep-open "$BDH_TEST" >"$out" 2>&1
bdh_expect "$out" "result: request-timeout manager=none detail=0" "exit: 5"
bdh_nothing_ran "$d"
rm -rf "$d"

# The same refusals from the installed-mode helper, run by a non-root member of group botdesk.
bdh_need_users
bdh_setuid_copy protocol
suid=$BDH_SUID
for rec in "${valid_install:0:30}" "4244525102000200$zeros" "$install${zeros:0:14}01"; do
    bd_as "$BD_USER_A" "$BDH_CLIENT" --raw "$rec" "$suid" >"$out" 2>&1
    bdh_expect "$out" "result: bad-request manager=none detail=0" "exit: 4"
    bdh_expect_no "$out" "line:"
done
bd_as "$BD_USER_A" "$BDH_CLIENT" --raw "$decide$zeros" --raw "$decide$zeros" "$suid" >"$out" 2>&1
bdh_expect "$out" "result: bad-request manager=none detail=0" "exit: 4"
# An empty record is a record, not the end: request, empty record, request; request, empty record.
bd_as "$BD_USER_A" "$BDH_CLIENT" --raw "$decide$zeros" --raw "" --raw "$decide$zeros" "$suid" >"$out" 2>&1
bdh_expect "$out" "result: bad-request manager=none detail=0" "exit: 4"
bd_as "$BD_USER_A" "$BDH_CLIENT" --raw "$decide$zeros" --raw "" "$suid" >"$out" 2>&1
bdh_expect "$out" "result: bad-request manager=none detail=0" "exit: 4"
# And the well-formed decide answers with the command it would run.
bd_as "$BD_USER_A" "$BDH_CLIENT" --raw "$decide$zeros" "$suid" >"$out" 2>&1
bdh_expect "$out" "result: ok manager=apt detail=0" "exit: 0"
echo "protocol: all malformed requests refused"
