# What scripts/test-image and scripts/test-fresh share (sourced, not run): the container engine,
# started by hand where nothing runs it (CI has no systemd and no image registry), and Debian 12's
# minimal base image, made with debootstrap from this host's own apt sources and cached.
#
# The caller sets bd_lib_name (its name in messages and results) and, for bd_check,
# BD_IMAGE_RESULTS (optional: a file of meson testlog lines for scripts/test's summary).

bd_cache=${BD_IMAGE_CACHE:-/var/cache/botdesk-ci}
bd_passed=0 bd_failed=0

bd_step() { printf '\n== %s: %s (at %d s)\n' "$bd_lib_name" "$*" "$SECONDS"; }

bd_record() {
    [ -z "${BD_IMAGE_RESULTS:-}" ] ||
        python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1], "result": sys.argv[2]}))' \
            "$bd_lib_name / $1" "$2" >>"$BD_IMAGE_RESULTS"
}

bd_check() {
    local what=$1
    shift
    if "$@"; then
        bd_passed=$((bd_passed + 1))
        echo "ok   $what"
        bd_record "$what" OK
    else
        bd_failed=$((bd_failed + 1))
        echo "FAIL $what" >&2
        bd_record "$what" FAIL
        return 1
    fi
}

# The archive debootstrap fetches from: BD_DEBIAN_MIRROR, else the one this host's apt uses for
# its own release. No default host: the project names no mirror (a check keeps it so).
bd_mirror() {
    local m=${BD_DEBIAN_MIRROR:-}
    [ -n "$m" ] || m=$("$bd_src/scripts/host-apt-sources" --mirror) || true
    [ -n "$m" ] || {
        echo "$bd_lib_name: no Debian archive in this host's apt sources; set BD_DEBIAN_MIRROR" >&2
        return 1
    }
    printf '%s\n' "$m"
}

# The engine. Several of these scripts may run at once (two CI runs, or test-image and
# test-fresh by hand): each holds a shared lock while it uses the engine, and a daemon one of
# them started is stopped by the last one out, never by the first (it would pull the engine
# from under the others' containers). A daemon somebody else runs is left alone.
bd_engine_lock=/run/botdesk-ci-dockerd.lock
bd_engine_pid=/run/botdesk-ci-dockerd.pid
bd_engine_up() {
    command -v dockerd >/dev/null && command -v debootstrap >/dev/null ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 \
            --no-install-recommends docker.io debootstrap >/dev/null
    exec {bd_engine_fd}>"$bd_engine_lock"
    flock -x "$bd_engine_fd"
    if ! docker info >/dev/null 2>&1; then
        # Ours for this run; the lock's descriptor is not handed to it, or the daemon would
        # hold the lock for as long as it lives.
        dockerd --storage-driver=overlay2 >/var/log/botdesk-ci-dockerd.log 2>&1 {bd_engine_fd}>&- &
        local pid=$!
        echo "$pid" >"$bd_engine_pid"
        # Its socket appears, then it answers: both bounded.
        local _
        for _ in $(seq 1 120); do
            docker info >/dev/null 2>&1 && break
            kill -0 "$pid" 2>/dev/null || { tail -20 /var/log/botdesk-ci-dockerd.log >&2; return 1; }
            timeout 0.5 inotifywait -qq -e create /var/run 2>/dev/null || true
        done
        docker info >/dev/null 2>&1 || { echo "dockerd did not answer within 60 s" >&2; return 1; }
    fi
    flock -s "$bd_engine_fd"
}

bd_engine_down() {
    [ -n "${bd_engine_fd:-}" ] || return 0
    local pid
    if flock -n -x "$bd_engine_fd" && pid=$(cat "$bd_engine_pid" 2>/dev/null) &&
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ]; then
        kill "$pid" 2>/dev/null || true
        timeout 30 tail --pid="$pid" -f /dev/null 2>/dev/null || true
        rm -f "$bd_engine_pid"
    fi
    exec {bd_engine_fd}>&-
    bd_engine_fd=
}

# Debian's minimal base, made the way the official slim image is (no docs, man pages or
# locales; apt cleans its downloads and keeps no indexes in the layers).
bd_make_base() {
    local root=$1 mirror
    mirror=$(bd_mirror) || return 1
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$bd_cache/debootstrap.log" 2>&1 ||
        { tail -20 "$bd_cache/debootstrap.log" >&2; return 1; }
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOS'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/info/*
EOS
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOS'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
Acquire::GzipIndexes "true";
EOS
    # The host's own view of the archive (a snapshot's dates, a mirror's settings) is what
    # works from here.
    [ -f /etc/apt/apt.conf.d/99artifact-registry ] &&
        cp /etc/apt/apt.conf.d/99artifact-registry "$root/etc/apt/apt.conf.d/"
    rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/* \
        "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/*
}

# debian:12-slim (and debian:12, the same) in the engine, from the cached root filesystem; the
# debootstrap runs only when the cache is empty. Concurrent runs make it once (a lock).
bd_base_image() {
    mkdir -p "$bd_cache"
    docker image inspect debian:12-slim >/dev/null 2>&1 || {
        mkdir -p "$bd_cache"
        (
            flock -x 9
            if [ ! -s "$bd_cache/bookworm-minbase.tar" ]; then
                local root
                root=$(mktemp -d /var/tmp/botdesk-base.XXXXXX)
                bd_make_base "$root" || { rm -rf "$root"; exit 1; }
                tar -C "$root" -cf "$bd_cache/bookworm-minbase.tar.tmp" .
                mv "$bd_cache/bookworm-minbase.tar.tmp" "$bd_cache/bookworm-minbase.tar"
                rm -rf "$root"
            fi
        ) 9>"$bd_cache/.base.lock" || return 1
        docker import "$bd_cache/bookworm-minbase.tar" debian:12-slim >/dev/null
    }
    docker image inspect debian:12 >/dev/null 2>&1 || docker tag debian:12-slim debian:12
}
