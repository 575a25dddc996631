# Every public header (lib/include/blobc/*.h) compiles on its own and in
# any order: alone, and first with every other header after it (in the
# list's order and reversed), so each header is tried both before and
# after every other one. Each translation unit is compiled as C11 (every C
# compiler) and C++17 (every C++ compiler), with and without
# BLOBC_WITH_LIBRARY, under -Wall -Wextra -Werror -pedantic.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
INC=$TOP/lib/include

find_compilers
HEADERS=$(cd lib/include && ls blobc/*.h)
REVERSED=$(echo "$HEADERS" | sed -n '1!G;h;$p')
n=$(echo "$HEADERS" | wc -l | tr -d ' ')
[ "$n" -ge 10 ] || fail headers_found "only $n public headers"

# one translation unit per order: FILE FIRST REST...
unit() {
    out=$1 first=$2
    shift 2
    {
        echo "#include <$first>"
        for h in "$@"; do [ "$h" = "$first" ] || echo "#include <$h>"; done
        echo "int blobc_headers_test(void);"
        echo "int blobc_headers_test(void) { return 0; }"
    } >"$out"
}
i=0
for h in $HEADERS; do
    i=$((i + 1))
    unit "$T/alone_$i.c" "$h"
    # shellcheck disable=SC2086
    unit "$T/fwd_$i.c" "$h" $HEADERS
    # shellcheck disable=SC2086
    unit "$T/rev_$i.c" "$h" $REVERSED
done

# a generated header before and after the library's headers (its checked
# open needs the library part of blob.h)
if "$BLOBC" gen c tests/data/gen/all.schema -o "$T/gen.h" 2>"$T/err"; then
    # shellcheck disable=SC2086
    unit "$T/fwd_gen_first.c" gen.h $HEADERS
    sed -i 's/^#include <gen.h>$/#include "gen.h"/' "$T/fwd_gen_first.c"
    # shellcheck disable=SC2086
    unit "$T/fwd_gen_last.c" blobc/blobc.h $REVERSED
    sed -i '$i #include "gen.h"' "$T/fwd_gen_last.c"
else
    fail gen_header "$(head -3 "$T/err")"
fi

WARN="-Wall -Wextra -Werror -pedantic"
# compile_all NAME COMPILER FLAGS: every unit; the failures' first lines
compile_all() {
    name=$1 cc=$2
    shift 2
    : >"$T/$name.fail"
    for u in "$T"/alone_*.c "$T"/fwd_*.c "$T"/rev_*.c; do
        if ! $cc "$@" $WARN -I"$INC" -I"$T" -fsyntax-only "$u" >"$T/$name.log" 2>&1; then
            echo "$(basename "$u") ($(head -1 "$u")): $(grep -m1 error "$T/$name.log")" >>"$T/$name.fail"
        fi
    done
    if [ -s "$T/$name.fail" ]; then fail "$name" "$(head -c 800 "$T/$name.fail")"; else
        pass "${name}_$(ls "$T"/alone_*.c "$T"/fwd_*.c "$T"/rev_*.c | wc -l | tr -d ' ')_units"
    fi
}
for cc in $CCS; do
    compile_all "c11_$cc" "$cc" -std=c11 &
    compile_all "c11_library_$cc" "$cc" -std=c11 -DBLOBC_WITH_LIBRARY &
    wait
done
for cxx in $CXXS; do
    compile_all "cxx17_$cxx" "$cxx" -std=c++17 -x c++ &
    compile_all "cxx17_library_$cxx" "$cxx" -std=c++17 -x c++ -DBLOBC_WITH_LIBRARY &
    wait
done
