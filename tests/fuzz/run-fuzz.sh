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
# The coverage reached, one line per target in CI's output (its test is verbose): libFuzzer's
# final "#RUNS DONE cov: EDGES ft: FEATURES corp: N/SIZE" line, which it ends with a tab after
# the run count. A figure that drops says the harness no longer reaches the code it fuzzes.
final=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$scratch.log" | tail -n 1 || true)
new=$(sed -n 's/^stat::new_units_added: *//p' "$scratch.log")
if [[ $final =~ ^#([0-9]+)[[:space:]]+DONE[[:space:]]+cov:\ ([0-9]+)\ ft:\ ([0-9]+)\ corp:\ ([0-9]+)/ ]]; then
    echo "coverage: $name: cov ${BASH_REMATCH[2]} ft ${BASH_REMATCH[3]} (edges, features);" \
        "corpus ${BASH_REMATCH[4]} inputs (${new:-0} new), ${BASH_REMATCH[1]} runs in ${seconds} s"
else
    echo "coverage: $name: libFuzzer printed no final stats"
fi
if [ "$rc" != 0 ]; then
    tail -40 "$scratch.log"
    echo "FAIL: $name found a crash; its input is in $artifacts (add it to $corpus with the fix)" >&2
fi
rm -f "$scratch.log"
exit "$rc"
