# botdesk in a container: the desktop packages baked in, botdesk run as the command.
#   docker build -t botdesk .                          (with the desktop)
#   docker build --build-arg BOTDESK_DESKTOP=0 -t botdesk-core .   (runtime only)
#   docker run -d --name desk -v botdesk-state:/home/botdesk/.local/state/botdesk botdesk
#   docker logs desk                            (one line once the desktop is up, one at its end)
#   docker exec desk botdesk exec -- xdpyinfo   (a first check: the image has x11-utils)
#   docker exec desk botdesk status
# The desktop layer's package list is generated from policy/packages.tsv (what botdesk install
# puts on a host) and policy/image-tools.txt (x11-utils: xdpyinfo, xwininfo, xprop, for a user's
# first check; socat, to relay the RFB socket over `docker exec -i`, see README.md) by
# scripts/sync-dockerfile; tests/packaging/test-dockerfile.sh fails when they differ.

# -- build: compiles botdesk; nothing of it reaches the runtime image but the installed files.
FROM debian:12 AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       build-essential meson ninja-build pkg-config python3 \
       libseccomp-dev libcap-dev libx11-dev libxau-dev libxext-dev libxrandr-dev libpng-dev \
       libjpeg62-turbo-dev libxtst-dev libxcb1-dev libxcb-xtest0-dev libxdamage-dev \
       libxkbcommon-dev libjansson-dev \
       libwebsockets-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN meson setup /build --prefix=/usr --buildtype=release -Dtests=disabled \
    && ninja -C /build \
    && DESTDIR=/out meson install -C /build --no-rebuild

# -- runtime: Debian 12 slim, the runtime libraries, the desktop, botdesk.
FROM debian:12-slim AS runtime
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       libseccomp2 libcap2 libx11-6 libxau6 libxext6 libxrandr2 libpng16-16 ca-certificates \
       libjpeg62-turbo libxtst6 libxcb1 libxcb-xtest0 libxdamage1 libxfixes3 libxkbcommon0 \
       libjansson4 \
       libwebsockets17 \
    && rm -rf /var/lib/apt/lists/*

# The desktop layer comes before botdesk itself, so a code change does not reinstall it.
ARG BOTDESK_DESKTOP=1
# BEGIN desktop packages (generated from policy/packages.tsv and policy/image-tools.txt: run scripts/sync-dockerfile)
RUN if [ "$BOTDESK_DESKTOP" = 1 ]; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
         tigervnc-standalone-server \
         dbus-daemon \
         xfwm4 \
         xfdesktop4 \
         xfce4-panel \
         xfce4-settings \
         xfce4-terminal \
         fonts-dejavu-core \
         x11-utils \
         socat \
         novnc \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# END desktop packages

COPY --from=build /out/ /
# The mark of botdesk's own image (the path is BOTDESK_IMAGE_MARKER_PATH in meson.build): doctor
# and install then know the packages are baked in here and that nothing is installed while the
# image runs, so they never ask for the helper's setuid bit or group botdesk.
RUN mkdir -p /etc/botdesk \
    && printf '%s\n' '# botdesk container image: its packages are baked in when it is built.' \
       "desktop=$BOTDESK_DESKTOP" >/etc/botdesk/image
# A container is where the packages are baked in: the helper stays an ordinary binary (no
# setuid bit), and says so if anyone asks it to install. /tmp/.X11-unix must be root's and
# sticky (botdesk refuses a directory a user could make); the state directory exists so that a
# named volume mounted on it starts out owned by the desktop's user, not by root.
RUN useradd --uid 10000 --create-home --shell /bin/bash botdesk \
    && install -d -m 1777 -o root -g root /tmp/.X11-unix \
    && install -d -m 0700 -o 10000 -g 10000 /home/botdesk/.local /home/botdesk/.local/state \
       /home/botdesk/.local/state/botdesk
USER 10000
WORKDIR /home/botdesk
ENV BOTDESK_MIN_FREE_MB=1024
CMD ["botdesk", "run"]
