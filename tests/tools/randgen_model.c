/*
 * randgen_model.c - the random case: types and their layout, a random
 * schema, random values for its root type, keys and references settled,
 * shared payloads numbered.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

const char *const kname[] = {"",    "bool", "i8",  "u8",  "i16", "u16",
                             "i32", "u32",  "i64", "u64", "f32", "f64"};
const char *const kctype[] = {"",        "uint8_t",  "int8_t",  "uint8_t",
                              "int16_t", "uint16_t", "int32_t", "uint32_t",
                              "int64_t", "uint64_t", "float",   "double"};

type types[MAXT];
int ntypes;
decl decls[MAXD];
int ndecls, nenums, nstructs, nunions;
int sharing;
int nshares;
int has_root_decl;
int root_decl_moved = -1;
unsigned long long cur_seed;


static type *intern_key(int k, type *elem, type *key, int count, int d) {
    for (int i = 0; i < ntypes; i++)
        if (types[i].k == k && types[i].elem == elem && types[i].key == key &&
            types[i].count == count && types[i].decl == d)
            return &types[i];
    if (ntypes == MAXT) die("too many types");
    type *t = &types[ntypes];
    t->k = k;
    t->id = ntypes++;
    t->elem = elem;
    t->key = key;
    t->count = count;
    t->decl = d;
    return t;
}

type *intern(int k, type *elem, int count, int d) { return intern_key(k, elem, NULL, count, d); }
type *map_type(type *key, type *value) { return intern_key(K_MAP, value, key, 0, -1); }

type *sc(int k) { return intern(k, NULL, 0, -1); }

int is_int(int k) { return k >= K_I8 && k <= K_U64; }
int is_signed(int k) { return k == K_I8 || k == K_I16 || k == K_I32 || k == K_I64; }

uint32_t ksize(int k) {
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
    case K_STRING: case K_ARRAY: case K_MAP: *size = 8; *align = 4; return;
    case K_PTR: case K_REF: *size = 4; *align = 4; return;
    case K_UNION: *size = 8; *align = 4; return;
    case K_ANY: *size = 12; *align = 4; return;
    case K_OPT: layout(t->elem, size, align); *size = rup(*size + 1, *align); return;
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
    while (u->k == K_FIXED || u->k == K_OPT) u = u->elem;
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

const char *const field_words[] = {
    "pos", "vel", "hp", "name", "tags", "meta", "items", "kind", "flags", "count",
    "score", "color", "speed", "scale", "angle", "mass", "size", "label", "note", "data",
    "next", "child", "left", "right", "parent", "weight", "id", "index", "level", "seed",
    "mode", "phase", "time", "rate", "uv", "normal", "origin", "target", "owner", "slot",
    "value", "key", "path", "icon", "sound", "depth", "width", "height", "range", "layer"};
const char *const struct_words[] = {"Room", "Vec", "Node", "Item", "Meta", "Cell",
                                           "Actor", "Wave", "Tile", "Mesh", "Prop", "Zone",
                                           "Link", "Quad", "Rig", "Trail"};
const char *const enum_words[] = {"Kind", "Mode", "State", "Flag",
                                         "Team", "Layer", "Phase", "Shape"};
const char *const union_words[] = {"Any", "Variant", "Choice", "Either", "Form", "Part"};
const char *const member_words[] = {
    "none", "idle", "walk", "run", "jump", "fall", "red", "green", "blue", "north",
    "south", "east", "west", "low", "mid", "high", "open", "shut", "solid", "liquid",
    "gas", "omega", "Big", "Small", "ON_FIRE", "frozen2"};


static int decl_name_used(const char *n) {
    for (int i = 0; i < ndecls; i++)
        if (decls[i].name != n && strcmp(decls[i].name, n) == 0) return 1;
    return 0;
}

/* Type names end in the seed, so that the headers `blobc gen c` makes for
 * many seeds can be included in one program. */
void pick_type_name(char *out, const char *const *words, size_t nw) {
    for (;;) {
        const char *w = words[below((uint32_t)nw)];
        if (pct(50)) sfmt(out, 24, "%s_%llu", w, cur_seed);
        else sfmt(out, 24, "%s%u_%llu", w, below(10), cur_seed);
        if (!decl_name_used(out)) return;
    }
}

/* ---- random schema ---- */

type *struct_type(int i) { return decls[nenums + i].t; }
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
static type *rmap(int cur, int depth);
static type *ropt(int cur, int inl, int depth);

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

static const int int_kinds[] = {K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};

/* A map type: string, integer or enum keys, any value (the entries are
 * out of line, so a value may be any struct, the current one too). */
static type *rmap(int cur, int depth) {
    int r = (int)below(100);
    type *key = r < 40 ? sc(K_STRING)
                : r < 75 || !nenums ? sc(int_kinds[below(8)])
                                    : decls[below((uint32_t)nenums)].t;
    return map_type(key, rtype(cur, 0, depth + 1));
}

/* ?T for any T but ?T, *T and &T: a null pointer or reference in a
 * present optional would read as absent (?*T and ?&T stay out). */
static type *ropt(int cur, int inl, int depth) {
    type *e;
    do e = rtype(cur, inl, depth + 1);
    while (e->k == K_OPT || e->k == K_PTR || e->k == K_REF);
    return intern(K_OPT, e, 0, -1);
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
    if (depth < 3 && pct(6)) return rmap(cur, depth);
    if (depth < 3 && pct(6)) return ropt(cur, inl, depth);
    if (pct(3)) return sc(K_ANY);
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
        while (e->k == K_PTR || e->k == K_REF || e->k == K_OPT);
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

int field_name_used(const decl *d, const char *n) {
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

uint64_t kmax(int k) {
    unsigned w = 8 * ksize(k);
    if (is_signed(k)) return (UINT64_MAX >> (65 - w));
    return w == 64 ? UINT64_MAX : ((UINT64_C(1) << w) - 1);
}

uint64_t kmin(int k) { return is_signed(k) ? ~kmax(k) : 0; }

uint64_t gen_int(int k) {
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

uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
uint64_t f64_bits(double f) {
    uint64_t b;
    memcpy(&b, &f, 8);
    return b;
}
float bits_f32(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
double bits_f64(uint64_t b) {
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

val *gen_scalar(type *t, int for_default) {
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

val *copy_scalar(const val *d) {
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
    if (t->k == K_FIXED || t->k == K_OPT) return ref_at_zero(t->elem, self);
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
    case K_FIXED: case K_PTR: case K_MAP: case K_OPT: return type_reach(t->elem);
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

int same_scalar(const val *a, const val *b) {
    if (a->t->k == K_STRING) return a->slen == b->slen && memcmp(a->s, b->s, a->slen) == 0;
    return a->bits == b->bits;
}


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
                       (k == K_PTR && fv->n == 0) || (k == K_UNION && fv->n == 0 && f->nullable) ||
                       (k == K_REF && !fv->pending) || (k == K_MAP && fv->n == 0) ||
                       (k == K_OPT && fv->n == 0);
        /* left out, or (now and then) null, which means the same; a
         * YAML null for a string is the text "null" */
        v->omit[i] = !may_omit || !pct(60) ? 0 : k != K_STRING && pct(20) ? 2 : 1;
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

val *key_of(const val *item) { return item->it[decls[item->t->decl].key]; }

/* The order of keyed arrays (docs/FORMAT.md): integers and enums by value,
 * strings by their bytes, a prefix first. */
int key_cmp(const val *a, const val *b) {
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
    if (t->k == K_STRING || t->k == K_REF || t->k == K_ANY || v->karr) return;
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

/* A random order of n things, for the text. */
static int *text_order(int n) {
    int *o = xmalloc((size_t)(n ? n : 1) * sizeof *o);
    int r = (int)below(100);
    for (int i = 0; i < n; i++) o[i] = r < 20 ? n - 1 - i : i;
    if (r >= 40)
        for (int i = n - 1; i > 0; i--) {
            int j = (int)below((uint32_t)i + 1), x = o[i];
            o[i] = o[j];
            o[j] = x;
        }
    return o;
}

static void sort_keyed(val *a) {
    for (int i = 1; i < a->n; i++)
        for (int j = i; j > 0 && key_cmp(key_of(a->it[j - 1]), key_of(a->it[j])) > 0; j--) {
            val *x = a->it[j];
            a->it[j] = a->it[j - 1];
            a->it[j - 1] = x;
        }
    a->tord = text_order(a->n);
    for (int i = 0; i < a->n; i++) {
        a->it[i]->karr = a->karr;
        a->it[i]->kidx = i;
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
val *gen(type *t, int depth, int pooled) {
    xcount++;
    /* (an absent ?T, a null any is no node to alias) */
    if (t->k == K_PTR || t->k == K_UNION || t->k == K_REF || t->k == K_OPT || t->k == K_ANY ||
        !pooled)
        return gen_inline(t, depth);
    int k = t->k;
    val *v = pool_take(t, k == K_STRING || k == K_ARRAY ? 35 : k == K_STRUCT || k == K_FIXED || k == K_MAP ? 15 : 5);
    if (v) return v;
    v = gen_inline(t, depth);
    pool_add(t, v);
    return v;
}

/* Set for the next value made: it must not be what the data says with
 * null (a pointer's target, a present optional's value). */
static int must_hold;

/* n entries of a map (or an any's mapping) with keys of type kt, each
 * key once, sorted by key (docs/FORMAT.md): fewer when the key type runs
 * out of keys. */
static int gen_keys(val *v, type *kt, int n) {
    v->keys = xmalloc((size_t)(n ? n : 1) * sizeof *v->keys);
    int got = 0;
    for (int i = 0; i < n; i++) {
        for (int tries = 0; tries < 8; tries++) {
            val *k = gen_scalar(kt, 0);
            int dup = 0;
            for (int j = 0; j < got; j++) dup |= key_cmp(v->keys[j], k) == 0;
            if (dup) continue;
            int at = got++;
            while (at > 0 && key_cmp(v->keys[at - 1], k) > 0) {
                v->keys[at] = v->keys[at - 1];
                at--;
            }
            v->keys[at] = k;
            break;
        }
    }
    v->tord = text_order(got);
    return got;
}

static val *gen_any(type *t, int nest, int must);

/* The n items of an array (or values of a map, or of an any's list or
 * mapping, depth its nesting) v, of type et. */
static val *gen_items(val *v, type *et, int n, int depth) {
    budget -= n;
    v->n = n;
    v->it = xmalloc((size_t)(n ? n : 1) * sizeof *v->it);
    for (int i = 0; i < n; i++) {
        v->it[i] = v->t->k == K_ANY ? gen_any(et, depth + 1, 0) : gen(et, depth + 1, 1);
        v->xsize += v->it[i]->xsize;
    }
    return v;
}

static val *gen_map(type *t, int depth) {
    val *v = newval(t);
    int n = depth >= MAXDEPTH || budget <= 0 || pct(15) ? 0 : 1 + (int)below(depth >= 2 ? 2 : 5);
    return gen_items(v, t->elem, gen_keys(v, t->key, n), depth);
}

/* An any: scalars of every kind, lists and mappings nested a few deep. */
static val *gen_any(type *t, int nest, int must) {
    val *v = newval(t);
    int r = (int)below(100);
    if (nest >= 3 || budget <= 0) r = (int)below(70);
    if (must && r < 8) r = 8 + (int)below(92);
    v->ak = r < 8 ? A_NULL : r < 18 ? A_BOOL : r < 35 ? A_INT : r < 42 ? A_UINT : r < 55 ? A_FLOAT
          : r < 70 ? A_STRING : r < 85 ? A_LIST : A_MAP;
    switch (v->ak) {
    case A_BOOL: v->bits = below(2); break;
    case A_INT: v->bits = gen_int(K_I64); break;
    case A_UINT: v->bits = gen_int(K_U64) | UINT64_C(1) << 63; break;
    case A_FLOAT: v->bits = gen_f64(1); break;
    case A_STRING: gen_string_bytes(v, 0); break;
    case A_LIST:
    case A_MAP: {
        int n = (int)below(4);
        if (v->ak == A_MAP) n = gen_keys(v, sc(K_STRING), n);
        gen_items(v, t, n, nest);
        break;
    }
    default: break;
    }
    return v;
}

static val *gen_inline(type *t, int depth) {
    int must = must_hold;
    must_hold = 0;
    switch (t->k) {
    case K_MAP: return gen_map(t, depth);
    case K_ANY: return gen_any(t, 0, must);
    case K_OPT: {
        val *v = newval(t);
        v->it = xmalloc(sizeof *v->it);
        if (depth >= MAXDEPTH || budget <= 0 || pct(40)) return v;
        must_hold = 1;
        v->n = 1;
        v->it[0] = gen(t->elem, depth, 0);
        v->xsize += v->it[0]->xsize;
        return v;
    }
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
        return gen_items(v, t->elem, n, depth);
    }
    case K_PTR: {
        val *v = newval(t);
        v->it = xmalloc(sizeof *v->it);
        if (depth >= MAXDEPTH || budget <= 0 || pct(25)) return v;
        budget--;
        val *target = pool_take(t, 35);
        if (!target) {
            must_hold = 1;
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
        /* a member here (gen_struct makes a nullable field none), or none
         * in an @open union (the text then gives a tag it lacks, or
         * null); the member's struct is a *Member target, pooled as such,
         * so a union and a *Member may share it, except in a union tagged
         * by a field, whose member's mapping holds the tag */
        const decl *d = &decls[t->decl];
        val *v = newval(t);
        v->it = xmalloc(sizeof *v->it);
        if (d->open && !must && pct(15)) return v;
        int m = (int)below((uint32_t)d->nm);
        type *pt = intern(K_PTR, struct_type(d->mem[m]), 0, -1);
        v->n = 1;
        v->tag = m + 1;
        val *target = d->by_field ? NULL : pool_take(pt, 35);
        if (d->by_field) {
            target = gen(pt->elem, depth + 1, 0);
        } else if (!target) {
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
    if (v->t->k == K_ANY) return;
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

/* ---- unions tagged by a field ---- */

/* Tag fields no struct has a field of (field_words), so the tag is never
 * a member's key too. */
static const char *const tag_fields[] = {"type", "tag", "variant", "@type", "class"};
static const char *const tag_words[] = {"circle", "box",  "tilelayer", "a",  "B",      "x-y",
                                        "two words", "12", "é",   "mesh", "region", "true"};

/* Half the unions are tagged by a field: string tags (now and then a
 * member without one) or integer tags, a default member sometimes,
 * @open sometimes. */
static void make_tagging(decl *d) {
    if (!pct(55)) return;
    d->by_field = 1;
    sfmt(d->tagf, sizeof d->tagf, "%s", tag_fields[below(NELEM(tag_fields))]);
    d->int_tags = pct(35);
    for (int m = 0; m < d->nm; m++)
        for (int dup = 1; dup;) {
            if (d->int_tags) d->tagv[m] = pct(50) ? below(8) : gen_int(K_I64);
            else if (pct(15)) d->tags[m][0] = 0;
            else sfmt(d->tags[m], sizeof d->tags[m], "%s", tag_words[below(NELEM(tag_words))]);
            dup = 0;
            for (int j = 0; j < m; j++)
                dup |= d->int_tags ? d->tagv[j] == d->tagv[m]
                                   : d->tags[m][0] && strcmp(d->tags[j], d->tags[m]) == 0;
        }
    d->dflt = pct(35) ? 1 + (int)below((uint32_t)d->nm) : 0;
    d->open = pct(30);
}

/* ---- the case ---- */

val *root;
type *root_type;

void reset(void) {
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

uint64_t mix(unsigned long long seed, uint64_t salt) {
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ salt;
    uint64_t *save = rng;
    rng = &s;
    uint64_t r = rnd();
    rng = save;
    return r;
}

static uint64_t case_rng;

void make_case(unsigned long long seed) {
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
    nunions = pct(70) ? 1 + (int)below(2) : 0;
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
        make_tagging(d);
        ndecls++;
    }
    for (int i = 0; i < nstructs; i++) make_struct(i, i == nstructs - 1);
    find_reach();
    root_type = struct_type(nstructs - 1);
    budget = 45 + (int)below(80);
    xcount = 0;
    root = gen(root_type, 0, 1);
    settle_keys(root);
    assign_shares(root);
}

void case_forms(buf *b) {
    static const char *const words[] = {"map", "opt", "any", "tagged", "open"};
    int has[5] = {0};
    for (int i = 0; i < ntypes; i++) {
        has[0] |= types[i].k == K_MAP;
        has[1] |= types[i].k == K_OPT;
        has[2] |= types[i].k == K_ANY;
    }
    for (int i = 0; i < ndecls; i++) {
        has[3] |= decls[i].by_field;
        has[4] |= decls[i].open;
    }
    for (int i = 0, n = 0; i < 5; i++)
        if (has[i]) bprintf(b, "%s%s", n++ ? " " : "", words[i]);
}
