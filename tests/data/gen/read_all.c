/*
 * read_all.c - reads every value of tests/data/gen/all.yaml, baked, through
 * the header `blobc gen c tests/data/gen/all.schema` writes (all.h), and
 * compares each with the source data. Compiles as C11 and as C++17.
 *
 *   read_all FILE blob|raw|checked|refuse
 *
 * blob: FILE is a .blob opened with Everything_open; raw: a data section
 * (bake --format raw) opened with Everything_open_raw; checked: a .blob
 * opened with Everything_open_checked (needs BLOBC_WITH_LIBRARY and
 * libblobc); refuse: FILE must be rejected by Everything_open_checked, and
 * the verify error is printed. Prints one line per failed comparison and
 * "ok N values" at the end; exits 0 only if everything matched.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"

/* 16-byte aligned memory: Windows' C runtime has no aligned_alloc. */
#ifdef _WIN32
#include <malloc.h>
#define ALLOC16(n) _aligned_malloc((n), 16)
#define FREE16 _aligned_free
#else
#define ALLOC16(n) aligned_alloc(16, (n))
#define FREE16 free
#endif

static int checks, failures;

static void check(int ok, const char *what, int line) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL line %d: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)
#define CHECK_STR(got, want) check(strcmp((got), (want)) == 0, #got " == " #want, __LINE__)

static unsigned char *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long size = ftell(f);
    rewind(f);
    size_t cap = ((size_t)(size > 0 ? size : 0) + 15) / 16 * 16 + 16;
    unsigned char *buf = BLOBC_RT_CAST(unsigned char *, ALLOC16(cap));
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        FREE16(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static void check_node_leaf(const Node *n, int32_t value) {
    size_t nk;
    CHECK(n != BLOBC_RT_NULL);
    if (!n) return;
    CHECK(n->value == value);
    CHECK(Node_next(n) == BLOBC_RT_NULL);
    CHECK(Node_kids(n, &nk) == BLOBC_RT_NULL && nk == 0);
}

static void check_all(const Everything *e) {
    size_t n, m;

    /* scalars at both ends of their ranges */
    CHECK(e->max.b == 1);
    CHECK(e->max.i8v == 127);
    CHECK(e->max.u8v == 255);
    CHECK(e->max.i16v == 32767);
    CHECK(e->max.u16v == 65535);
    CHECK(e->max.i32v == INT32_MAX);
    CHECK(e->max.u32v == UINT32_MAX);
    CHECK(e->max.i64v == INT64_MAX);
    CHECK(e->max.u64v == UINT64_MAX);
    CHECK(e->max.f32v == FLT_MAX);
    CHECK(e->max.f64v == DBL_MAX);
    CHECK(e->min.b == 0);
    CHECK(e->min.i8v == -128);
    CHECK(e->min.u8v == 0);
    CHECK(e->min.i16v == -32768);
    CHECK(e->min.u16v == 0);
    CHECK(e->min.i32v == INT32_MIN);
    CHECK(e->min.u32v == 0);
    CHECK(e->min.i64v == INT64_MIN);
    CHECK(e->min.u64v == 0);
    CHECK(e->min.f32v == -1.5f);
    CHECK(e->min.f64v == 0.0 && signbit(e->min.f64v));

    /* enums, by value and by name */
    CHECK(e->enums.small == Small_neg && e->enums.small == -128);
    CHECK_STR(Small_name(e->enums.small), "neg");
    CHECK(e->enums.byte == Byte_hi && e->enums.byte == 255);
    CHECK_STR(Byte_name(e->enums.byte), "hi");
    CHECK(e->enums.short_ == Short_smin);
    CHECK_STR(Short_name(e->enums.short_), "smin");
    CHECK(e->enums.ushort == UShort_uhi);
    CHECK_STR(UShort_name(e->enums.ushort), "uhi");
    CHECK(e->enums.n32 == Neg32_min32 && e->enums.n32 == INT32_MIN);
    CHECK_STR(Neg32_name(e->enums.n32), "min32");
    CHECK(e->enums.big == Big32_top && e->enums.big == UINT32_MAX);
    CHECK_STR(Big32_name(e->enums.big), "top");
    CHECK(e->enums.s64 == Signed64_min64 && e->enums.s64 == INT64_MIN);
    CHECK_STR(Signed64_name(e->enums.s64), "min64");
    CHECK(e->enums.wide == Wide_whi && e->enums.wide == UINT64_MAX);
    CHECK_STR(Wide_name(e->enums.wide), "whi");
    CHECK(Wide_name(Wide_mid) != BLOBC_RT_NULL && Wide_name(5) == BLOBC_RT_NULL);
    CHECK(Signed64_minus_one == -1 && Signed64_max64 == INT64_MAX);

    /* strings */
    CHECK_STR(Everything_name(e), "h\xc3\xa9llo, w\xc3\xb6rld");
    CHECK(blobc_rt_str_len(&e->name) == 14);
    CHECK_STR(Everything_empty_name(e), "");
    CHECK(blobc_rt_str_len(&e->empty_name) == 0 && e->empty_name.offset != 0);

    /* inline fixed arrays */
    CHECK(e->fixed[0] == 1 && e->fixed[1] == 2 && e->fixed[2] == 65535);
    CHECK(e->grid3[0][0] == 1 && e->grid3[0][1] == -1 && e->grid3[1][0] == 2 &&
          e->grid3[1][1] == -2 && e->grid3[2][0] == 3 && e->grid3[2][1] == -3);

    /* @align(16) inline and as array items */
    CHECK(e->aligned.v[0] == 1.0f && e->aligned.v[1] == 2.0f && e->aligned.v[2] == 3.0f);
    CHECK(e->aligned.tag == 7);
    CHECK(offsetof(Everything, aligned) % 16 == 0);
    {
        const Aligned *a = Everything_aligned_list(e, &n);
        CHECK(n == 2);
        CHECK(((uintptr_t)a) % 16 == 0);
        CHECK(a[0].v[0] == 4.0f && a[0].v[1] == 5.0f && a[0].v[2] == 6.0f && a[0].tag == 8);
        CHECK(a[1].v[0] == 7.0f && a[1].v[1] == 8.0f && a[1].v[2] == 9.5f && a[1].tag == 9);
    }

    /* [u32], empty [u32] */
    {
        const uint32_t *ints = Everything_ints(e, &n);
        CHECK(n == 3 && ints[0] == 10 && ints[1] == 20 && ints[2] == 30);
        CHECK(Everything_no_ints(e, &n) == BLOBC_RT_NULL && n == 0);
        CHECK(blobc_rt_array_len(&e->ints) == 3 && blobc_rt_array_len(&e->no_ints) == 0);
    }

    /* [string] */
    Everything_names(e, &n);
    CHECK(n == 3);
    CHECK_STR(Everything_names_at(e, 0), "alpha");
    CHECK_STR(Everything_names_at(e, 1), "");
    CHECK_STR(Everything_names_at(e, 2), "gamma");
    CHECK_STR(blobc_rt_str_cstr(&Everything_names(e, BLOBC_RT_NULL)[2]), "gamma");

    /* *T set and null */
    {
        const Scalars *s = Everything_some(e);
        CHECK(s != BLOBC_RT_NULL);
        if (s) {
            CHECK(s->b == 1 && s->i8v == 1 && s->u8v == 2 && s->i16v == 3 && s->u16v == 4);
            CHECK(s->i32v == 5 && s->u32v == 6 && s->i64v == 7 && s->u64v == 8);
            CHECK(s->f32v == 0.25f && s->f64v == 0.125);
        }
        CHECK(Everything_none(e) == BLOBC_RT_NULL);
    }

    /* [[u32]] */
    Everything_nested(e, &n);
    CHECK(n == 3);
    {
        const uint32_t *row = Everything_nested_at(e, 0, &m);
        CHECK(m == 1 && row[0] == 1);
        CHECK(Everything_nested_at(e, 1, &m) == BLOBC_RT_NULL && m == 0);
        row = Everything_nested_at(e, 2, &m);
        CHECK(m == 2 && row[0] == 2 && row[1] == 3);
    }

    /* [*Node] with a null item and a chain */
    Everything_ptrs(e, &n);
    CHECK(n == 3);
    check_node_leaf(Everything_ptrs_at(e, 0), 1);
    CHECK(Everything_ptrs_at(e, 1) == BLOBC_RT_NULL);
    {
        const Node *p = Everything_ptrs_at(e, 2);
        CHECK(p != BLOBC_RT_NULL && p->value == 3);
        if (p) check_node_leaf(Node_next(p), 4);
    }

    /* [[f32; 3]] */
    {
        const float(*rows)[3] = Everything_rows(e, &n);
        CHECK(n == 2);
        CHECK(rows[0][0] == 1.0f && rows[0][1] == 2.0f && rows[0][2] == 3.0f);
        CHECK(rows[1][0] == 4.0f && rows[1][1] == 5.0f && rows[1][2] == 6.0f);
    }

    /* [string; 2], [[u8]; 2] */
    CHECK_STR(Everything_pair_names(e, 0), "left");
    CHECK_STR(Everything_pair_names(e, 1), "right");
    {
        const uint8_t *b = Everything_pair_lists(e, 0, &n);
        CHECK(n == 2 && b[0] == 1 && b[1] == 2);
        CHECK(Everything_pair_lists(e, 1, &n) == BLOBC_RT_NULL && n == 0);
    }

    /* [[string; 2]] */
    Everything_grid_names(e, &n);
    CHECK(n == 2);
    CHECK_STR(Everything_grid_names_at(e, 0, 0), "a");
    CHECK_STR(Everything_grid_names_at(e, 0, 1), "b");
    CHECK_STR(Everything_grid_names_at(e, 1, 0), "c");
    CHECK_STR(Everything_grid_names_at(e, 1, 1), "d");

    /* *string */
    {
        const blobc_rt_str *s = Everything_str_ptr(e);
        CHECK(s != BLOBC_RT_NULL);
        if (s) CHECK_STR(blobc_rt_str_cstr(s), "pointed");
    }

    /* [[[u16]]]: the item accessor resolves one level; the runtime the rest */
    Everything_deep(e, &n);
    CHECK(n == 3);
    {
        const blobc_rt_array *lists = Everything_deep_at(e, 0, &m);
        const uint16_t *v;
        size_t k;
        CHECK(m == 2);
        v = BLOBC_RT_CAST(const uint16_t *, blobc_rt_array_data(&lists[0], &k));
        CHECK(k == 2 && v[0] == 1 && v[1] == 2);
        v = BLOBC_RT_CAST(const uint16_t *, blobc_rt_array_data(&lists[1], &k));
        CHECK(k == 1 && v[0] == 3);
        CHECK(Everything_deep_at(e, 1, &m) == BLOBC_RT_NULL && m == 0);
        lists = Everything_deep_at(e, 2, &m);
        CHECK(m == 1);
        v = BLOBC_RT_CAST(const uint16_t *, blobc_rt_array_data(&lists[0], &k));
        CHECK(k == 1 && v[0] == 4);
    }

    /* recursion through *Node and [Node] */
    {
        const Node *l = Everything_list(e);
        CHECK(l != BLOBC_RT_NULL);
        if (l) {
            const Node *next = Node_next(l);
            const Node *kids = Node_kids(l, &n);
            CHECK(l->value == 1);
            CHECK(next != BLOBC_RT_NULL);
            if (next) {
                const Node *nk = Node_kids(next, &m);
                CHECK(next->value == 2 && Node_next(next) == BLOBC_RT_NULL);
                CHECK(m == 1);
                if (m == 1) check_node_leaf(&nk[0], 3);
            }
            CHECK(n == 2);
            if (n == 2) {
                check_node_leaf(&kids[0], 5);
                CHECK(kids[1].value == 6);
                check_node_leaf(Node_next(&kids[1]), 7);
            }
        }
    }

    /* [Small] */
    {
        const Small *k = Everything_kinds(e, &n);
        CHECK(n == 3 && k[0] == Small_pos && k[1] == Small_zero && k[2] == Small_neg);
    }
}

int main(int argc, char **argv) {
    size_t len = 0;
    unsigned char *buf;
    const Everything *e = BLOBC_RT_NULL;
    blobc_rt_status st = BLOBC_RT_OK;
    if (argc != 3) {
        fprintf(stderr, "usage: read_all FILE blob|raw|checked|refuse\n");
        return 2;
    }
    buf = load(argv[1], &len);
    if (!buf) {
        perror(argv[1]);
        return 2;
    }
    if (strcmp(argv[2], "blob") == 0) {
        e = Everything_open(buf, len, &st);
    } else if (strcmp(argv[2], "raw") == 0) {
        e = Everything_open_raw(buf, len, &st);
    } else {
#ifdef BLOBC_WITH_LIBRARY
        blobc_error err;
        char msg[2048];
        e = Everything_open_checked(buf, len, &err);
        if (strcmp(argv[2], "refuse") == 0) {
            FREE16(buf);
            if (e) {
                printf("FAIL: Everything_open_checked accepted %s\n", argv[1]);
                return 1;
            }
            blobc_error_format(&err, msg, sizeof msg);
            printf("refused: %s (%s)\n", msg, blobc_verify_code_name(err.code));
            return 0;
        }
        if (!e) {
            blobc_error_format(&err, msg, sizeof msg);
            printf("FAIL: Everything_open_checked: %s\n", msg);
            FREE16(buf);
            return 1;
        }
#else
        fprintf(stderr, "read_all: built without BLOBC_WITH_LIBRARY\n");
        FREE16(buf);
        return 2;
#endif
    }
    if (!e) {
        printf("FAIL: open: %s\n", blobc_rt_status_message(st));
        FREE16(buf);
        return 1;
    }
    check_all(e);
    FREE16(buf);
    printf("ok %d values\n", checks);
    return failures ? 1 : 0;
}
