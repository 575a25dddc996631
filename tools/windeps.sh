#!/bin/sh
# The libraries blobc needs, built for Windows from Debian's source
# packages with the mingw-w64 cross compiler (make windows).
#
#   tools/windeps.sh DIR    builds into DIR (build-win/deps): DIR/include,
#                           DIR/lib (libyaml.a, libcjson.a, libxxhash.a) and
#                           DIR/bin/libcurl-4.dll with its headers.
#
# Nothing is copied into the source tree. The sources come from `apt-get
# source` through an apt configuration of this script's own under DIR/apt
# (deb-src entries made from the system's Debian or Ubuntu deb entries), so
# the system's apt setup is read, never changed, and no root is needed.
# libyaml, cJSON and xxHash are linked statically; libcurl is a DLL, loaded
# at run time by the HTTP cache like libcurl.so.4 on Linux, built with HTTP
# only (HTTPS through Windows' own TLS, schannel; no other protocol).
# DIR/.done marks a finished build: a second run does nothing.
set -eu
out=${1:?usage: tools/windeps.sh DIR}
CROSS=${CROSS:-x86_64-w64-mingw32-}
CC="${CROSS}gcc"
AR="${CROSS}ar"
[ -f "$out/.done" ] && exit 0
for c in "$CC" "$AR" apt-get dpkg-source; do
    command -v "$c" >/dev/null 2>&1 && continue
    echo "windeps: $c not found; run 'make deps' (it installs gcc-mingw-w64-x86-64 and dpkg-dev)" >&2
    exit 1
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
apt=$out/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$out/src" "$out/include" \
    "$out/lib" "$out/bin"

# deb-src lines for the Debian and Ubuntu archives the system installs
# from: one-line entries from sources.list files, deb822 stanzas from
# .sources files, each with its keyring.
{
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        sed -n 's/^[[:space:]]*deb[[:space:]]\(.*\(debian\|ubuntu\).*\)/deb-src \1/p'
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '
            function flush() { if (types ~ /deb/ && uris ~ /debian|ubuntu/) {
                n = split(uris, u, " "); m = split(suites, s, " ")
                for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
                    print "deb-src " (key != "" ? "[signed-by=" key "] " : "") u[i] " " s[j] " " comps }
                types = uris = suites = comps = key = "" }
            /^[[:space:]]*$/ { flush(); next }
            /^#/ { next }
            { k = $1; sub(/^[^:]*:[[:space:]]*/, "") }
            k == "Types:" { types = $0 } k == "URIs:" { uris = $0 } k == "Suites:" { suites = $0 }
            k == "Components:" { comps = $0 } k == "Signed-By:" { key = $0 }
            END { flush() }' "$f"
    done
} | sort -u >"$apt/sources.list"
if [ ! -s "$apt/sources.list" ]; then
    echo "windeps: no Debian or Ubuntu archive in /etc/apt to take the sources from" >&2
    exit 1
fi
aptget() {
    apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/none" \
        -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
        -o APT::Sandbox::User="$(id -un)" "$@"
}
echo "windeps: fetching the sources of libyaml, cjson, xxhash and curl" >&2
aptget update >&2
rm -rf "$out/src" && mkdir -p "$out/src"
(cd "$out/src" && aptget source libyaml cjson xxhash curl >&2)
src() { for d in "$out"/src/"$1"-*/; do [ -d "$d" ] && echo "${d%/}" && return; done; exit 1; }

# libyaml: the library's sources as they are, with the version its
# configure script would define.
y=$(src libyaml)
v=${y##*-}
(cd "$y/src" && for c in *.c; do
    "$CC" -O2 -DYAML_DECLARE_STATIC -DYAML_VERSION_MAJOR="${v%%.*}" \
        -DYAML_VERSION_MINOR="$(echo "$v" | cut -d. -f2)" -DYAML_VERSION_PATCH="${v##*.}" \
        -DYAML_VERSION_STRING="\"$v\"" -I../include -c "$c" -o "$out/src/yaml-${c%.c}.o"
done)
"$AR" rcs "$out/lib/libyaml.a" "$out"/src/yaml-*.o
cp "$y/include/yaml.h" "$out/include/"

# cJSON: one file, its symbols neither imported nor exported.
j=$(src cjson)
"$CC" -O2 -DCJSON_HIDE_SYMBOLS -c "$j/cJSON.c" -o "$out/src/cJSON.o"
"$AR" rcs "$out/lib/libcjson.a" "$out/src/cJSON.o"
mkdir -p "$out/include/cjson"
cp "$j/cJSON.h" "$out/include/cjson/"

# xxHash: one file.
x=$(src xxhash)
"$CC" -O2 -c "$x/xxhash.c" -o "$out/src/xxhash.o"
"$AR" rcs "$out/lib/libxxhash.a" "$out/src/xxhash.o"
cp "$x/xxhash.h" "$out/include/"

# libcurl: curl's own makefile for GCC toolchains, HTTP and HTTPS only.
c=$(src curl)
off=""
for p in FTP LDAP TELNET DICT FILE TFTP RTSP POP3 IMAP SMTP GOPHER MQTT SMB; do
    off="$off -DCURL_DISABLE_$p"
done
echo "windeps: building libcurl-4.dll (a few minutes)" >&2
mkdir -p "$c/lib/x86_64-w64-mingw32"
MAKEFLAGS= make -s -C "$c/lib" -f Makefile.mk -j"${JOBS:-2}" CC="$CC" AR="$AR" RC="${CROSS}windres" \
    TRIPLET=x86_64-w64-mingw32 CFG=-schannel-ipv6-sspi CURL_DLL_SUFFIX=-4 \
    CFLAGS="-O2 -w$off" libcurl-4.dll >&2
cp "$c/lib/libcurl-4.dll" "$out/bin/"
mkdir -p "$out/include/curl"
cp "$c"/include/curl/*.h "$out/include/curl/"
# Licences travel with the DLL in the zip.
cp "$c/COPYING" "$out/bin/libcurl-COPYING.txt"
date >"$out/.done"
echo "windeps: done in $out" >&2
