# Maps, optionals, any and tagged unions in the generated readers: the
# output of gen c, cpp, cs and jsonschema for newtypes.schema, byte for
# byte; a C program builds a blob of it with the builder (bake is not
# needed) and reads every value back through the generated C header, and
# the C++, C# (tests/cs/ReadNewtypes.cs) and Python readers print the same
# values from that blob.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
INC=$TOP/lib/include
G=$TOP/tests/data/gen
S=tests/data/gen/newtypes.schema
find_compilers
CC1=$(echo "$CCS" | head -1)
CXX1=$(echo "$CXXS" | head -1)
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then SAN="-fsanitize=address,undefined"; fi
LIBS="$(pkg-config --libs yaml-0.1 libcjson libxxhash 2>/dev/null) -lm"

# --- goldens ---
for g in c:h cpp:hpp cs:cs jsonschema:json; do
    lang=$(echo "$g" | cut -d: -f1) ext=$(echo "$g" | cut -d: -f2)
    expect "gen_${lang}" 0 "$BLOBC" gen "$lang" "$S" -o "$T/newtypes.$ext" &&
        same_file "gen_${lang}_golden" "$T/newtypes.$ext" "$G/newtypes.$ext.expect"
done

# --- C: build a blob, read every value back ---
if windows_build; then
    skip read_newtypes_c "the test program is built for the host"
elif $CC1 -std=c11 $GEN_WARN -Wno-conversion -Wno-sign-conversion $SAN -I"$INC" -I"$T" "$G/read_newtypes.c" \
    "$BUILD/libblobc.a" $LIBS -o "$T/read_newtypes" 2>"$T/cc.log"; then
    pass read_newtypes_builds
    expect read_newtypes_runs 0 "$T/read_newtypes" "$S" "$T/newtypes.blob"
    same_file read_newtypes_values "$T/out" "$G/newtypes.out"
else
    fail read_newtypes_builds "$(head -c 800 "$T/cc.log")"
fi
# --- C++: the same values through the classes of gen cpp ---
if windows_build; then
    skip read_newtypes_cpp "the C program that makes the blob is built for the host"
elif [ -z "$CXX1" ]; then
    skip read_newtypes_cpp "no C++ compiler"
elif [ ! -s "$T/newtypes.blob" ]; then
    fail read_newtypes_cpp "no blob from the C program"
elif $CXX1 -std=c++17 $GEN_CXXWARN -Wno-conversion -Wno-sign-conversion -Wno-old-style-cast $SAN -I"$INC" -I"$T" \
    "$G/read_newtypes.cpp" -o "$T/read_newtypes_cpp" 2>"$T/cc.log"; then
    expect read_newtypes_cpp_runs 0 "$T/read_newtypes_cpp" "$T/newtypes.blob"
    same_file read_newtypes_cpp_values "$T/out" "$G/newtypes.out"
else
    fail read_newtypes_cpp "$(head -c 800 "$T/cc.log")"
fi
for cxx in $CXXS; do
    printf '#include "newtypes.hpp"\nint main() { return 0; }\n' >"$T/use.cpp"
    $cxx -std=c++17 $GEN_CXXWARN -I"$INC" -I"$T" -fsyntax-only "$T/use.cpp" 2>"$T/cc.log" &&
        pass "cpp_header_compiles_$cxx" || fail "cpp_header_compiles_$cxx" "$(head -c 600 "$T/cc.log")"
done

# --- C#: the same values through the structs of gen cs (standalone
# runtime), and the Unity form compiles against the stand-in ---
if windows_build; then
    skip read_newtypes_cs "the C program that makes the blob is built for the host"
elif ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
    skip read_newtypes_cs "mcs and mono (packages mono-mcs, mono-runtime) are not installed"
elif [ ! -s "$T/newtypes.blob" ]; then
    fail read_newtypes_cs "no blob from the C program"
else
    MCS="mcs -unsafe -warnaserror+ -nowarn:169,649"
    mkdir -p "$T/cs"
    "$BLOBC" gen cs "$S" --runtime standalone --namespace Game.Data -o "$T/cs/newtypes.cs" 2>"$T/err" ||
        fail gen_cs_standalone "$(head -3 "$T/err")"
    sed 's/^using Blobc;$/using Blobc;\nusing Game.Data;/' tests/cs/ReadNewtypes.cs >"$T/cs/ReadNewtypes.cs"
    if $MCS -out:"$T/cs/read.exe" "$T/cs/newtypes.cs" lib/cs/BlobcRuntime.cs "$T/cs/ReadNewtypes.cs" >"$T/mcs.log" 2>&1; then
        run mono "$T/cs/read.exe" "$T/newtypes.blob"
        [ "$RC" -eq 0 ] && pass read_newtypes_cs_runs || fail read_newtypes_cs_runs "exit $RC: $(head -c 400 "$T/err")"
        same_file read_newtypes_cs_values "$T/out" "$G/newtypes.out"
    else
        fail read_newtypes_cs_builds "$(grep -m5 error "$T/mcs.log")"
    fi
    # the test can fail: a map lookup that misses is caught
    sed 's/else return mid;/else return -1;/' "$T/cs/newtypes.cs" >"$T/cs/broken.cs"
    if ! cmp -s "$T/cs/broken.cs" "$T/cs/newtypes.cs" &&
        $MCS -out:"$T/cs/broken.exe" "$T/cs/broken.cs" lib/cs/BlobcRuntime.cs "$T/cs/ReadNewtypes.cs" >"$T/mcs.log" 2>&1; then
        run mono "$T/cs/broken.exe" "$T/newtypes.blob"
        [ "$RC" -ne 0 ] && pass read_newtypes_cs_catches_a_bad_lookup ||
            fail read_newtypes_cs_catches_a_bad_lookup "exit 0 with lookups that find nothing"
    else
        fail read_newtypes_cs_catches_a_bad_lookup "$(grep -m3 error "$T/mcs.log")"
    fi
    if $MCS -target:library -out:"$T/cs/standin.dll" tests/cs/UnityStandIn.cs >"$T/mcs.log" 2>&1 &&
        $MCS -target:library -r:"$T/cs/standin.dll" -out:"$T/cs/unity.dll" "$T/newtypes.cs" >"$T/mcs.log" 2>&1; then
        pass cs_unity_compiles
    else
        fail cs_unity_compiles "$(grep -m5 error "$T/mcs.log")"
    fi
fi

# the test can fail: a lookup that answers wrong is caught
if windows_build; then
    skip read_newtypes_catches_a_bad_lookup "the C program is built for the host"
elif [ -s "$T/newtypes.h" ]; then
    sed 's/blobc_rt_map_find_str(&blobc_p->tags, sizeof(Item_tags_entry), blobc_key, blobc_len)/BLOBC_RT_NULL/' \
        "$T/newtypes.h" >"$T/broken.h"
    mkdir -p "$T/broken" && cp "$T/broken.h" "$T/broken/newtypes.h"
    if $CC1 -std=c11 $SAN -I"$INC" -I"$T/broken" "$G/read_newtypes.c" "$BUILD/libblobc.a" $LIBS \
        -o "$T/broken/read" 2>"$T/cc.log"; then
        run "$T/broken/read" "$S" "$T/broken/x.blob"
        [ "$RC" -ne 0 ] && pass read_newtypes_catches_a_bad_lookup ||
            fail read_newtypes_catches_a_bad_lookup "exit 0 with a lookup that finds nothing"
    else
        fail read_newtypes_catches_a_bad_lookup "$(head -c 400 "$T/cc.log")"
    fi
fi

# --- JSON Schema: what the data of the new types may and may not be ---
if python3 -c 'import jsonschema' 2>/dev/null && [ -s "$T/newtypes.json" ]; then
    python3 - "$T/newtypes.json" >"$T/js.out" 2>&1 <<'PY'
import copy, json, sys, jsonschema
d = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(d)
v = jsonschema.Draft202012Validator(d)
base = {"items": [{"id": 1, "name": "a", "tags": {"a": 1}, "by_num": {"-5": "x"},
                   "by_color": {"red": {"x": 1, "y": 2}}, "by_level": {"low": 1}, "small": {"-1": True},
                   "score": None, "shape": {"side": 2, "type": "sq"}, "extra": {"q": [1, "x", None]},
                   "sized": {"3": [1]}, "nested": {"a": {"b": 1}}, "maybe": {"n": None, "p": 2},
                   "opt_in_fixed": [None, 1], "map_in_fixed": [{"1": 2}, {}], "unknown": 5}],
        "nums": [{"kind": 2, "side": 1}], "tagged": [{"r": 1}], "shapes": [{"r": 1}],
        "anys": [1, "x", {"y": [True]}], "lookup": {"one": {"data": None}}}
def case(name, want, path, value):
    b = copy.deepcopy(base)
    at = b
    for k in path[:-1]:
        at = at[k]
    if value is KeyError:
        del at[path[-1]]
    else:
        at[path[-1]] = value
    got = not list(v.iter_errors(b))
    print(("ok " if got == want else "WRONG ") + name)
print("ok base" if not list(v.iter_errors(base)) else "WRONG base: %s" % list(v.iter_errors(base))[:1])
case("enum_key_unknown", False, ["items", 0, "by_color"], {"pink": {"x": 1, "y": 1}})
case("int_key_not_a_number", False, ["items", 0, "by_num"], {"x": "y"})
case("unsigned_key_negative", False, ["items", 0, "sized"], {"-1": []})
case("map_value_wrong", False, ["items", 0, "tags"], {"a": "one"})
case("map_null", True, ["items", 0, "tags"], None)
case("optional_absent", True, ["items", 0, "score"], KeyError)
case("optional_wrong", False, ["items", 0, "score"], "high")
case("any_anything", True, ["items", 0, "extra"], [{"deep": [1.5, None]}])
case("int_tag_missing", False, ["nums", 0], {"side": 1})
case("int_tag_unknown", False, ["nums", 0], {"kind": 3, "side": 1})
case("default_member_untagged", True, ["shapes", 0], {"r": 1})
case("default_member_tagged", True, ["shapes", 0], {"r": 1, "type": "circle"})
case("member_with_other_tag", False, ["shapes", 0], {"r": 1, "type": "sq"})
case("yaml_tagged_member", True, ["tagged", 0], {"side": 2})
case("open_struct_unknown_key", True, ["items", 0, "unknown"], 1)
case("closed_struct_unknown_key", False, ["unknown"], 1)
PY
    if grep -q WRONG "$T/js.out" || ! grep -q '^ok base' "$T/js.out"; then
        fail jsonschema_new_types "$(grep -v '^ok' "$T/js.out" | head -5)"
    else
        pass "jsonschema_new_types_$(grep -c '^ok' "$T/js.out")"
    fi
else
    skip jsonschema_new_types "python3 with jsonschema is not installed"
fi

# --- Python: the same values through the blobc module ---
so=$(ls "$BUILD"/libblobc.so.0.* 2>/dev/null | head -1)
if ! command -v python3 >/dev/null 2>&1 || [ -z "$so" ] || nm -D "$so" 2>/dev/null | grep -q '__asan_'; then
    skip read_newtypes_python "no python3, or no shared library it can load"
elif [ ! -s "$T/newtypes.blob" ]; then
    fail read_newtypes_python "no blob from the C program"
else
    run env BLOBC_LIBRARY="$so" PYTHONPATH="$TOP/python" python3 -B "$G/read_newtypes.py" "$T/newtypes.blob"
    if [ "$RC" -eq 3 ]; then
        # the module opens only what the library verifies
        skip read_newtypes_python "the library refuses the blob: $(head -c 200 "$T/err")"
    elif [ "$RC" -eq 0 ]; then
        same_file read_newtypes_python_values "$T/out" "$G/newtypes.out"
    else
        fail read_newtypes_python "exit $RC: $(head -c 400 "$T/err")"
    fi
fi
