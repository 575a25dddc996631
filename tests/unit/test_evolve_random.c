/*
 * test_evolve_random.c - compat and upgrade agree, over random pairs of
 * schemas: a random schema and random data for it, baked; a second schema
 * made from the first by one to three random edits (fields renamed,
 * with @was or without, added, removed, swapped or retyped, defaults
 * changed, types, enum members and union members (with @was or without)
 * renamed or added, enum values changed, '= null' given or taken, the
 * @key moved, declarations reordered). Most schemas have a keyed struct
 * K: a [K] in the root whose keys references &K and [&K] name, sometimes
 * another [K] deeper (one key space). Whenever compat calls
 * the pair compatible, upgrade must carry the blob over without --drop,
 * and every value must stay what it was: the data sections are equal byte
 * for byte, and so are the dumps (where no name changed by @was). Both verdicts must come up often, so
 * that neither side is tested by accident only. EVOLVE_SHOW=N prints pair
 * N's two schemas and data.
 */
#include <stdbool.h>

#include "blobc/blobc.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "test.h"

#define PAIRS 400

/* ---- a small PRNG (xorshift64*) ---- */

static uint64_t rng;
static uint32_t rnd(uint32_t n) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ull) >> 33) % n;
}

/* ---- the model of a schema ---- */

enum { T_U8, T_U16, T_U32, T_I8, T_I32, T_I64, T_F32, T_F64, T_BOOL, T_STRING, NSCALAR,
       T_ENUM = NSCALAR, T_STRUCT, T_ARRAY, T_FIXED, T_PTR, T_UNION, T_REF };
static const char *const scalar_names[NSCALAR] = {"u8",  "u16", "u32", "i8",   "i32",
                                                  "i64", "f32", "f64", "bool", "string"};

typedef struct mfield {
    char name[16];
    int kind, ref, elem, count; /* ref: enum, struct or union; elem: ARRAY/FIXED scalar,
                                   or T_STRUCT for [ref], T_REF for [&K] */
    bool has_def, nullable;
    bool key;      /* @key (only in the keyed struct K) */
    char was[16];  /* @was(was), "" for none */
    int def; /* scalar value, or enum member index */
} mfield;
typedef struct mstruct {
    char name[16];
    int nf;
    mfield f[8];
} mstruct;
typedef struct menum {
    char name[16];
    int n;
    char m[10][16];
    int v[10];
    char was[10][16];
} menum;
typedef struct munion {
    char name[16];
    int n, s[3];
    char was[3][16];
} munion;
typedef struct model {
    int ne, ns, nu;
    menum e[2];
    mstruct s[7]; /* s[ns], when nk: the keyed struct K */
    int nk;
    munion u[1];
    int order; /* the order of enums, structs and the union in the text */
} model;

/* Structs 0..ns-3 are inner (0 is the root), the last two leaves of
 * scalars only, the union's members: nothing refers back, so no cycles. */
static void random_field(model *m, int si, mfield *f, int k) {
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "a%d", k);
    bool leaf = si >= m->ns - 2;
    int pick = leaf ? (int)rnd(3) : (int)rnd(9);
    if (pick <= 1) {
        f->kind = (int)rnd(NSCALAR);
        f->has_def = f->kind != T_STRING && rnd(3) == 0;
        f->def = (int)rnd(5);
    } else if (pick == 2) {
        f->kind = T_ENUM;
        f->ref = (int)rnd((uint32_t)m->ne);
        f->has_def = rnd(2) == 0;
        f->def = (int)rnd((uint32_t)m->e[f->ref].n);
    } else if (pick == 3) {
        f->kind = T_STRUCT;
        f->ref = si + 1 + (int)rnd((uint32_t)(m->ns - si - 1));
    } else if (pick == 4) {
        f->kind = T_ARRAY;
        f->elem = rnd(2) ? T_STRUCT : (int)rnd(NSCALAR);
        f->ref = si + 1 + (int)rnd((uint32_t)(m->ns - si - 1));
    } else if (pick == 5) {
        f->kind = T_FIXED;
        f->elem = (int)rnd(T_STRING);
        f->count = 1 + (int)rnd(3);
    } else if (pick == 6) {
        f->kind = T_PTR;
        f->ref = si + 1 + (int)rnd((uint32_t)(m->ns - si - 1));
    } else {
        f->kind = T_UNION;
        f->nullable = rnd(2) == 0;
        f->has_def = f->nullable;
    }
}

static bool refers_to(const mfield *f, int si) {
    return (f->kind == T_STRUCT || f->kind == T_PTR || (f->kind == T_ARRAY && f->elem == T_STRUCT)) &&
           f->ref == si;
}

/* Every struct reachable from the root, the union too: an edit anywhere
 * then matters to the data. */
static void link_all(model *m) {
    bool has_union = false;
    for (int i = 0; i < m->ns; i++)
        for (int k = 0; k < m->s[i].nf; k++) has_union |= m->s[i].f[k].kind == T_UNION;
    for (int i = 1; i < m->ns; i++) {
        bool referred = false;
        for (int j = 0; j < i; j++)
            for (int k = 0; k < m->s[j].nf; k++) referred |= refers_to(&m->s[j].f[k], i);
        if (referred || (i >= m->ns - 2 && has_union)) continue;
        mstruct *from = &m->s[rnd((uint32_t)(i < m->ns - 2 ? i : m->ns - 2))];
        mfield *f = &from->f[from->nf < 8 ? from->nf++ : 7];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "l%d", i);
        f->kind = (int[]){T_STRUCT, T_PTR, T_ARRAY}[rnd(3)];
        f->elem = T_STRUCT;
        f->ref = i;
    }
    if (!has_union && m->s[0].nf < 8) {
        mfield *f = &m->s[0].f[m->s[0].nf++];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "u");
        f->kind = T_UNION;
        f->has_def = f->nullable = rnd(2) == 0;
    }
}

/* K { @key k: u32, i32 or string; a scalar or two }, a [K] of three
 * items in the root (the keys references name), sometimes another in an
 * inner struct (one key space), and references &K, [&K] here and there. */
static void add_keyed(model *m) {
    static const int key_kinds[3] = {T_U32, T_I32, T_STRING};
    mstruct *k = &m->s[m->ns];
    m->nk = 1;
    snprintf(k->name, sizeof k->name, "K");
    k->nf = 1 + (int)rnd(3);
    for (int i = 0; i < k->nf; i++) random_field(m, m->ns - 1, &k->f[i], i);
    k->f[0].kind = key_kinds[rnd(3)];
    k->f[0].has_def = false;
    k->f[0].key = true;
    mstruct *r = &m->s[0];
    if (r->nf == 8) r->nf--;
    memmove(&r->f[1], &r->f[0], (size_t)r->nf * sizeof r->f[0]);
    memset(&r->f[0], 0, sizeof r->f[0]);
    snprintf(r->f[0].name, sizeof r->f[0].name, "ks");
    r->f[0].kind = T_ARRAY;
    r->f[0].elem = T_STRUCT;
    r->f[0].ref = m->ns;
    r->nf++;
    for (int i = 0; i < m->ns; i++) {
        mstruct *st = &m->s[i];
        for (int j = i == 0 ? 2 : (int)rnd(2); j > 0 && st->nf < 8; j--) {
            mfield *f = &st->f[st->nf];
            memset(f, 0, sizeof *f);
            snprintf(f->name, sizeof f->name, "k%d", st->nf);
            f->ref = m->ns;
            f->kind = (int[]){T_REF, T_REF, T_ARRAY}[rnd(3)];
            f->elem = T_REF;
            f->nullable = f->has_def = f->kind == T_REF && rnd(2);
            if (i > 0 && i < m->ns - 2 && rnd(3) == 0) f->elem = T_STRUCT; /* another [K] */
            if (f->elem == T_STRUCT) f->kind = T_ARRAY, f->nullable = f->has_def = false;
            st->nf++;
        }
    }
}

static void random_model(model *m) {
    memset(m, 0, sizeof *m);
    m->ne = 1 + (int)rnd(2);
    for (int i = 0; i < m->ne; i++) {
        menum *e = &m->e[i];
        snprintf(e->name, sizeof e->name, "E%d", i);
        e->n = 2 + (int)rnd(4);
        for (int j = 0; j < e->n; j++) {
            snprintf(e->m[j], sizeof e->m[j], "m%d", j);
            e->v[j] = j * 2;
        }
    }
    m->ns = 4 + (int)rnd(3);
    m->nu = 1;
    snprintf(m->u[0].name, sizeof m->u[0].name, "U0");
    m->u[0].n = 1 + (int)rnd(2);
    for (int j = 0; j < m->u[0].n; j++) m->u[0].s[j] = m->ns - 2 + j;
    for (int i = 0; i < m->ns; i++) {
        mstruct *st = &m->s[i];
        snprintf(st->name, sizeof st->name, "S%d", i);
        st->nf = 1 + (int)rnd(5);
        for (int k = 0; k < st->nf; k++) random_field(m, i, &st->f[k], k);
    }
    m->order = (int)rnd(6);
    link_all(m);
    if (rnd(3)) add_keyed(m);
}

/* ---- the schema text ---- */

static void put(blobc_buffer *b, const char *fmt, ...) BLOBC_PRINTF(2, 3);
static void put(blobc_buffer *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    blobc_buf_append(b, tmp, strlen(tmp));
}

static void put_type(blobc_buffer *b, const model *m, const mfield *f) {
    switch (f->kind) {
    case T_ENUM: put(b, "%s", m->e[f->ref].name); break;
    case T_STRUCT: put(b, "%s", m->s[f->ref].name); break;
    case T_UNION: put(b, "%s", m->u[0].name); break;
    case T_PTR: put(b, "*%s", m->s[f->ref].name); break;
    case T_REF: put(b, "&%s", m->s[f->ref].name); break;
    case T_ARRAY:
        if (f->elem == T_REF) put(b, "[&%s]", m->s[f->ref].name);
        else put(b, "[%s]", f->elem == T_STRUCT ? m->s[f->ref].name : scalar_names[f->elem]);
        break;
    case T_FIXED: put(b, "[%s; %d]", scalar_names[f->elem], f->count); break;
    default: put(b, "%s", scalar_names[f->kind]);
    }
}

static void put_default(blobc_buffer *b, const model *m, const mfield *f) {
    if (!f->has_def) return;
    if (f->kind == T_UNION || f->kind == T_REF) put(b, " = null");
    else if (f->kind == T_ENUM) put(b, " = %s", m->e[f->ref].m[f->def]);
    else if (f->kind == T_BOOL) put(b, " = %s", f->def & 1 ? "true" : "false");
    else if (f->kind == T_F32 || f->kind == T_F64) put(b, " = %d.5", f->def);
    else put(b, " = %d", f->def);
}

static void schema_text(const model *m, blobc_buffer *b) {
    /* three groups, in an order the model picks: declaration order is no change */
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int g = 0; g < 3; g++) {
        int which = orders[m->order][g];
        for (int i = 0; which == 0 && i < m->ne; i++) {
            const menum *e = &m->e[i];
            put(b, "enum %s : u8 {", e->name);
            for (int j = 0; j < e->n; j++)
                put(b, "%s %s%s%s%s = %d", j ? "," : "", e->was[j][0] ? "@was(" : "", e->was[j],
                    e->was[j][0] ? ") " : "", e->m[j], e->v[j]);
            put(b, " }\n");
        }
        for (int i = 0; which == 1 && i < m->ns + m->nk; i++) {
            const mstruct *st = &m->s[i];
            put(b, "struct %s {", st->name);
            for (int k = 0; k < st->nf; k++) {
                if (st->f[k].key) put(b, " @key");
                if (st->f[k].was[0]) put(b, " @was(%s)", st->f[k].was);
                put(b, " %s: ", st->f[k].name);
                put_type(b, m, &st->f[k]);
                put_default(b, m, &st->f[k]);
                put(b, ";");
            }
            put(b, " }\n");
        }
        if (which == 2) {
            put(b, "union %s {", m->u[0].name);
            for (int j = 0; j < m->u[0].n; j++)
                put(b, "%s %s%s%s%s", j ? "," : "", m->u[0].was[j][0] ? "@was(" : "", m->u[0].was[j],
                    m->u[0].was[j][0] ? ") " : "", m->s[m->u[0].s[j]].name);
            put(b, " }\n");
        }
    }
    put(b, "root %s;\n", m->s[0].name);
}

/* ---- random data for the old schema, as YAML flow text ---- */

static void put_struct_value(blobc_buffer *b, const model *m, int si);

/* Keys: the root's three keyed items have keys 0, 1, 2 (the ones
 * references name); every other K item takes the next from 3 on, so no
 * key is given twice in the document. */
static int next_key, root_keys;

static void put_key(blobc_buffer *b, int kind, int n) {
    if (kind == T_STRING) put(b, "k%d", n);
    else if (kind == T_I32) put(b, "%d", n * 5 - 7);
    else put(b, "%d", n * 7 + 1);
}

static void put_scalar(blobc_buffer *b, int kind) {
    static const char *const strings[] = {"\"\"", "\"a\"", "\"hello, world\"", "\"é\""};
    static const char *const floats[] = {"0.5", "-2.25", "0.1", "1e10", "-0.0"};
    switch (kind) {
    case T_U8: put(b, "%u", rnd(256)); break;
    case T_U16: put(b, "%u", rnd(65536)); break;
    case T_U32: put(b, "%u", rnd(4000000000u)); break;
    case T_I8: put(b, "%d", (int)rnd(256) - 128); break;
    case T_I32: put(b, "%d", (int)rnd(2000000) - 1000000); break;
    case T_I64: put(b, "%lld", (long long)rnd(2000000000u) * 4096 - 4000000000000ll); break;
    case T_F32:
    case T_F64: put(b, "%s", floats[rnd(5)]); break;
    case T_BOOL: put(b, "%s", rnd(2) ? "true" : "false"); break;
    default: put(b, "%s", strings[rnd(4)]);
    }
}

static void put_value(blobc_buffer *b, const model *m, const mfield *f) {
    switch (f->kind) {
    case T_ENUM: put(b, "%s", m->e[f->ref].m[rnd((uint32_t)m->e[f->ref].n)]); break;
    case T_STRUCT: put_struct_value(b, m, f->ref); break;
    case T_REF:
        if (f->nullable && rnd(3) == 0) put(b, "null");
        else put_key(b, m->s[m->ns].f[0].kind, (int)rnd(3));
        break;
    case T_PTR:
        if (rnd(3) == 0) put(b, "null");
        else put_struct_value(b, m, f->ref);
        break;
    case T_UNION:
        if (f->nullable && rnd(2) == 0) {
            put(b, "null");
        } else {
            int s = m->u[0].s[rnd((uint32_t)m->u[0].n)];
            put(b, "{%s: ", m->s[s].name);
            put_struct_value(b, m, s);
            put(b, "}");
        }
        break;
    case T_ARRAY:
    case T_FIXED: {
        bool three = f->kind == T_ARRAY && f->elem == T_STRUCT && m->nk && f->ref == m->ns &&
                     !strcmp(f->name, "ks");
        int n = f->kind == T_FIXED ? f->count : three ? 3 : (int)rnd(4);
        put(b, "[");
        for (int i = 0; i < n; i++) {
            if (i) put(b, ", ");
            if (three) root_keys = 3 - i; /* keys 2, 1, 0: stored sorted all the same */
            if (f->elem == T_REF) put_value(b, m, &(mfield){.kind = T_REF, .ref = f->ref});
            else if (f->elem == T_STRUCT) put_struct_value(b, m, f->ref);
            else put_scalar(b, f->elem);
        }
        put(b, "]");
        if (three) root_keys = 0;
        break;
    }
    default: put_scalar(b, f->kind);
    }
}

static void put_struct_value(blobc_buffer *b, const model *m, int si) {
    const mstruct *st = &m->s[si];
    put(b, "{");
    bool first = true;
    for (int k = 0; k < st->nf; k++) {
        if (st->f[k].has_def && rnd(3) == 0) continue; /* takes its default */
        put(b, "%s%s: ", first ? "" : ", ", st->f[k].name);
        first = false;
        if (st->f[k].key) put_key(b, st->f[k].kind, root_keys ? root_keys - 1 : next_key++);
        else put_value(b, m, &st->f[k]);
    }
    put(b, "}");
}

/* ---- edits ---- */

static mfield *any_field(model *m, int *si) {
    *si = (int)rnd((uint32_t)(m->ns + m->nk));
    return &m->s[*si].f[rnd((uint32_t)m->s[*si].nf)];
}

static void edit(model *m) {
    int si;
    mfield *f = any_field(m, &si);
    mstruct *st = &m->s[si];
    menum *e = &m->e[rnd((uint32_t)m->ne)];
    switch (rnd(19)) {
    case 0: strcat(f->name, "r"); break;                                  /* field renamed */
    case 1: strcat(st->name, "R"); break;                                 /* struct renamed */
    case 2: strcat(e->m[rnd((uint32_t)e->n)], "r"); break;                /* member renamed */
    case 3:                                                               /* member added */
        if (e->n < 10) {
            snprintf(e->m[e->n], sizeof e->m[e->n], "n%d", e->n);
            e->v[e->n] = e->v[e->n - 1] + 3;
            e->n++;
        }
        break;
    case 4:                                                               /* field added */
        if (st->nf < 8) {
            random_field(m, si, &st->f[st->nf], 100 + (int)rnd(900));
            st->nf++;
        }
        break;
    case 5:                                                               /* field removed */
        if (st->nf > 1) {
            int k = (int)(f - st->f);
            memmove(&st->f[k], &st->f[k + 1], (size_t)(st->nf - k - 1) * sizeof *f);
            st->nf--;
        }
        break;
    case 6:                                                               /* a default */
        if (f->kind < T_STRING || f->kind == T_ENUM) {
            f->has_def = !f->has_def || rnd(2);
            f->def = f->kind == T_ENUM ? (int)rnd((uint32_t)m->e[f->ref].n) : (int)rnd(5);
        }
        break;
    case 7:                                                               /* retyped */
        if (f->kind < T_STRING) f->kind = (int)rnd(T_STRING);
        break;
    case 8:                                                               /* '= null' */
        for (int i = 0; i < m->ns; i++)
            for (int k = 0; k < m->s[i].nf; k++)
                if (m->s[i].f[k].kind == T_UNION && (f->kind != T_UNION || rnd(2))) f = &m->s[i].f[k];
        if (f->kind == T_UNION) f->has_def = f->nullable = !f->nullable;
        break;
    case 9:                                                               /* union member added */
        if (m->u[0].n == 1) m->u[0].s[m->u[0].n++] = m->ns - 1;
        break;
    case 10:                                                              /* fields swapped */
        if (st->nf > 1) {
            mfield t = st->f[0];
            st->f[0] = st->f[st->nf - 1];
            st->f[st->nf - 1] = t;
        }
        break;
    case 11: strcat(e->name, "R"); break;                                 /* enum renamed */
    case 12: strcat(m->u[0].name, "R"); break;                            /* union renamed */
    case 13: e->v[rnd((uint32_t)e->n)] += 40; break;                      /* member's value */
    case 15:                                                              /* renamed, @was */
        memcpy(f->was, f->name, sizeof f->was);
        strcat(f->name, "w");
        break;
    case 16: {                                                            /* member, @was */
        int j = (int)rnd((uint32_t)e->n);
        memcpy(e->was[j], e->m[j], sizeof e->was[j]);
        strcat(e->m[j], "w");
        break;
    }
    case 17:                                                              /* @key moved */
        for (int k = 1; m->nk && k < m->s[m->ns].nf; k++) {
            mfield *g = &m->s[m->ns].f[k];
            if (g->kind == T_STRING || g->kind == T_ENUM || (g->kind <= T_I64 && g->kind != T_F32)) {
                for (int j = 0; j < m->s[m->ns].nf; j++) m->s[m->ns].f[j].key = false;
                g->key = true;
                break;
            }
        }
        break;
    case 18: {                                                            /* union member, @was */
        int j = (int)rnd((uint32_t)m->u[0].n);
        memcpy(m->u[0].was[j], m->s[m->u[0].s[j]].name, sizeof m->u[0].was[j]);
        strcat(m->s[m->u[0].s[j]].name, "W");
        break;
    }
    default: m->order = (int)rnd(6); break;                               /* reordered */
    }
}

/* ---- the property ---- */

/* Whether a name of the model says what it was called before (@was). */
static bool renames(const model *m) {
    for (int i = 0; i < m->ns + m->nk; i++)
        for (int k = 0; k < m->s[i].nf; k++)
            if (m->s[i].f[k].was[0]) return true;
    for (int i = 0; i < m->ne; i++)
        for (int j = 0; j < m->e[i].n; j++)
            if (m->e[i].was[j][0]) return true;
    for (int j = 0; j < m->u[0].n; j++)
        if (m->u[0].was[j][0]) return true;
    return false;
}

static blobc_schema *parse_model(const model *m, const char *name, blobc_buffer *text) {
    blobc_schema *s = NULL;
    text->len = 0;
    schema_text(m, text);
    blobc_schema_parse((const char *)text->data, text->len, name, &s, NULL);
    return s;
}

/* The dump's values: without the $type and $schema lines. */
static void values_of(const blobc_buffer *blob, blobc_buffer *out) {
    blobc_dump_options d = {0};
    d.schema_name = "x";
    out->len = 0;
    blobc_buffer text = {0};
    if (blobc_dump(blob->data, blob->len, &d, &text, NULL) != BLOBC_OK) return;
    const char *p = (const char *)text.data, *end = p + text.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        if (*p != '$') blobc_buf_append(out, p, (size_t)(next - p));
        p = next;
    }
    blobc_buffer_free(&text);
}

static bool same_data(const blobc_buffer *a, const blobc_buffer *b) {
    blobc_blob x, y;
    if (blobc_blob_open(a->data, a->len, 0, &x, NULL)) return false;
    if (blobc_blob_open(b->data, b->len, 0, &y, NULL)) {
        blobc_blob_close(&x);
        return false;
    }
    bool same = x.data_size == y.data_size && memcmp(x.data, y.data, x.data_size) == 0;
    blobc_blob_close(&x);
    blobc_blob_close(&y);
    return same;
}

TEST(compatible_means_upgrade_keeps_every_value) {
    int compatible = 0, incompatible = 0;
    blobc_buffer otext = {0}, ntext = {0}, data = {0}, report = {0};
    blobc_buffer old_blob = {0}, new_blob = {0}, ov = {0}, nv = {0};
    blobc_error err;
    int show = getenv("EVOLVE_SHOW") ? atoi(getenv("EVOLVE_SHOW")) : 0;
    for (int pair = 1; pair <= PAIRS && !test_failed_; pair++) {
        rng = 0x9E3779B97F4A7C15ull * (uint64_t)pair;
        model om, nm;
        random_model(&om);
        nm = om;
        for (int k = 1 + (int)rnd(3); k > 0; k--) edit(&nm);
        blobc_schema *os = parse_model(&om, "old.schema", &otext);
        blobc_schema *ns = parse_model(&nm, "new.schema", &ntext);
        data.len = 0;
        next_key = 3;
        put_struct_value(&data, &om, 0);
        blobc_bake_options bo = {0};
        bo.schema = os;
        old_blob.len = new_blob.len = report.len = 0;
        blobc_error_clear(&err);
        if (!os || blobc_bake_memory((const char *)data.data, data.len, "d.yaml", &bo, &old_blob,
                                     &err) != BLOBC_OK) {
            FAILF("pair %d: the old schema or data is bad: %s\n%.*s\n%.*s", pair, err.message,
                  (int)otext.len, (const char *)otext.data, (int)data.len, (const char *)data.data);
        }
        if (show == pair)
            printf("%.*s---\n%.*s---\n%.*s\n", (int)otext.len, (const char *)otext.data,
                   (int)ntext.len, (const char *)ntext.data, (int)data.len, (const char *)data.data);
        blobc_compat_result r;
        if (ns && blobc_compat(blobc_schema_root(os), blobc_schema_root(ns), ns, &report, &r,
                               NULL) != BLOBC_OK)
            FAILF("pair %d: compat failed", pair);
        if (!ns || r.changes) {
            incompatible++;
        } else {
            compatible++;
            blobc_upgrade_options uo = {0};
            uo.schema = ns;
            blobc_error_clear(&err);
            if (blobc_upgrade(old_blob.data, old_blob.len, &uo, &new_blob, &err) != BLOBC_OK)
                FAILF("pair %d: compat says compatible (%.*s), upgrade fails: %s%s%s\nold:\n%.*s"
                      "new:\n%.*s",
                      pair, (int)report.len, (const char *)report.data, err.path,
                      err.path[0] ? ": " : "", err.message, (int)otext.len,
                      (const char *)otext.data, (int)ntext.len, (const char *)ntext.data);
            /* the same values: the same bytes, and (where no name changed,
             * @was) the same dump */
            values_of(&old_blob, &ov);
            values_of(&new_blob, &nv);
            bool names_kept = !renames(&nm);
            if (!same_data(&old_blob, &new_blob) || nv.len == 0 ||
                (names_kept && (ov.len != nv.len || memcmp(ov.data, nv.data, ov.len) != 0)))
                FAILF("pair %d: compatible, upgraded, but the values changed:\n%.*s---\n%.*s", pair,
                      (int)ov.len, (const char *)ov.data, (int)nv.len, (const char *)nv.data);
        }
        blobc_schema_free(os);
        blobc_schema_free(ns);
    }
    blobc_buffer_free(&otext);
    blobc_buffer_free(&ntext);
    blobc_buffer_free(&data);
    blobc_buffer_free(&report);
    blobc_buffer_free(&old_blob);
    blobc_buffer_free(&new_blob);
    blobc_buffer_free(&ov);
    blobc_buffer_free(&nv);
    /* both verdicts come up often: neither side is tested by chance only */
    if (compatible < PAIRS / 5 || incompatible < PAIRS / 5)
        FAILF("%d compatible and %d incompatible pairs of %d", compatible, incompatible, PAIRS);
}

TEST_MAIN_BEGIN("evolve_random")
RUN(compatible_means_upgrade_keeps_every_value);
TEST_MAIN_END
