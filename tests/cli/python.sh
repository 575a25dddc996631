#!/bin/sh
# The Python module (python/blobc) over the built shared library: every
# value of the sample and of random schemas' blobs read through the views
# and to_python() equals `blobc dump --json`'s; the bad blobs refused with
# the code and text of `blobc verify`; the library found as documented
# (BLOBC_LIBRARY, the build tree, next to an installed package).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$TOP/$BUILD ;; esac
SEEDS=${PY_SEEDS:-30}
unset MAKEFLAGS MFLAGS MAKELEVEL

if ! command -v python3 >/dev/null 2>&1; then
    skip all "python3 not found"
    exit 0
fi
so=$(ls "$B"/libblobc.so.0.* 2>/dev/null | head -1)
if [ -z "$so" ]; then
    skip all "no shared library in $B (SHARED=0?)"
    exit 0
fi
# make asan's library needs the sanitizer runtime loaded first, which a
# Python interpreter does not have
if nm -D "$so" 2>/dev/null | grep -q '__asan_'; then
    skip all "$so is built with sanitizers; Python cannot load it"
    exit 0
fi
PY="env BLOBC_LIBRARY=$so PYTHONPATH=$TOP/python python3 -B"
CHECK=$TOP/tests/python/check.py

# the sample, and random schemas with their data
"$BLOBC" bake -o "$T/level.blob" samples/level.yaml 2>"$T/err" || fail sample-bake "$(cat "$T/err")"
"$BLOBC" dump --json -o "$T/level.json" "$T/level.blob" 2>"$T/err" || fail sample-dump "$(cat "$T/err")"
args="sample $T/level.blob $T/level.json"
# game data: references read as their items (views), as their keys (to_python)
"$BLOBC" bake -o "$T/game.blob" tests/data/gamedata/game.yaml 2>"$T/err" &&
    "$BLOBC" dump --json -o "$T/game.json" "$T/game.blob" 2>"$T/err" || fail game-bake "$(cat "$T/err")"
args="$args game $T/game.blob $T/game.json"
if [ -x "$B/tools/randgen" ]; then
    for s in $(seq "$SEEDS"); do
        d=$T/seed-$s
        mkdir -p "$d"
        "$B/tools/randgen" case "$s" "$d" &&
            "$BLOBC" bake -o "$d/y.blob" "$d/t.yaml" 2>"$d/err" &&
            "$BLOBC" dump --json -o "$d/dump.json" "$d/y.blob" 2>>"$d/err" ||
            { fail "seed-$s.setup" "$(head -c 300 "$d/err")"; continue; }
        args="$args seed-$s $d/y.blob $d/dump.json"
    done
else
    fail random "$B/tools/randgen is not built"
fi
# shellcheck disable=SC2086
$PY "$CHECK" values $args
$PY "$CHECK" bad tests/bad/blob "$BLOBC"
$PY "$CHECK" api "$T/level.blob"

# maps, optionals, any and a union tagged by a field, baked from JSON
# (tests/data/forms/map.json) and every value read back through the
# module; the same data with other values is caught
F=tests/data/forms
if "$BLOBC" bake -s "$F/in/map.schema" "$F/map.json" -o "$T/forms.blob" 2>"$T/err"; then
    run $PY tests/python/read_forms.py "$T/forms.blob"
    [ "$RC" -eq 0 ] && pass forms_values || fail forms_values "$(head -c 600 "$T/out")"
    sed -e 's/"width": 10/"width": 11/' -e 's/"b": 2/"b": 4/' -e 's/"t": false/"t": true/' "$F/map.json" >"$T/other.json"
    "$BLOBC" bake -s "$F/in/map.schema" "$T/other.json" -o "$T/other.blob" 2>"$T/err"
    run $PY tests/python/read_forms.py "$T/other.blob"
    [ "$RC" -ne 0 ] && grep -q '^width: got 11, want 10$' "$T/out" && grep -q '^5 values differ$' "$T/out" &&
        pass forms_values_can_fail || fail forms_values_can_fail "exit $RC: $(head -c 600 "$T/out")"
else
    fail forms_bake "$(cat "$T/err")"
fi

# to_python writes a reference as its target's key in a map's values too,
# as everywhere else (and as dump does); the view is the item
printf 'struct K { @key id: u32; n: u8; }\nstruct R { ks: [K]; m: [string: &K]; }\nroot R;\n' >"$T/mref.schema"
printf '{"ks": [{"id": 7, "n": 1}], "m": {"a": 7}}' >"$T/mref.json"
if "$BLOBC" bake -s "$T/mref.schema" "$T/mref.json" -o "$T/mref.blob" 2>"$T/err"; then
    run $PY -c 'import blobc, sys
r = blobc.open(sys.argv[1])
print(r.to_python()["m"], blobc.key(r.m["a"]), r.m["a"].n)' "$T/mref.blob"
    [ "$(cat "$T/out")" = "{'a': 7} 7 1" ] && pass map_ref_to_python ||
        fail map_ref_to_python "$(head -c 300 "$T/out")"
else
    fail map_ref_bake "$(cat "$T/err")"
fi

# files without a type description: a stripped blob, a Unity blob asset
"$BLOBC" bake --strip -o "$T/strip.blob" samples/level.yaml &&
    "$BLOBC" bake --format unity --unity-version 1 -o "$T/level.bytes" samples/level.yaml ||
    fail untyped-setup "cannot bake"
for f in strip.blob level.bytes; do
    got=$($PY -c 'import blobc, sys
try:
    blobc.open(sys.argv[1])
    print("opened")
except blobc.Error as e:
    print(e.code_name)' "$T/$f" 2>&1)
    if [ "$got" = no-types ]; then pass "untyped_refused.$f"; else fail "untyped_refused.$f" "$got"; fi
done

# BLOBC_LIBRARY names the one file to load: a wrong one is an ImportError
# saying what was tried, not a silent fallback
run env BLOBC_LIBRARY="$T/nope.so" PYTHONPATH="$TOP/python" python3 -B -c 'import blobc'
if [ "$RC" -ne 0 ] && grep -q "ImportError: blobc: cannot load the blobc library; tried: $T/nope.so (no such file)" "$T/err"; then
    pass library_env_wrong
else
    fail library_env_wrong "exit $RC: $(tail -c 300 "$T/err")"
fi
# without it, the source tree's build/ (when BUILD is build/ itself)
if [ "$B" = "$TOP/build" ]; then
    run env -u BLOBC_LIBRARY PYTHONPATH="$TOP/python" python3 -B -c \
        'import blobc, sys; print(blobc.open(sys.argv[1]).name)' "$T/level.blob"
    [ "$RC" -eq 0 ] && [ "$(cat "$T/out")" = "Sunken Keep" ] && pass library_build_tree ||
        fail library_build_tree "exit $RC: $(tail -c 300 "$T/err")"
else
    skip library_build_tree "BUILD=$BUILD is not the source tree's build/"
fi

# installed: the package finds the library through the link next to it
P=$T/prefix
if make --no-print-directory BUILD="$BUILD" PREFIX="$P" install >"$T/out" 2>"$T/err"; then
    init=$(ls "$P"/lib/python3*/*-packages/blobc/__init__.py 2>/dev/null | head -1)
    if [ -n "$init" ]; then
        site=$(dirname "$(dirname "$init")")
        run env -u BLOBC_LIBRARY PYTHONPATH="$site" python3 -B -c \
            'import blobc, sys; print(blobc._lib.lib._name, blobc.open(sys.argv[1]).rooms[0].name)' "$T/level.blob"
        [ "$RC" -eq 0 ] && [ "$(cat "$T/out")" = "$site/blobc/libblobc.so.0 Hall" ] && pass installed_module ||
            fail installed_module "exit $RC: $(cat "$T/out") $(tail -c 300 "$T/err")"
    else
        fail installed_module "no blobc/__init__.py under $P/lib/python3*"
    fi
else
    fail install "$(tail -c 300 "$T/err")"
fi
exit 0
