# The rules of docs/ARCHITECTURE.md, checked against the tree: the map
# names every file of lib/ and nothing else, private headers stay in their
# folder, folders include only the folders below them, cmd/ uses only the
# public headers, and no file of lib/ grows far past 900 lines.
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
    common) echo "" ;;
    schema) echo "common" ;;
    blob) echo "common schema" ;;
    bake | read) echo "common schema blob" ;;
    gen) echo "common schema" ;;
    evolve | cache) echo "common schema blob bake read" ;;
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

bad=$(grep -n '^#include "' cmd/blobc/*.c cmd/blobc/*.h | grep -v '#include "blobc/[a-z_]*\.h"' |
    grep -v '#include "cli\.h"' | tr '\n' ';')
if [ -z "$bad" ]; then pass cmd_uses_public_headers; else fail cmd_uses_public_headers "$bad"; fi

# --- file size: "about 900 lines", with a little room ---
big=$(wc -l lib/*/*.c lib/*/*.h lib/include/blobc/*.h | awk '$2 != "total" && $1 > 950 { print $2 " " $1 }' | tr '\n' ';')
if [ -z "$big" ]; then pass no_file_over_950_lines; else fail no_file_over_950_lines "$big"; fi
