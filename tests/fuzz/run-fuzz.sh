#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time over its committed corpus, without writing into
# the source tree: new inputs go to a scratch directory, a crash's input to the build tree. A
# crash fails the test and says where its input is, so that it joins the corpus with the fix.
#   run-fuzz.sh FUZZER CORPUS ARTIFACT_DIR [SECONDS]
set -euo pipefail
fuzzer=$1 corpus=$2 artifacts=$3 seconds=${4:-${BD_FUZZ_SECONDS:-15}}
name=$(basename "$fuzzer")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$artifacts"
rc=0
# -error_exitcode=1: libFuzzer's default, 77, is what meson reads as "skipped".
"$fuzzer" -error_exitcode=1 -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
    -artifact_prefix="$artifacts/$name-" -print_final_stats=1 "$scratch" "$corpus" \
    >"$scratch.log" 2>&1 || rc=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ +DONE)' "$scratch.log" || true
if [ "$rc" != 0 ]; then
    tail -40 "$scratch.log"
    echo "FAIL: $name found a crash; its input is in $artifacts (add it to $corpus with the fix)" >&2
fi
rm -f "$scratch.log"
exit "$rc"
