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
    share/man/man1/blobc.1 share/blobc/cs/BlobcRuntime.cs; do
    [ -e "$D$P/$f" ] || missing="$missing $f"
done
for h in lib/include/blobc/*.h lib/include/blobc/*.hpp; do
    cmp -s "$h" "$D$P/include/blobc/$(basename "$h")" || missing="$missing include/blobc/$(basename "$h")"
done
[ -z "$missing" ] && pass installed_files || fail installed_files "missing or different:$missing"
[ -x "$D$P/bin/blobc" ] && pass installed_blobc_executable || fail installed_blobc_executable "not executable"
so=$(readlink "$D$P/lib/libblobc.so")
[ "$so" = libblobc.so.0 ] && pass so_symlink || fail so_symlink "libblobc.so -> $so"
soname=$(readelf -d "$D$P/lib/libblobc.so.0" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ -z "$soname" ] || [ "$soname" = libblobc.so.0 ] && pass soname || fail soname "SONAME $soname"

# Only the public API leaves the library: the names exported by the shared
# library, and the global names in the static one, are exactly the
# BLOBC_API functions of the installed headers.
api=$(sed -n 's/^BLOBC_API .*[ *]\(blobc_[a-z0-9_]*\)(.*/\1/p' "$D$P"/include/blobc/*.h | sort -u)
so_names=$(nm -D --defined-only "$D$P/lib/libblobc.so.0" | awk 'NF == 3 {print $3}' | sort -u)
a_names=$(nm -g --defined-only "$D$P/lib/libblobc.a" | awk 'NF == 3 {print $3}' | sort -u)
# strange LIST: the names that are not blobc_ (sanitizer runtimes add their own)
strange() { printf '%s\n' "$1" | grep -v -e '^blobc_' -e '^__asan' -e '^__odr_asan' -e '^__ubsan' -e '^__tsan' -e '^$'; }
[ "$(printf '%s\n' "$api" | wc -l)" -gt 40 ] && pass api_names_found || fail api_names_found "$api"
[ -z "$(strange "$so_names")" ] && pass so_exports_only_blobc ||
    fail so_exports_only_blobc "$(strange "$so_names" | head -5 | tr '\n' ' ')"
[ -z "$(strange "$a_names")" ] && pass a_exposes_only_blobc ||
    fail a_exposes_only_blobc "$(strange "$a_names" | head -5 | tr '\n' ' ')"
so_api=$(printf '%s\n' "$so_names" | grep '^blobc_')
a_api=$(printf '%s\n' "$a_names" | grep '^blobc_')
[ "$so_api" = "$api" ] && pass so_exports_the_api ||
    fail so_exports_the_api "$(printf '%s\n' "$so_api" "$api" | sort | uniq -u | head -5 | tr '\n' ' ')"
[ "$a_api" = "$api" ] && pass a_exposes_the_api ||
    fail a_exposes_the_api "$(printf '%s\n' "$a_api" "$api" | sort | uniq -u | head -5 | tr '\n' ' ')"

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
# libblobc.a with its dependencies linked dynamically: their --static
# lists name archives a distribution's -dev packages need not provide
# (Debian's libcurl names libnghttp2, libssh2, ... without depending on them).
dep_libs="$(pkg-config --libs $(sed -n 's/^Requires.private: //p' "$pc")) -lm -pthread"

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
    $dep_libs 2>"$T/cc.log"; then
    pass tiny_links_static
    expect tiny_runs_static 0 "$T/tiny_static"
    [ "$(cat "$T/out")" = "$tiny_want" ] && pass tiny_output_static || fail tiny_output_static "$(cat "$T/out")"
else
    fail tiny_links_static "$(head -c 800 "$T/cc.log")"
fi

# A program with functions of its own named like the library's internal
# ones links statically without a clash: those names are local there.
cat >"$T/clash.c" <<'EOF'
#include <blobc/blobc.h>
#include <stdio.h>
#include <string.h>
/* Named like functions inside the library (bake/driver.c, bake/fill.c). */
int bk_init(void);
int bk_init(void) { return 7; }
int bk_resolve_root(void);
int bk_resolve_root(void) { return 8; }
int main(void) {
    static const char schema[] = "struct P { x: u32; }\nroot P;\n";
    blobc_schema *s = NULL;
    blobc_buffer out = {0};
    blobc_bake_options o;
    memset(&o, 0, sizeof o);
    if (blobc_schema_parse(schema, strlen(schema), "p.schema", &s, NULL)) return 1;
    o.schema = s;
    blobc_status st = blobc_bake_memory("x: 7\n", 5, "p.yaml", &o, &out, NULL);
    printf("%d %d\n", (int)st, bk_init() + bk_resolve_root());
    blobc_buffer_free(&out);
    blobc_schema_free(s);
    return 0;
}
EOF
if $CC -std=c11 -Wall -Wextra -Werror $SAN $cflags "$T/clash.c" -o "$T/clash" "$D$P/lib/libblobc.a" \
    $dep_libs 2>"$T/cc.log"; then
    expect static_no_name_clash_runs 0 "$T/clash"
    [ "$(cat "$T/out")" = "0 15" ] && pass static_no_name_clash ||
        fail static_no_name_clash "$(cat "$T/out")"
else
    fail static_no_name_clash "$(head -c 800 "$T/cc.log")"
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
