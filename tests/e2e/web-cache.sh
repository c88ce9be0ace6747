#!/usr/bin/env bash
# botdesk web's caching (docs/web.md, "Caching"), on a real desktop: the page names every module
# of noVNC's graph (modulepreload) under this server's version prefix /v/VERSION/; those answers
# are immutable for a year, gzip when asked, byte for byte Debian's file; the page and the
# unversioned paths are revalidated, 304 for the ETag they gave; a file outside the graph gets an
# ETag too; another version's prefix is 404; the versioned files need the cookie like the rest.
# A changed noVNC file gives the next server another version with the new text, and the old
# prefix is gone. In Chromium, a reload fetches no module again and the desktop shows again.
source "$BD_SRCDIR/tests/e2e/web-lib.sh"
web_open

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
# A copy of Debian's noVNC, to change a file of it later.
NV=$E2E_SCRATCH/novnc
cp -rL /usr/share/novnc "$NV"
chmod -R a+rX "$NV"

# get PATH [CURL ARGS...]: one GET on the unix socket as the test user; headers (lower case, no
# CR) in $E2E_SCRATCH/h, the body in $E2E_SCRATCH/b.
get() {
    local path=$1
    shift
    : >"$E2E_SCRATCH/b.$U" # curl writes nothing for an empty body
    bd_as "$U" curl -s --unix-socket "$P/web.sock" -D - -o "$E2E_SCRATCH/b.$U" "$@" \
        "http://localhost$path" | tr -d '\r' | tr 'A-Z' 'a-z' >"$E2E_SCRATCH/h" ||
        bd_fail "curl $path"
    cp "$E2E_SCRATCH/b.$U" "$E2E_SCRATCH/b"
}
status() { head -n1 "$E2E_SCRATCH/h" | cut -d' ' -f2; }
header() { sed -n "s/^$1: //p" "$E2E_SCRATCH/h"; }
touch "$E2E_SCRATCH/b.$U" && bd_is_root && chown "$U:" "$E2E_SCRATCH/b.$U"

web_start default --novnc "$NV"
get /
[ "$(status)" = 200 ] || bd_fail "the page: $(<"$E2E_SCRATCH/h")"
[ "$(header cache-control)" = "private, no-cache" ] || bd_fail "the page's cache-control: $(<"$E2E_SCRATCH/h")"
page_etag=$(header etag)
[[ $page_etag =~ ^\"[0-9a-f]{16}\"$ ]] || bd_fail "the page's etag: $page_etag"
V=$(grep -o -m1 '/v/[0-9a-f]\{16\}/web/bar.js' "$E2E_SCRATCH/b" | cut -d/ -f3)
[ -n "$V" ] || bd_fail "the page names no versioned bar.js: $(<"$E2E_SCRATCH/b")"
grep -q "<link rel=\"modulepreload\" fetchpriority=\"low\" href=\"/v/$V/novnc/core/rfb.js\">" "$E2E_SCRATCH/b" ||
    bd_fail "rfb.js is not preloaded: $(<"$E2E_SCRATCH/b")"
# Every module of the graph: what rfb.js imports, and what those import (pako's inflate).
for m in core/util/logging.js core/decoders/tight.js vendor/pako/lib/zlib/inflate.js \
    vendor/pako/lib/zlib/inftrees.js core/input/keysymdef.js; do
    grep -q "href=\"/v/$V/novnc/$m\"" "$E2E_SCRATCH/b" || bd_fail "$m is not preloaded"
done
n=$(grep -c 'rel="modulepreload"' "$E2E_SCRATCH/b")
[ "$n" -ge 30 ] || bd_fail "only $n modules preloaded"
grep -q '@V@\|botdesk: modulepreload' "$E2E_SCRATCH/b" && bd_fail "a mark of the template is left"

# The page again with its ETag: 304 and no body.
get / -H "If-None-Match: $page_etag"
[ "$(status)" = 304 ] || bd_fail "the page with its etag: $(<"$E2E_SCRATCH/h")"
[ ! -s "$E2E_SCRATCH/b" ] || bd_fail "a 304 with a body"

# A versioned module: immutable, Debian's bytes, gzip when asked (another ETag), 304 for each.
get "/v/$V/novnc/core/rfb.js"
[ "$(status)" = 200 ] || bd_fail "versioned rfb.js: $(<"$E2E_SCRATCH/h")"
[ "$(header cache-control)" = "private, max-age=31536000, immutable" ] ||
    bd_fail "versioned rfb.js's cache-control: $(<"$E2E_SCRATCH/h")"
[ "$(header content-type)" = "text/javascript; charset=utf-8" ] || bd_fail "its type: $(<"$E2E_SCRATCH/h")"
[ "$(header x-content-type-options)" = nosniff ] || bd_fail "no nosniff: $(<"$E2E_SCRATCH/h")"
cmp -s "$E2E_SCRATCH/b" "$NV/core/rfb.js" || bd_fail "versioned rfb.js is not noVNC's"
etag=$(header etag)
get "/v/$V/novnc/core/rfb.js" -H 'Accept-Encoding: gzip'
[ "$(header content-encoding)" = gzip ] || bd_fail "no gzip: $(<"$E2E_SCRATCH/h")"
gzip -dc "$E2E_SCRATCH/b" | cmp -s - "$NV/core/rfb.js" || bd_fail "the gzip text is not rfb.js"
gz_etag=$(header etag)
[ "$gz_etag" != "$etag" ] || bd_fail "gzip and plain share the etag $etag"
get "/v/$V/novnc/core/rfb.js" -H "If-None-Match: $etag"
[ "$(status)" = 304 ] || bd_fail "versioned rfb.js with its etag: $(<"$E2E_SCRATCH/h")"
get "/v/$V/novnc/core/rfb.js" -H 'Accept-Encoding: gzip' -H "If-None-Match: $gz_etag"
[ "$(status)" = 304 ] || bd_fail "gzip rfb.js with its etag: $(<"$E2E_SCRATCH/h")"
# The page's own files under the version.
get "/v/$V/web/bar.js"
[ "$(status) $(header cache-control)" = "200 private, max-age=31536000, immutable" ] ||
    bd_fail "versioned bar.js: $(<"$E2E_SCRATCH/h")"

# Unversioned: the same file, revalidated.
get /novnc/core/rfb.js
[ "$(status) $(header cache-control)" = "200 private, no-cache" ] || bd_fail "/novnc/core/rfb.js: $(<"$E2E_SCRATCH/h")"
get /novnc/core/rfb.js -H "If-None-Match: $(header etag)"
[ "$(status)" = 304 ] || bd_fail "/novnc/core/rfb.js with its etag: $(<"$E2E_SCRATCH/h")"
# A file outside the graph, from disk: an ETag, 304, revalidated; under the version too.
get /novnc/app/styles/base.css
[ "$(status) $(header cache-control)" = "200 private, no-cache" ] || bd_fail "base.css: $(<"$E2E_SCRATCH/h")"
css_etag=$(header etag)
[[ $css_etag =~ ^\"[0-9a-f]{16}\"$ ]] || bd_fail "base.css's etag: $css_etag"
get /novnc/app/styles/base.css -H "If-None-Match: $css_etag"
[ "$(status)" = 304 ] || bd_fail "base.css with its etag: $(<"$E2E_SCRATCH/h")"
get "/v/$V/novnc/app/styles/base.css"
[ "$(status)" = 200 ] || bd_fail "versioned base.css: $(<"$E2E_SCRATCH/h")"
# Another version, a way up under the version: 404.
for path in /v/0000000000000000/novnc/core/rfb.js "/v/$V/novnc/../../etc/passwd" "/v/$V/" \
    "/v/$V/etc/passwd" "/v/$V"; do
    get "$path"
    [ "$(status)" = 404 ] || bd_fail "GET $path: $(<"$E2E_SCRATCH/h")"
done
web_stop

# A changed file: the next server has another version, the new text, and the old prefix is gone.
old=$V
printf '\n// changed\n' >>"$NV/core/util/int.js"
web_start default --novnc "$NV"
get /
V=$(grep -o -m1 '/v/[0-9a-f]\{16\}/web/bar.js' "$E2E_SCRATCH/b" | cut -d/ -f3)
[ -n "$V" ] && [ "$V" != "$old" ] || bd_fail "the version did not change: $old -> $V"
get "/v/$V/novnc/core/util/int.js"
grep -q '^// changed$' "$E2E_SCRATCH/b" || bd_fail "the new server serves the old int.js"
get "/v/$old/novnc/core/util/int.js"
[ "$(status)" = 404 ] || bd_fail "the old version is still served: $(<"$E2E_SCRATCH/h")"
web_stop

# On an address the versioned files need the cookie like everything else; in Chromium a reload
# takes every module from its cache and shows the desktop again.
port=$("$E2E_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
A=127.0.0.1:$port
web_start default --listen "$A"
got=$(bd_as "$U" curl -s -o /dev/null -w '%{http_code}' "http://$A/v/$V/novnc/core/rfb.js")
[ "$got" = 403 ] || bd_fail "a versioned file without the cookie: $got"
br_start --size 1280x800
frame='(() => { const c = document.querySelector("#screen canvas"); if (!c || !c.width) return false;
  const d = c.getContext("2d").getImageData(c.width / 2 | 0, c.height / 2 | 0, 1, 1).data;
  return d[0] + d[1] + d[2] > 0; })()'
frame=${frame//$'\n'/ }
modules='performance.getEntriesByType("resource").filter((r) => r.name.includes("/novnc/"))'
br_ok open "$WEB_URL"
br_ok wait "$frame" 20
br eval "$modules.filter((r) => r.transferSize > 0).length"
[ "${BR_OUT#value }" -ge 30 ] || bd_fail "the first open fetched only ${BR_OUT#value } modules"
br_ok open "http://$A/"
br_ok wait "$frame" 20
br eval "$modules.length + \" \" + $modules.filter((r) => r.transferSize > 0).length"
read -r total fetched <<<"$(tr -d '"' <<<"${BR_OUT#value }")"
[ "$total" -ge 30 ] && [ "$fetched" = 0 ] ||
    bd_fail "the reload fetched $fetched of $total modules again"
br_stop
web_stop
echo "PASS"
