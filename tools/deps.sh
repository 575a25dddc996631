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
# The tests also use a JSON Schema validator and a YAML reader for Python;
# without them those checks are skipped (and say so), so a failure to
# install them does not stop the build.
testdebs=""
python3 -c 'import jsonschema, yaml' >/dev/null 2>&1 || testdebs="python3 python3-jsonschema python3-yaml"
[ -z "$missing" ] && [ -z "$testdebs" ] && exit 0
if [ -z "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "blobc: installing test tools ($testdebs)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $testdebs >&2 ||
            echo "blobc: could not install $testdebs; the JSON Schema checks will be skipped" >&2
    else
        echo "blobc: $testdebs not installed; the JSON Schema checks will be skipped" >&2
    fi
    exit 0
fi

debs="pkg-config libyaml-dev libcjson-dev libxxhash-dev $testdebs"
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
