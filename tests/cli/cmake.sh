# The CMake package: make install puts blobcConfig.cmake and its version
# file under lib/cmake/blobc (into a DESTDIR, found there through
# CMAKE_PREFIX_PATH: the package finds its files relative to itself); a
# project using find_package(blobc CONFIG), blobc_add_blobs and
# blobc_generate builds with the Ninja and the Makefile generators; a
# schema change (in an imported file) rebakes every source, an asset
# change that one, a build with nothing changed nothing; a C++ program
# built against blobc::blobc and the generated header reads a baked blob;
# version requests are answered; pkg-config keeps working.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
D=$T/dest
P=/opt/blobc-cmake
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! command -v cmake >/dev/null 2>&1; then
    skip cmake "cmake not found (make deps installs it)"
    exit 0
fi
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then SAN="-fsanitize=address,undefined"; fi

expect install 0 make --no-print-directory BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" install
for f in blobcConfig.cmake blobcConfigVersion.cmake; do
    [ -f "$D$P/lib/cmake/blobc/$f" ] && pass "installed_$f" || fail "installed_$f" "missing"
done
PKG_CONFIG_PATH=$D$P/lib/pkgconfig pkg-config --exists blobc && pass pkg_config_still_works ||
    fail pkg_config_still_works "pkg-config does not find blobc"

# --- a game project: three assets, a schema over two files, a C++ reader ---
S=$T/src
mkdir -p "$S"
printf 'enum Kind : u8 { floor, wall }\nstruct Vec3 { x: f32; y: f32; z: f32; }\n' >"$S/common.schema"
printf 'import "common.schema";\nstruct Level { name: string; kind: Kind; at: Vec3; tags: [string]; }\nroot Level;\n' \
    >"$S/level.schema"
printf 'name: a\nkind: wall\nat: {x: 1, y: 2, z: 3}\ntags: [one, two]\n' >"$S/a.yaml"
printf 'name: b\nkind: floor\nat: {x: 0, y: 0, z: 0}\ntags: []\n' >"$S/b.yaml"
printf '{"name": "c", "kind": "floor", "at": {"x": 0, "y": 0, "z": 0}, "tags": ["x"]}\n' >"$S/c.json"
cat >"$S/reader.cpp" <<'EOT'
#define BLOBC_WITH_LIBRARY
#include "level.hpp"
#include <cstdio>
alignas(16) static unsigned char buf[1 << 16];
int main(int argc, char **argv) {
    FILE *f = argc == 2 ? std::fopen(argv[1], "rb") : nullptr;
    size_t n = f ? std::fread(buf, 1, sizeof buf, f) : 0;
    if (f) std::fclose(f);
    blobc_error err;
    const game::Level *l = game::Level::open_verified(buf, n, &err);
    if (!l) return std::printf("refused: %s\n", err.message), 1;
    std::printf("%.*s %s %g", static_cast<int>(l->name().size()), l->name().data(), to_string(l->kind()),
                static_cast<double>(l->at().z()));
    for (std::string_view t : l->tags()) std::printf(" %.*s", static_cast<int>(t.size()), t.data());
    std::printf("\n");
    return 0;
}
EOT
cat >"$S/CMakeLists.txt" <<'EOT'
cmake_minimum_required(VERSION 3.20)
project(game CXX)
find_package(blobc 0.1 CONFIG REQUIRED)
blobc_add_blobs(levels SCHEMA level.schema OUTPUT_DIR blobs SOURCES a.yaml b.yaml c.json)
blobc_add_blobs(levels_unity SCHEMA level.schema OUTPUT_DIR unity SOURCES a.yaml FORMAT unity ARGS --unity-version 1)
blobc_generate(level_cpp LANGUAGE cpp SCHEMA level.schema OUTPUT_DIR gen NAMESPACE game)
blobc_generate(level_cs LANGUAGE cs SCHEMA level.schema OUTPUT_DIR gencs NAMESPACE Game RUNTIME standalone)
get_property(_cs TARGET level_cs PROPERTY BLOBC_OUTPUTS)
file(WRITE "${CMAKE_BINARY_DIR}/cs.txt" "${_cs}\n${BLOBC_CS_RUNTIME}\n")
add_executable(reader reader.cpp)
target_link_libraries(reader PRIVATE level_cpp)
EOT

# cs_generated TAG: LANGUAGE cs wrote the C# of level.schema and of the
# schema it imports into gencs/, the target names the first, and (with
# Mono) they compile with the runtime BLOBC_CS_RUNTIME names.
cs_generated() {
    cs=$(sed -n 1p "$B/cs.txt") rt=$(sed -n 2p "$B/cs.txt")
    if [ "$cs" = "$B/gencs/level.cs" ] && [ -f "$cs" ] && [ -f "$B/gencs/common.cs" ] && [ -f "$rt" ] &&
        grep -q '^namespace Game' "$cs"; then
        pass "generate_cs_$1"
    else
        fail "generate_cs_$1" "outputs '$cs', runtime '$rt': $(ls "$B/gencs" 2>&1 | tr '\n' ' ')"
    fi
    if ! command -v mcs >/dev/null 2>&1; then
        skip "generate_cs_compiles_$1" "mcs is not installed (make deps installs it)"
    elif mcs -unsafe -warnaserror+ -target:library -out:"$T/level.dll" "$B/gencs/"*.cs "$rt" >"$T/mcs.log" 2>&1; then
        pass "generate_cs_compiles_$1"
    else
        fail "generate_cs_compiles_$1" "$(grep -m3 error "$T/mcs.log")"
    fi
}

# bakes NAME: how many sources the build log $T/b.log says were baked
baked() { grep -c 'Baking ' "$T/b.log"; }
build() { cmake --build "$B" >"$T/b.log" 2>&1; }
later() { sleep 1; touch "$@"; }   # mtimes that differ from the last build's

for gen in Ninja "Unix Makefiles"; do
    tag=$(echo "$gen" | tr -d ' ' | tr 'A-Z' 'a-z')
    if [ "$gen" = Ninja ] && ! command -v ninja >/dev/null 2>&1; then
        skip "cmake_$tag" "ninja not found"
        continue
    fi
    B=$T/build-$tag
    if ! cmake -S "$S" -B "$B" -G "$gen" -DCMAKE_PREFIX_PATH="$D$P" \
        -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror -pedantic -fno-exceptions -fno-rtti $SAN" \
        -DCMAKE_EXE_LINKER_FLAGS="$SAN" >"$T/c.log" 2>&1; then
        fail "configure_$tag" "$(tail -c 800 "$T/c.log")"
        continue
    fi
    pass "configure_$tag"
    if ! build; then fail "build_$tag" "$(tail -c 1200 "$T/b.log")"; continue; fi
    [ "$(baked)" = 4 ] && pass "first_build_bakes_all_$tag" || fail "first_build_bakes_all_$tag" "$(baked) baked"
    [ -f "$B/blobs/a.blob" ] && [ -f "$B/blobs/c.blob" ] && [ -f "$B/unity/a.bytes" ] && [ -f "$B/gen/common.hpp" ] &&
        pass "outputs_$tag" || fail "outputs_$tag" "$(ls "$B" "$B/blobs" "$B/gen" 2>&1 | tr '\n' ' ')"
    cs_generated "$tag"
    expect "reader_$tag" 0 "$B/reader" "$B/blobs/a.blob"
    [ "$(cat "$T/out")" = "a wall 3 one two" ] && pass "reader_values_$tag" || fail "reader_values_$tag" "$(cat "$T/out")"
    build
    [ "$(baked)" = 0 ] && pass "noop_bakes_nothing_$tag" || fail "noop_bakes_nothing_$tag" "$(baked) baked"
    later "$S/b.yaml"
    build
    [ "$(baked)" = 1 ] && grep -q 'Baking b.yaml' "$T/b.log" && pass "asset_change_rebakes_one_$tag" ||
        fail "asset_change_rebakes_one_$tag" "$(grep Baking "$T/b.log" | tr '\n' ' ')"
    build
    [ "$(baked)" = 0 ] && pass "then_nothing_$tag" || fail "then_nothing_$tag" "$(baked) baked"
    later "$S/common.schema"    # imported by level.schema: known through the depfiles
    build
    [ "$(baked)" = 4 ] && pass "imported_schema_change_rebakes_all_$tag" ||
        fail "imported_schema_change_rebakes_all_$tag" "$(baked) baked"
    grep -q 'Generating level.hpp' "$T/b.log" && pass "imported_schema_change_regenerates_$tag" ||
        fail "imported_schema_change_regenerates_$tag" "$(tail -c 400 "$T/b.log")"
    grep -q 'Generating level.cs' "$T/b.log" && pass "imported_schema_change_regenerates_cs_$tag" ||
        fail "imported_schema_change_regenerates_cs_$tag" "$(tail -c 400 "$T/b.log")"
    later "$S/level.schema"
    build
    [ "$(baked)" = 4 ] && pass "schema_change_rebakes_all_$tag" || fail "schema_change_rebakes_all_$tag" "$(baked) baked"
    build
    [ "$(baked)" = 0 ] && pass "finally_nothing_$tag" || fail "finally_nothing_$tag" "$(baked) baked"
done

# --- blobc_generate's usage errors, at configure time ---
for case in "LANGUAGE java:LANGUAGE is c, cpp or cs, not 'java'" "LANGUAGE cpp RUNTIME unity:RUNTIME is for LANGUAGE cs"; do
    args=${case%%:*} want=${case#*:}
    d=$T/bad$(echo "$args" | tr -dc 'a-z')
    mkdir -p "$d"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v NONE)\nfind_package(blobc CONFIG REQUIRED)\nblobc_generate(x %s SCHEMA %s OUTPUT_DIR g)\n' \
        "$args" "$S/level.schema" >"$d/CMakeLists.txt"
    if cmake -S "$d" -B "$d/b" -DCMAKE_PREFIX_PATH="$D$P" >"$T/v.log" 2>&1; then
        fail "generate_refuses_$(echo "$args" | tr ' ' _)" "configured"
    elif grep -q "$want" "$T/v.log"; then
        pass "generate_refuses_$(echo "$args" | tr ' ' _)"
    else
        fail "generate_refuses_$(echo "$args" | tr ' ' _)" "$(tail -c 400 "$T/v.log")"
    fi
done

# --- versions: 0.1 and 0.1.0 found, 0.2 and 1.0 not ---
for want in "0.1:0" "0.1.0:0" "0.2:1" "1.0:1"; do
    v=${want%:*}
    mkdir -p "$T/v$v"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v NONE)\nfind_package(blobc %s CONFIG REQUIRED)\n' "$v" \
        >"$T/v$v/CMakeLists.txt"
    cmake -S "$T/v$v" -B "$T/v$v/b" -DCMAKE_PREFIX_PATH="$D$P" >"$T/v.log" 2>&1
    rc=$([ $? -eq 0 ] && echo 0 || echo 1)
    [ "$rc" = "${want#*:}" ] && pass "version_$v" || fail "version_$v" "configure exit $rc: $(tail -c 300 "$T/v.log")"
done
