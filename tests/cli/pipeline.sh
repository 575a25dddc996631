# Depfiles and the shipped pipeline sample (samples/pipeline) under real
# make and ninja: the first build bakes everything, a no-op build bakes
# nothing, touching one asset rebakes exactly that one, touching the
# schema rebakes all. Depfile paths are escaped by make's and ninja's rules.
. "$(dirname "$0")/lib.sh"
PATH=$(dirname "$BLOBC"):$PATH
export PATH
# The builds here are the test's own: not a part of an outer `make -s -j2
# check` (its -s would hide the commands counted below).
unset MAKEFLAGS MFLAGS MAKELEVEL

# bakes NAME WANT LOG : the build log shows WANT bakes.
bakes() {
    got=$(grep -c 'BAKE \|blobc bake' "$3")
    if [ "$got" -eq "$2" ]; then pass "$1"; else fail "$1" "$got bakes, want $2: $(head -5 "$3")"; fi
}
# A file's modification time strictly later than any build output so far.
later() { sleep 0.02; touch "$@"; }

# --- the depfile itself ---
mkdir -p "$T/d/sub dir"
cp "$TOP/samples/pipeline/room.schema" "$T/d/sub dir/my room\$#.schema"
printf '$schema: "sub dir/my room$#.schema"\nname: x\ncenter: {x: 0, y: 0, z: 0}\nprops: []\n' >"$T/d/a b.yaml"
expect depfile 0 "$BLOBC" bake "$T/d/a b.yaml" -o "$T/d/out.blob" --depfile "$T/d/out.d"
e=$(printf '%s' "$T" | sed 's/ /\\ /g; s/\$/$$/g; s/#/\\#/g')
printf '%s/d/out.blob: %s/d/a\\ b.yaml \\\n  %s/d/sub\\ dir/my\\ room$$\\#.schema\n\n%s/d/sub\\ dir/my\\ room$$\\#.schema:\n' \
    "$e" "$e" "$e" "$e" >"$T/d/want.d"
same_file depfile_escaped "$T/d/out.d" "$T/d/want.d"
expect_err depfile_one_input 2 "--depfiles" "$BLOBC" bake --depfile x.d -o "$T/d" "$T/d/a b.yaml" "$TOP/samples/level.yaml"
mkdir -p "$T/d/batch"
expect depfiles_batch 0 "$BLOBC" bake --depfiles -o "$T/d/batch" "$T/d/a b.yaml" "$TOP/samples/level.yaml"
grep -q 'schemas/level.schema' "$T/d/batch/level.blob.d" && grep -q 'my\\ room' "$T/d/batch/a b.blob.d" &&
    pass depfiles_beside_outputs || fail depfiles_beside_outputs "$(ls "$T/d/batch")"

# make reads the escaped names back: touching the oddly named schema rebakes.
cat >"$T/d/Makefile" <<'MK'
out2.blob: a\ b.yaml
	blobc bake "$<" -o $@ --depfile $@.d
-include out2.blob.d
MK
(cd "$T/d" && make) >"$T/log" 2>&1
(cd "$T/d" && make) >"$T/log" 2>&1
bakes make_escaped_noop 0 "$T/log"
later "$T/d/sub dir/my room\$#.schema"
(cd "$T/d" && make) >"$T/log" 2>&1
bakes make_escaped_schema_touch 1 "$T/log"

# --- make ---
if command -v make >/dev/null 2>&1; then
    cp -r "$TOP/samples/pipeline" "$T/m"
    rm -rf "$T/m/out"
    make -C "$T/m" >"$T/log" 2>&1 || fail make_first "$(tail -3 "$T/log")"
    bakes make_first 3 "$T/log"
    make -C "$T/m" >"$T/log" 2>&1
    bakes make_noop 0 "$T/log"
    later "$T/m/assets/crypt.yaml"
    make -C "$T/m" >"$T/log" 2>&1
    bakes make_touch_asset 1 "$T/log"
    grep -q 'crypt' "$T/log" && pass make_touch_asset_which || fail make_touch_asset_which "$(cat "$T/log")"
    later "$T/m/room.schema"
    make -C "$T/m" -j2 >"$T/log" 2>&1
    bakes make_touch_schema 3 "$T/log"
    same_file make_output "$T/m/out/hall.blob" "$(cd "$T/m" && blobc bake assets/hall.yaml -o "$T/hall.blob" && echo "$T/hall.blob")"
else
    skip make "make not installed"
fi

# --- ninja ---
if command -v ninja >/dev/null 2>&1; then
    cp -r "$TOP/samples/pipeline" "$T/n"
    rm -rf "$T/n/out" "$T/n/.ninja_log" "$T/n/.ninja_deps"
    (cd "$T/n" && sh gen-ninja.sh | cmp -s - build.ninja) && pass ninja_file_current ||
        fail ninja_file_current "build.ninja differs from gen-ninja.sh's output"
    ninja -C "$T/n" >"$T/log" 2>&1 || fail ninja_first "$(tail -3 "$T/log")"
    bakes ninja_first 3 "$T/log"
    ninja -C "$T/n" >"$T/log" 2>&1
    bakes ninja_noop 0 "$T/log"
    grep -q 'no work to do' "$T/log" && pass ninja_noop_says || fail ninja_noop_says "$(cat "$T/log")"
    later "$T/n/assets/gate.json"
    ninja -C "$T/n" >"$T/log" 2>&1
    bakes ninja_touch_asset 1 "$T/log"
    grep -q 'out/gate.blob' "$T/log" && pass ninja_touch_asset_which || fail ninja_touch_asset_which "$(cat "$T/log")"
    later "$T/n/room.schema"
    ninja -C "$T/n" >"$T/log" 2>&1
    bakes ninja_touch_schema 3 "$T/log"
    (cd "$T/n" && ninja -t deps out/hall.blob) | grep -q 'room.schema' && pass ninja_deps_log ||
        fail ninja_deps_log "$(cd "$T/n" && ninja -t deps out/hall.blob)"
else
    skip ninja "ninja not installed (make deps installs ninja-build)"
fi
