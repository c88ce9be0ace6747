#!/usr/bin/env bash
# botdesk thumbnail --output: '-' is standard output, as for any Unix tool (it once wrote a file
# named '-'), never a terminal; './-' is still a file of that name; a path gets the PNG by rename.
# The grab itself is botdesk-thumbnail's (the e2e suite runs the real one); here a stand-in prints
# known bytes.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_xlock; fake_xserver; fake_publish; fake_hold')
cat >"$S/thumbnailer" <<'FAKE'
#!/bin/sh
printf '\211PNG\r\n\032\nfake png for %s %s\n' "$1" "$3"
FAKE
chmod 0755 "$S/thumbnailer"
it_own "$S/thumbnailer"
export BOTDESK_THUMBNAILER=$S/thumbnailer
it_start
want=$S/want.png
printf '\211PNG\r\n\032\nfake png for %s %s\n' "$J_display" 960x600 >"$want"

it_run sh -c '"$0" thumbnail --output - >"$1"' "$BOTDESK_BIN" "$S/out/stdout.png"
it_expect_rc 0 "thumbnail --output -"
cmp -s "$want" "$S/out/stdout.png" || bd_fail "thumbnail --output - did not put the PNG on standard output, byte for byte"
it_expect_absent "$S/-" "thumbnail --output - writes no file named '-'"
it_run sh -c '"$0" thumbnail --output - | od -An -c | head -1' "$BOTDESK_BIN"
it_expect_in "$OUT" "P   N   G" "thumbnail --output - into a pipe"

# A file named '-' is still possible, the Unix way.
it_bd thumbnail --output ./-
it_expect_rc 0 "thumbnail --output ./-"
cmp -s "$want" "$S/-" || bd_fail "thumbnail --output ./- did not write the file '-'"
it_bd thumbnail --output "$S/out/file.png"
cmp -s "$want" "$S/out/file.png" || bd_fail "thumbnail --output FILE did not write FILE"

# Not onto a terminal.
if command -v script >/dev/null; then
    it_run script -qec "$BOTDESK_BIN thumbnail --output -" /dev/null
    it_expect_rc 1 "thumbnail --output - onto a terminal"
    it_expect_in "$OUT" "redirect it" "it says to redirect standard output"
fi
echo "PASS"
