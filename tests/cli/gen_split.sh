# gen c and gen cpp with imports: one header per schema file, named after
# it, each including the headers of the files it uses, so that the headers
# of two schemas importing the same file go into one translation unit (C,
# C++, and both C++ headers); the imported file's header is the same
# whichever schema it was generated from; a schema importing two files
# that each declare a root is accepted (the given file's root is the
# root); depfiles; names that would collide, and no -o, are refused.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
INC=$TOP/lib/include
WARN="-Wall -Wextra -Werror -pedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-qual"
find_compilers
CC1=$(echo "$CCS" | head -1)

S=$T/schemas
mkdir -p "$S/a" "$S/b"
cp tests/data/split/*.schema "$S/"

# --- the given file's root is the root; imported roots are not ---
expect game_schema_checks 0 "$BLOBC" check "$S/game.schema"
grep -q '^root Game' "$T/out" && pass game_root_is_its_own || fail game_root_is_its_own "$(grep '^root' "$T/out")"
expect level_root 0 "$BLOBC" check "$S/level.schema"
grep -q '^root Level' "$T/out" && pass level_root_is_its_own || fail level_root_is_its_own "$(grep '^root' "$T/out")"

# --- one header per file, into a directory ---
mkdir -p "$T/one" "$T/two"
expect gen_level_dir 0 "$BLOBC" gen c "$S/level.schema" -o "$T/one/"
expect gen_dialogue_dir 0 "$BLOBC" gen c "$S/dialogue.schema" -o "$T/two/"
[ -f "$T/one/level.h" ] && [ -f "$T/one/common.h" ] && [ ! -e "$T/one/dialogue.h" ] && pass headers_named_after_files ||
    fail headers_named_after_files "$(ls "$T/one")"
same_file imported_header_same_from_any_importer "$T/one/common.h" "$T/two/common.h"
grep -q '^#include "common.h"$' "$T/one/level.h" && pass level_includes_common || fail level_includes_common "$(grep include "$T/one/level.h")"
n=$(grep -c '^struct Vec3 {' "$T/one/level.h" "$T/one/common.h" | awk -F: '{ s += $2 } END { print s }')
[ "$n" = 1 ] && pass vec3_defined_once || fail vec3_defined_once "$n definitions"
cp "$T/two/dialogue.h" "$T/one/"
expect gen_cpp_level 0 "$BLOBC" gen cpp "$S/level.schema" -o "$T/one/"
expect gen_cpp_dialogue 0 "$BLOBC" gen cpp "$S/dialogue.schema" -o "$T/one/"
expect gen_cpp_game 0 "$BLOBC" gen cpp "$S/game.schema" -o "$T/one/"

# --- any set of headers in one translation unit ---
cat >"$T/both.c" <<'EOT'
#define BLOBC_WITH_LIBRARY
#include "level.h"
#include "dialogue.h"
#include "common.h"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    static unsigned char buf[4096] __attribute__((aligned(16)));
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    blobc_rt_status st;
    const Level *l = Level_open(buf, n, &st);
    Vec3 v = {1, 2, 3};
    if (!l) return printf("open: %s\n", blobc_rt_status_message(st)), 1;
    printf("%s %g %s %g\n", Level_name(l), (double)l->spawn.y, Team_name(l->team), (double)v.z);
    return argc == 2 && Dialogue_open(buf, n, BLOBC_RT_NULL) == BLOBC_RT_NULL ? 0 : 1;
}
EOT
printf 'name: Keep\nspawn: {x: 1, y: 2.5, z: 3}\nteam: blue\nroute: {points: [[1, 2, 3]]}\nmarks: []\n' >"$T/level.yaml"
expect bake_split_level 0 "$BLOBC" bake -s "$S/level.schema" "$T/level.yaml" -o "$T/level.blob"
LIBS="$(pkg-config --libs yaml-0.1 libcjson libxxhash 2>/dev/null) -lm -pthread"
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then SAN="-fsanitize=address,undefined"; fi
if $CC1 -std=gnu11 $WARN $SAN -I"$INC" -I"$T/one" "$T/both.c" -o "$T/both" "$BUILD/libblobc.a" $LIBS 2>"$T/cc.log"; then
    pass c_headers_one_unit
    expect c_split_reads 0 "$T/both" "$T/level.blob"
    [ "$(cat "$T/out")" = "Keep 2.5 blue 3" ] && pass c_split_values || fail c_split_values "$(cat "$T/out")"
else
    fail c_headers_one_unit "$(head -c 600 "$T/cc.log")"
fi
printf '#define BLOBC_WITH_LIBRARY\n#include "level.hpp"\n#include "dialogue.hpp"\n#include "game.hpp"\n#include "level.h"\n#include "dialogue.h"\n#include "common.hpp"\nint main() { return game::Game::open("", 0) != nullptr || to_string(game::Team::blue)[0] != %sb%s; }\n' "'" "'" >"$T/all.cpp"
for cxx in $CXXS; do
    "$BLOBC" gen cpp "$S/game.schema" --namespace game -o "$T/one/" 2>"$T/err" || fail gen_cpp_namespace "$(cat "$T/err")"
    if $cxx -std=c++17 $WARN -Wold-style-cast -fno-exceptions -fno-rtti -I"$INC" -I"$T/one" "$T/all.cpp" \
        -o "$T/allcpp" 2>"$T/cc.log" && "$T/allcpp"; then
        pass "cpp_headers_one_unit_$cxx"
    else
        fail "cpp_headers_one_unit_$cxx" "$(head -c 600 "$T/cc.log")"
    fi
done

# --- -o FILE: the others beside it; the depfile ---
mkdir -p "$T/three"
expect gen_file_and_depfile 0 "$BLOBC" gen c "$S/game.schema" -o "$T/three/game_types.h" --depfile "$T/three/game.d"
[ -f "$T/three/game_types.h" ] && [ -f "$T/three/level.h" ] && [ -f "$T/three/dialogue.h" ] && [ -f "$T/three/common.h" ] &&
    pass others_beside_the_file || fail others_beside_the_file "$(ls "$T/three")"
depfile_checks "$T/three/game.d" "$T/three/game_types.h" "$S/game.schema" "$S/level.schema" \
    "$S/dialogue.schema" "$S/common.schema"

# --- refusals ---
expect_err split_needs_output 2 "give -o FILE or -o DIR/" "$BLOBC" gen c "$S/level.schema"
printf 'struct A { v: u8; }\n' >"$S/a/common.schema"
printf 'struct B { v: u8; }\n' >"$S/b/common.schema"
printf 'import "a/common.schema";\nimport "b/common.schema";\nstruct C { a: A; b: B; }\n' >"$S/clash.schema"
mkdir -p "$T/four"
expect_err split_name_clash 1 "would both be written to $T/four/common.h" "$BLOBC" gen c "$S/clash.schema" -o "$T/four/"
[ -z "$(ls "$T/four")" ] && pass split_name_clash_writes_nothing || fail split_name_clash_writes_nothing "$(ls "$T/four")"
expect_err depfile_not_for_jsonschema 2 "--depfile applies to gen c, cpp and cs" "$BLOBC" gen jsonschema "$S/level.schema" --depfile "$T/x.d"
# a schema without imports still writes its one header to stdout
expect single_file_stdout 0 "$BLOBC" gen c "$S/common.schema"
grep -q '^struct Vec3 {' "$T/out" && pass single_file_has_its_types || fail single_file_has_its_types "$(head -5 "$T/out")"
