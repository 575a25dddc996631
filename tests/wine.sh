#!/bin/sh
# make check-windows: the unit tests and the CLI suites against the
# Windows build (build-win/) under Wine, then the Windows cases of
# tests/windows/. Ends with "N passed, N failed" like make check.
#
# One wineserver stays up for the whole run (wineserver -p), so each of
# the thousands of blobc.exe starts costs a process, not a Wine session.
# The suites run unchanged: build-win/wine-run/ holds a `blobc`, the
# `tests/test_*` and the `tools/*` of the Windows build as small scripts
# that start the .exe under Wine, and tests/run.sh is pointed there.
set -u
BUILD=${BUILD:-build-win}
top=$(pwd)
win=$(cd "$BUILD" && pwd)
if ! command -v wine >/dev/null 2>&1; then
    echo "SKIP check-windows: wine not found (make deps installs it)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
export WINEPREFIX="$win/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
# Wine's own dialogs and the display are of no use here.
unset DISPLAY WAYLAND_DISPLAY
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "check-windows: setting up a Wine prefix in $WINEPREFIX" >&2
    wineboot -i >/dev/null 2>&1 || wine wineboot -i >/dev/null 2>&1
fi
# wineboot leaves its own server running for a moment, and `wineserver
# -p` beside a running server does nothing (exit 2): the run would then
# have no server of its own, every client would start one that ends with
# it, and a client starting as one ends gets "Connection reset by peer".
# So whatever server this prefix has (wineboot's, a killed run's) is
# stopped first, and the run's own is checked to have started.
wineserver -k 2>/dev/null
wineserver -w 2>/dev/null
if ! wineserver -p; then
    echo "check-windows: wineserver -p could not start a server for $WINEPREFIX" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
trap 'wineserver -k 2>/dev/null; wineserver -w 2>/dev/null' EXIT

run=$win/wine-run
rm -rf "$run"
mkdir -p "$run/tests" "$run/tools"
# Wine keeps the Unix HOME from Windows programs and gives them WINEHOME
# as HOME instead: the wrappers hand it on (as a path on drive Z:, which
# is / in a Wine prefix), so that a suite's HOME (~/.netrc, which libcurl
# reads from %HOME% on Windows) reaches blobc.exe as it reaches blobc.
wrap() { # wrap EXE SCRIPT
    printf '#!/bin/sh\n[ -z "${HOME:-}" ] || export WINEHOME="Z:$(printf %%s "$HOME" | tr / '"'\\\\\\\\'"')"\nexec wine "%s" "$@"\n' "$1" >"$2"
    chmod +x "$2"
}
wrap "$win/blobc.exe" "$run/blobc"
for t in "$win"/tests/test_*.exe; do wrap "$t" "$run/tests/$(basename "$t" .exe)"; done
for t in "$win"/tools/*.exe; do wrap "$t" "$run/tools/$(basename "$t" .exe)"; done
# The DLLs blobc.exe loads (libcurl) sit next to it, as in the zip.
cp "$win/libcurl-4.dll" "$win/tests/" 2>/dev/null
cp "$win/libcurl-4.dll" "$win/tools/" 2>/dev/null
mkdir -p "$run/samples"
[ -f "$win/samples/reader.exe" ] && wrap "$win/samples/reader.exe" "$run/samples/reader"
# What the suites link programs against (tests/cli/lib.sh: LIB_CC).
ln -s ../libblobc.a "$run/libblobc.a"
ln -s ../config.mk "$run/config.mk"
# Linux's build, for the byte-for-byte comparison of tests/windows/golden.sh.
export LINUX_BLOBC="${LINUX_BLOBC:-$top/build/blobc}"
# Generated code the Linux build makes byte for byte the same is compiled
# by make check, not again here (tests/cli/lib.sh: same_as_reference).
export REF_BLOBC="$LINUX_BLOBC"
export WIN_BUILD="$win" TARGET_OS=windows

# Suites that cannot run under Wine, and why.
SKIP_SUITES="install: installs Linux's shared library and pkg-config file (make install); not a Windows step
cmake: the CMake package comes with Linux's make install and builds Linux programs; the Windows zip has none yet
locale: sets a POSIX locale (de_DE.UTF-8) in a Linux test tool; tests/windows/windows.sh sets a German Windows locale instead
depfile: its names (with : \\ * ? \" < > | and control characters) cannot be Windows file names; tests/windows/windows.sh checks a depfile with drive letters
names: its file names hold bytes that are not UTF-8, which Windows file names (UTF-16) cannot
schema_limits: it reads schemas from /dev/zero, FIFOs and /dev/stdin, POSIX devices
fuzz_corpus: it replays the seeds through the fuzz targets built for Linux (make check); the seeds are the same bytes everywhere
architecture: it checks the source tree (make check); the Windows build compiles the same files
headers: it compiles the public headers with the host's compilers (make check); nothing of the Windows build runs"
export SKIP_SUITES
# The seeded suites (random, cache_key) run 10 seeds here, not 40: each
# seed is dozens of blobc.exe starts, and the Linux run covers all 40.
export RANDGEN_SEEDS="${RANDGEN_SEEDS:-10}"
SUITES_EXTRA=tests/windows BUILD="$BUILD/wine-run" JOBS="${JOBS:-2}" sh tests/run.sh
