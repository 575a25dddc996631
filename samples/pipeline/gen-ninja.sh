#!/bin/sh
# Writes build.ninja for every asset in assets/ (ninja has no wildcards):
# run it again after adding or removing an asset.
#   sh gen-ninja.sh > build.ninja
set -eu
cat <<'HEAD'
# Bakes every asset in assets/ into out/, rebaking only what changed: ninja
# reads the depfile blobc writes (the asset and every schema file read)
# into its own deps log, so a no-op build stats files and does nothing.
# Written by gen-ninja.sh. blobc is found on PATH.
blobc = blobc

rule bake
  command = $blobc bake -q $in -o $out --depfile $out.d
  depfile = $out.d
  deps = gcc
  description = BAKE $out

HEAD
for f in assets/*.yaml assets/*.json; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    printf 'build out/%s.blob: bake %s\n' "${b%.*}" "$f"
done
