#!/usr/bin/env bash
# Run by scripts/test as root after the build (BD_BUILDDIR is the build directory, readable by the
# test users, who exist with group botdesk by now). Makes a copy of the built helper setuid root,
# group botdesk, mode 4750, where the users can reach it but not write it, and installs the
# desktop's packages *through it* as bdtest-a, a non-root member of group botdesk: the path a user
# on a shared host takes. Any failure stops CI here, loudly.
set -euo pipefail
BD_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
export BD_SRCDIR
: "${BD_BUILDDIR:?BD_BUILDDIR must name the build directory}"
source "$BD_SRCDIR/tests/lib.sh"

[ "$(id -u)" = 0 ] || bd_fail "ci-setup.sh must run as root"
# BD_CI_HELPER_DIR: another place, for a run on a machine whose helper others' tests use.
helper_dir=${BD_CI_HELPER_DIR:-/usr/local/libexec/botdesk-ci}
helper=$helper_dir/botdesk-helper
mkdir -p "$helper_dir"
chown root:root "$helper_dir"
chmod 0755 "$helper_dir"
install -m 4750 -o root -g botdesk "$BD_BUILDDIR/helper/botdesk-helper" "$helper"
echo "ci-setup: $(stat -c '%A %U:%G' "$helper") $helper"

# What `meson install` puts where Debian's chromium wrapper reads it (data/meson.build): the tests
# run the build, not an installed botdesk, and the accessibility tests need Chromium's flag. Under
# a name of its own: the package's step installs and purges botdesk-accessibility itself, and the
# suites after it still need one (the wrapper sources both; the flag twice changes nothing).
if [ -d /etc/chromium.d ]; then
    install -m 0644 -o root -g root "$BD_SRCDIR/data/chromium.d/botdesk-accessibility" \
        /etc/chromium.d/botdesk-accessibility-build
fi

state=$(bd_scratch "$BD_USER_A")
trap 'rm -rf "$state"' EXIT
echo "ci-setup: botdesk install, as $BD_USER_A, through $helper"
if ! BOTDESK_HELPER=$helper BOTDESK_STATE_DIR=$state bd_as "$BD_USER_A" "$BD_BUILDDIR/runner/botdesk" install; then
    echo "ci-setup: FAILED: the desktop's packages could not be installed through the setuid helper" >&2
    exit 1
fi
# Trust, but verify: every package of the policy is installed now.
missing=()
while read -r pkg; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done < <(python3 "$BD_SRCDIR/policy/gen-policy.py" list "$BD_SRCDIR/policy/packages.tsv" apt)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "ci-setup: FAILED: still not installed: ${missing[*]}" >&2
    exit 1
fi
echo "ci-setup: the desktop's packages are installed"
