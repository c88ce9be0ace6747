#!/usr/bin/env bash
# botdesk install when nobody may install: with every desktop program present there is nothing to
# do, which is success whoever asks (a user outside group botdesk, a helper that is not setuid,
# botdesk's container image); with programs missing it is a failure that says who must act. In
# botdesk's image (its marker simulated by BOTDESK_IMAGE_MARKER) that is always the image build,
# never the helper or the group. The rows where the helper runs are the helper suite's.
source "$BD_SRCDIR/tests/integration/common.sh"
it_init
export BOTDESK_PACKAGE_MANAGER=apt
export BOTDESK_IMAGE_MARKER=$S/no-image
# A helper without the setuid bit, as a plain build leaves it: it can never act for the user.
: >"$S/helper"
chmod 0755 "$S/helper"
it_own "$S/helper"
export BOTDESK_HELPER=$S/helper

for args in install "install --dry-run"; do
    # shellcheck disable=SC2086 # word splitting is the point
    it_bd $args
    it_expect_rc 0 "botdesk $args with every program present and a helper that cannot act"
    it_expect_in "$OUT" "all installed: nothing to install" "botdesk $args says there is nothing to do"
    it_expect_eq "$ERR" "" "botdesk $args with nothing to do reports no error"

    # shellcheck disable=SC2086
    BD_PATH=$S/empty it_bd $args
    it_expect_rc 1 "botdesk $args with programs missing and a helper that cannot act"
    it_expect_in "$ERR" "is not installed setuid root" "botdesk $args says why it cannot install"
done

# Outside group botdesk with a helper installed as it should be: nothing to do is success, and
# the message says the group is for installing only.
if bd_is_root && id -u "$BD_USER_OUT" >/dev/null 2>&1; then
    # Never executed: only its owner, group and mode are looked at.
    install -m 4750 -o root -g botdesk /dev/null "$S/suid-helper"
    outsider() {
        RC=0
        bd_as "$BD_USER_OUT" "$IT_ENV" XDG_CONFIG_HOME="$S/config" BOTDESK_HELPER="$S/suid-helper" \
            "$BOTDESK_BIN" install >"$S/out/o.out" 2>"$S/out/o.err" || RC=$?
        OUT=$(<"$S/out/o.out")
        ERR=$(<"$S/out/o.err")
    }
    outsider
    it_expect_rc 0 "install by a user outside group botdesk with nothing missing"
    it_expect_in "$OUT" "nothing to install" "it says there is nothing to do"
    it_expect_in "$OUT" "Starting desktops needs no group" "and that the group is only for installing"
    BD_PATH=$S/empty outsider
    it_expect_rc 1 "install by a user outside group botdesk with programs missing"
    it_expect_in "$ERR" "$BD_USER_OUT is not in group botdesk" "it says why"
    it_expect_in "$ERR" "usermod -aG botdesk $BD_USER_OUT" "and how to get the right"
fi

# botdesk install --web: the web viewer's set (noVNC) alone, with its own "nothing to do" (the
# file botdesk web needs is there) and its own words.
mkdir -p "$S/novnc/core"
: >"$S/novnc/core/rfb.js"
it_own "$S/novnc"
for args in "install --web" "install --web --dry-run"; do
    # shellcheck disable=SC2086
    BOTDESK_NOVNC=$S/novnc BD_PATH=$S/empty it_bd $args
    it_expect_rc 0 "botdesk $args with noVNC present (and the desktop programs missing)"
    it_expect_in "$OUT" "noVNC is installed ($S/novnc): nothing to install" "botdesk $args says there is nothing to do"
    # shellcheck disable=SC2086
    BOTDESK_NOVNC=$S/no-novnc it_bd $args
    it_expect_rc 1 "botdesk $args with noVNC missing and a helper that cannot act"
    it_expect_in "$ERR" "may not install the web viewer's package (noVNC)" "botdesk $args names the set"
    it_expect_in "$ERR" "apt-get install -y --no-install-recommends novnc" "and the admin's command"
    it_expect_in "$ERR" "'botdesk install --web'" "and the command a group member runs"
    it_expect_not_in "$ERR" "xfwm4" "botdesk $args never asks for the desktop's packages"
done
it_bd install --wait 3
it_expect_rc 2 "install takes no --wait"
it_expect_in "$ERR" "install takes no --wait" "the refusal names the option"

# botdesk's container image: everything there is success; something missing is the image's to
# bake, not the helper's to fix.
printf '# botdesk container image\ndesktop=1\n' >"$S/image"
it_own "$S/image"
export BOTDESK_IMAGE_MARKER=$S/image
for args in install "install --dry-run"; do
    # shellcheck disable=SC2086
    it_bd $args
    it_expect_rc 0 "botdesk $args in botdesk's image with the desktop baked in"
    it_expect_in "$OUT" "baked into this image" "botdesk $args in the image says the packages are there"
    # shellcheck disable=SC2086
    BD_PATH=$S/empty it_bd $args
    it_expect_rc 1 "botdesk $args in an image that lacks the desktop"
    it_expect_in "$ERR" "botdesk's container image" "botdesk $args names the image"
    it_expect_in "$ERR" "baked in when it is built" "the image must bake the packages"
    it_expect_in "$ERR" "RUN apt-get update && apt-get install -y --no-install-recommends" "with the Dockerfile line"
    for word in "setuid" "chmod" "usermod" "administrator"; do
        it_expect_not_in "$ERR" "$word" "botdesk $args in the image never says '$word'"
    done
done
# Under no_new_privs, as in a pod, the same.
it_run setpriv --no-new-privs "$BOTDESK_BIN" install
it_expect_rc 0 "install in the image under no_new_privs with the desktop baked in"
# A start in such an image is refused with the same truth.
export BOTDESK_LAUNCHER=$(it_fake up <<<'fake_up')
BD_PATH=$S/empty it_bd start
it_expect_rc 1 "start in an image that lacks the desktop"
it_expect_in "$ERR" "baked in when it is built" "start in the image: the image must bake the packages"
it_expect_not_in "$ERR" "setuid" "start in the image: no word of the helper's setuid bit"
# In the image noVNC is baked in as well (the Dockerfile's layer): missing, the line names it.
BOTDESK_NOVNC=$S/no-novnc it_bd install --web
it_expect_rc 1 "install --web in an image that lacks noVNC"
it_expect_in "$ERR" "The web viewer's package (noVNC) is not installed, and this is botdesk's container image" "install --web in the image names the image"
it_expect_in "$ERR" "RUN apt-get update && apt-get install -y --no-install-recommends novnc && rm -rf /var/lib/apt/lists/*" "with the Dockerfile line for noVNC"
printf 'desktop=0\n' >"$S/image"
BD_PATH=$S/empty it_bd install
it_expect_in "$ERR" "BOTDESK_DESKTOP=0" "an image built without its desktop layer: build it with one"
echo "PASS"
