#!/bin/sh
# Installs the development packages blobc builds against when pkg-config
# cannot find them: apt-get on Debian/Ubuntu, a clear message elsewhere.
set -u
PKGS="yaml-0.1 libcjson libxxhash"
missing=""
if command -v pkg-config >/dev/null 2>&1; then
    for p in $PKGS; do
        pkg-config --exists "$p" || missing="$missing $p"
    done
else
    missing="pkg-config $PKGS"
fi
[ -z "$missing" ] && exit 0

# mono-mcs, mono-runtime and xxhash (xxhsum) are for the tests of the Unity
# interop (tests/cli/unity.sh), which skip what they cannot run without them.
debs="pkg-config libyaml-dev libcjson-dev libxxhash-dev mono-mcs mono-runtime xxhash"
if command -v apt-get >/dev/null 2>&1; then
    echo "blobc: installing build dependencies ($debs) for:$missing" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "blobc: need root (or sudo) to install:$missing" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2 || true
    if ! $sudo apt-get install -y -qq $debs >&2; then
        echo "blobc: apt-get could not install $debs" >&2
        exit 1
    fi
    exit 0
fi
echo "blobc: missing build dependencies:$missing" >&2
echo "blobc: install the development packages for libyaml, cJSON and xxHash" >&2
echo "       (with their pkg-config files yaml-0.1, libcjson, libxxhash) and run make again." >&2
exit 1
