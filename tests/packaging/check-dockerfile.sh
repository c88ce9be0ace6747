#!/usr/bin/env bash
# check-dockerfile.sh DOCKERFILE PACKAGES_TSV: exits 0 when the Dockerfile keeps its contract
# with the policy, else prints every breach and exits 1. No container engine needed.
set -euo pipefail
dockerfile=$1
policy=$2
src=${BD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fail=0
breach() {
    echo "Dockerfile: $*" >&2
    fail=1
}

# The desktop layer: from the ARG switch to the end of the RUN that follows it.
layer=$(awk '
    /^ARG BOTDESK_DESKTOP/ { on = 1; next }
    on && /^RUN / { run = 1 }
    run { print; if ($0 !~ /\\$/) exit }
' "$dockerfile")
[ -n "$layer" ] || breach "no 'ARG BOTDESK_DESKTOP' followed by a RUN: the desktop layer is gone"
grep -q -- '--no-install-recommends' <<<"$layer" || breach "the desktop layer lacks --no-install-recommends"
grep -q 'rm -rf /var/lib/apt/lists' <<<"$layer" || breach "the desktop layer does not remove the apt lists in the same layer"
grep -q 'BOTDESK_DESKTOP' <<<"$layer" || breach "the desktop layer does not obey BOTDESK_DESKTOP"

# Its packages: the words after --no-install-recommends up to the rm.
baked=$(sed -n '/--no-install-recommends/,/rm -rf/p' <<<"$layer" |
    sed -e 's/.*--no-install-recommends//' -e 's/&&.*//' -e 's/\\//g' | tr -s ' \t' '\n' |
    grep -v '^-' | grep -v '^$' | sort -u)
# The policy's packages, and the first-check tools the image adds (policy/image-tools.txt).
tools=$(dirname "$policy")/image-tools.txt
[ -f "$tools" ] || tools=$src/policy/image-tools.txt
want=$({
    python3 "$src/policy/gen-policy.py" list "$policy" apt
    grep -v '^#' "$tools" | grep -v '^[[:space:]]*$'
} | sort -u)
missing=$(comm -23 <(echo "$want") <(echo "$baked"))
extra=$(comm -13 <(echo "$want") <(echo "$baked") | grep -vx 'chromium' || true)
[ -z "$missing" ] || breach "the desktop layer does not install the policy's (or policy/image-tools.txt's): $(echo $missing)"
[ -z "$extra" ] || breach "the desktop layer installs more than the policy (only a browser may be added): $(echo $extra)"

# Multi-stage, runtime on Debian 12 slim, desktop layer before botdesk's own files (layer cache).
grep -qE '^FROM debian:12 AS build' "$dockerfile" || breach "no build stage 'FROM debian:12 AS build'"
grep -qE '^FROM debian:12-slim' "$dockerfile" || breach "the runtime stage is not Debian 12 slim"
arg_line=$(grep -n '^ARG BOTDESK_DESKTOP' "$dockerfile" | head -1 | cut -d: -f1)
copy_line=$(grep -n '^COPY --from=build' "$dockerfile" | head -1 | cut -d: -f1)
[ -n "$copy_line" ] || breach "the runtime stage does not copy botdesk from the build stage"
if [ -n "$arg_line" ] && [ -n "$copy_line" ] && [ "$arg_line" -gt "$copy_line" ]; then
    breach "the desktop layer comes after botdesk's files: every code change would reinstall it"
fi

# A non-root user, no setuid bit anywhere, and botdesk run as the command.
user=$(grep -E '^USER ' "$dockerfile" | tail -1 | awk '{print $2}')
case $user in
"" | root | 0 | 0:*) breach "the image does not run as a non-root USER (got '${user:-none}')" ;;
esac
if grep -nE 'chmod +[ugoa]*\+s|chmod +[0-7]*[4-7][0-7]{3}( |$)|setuid_install=true' "$dockerfile" >&2; then
    breach "a setuid bit is set in the image"
fi
grep -qE '^CMD \["botdesk", *"run"\]' "$dockerfile" || breach "CMD is not [\"botdesk\", \"run\"]"

# The image marks itself where the runner looks (BD_IMAGE_MARKER: config.h's
# BOTDESK_IMAGE_MARKER_PATH), saying whether its desktop layer was built, after botdesk's files.
if [ -n "${BD_IMAGE_MARKER:-}" ]; then
    mark_line=$(grep -n -- ">$BD_IMAGE_MARKER\$" "$dockerfile" | head -1 | cut -d: -f1)
    if [ -z "$mark_line" ]; then
        breach "the image does not write its marker $BD_IMAGE_MARKER (doctor and install would ask for a setuid helper)"
    else
        sed -n "$((mark_line - 2)),${mark_line}p" "$dockerfile" | grep -q 'desktop=\$BOTDESK_DESKTOP' ||
            breach "the image's marker does not record desktop=\$BOTDESK_DESKTOP"
        [ -z "$copy_line" ] || [ "$mark_line" -gt "$copy_line" ] ||
            breach "the image's marker is written before botdesk's files"
    fi
fi
# A .dockerignore beside it keeps build trees and the git history out of the build context.
ignore=$(dirname "$dockerfile")/.dockerignore
if [ ! -f "$ignore" ]; then
    breach "no .dockerignore beside it: COPY . . sends build trees and .git into the build"
else
    for p in .git build 'build-*'; do
        grep -qxF -- "$p" "$ignore" || breach ".dockerignore does not exclude $p"
    done
fi
exit "$fail"
