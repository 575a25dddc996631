#!/bin/sh
# bench/flatcc.sh - builds the flatcc peer of bench/run.sh: flatcc
# (dvidelabs/flatcc) from the source directory FLATCC_SRC, with cmake,
# into $BUILD/bench/flatcc (bench/flatcc/CMakeLists.txt keeps flatcc's
# own build from writing into its source directory); then the JSON
# parser, printer and verifier flatcc generates for bench/level.fbs, and
# bench/flatcc/driver.c linked against them and flatcc's runtime. Nothing
# of flatcc is ever copied into the source tree.
#
# flatcc's code is built as flatcc builds it for release (cmake's Release
# flags, -O3 -DNDEBUG with gcc and clang), the generated code and the
# driver with the same flags. On success prints the driver's path.
#
# Environment: FLATCC_SRC (required), BUILD (default build), CC.
set -eu

BUILD=${BUILD:-build}
CC=${CC:-cc}
F=$BUILD/bench/flatcc

die() {
    echo "bench/flatcc.sh: $*" >&2
    exit 2
}

[ -n "${FLATCC_SRC:-}" ] || die "FLATCC_SRC is not set"
[ -f "$FLATCC_SRC/CMakeLists.txt" ] && [ -f "$FLATCC_SRC/include/flatcc/flatcc_builder.h" ] ||
    die "FLATCC_SRC=$FLATCC_SRC does not look like flatcc's source directory"
command -v cmake >/dev/null 2>&1 || die "cmake not found (Debian: apt-get install cmake)"
src=$(cd "$FLATCC_SRC" && pwd)
mkdir -p "$F"
cmake -S bench/flatcc -B "$F/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
    -DFLATCC_SRC="$src" >"$F/cmake.log" 2>&1 || die "cmake failed: see $F/cmake.log"
cmake --build "$F/build" -j 2 >"$F/build.log" 2>&1 || die "building flatcc failed: see $F/build.log"
rm -rf "$F/gen"
mkdir -p "$F/gen"
"$F/build/bin/flatcc" -a --json -o "$F/gen" bench/level.fbs ||
    die "flatcc could not generate code for bench/level.fbs"
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O3 -DNDEBUG -I"$F/gen" -I"$src/include" -o "$F/driver" bench/flatcc/driver.c \
    "$F/build/lib/libflatccrt.a" || die "building the driver failed"
echo "$F/driver"
