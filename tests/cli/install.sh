# make install / uninstall into a temporary DESTDIR: every file in its
# place, a pkg-config file with the right prefix and dependencies, a program
# compiled and linked (shared and static) against the installed headers
# and library through that pkg-config file, the installed blobc and its
# generated header working together; uninstall leaves nothing behind.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
CC=${CC:-cc}
D=$T/dest
P=/opt/blobc-test
# Run make afresh, not as part of the make that may be running this suite.
unset MAKEFLAGS MFLAGS MAKELEVEL

if ! command -v pkg-config >/dev/null 2>&1; then
    fail pkg_config "pkg-config not found"
    exit 0
fi
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then
    SAN="-fsanitize=address,undefined"
fi

expect install 0 make --no-print-directory BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" install
missing=""
for f in bin/blobc lib/libblobc.a lib/libblobc.so lib/libblobc.so.0 lib/pkgconfig/blobc.pc \
    share/man/man1/blobc.1; do
    [ -e "$D$P/$f" ] || missing="$missing $f"
done
for h in lib/include/blobc/*.h; do
    cmp -s "$h" "$D$P/include/blobc/$(basename "$h")" || missing="$missing include/blobc/$(basename "$h")"
done
[ -z "$missing" ] && pass installed_files || fail installed_files "missing or different:$missing"
[ -x "$D$P/bin/blobc" ] && pass installed_blobc_executable || fail installed_blobc_executable "not executable"
so=$(readlink "$D$P/lib/libblobc.so")
[ "$so" = libblobc.so.0 ] && pass so_symlink || fail so_symlink "libblobc.so -> $so"
soname=$(readelf -d "$D$P/lib/libblobc.so.0" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ -z "$soname" ] || [ "$soname" = libblobc.so.0 ] && pass soname || fail soname "SONAME $soname"

pc=$D$P/lib/pkgconfig/blobc.pc
grep -qx "prefix=$P" "$pc" && grep -qx "includedir=$P/include" "$pc" && grep -qx "libdir=$P/lib" "$pc" &&
    pass pc_prefix || fail pc_prefix "$(cat "$pc")"
grep -qx 'Requires.private: yaml-0.1 libcjson libxxhash' "$pc" && pass pc_requires ||
    fail pc_requires "$(grep Requires "$pc")"

# pkg-config finds the staged files through the sysroot, as a packager's would.
PKG_CONFIG_PATH=$D$P/lib/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$D
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
ver=$(pkg-config --modversion blobc)
[ "$ver" = "$("$BLOBC" --version | sed -n 's/^blobc \([0-9.]*\).*/\1/p')" ] && pass pc_version ||
    fail pc_version "pkg-config says '$ver'"
cflags=$(pkg-config --cflags blobc)
libs=$(pkg-config --libs blobc)
static_libs=$(pkg-config --static --libs blobc)
# has WORD LIST: LIST, split at spaces, contains WORD
has() {
    for w in $2; do [ "$w" = "$1" ] && return 0; done
    return 1
}
has "-I$D$P/include" "$cflags" && pass pc_cflags || fail pc_cflags "$cflags"
has "-L$D$P/lib" "$libs" && has -lblobc "$libs" && pass pc_libs || fail pc_libs "$libs"
ok=1
for l in -lblobc -lm -lyaml -lcjson -lxxhash; do has "$l" "$static_libs" || ok=0; done
[ $ok = 1 ] && pass pc_static_libs || fail pc_static_libs "$static_libs"

# A program using both the library and the runtime, from the installed headers.
cat >"$T/tiny.c" <<'EOF'
#include <blobc/blob.h>
#include <blobc/blobc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct P { uint32_t x; blobc_rt_str name; } P;

int main(void) {
    static const char schema[] = "struct P { x: u32; name: string; }\nroot P;\n";
    static const char yaml[] = "x: 7\nname: seven\n";
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_buffer out = {0};
    blobc_bake_options o;
    blobc_rt_view v;
    blobc_error_clear(&err);
    memset(&o, 0, sizeof o);
    if (blobc_schema_parse(schema, strlen(schema), "p.schema", &s, &err) != BLOBC_OK) return 1;
    o.schema = s;
    if (blobc_bake_memory(yaml, strlen(yaml), "p.yaml", &o, &out, &err) != BLOBC_OK) {
        printf("bake: %s\n", err.message);
        return 1;
    }
    void *copy = aligned_alloc(16, (out.len + 15) / 16 * 16);
    memcpy(copy, out.data, out.len);
    blobc_rt_status st = blobc_rt_open(copy, out.len, blobc_type_hash(blobc_schema_root(s)),
                                       sizeof(P), &v);
    if (st != BLOBC_RT_OK) {
        printf("open: %s\n", blobc_rt_status_message(st));
        return 1;
    }
    const P *p = v.data;
    printf("%s %u %s\n", blobc_version(), (unsigned)p->x, blobc_rt_str_cstr(&p->name));
    free(copy);
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    return 0;
}
EOF
# (not $want: the helpers in lib.sh use that name)
tiny_want="$(pkg-config --modversion blobc) 7 seven"
if $CC -std=c11 -Wall -Wextra -Werror $SAN $cflags "$T/tiny.c" -o "$T/tiny" $libs 2>"$T/cc.log"; then
    pass tiny_links_shared
    expect tiny_runs_shared 0 env LD_LIBRARY_PATH="$D$P/lib" "$T/tiny"
    [ "$(cat "$T/out")" = "$tiny_want" ] && pass tiny_output_shared || fail tiny_output_shared "$(cat "$T/out")"
    if command -v ldd >/dev/null 2>&1; then
        LD_LIBRARY_PATH=$D$P/lib ldd "$T/tiny" | grep -q "libblobc.so.0 => $D$P/lib/libblobc.so.0" &&
            pass tiny_uses_installed_so || fail tiny_uses_installed_so "$(LD_LIBRARY_PATH=$D$P/lib ldd "$T/tiny")"
    fi
else
    fail tiny_links_shared "$(head -c 800 "$T/cc.log")"
fi
if $CC -std=c11 -Wall -Wextra -Werror $SAN $cflags "$T/tiny.c" -o "$T/tiny_static" "$D$P/lib/libblobc.a" \
    $(echo " $static_libs " | sed 's/ -lblobc / /') 2>"$T/cc.log"; then
    pass tiny_links_static
    expect tiny_runs_static 0 "$T/tiny_static"
    [ "$(cat "$T/out")" = "$tiny_want" ] && pass tiny_output_static || fail tiny_output_static "$(cat "$T/out")"
else
    fail tiny_links_static "$(head -c 800 "$T/cc.log")"
fi

# The installed blobc generates a header that compiles against the installed runtime alone.
expect installed_gen 0 "$D$P/bin/blobc" gen c "$TOP/schemas/level.schema" -o "$T/level.h"
printf '#include "level.h"\nint main(void) { return Level_open("", 0, BLOBC_RT_NULL) ? 1 : 0; }\n' >"$T/g.c"
$CC -std=c11 -Wall -Wextra -Werror -pedantic $cflags -I"$T" "$T/g.c" -o "$T/g" 2>"$T/cc.log" && "$T/g" &&
    pass generated_header_with_installed_runtime ||
    fail generated_header_with_installed_runtime "$(head -c 800 "$T/cc.log")"

expect uninstall 0 make --no-print-directory BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" uninstall
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] && pass uninstall_removes_every_file || fail uninstall_removes_every_file "left: $left"
[ ! -d "$D$P/include/blobc" ] && pass uninstall_removes_include_dir || fail uninstall_removes_include_dir "still there"

# SHARED=0: the static library only.
expect install_static_only 0 make --no-print-directory BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" SHARED=0 install
[ -f "$D$P/lib/libblobc.a" ] && [ ! -e "$D$P/lib/libblobc.so" ] && pass static_only_files ||
    fail static_only_files "$(ls "$D$P/lib")"
expect uninstall_static_only 0 make --no-print-directory BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" uninstall
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] && pass uninstall_static_only_clean || fail uninstall_static_only_clean "left: $left"
