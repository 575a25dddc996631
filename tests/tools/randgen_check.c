/*
 * randgen_check.c - the checker program: structs the C compiler lays
 * out as the schema says, and code that follows every offset of a raw
 * data section by hand (docs/FORMAT.md), without the library.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

/* ---- the checker program ---- */

int vcount;
static int emitted_type[MAXT];

static void ctype_of(buf *b, const type *t) {
    switch (t->k) {
    case K_ENUM: bput(b, kctype[t->elem->k]); break;
    case K_STRUCT: case K_FIXED: bprintf(b, "s%llu_t%d", cur_seed, t->id); break;
    case K_STRING: case K_ARRAY: case K_MAP: bput(b, "bc_off"); break;
    case K_PTR: case K_REF: bput(b, "bc_ptr"); break;
    case K_UNION: bput(b, "bc_union"); break;
    case K_OPT: bprintf(b, "s%llu_t%d", cur_seed, t->id); break;
    case K_ANY: bput(b, "bc_any"); break;
    default: bput(b, kctype[t->k]); break;
    }
}

/* A map's entry, {key; value} laid out as a struct (docs/FORMAT.md). */
static void entry_type(buf *b, const type *map) { bprintf(b, "s%llu_e%d", cur_seed, map->id); }

/* The C type of every struct, fixed array, optional (its value, then the
 * presence byte) and, once every struct is complete (the entries of a
 * map are out of line, so a struct may be a value of its own map), map
 * entry. */
static void c_typedef(buf *b, const type *t, int entries) {
    if (t->k != K_FIXED && t->k != K_STRUCT && t->k != K_OPT && !(t->k == K_MAP && entries)) return;
    if (emitted_type[t->id]) return;
    emitted_type[t->id] = 1;
    if (t->k == K_OPT || t->k == K_MAP) {
        c_typedef(b, t->elem, 0);
        bput(b, "typedef struct { ");
        ctype_of(b, t->k == K_MAP ? t->key : t->elem);
        bput(b, t->k == K_MAP ? " key; " : " value; ");
        if (t->k == K_MAP) ctype_of(b, t->elem);
        bput(b, t->k == K_MAP ? " value; } " : "uint8_t has; } ");
        if (t->k == K_MAP) entry_type(b, t);
        else ctype_of(b, t);
        bput(b, ";\n");
        return;
    }
    if (t->k == K_FIXED) {
        c_typedef(b, t->elem, 0);
        bput(b, "typedef ");
        ctype_of(b, t->elem);
        bput(b, " ");
        ctype_of(b, t);
        bprintf(b, "[%d];\n", t->count);
        return;
    }
    const decl *d = &decls[t->decl];
    for (int i = 0; i < d->nf; i++) c_typedef(b, d->f[i].t, 0);
    bput(b, "typedef struct ");
    ctype_of(b, t);
    bprintf(b, " { /* %s */\n", d->name);
    for (int i = 0; i < d->nf; i++) {
        bput(b, "    ");
        if (i == 0 && d->align_attr) {
            bprintf(b, "_Alignas(%d) _Alignas(", d->align_attr);
            ctype_of(b, d->f[i].t);
            bput(b, ") ");
        }
        ctype_of(b, d->f[i].t);
        bprintf(b, " f_%s;\n", d->f[i].name);
    }
    bput(b, "} ");
    ctype_of(b, t);
    bput(b, ";\n");
}

void c_string_lit(buf *b, const char *s, size_t n) {
    bput(b, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') bput_n(b, (const char *)&c, 1);
        else bprintf(b, "\\%03o", c);
    }
    bput(b, "\"");
}

static void c_check(buf *b, const val *v, const char *lv, const char *path, int ind, int noshare);
static void c_check_items(buf *b, const val *v, const char *base, const char *path, int ind);

/* The offset field at lvalue lv leading to one `et` (tg, or none). */
static void c_check_ref(buf *b, const char *lv, const type *et, const val *tg, const char *path,
                        int ind) {
    int n = ++vcount;
    pad(b, ind);
    bput(b, "{ const ");
    ctype_of(b, et);
    bprintf(b, " *p%d = (const ", n);
    ctype_of(b, et);
    bprintf(b, " *)ck_ptr(&%s, %d, sizeof *p%d, _Alignof(", lv, tg ? 1 : 0, n);
    ctype_of(b, et);
    bprintf(b, "), %d, \"%s\");\n", tg ? tg->share : -1, path);
    if (tg) {
        pad(b, ind + 2);
        bprintf(b, "if (p%d && g_first) {\n", n);
        char base[32], p2[600];
        sfmt(base, sizeof base, "(*p%d)", n);
        sfmt(p2, sizeof p2, "(*%s)", path);
        /* the target's own payload is reached only through the target,
         * which is what is shared */
        c_check(b, tg, base, p2, ind + 4, 1);
        pad(b, ind + 2);
        bput(b, "}\n");
    }
    pad(b, ind);
    bprintf(b, "(void)p%d; }\n", n);
}

/* Opens a block that checks the offset pair at lv leading to n items of
 * C type et (share: its share id) and, when they are reached first,
 * `if (pN && g_first) {`; returns N, for the items p<N>[i]. */
static int c_open_items(buf *b, const char *lv, int nitems, const char *et, int share,
                        const char *path, int ind) {
    int n = ++vcount;
    pad(b, ind);
    bprintf(b, "{ const %s *p%d = (const %s *)ck_arr(&%s, %d, sizeof *p%d, _Alignof(%s), %d, \"%s\");\n",
            et, n, et, lv, nitems, n, et, share, path);
    pad(b, ind + 2);
    bprintf(b, "if (p%d && g_first) {\n", n);
    return n;
}

static void c_close_items(buf *b, int n, int ind) {
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bprintf(b, "(void)p%d; }\n", n);
}

/* The entries of a map or of an any's mapping at p<n>: each key (when
 * string keys, the string bytes), then the value. */
static void c_check_entries(buf *b, const val *v, int n, const char *path, int ind) {
    char lv[600], p[600];
    for (int i = 0; i < v->n; i++) {
        sfmt(lv, sizeof lv, "p%d[%d].key", n, i);
        sfmt(p, sizeof p, "%s{%d}", path, i);
        c_check(b, v->keys[i], lv, p, ind, 0);
        sfmt(lv, sizeof lv, "p%d[%d].value", n, i);
        c_check(b, v->it[i], lv, p, ind, 0);
    }
}

/* An any: its kind word, then the body the kind says (every other byte
 * stays uncovered, so it must be zero). */
static void c_check_any(buf *b, const val *v, const char *lv, const char *path, int ind) {
    static const int body_bytes[] = {0, 1, 8, 8, 8};
    char body[640];
    sfmt(body, sizeof body, "%s.body", lv);
    pad(b, ind);
    bprintf(b, "ck(&%s.kind, 4, %d, \"%s\");\n", lv, v->ak, path);
    if (v->ak == A_NULL) return;
    pad(b, ind);
    if (v->ak < A_STRING) {
        bprintf(b, "ck(&%s, %d, UINT64_C(0x%llx), \"%s\");\n", body, body_bytes[v->ak],
                (unsigned long long)v->bits, path);
        return;
    }
    if (v->ak == A_STRING) {
        bprintf(b, "ck_str(&%s, ", body);
        c_string_lit(b, v->s, v->slen);
        bprintf(b, ", %zu, -1, \"%s\");\n", v->slen + 1, path);
        return;
    }
    int n = c_open_items(b, body, v->n, v->ak == A_LIST ? "bc_any" : "bc_anye", -1, path, ind);
    char base[32];
    sfmt(base, sizeof base, "p%d", n);
    if (v->ak == A_LIST) c_check_items(b, v, base, path, ind + 4);
    else c_check_entries(b, v, n, path, ind + 4);
    c_close_items(b, n, ind);
}

static void c_check_items(buf *b, const val *v, const char *base, const char *path, int ind) {
    char lv[600], p[600];
    for (int i = 0; i < v->n; i++) {
        sfmt(lv, sizeof lv, "%s[%d]", base, i);
        sfmt(p, sizeof p, "%s[%d]", path, i);
        c_check(b, v->it[i], lv, p, ind, 0);
    }
}

/* Emits code checking value v stored at C lvalue lv, walking offset fields
 * in address order and each new payload depth first, as the canonical
 * placement does. */
static void c_check(buf *b, const val *v, const char *lv, const char *path, int ind, int noshare) {
    int share = noshare ? -1 : v->share;
    const type *t = v->t;
    switch (t->k) {
    case K_STRUCT: {
        const decl *d = &decls[t->decl];
        char l2[600], p2[600];
        for (int i = 0; i < d->nf; i++) {
            sfmt(l2, sizeof l2, "%s.f_%s", lv, d->f[i].name);
            sfmt(p2, sizeof p2, "%s.%s", path, d->f[i].name);
            c_check(b, v->it[i], l2, p2, ind, 0);
        }
        return;
    }
    case K_FIXED: c_check_items(b, v, lv, path, ind); return;
    case K_STRING:
        pad(b, ind);
        bprintf(b, "ck_str(&%s, ", lv);
        c_string_lit(b, v->s, v->slen);
        bprintf(b, ", %zu, %d, \"%s\");\n", v->slen + 1, share, path);
        return;
    case K_ARRAY:
    case K_MAP: {
        buf et = {0};
        if (t->k == K_MAP) entry_type(&et, t);
        else ctype_of(&et, t->elem);
        int n = c_open_items(b, lv, v->n, et.p, share, path, ind);
        free(et.p);
        if (v->karr) {
            pad(b, ind + 4);
            bprintf(b, "kreg(%d, p%d);\n", v->karr, n);
        }
        char base[32];
        sfmt(base, sizeof base, "p%d", n);
        if (t->k == K_MAP) c_check_entries(b, v, n, path, ind + 4);
        else c_check_items(b, v, base, path, ind + 4);
        c_close_items(b, n, ind);
        return;
    }
    case K_OPT: {
        char l2[640];
        pad(b, ind);
        bprintf(b, "ck(&%s.has, 1, %d, \"%s\");\n", lv, v->n, path);
        sfmt(l2, sizeof l2, "%s.value", lv);
        if (v->n) c_check(b, v->it[0], l2, path, ind, 0);
        return;
    }
    case K_ANY: c_check_any(b, v, lv, path, ind); return;
    case K_PTR: c_check_ref(b, lv, t->elem, v->n ? v->it[0] : NULL, path, ind); return;
    case K_REF:
        /* checked once every keyed array has its place (it may lead forward) */
        pad(b, ind);
        if (!v->target) {
            bprintf(b, "ck_ptr(&%s, 0, 0, 1, -1, \"%s\");\n", lv, path);
            return;
        }
        bprintf(b, "ck_kref(&%s, %d, %d, sizeof(", lv, v->target->karr, v->target->kidx);
        ctype_of(b, t->elem);
        bprintf(b, "), \"%s\");\n", path);
        return;
    case K_UNION: {
        /* the tag, then the offset as a *Member's (none: like a null one) */
        const decl *u = &decls[t->decl];
        char l2[600], p2[600];
        pad(b, ind);
        bprintf(b, "ck(&%s.tag, 4, UINT64_C(%d), \"%s\");\n", lv, v->tag, path);
        sfmt(l2, sizeof l2, "%s.off", lv);
        sfmt(p2, sizeof p2, "%s.%s", path, v->tag ? union_member(v) : "(none)");
        c_check_ref(b, l2, struct_type(u->mem[v->tag ? v->tag - 1 : 0]), v->n ? v->it[0] : NULL,
                    p2, ind);
        return;
    }
    default: {
        pad(b, ind);
        uint64_t want = v->bits;
        uint32_t sz = ksize(t->k == K_ENUM ? t->elem->k : t->k);
        if (sz < 8) want &= (UINT64_C(1) << (8 * sz)) - 1;
        bprintf(b, "ck(&%s, sizeof %s, UINT64_C(0x%llx), \"%s\");\n", lv, lv,
                (unsigned long long)want, path);
        return;
    }
    }
}

const char checker_prelude[] =
    "/* Generated by tests/tools/randgen: checks raw data sections of random\n"
    " * cases against structs laid out by the C compiler. */\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "#include <stdarg.h>\n\n"
    "typedef struct bc_off { int32_t off; int32_t len; } bc_off;\n"
    "typedef struct bc_ptr { int32_t off; } bc_ptr;\n"
    "typedef struct bc_union { uint32_t tag; int32_t off; } bc_union;\n"
    "typedef struct bc_any { uint32_t kind; bc_off body; } bc_any;\n"
    "typedef struct bc_anye { bc_off key; bc_any value; } bc_anye;\n"
    "_Static_assert(sizeof(bc_any) == 12 && sizeof(bc_anye) == 20, \"any\");\n"
    "_Static_assert(sizeof(bc_off) == 8 && _Alignof(bc_off) == 4, \"offset pair\");\n"
    "static const unsigned char *g_base;\n"
    "static size_t g_size, g_cursor;\n"
    "static unsigned char *g_cov;\n"
    "static int g_fail, g_expand, g_first;\n"
    "static long long g_share[4096];\n"
    "static const char *g_what;\n"
    "static unsigned long long g_seed;\n"
    "/* where each keyed array's items are; the references, checked at the end */\n"
    "#define NKARR 4096\n"
    "static long long g_karr[NKARR];\n"
    "typedef struct kref { size_t at; int arr, idx; size_t es; const char *path; } kref;\n"
    "static kref *g_krefs;\n"
    "static size_t g_nkrefs, g_capkrefs;\n\n"
    "static void bad(const char *path, const char *fmt, ...) {\n"
    "    va_list ap;\n"
    "    if (g_fail++) return;\n"
    "    printf(\"FAIL %llu %s: %s: \", g_seed, g_what, path);\n"
    "    va_start(ap, fmt); vprintf(fmt, ap); va_end(ap);\n"
    "    printf(\"\\n\");\n"
    "}\n"
    "static size_t at_of(const void *p) { return (size_t)((const unsigned char *)p - g_base); }\n"
    "static void cover(const void *p, size_t n) { memset(g_cov + at_of(p), 1, n); }\n"
    "static void ck(const void *p, size_t n, uint64_t want, const char *path) {\n"
    "    uint64_t got = 0;\n"
    "    memcpy(&got, p, n);\n"
    "    cover(p, n);\n"
    "    if (got != want) bad(path, \"got 0x%llx, want 0x%llx (at data offset %zu)\",\n"
    "                         (unsigned long long)got, (unsigned long long)want, at_of(p));\n"
    "}\n"
    "/* The payload an offset field at p leads to: bounds, alignment, sharing\n"
    " * and canonical placement at the aligned cursor. */\n"
    "static const void *follow(const void *p, size_t n, size_t al, int share, const char *path) {\n"
    "    int32_t off;\n"
    "    memcpy(&off, p, 4);\n"
    "    long long t = (long long)at_of(p) + off;\n"
    "    g_first = 1;\n"
    "    if (t < 0 || (unsigned long long)t > g_size || n > g_size - (size_t)t) {\n"
    "        bad(path, \"offset %d leads to %lld, outside the %zu-byte data\", off, t, g_size);\n"
    "        return NULL;\n"
    "    }\n"
    "    if (t % (long long)al) { bad(path, \"payload at %lld is not %zu-aligned\", t, al); return NULL; }\n"
    "    if (share >= 0 && !g_expand) {\n"
    "        if (g_share[share] >= 0) {\n"
    "            g_first = 0;\n"
    "            if (g_share[share] != t)\n"
    "                bad(path, \"shared payload at %lld, but an earlier reference to it leads to %lld\",\n"
    "                    t, g_share[share]);\n"
    "            return g_base + t;\n"
    "        }\n"
    "        g_share[share] = t;\n"
    "    }\n"
    "    size_t want = (g_cursor + al - 1) / al * al;\n"
    "    if ((size_t)t != want)\n"
    "        bad(path, \"payload at %lld, canonical placement puts it at %zu\", t, want);\n"
    "    g_cursor = (size_t)t + n;\n"
    "    return g_base + t;\n"
    "}\n"
    "static const void *ck_arr(const void *p, int32_t n, size_t es, size_t al, int share, const char *path) {\n"
    "    int32_t off, len;\n"
    "    memcpy(&off, p, 4);\n"
    "    memcpy(&len, (const char *)p + 4, 4);\n"
    "    cover(p, 8);\n"
    "    g_first = 0;\n"
    "    if (len != n) { bad(path, \"length %d, want %d\", len, n); return NULL; }\n"
    "    if (n == 0) {\n"
    "        if (off != 0) bad(path, \"empty array has offset %d, want 0\", off);\n"
    "        return NULL;\n"
    "    }\n"
    "    return follow(p, (size_t)n * es, al, share, path);\n"
    "}\n"
    "static void ck_str(const void *p, const char *want, int32_t n, int share, const char *path) {\n"
    "    const unsigned char *s = ck_arr(p, n, 1, 1, share, path);\n"
    "    if (!s || !g_first) return;\n"
    "    cover(s, (size_t)n);\n"
    "    if (memcmp(s, want, (size_t)n) != 0) bad(path, \"string bytes differ: got \\\"%.*s\\\"\", (int)n, (const char *)s);\n"
    "}\n"
    "static const void *ck_ptr(const void *p, int present, size_t es, size_t al, int share, const char *path) {\n"
    "    int32_t off;\n"
    "    memcpy(&off, p, 4);\n"
    "    cover(p, 4);\n"
    "    g_first = 0;\n"
    "    if (!present) {\n"
    "        if (off) bad(path, \"offset %d, want null\", off);\n"
    "        return NULL;\n"
    "    }\n"
    "    if (!off) { bad(path, \"null, want a target\"); return NULL; }\n"
    "    return follow(p, es, al, share, path);\n"
    "}\n"
    "static void kreg(int arr, const void *items) {\n"
    "    if (items && arr < NKARR) g_karr[arr] = (long long)at_of(items);\n"
    "}\n"
    "static void ck_kref(const void *p, int arr, int idx, size_t es, const char *path) {\n"
    "    cover(p, 4);\n"
    "    if (g_nkrefs == g_capkrefs) {\n"
    "        g_capkrefs = g_capkrefs ? 2 * g_capkrefs : 64;\n"
    "        g_krefs = realloc(g_krefs, g_capkrefs * sizeof *g_krefs);\n"
    "        if (!g_krefs) { printf(\"out of memory\\n\"); exit(2); }\n"
    "    }\n"
    "    g_krefs[g_nkrefs++] = (kref){at_of(p), arr, idx, es, path};\n"
    "}\n"
    "/* a reference leads to the first byte of its item */\n"
    "static void finish_refs(void) {\n"
    "    for (size_t i = 0; i < g_nkrefs; i++) {\n"
    "        const kref *r = &g_krefs[i];\n"
    "        int32_t off;\n"
    "        memcpy(&off, g_base + r->at, 4);\n"
    "        long long got = (long long)r->at + off, base = r->arr < NKARR ? g_karr[r->arr] : -1;\n"
    "        long long want = base + (long long)r->idx * (long long)r->es;\n"
    "        if (base < 0) bad(r->path, \"keyed array %d (its target's) was not reached\", r->arr);\n"
    "        else if (!off || got != want)\n"
    "            bad(r->path, \"reference offset %d leads to %lld, want item %d of keyed array %d at %lld\",\n"
    "                off, got, r->idx, r->arr, want);\n"
    "    }\n"
    "}\n"
    "static void finish(void) {\n"
    "    finish_refs();\n"
    "    if (g_cursor != g_size) bad(\"(end)\", \"data section is %zu bytes, the last payload ends at %zu\", g_size, g_cursor);\n"
    "    for (size_t i = 0; i < g_size; i++)\n"
    "        if (!g_cov[i] && g_base[i]) { bad(\"(padding)\", \"byte %zu is 0x%02x, want 0 (part of no value)\", i, g_base[i]); break; }\n"
    "}\n\n";

const char checker_main[] =
    "int main(int argc, char **argv) {\n"
    "    int rc = 0;\n"
    "    /* arguments: SEED FILE EXPAND, repeated; EXPAND=1 when every shared\n"
    "     * payload was written out again (JSON) */\n"
    "    for (int a = 1; a + 2 < argc; a += 3) {\n"
    "        g_seed = strtoull(argv[a], NULL, 10);\n"
    "        g_what = argv[a + 1];\n"
    "        g_expand = atoi(argv[a + 2]);\n"
    "        g_fail = 0;\n"
    "        g_cursor = 0;\n"
    "        for (size_t i = 0; i < sizeof g_share / sizeof g_share[0]; i++) g_share[i] = -1;\n"
    "        for (size_t i = 0; i < NKARR; i++) g_karr[i] = -1;\n"
    "        g_nkrefs = 0;\n"
    "        FILE *f = fopen(g_what, \"rb\");\n"
    "        if (!f) { printf(\"FAIL %llu %s: cannot open\\n\", g_seed, g_what); rc = 1; continue; }\n"
    "        fseek(f, 0, SEEK_END);\n"
    "        long sz = ftell(f);\n"
    "        fseek(f, 0, SEEK_SET);\n"
    "        unsigned char *mem = aligned_alloc(16, ((size_t)sz + 16) / 16 * 16);\n"
    "        g_cov = calloc((size_t)sz + 1, 1);\n"
    "        if (!mem || !g_cov || fread(mem, 1, (size_t)sz, f) != (size_t)sz) { printf(\"FAIL %llu %s: read error\\n\", g_seed, g_what); rc = 1; fclose(f); continue; }\n"
    "        fclose(f);\n"
    "        g_base = mem;\n"
    "        g_size = (size_t)sz;\n"
    "        int found = 0;\n"
    "        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)\n"
    "            if (cases[i].seed == g_seed) { found = 1; cases[i].fn(); finish(); }\n"
    "        if (!found) bad(\"(case)\", \"no such seed in this checker\");\n"
    "        if (!g_fail) printf(\"ok %llu %s\\n\", g_seed, g_what);\n"
    "        rc |= g_fail != 0;\n"
    "        free(mem);\n"
    "        free(g_cov);\n"
    "    }\n"
    "    return rc;\n"
    "}\n";

void checker_for_case(buf *b) {
    memset(emitted_type, 0, sizeof emitted_type);
    vcount = 0;
    bprintf(b, "/* ---- seed %llu ---- */\n", cur_seed);
    for (int i = 0; i < ntypes; i++) c_typedef(b, &types[i], 0);
    for (int i = 0; i < ntypes; i++) c_typedef(b, &types[i], 1);
    bprintf(b, "static void check_%llu(void) {\n", cur_seed);
    bput(b, "    const ");
    ctype_of(b, root_type);
    bput(b, " *r = (const ");
    ctype_of(b, root_type);
    bput(b, " *)g_base;\n");
    bput(b, "    if (g_size < sizeof *r) { bad(\"(root)\", \"data section is %zu bytes, the root needs %zu\", g_size, sizeof *r); return; }\n");
    bput(b, "    g_cursor = sizeof *r;\n");
    c_check(b, root, "(*r)", decls[root_type->decl].name, 4, 0);
    bput(b, "}\n\n");
}
