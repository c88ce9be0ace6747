# botdesk in a container: the desktop packages baked in, botdesk run as the command.
#   docker build -t botdesk .                          (with the desktop)
#   docker build --build-arg BOTDESK_DESKTOP=0 -t botdesk-core .   (runtime only)
#   docker run --rm -v botdesk-rfb:/home/botdesk/.local/state/botdesk botdesk
# The desktop layer's package list is generated from policy/packages.tsv by
# scripts/sync-dockerfile; tests/packaging/test-dockerfile.sh fails when they differ.

# -- build: compiles botdesk; nothing of it reaches the runtime image but the installed files.
FROM debian:12 AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       build-essential meson ninja-build pkg-config python3 \
       libseccomp-dev libcap-dev libx11-dev libxau-dev libxext-dev libpng-dev \
       libjpeg62-turbo-dev libxtst-dev libxdamage-dev libxkbcommon-dev libjansson-dev \
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
       libseccomp2 libcap2 libx11-6 libxau6 libxext6 libpng16-16 ca-certificates \
       libjpeg62-turbo libxtst6 libxdamage1 libxfixes3 libxkbcommon0 libjansson4 \
    && rm -rf /var/lib/apt/lists/*

# The desktop layer comes before botdesk itself, so a code change does not reinstall it.
ARG BOTDESK_DESKTOP=1
# BEGIN desktop packages (generated from policy/packages.tsv: run scripts/sync-dockerfile)
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
      && rm -rf /var/lib/apt/lists/*; \
    fi
# END desktop packages

COPY --from=build /out/ /
# A container is where the packages are baked in: the helper stays an ordinary binary (no
# setuid bit), and says so if anyone asks it to install.
RUN useradd --uid 10000 --create-home --shell /bin/bash botdesk
USER 10000
WORKDIR /home/botdesk
ENV BOTDESK_MIN_FREE_MB=1024
CMD ["botdesk", "run"]
