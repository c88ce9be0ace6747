#!/usr/bin/env bash
# The Dockerfile keeps its contract with policy/packages.tsv and policy/image-tools.txt, and the
# check really fails when the policy's apt list changes without the Dockerfile following, when the
# image drops its first-check tools, or when the Dockerfile breaks a rule.
source "$BD_SRCDIR/tests/lib.sh"
check=$BD_SRCDIR/tests/packaging/check-dockerfile.sh
policy=$BD_SRCDIR/policy/packages.tsv
dockerfile=$BD_SRCDIR/Dockerfile

# The marker path the runner was built with.
BD_IMAGE_MARKER=$(sed -n 's/^#define BOTDESK_IMAGE_MARKER_PATH "\(.*\)"$/\1/p' "$BD_BUILDDIR/config.h")
[ -n "$BD_IMAGE_MARKER" ] || bd_fail "config.h has no BOTDESK_IMAGE_MARKER_PATH"
export BD_IMAGE_MARKER
bash "$check" "$dockerfile" "$policy" || bd_fail "the Dockerfile breaks its contract"
python3 "$BD_SRCDIR/scripts/sync-deps" --check || bd_fail "scripts/sync-deps would change the Dockerfile"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Mutants live in $tmp, beside a copy of the real .dockerignore.
cp "$BD_SRCDIR/.dockerignore" "$tmp/.dockerignore"

# A package added to the policy but not to the image.
cp "$policy" "$tmp/policy.tsv"
printf 'extra\t-\tx11-apps\txorg-x11-apps\txorg-xclock\n' >>"$tmp/policy.tsv"
if bash "$check" "$dockerfile" "$tmp/policy.tsv" 2>"$tmp/err"; then
    bd_fail "a policy package missing from the image went unnoticed"
fi
grep -q 'x11-apps' "$tmp/err" || bd_fail "the breach does not name the package: $(cat "$tmp/err")"

# A package the image installs beyond the policy (a browser is the only allowed extra).
sed 's/^         fonts-dejavu-core \\$/         fonts-dejavu-core \\\n         chromium \\\n         vim \\/' "$dockerfile" >"$tmp/Dockerfile"
if bash "$check" "$tmp/Dockerfile" "$policy" 2>"$tmp/err"; then
    bd_fail "an unexpected extra package went unnoticed"
fi
grep -q 'vim' "$tmp/err" || bd_fail "the breach does not name vim: $(cat "$tmp/err")"
grep -q 'chromium' "$tmp/err" && bd_fail "chromium is an allowed extra"

# The first-check tools the image promises (policy/image-tools.txt) left out of the image.
sed '/^         x11-utils \\$/d' "$dockerfile" >"$tmp/Dockerfile"
! grep -q '^         x11-utils' "$tmp/Dockerfile" || bd_fail "the mutation did not remove x11-utils"
if bash "$check" "$tmp/Dockerfile" "$policy" 2>"$tmp/err"; then
    bd_fail "an image without its first-check tools went unnoticed"
fi
grep -q 'x11-utils' "$tmp/err" || bd_fail "the breach does not name x11-utils: $(cat "$tmp/err")"

# Each rule, broken one at a time.
mutate() {
    local what=$1 expr=$2
    sed "$expr" "$dockerfile" >"$tmp/Dockerfile"
    if bash "$check" "$tmp/Dockerfile" "$policy" 2>/dev/null; then
        bd_fail "breaking '$what' went unnoticed"
    fi
}
mutate "--no-install-recommends" '/BEGIN desktop/,/END desktop/s/--no-install-recommends//'
mutate "apt lists removed" '/BEGIN desktop/,/END desktop/s/rm -rf \/var\/lib\/apt\/lists\/\*;/true;/'
mutate "non-root USER" 's/^USER 10000/USER root/'
mutate "no setuid" 's/^RUN useradd/RUN chmod u+s \/usr\/libexec\/botdesk-helper \&\& useradd/'
mutate "the ARG switch" 's/^ARG BOTDESK_DESKTOP=1/ARG OTHER=1/'
mutate "CMD botdesk run" 's/^CMD .*/CMD ["bash"]/'
mutate "the image marker" 's|>/etc/botdesk/image$|>/etc/botdesk/other|'
mutate "the marker's desktop=" 's|"desktop=$BOTDESK_DESKTOP"|"desktop=1"|'
# The build context: without a .dockerignore, or one that lets .git in, the check fails.
cp "$dockerfile" "$tmp/Dockerfile"
sed -i '/^\.git$/d' "$tmp/.dockerignore"
bash "$check" "$tmp/Dockerfile" "$policy" 2>/dev/null && bd_fail "a .dockerignore that lets .git in went unnoticed"
rm "$tmp/.dockerignore"
bash "$check" "$tmp/Dockerfile" "$policy" 2>/dev/null && bd_fail "a missing .dockerignore went unnoticed"
echo "Dockerfile contract: ok"
