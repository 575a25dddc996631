# The rules of docs/ARCHITECTURE.md, checked against the tree: the map
# names every file of lib/ and nothing else and marks the experimental
# public headers, private headers stay in their folder, folders include
# and call only the folders below them, no files include or call each
# other in a circle, every function that is not static has a caller or a
# test, cmd/ uses only the public headers and the platform layer, no file
# outside lib/platform/ includes an operating-system header, no private
# value is cast into a blobc_status, and no file of lib/ grows far past
# 900 lines.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
DOC=docs/ARCHITECTURE.md

# --- the map matches the tree ---
# Table rows name files as `file` (or `a.c`, `a.h`) in the first column,
# under a "### `lib/<folder>/`" heading.
awk '
    /^### `lib\// { dir = $2; gsub(/`/, "", dir); next }
    /^## / { dir = "" }
    dir != "" && /^\| `/ {
        split($0, col, "|")
        n = split(col[2], names, ",")
        for (i = 1; i <= n; i++) { f = names[i]; gsub(/[` ]/, "", f); if (f != "") print dir f }
    }' "$DOC" | sort >"$T/mapped"
{ ls lib/*/*.c lib/*/*.h lib/include/blobc/*.h lib/include/blobc/*.hpp; } | sort >"$T/tree"
if cmp -s "$T/mapped" "$T/tree"; then pass map_matches_tree; else
    fail map_matches_tree "$(diff "$T/mapped" "$T/tree" | grep '^[<>]' | sed 's/^</only in the map:/; s/^>/not in the map:/' | tr '\n' ';')"
fi

# --- includes ---
# Which folders each folder may include (besides itself and the public
# headers): the order of the dependency picture.
allowed() {
    case $1 in
    platform) echo "" ;;
    common) echo "platform" ;;
    schema) echo "platform common" ;;
    blob) echo "platform common schema" ;;
    bake | read) echo "platform common schema blob" ;;
    gen) echo "platform common schema" ;;
    evolve | cache) echo "platform common schema blob bake read" ;;
    pipeline) echo "platform common schema blob bake read cache" ;;
    *) echo "?" ;;
    esac
}
bad=""
for f in lib/*/*.c lib/*/*.h; do
    dir=$(basename "$(dirname "$f")")
    [ "$dir" = include ] && continue
    ok=$(allowed "$dir")
    for inc in $(sed -n 's/^#include "\([a-z_]*\)\/[a-z_0-9]*\.h".*/\1/p' "$f"); do
        [ "$inc" = "$dir" ] || [ "$inc" = blobc ] && continue
        case " $ok " in *" $inc "*) ;; *) bad="$bad $f->$inc/" ;; esac
    done
done
if [ -z "$bad" ]; then pass includes_follow_folder_order; else
    fail includes_follow_folder_order "$bad"
fi

# A folder's private headers are its own: other folders of lib/ include
# only the public headers, common/'s and the platform layer's interface.
bad=""
for f in lib/*/*.c lib/*/*.h; do
    dir=$(basename "$(dirname "$f")")
    [ "$dir" = include ] && continue
    for inc in $(sed -n 's/^#include "\([a-z_]*\/[a-z_0-9]*\.h\)".*/\1/p' "$f"); do
        case "$inc" in "$dir"/* | common/* | blobc/* | platform/platform.h) ;; *) bad="$bad $f->$inc" ;; esac
    done
done
if [ -z "$bad" ]; then pass private_headers_stay_in_their_folder; else
    fail private_headers_stay_in_their_folder "$bad"
fi

# No files include each other in a circle: a source and its header count
# as one (a.c with a.h), and an include names a file of lib/ or a public
# header; the folder order above keeps folders out of circles.
if ! command -v tsort >/dev/null 2>&1; then
    skip no_include_circle "tsort is not installed"
else
    for f in lib/*/*.c lib/*/*.h lib/include/blobc/*.h lib/include/blobc/*.hpp; do
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            for t in "lib/$inc" "lib/include/$inc" "$(dirname "$f")/$inc"; do
                [ -f "$t" ] && { echo "$f $t"; break; }
            done
        done
    done | sed 's/\.[ch] / /; s/\.[ch]$//' | awk '$1 != $2' >"$T/includes"
    if [ ! -s "$T/includes" ]; then
        fail no_include_circle "no includes between files found"
    elif loop=$(tsort "$T/includes" 2>&1 >/dev/null) && [ -z "$loop" ]; then
        pass no_include_circle
    else
        fail no_include_circle "$(echo "$loop" | tr '\n' ' ')"
    fi
fi

# --- who calls whom: no circles ---
# From the objects of the build: a folder (or a file within a folder)
# depends on another when it uses a symbol the other defines. Folders call
# only the folders below them, and no files within a folder call each
# other round in a circle.
if ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
    skip calls_follow_folder_order "nm or tsort is not installed"
elif ! ls "$BUILD"/lib/*/*.o >/dev/null 2>&1; then
    skip calls_follow_folder_order "no objects in $BUILD/lib (build first)"
else
    for o in "$BUILD"/lib/*/*.o; do
        d=$(basename "$(dirname "$o")")
        f=$(basename "$o" .o)
        nm -g --defined-only "$o" | awk -v d="$d" -v f="$f" 'NF == 3 { print $3, d, f }'
    done | sort >"$T/defs"
    for o in "$BUILD"/lib/*/*.o; do
        d=$(basename "$(dirname "$o")")
        f=$(basename "$o" .o)
        nm -u "$o" | awk -v d="$d" -v f="$f" '{ print $NF, d, f }'
    done | sort >"$T/uses"
    join "$T/uses" "$T/defs" >"$T/calls"
    bad=""
    for edge in $(awk '$2 != $4 { print $2 "->" $4 }' "$T/calls" | sort -u); do
        ok=$(allowed "${edge%%->*}")
        case " $ok " in *" ${edge#*->} "*) ;; *) bad="$bad $edge" ;; esac
    done
    if [ -z "$bad" ]; then pass calls_follow_folder_order; else
        fail calls_follow_folder_order "$bad"
    fi
    awk '$2 == $4 && $3 != $5 { print $2 "/" $3, $4 "/" $5 }' "$T/calls" | sort -u >"$T/edges"
    if [ ! -s "$T/edges" ]; then
        fail no_circle_between_files "no calls between files found (nm output changed?)"
    elif loop=$(tsort "$T/edges" 2>&1 >/dev/null) && [ -z "$loop" ]; then
        pass no_circle_between_files
    else
        fail no_circle_between_files "$(echo "$loop" | tr '\n' ' ')"
    fi
fi

# No dead code: every function of lib/ and cmd/ that is not static is
# called from another file, or named by a test (a public function the
# library itself does not call), or it is static or gone. (A static
# function without a caller the compiler already refuses.)
if ! command -v nm >/dev/null 2>&1; then
    skip every_function_has_a_caller "nm is not installed"
elif ! ls "$BUILD"/lib/*/*.o "$BUILD"/cmd/blobc/*.o >/dev/null 2>&1; then
    skip every_function_has_a_caller "no objects in $BUILD (build first)"
else
    for o in "$BUILD"/lib/*/*.o "$BUILD"/cmd/blobc/*.o; do
        nm -g --defined-only "$o" | awk -v o="${o#"$BUILD"/}" '$2 == "T" { print $3, o }'
    done | LC_ALL=C sort >"$T/fdefs"
    for o in "$BUILD"/lib/*/*.o "$BUILD"/cmd/blobc/*.o; do
        nm -u "$o" | awk -v o="${o#"$BUILD"/}" '{ print $NF, o }'
    done | LC_ALL=C sort -u >"$T/fuses"
    find tests bench samples python clients tools -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
        -o -name '*.sh' -o -name '*.py' -o -name '*.cs' \) -exec cat {} + 2>/dev/null |
        grep -oE '[A-Za-z_][A-Za-z0-9_]*' | LC_ALL=C sort -u >"$T/named"
    # defined, used by no other object, named by no test
    bad=$(LC_ALL=C join -v 1 "$T/fdefs" "$T/fuses" | LC_ALL=C join -v 1 - "$T/named" | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
    if [ -z "$bad" ]; then pass every_function_has_a_caller; else
        fail every_function_has_a_caller "no caller outside its file and no test:$bad"
    fi
fi

bad=$(grep -n '^#include "' cmd/blobc/*.c cmd/blobc/*.h | grep -v '#include "blobc/[a-z_]*\.h"' |
    grep -v '#include "cli\.h"' | grep -v '#include "platform/platform\.h"' | tr '\n' ';')
if [ -z "$bad" ]; then pass cmd_uses_public_headers; else fail cmd_uses_public_headers "$bad"; fi

# --- private outcomes are no statuses ---
# A blobc_status holds one of the public statuses: a private outcome (a
# value kept, a probe done) travels beside it, never cast into it.
bad=$(grep -nE '\(blobc_status\) *[A-Z_(+-]' lib/*/*.c lib/*/*.h cmd/blobc/*.c | grep -vE '\(blobc_status\) *BLOBC_' |
    tr '\n' ';')
if [ -z "$bad" ]; then pass no_private_value_cast_to_status; else
    fail no_private_value_cast_to_status "$bad"
fi

# --- public headers say how settled they are ---
bad=""
for h in lib/include/blobc/*.h lib/include/blobc/*.hpp; do
    grep -Eq '^ \* Stability: (stable|experimental): ' "$h" || bad="$bad $h"
done
if [ -z "$bad" ]; then pass public_headers_say_stability; else
    fail public_headers_say_stability "no 'Stability: stable|experimental:' line in$bad"
fi
# ... and the map's table of public headers marks the same ones experimental
grep -l '^ \* Stability: experimental: ' lib/include/blobc/*.h lib/include/blobc/*.hpp |
    sed 's|.*/||' | sort >"$T/exp_headers"
sed -n 's/^| `\([a-z_]*\.h[p]*\)` |.*(experimental) |$/\1/p' "$DOC" | sort >"$T/exp_map"
if cmp -s "$T/exp_headers" "$T/exp_map"; then pass map_marks_experimental_headers; else
    fail map_marks_experimental_headers "headers: $(tr '\n' ' ' <"$T/exp_headers"); the map: $(tr '\n' ' ' <"$T/exp_map")"
fi

# --- the operating system only through lib/platform/ ---
# Outside it: the C standard's headers, the libraries' (libyaml, cJSON,
# xxHash, libcurl) and the compiler's SSE2 intrinsics; signal.h and
# locale.h are the platform layer's too (signals, the process's locale).
STD="assert complex ctype errno fenv float inttypes iso646 limits math setjmp stdalign stdarg
stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath time uchar wchar wctype
yaml cjson/cJSON xxhash curl/curl emmintrin"
bad=""
for f in lib/*/*.c lib/*/*.h cmd/blobc/*.c cmd/blobc/*.h; do
    case $f in lib/platform/*) continue ;; esac
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)\.h>.*/\1/p' "$f"); do
        case " $(echo $STD) " in *" $h "*) ;; *) bad="$bad $f:<$h.h>" ;; esac
    done
done
if [ -z "$bad" ]; then pass os_headers_only_in_platform; else fail os_headers_only_in_platform "$bad"; fi

# The file name of a library loaded at run time differs per system
# (libcurl.so.4, libcurl-4.dll, libcurl.4.dylib): only the platform layer
# spells it, and every message takes it from there.
bad=$(grep -nE '"[^"]*lib[a-z0-9_]+([.-][0-9]+)?\.(so|dll|dylib)' lib/*/*.c lib/*/*.h cmd/blobc/*.c cmd/blobc/*.h |
    grep -v '^lib/platform/' | tr '\n' ';')
if [ -z "$bad" ]; then pass library_file_names_only_in_platform; else
    fail library_file_names_only_in_platform "$bad"
fi

# --- file size: "about 900 lines", with a little room ---
big=$(wc -l lib/*/*.c lib/*/*.h lib/include/blobc/*.h | awk '$2 != "total" && $1 > 950 { print $2 " " $1 }' | tr '\n' ';')
if [ -z "$big" ]; then pass no_file_over_950_lines; else fail no_file_over_950_lines "$big"; fi
