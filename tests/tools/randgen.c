/*
 * randgen.c - random test cases for blobc, checked without blobc's readers.
 *
 * For a seed it makes a random schema, random values for its root type,
 * those values written as YAML and as JSON, and C code whose structs mirror
 * the schema as the C compiler lays them out. That code reads a raw data
 * section, follows every self-relative offset by hand and compares each
 * value bit for bit, the canonical placement of every payload, the sharing
 * of aliased payloads and the zero padding (docs/FORMAT.md). Nothing here
 * calls the library, so a mistake shared by the baker and blobc's own
 * verify/dump still shows.
 *
 *   randgen case SEED DIR         DIR/t.schema, t.yaml, t.json, info, and
 *                                 m.schema importing m-part*.schema: the
 *                                 same types split over files
 *   randgen check OUT.c SEED...   one checker program for these seeds
 *   randgen genc OUT.c SEED...    a reader of these seeds' blobs through the
 *                                 headers `blobc gen c` made (gen-SEED.h)
 *   randgen mutants SEED DIR      DIR/0 the case's schema and YAML, DIR/1...
 *                                 the schema with one element changed each,
 *                                 DIR/list naming each change (the cache key)
 *
 * The checker runs as `check SEED RAWFILE EXPAND ...` (EXPAND 1 for a JSON
 * bake, where shared payloads are copies); the reader as `reader SEED BLOB
 * ...`. Each prints "ok SEED ..." or "FAIL SEED ...: path: what".
 *
 * Everything is a function of the seed (own PRNG), so a failing seed is
 * reproduced anywhere by running the same commands.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h" /* mkdir on every platform */

#ifdef __MINGW32__
#define FMT_PRINTF gnu_printf
#else
#define FMT_PRINTF printf
#endif

/* ---- output buffer ---- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void die(const char *msg) {
    fprintf(stderr, "randgen: %s\n", msg);
    exit(2);
}

/* Everything a case allocates is listed here and freed with the case. */
static void **owned;
static size_t nowned, capowned;

static void *own(void *p) {
    if (!p) die("out of memory");
    if (nowned == capowned) {
        capowned = capowned ? capowned * 2 : 1024;
        owned = realloc(owned, capowned * sizeof *owned);
        if (!owned) die("out of memory");
    }
    owned[nowned++] = p;
    return p;
}

static void free_owned(void) {
    for (size_t i = 0; i < nowned; i++) free(owned[i]);
    nowned = 0;
}

static void *xmalloc(size_t n) { return own(calloc(1, n ? n : 1)); }

static void bput_n(buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > nc) nc *= 2;
        b->p = realloc(b->p, nc);
        if (!b->p) die("out of memory");
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void bput(buf *b, const char *s) { bput_n(b, s, strlen(s)); }

static void bprintf(buf *b, const char *fmt, ...) __attribute__((format(FMT_PRINTF, 2, 3)));
static void bprintf(buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) die("format error");
    if ((size_t)n < sizeof small) {
        bput_n(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) die("out of memory");
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    bput_n(b, big, (size_t)n);
    free(big);
}

/* snprintf for names and paths; a cut-off path only shortens a message. */
static void sfmt(char *out, size_t cap, const char *fmt, ...) __attribute__((format(FMT_PRINTF, 3, 4)));
static void sfmt(char *out, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

static void pad(buf *b, int n) {
    for (int i = 0; i < n; i++) bput_n(b, " ", 1);
}

static void write_file(const char *dir, const char *name, const buf *b) {
    char path[4096];
    sfmt(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "randgen: cannot write %s\n", path);
        exit(2);
    }
    if (b->n && fwrite(b->p, 1, b->n, f) != b->n) die("write failed");
    if (fclose(f) != 0) die("write failed");
}

/* ---- PRNG: splitmix64; one stream for the case, others for presentation ---- */

static uint64_t *rng;

static uint64_t rnd(void) {
    uint64_t z = (*rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static int pct(int p) { return (int)below(100) < p; }

/* ---- types ---- */

enum {
    K_BOOL = 1, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F32, K_F64,
    K_ENUM, K_STRUCT, K_STRING, K_ARRAY, K_FIXED, K_PTR, K_UNION, K_REF
};

static const char *const kname[] = {"",    "bool", "i8",  "u8",  "i16", "u16",
                                    "i32", "u32",  "i64", "u64", "f32", "f64"};
static const char *const kctype[] = {"",        "uint8_t",  "int8_t",  "uint8_t",
                                     "int16_t", "uint16_t", "int32_t", "uint32_t",
                                     "int64_t", "uint64_t", "float",   "double"};

typedef struct type type;
struct type {
    int k;
    int id;
    type *elem;  /* ARRAY FIXED PTR: element; ENUM: base; REF: the keyed struct */
    int count;   /* FIXED */
    int decl;    /* ENUM STRUCT UNION: index into decls */
};

typedef struct val val;

typedef struct field {
    char name[24];
    type *t;
    val *def; /* default, or NULL */
    int nullable; /* a union or reference field declared `= null` */
} field;

#define MAXF 24
#define MAXV 8
#define MAXD 16
#define MAXT 600

typedef struct decl {
    int is_enum;
    int is_union;
    /* union: member structs (indexes for struct_type), in tag order */
    int nm;
    int mem[MAXD];
    char name[24];
    type *t;
    /* struct */
    int nf;
    field f[MAXF];
    int align_attr;
    uint32_t size, align;
    int laid;
    int keyed;  /* a struct with a @key (chosen before any struct is made) */
    int key;    /* its key field */
    int reach;  /* its values may hold a keyed array */
    /* enum */
    type *base;
    int nv;
    char vn[MAXV][24];
    uint64_t vv[MAXV];
    int vexp[MAXV];
} decl;

struct val {
    type *t;
    uint64_t bits;     /* scalars: two's complement sign-extended, float bits */
    char *s;           /* string bytes */
    char *ftext;       /* a float's literal when it must be written so */
    size_t slen;
    int n;             /* struct: fields; FIXED/ARRAY: items; PTR, UNION: 0 null/none, 1 */
    int tag;           /* UNION: 0 none, else the member's tag (it[0] its struct) */
    val **it;
    int refs;          /* references to this payload (sharing when > 1) */
    int share;         /* share id, -1 when not shared */
    int xsize;         /* nodes when every share is expanded */
    int *order;        /* struct: key order for the text forms */
    unsigned char *omit;
    int emitted;       /* YAML: anchor already written */
    int anchor;        /* YAML: its anchor's number once written */
    val *target;       /* REF: the item it names (NULL: null) */
    int pending;       /* REF: to be given a target */
    int karr, kidx;    /* an item of a keyed array: the array's number, its
                        * place in it (sorted); a keyed array: its number */
    int *tord;         /* a keyed array: its items in the text's order */
};

static type types[MAXT];
static int ntypes;
static decl decls[MAXD];
static int ndecls, nenums, nstructs, nunions;
static int sharing;       /* this seed makes shared payloads */
static int nshares;
static int has_root_decl; /* schema says `root X;` (else the data says $type) */
static int root_decl_moved = -1; /* a mutant's `root` names this decl instead */
static unsigned long long cur_seed;

static type *intern(int k, type *elem, int count, int d) {
    for (int i = 0; i < ntypes; i++)
        if (types[i].k == k && types[i].elem == elem && types[i].count == count &&
            types[i].decl == d)
            return &types[i];
    if (ntypes == MAXT) die("too many types");
    type *t = &types[ntypes];
    t->k = k;
    t->id = ntypes++;
    t->elem = elem;
    t->count = count;
    t->decl = d;
    return t;
}

static type *sc(int k) { return intern(k, NULL, 0, -1); }

static int is_int(int k) { return k >= K_I8 && k <= K_U64; }
static int is_signed(int k) { return k == K_I8 || k == K_I16 || k == K_I32 || k == K_I64; }

static uint32_t ksize(int k) {
    switch (k) {
    case K_BOOL: case K_I8: case K_U8: return 1;
    case K_I16: case K_U16: return 2;
    case K_I32: case K_U32: case K_F32: return 4;
    default: return 8;
    }
}

static uint32_t rup(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

static void layout(const type *t, uint32_t *size, uint32_t *align) {
    switch (t->k) {
    case K_ENUM: layout(t->elem, size, align); return;
    case K_STRING: case K_ARRAY: *size = 8; *align = 4; return;
    case K_PTR: case K_REF: *size = 4; *align = 4; return;
    case K_UNION: *size = 8; *align = 4; return;
    case K_FIXED: layout(t->elem, size, align); *size *= (uint32_t)t->count; return;
    case K_STRUCT:
        if (!decls[t->decl].laid) die("layout of an unfinished struct");
        *size = decls[t->decl].size;
        *align = decls[t->decl].align;
        return;
    default: *size = *align = ksize(t->k); return;
    }
}

/* Inline size when computable now (every struct inside already laid). */
static int inline_size(const type *t, uint32_t *size) {
    const type *u = t;
    while (u->k == K_FIXED) u = u->elem;
    if (u->k == K_STRUCT && !decls[u->decl].laid) return 0;
    uint32_t a;
    layout(t, size, &a);
    return 1;
}

static void lay_struct(decl *d) {
    uint32_t off = 0, al = 1;
    for (int i = 0; i < d->nf; i++) {
        uint32_t s, a;
        layout(d->f[i].t, &s, &a);
        off = rup(off, a) + s;
        if (a > al) al = a;
    }
    if ((uint32_t)d->align_attr > al) al = (uint32_t)d->align_attr;
    d->align = al;
    d->size = rup(off, al);
    d->laid = 1;
}

/* ---- names ---- */

static const char *const field_words[] = {
    "pos", "vel", "hp", "name", "tags", "meta", "items", "kind", "flags", "count",
    "score", "color", "speed", "scale", "angle", "mass", "size", "label", "note", "data",
    "next", "child", "left", "right", "parent", "weight", "id", "index", "level", "seed",
    "mode", "phase", "time", "rate", "uv", "normal", "origin", "target", "owner", "slot",
    "value", "key", "path", "icon", "sound", "depth", "width", "height", "range", "layer"};
static const char *const struct_words[] = {"Room", "Vec", "Node", "Item", "Meta", "Cell",
                                           "Actor", "Wave", "Tile", "Mesh", "Prop", "Zone",
                                           "Link", "Quad", "Rig", "Trail"};
static const char *const enum_words[] = {"Kind", "Mode", "State", "Flag",
                                         "Team", "Layer", "Phase", "Shape"};
static const char *const union_words[] = {"Any", "Variant", "Choice", "Either", "Form", "Part"};
static const char *const member_words[] = {
    "none", "idle", "walk", "run", "jump", "fall", "red", "green", "blue", "north",
    "south", "east", "west", "low", "mid", "high", "open", "shut", "solid", "liquid",
    "gas", "omega", "Big", "Small", "ON_FIRE", "frozen2"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int decl_name_used(const char *n) {
    for (int i = 0; i < ndecls; i++)
        if (decls[i].name != n && strcmp(decls[i].name, n) == 0) return 1;
    return 0;
}

/* Type names end in the seed, so that the headers `blobc gen c` makes for
 * many seeds can be included in one program. */
static void pick_type_name(char *out, const char *const *words, size_t nw) {
    for (;;) {
        const char *w = words[below((uint32_t)nw)];
        if (pct(50)) sfmt(out, 24, "%s_%llu", w, cur_seed);
        else sfmt(out, 24, "%s%u_%llu", w, below(10), cur_seed);
        if (!decl_name_used(out)) return;
    }
}

/* ---- random schema ---- */

static type *struct_type(int i) { return decls[nenums + i].t; }
static type *union_type(int i) { return decls[nenums + nstructs + i].t; }

/* A union for struct `cur`: inline (a field, [U; N]) only one whose
 * members all come before cur, so a value always ends (a required union
 * holds a member); out of line ([U], *U: may be empty or null) any. */
static type *runion(int cur, int inl) {
    int cands[MAXD], nc = 0;
    for (int u = 0; u < nunions; u++) {
        const decl *d = &decls[nenums + nstructs + u];
        int ok = 1;
        for (int m = 0; m < d->nm && inl; m++) ok &= d->mem[m] < cur;
        if (ok) cands[nc++] = u;
    }
    return nc ? union_type(cands[below((uint32_t)nc)]) : NULL;
}

static type *rtype(int cur, int inl, int depth);

static int nkeyed; /* structs with a @key */

/* &K for a random keyed struct K (any: references may point forward). */
static type *rref(void) {
    int n = (int)below((uint32_t)nkeyed);
    for (int i = 0; i < nstructs; i++)
        if (decls[nenums + i].keyed && n-- == 0) return intern(K_REF, struct_type(i), 0, -1);
    die("no keyed struct");
    return NULL;
}

static type *rfixed(int cur, int inl, int depth) {
    type *e = rtype(cur, inl, depth + 1);
    int n = 1 + (int)below(4);
    uint32_t s;
    if (inline_size(e, &s)) {
        if (s * (uint32_t)n > 96) n = 1;
        if (s > 96) return sc(K_U16);
    } else if (n > 2) {
        n = 2;
    }
    return intern(K_FIXED, e, n, -1);
}

/* A random field or element type for struct `cur`. Inline positions (inl)
 * may only hold structs created before cur, so no struct contains itself
 * inline; out of line anything goes, which gives recursive types. */
static type *rtype(int cur, int inl, int depth) {
    if (nkeyed && pct(9)) return rref();
    if (nunions && pct(12)) {
        type *u = runion(cur, inl);
        if (u) return pct(75) ? u : intern(K_PTR, u, 0, -1);
    }
    int r = (int)below(100);
    if (depth >= 3) r = (int)below(56);
    if (r < 38) return sc(K_BOOL + (int)below(11));
    if (r < 46) return nenums ? decls[below((uint32_t)nenums)].t : sc(K_I32);
    if (r < 56) return sc(K_STRING);
    if (r < 64) {
        if (!inl) return struct_type((int)below((uint32_t)nstructs));
        int cands[MAXD], nc = 0;
        for (int j = 0; j < cur; j++)
            if (decls[nenums + j].size <= 48) cands[nc++] = j;
        if (!nc) return sc(K_F32);
        return struct_type(cands[below((uint32_t)nc)]);
    }
    if (r < 72) return rfixed(cur, inl, depth);
    if (r < 82) return intern(K_ARRAY, rtype(cur, 0, depth + 1), 0, -1);
    if (r < 88) return intern(K_PTR, struct_type((int)below((uint32_t)nstructs)), 0, -1);
    if (r < 91) {
        /* not **T: YAML null could not tell a null outer pointer from a
         * non-null one to a null inner pointer (nor *&T, whose key may be
         * the string "null") */
        type *e;
        do e = rtype(cur, 0, depth + 1);
        while (e->k == K_PTR || e->k == K_REF);
        return intern(K_PTR, e, 0, -1);
    }
    switch (below(6)) {
    case 0: return intern(K_ARRAY, intern(K_ARRAY, sc(K_BOOL + (int)below(11)), 0, -1), 0, -1);
    case 1:
        return intern(K_ARRAY, intern(K_PTR, struct_type((int)below((uint32_t)nstructs)), 0, -1),
                      0, -1);
    case 2: return intern(K_ARRAY, intern(K_FIXED, sc(K_F32), 3, -1), 0, -1);
    case 3:
        if (nunions && pct(50)) return intern(K_ARRAY, runion(cur, 0), 0, -1);
        return intern(K_ARRAY, sc(K_STRING), 0, -1);
    case 4: return intern(K_ARRAY, intern(K_ARRAY, sc(K_STRING), 0, -1), 0, -1);
    default: return intern(K_FIXED, sc(K_STRING), 2, -1);
    }
}

static int field_name_used(const decl *d, const char *n) {
    for (int i = 0; i < d->nf; i++)
        if (strcmp(d->f[i].name, n) == 0) return 1;
    return 0;
}

static void add_field(decl *d, type *t) {
    if (d->nf == MAXF) return;
    field *f = &d->f[d->nf];
    for (;;) {
        const char *w = field_words[below(NELEM(field_words))];
        if (pct(60)) sfmt(f->name, sizeof f->name, "%s", w);
        else sfmt(f->name, sizeof f->name, "%s%u", w, below(10));
        if (!field_name_used(d, f->name)) break;
    }
    f->t = t;
    f->def = NULL;
    d->nf++;
}

static uint64_t kmax(int k) {
    unsigned w = 8 * ksize(k);
    if (is_signed(k)) return (UINT64_MAX >> (65 - w));
    return w == 64 ? UINT64_MAX : ((UINT64_C(1) << w) - 1);
}

static uint64_t kmin(int k) { return is_signed(k) ? ~kmax(k) : 0; }

static uint64_t gen_int(int k) {
    int r = (int)below(100);
    if (r < 30) {
        uint64_t lim[] = {0, 1, kmax(k), kmax(k) - 1, kmin(k), kmin(k) + 1, UINT64_MAX};
        int n = is_signed(k) ? 7 : 4;
        return lim[below((uint32_t)n)];
    }
    if (r < 65) {
        if (is_signed(k)) return (uint64_t)((int64_t)below(201) - 100);
        return below(k == K_U8 ? 256 : 201);
    }
    unsigned w = 8 * ksize(k);
    unsigned bw = 1 + below(w);
    if (is_signed(k)) {
        uint64_t x = bw > 1 ? rnd() >> (65 - bw) : 0;
        return pct(50) ? (uint64_t)0 - x : x;
    }
    return rnd() >> (64 - bw);
}

static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static uint64_t f64_bits(double f) {
    uint64_t b;
    memcpy(&b, &f, 8);
    return b;
}
static float bits_f32(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static double bits_f64(uint64_t b) {
    double f;
    memcpy(&f, &b, 8);
    return f;
}

#define F32_NAN 0x7fc00000u
#define F64_NAN 0x7ff8000000000000ull

static uint64_t gen_f32(int finite) {
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                                       0x7f7fffffu, 0xff7fffffu, 0x00800000u, 0x00000001u,
                                       0x007fffffu, 0x80000001u, 0x3dcccccdu, 0x4b800000u,
                                       0x7f800000u, 0xff800000u, F32_NAN};
    int r = (int)below(100);
    if (r < 35) return special[below(finite ? 12 : 15)];
    if (r < 65) {
        /* (separate statements: the order of random draws must not depend
         * on the compiler) */
        float num = (float)((int)below(2001) - 1000);
        return f32_bits(num / (float)(1u << below(6)));
    }
    uint32_t b;
    do b = (uint32_t)rnd();
    while ((b & 0x7f800000u) == 0x7f800000u);
    return b;
}

static uint64_t gen_f64(int finite) {
    static const uint64_t special[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
        0xbff0000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
        0x0010000000000000ull, 0x0000000000000001ull, 0x000fffffffffffffull,
        0x8000000000000001ull, 0x3fb999999999999aull, 0x4340000000000000ull,
        0x7ff0000000000000ull, 0xfff0000000000000ull, F64_NAN};
    int r = (int)below(100);
    if (r < 35) return special[below(finite ? 12 : 15)];
    if (r < 65) {
        double num = (double)((int)below(20001) - 10000);
        return f64_bits(num / (double)(1u << below(10)));
    }
    uint64_t b;
    do b = rnd();
    while ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull);
    return b;
}

static const char *const str_pieces[] = {
    "a", "b", "Z", "hello", "world", " ", "  ", "42", "0", "x_y", "-", ".", ",", ":", "#",
    "'", "\"", "\\", "\n", "\t", "\r", "{", "}", "[", "]", "&", "*", "!", "%", "@", "`", "|",
    ">", "?", "~", "é", "ß", "Ω", "日本", "語", "😀", "🎮", "\xe2\x80\xa8", "\xc2\x85",
    "\x01", "\x7f", "\xef\xbb\xbf", "null", "true", "yes", "0x1F", ".inf", "-"};

static val *newval(type *t) {
    val *v = xmalloc(sizeof *v);
    v->t = t;
    v->share = -1;
    v->refs = 1;
    v->xsize = 1;
    return v;
}

static void gen_string_bytes(val *v, int simple) {
    buf b = {0};
    if (!simple && pct(6)) {
        static const char *const whole[] = {"null", "~", "true", "false", "123", "1.50", "-7",
                                            "0", "1e5", "NULL", "yes"};
        bput(&b, whole[below(NELEM(whole))]);
        v->s = own(b.p);
        v->slen = b.n;
        return;
    }
    int r = (int)below(100);
    int n = r < 15 ? 0 : r < 90 ? 1 + (int)below(5) : 10 + (int)below(40);
    for (int i = 0; i < n; i++) {
        if (simple) {
            static const char *const sp[] = {"a", "b", "Z", "hello", " ", "42", "é", "日本", "_"};
            bput(&b, sp[below(NELEM(sp))]);
        } else if (pct(50)) {
            bput(&b, str_pieces[below(6)]);
        } else {
            bput(&b, str_pieces[below(NELEM(str_pieces))]);
        }
    }
    if (!b.p) bput(&b, "");
    v->s = own(b.p);
    v->slen = b.n;
}

/* An f32 literal just above the midpoint of two neighbouring floats: read
 * correctly it rounds up; read through double first it lands exactly on
 * the midpoint and ties to even, which is wrong about half of the time. */
static void gen_f32_midpoint(val *v) {
    uint32_t fb = (uint32_t)(107 + below(40)) << 23;
    fb |= (uint32_t)(rnd() & 0x7fffff);
    float f = bits_f32(fb), g = nextafterf(f, INFINITY);
    double m = ((double)f + (double)g) / 2;
    char t[160], e[16];
    sfmt(t, sizeof t - 24, "%s%.60e", pct(50) ? "-" : "", m); /* exact */
    char *x = strchr(t, 'e');
    sfmt(e, sizeof e, "%s", x);
    while (x[-1] == '0') x--;
    sfmt(x, 32, "000000001%s", e);
    v->ftext = own(strdup(t));
    v->bits = f32_bits(strtof(t, NULL));
}

static val *gen_scalar(type *t, int for_default) {
    val *v = newval(t);
    int k = t->k == K_ENUM ? K_ENUM : t->k;
    if (k == K_BOOL) v->bits = below(2);
    else if (is_int(k)) v->bits = gen_int(k);
    else if (k == K_F32 && pct(8)) gen_f32_midpoint(v);
    else if (k == K_F32) v->bits = gen_f32(0);
    else if (k == K_F64) v->bits = gen_f64(0);
    else if (k == K_ENUM) {
        decl *d = &decls[t->decl];
        v->bits = d->vv[below((uint32_t)d->nv)];
    } else if (k == K_STRING) {
        gen_string_bytes(v, for_default && pct(50));
    }
    return v;
}

static void make_enum(decl *d) {
    static const int bases[] = {K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};
    int bk = bases[below(8)];
    d->is_enum = 1;
    d->base = sc(bk);
    d->nv = 1 + (int)below(6);
    pick_type_name(d->name, enum_words, NELEM(enum_words));
    uint64_t next = 0;
    int next_ok = 1;
    for (int i = 0; i < d->nv; i++) {
        for (;;) {
            sfmt(d->vn[i], sizeof d->vn[i], "%s", member_words[below(NELEM(member_words))]);
            int dup = 0;
            for (int j = 0; j < i; j++) dup |= strcmp(d->vn[j], d->vn[i]) == 0;
            if (!dup) break;
        }
        uint64_t v = next;
        int exp = !next_ok || pct(35);
        for (int tries = 0;; tries++) {
            int dup = 0;
            for (int j = 0; j < i; j++) dup |= d->vv[j] == v;
            if (!exp && !dup) break;
            if (exp && !dup && tries > 0) break;
            exp = 1;
            v = gen_int(bk);
        }
        d->vv[i] = v;
        d->vexp[i] = exp;
        next_ok = v != kmax(bk);
        next = v + 1;
    }
}

static val *copy_scalar(const val *d) {
    val *v = newval(d->t);
    v->bits = d->bits;
    v->ftext = d->ftext;
    v->s = d->s;
    v->slen = d->slen;
    return v;
}

static int is_key_kind(int k) { return is_int(k) || k == K_ENUM || k == K_STRING; }

/* Whether the first byte of a t is a reference to a `self`: one that led
 * to the item holding it would be offset 0, which is null. */
static int ref_at_zero(const type *t, const type *self) {
    if (t->k == K_REF) return t->elem == self;
    if (t->k == K_FIXED) return ref_at_zero(t->elem, self);
    if (t->k == K_STRUCT && decls[t->decl].nf) return ref_at_zero(decls[t->decl].f[0].t, self);
    return 0;
}

/* The @key of a keyed struct: a field that may be one, or a new one at a
 * random place; now and then a reference to its own type beside it
 * (self references and cycles). */
static void choose_key(decl *d, int i) {
    int cands[MAXF], nc = 0;
    for (int j = 0; j < d->nf; j++)
        if (is_key_kind(d->f[j].t->k)) cands[nc++] = j;
    if ((!nc || pct(35)) && d->nf < MAXF) {
        static const int ints[] = {K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};
        int r = (int)below(100);
        type *t = r < 35 ? sc(K_STRING) : r < 55 && nenums ? decls[below((uint32_t)nenums)].t
                                                         : sc(ints[below(8)]);
        add_field(d, t);
        int at = (int)below((uint32_t)d->nf);
        field x = d->f[at];
        d->f[at] = d->f[d->nf - 1];
        d->f[d->nf - 1] = x;
        cands[0] = at;
        nc = 1;
    }
    if (!nc) die("a keyed struct without a field for its key");
    d->key = cands[below((uint32_t)nc)];
    if (pct(40)) add_field(d, intern(K_REF, struct_type(i), 0, -1));
    if (ref_at_zero(d->f[0].t, d->t)) {
        field x = d->f[0];
        d->f[0] = d->f[d->key];
        d->f[d->key] = x;
        d->key = 0;
    }
}

static int field_of_type(const decl *d, const type *t) {
    for (int j = 0; j < d->nf; j++)
        if (d->f[j].t == t) return 1;
    return 0;
}

static void make_struct(int i, int is_root) {
    decl *d = &decls[nenums + i];
    int nf = is_root ? 4 + (int)below(6) : 1 + (int)below(7);
    for (int j = 0; j < nf; j++) add_field(d, rtype(i, 1, 0));
    if (d->keyed) choose_key(d, i);
    if (is_root) {
        /* and every union */
        for (int u = 0; u < nunions; u++) {
            if (!pct(70)) continue;
            const decl *ud = &decls[nenums + nstructs + u];
            int inl = pct(60);
            for (int m = 0; m < ud->nm; m++) inl &= ud->mem[m] < i;
            add_field(d, inl ? union_type(u) : intern(K_ARRAY, union_type(u), 0, -1));
        }
        /* Let the root reach every other struct. */
        for (int j = 0; j < i; j++) {
            if (!pct(70)) continue;
            type *st = struct_type(j);
            switch (below(4)) {
            case 0: add_field(d, decls[nenums + j].size <= 64 ? st : intern(K_PTR, st, 0, -1)); break;
            case 1: add_field(d, intern(K_ARRAY, st, 0, -1)); break;
            case 2: add_field(d, intern(K_PTR, st, 0, -1)); break;
            default: add_field(d, intern(K_ARRAY, intern(K_PTR, st, 0, -1), 0, -1)); break;
            }
        }
        /* a keyed array of every keyed struct, for references to name */
        for (int j = 0; j < i; j++) {
            type *at = intern(K_ARRAY, struct_type(j), 0, -1);
            if (decls[nenums + j].keyed && !field_of_type(d, at)) add_field(d, at);
        }
    }
    if (pct(30)) {
        lay_struct(d);
        uint32_t nat = d->align;
        uint32_t a = nat << below(3); /* @align may only raise */
        if (a > 16) a = 16;
        d->align_attr = (int)a;
        d->laid = 0;
    }
    for (int j = 0; j < d->nf; j++) {
        field *f = &d->f[j];
        int k = f->t->k;
        if ((k <= K_F64 || k == K_ENUM || k == K_STRING) && pct(30))
            f->def = gen_scalar(f->t, 1);
        if ((k == K_UNION || k == K_REF) && pct(40)) f->nullable = 1;
    }
    lay_struct(d);
}

/* ---- random values ---- */

#define MAXDEPTH 4
/* nodes with every alias expanded: the checker and the reader walk each
 * alias again, and their compilation is the slow part of random.sh */
#define XCAP 2000

static int budget;
static int xcount;
static val **pool[MAXT];
static int npool[MAXT], cappool[MAXT];

/* Whether values of t may hold a keyed array. Such a value is never an
 * alias, nor is an item of a keyed array: JSON writes an alias out again,
 * which would put its keys in the key space twice. */
static int type_reach(const type *t) {
    switch (t->k) {
    case K_ARRAY:
        return (t->elem->k == K_STRUCT && decls[t->elem->decl].keyed) || type_reach(t->elem);
    case K_FIXED: case K_PTR: return type_reach(t->elem);
    case K_STRUCT: return decls[t->decl].reach;
    case K_UNION: {
        const decl *u = &decls[t->decl];
        for (int m = 0; m < u->nm; m++)
            if (decls[nenums + u->mem[m]].reach) return 1;
        return 0;
    }
    default: return 0;
    }
}

static void find_reach(void) {
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nstructs; i++) {
            decl *d = &decls[nenums + i];
            for (int f = 0; f < d->nf && !d->reach; f++)
                if (type_reach(d->f[f].t)) d->reach = changed = 1;
        }
    }
}

static int nopool(const type *t) {
    return type_reach(t) || (t->k == K_STRUCT && decls[t->decl].keyed);
}

static void pool_add(type *t, val *v) {
    if (!sharing || nopool(t)) return;
    int id = t->id;
    if (npool[id] == cappool[id]) {
        cappool[id] = cappool[id] ? cappool[id] * 2 : 8;
        pool[id] = realloc(pool[id], (size_t)cappool[id] * sizeof *pool[id]);
        if (!pool[id]) die("out of memory");
    }
    pool[id][npool[id]++] = v;
}

static val *pool_take(type *t, int percent) {
    int id = t->id;
    if (!sharing || !npool[id] || nopool(t) || !pct(percent)) return NULL;
    val *v = pool[id][below((uint32_t)npool[id])];
    if (xcount + v->xsize > XCAP) return NULL;
    xcount += v->xsize;
    v->refs++;
    return v;
}

static int same_scalar(const val *a, const val *b) {
    if (a->t->k == K_STRING) return a->slen == b->slen && memcmp(a->s, b->s, a->slen) == 0;
    return a->bits == b->bits;
}

static val *gen(type *t, int depth, int pooled);

static val *gen_struct(type *t, int depth) {
    decl *d = &decls[t->decl];
    val *v = newval(t);
    v->n = d->nf;
    v->it = xmalloc((size_t)d->nf * sizeof *v->it);
    v->order = xmalloc((size_t)d->nf * sizeof *v->order);
    v->omit = xmalloc((size_t)d->nf);
    for (int i = 0; i < d->nf; i++) {
        field *f = &d->f[i];
        if (f->def && pct(40)) v->it[i] = copy_scalar(f->def);
        else if (f->nullable && (depth >= MAXDEPTH || budget <= 0 || pct(25)))
            v->it[i] = newval(f->t); /* a union holding none */
        else v->it[i] = gen(f->t, depth, 1);
        v->xsize += v->it[i]->xsize;
        v->order[i] = i;
        val *fv = v->it[i];
        int k = f->t->k;
        int may_omit = (f->def && same_scalar(f->def, fv)) || (k == K_ARRAY && fv->n == 0) ||
                       (k == K_PTR && fv->n == 0) || (k == K_UNION && fv->n == 0) ||
                       (k == K_REF && !fv->pending);
        v->omit[i] = may_omit && pct(60);
    }
    if (pct(35)) {
        for (int i = d->nf - 1; i > 0; i--) {
            int j = (int)below((uint32_t)i + 1);
            int x = v->order[i];
            v->order[i] = v->order[j];
            v->order[j] = x;
        }
    } else if (d->nf > 1 && pct(30)) {
        int i = (int)below((uint32_t)d->nf - 1);
        int x = v->order[i];
        v->order[i] = v->order[i + 1];
        v->order[i + 1] = x;
    }
    return v;
}

static val *gen_inline(type *t, int depth);

/* ---- keyed arrays and references ---- */

typedef struct vlist {
    val **v;
    int n, cap;
} vlist;

static vlist krefs;         /* references to give a target */
static vlist karrs;         /* keyed arrays */
static vlist kitems[MAXD];  /* the items of each keyed struct's arrays */

static void vpush(vlist *l, val *v) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        if (!l->v) die("out of memory");
    }
    l->v[l->n++] = v;
}

static void vfree(vlist *l) {
    free(l->v);
    memset(l, 0, sizeof *l);
}

static val *key_of(const val *item) { return item->it[decls[item->t->decl].key]; }

/* The order of keyed arrays (docs/FORMAT.md): integers and enums by value,
 * strings by their bytes, a prefix first. */
static int key_cmp(const val *a, const val *b) {
    int k = a->t->k == K_ENUM ? a->t->elem->k : a->t->k;
    if (k == K_STRING) {
        int c = memcmp(a->s, b->s, a->slen < b->slen ? a->slen : b->slen);
        return c ? c : (a->slen > b->slen) - (a->slen < b->slen);
    }
    if (is_signed(k)) return ((int64_t)a->bits > (int64_t)b->bits) - ((int64_t)a->bits < (int64_t)b->bits);
    return (a->bits > b->bits) - (a->bits < b->bits);
}

static int key_taken(int d, const val *key) {
    for (int i = 0; i < kitems[d].n; i++)
        if (key_cmp(key_of(kitems[d].v[i]), key) == 0) return 1;
    return 0;
}

static void set_key(val *item, val *k) {
    const decl *d = &decls[item->t->decl];
    const field *f = &d->f[d->key];
    item->it[d->key]->refs--;
    item->it[d->key] = k;
    if (!f->def || !same_scalar(f->def, k)) item->omit[d->key] = 0;
}

/* A new key for an item whose key another item has; 0 when none was found
 * (an enum may have fewer members than there are items). */
static int rekey(val *item) {
    const decl *d = &decls[item->t->decl];
    for (int tries = 0; tries < 8; tries++) {
        val *k = gen_scalar(d->f[d->key].t, 0);
        if (key_taken(item->t->decl, k)) continue;
        set_key(item, k);
        return 1;
    }
    return 0;
}

/* Now and then a string key JSON may write bare (a number, true, false). */
static void bare_key(val *item) {
    static const char *const bare[] = {"0", "7", "42", "-3", "1.5", "1e5", "true", "false", "0.25"};
    const decl *d = &decls[item->t->decl];
    if (d->f[d->key].t->k != K_STRING || !pct(20)) return;
    val *k = newval(d->f[d->key].t);
    k->s = (char *)bare[below(NELEM(bare))];
    k->slen = strlen(k->s);
    if (!key_taken(item->t->decl, k)) set_key(item, k);
}

static void collect_keys(val *v);

/* The items of a keyed array join their type's key space; an item whose
 * key is taken gets another, or is left out. */
static void keyed_array(val *v) {
    int d = v->t->elem->decl, n = 0;
    vpush(&karrs, v);
    v->karr = karrs.n;
    for (int i = 0; i < v->n; i++) {
        val *item = v->it[i];
        bare_key(item);
        if (key_taken(d, key_of(item)) && !rekey(item)) continue;
        vpush(&kitems[d], item);
        v->it[n++] = item;
    }
    v->n = n;
}

static void collect_keys(val *v) {
    const type *t = v->t;
    if (t->k == K_STRING || t->k == K_REF || v->karr) return;
    if (t->k == K_ARRAY && t->elem->k == K_STRUCT && decls[t->elem->decl].keyed) keyed_array(v);
    for (int i = 0; i < v->n; i++) collect_keys(v->it[i]);
}

/* A struct type that has references to it but no item gets one, in the
 * root's keyed array of it. */
static int add_missing_item(val *root_v) {
    for (int i = 0; i < krefs.n; i++) {
        int d = krefs.v[i]->t->elem->decl;
        if (kitems[d].n) continue;
        const decl *rd = &decls[root_v->t->decl];
        for (int f = 0; f < rd->nf; f++) {
            const type *ft = rd->f[f].t;
            if (ft->k != K_ARRAY || ft->elem != decls[d].t) continue;
            val *a = root_v->it[f];
            val **it = xmalloc((size_t)(a->n + 1) * sizeof *it);
            if (a->n) memcpy(it, a->it, (size_t)a->n * sizeof *it);
            val *item = gen(decls[d].t, 1, 0);
            it[a->n++] = item;
            a->it = it;
            root_v->omit[f] = 0;
            vpush(&kitems[d], item);
            collect_keys(item);
            return 1;
        }
        die("no keyed array in the root for a reference");
    }
    return 0;
}

static void sort_keyed(val *a) {
    for (int i = 1; i < a->n; i++)
        for (int j = i; j > 0 && key_cmp(key_of(a->it[j - 1]), key_of(a->it[j])) > 0; j--) {
            val *x = a->it[j];
            a->it[j] = a->it[j - 1];
            a->it[j - 1] = x;
        }
    a->tord = xmalloc((size_t)(a->n ? a->n : 1) * sizeof *a->tord);
    int r = (int)below(100);
    for (int i = 0; i < a->n; i++) {
        a->it[i]->karr = a->karr;
        a->it[i]->kidx = i;
        a->tord[i] = r < 20 ? a->n - 1 - i : i;
    }
    if (r >= 40)
        for (int i = a->n - 1; i > 0; i--) {
            int j = (int)below((uint32_t)i + 1), x = a->tord[i];
            a->tord[i] = a->tord[j];
            a->tord[j] = x;
        }
}

/* After the values are made: unique keys, every reference a target (any
 * item of its type: forward, backward, itself), keyed arrays sorted (the
 * text keeps another order). */
static void settle_keys(val *root_v) {
    collect_keys(root_v);
    for (int round = 0; round <= MAXD && add_missing_item(root_v); round++) {}
    for (int i = 0; i < krefs.n; i++) {
        val *r = krefs.v[i];
        const vlist *l = &kitems[r->t->elem->decl];
        if (!l->n) die("a reference without a target");
        r->target = l->v[below((uint32_t)l->n)];
    }
    for (int i = 0; i < karrs.n; i++) sort_keyed(karrs.v[i]);
}

/* pooled: the value may be an alias of an earlier one of the same type. A
 * string, [T] or *T target reached again is a shared payload; any other
 * value reached again is a YAML alias that bakes as a copy (a replay). The
 * direct target of a pointer is pooled under the pointer type, so that one
 * YAML node never serves as both a field's payload and a pointer's target
 * (different types: the second use would be a replay). */
static val *gen(type *t, int depth, int pooled) {
    xcount++;
    if (t->k == K_PTR || t->k == K_UNION || t->k == K_REF || !pooled) return gen_inline(t, depth);
    int k = t->k;
    val *v = pool_take(t, k == K_STRING || k == K_ARRAY ? 35 : k == K_STRUCT || k == K_FIXED ? 15 : 5);
    if (v) return v;
    v = gen_inline(t, depth);
    pool_add(t, v);
    return v;
}

static val *gen_inline(type *t, int depth) {
    switch (t->k) {
    case K_STRUCT: return gen_struct(t, depth);
    case K_STRING: {
        return gen_scalar(t, 0);
    }
    case K_FIXED: {
        val *v = newval(t);
        v->n = t->count;
        v->it = xmalloc((size_t)v->n * sizeof *v->it);
        for (int i = 0; i < v->n; i++) {
            v->it[i] = gen(t->elem, depth, 1);
            v->xsize += v->it[i]->xsize;
        }
        return v;
    }
    case K_ARRAY: {
        val *v = newval(t);
        int k = t->elem->k;
        int n;
        if (depth >= MAXDEPTH || budget <= 0 || pct(15)) n = 0;
        else if (k <= K_F64 || k == K_ENUM) n = 1 + (int)below(pct(20) ? 24 : 6);
        else n = 1 + (int)below(depth >= 2 ? 2 : 4);
        budget -= n;
        v->n = n;
        v->it = xmalloc((size_t)(n ? n : 1) * sizeof *v->it);
        for (int i = 0; i < n; i++) {
            v->it[i] = gen(t->elem, depth + 1, 1);
            v->xsize += v->it[i]->xsize;
        }
        return v;
    }
    case K_PTR: {
        val *v = newval(t);
        v->it = xmalloc(sizeof *v->it);
        if (depth >= MAXDEPTH || budget <= 0 || pct(25)) return v;
        budget--;
        val *target = pool_take(t, 35);
        if (!target) {
            target = gen(t->elem, depth + 1, 0);
            pool_add(t, target);
        }
        v->n = 1;
        v->it[0] = target;
        v->xsize += target->xsize;
        return v;
    }
    case K_REF: {
        val *v = newval(t);
        v->pending = 1;
        vpush(&krefs, v);
        return v;
    }
    case K_UNION: {
        /* always a member here (gen_struct makes a nullable field none);
         * its struct is a *Member target, pooled as such, so a union and
         * a *Member may share it */
        const decl *d = &decls[t->decl];
        int m = (int)below((uint32_t)d->nm);
        type *pt = intern(K_PTR, struct_type(d->mem[m]), 0, -1);
        val *v = newval(t);
        v->it = xmalloc(sizeof *v->it);
        v->n = 1;
        v->tag = m + 1;
        val *target = pool_take(pt, 35);
        if (!target) {
            target = gen(pt->elem, depth + 1, 0);
            pool_add(pt, target);
        }
        v->it[0] = target;
        v->xsize += target->xsize;
        return v;
    }
    default: return gen_scalar(t, 0);
    }
}

/* Share ids for payloads reached more than once: a pointer's target, the
 * bytes of a string, the items of an array. */
static void assign_shares(val *v);

static void visit_payload(val *p) {
    if (p->refs > 1) {
        if (p->share >= 0) return;
        p->share = nshares++;
    }
    if (p->t->k == K_STRING) return;
    for (int i = 0; i < p->n; i++) assign_shares(p->it[i]);
}

static void assign_shares(val *v) {
    if (v->t->k == K_PTR || v->t->k == K_UNION) {
        if (v->n) visit_payload(v->it[0]);
        return;
    }
    if (v->t->k == K_STRING || v->t->k == K_ARRAY) {
        visit_payload(v);
        return;
    }
    for (int i = 0; i < v->n; i++) assign_shares(v->it[i]);
}

/* ---- the case ---- */

static val *root;
static type *root_type;

static void reset(void) {
    free_owned();
    for (int i = 0; i < MAXT; i++) {
        free(pool[i]);
        pool[i] = NULL;
        npool[i] = cappool[i] = 0;
    }
    memset(types, 0, sizeof types);
    memset(decls, 0, sizeof decls);
    vfree(&krefs);
    vfree(&karrs);
    for (int i = 0; i < MAXD; i++) vfree(&kitems[i]);
    ntypes = ndecls = nenums = nstructs = nunions = nshares = nkeyed = 0;
    root_decl_moved = -1;
}

static uint64_t mix(unsigned long long seed, uint64_t salt) {
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ salt;
    uint64_t *save = rng;
    rng = &s;
    uint64_t r = rnd();
    rng = save;
    return r;
}

static uint64_t case_rng;

static void make_case(unsigned long long seed) {
    reset();
    cur_seed = seed;
    case_rng = mix(seed, 0x5eed);
    rng = &case_rng;
    for (int i = 0; i < 12; i++) rnd(); /* warm-up after small seeds */
    sharing = pct(45);
    has_root_decl = pct(70);
    nenums = (int)below(4);
    nstructs = 2 + (int)below(5);
    ndecls = 0;
    for (int i = 0; i < nenums; i++) {
        decl *d = &decls[ndecls];
        d->t = intern(K_ENUM, NULL, 0, ndecls);
        ndecls++;
        make_enum(d);
        d->t->elem = d->base;
    }
    for (int i = 0; i < nstructs; i++) {
        decl *d = &decls[ndecls];
        d->t = intern(K_STRUCT, NULL, 0, ndecls);
        pick_type_name(d->name, struct_words, NELEM(struct_words));
        ndecls++;
    }
    for (int i = 0; i + 1 < nstructs; i++) nkeyed += decls[nenums + i].keyed = pct(45);
    nunions = pct(60) ? 1 + (int)below(2) : 0;
    for (int i = 0; i < nunions; i++) {
        decl *d = &decls[ndecls];
        d->is_union = 1;
        d->t = intern(K_UNION, NULL, 0, ndecls);
        pick_type_name(d->name, union_words, NELEM(union_words));
        int want = 1 + (int)below(3);
        for (int tries = 0; tries < 8 && d->nm < want; tries++) {
            int m = (int)below((uint32_t)nstructs), dup = 0;
            for (int j = 0; j < d->nm; j++) dup |= d->mem[j] == m;
            if (!dup) d->mem[d->nm++] = m;
        }
        ndecls++;
    }
    for (int i = 0; i < nstructs; i++) make_struct(i, i == nstructs - 1);
    find_reach();
    root_type = struct_type(nstructs - 1);
    budget = 60 + (int)below(100);
    xcount = 0;
    root = gen(root_type, 0, 1);
    settle_keys(root);
    assign_shares(root);
}

/* ---- schema text ---- */

static void fmt_int(buf *b, int k, uint64_t v) {
    if (is_signed(k)) bprintf(b, "%lld", (long long)(int64_t)v);
    else bprintf(b, "%llu", (unsigned long long)v);
}

static void spell(buf *b, const type *t) {
    switch (t->k) {
    case K_ENUM: case K_STRUCT: case K_UNION: bput(b, decls[t->decl].name); break;
    case K_STRING: bput(b, "string"); break;
    case K_ARRAY: bput(b, "["); spell(b, t->elem); bput(b, "]"); break;
    case K_FIXED: bput(b, "["); spell(b, t->elem); bprintf(b, "; %d]", t->count); break;
    case K_PTR: bput(b, "*"); spell(b, t->elem); break;
    case K_REF: bput(b, "&"); spell(b, t->elem); break;
    default: bput(b, kname[t->k]); break;
    }
}

/* Shortest decimal that reads back to the same float (as f32 when f32). */
static void fmt_float(char *out, size_t cap, int k, uint64_t bits, int exact) {
    double d = k == K_F32 ? (double)bits_f32((uint32_t)bits) : bits_f64(bits);
    if (exact) {
        sfmt(out, cap, "%.17g", d);
        return;
    }
    for (int p = 1; p <= 17; p++) {
        sfmt(out, cap, "%.*g", p, d);
        double back = strtod(out, NULL);
        if (k == K_F32) {
            if (f32_bits((float)back) == (uint32_t)bits && f32_bits(strtof(out, NULL)) == (uint32_t)bits)
                return;
        } else if (f64_bits(back) == bits) {
            return;
        }
    }
    sfmt(out, cap, "%.17g", d);
}

static int is_nan_bits(int k, uint64_t b) {
    return k == K_F32 ? (b & 0x7fffffffu) > 0x7f800000u
                      : (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static int is_inf_bits(int k, uint64_t b) {
    return k == K_F32 ? (b & 0x7fffffffu) == 0x7f800000u
                      : (b & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}
static int is_neg_bits(int k, uint64_t b) { return (int)(k == K_F32 ? (b >> 31) & 1 : b >> 63); }

/* A float as YAML (and schema) text. */
static void yaml_float(buf *b, int k, uint64_t bits) {
    if (is_nan_bits(k, bits)) {
        static const char *const n[] = {".nan", ".NaN", ".NAN"};
        bput(b, n[below(10) < 7 ? 0 : 1 + below(2)]);
        return;
    }
    if (is_inf_bits(k, bits)) {
        static const char *const n[] = {".inf", ".Inf", ".INF"};
        if (is_neg_bits(k, bits)) bput(b, "-");
        else if (pct(15)) bput(b, "+");
        bput(b, n[below(10) < 7 ? 0 : 1 + below(2)]);
        return;
    }
    char t[64];
    fmt_float(t, sizeof t, k, bits, pct(30));
    if (pct(15) && !strchr(t, 'e') && !strchr(t, 'n')) {
        /* digits grouped with '_' in the integer part */
        const char *s = t;
        if (*s == '-') bput_n(b, s++, 1);
        size_t nd = strspn(s, "0123456789");
        for (size_t i = 0; i < nd; i++) {
            bput_n(b, s + i, 1);
            if (i + 1 < nd && (nd - 1 - i) % 3 == 0) bput(b, "_");
        }
        bput(b, s + nd);
        return;
    }
    if (!strchr(t, 'e') && !strchr(t, '.') && pct(15)) {
        bprintf(b, pct(50) ? "%s.0" : "%s.", t); /* "5.0", "5." */
        return;
    }
    char *e = strchr(t, 'e');
    if (e && pct(15)) *e = 'E';
    if (t[0] != '-' && pct(5)) bput(b, "+");
    const char *z = t[0] == '-' ? t + 1 : t;
    if (z[0] == '0' && z[1] == '.' && pct(20)) {
        if (t[0] == '-') bput(b, "-");
        bput(b, z + 1); /* ".5" */
        return;
    }
    bput(b, t);
}

static int utf8_next(const char *s, size_t n, size_t i, uint32_t *cp);
static void yaml_int(buf *b, int k, uint64_t v);

/* Which quoted-string syntax: the schema's, YAML's double quotes, JSON's. */
enum { Q_SCHEMA, Q_YAML, Q_JSON };

static int yaml_printable(uint32_t cp);

/* A double-quoted string literal, with a random choice among the escapes
 * each syntax allows for the same character. */
static void quoted(buf *b, const char *s, size_t n, int q) {
    bput(b, "\"");
    for (size_t i = 0; i < n;) {
        uint32_t c;
        int l = utf8_next(s, n, i, &c);
        i += (size_t)l;
        if (c == '"') bput(b, "\\\"");
        else if (c == '\\') bput(b, "\\\\");
        else if (c == '\n') bput(b, "\\n");
        else if (c == '\t') bput(b, q == Q_JSON || pct(50) ? "\\t" : "\t");
        else if (c == '\r') bput(b, "\\r");
        else if (q == Q_JSON && c == '/' && pct(50)) bput(b, "\\/");
        else if (q == Q_SCHEMA && (c < 0x20 || c == 0x7f)) bprintf(b, "\\u%04x", c);
        else if (q == Q_JSON && c < 0x20) bprintf(b, "\\u%04x", c);
        else if (q == Q_YAML && !yaml_printable(c)) {
            if (c < 0x100 && pct(50)) bprintf(b, "\\x%02x", c);
            else if (c < 0x10000) bprintf(b, "\\u%04x", c);
            else bprintf(b, "\\U%08x", c);
        } else if (c >= 0x80 && pct(25)) {
            if (q == Q_SCHEMA && (c > 0xffff || pct(50))) bprintf(b, "\\u{%x}", c);
            else if (c < 0x10000) bprintf(b, "\\u%04X", c);
            else if (q == Q_YAML) bprintf(b, "\\U%08X", c);
            else bprintf(b, "\\u%04x\\u%04X", 0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
        } else {
            bput_n(b, s + i - (size_t)l, (size_t)l);
        }
    }
    bput(b, "\"");
}

static void schema_default(buf *b, const field *f) {
    const val *d = f->def;
    int k = f->t->k;
    if (k == K_BOOL) bput(b, d->bits ? "true" : "false");
    else if (is_int(k)) fmt_int(b, k, d->bits);
    else if (d->ftext) bput(b, d->ftext);
    else if (k == K_F32 || k == K_F64) yaml_float(b, k, d->bits);
    else if (k == K_ENUM) {
        const decl *e = &decls[f->t->decl];
        for (int i = 0; i < e->nv; i++)
            if (e->vv[i] == d->bits) {
                bput(b, e->vn[i]);
                break;
            }
    } else if (k == K_STRING) quoted(b, d->s, d->slen, Q_SCHEMA);
}

/* One declaration, sometimes with doc comments (which change no byte). */
static void write_decl(buf *b, const decl *d) {
    if (pct(20)) bput(b, "/* a block\n   comment */\n");
    if (pct(15)) bprintf(b, "/// %s, documented.\n///\n/// A second paragraph.\n", d->name);
    if (d->is_enum) {
        bprintf(b, "enum %s : %s {", d->name, kname[d->base->k]);
        for (int i = 0; i < d->nv; i++) {
            bprintf(b, "%s%s", i ? ", " : " ", d->vn[i]);
            if (d->vexp[i]) {
                bput(b, " = ");
                yaml_int(b, d->base->k, d->vv[i]);
            }
        }
        bput(b, " }\n");
        return;
    }
    if (d->is_union) {
        bprintf(b, "union %s {", d->name);
        for (int i = 0; i < d->nm; i++) {
            bput(b, i ? ", " : " ");
            if (pct(10)) bprintf(b, "\n    /// Member %d.\n    ", i + 1);
            bput(b, decls[nenums + d->mem[i]].name);
        }
        bput(b, pct(30) ? ", }\n" : " }\n");
        return;
    }
    if (d->align_attr) bprintf(b, "@align(%d) ", d->align_attr);
    bprintf(b, "struct %s {\n", d->name);
    for (int i = 0; i < d->nf; i++) {
        const field *f = &d->f[i];
        if (pct(10)) bprintf(b, "    /// The %s field.\n", f->name);
        bprintf(b, "    %s%s: ", d->keyed && d->key == i ? "@key " : "", f->name);
        spell(b, f->t);
        if (f->def) {
            bput(b, " = ");
            schema_default(b, f);
        }
        if (f->nullable) bput(b, " = null");
        bput(b, ";");
        if (pct(10)) bput(b, " // trailing comment");
        bput(b, "\n");
    }
    bput(b, "}\n");
}

/* The same declarations spread over m.schema and 1 to 3 files it imports
 * (m-part1.schema ...), which import lower-numbered parts now and then:
 * diamonds, files imported twice, types used across files. Baked with it,
 * the data gives the same bytes as with t.schema. */
/* The name the schema's `root` declaration gives. */
static const char *root_decl_name(void) {
    return decls[root_decl_moved >= 0 ? root_decl_moved : root_type->decl].name;
}

static void write_split(const char *dir, const char *main_file) {
    int nparts = 1 + (int)below(3);
    buf parts[4] = {{0}};
    bprintf(&parts[0], "// random schema split over files, seed %llu\n", cur_seed);
    for (int p = nparts; p >= 1; p--) bprintf(&parts[0], "import \"%sm-part%d.schema\";\n", pct(30) ? "./" : "", p);
    for (int p = 1; p <= nparts; p++)
        for (int q = 1; q < p; q++)
            if (pct(50)) bprintf(&parts[p], "import \"m-part%d.schema\";\n", q);
    for (int i = 0; i < ndecls; i++) write_decl(&parts[below((uint32_t)nparts + 1)], &decls[i]);
    if (has_root_decl) bprintf(&parts[0], "root %s;\n", root_decl_name());
    for (int p = 0; p <= nparts; p++) {
        char name[32];
        if (p) sfmt(name, sizeof name, "m-part%d.schema", p);
        else sfmt(name, sizeof name, "%s", main_file);
        write_file(dir, name, &parts[p]);
        free(parts[p].p);
    }
}

static void write_schema(buf *b) {
    int order[MAXD];
    for (int i = 0; i < ndecls; i++) order[i] = i;
    for (int i = ndecls - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1);
        int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    bprintf(b, "// random schema, seed %llu\n", cur_seed);
    for (int oi = 0; oi < ndecls; oi++) write_decl(b, &decls[order[oi]]);
    if (has_root_decl) bprintf(b, "root %s;\n", root_decl_name());
}

/* ---- YAML ---- */

static uint64_t yaml_rng;

static const char *member_name(const type *t, uint64_t bits) {
    const decl *e = &decls[t->decl];
    for (int i = 0; i < e->nv; i++)
        if (e->vv[i] == bits) return e->vn[i];
    die("enum value without a member");
    return "";
}

static void yaml_int(buf *b, int k, uint64_t v) {
    int neg = is_signed(k) && (int64_t)v < 0;
    uint64_t mag = neg ? (uint64_t)0 - v : v;
    int r = (int)below(100);
    char digits[80];
    const char *prefix = "";
    if (r < 55) sfmt(digits, sizeof digits, "%llu", (unsigned long long)mag);
    else if (r < 75) {
        sfmt(digits, sizeof digits, pct(50) ? "%llx" : "%llX", (unsigned long long)mag);
        prefix = "0x";
    } else if (r < 85) {
        sfmt(digits, sizeof digits, "%llo", (unsigned long long)mag);
        prefix = "0o";
    } else if (r < 92 && mag < (UINT64_C(1) << 20)) {
        int nb = 0;
        char tmp[80];
        uint64_t m = mag;
        do {
            tmp[nb++] = (char)('0' + (m & 1));
            m >>= 1;
        } while (m);
        for (int i = 0; i < nb; i++) digits[i] = tmp[nb - 1 - i];
        digits[nb] = 0;
        prefix = "0b";
    } else {
        sfmt(digits, sizeof digits, "%llu", (unsigned long long)mag);
    }
    if (neg || (mag == 0 && pct(10))) bput(b, "-"); /* "-0" is 0 */
    else if (pct(5)) bput(b, "+");
    bput(b, prefix);
    size_t nd = strlen(digits);
    int group = pct(20) ? 1 + (int)below(4) : 0;
    for (size_t i = 0; i < nd; i++) {
        bput_n(b, digits + i, 1);
        if (group && i + 1 < nd && (nd - 1 - i) % (size_t)group == 0) bput(b, "_");
    }
}

static int utf8_next(const char *s, size_t n, size_t i, uint32_t *cp) {
    unsigned char c = (unsigned char)s[i];
    int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (i + (size_t)len > n) len = 1;
    uint32_t v = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (int j = 1; j < len; j++) v = (v << 6) | ((unsigned char)s[i + (size_t)j] & 0x3f);
    *cp = v;
    return len;
}

/* Characters YAML takes as they are in any scalar style. */
static int yaml_printable(uint32_t cp) {
    if (cp >= 0x20 && cp < 0x7f) return 1;
    if (cp < 0xa0) return 0;
    return cp != 0x2028 && cp != 0x2029 && cp != 0xfeff;
}

/* Plain text YAML reads back as the same characters. For a string field
 * every plain scalar is text, "null", "true" and "~" included. */
static int plain_ok(const char *s, size_t n) {
    if (n == 0) return 0;
    if (n == 1 && s[0] == '~') return 1;
    unsigned char c0 = (unsigned char)s[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 >= 0xc0 ||
          (c0 >= '0' && c0 <= '9')))
        return 0;
    if (s[n - 1] == ' ') return 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (cp < 0x80 && !((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
                           (cp >= '0' && cp <= '9') || cp == '_' || cp == ' ' || cp == '.'))
            return 0;
        if (cp >= 0x80 && !yaml_printable(cp)) return 0;
        i += (size_t)l;
    }
    return 1;
}

static int single_ok(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (!yaml_printable(cp)) return 0;
        i += (size_t)l;
    }
    return 1;
}

/* target: the string is a pointer's target, where a plain null is null. */
static void yaml_string(buf *b, const char *s, size_t n, int target) {
    static const char *const nulls[] = {"null", "Null", "NULL", "~"};
    int is_null = 0;
    for (size_t i = 0; i < NELEM(nulls); i++)
        is_null |= strlen(nulls[i]) == n && memcmp(nulls[i], s, n) == 0;
    int r = (int)below(100);
    if (r < 45 && plain_ok(s, n) && !(target && is_null)) {
        bput_n(b, s, n);
    } else if (r < 70 && single_ok(s, n)) {
        bput(b, "'");
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\'') bput(b, "''");
            else bput_n(b, s + i, 1);
        }
        bput(b, "'");
    } else {
        quoted(b, s, n, Q_YAML);
    }
}

/* A literal block scalar keeps every line as is; only for text whose lines
 * need no escapes and do not begin with a space. */
static int literal_ok(const char *s, size_t n) {
    if (n == 0 || !memchr(s, '\n', n)) return 0;
    if (s[n - 1] == '\n') return 0;
    int at_line_start = 1;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (cp == '\n') {
            if (at_line_start) return 0;
            at_line_start = 1;
        } else {
            if (!yaml_printable(cp) || (at_line_start && cp == ' ')) return 0;
            at_line_start = 0;
        }
        i += (size_t)l;
    }
    return 1;
}

static void yaml_null(buf *b);
static val *key_of(const val *item);

/* The i-th item of an array in the text (a keyed array's are not sorted there). */
static val *text_item(const val *v, int i) { return v->it[v->tord ? v->tord[i] : i]; }

static void yaml_scalar(buf *b, const val *v, int target) {
    const type *t = v->t;
    int k = t->k;
    if (k == K_REF) {
        /* its target's key; a string key's plain null would be no target */
        if (v->target) yaml_scalar(b, key_of(v->target), 1);
        else yaml_null(b);
    } else if (k == K_BOOL) bput(b, v->bits ? "true" : "false");
    else if (is_int(k)) yaml_int(b, k, v->bits);
    else if (v->ftext) bput(b, v->ftext);
    else if (k == K_F32 || k == K_F64) yaml_float(b, k, v->bits);
    else if (k == K_ENUM) {
        const char *m = member_name(t, v->bits);
        if (pct(15)) bprintf(b, pct(50) ? "\"%s\"" : "'%s'", m);
        else bput(b, m);
    } else if (k == K_STRING) yaml_string(b, v->s, v->slen, target);
}

static const field *fld(const val *v, int i) { return &decls[v->t->decl].f[i]; }

/* What a node is in the text: a pointer is its target (or null). */
static const val *node_of(const val *v) { return v->t->k == K_PTR ? (v->n ? v->it[0] : NULL) : v; }

/* Field i of struct value v left out of the text (it holds its default, an
 * empty array or null). Never a node that is aliased: its anchor is needed. */
static int omitted(const val *v, int i) {
    const val *n = node_of(v->it[i]);
    return v->omit[i] && !(n && n->refs > 1);
}

static int n_present(const val *v) {
    int n = 0;
    for (int i = 0; i < v->n; i++) n += !omitted(v, i);
    return n;
}

static int is_collection(const val *v) {
    return v && (v->t->k == K_STRUCT || v->t->k == K_ARRAY || v->t->k == K_FIXED);
}

static int is_empty_collection(const val *v) {
    if (v->t->k == K_STRUCT) return n_present(v) == 0;
    return v->n == 0;
}

static void yaml_key(buf *b, const char *name) {
    if (pct(8)) bprintf(b, "\"%s\"", name);
    else if (pct(5)) bprintf(b, "'%s'", name);
    else bput(b, name);
}

static void yaml_null(buf *b) { bput(b, pct(70) ? "null" : "~"); }

/* Writes the anchor or alias of a shared payload; returns 1 for an alias. */
static int yaml_anchors;

static int yaml_anchor(buf *b, val *n, const char *sep) {
    if (n->refs < 2) return 0;
    if (n->emitted) {
        bprintf(b, "*a%d", n->anchor);
        return 1;
    }
    n->emitted = 1;
    n->anchor = yaml_anchors++;
    bprintf(b, "&a%d%s", n->anchor, sep);
    return 0;
}

static const char *union_member(const val *u) {
    return decls[nenums + decls[u->t->decl].mem[u->tag - 1]].name;
}

static void yaml_flow(buf *b, const val *v0);

/* A union: {Member: payload}, or null for none. */
static int yaml_anchor(buf *b, val *n, const char *sep);

static void yaml_union_flow(buf *b, const val *u) {
    if (yaml_anchor(b, (val *)u, " ")) return; /* a shared *U target */
    if (!u->n) {
        yaml_null(b);
        return;
    }
    bput(b, "{");
    yaml_key(b, union_member(u));
    bput(b, ": ");
    yaml_flow(b, u->it[0]);
    bput(b, "}");
}

static void yaml_flow(buf *b, const val *v0) {
    val *v = (val *)node_of(v0);
    if (v && v->t->k == K_UNION) {
        yaml_union_flow(b, v);
        return;
    }
    if (!v) {
        yaml_null(b);
        return;
    }
    if (yaml_anchor(b, v, " ")) return;
    if (v->t->k == K_STRUCT) {
        bput(b, "{");
        int first = 1;
        for (int j = 0; j < v->n; j++) {
            int i = v->order[j];
            if (omitted(v, i)) continue;
            bput(b, first ? "" : pct(80) ? ", " : ",");
            first = 0;
            yaml_key(b, fld(v, i)->name);
            bput(b, ": ");
            yaml_flow(b, v->it[i]);
        }
        bput(b, "}");
    } else if (v->t->k == K_ARRAY || v->t->k == K_FIXED) {
        bput(b, "[");
        for (int i = 0; i < v->n; i++) {
            if (i) bput(b, pct(80) ? ", " : ",");
            yaml_flow(b, text_item(v, i));
        }
        bput(b, "]");
    } else {
        yaml_scalar(b, v, v0->t->k == K_PTR);
    }
}

static void yaml_block(buf *b, const val *v, int indent, int skip_first_pad);

static int single_ok(const char *s, size_t n);

/* The end of a line, now and then with a comment. */
static void yaml_eol(buf *b) { bput(b, pct(4) ? "  # a comment\n" : "\n"); }

/* Text a folded block scalar can hold: one line of printable characters
 * with single spaces to fold at, no space at either end. */
static int folded_ok(const char *s, size_t n) {
    return n >= 3 && s[0] != ' ' && s[n - 1] != ' ' && memchr(s, ' ', n) && single_ok(s, n);
}

/* Writes the node after "key:" or "-" (the cursor right after the colon or
 * dash) up to and including its last newline. */
static void yaml_after(buf *b, const val *v0, int indent, int after_dash) {
    if (node_of(v0) && node_of(v0)->t->k == K_UNION) {
        v0 = node_of(v0); /* *U: the union value (never none: a member, or a null pointer) */
        /* none: null or an empty value; a member: its single-key mapping,
         * in flow or block style */
        if (!v0->n && !after_dash && pct(10)) {
            bput(b, "\n");
        } else if (!v0->n || v0->refs > 1 || pct(30)) {
            /* (an anchor in block style would go to the member's key) */
            bput(b, " ");
            yaml_union_flow(b, v0);
            yaml_eol(b);
        } else {
            if (after_dash) {
                bput(b, " ");
            } else {
                bput(b, "\n");
                pad(b, indent + 2);
            }
            yaml_key(b, union_member(v0));
            bput(b, ":");
            yaml_after(b, v0->it[0], indent + 2, 0);
        }
        return;
    }
    if (v0->t->k == K_REF) {
        if (!v0->target && !after_dash && pct(10)) {
            bput(b, "\n"); /* null */
            return;
        }
        bput(b, " ");
        yaml_scalar(b, v0, 1);
        yaml_eol(b);
        return;
    }
    val *v = (val *)node_of(v0);
    if (!v) {
        if (!after_dash && pct(10)) {
            bput(b, "\n"); /* an empty value is null too */
            return;
        }
        bput(b, " ");
        yaml_null(b);
        bput(b, "\n");
        return;
    }
    if (v->refs > 1 && v->emitted) {
        bprintf(b, " *a%d\n", v->anchor);
        return;
    }
    /* A pointer's target is never written as null or an empty value: that
     * would be a null pointer. */
    int target = v0->t->k == K_PTR;
    if (v->refs < 2 && !after_dash && !target && pct(15) &&
        ((v->t->k == K_STRING && v->slen == 0) || (v->t->k == K_ARRAY && v->n == 0))) {
        bput(b, "\n"); /* an empty value: the empty string, the empty array */
        return;
    }
    if (v->refs < 2 && v->t->k == K_ARRAY && v->n == 0 && !target && pct(20)) {
        bput(b, " ");
        yaml_null(b);
        bput(b, "\n");
        return;
    }
    if (!is_collection(v)) {
        bput(b, " ");
        yaml_anchor(b, v, " ");
        if (v->t->k == K_STRING && literal_ok(v->s, v->slen) && pct(60)) {
            bput(b, "|-\n");
            const char *s = v->s;
            size_t n = v->slen, i = 0;
            while (i <= n) {
                const char *nl = memchr(s + i, '\n', n - i);
                size_t e = nl ? (size_t)(nl - s) : n;
                pad(b, indent + 2);
                bput_n(b, s + i, e - i);
                bput(b, "\n");
                i = e + 1;
            }
            return;
        }
        if (v->t->k == K_STRING && folded_ok(v->s, v->slen) && pct(40)) {
            /* ">-" folds each line break between two lines into a space */
            bput(b, ">-\n");
            pad(b, indent + 2);
            for (size_t i = 0; i < v->slen; i++) {
                if (v->s[i] == ' ' && v->s[i - 1] != ' ' && v->s[i + 1] != ' ' && pct(50)) {
                    bput(b, "\n");
                    pad(b, indent + 2);
                } else {
                    bput_n(b, v->s + i, 1);
                }
            }
            bput(b, "\n");
            return;
        }
        yaml_scalar(b, v, target);
        yaml_eol(b);
        return;
    }
    if (is_empty_collection(v) || pct(25)) {
        bput(b, " ");
        yaml_flow(b, v);
        yaml_eol(b);
        return;
    }
    if (v->refs > 1) {
        bput(b, " ");
        yaml_anchor(b, v, "");
        bput(b, "\n");
        yaml_block(b, v, indent + 2, 0);
        return;
    }
    if (after_dash && pct(50)) {
        bput(b, " ");
        yaml_block(b, v, indent + 2, 1);
        return;
    }
    if (!after_dash && v->t->k != K_STRUCT && pct(40)) {
        bput(b, "\n");
        yaml_block(b, v, indent, 0); /* a sequence may sit at its key's indent */
        return;
    }
    bput(b, "\n");
    yaml_block(b, v, indent + 2, 0);
}

static void yaml_block(buf *b, const val *v, int indent, int skip_first_pad) {
    if (v->t->k == K_STRUCT) {
        for (int j = 0; j < v->n; j++) {
            int i = v->order[j];
            if (omitted(v, i)) continue;
            if (!skip_first_pad && pct(3)) {
                pad(b, indent);
                bput(b, "# a comment line\n");
            }
            if (!skip_first_pad) pad(b, indent);
            skip_first_pad = 0;
            yaml_key(b, fld(v, i)->name);
            bput(b, ":");
            yaml_after(b, v->it[i], indent, 0);
        }
    } else {
        for (int i = 0; i < v->n; i++) {
            if (!skip_first_pad) pad(b, indent);
            skip_first_pad = 0;
            bput(b, "-");
            yaml_after(b, text_item(v, i), indent, 1);
        }
    }
}

static void clear_emitted(val *v) {
    v->emitted = 0;
    yaml_anchors = 0;
    if (v->t->k == K_STRING) return;
    for (int i = 0; i < v->n; i++) clear_emitted(v->it[i]);
}

static void write_yaml(buf *b) {
    clear_emitted(root);
    const char *rn = decls[root_type->decl].name;
    if (pct(20)) bput(b, "# random data\n");
    if (pct(15)) bput(b, "---\n");
    if (pct(15)) {
        bput(b, "{$schema: t.schema");
        if (!has_root_decl) bprintf(b, ", $type: %s", rn);
        for (int j = 0; j < root->n; j++) {
            int i = root->order[j];
            if (omitted(root, i)) continue;
            bput(b, ", ");
            yaml_key(b, fld(root, i)->name);
            bput(b, ": ");
            yaml_flow(b, root->it[i]);
        }
        bput(b, "}\n");
        return;
    }
    /* YAML is streamed: the meta keys come before the first data key */
    int tfirst = !has_root_decl && pct(30);
    if (tfirst) bprintf(b, "$type: \"%s\"\n", rn);
    bput(b, pct(20) ? "\"$schema\": t.schema\n" : pct(20) ? "$schema: 't.schema'\n" : "$schema: t.schema\n");
    if (!has_root_decl && !tfirst) bprintf(b, "$type: %s\n", rn);
    if (n_present(root)) yaml_block(b, root, 0, 0);
    if (pct(10)) bput(b, "...\n");
}

/* Line breaks as CRLF, now and then; no scalar holds a raw line break
 * except block scalars, whose line breaks read back as LF anyway. */
static void crlf(buf *b) {
    if (!pct(10)) return;
    buf o = {0};
    for (size_t i = 0; i < b->n; i++) bput(&o, b->p[i] == '\n' ? "\r\n" : (char[2]){b->p[i], 0});
    free(b->p);
    *b = o;
}

/* ---- JSON (every shared payload written out again) ---- */

/* A JSON number or true/false: a string field takes it as its text. */
static int json_bare_ok(const char *s, size_t n) {
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0)) return 1;
    size_t i = 0, d;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0') i++;
    else {
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d || s[i - d] == '0') return 0;
    }
    if (i < n && s[i] == '.') {
        i++;
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d) return 0;
    }
    return i == n;
}

static void json_val(buf *b, const val *v0, int indent, int pretty) {
    if (node_of(v0) && node_of(v0)->t->k == K_UNION) {
        v0 = node_of(v0);
        if (!v0->n) {
            bput(b, "null");
            return;
        }
        const char *m = union_member(v0);
        bput(b, "{");
        quoted(b, m, strlen(m), Q_JSON);
        bput(b, pretty ? ": " : ":");
        json_val(b, v0->it[0], indent + 2, pretty);
        bput(b, "}");
        return;
    }
    const val *v = node_of(v0);
    if (!v) {
        bput(b, "null");
        return;
    }
    int k = v->t->k;
    if (k == K_REF) {
        if (v->target) json_val(b, key_of(v->target), indent, pretty);
        else bput(b, "null");
        return;
    }
    if (k == K_STRUCT || k == K_ARRAY || k == K_FIXED) {
        int st = k == K_STRUCT;
        bput(b, st ? "{" : "[");
        int first = 1;
        for (int j = 0; j < v->n; j++) {
            int i = st ? v->order[j] : v->tord ? v->tord[j] : j;
            if (st && omitted(v, i)) continue;
            bput(b, first ? "" : ",");
            first = 0;
            if (pretty) {
                bput(b, "\n");
                pad(b, indent + 2);
            }
            if (st) {
                quoted(b, fld(v, i)->name, strlen(fld(v, i)->name), Q_JSON);
                bput(b, pretty ? ": " : ":");
            }
            json_val(b, v->it[i], indent + 2, pretty);
        }
        if (pretty && !first) {
            bput(b, "\n");
            pad(b, indent);
        }
        bput(b, st ? "}" : "]");
        return;
    }
    if (k == K_BOOL) bput(b, v->bits ? "true" : "false");
    else if (is_int(k)) {
        if (v->bits == 0 && pct(10)) bput(b, "-"); /* JSON's "-0" is 0 */
        fmt_int(b, k, v->bits);
    } else if (k == K_ENUM) bprintf(b, "\"%s\"", member_name(v->t, v->bits));
    else if (k == K_STRING) {
        if (json_bare_ok(v->s, v->slen) && pct(50)) bput_n(b, v->s, v->slen);
        else quoted(b, v->s, v->slen, Q_JSON);
    } else if (v->ftext) {
        bput(b, v->ftext);
    } else {
        if (is_nan_bits(k, v->bits)) bput(b, "\"nan\"");
        else if (is_inf_bits(k, v->bits)) bput(b, is_neg_bits(k, v->bits) ? "\"-inf\"" : "\"inf\"");
        else {
            char t[64];
            fmt_float(t, sizeof t, k, v->bits, pct(40));
            char *e = strchr(t, 'e');
            if (e && pct(15)) *e = 'E';
            bput(b, t);
        }
    }
}

static void write_json(buf *b) {
    int pretty = pct(60);
    buf meta = {0};
    bput(&meta, "\"$schema\": \"t.schema\"");
    if (!has_root_decl) bprintf(&meta, ",%s\"$type\": \"%s\"", pretty ? "\n  " : " ", decls[root_type->decl].name);
    if (!n_present(root)) {
        bprintf(b, "{%s%s%s}\n", pretty ? "\n  " : "", meta.p, pretty ? "\n" : "");
        free(meta.p);
        return;
    }
    /* the meta keys go first or last in the root object (JSON allows both) */
    buf inner = {0};
    json_val(&inner, root, 0, pretty);
    if (pct(70)) {
        bprintf(b, "{%s%s,", pretty ? "\n  " : "", meta.p);
        bput(b, inner.p + 1);
    } else {
        size_t close = inner.n - 1;
        while (close > 0 && inner.p[close] != '}') close--;
        bput_n(b, inner.p, close);
        bprintf(b, ",%s%s%s}", pretty ? "\n  " : "", meta.p, pretty ? "\n" : "");
    }
    bput(b, "\n");
    free(inner.p);
    free(meta.p);
}

/* ---- the checker program ---- */

static int vcount;
static int emitted_type[MAXT];

static void ctype_of(buf *b, const type *t) {
    switch (t->k) {
    case K_ENUM: bput(b, kctype[t->elem->k]); break;
    case K_STRUCT: case K_FIXED: bprintf(b, "s%llu_t%d", cur_seed, t->id); break;
    case K_STRING: case K_ARRAY: bput(b, "bc_off"); break;
    case K_PTR: case K_REF: bput(b, "bc_ptr"); break;
    case K_UNION: bput(b, "bc_union"); break;
    default: bput(b, kctype[t->k]); break;
    }
}

static void c_typedef(buf *b, const type *t) {
    if (t->k != K_FIXED && t->k != K_STRUCT) return;
    if (emitted_type[t->id]) return;
    emitted_type[t->id] = 1;
    if (t->k == K_FIXED) {
        c_typedef(b, t->elem);
        bput(b, "typedef ");
        ctype_of(b, t->elem);
        bput(b, " ");
        ctype_of(b, t);
        bprintf(b, "[%d];\n", t->count);
        return;
    }
    const decl *d = &decls[t->decl];
    for (int i = 0; i < d->nf; i++) c_typedef(b, d->f[i].t);
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

static void c_string_lit(buf *b, const char *s, size_t n) {
    bput(b, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') bput_n(b, (const char *)&c, 1);
        else bprintf(b, "\\%03o", c);
    }
    bput(b, "\"");
}

static void c_check(buf *b, const val *v, const char *lv, const char *path, int ind, int noshare);

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
    case K_ARRAY: {
        int n = ++vcount;
        pad(b, ind);
        bput(b, "{ const ");
        ctype_of(b, t->elem);
        bprintf(b, " *p%d = (const ", n);
        ctype_of(b, t->elem);
        bprintf(b, " *)ck_arr(&%s, %d, sizeof *p%d, _Alignof(", lv, v->n, n);
        ctype_of(b, t->elem);
        bprintf(b, "), %d, \"%s\");\n", share, path);
        if (v->karr) {
            pad(b, ind + 2);
            bprintf(b, "kreg(%d, p%d);\n", v->karr, n);
        }
        if (v->n) {
            pad(b, ind + 2);
            bprintf(b, "if (p%d && g_first) {\n", n);
            char base[32];
            sfmt(base, sizeof base, "p%d", n);
            c_check_items(b, v, base, path, ind + 4);
            pad(b, ind + 2);
            bput(b, "}\n");
        }
        pad(b, ind);
        bprintf(b, "(void)p%d; }\n", n);
        return;
    }
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

static const char checker_prelude[] =
    "/* Generated by tests/tools/randgen: checks raw data sections of random\n"
    " * cases against structs laid out by the C compiler. */\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "#include <stdarg.h>\n\n"
    "typedef struct bc_off { int32_t off; int32_t len; } bc_off;\n"
    "typedef struct bc_ptr { int32_t off; } bc_ptr;\n"
    "typedef struct bc_union { uint32_t tag; int32_t off; } bc_union;\n"
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

static const char checker_main[] =
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

static void checker_for_case(buf *b) {
    memset(emitted_type, 0, sizeof emitted_type);
    vcount = 0;
    bprintf(b, "/* ---- seed %llu ---- */\n", cur_seed);
    for (int i = 0; i < ntypes; i++) c_typedef(b, &types[i]);
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

/* ---- the reader over `blobc gen c` output ----
 * The same values, read through the generated header (docs/CODEGEN.md):
 * members for inline values, <Struct>_<field> for fields holding offsets
 * (indexed through fixed-array levels), <Struct>_<field>_at for the items
 * of a [T] whose items hold offsets, <Enum>_name and the member macros, and
 * the runtime's blobc_rt_* functions below the level accessors resolve.
 * The program compiles as C11 and as C++17. */

static int is_ref(int k) { return k == K_STRING || k == K_ARRAY || k == K_PTR || k == K_REF; }

static const type *strip_fixed(const type *t) {
    while (t->k == K_FIXED) t = t->elem;
    return t;
}

/* The header's name for a type that is not a fixed array. */
static void hdr_base(buf *b, const type *t) {
    switch (t->k) {
    case K_BOOL: bput(b, "blobc_rt_bool"); break;
    case K_ENUM: case K_STRUCT: case K_UNION: bput(b, decls[t->decl].name); break;
    case K_STRING: bput(b, "blobc_rt_str"); break;
    case K_ARRAY: bput(b, "blobc_rt_array"); break;
    case K_PTR: case K_REF: bput(b, "blobc_rt_ptr"); break;
    default: bput(b, kctype[t->k]); break;
    }
}

/* "const T *name" or, for a fixed array, "const T (*name)[N]..." */
static void hdr_ptr_decl(buf *b, const type *t, const char *name) {
    bput(b, "const ");
    hdr_base(b, strip_fixed(t));
    if (t->k == K_FIXED) {
        bprintf(b, " (*%s)", name);
        for (; t->k == K_FIXED; t = t->elem) bprintf(b, "[%d]", t->count);
    } else {
        bprintf(b, " *%s", name);
    }
}

static void rd_lvalue(buf *b, const val *v, const char *lv, const char *path, int ind);

/* A key as an argument of <S>_<f>_find: the key type's value, or a string
 * and its length. */
static void rd_key_arg(buf *b, const val *k) {
    int base = k->t->k == K_ENUM ? k->t->elem->k : k->t->k;
    if (base == K_STRING) {
        c_string_lit(b, k->s, k->slen);
        bprintf(b, ", %zu", k->slen);
        return;
    }
    bput(b, "RD_CAST(");
    hdr_base(b, k->t);
    if (is_signed(base) && k->bits == UINT64_C(1) << 63) bput(b, ", -INT64_C(9223372036854775807) - 1)");
    else if (is_signed(base)) bprintf(b, ", INT64_C(%lld))", (long long)k->bits);
    else bprintf(b, ", UINT64_C(%llu))", (unsigned long long)k->bits);
}

/* The item q (a const T *) a reference leads to has the target's key. */
static void rd_key(buf *b, const val *tg, const char *q, const char *path, int ind) {
    const decl *d = &decls[tg->t->decl];
    const val *k = key_of(tg);
    const char *f = d->f[d->key].name;
    pad(b, ind);
    if (k->t->k == K_STRING) {
        bprintf(b, "rd_str(%s_%s(%s), ", d->name, f, q);
        c_string_lit(b, k->s, k->slen);
        bprintf(b, ", %zu, \"%s\");\n", k->slen, path);
    } else {
        bprintf(b, "RD_BITS(%s->%s, UINT64_C(0x%llx), \"%s\");\n", q, f, (unsigned long long)k->bits, path);
    }
}

/* A key that no item of keyed array v has (NULL when every key an enum
 * allows is taken). */
static const val *missing_key(const val *v) {
    const val *k0 = key_of(v->it[0]);
    val *k = copy_scalar(k0);
    static const char *const strs[] = {"", "a", "b", "zz", "hello", "0", "Z"};
    for (int c = 0; c < 16; c++) {
        if (k->t->k == K_STRING) {
            if (c >= (int)NELEM(strs)) break;
            k->s = (char *)strs[c];
            k->slen = strlen(strs[c]);
        } else if (k->t->k == K_ENUM) {
            const decl *e = &decls[k->t->decl];
            if (c >= e->nv) break;
            k->bits = e->vv[c];
        } else {
            k->bits = (uint64_t)c;
        }
        int taken = 0;
        for (int i = 0; i < v->n; i++) taken |= key_cmp(key_of(v->it[i]), k) == 0;
        if (!taken) return k;
    }
    return NULL;
}

/* The binary search of a keyed [T] field f (accessor fn) finds each item,
 * and nothing for a key no item has. */
static void rd_find(buf *b, const val *v, const char *fn, const char *p, const char *path, int ind) {
    int n = ++vcount;
    char name[32];
    sfmt(name, sizeof name, "q%d", n);
    pad(b, ind);
    bprintf(b, "{ size_t n%d = 0; ", n);
    hdr_ptr_decl(b, v->t->elem, name);
    bprintf(b, " = %s(%s, &n%d);\n", fn, p, n);
    pad(b, ind + 2);
    bprintf(b, "if (n%d == %d) {\n", n, v->n);
    for (int i = 0; i < v->n; i++) {
        pad(b, ind + 4);
        bprintf(b, "if (%s_find(%s, ", fn, p);
        rd_key_arg(b, key_of(v->it[i]));
        bprintf(b, ") != &q%d[%d]) bad(\"%s[%d]\", \"find does not give this item\");\n", n, i, path, i);
    }
    const val *mk = v->n ? missing_key(v) : NULL;
    if (mk || !v->n) {
        pad(b, ind + 4);
        bprintf(b, "if (%s_find(%s, ", fn, p);
        if (mk) rd_key_arg(b, mk);
        else rd_key_arg(b, gen_scalar(decls[v->t->elem->decl].f[decls[v->t->elem->decl].key].t, 0));
        bprintf(b, ") != RD_NULL) bad(\"%s\", \"find gives an item for a key none has\");\n", path);
    }
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bprintf(b, "(void)q%d; }\n", n);
}

/* Checks the resolved view of a string (the text), a [T] (the items; the
 * call is pre + "&count" + post) or a *T (the target). */
static void rd_view(buf *b, const val *v, const char *pre, const char *post, const char *path,
                    int ind) {
    const type *t = v->t;
    pad(b, ind);
    if (t->k == K_STRING) {
        bprintf(b, "rd_str(%s%s, ", pre, post);
        c_string_lit(b, v->s, v->slen);
        bprintf(b, ", %zu, \"%s\");\n", v->slen, path);
        return;
    }
    int n = ++vcount;
    char name[32], lv[64], p2[600];
    sfmt(name, sizeof name, "q%d", n);
    bput(b, "{ ");
    if (t->k == K_ARRAY) {
        bprintf(b, "size_t n%d = 0; ", n);
        hdr_ptr_decl(b, t->elem, name);
        bprintf(b, " = %s&n%d%s;\n", pre, n, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_len(q%d != RD_NULL, n%d, %d, \"%s\")) {\n", n, n, v->n, path);
        for (int i = 0; i < v->n; i++) {
            sfmt(lv, sizeof lv, "q%d[%d]", n, i);
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            rd_lvalue(b, v->it[i], lv, p2, ind + 4);
        }
    } else if (t->k == K_REF) {
        /* the item it leads to, by its key (not walked: references may
         * form cycles) */
        hdr_ptr_decl(b, t->elem, name);
        bprintf(b, " = %s%s;\n", pre, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, v->target != NULL, path);
        if (v->target) rd_key(b, v->target, name, path, ind + 4);
    } else {
        const val *tg = v->n ? v->it[0] : NULL;
        hdr_ptr_decl(b, t->elem, name);
        bprintf(b, " = %s%s;\n", pre, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, tg != NULL, path);
        if (tg) {
            sfmt(lv, sizeof lv, "(*q%d)", n);
            sfmt(p2, sizeof p2, "(*%s)", path);
            rd_lvalue(b, tg, lv, p2, ind + 4);
        }
    }
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bput(b, "}\n");
}

/* The views of value v of type t reached through accessor `fn` with the
 * arguments `args` so far, one index per fixed-array level. */
static void rd_accessor(buf *b, const val *v, const char *fn, const char *args, const char *path,
                        int ind) {
    char a2[700], p2[600], pre[800];
    if (v->t->k == K_FIXED) {
        for (int i = 0; i < v->n; i++) {
            sfmt(a2, sizeof a2, "%s, %d", args, i);
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            rd_accessor(b, v->it[i], fn, a2, p2, ind);
        }
        return;
    }
    sfmt(pre, sizeof pre, "%s(%s%s", fn, args, v->t->k == K_ARRAY ? ", " : "");
    rd_view(b, v, pre, ")", path, ind);
}

/* The fields of struct value v through the pointer expression p. */
static void rd_fields(buf *b, const val *v, const char *p, const char *path, int ind) {
    const decl *d = &decls[v->t->decl];
    char lv[700], p2[600], fn[80];
    for (int i = 0; i < d->nf; i++) {
        const field *f = &d->f[i];
        const val *fv = v->it[i];
        sfmt(p2, sizeof p2, "%s.%s", path, f->name);
        sfmt(fn, sizeof fn, "%s_%s", d->name, f->name);
        if (!is_ref(strip_fixed(f->t)->k)) {
            sfmt(lv, sizeof lv, "(%s)->%s", p, f->name);
            rd_lvalue(b, fv, lv, p2, ind);
            continue;
        }
        const type *item = f->t->k == K_ARRAY ? f->t->elem : NULL;
        if (!item || !is_ref(strip_fixed(item)->k)) {
            rd_accessor(b, fv, fn, p, p2, ind);
            if (item && item->k == K_STRUCT && decls[item->decl].keyed) rd_find(b, fv, fn, p, p2, ind);
            continue;
        }
        /* a [T] whose items hold offsets: the count from the plain accessor,
         * each item from the item accessor */
        int n = ++vcount;
        pad(b, ind);
        bprintf(b, "{ size_t n%d = 0; ", n);
        char name[32], fn_at[100], args[800], p3[600];
        sfmt(name, sizeof name, "q%d", n);
        hdr_ptr_decl(b, item, name);
        bprintf(b, " = %s(%s, &n%d);\n", fn, p, n);
        pad(b, ind + 2);
        bprintf(b, "if (rd_len(q%d != RD_NULL, n%d, %d, \"%s\")) {\n", n, n, fv->n, p2);
        sfmt(fn_at, sizeof fn_at, "%s_at", fn);
        for (int j = 0; j < fv->n; j++) {
            sfmt(args, sizeof args, "%s, %d", p, j);
            sfmt(p3, sizeof p3, "%s[%d]", p2, j);
            rd_accessor(b, fv->it[j], fn_at, args, p3, ind + 4);
        }
        pad(b, ind + 2);
        bput(b, "}\n");
        pad(b, ind);
        bput(b, "}\n");
    }
}

static void rd_lvalue(buf *b, const val *v, const char *lv, const char *path, int ind) {
    const type *t = v->t;
    char l2[700], p2[600];
    buf c = {0};
    switch (t->k) {
    case K_STRUCT:
        sfmt(l2, sizeof l2, "&%s", lv);
        rd_fields(b, v, l2, path, ind);
        return;
    case K_FIXED:
        for (int i = 0; i < v->n; i++) {
            sfmt(l2, sizeof l2, "%s[%d]", lv, i);
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            rd_lvalue(b, v->it[i], l2, p2, ind);
        }
        return;
    case K_STRING:
        sfmt(l2, sizeof l2, "blobc_rt_str_cstr(&%s", lv);
        rd_view(b, v, l2, ")", path, ind);
        pad(b, ind);
        bprintf(b, "rd_u(blobc_rt_str_len(&%s), %zu, \"%s\");\n", lv, v->slen, path);
        return;
    case K_ARRAY:
    case K_PTR:
    case K_REF:
        bput(&c, "RD_CAST(");
        hdr_ptr_decl(&c, t->elem, "");
        if (t->k == K_ARRAY) {
            bprintf(&c, ", blobc_rt_array_data(&%s, ", lv);
            rd_view(b, v, c.p, "))", path, ind);
        } else {
            bprintf(&c, ", blobc_rt_ptr_get(&%s)", lv);
            rd_view(b, v, c.p, ")", path, ind);
        }
        free(c.p);
        return;
    case K_UNION: {
        /* the tag through <U>_tag, and every member's <U>_as_<M>: the
         * struct for the one held, NULL for the others */
        const decl *u = &decls[t->decl];
        pad(b, ind);
        bprintf(b, "{ uint32_t tg = %s_tag(&%s); RD_BITS(tg, ", u->name, lv);
        if (v->tag) bprintf(b, "%s_%s", u->name, union_member(v));
        else bprintf(b, "%s_NONE", u->name);
        bprintf(b, ", \"%s\"); }\n", path);
        for (int m = 0; m < u->nm; m++) {
            const char *mn = decls[nenums + u->mem[m]].name;
            int held = v->tag == m + 1;
            int n = ++vcount;
            pad(b, ind);
            bprintf(b, "{ const %s *q%d = %s_as_%s(&%s);\n", mn, n, u->name, mn, lv);
            pad(b, ind + 2);
            sfmt(p2, sizeof p2, "%s.%s", path, mn);
            bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, held, p2);
            if (held) {
                sfmt(l2, sizeof l2, "(*q%d)", n);
                rd_lvalue(b, v->it[0], l2, p2, ind + 4);
            }
            pad(b, ind + 2);
            bput(b, "}\n");
            pad(b, ind);
            bput(b, "}\n");
        }
        return;
    }
    case K_ENUM: {
        const decl *e = &decls[t->decl];
        const char *m = member_name(t, v->bits);
        pad(b, ind);
        bprintf(b, "rd_name(%s_name(%s), \"%s\", \"%s\");\n", e->name, lv, m, path);
        pad(b, ind);
        bprintf(b, "RD_BITS(%s, %s_%s, \"%s\");\n", lv, e->name, m, path);
        return;
    }
    default: {
        uint64_t want = v->bits;
        uint32_t sz = ksize(t->k);
        if (sz < 8) want &= (UINT64_C(1) << (8 * sz)) - 1;
        pad(b, ind);
        bprintf(b, "RD_BITS(%s, UINT64_C(0x%llx), \"%s\");\n", lv, (unsigned long long)want, path);
        return;
    }
    }
}

static const char reader_prelude[] =
    "/* Generated by tests/tools/randgen: reads random cases through the\n"
    " * headers `blobc gen c` made for them. C11 and C++17. */\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    "#ifdef __cplusplus\n"
    "#define RD_CAST(T, e) static_cast<T>(e)\n"
    "#define RD_NULL nullptr\n"
    "#else\n"
    "#define RD_CAST(T, e) ((T)(e))\n"
    "#define RD_NULL NULL\n"
    "#endif\n"
    "/* 16-byte aligned memory: Windows' C runtime has no aligned_alloc. */\n"
    "#ifdef _WIN32\n#include <malloc.h>\n"
    "#define RD_ALLOC16(n) _aligned_malloc((n), 16)\n#define RD_FREE16 _aligned_free\n"
    "#else\n#define RD_ALLOC16(n) aligned_alloc(16, (n))\n#define RD_FREE16 free\n#endif\n"
    "static int g_fail;\n"
    "static unsigned long long g_seed;\n"
    "static inline void bad(const char *path, const char *what) {\n"
    "    if (g_fail++) return;\n"
    "    printf(\"FAIL %llu: %s: %s\\n\", g_seed, path, what);\n"
    "}\n"
    "static inline void rd_bits(const void *p, size_t n, uint64_t want, const char *path) {\n"
    "    uint64_t got = 0;\n"
    "    char msg[96];\n"
    "    memcpy(&got, p, n);\n"
    "    if (n < 8) want &= (UINT64_C(1) << (8 * n)) - 1;\n"
    "    snprintf(msg, sizeof msg, \"got 0x%llx, want 0x%llx\", (unsigned long long)got, (unsigned long long)want);\n"
    "    if (got != want) bad(path, msg);\n"
    "}\n"
    "#define RD_BITS(lv, want, path) rd_bits(&(lv), sizeof(lv), (uint64_t)(want), path)\n"
    "static inline void rd_str(const char *got, const char *want, size_t n, const char *path) {\n"
    "    if (!got) bad(path, \"NULL string\");\n"
    "    else if (memcmp(got, want, n + 1) != 0) bad(path, \"string differs\");\n"
    "}\n"
    "static inline void rd_u(size_t got, size_t want, const char *path) {\n"
    "    if (got != want) bad(path, \"length differs\");\n"
    "}\n"
    "static inline void rd_name(const char *got, const char *want, const char *path) {\n"
    "    if (!got || strcmp(got, want) != 0) bad(path, \"enum name differs\");\n"
    "}\n"
    "static inline int rd_len(int nonnull, size_t n, size_t want, const char *path) {\n"
    "    if (n != want) { bad(path, \"item count differs\"); return 0; }\n"
    "    if (nonnull != (want != 0)) { bad(path, want ? \"NULL items\" : \"items for an empty array\"); return 0; }\n"
    "    return nonnull;\n"
    "}\n"
    "static inline int rd_ptr(int nonnull, int want, const char *path) {\n"
    "    if (nonnull != want) bad(path, want ? \"NULL target\" : \"target for a null pointer\");\n"
    "    return nonnull && want;\n"
    "}\n\n";

static void reader_for_case(buf *b) {
    vcount = 0;
    const char *rn = decls[root_type->decl].name;
    bprintf(b, "#include \"gen-%llu.h\"\n", cur_seed);
    bprintf(b, "static void read_%llu(const void *buf, size_t len) {\n", cur_seed);
    bprintf(b, "    blobc_rt_status st;\n    const %s *r = %s_open(buf, len, &st);\n", rn, rn);
    bput(b, "    if (!r) { bad(\"(open)\", blobc_rt_status_message(st)); return; }\n");
    /* built with the library: the checked open verifies the whole blob */
    bprintf(b, "#ifdef BLOBC_WITH_LIBRARY\n    { blobc_error e; if (!%s_open_checked(buf, len, &e)) bad(\"(open_checked)\", e.message); }\n#endif\n", rn);
    rd_fields(b, root, "r", rn, 4);
    bput(b, "}\n\n");
}

static const char reader_main[] =
    "int main(int argc, char **argv) {\n"
    "    int rc = 0;\n"
    "    /* arguments: SEED BLOB, repeated */\n"
    "    for (int a = 1; a + 1 < argc; a += 2) {\n"
    "        g_seed = strtoull(argv[a], RD_NULL, 10);\n"
    "        g_fail = 0;\n"
    "        FILE *f = fopen(argv[a + 1], \"rb\");\n"
    "        if (!f) { printf(\"FAIL %llu: cannot open %s\\n\", g_seed, argv[a + 1]); rc = 1; continue; }\n"
    "        fseek(f, 0, SEEK_END);\n"
    "        long sz = ftell(f);\n"
    "        fseek(f, 0, SEEK_SET);\n"
    "        void *mem = RD_ALLOC16((RD_CAST(size_t, sz) + 16) / 16 * 16);\n"
    "        if (!mem || fread(mem, 1, RD_CAST(size_t, sz), f) != RD_CAST(size_t, sz)) { printf(\"FAIL %llu: read error\\n\", g_seed); rc = 1; fclose(f); continue; }\n"
    "        fclose(f);\n"
    "        int found = 0;\n"
    "        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)\n"
    "            if (cases[i].seed == g_seed) { found = 1; cases[i].fn(mem, RD_CAST(size_t, sz)); }\n"
    "        if (!found) bad(\"(case)\", \"no such seed in this reader\");\n"
    "        if (!g_fail) printf(\"ok %llu\\n\", g_seed);\n"
    "        rc |= g_fail != 0;\n"
    "        RD_FREE16(mem);\n"
    "    }\n"
    "    return rc;\n"
    "}\n";

/* ---- commands ---- */

static unsigned long long parse_seed(const char *s) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end) die("a seed is a decimal number");
    return v;
}

/* The case's YAML, on its own stream (the schema's does not move it). */
static void case_yaml(unsigned long long seed, buf *yaml) {
    yaml_rng = mix(seed, 0x7a31);
    rng = &yaml_rng;
    if (pct(5)) bput(yaml, "\xef\xbb\xbf"); /* a BOM */
    write_yaml(yaml);
    crlf(yaml);
}

static void cmd_case(unsigned long long seed, const char *dir) {
    make_case(seed);
    buf schema = {0}, yaml = {0}, json = {0}, info = {0};
    uint64_t r = mix(seed, 0x5c4e3a);
    rng = &r;
    write_schema(&schema);
    crlf(&schema);
    case_yaml(seed, &yaml);
    uint64_t j = mix(seed, 0x150e);
    rng = &j;
    if (pct(5)) bput(&json, "\xef\xbb\xbf");
    write_json(&json);
    crlf(&json);
    bprintf(&info, "seed=%llu\nshared=%d\nroot=%s\n", seed, nshares > 0,
            decls[root_type->decl].name);
    write_file(dir, "t.schema", &schema);
    uint64_t sp = mix(seed, 0x5911);
    rng = &sp;
    write_split(dir, "m.schema");
    write_file(dir, "t.yaml", &yaml);
    write_file(dir, "t.json", &json);
    write_file(dir, "info", &info);
    free(schema.p);
    free(yaml.p);
    free(json.p);
    free(info.p);
}

/* ---- mutants: the case's schema with one element changed ----
 * For the cache key (tests/cli/cache_key.sh): whenever a fresh bake's
 * bytes or exit status change, the key must change, so a cached bake must
 * always equal a fresh one. A mutant is the case's model after one edit,
 * written with the same presentation streams; the neutral kinds change
 * only what no bake sees (a comment, the order of declarations, a type
 * nothing uses), and their bakes must hit the unedited schema's entry. */

typedef struct mutation {
    const char *kind;
    int d, f; /* the declaration, and its field or member (-1: none) */
} mutation;

#define MAXMUT 24   /* mutants per seed */
#define MAXDEFMUT 12 /* of them, changes of defaults */
#define MAXCAND 512

static mutation cand[MAXCAND];
static int ncand;

static void add_cand(const char *kind, int d, int f) {
    if (ncand < MAXCAND) cand[ncand++] = (mutation){kind, d, f};
}

static const char *default_change(int k) {
    if (k == K_BOOL) return "default-bool";
    if (is_int(k)) return "default-int";
    if (k == K_F32) return "default-f32";
    if (k == K_F64) return "default-f64";
    if (k == K_ENUM) return "default-enum";
    return "default-string";
}

static void list_struct_mutations(int d) {
    const decl *dc = &decls[d];
    add_cand("align-changed", d, -1);
    for (int f = 0; f < dc->nf; f++) {
        const field *fl = &dc->f[f];
        int k = fl->t->k;
        if (fl->def) {
            if (k != K_ENUM || decls[fl->t->decl].nv > 1) add_cand(default_change(k), d, f);
            add_cand("default-removed", d, f);
        } else if (k <= K_F64 || k == K_ENUM || k == K_STRING) {
            add_cand("default-added", d, f);
        }
        if (k == K_UNION || k == K_REF) add_cand(fl->nullable ? "null-removed" : "null-added", d, f);
        add_cand("field-renamed", d, f);
        if (k <= K_F64 && !fl->def) add_cand("field-type", d, f);
        if (f + 1 < dc->nf) add_cand("fields-swapped", d, f);
    }
}

/* Every edit this model allows, into cand. */
static void list_mutations(void) {
    ncand = 0;
    add_cand("neutral-comment", -1, -1);
    add_cand("neutral-order", -1, -1);
    if (ndecls < MAXD) add_cand("neutral-unused-type", -1, -1);
    if (has_root_decl && nstructs > 1) add_cand("root-changed", -1, -1);
    for (int d = 0; d < ndecls; d++) {
        const decl *dc = &decls[d];
        add_cand("type-renamed", d, -1);
        if (dc->is_enum) {
            add_cand("base-changed", d, -1);
            for (int v = 0; v < dc->nv; v++) {
                add_cand("member-renamed", d, v);
                add_cand("value-changed", d, v);
            }
        } else if (dc->is_union) {
            if (dc->nm > 1) add_cand("members-swapped", d, 0);
        } else {
            list_struct_mutations(d);
        }
    }
}

/* 0: neutral; 1: a default (of a field or a union's null); 2: the rest. */
static int mutation_class(const mutation *m) {
    if (strncmp(m->kind, "neutral-", 8) == 0) return 0;
    if (strcmp(m->kind, "default-added") == 0) return 2; /* no value to change yet */
    if (strncmp(m->kind, "default-", 8) == 0 || strncmp(m->kind, "null-", 5) == 0) return 1;
    return 2;
}

/* Up to MAXMUT of the candidates: every neutral kind, then up to MAXDEFMUT
 * changes of defaults, then others, each group in a random order. */
static int select_mutations(mutation *out) {
    for (int i = ncand - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1);
        mutation x = cand[i];
        cand[i] = cand[j];
        cand[j] = x;
    }
    int n = 0, ndef = 0;
    for (int cls = 0; cls < 3; cls++)
        for (int i = 0; i < ncand && n < MAXMUT; i++) {
            if (mutation_class(&cand[i]) != cls || (cls == 1 && ndef == MAXDEFMUT)) continue;
            out[n++] = cand[i];
            ndef += cls == 1;
        }
    return n;
}

static int fits_base(int k, uint64_t v) {
    if (is_signed(k)) return (int64_t)v >= (int64_t)kmin(k) && (int64_t)v <= (int64_t)kmax(k);
    return v <= kmax(k);
}

static void rename_type(decl *d) {
    char old[24];
    memcpy(old, d->name, sizeof old);
    const char *const *words = d->is_enum ? enum_words : d->is_union ? union_words : struct_words;
    size_t nw = d->is_enum ? NELEM(enum_words) : d->is_union ? NELEM(union_words) : NELEM(struct_words);
    for (int tries = 0; tries < 100 && strcmp(d->name, old) == 0; tries++)
        pick_type_name(d->name, words, nw);
}

static void rename_field(decl *d, field *f) {
    char n[24];
    for (int tries = 0; tries < 100; tries++) {
        sfmt(n, sizeof n, "%s%u", field_words[below(NELEM(field_words))], 10 + below(90));
        if (!field_name_used(d, n)) break;
    }
    memcpy(f->name, n, sizeof n);
}

static void rename_member(decl *d, int v) {
    char n[24];
    for (int tries = 0; tries < 100; tries++) {
        sfmt(n, sizeof n, "%s%u", member_words[below(NELEM(member_words))], below(10));
        int dup = 0;
        for (int j = 0; j < d->nv; j++) dup |= strcmp(d->vn[j], n) == 0;
        if (!dup) break;
    }
    memcpy(d->vn[v], n, sizeof n);
}

/* A new value for member v; every member spelled out (the same values), so
 * that no implicit value after it moves, and defaults that named it follow. */
static void change_value(decl *d, int v) {
    int k = d->base->k;
    uint64_t old = d->vv[v], nv = old;
    for (int tries = 0; tries < 100; tries++) {
        uint64_t x = gen_int(k);
        int dup = 0;
        for (int j = 0; j < d->nv; j++) dup |= d->vv[j] == x;
        if (!dup) {
            nv = x;
            break;
        }
    }
    for (int j = 0; j < d->nv; j++) d->vexp[j] = 1;
    d->vv[v] = nv;
    for (int i = 0; i < ndecls; i++)
        for (int f = 0; f < decls[i].nf; f++) {
            field *fl = &decls[i].f[f];
            if (fl->t == d->t && fl->def && fl->def->bits == old) fl->def->bits = nv;
        }
}

static void change_base(decl *d) {
    static const int bases[] = {K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};
    int ok[8], n = 0;
    for (int i = 0; i < 8; i++) {
        int fit = bases[i] != d->base->k;
        for (int v = 0; v < d->nv; v++) fit &= fits_base(bases[i], d->vv[v]);
        if (fit) ok[n++] = bases[i];
    }
    if (n == 0) return;
    d->base = sc(ok[below((uint32_t)n)]);
    d->t->elem = d->base;
}

static void change_default(field *f) {
    val *old = f->def;
    if (f->t->k == K_ENUM) {
        const decl *e = &decls[f->t->decl];
        int i = (int)below((uint32_t)e->nv);
        if (e->vv[i] == old->bits) i = (i + 1) % e->nv;
        f->def = copy_scalar(old);
        f->def->bits = e->vv[i];
        return;
    }
    for (int tries = 0; tries < 100 && same_scalar(f->def, old); tries++) f->def = gen_scalar(f->t, 1);
}

static void add_unused_type(void) {
    decl *d = &decls[ndecls];
    memset(d, 0, sizeof *d);
    sfmt(d->name, sizeof d->name, "Unused_%llu", cur_seed);
    d->t = intern(K_STRUCT, NULL, 0, ndecls);
    d->nf = 1;
    sfmt(d->f[0].name, sizeof d->f[0].name, "x");
    d->f[0].t = sc(K_U8);
    ndecls++;
}

static void apply_struct_mutation(const mutation *m, decl *d) {
    field *f = m->f >= 0 ? &d->f[m->f] : NULL;
    const char *k = m->kind;
    if (strcmp(k, "align-changed") == 0) d->align_attr = d->align_attr ? 0 : 16;
    else if (strcmp(k, "default-removed") == 0) f->def = NULL;
    else if (strcmp(k, "default-added") == 0) f->def = gen_scalar(f->t, 1);
    else if (strncmp(k, "default-", 8) == 0) change_default(f);
    else if (strcmp(k, "null-removed") == 0) f->nullable = 0;
    else if (strcmp(k, "null-added") == 0) f->nullable = 1;
    else if (strcmp(k, "field-renamed") == 0) rename_field(d, f);
    else if (strcmp(k, "field-type") == 0) f->t = sc(1 + (int)((f->t->k + below(10)) % 11));
    else if (strcmp(k, "fields-swapped") == 0) {
        field x = d->f[m->f];
        d->f[m->f] = d->f[m->f + 1];
        d->f[m->f + 1] = x;
        if (d->keyed && (d->key == m->f || d->key == m->f + 1)) d->key = 2 * m->f + 1 - d->key;
    }
}

static void apply_mutation(const mutation *m) {
    decl *d = m->d >= 0 ? &decls[m->d] : NULL;
    const char *k = m->kind;
    if (strcmp(k, "neutral-unused-type") == 0) add_unused_type();
    else if (strcmp(k, "root-changed") == 0)
        root_decl_moved = nenums + (int)((root_type->decl - nenums + 1 + below((uint32_t)nstructs - 1)) %
                                         (uint32_t)nstructs);
    else if (strcmp(k, "type-renamed") == 0) rename_type(d);
    else if (strcmp(k, "member-renamed") == 0) rename_member(d, m->f);
    else if (strcmp(k, "value-changed") == 0) change_value(d, m->f);
    else if (strcmp(k, "base-changed") == 0) change_base(d);
    else if (strcmp(k, "members-swapped") == 0) {
        int x = d->mem[0];
        d->mem[0] = d->mem[1];
        d->mem[1] = x;
    } else if (d) apply_struct_mutation(m, d);
}

/* The data in each bake's own file: b blob, s --strip, r raw, u and x
 * unity (two versions and length rules); imp/i: a blob through imports. */
static const char *const mutant_inputs[] = {"b", "s", "r", "u", "x"};

/* DIR/IDX: the schema (t.schema; imp/t.schema importing its parts) with
 * mutation m (none when NULL) and the case's YAML under every input name. */
static void write_mutant(unsigned long long seed, const mutation *m, int idx, const char *dir,
                         const buf *yaml) {
    make_case(seed);
    uint64_t mr = mix(seed, 0x3017u + (uint64_t)idx);
    rng = &mr;
    if (m) apply_mutation(m);
    int reorder = m && strcmp(m->kind, "neutral-order") == 0;
    char d[4096], imp[4200], name[16];
    sfmt(d, sizeof d, "%s/%d", dir, idx);
    sfmt(imp, sizeof imp, "%s/imp", d);
    if (blobc_os_mkdir(d) != 0 || blobc_os_mkdir(imp) != 0) die("cannot create a mutant's directory");
    buf schema = {0};
    if (m && strcmp(m->kind, "neutral-comment") == 0) bput(&schema, "// an added comment\n");
    uint64_t r = mix(seed, 0x5c4e3a + (uint64_t)reorder);
    rng = &r;
    write_schema(&schema);
    write_file(d, "t.schema", &schema);
    free(schema.p);
    uint64_t sp = mix(seed, 0x5911 + (uint64_t)reorder);
    rng = &sp;
    write_split(imp, "t.schema");
    for (size_t i = 0; i < NELEM(mutant_inputs); i++) {
        sfmt(name, sizeof name, "%s-c.yaml", mutant_inputs[i]);
        write_file(d, name, yaml);
        sfmt(name, sizeof name, "%s-f.yaml", mutant_inputs[i]);
        write_file(d, name, yaml);
    }
    write_file(imp, "i-c.yaml", yaml);
    write_file(imp, "i-f.yaml", yaml);
}

/* DIR/0 the case as it is, DIR/1... its mutants, DIR/list "IDX KIND". */
static void cmd_mutants(unsigned long long seed, const char *dir) {
    make_case(seed);
    buf yaml = {0}, list = {0};
    case_yaml(seed, &yaml);
    list_mutations();
    uint64_t sr = mix(seed, 0x6a7e);
    rng = &sr;
    mutation sel[MAXMUT];
    int n = select_mutations(sel);
    write_mutant(seed, NULL, 0, dir, &yaml);
    bput(&list, "0 none\n");
    for (int i = 0; i < n; i++) {
        write_mutant(seed, &sel[i], i + 1, dir, &yaml);
        bprintf(&list, "%d %s\n", i + 1, sel[i].kind);
    }
    write_file(dir, "list", &list);
    free(yaml.p);
    free(list.p);
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "case") == 0) {
        cmd_case(parse_seed(argv[2]), argv[3]);
        reset();
        free(owned);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "mutants") == 0) {
        cmd_mutants(parse_seed(argv[2]), argv[3]);
        reset();
        free(owned);
        return 0;
    }
    int check = argc >= 4 && strcmp(argv[1], "check") == 0;
    if (check || (argc >= 4 && strcmp(argv[1], "genc") == 0)) {
        /* one program for all the seeds: a function per seed, a table, main */
        buf out = {0};
        bput(&out, check ? checker_prelude : reader_prelude);
        for (int i = 3; i < argc; i++) {
            make_case(parse_seed(argv[i]));
            if (check) checker_for_case(&out);
            else reader_for_case(&out);
        }
        bprintf(&out, "static const struct { unsigned long long seed; void (*fn)(%s); } cases[] = {\n",
                check ? "void" : "const void *, size_t");
        for (int i = 3; i < argc; i++)
            bprintf(&out, "    {%sULL, %s_%s},\n", argv[i], check ? "check" : "read", argv[i]);
        bput(&out, "};\n\n");
        bput(&out, check ? checker_main : reader_main);
        write_file(NULL, argv[2], &out);
        free(out.p);
        reset();
        free(owned);
        return 0;
    }
    fprintf(stderr, "usage: randgen case SEED DIR | randgen mutants SEED DIR | randgen check OUT.c SEED... | "
                    "randgen genc OUT.c SEED...\n");
    return 2;
}
