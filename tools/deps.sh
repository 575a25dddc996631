#!/bin/sh
# The packages blobc needs, checked and (on request) installed.
#
#   tools/deps.sh --check         build dependencies present? If not, say
#                                 which packages and `make deps`; exit 1.
#   tools/deps.sh --install build install the missing build dependencies
#   tools/deps.sh --install all   ... and the tools the tests and benchmarks use
#   tools/deps.sh --install windows   what make windows needs: the mingw-w64
#                                 cross compiler and dpkg-dev (apt-get source)
#
# Only `make deps`, `make sample` and `make check` install (apt-get, on
# Debian/Ubuntu); a plain `make` only checks. Every check is a pkg-config
# or command lookup, so with everything present nothing else runs.
set -u
mode=${1:---install}
what=${2:-all}

# pkg-config module, Debian package: what the library links against.
BUILD_DEPS="yaml-0.1:libyaml-dev libcjson:libcjson-dev libxxhash:libxxhash-dev
libcurl:libcurl4-openssl-dev"
# command, Debian package: what the tests run besides what every Debian
# system has (each test that cannot find its tool reports SKIP, so the
# suite still runs without them). tests/cli/deps.sh holds every command
# the test scripts run to this list.
TEST_DEPS="c++:g++ nginx:nginx-light curl:curl mcs:mono-mcs mono:mono-runtime ninja:ninja-build cmake:cmake
xxhsum:xxhash python3:python3 strace:strace chromium:chromium zsh:zsh fish:fish"
# command, Debian package: what `make bench` runs besides the above
# (bench/pipeline.sh times its steps with hyperfine).
BENCH_DEPS="hyperfine:hyperfine"
# Python module, Debian package: what the tests' Python imports.
PY_DEPS="jsonschema:python3-jsonschema yaml:python3-yaml"

# command, Debian package: the Windows build (make windows, windows-dist)
# and its tests under Wine (make check-windows).
WINDOWS_DEPS="x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 x86_64-w64-mingw32-g++:g++-mingw-w64-x86-64
dpkg-source:dpkg-dev zip:zip"

missing=""  # Debian packages
add() { case " $missing " in *" $1 "*) ;; *) missing="${missing:+$missing }$1" ;; esac; }

if [ "$what" = windows ]; then
    for d in $WINDOWS_DEPS; do command -v "${d%%:*}" >/dev/null 2>&1 || add "${d#*:}"; done
    build_missing=$missing
elif command -v pkg-config >/dev/null 2>&1; then
    for d in $BUILD_DEPS; do pkg-config --exists "${d%%:*}" || add "${d#*:}"; done
else
    add pkg-config
    for d in $BUILD_DEPS; do add "${d#*:}"; done
fi
if [ "$what" != windows ]; then
    command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || add gcc
    build_missing=$missing
fi

if [ "$what" = all ]; then
    for d in $TEST_DEPS $BENCH_DEPS; do
        c=${d%%:*}
        command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || add "${d#*:}"
    done
    for d in $PY_DEPS; do
        command -v python3 >/dev/null 2>&1 && python3 -c "import ${d%%:*}" 2>/dev/null ||
            add "${d#*:}"
    done
    # tests/cli/locale.sh builds a German locale from its source.
    [ -f /usr/share/i18n/locales/de_DE ] || add locales
    for d in $WINDOWS_DEPS; do command -v "${d%%:*}" >/dev/null 2>&1 || add "${d#*:}"; done
    command -v wine >/dev/null 2>&1 || add wine
    [ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null 2>&1 || add wine64
fi

if [ "$mode" = --check ]; then
    [ -z "$build_missing" ] && exit 0
    echo "blobc: missing build dependencies (Debian/Ubuntu packages): $build_missing" >&2
    echo "blobc: run 'make deps' to install them (apt-get), or install them yourself" >&2
    echo "       (elsewhere: the development files of libyaml, cJSON, xxHash and libcurl" >&2
    echo "       with their pkg-config files yaml-0.1, libcjson, libxxhash, libcurl)." >&2
    exit 1
fi

[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "blobc: missing: $missing (Debian/Ubuntu package names); install them and run make again" >&2
    [ -z "$build_missing" ] && exit 0 # the tests that need the rest report SKIP
    exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        echo "blobc: need root (or sudo) to install: $missing" >&2
        exit 1
    fi
fi
echo "blobc: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 || true
if ! $sudo apt-get install -y -qq --no-install-recommends $missing >&2; then
    echo "blobc: apt-get could not install $missing" >&2
    exit 1
fi
