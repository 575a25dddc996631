#!/bin/sh
# make windows-dist: build-win/blobc-VERSION-windows-x86_64.zip from what
# make windows built: the program and the DLLs it loads, the library
# (DLL, import library, static library) with its headers, the docs as
# text, the licences of the libraries inside, and a README saying how to
# install.
set -eu
BUILD=${BUILD:-build-win}
VERSION=${VERSION:?}
name=blobc-$VERSION-windows-x86_64
stage=$BUILD/dist/$name
rm -rf "$BUILD/dist"
mkdir -p "$stage/bin" "$stage/lib" "$stage/include/blobc" "$stage/doc" "$stage/licenses"
cp "$BUILD/blobc.exe" "$BUILD/libblobc.dll" "$BUILD/libcurl-4.dll" "$stage/bin/"
cp "$BUILD/libblobc.a" "$BUILD/libblobc.dll.a" "$stage/lib/"
cp lib/include/blobc/*.h "$stage/include/blobc/"
cp README.md "$stage/doc/README.md"
cp docs/*.md "$stage/doc/"
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l man/blobc.1 2>/dev/null | col -b >"$stage/doc/blobc.txt" || true
fi
[ -s "$stage/doc/blobc.txt" ] || cp man/blobc.1 "$stage/doc/blobc.1"
deps=$BUILD/deps/src
for l in libyaml-*/License cjson-*/LICENSE xxhash-*/LICENSE curl-*/COPYING; do
    for f in $deps/$l; do
        [ -f "$f" ] && cp "$f" "$stage/licenses/$(basename "$(dirname "$f")" | sed 's/-[0-9.]*$//').txt"
    done
done
# Windows' own tools read CRLF text best.
sed 's/$/\r/' >"$stage/README.txt" <<EOF
blobc $VERSION for Windows (x86_64)

Install
  Unzip anywhere, for example to C:\\Tools\\blobc, and add its bin folder
  to PATH (Settings > System > About > Advanced system settings >
  Environment Variables > Path > New), or call bin\\blobc.exe by its path.
  Nothing else is needed: the libraries blobc uses are built in, and the
  HTTP cache loads bin\\libcurl-4.dll (HTTP, and HTTPS through Windows'
  own TLS) from next to blobc.exe.

  blobc --help            the commands
  blobc bake level.yaml -o level.blob

Contents
  bin\\blobc.exe           the command line
  bin\\libblobc.dll        the library, for programs that load it
  bin\\libcurl-4.dll       libcurl, loaded only for an HTTP cache
  lib\\libblobc.dll.a      import library of libblobc.dll (MinGW; MSVC links it too)
  lib\\libblobc.a          the static library (MinGW)
  include\\blobc\\          the public headers (#include <blobc/blobc.h>)
  doc\\                    the manual (blobc.txt) and the documentation
  licenses\\               the licences of libyaml, cJSON, xxHash and curl

Paths may use \\ or /, drive letters and UNC paths, and any characters.
Colours need Windows 10 or later; NO_COLOR turns them off.
EOF
rm -f "$BUILD/$name.zip"
(cd "$BUILD/dist" && zip -qr "../$name.zip" "$name")
echo "make windows-dist: $BUILD/$name.zip"
