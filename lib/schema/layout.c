/*
 * schema_layout.c - the schema model's engine: builtin type singletons,
 * the schema object, name indexes, the C layout rules (docs/FORMAT.md,
 * "Layout of values"), the schema hash (docs/FORMAT.md, "Schema hash")
 * and lookups used on the baking and verification hot paths.
 *
 * blobc_schema_layout is the single gate every schema passes, parsed or
 * decoded from an untrusted type section, so it re-checks everything the
 * parser guarantees structurally and never recurses on the type graph:
 * depth-first walks use explicit stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <xxhash.h>

#include "common/scalar.h"
#include "schema/lexer.h"
#include "common/util.h"

/* ---- builtin types ---- */

#define BUILTIN(k, nm, sz) [k] = {.kind = k, .size = sz, .align = sz, .name = nm}
static const blobc_type builtins[BLOBC_KIND_COUNT + 1] = {
    BUILTIN(BLOBC_KIND_BOOL, "bool", 1), BUILTIN(BLOBC_KIND_I8, "i8", 1),
    BUILTIN(BLOBC_KIND_U8, "u8", 1),     BUILTIN(BLOBC_KIND_I16, "i16", 2),
    BUILTIN(BLOBC_KIND_U16, "u16", 2),   BUILTIN(BLOBC_KIND_I32, "i32", 4),
    BUILTIN(BLOBC_KIND_U32, "u32", 4),   BUILTIN(BLOBC_KIND_F32, "f32", 4),
    BUILTIN(BLOBC_KIND_I64, "i64", 8),   BUILTIN(BLOBC_KIND_U64, "u64", 8),
    BUILTIN(BLOBC_KIND_F64, "f64", 8),
    [BLOBC_KIND_STRING] = {.kind = BLOBC_KIND_STRING, .size = 8, .align = 4, .name = "string"},
};

static bool kind_valid(int k) { return k >= BLOBC_KIND_BOOL && k <= BLOBC_KIND_PTR; }

const blobc_type *blobc_builtin_type(blobc_kind kind) {
    if (blobc_kind_is_scalar(kind) || kind == BLOBC_KIND_STRING) return &builtins[kind];
    return NULL;
}

static bool is_builtin(const blobc_type *t) {
    return kind_valid((int)t->kind) && blobc_builtin_type(t->kind) == t;
}

const char *blobc_kind_name(blobc_kind kind) {
    switch (kind) {
    case BLOBC_KIND_ENUM: return "enum";
    case BLOBC_KIND_STRUCT: return "struct";
    case BLOBC_KIND_ARRAY: return "array";
    case BLOBC_KIND_FIXED: return "fixed array";
    case BLOBC_KIND_PTR: return "pointer";
    default:
        if (blobc_kind_is_scalar(kind) || kind == BLOBC_KIND_STRING) return builtins[kind].name;
        return "invalid kind";
    }
}

bool blobc_kind_is_scalar(blobc_kind kind) {
    return kind >= BLOBC_KIND_BOOL && kind <= BLOBC_KIND_F64;
}
bool blobc_kind_is_integer(blobc_kind kind) {
    return kind >= BLOBC_KIND_I8 && kind <= BLOBC_KIND_U64;
}
bool blobc_kind_is_signed(blobc_kind kind) {
    return kind == BLOBC_KIND_I8 || kind == BLOBC_KIND_I16 || kind == BLOBC_KIND_I32 ||
           kind == BLOBC_KIND_I64;
}

/* ---- name tables: open addressing over an item array, in the arena ---- */

typedef struct name_table {
    size_t mask;       /* slot count - 1 */
    uint32_t *slots;   /* item index + 1; 0 = empty */
} name_table;

typedef const char *(*name_fn)(const void *items, size_t i);

static uint32_t name_hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* `stored` (NUL-terminated) equals key[0..len): never reads stored past its NUL. */
static inline bool name_eq(const char *stored, const char *key, size_t len) {
    size_t i = 0;
    while (i < len && stored[i] != '\0' && stored[i] == key[i]) i++;
    return i == len && stored[len] == '\0';
}

static size_t table_find(const name_table *t, const void *items, name_fn fn, const char *key,
                         size_t len) {
    size_t i = name_hash(key, len) & t->mask;
    for (;;) {
        uint32_t s = t->slots[i];
        if (!s) return SIZE_MAX;
        if (name_eq(fn(items, s - 1), key, len)) return s - 1;
        i = (i + 1) & t->mask;
    }
}

enum { TABLE_OK, TABLE_NOMEM, TABLE_DUP };

/* Indexes n items by name; on a duplicate returns TABLE_DUP with the two
 * item indexes in *first and *second. */
static int table_build(blobc_arena *a, name_table *t, const void *items, size_t n, name_fn fn,
                       size_t *first, size_t *second) {
    size_t cap = 8;
    while (cap < n * 2) {
        if (cap > SIZE_MAX / 4) return TABLE_NOMEM;
        cap *= 2;
    }
    t->slots = blobc_arena_array(a, cap, sizeof *t->slots);
    if (!t->slots) return TABLE_NOMEM;
    t->mask = cap - 1;
    for (size_t k = 0; k < n; k++) {
        const char *name = fn(items, k);
        size_t len = strlen(name);
        size_t i = name_hash(name, len) & t->mask;
        while (t->slots[i]) {
            if (name_eq(fn(items, t->slots[i] - 1), name, len)) {
                *first = t->slots[i] - 1;
                *second = k;
                return TABLE_DUP;
            }
            i = (i + 1) & t->mask;
        }
        t->slots[i] = (uint32_t)(k + 1);
    }
    return TABLE_OK;
}

static const char *named_name(const void *items, size_t i) {
    return ((blobc_type *const *)items)[i]->name;
}
static const char *field_name(const void *items, size_t i) {
    return ((const blobc_field *)items)[i].name;
}
static const char *member_name(const void *items, size_t i) {
    return ((const blobc_enum_value *)items)[i].name;
}

/* What layout attaches to a struct or enum (blobc_type.lookup). */
typedef struct value_entry {
    uint64_t value;
    uint32_t index;
} value_entry;

typedef struct type_lookup {
    name_table names;        /* fields or members by name */
    value_entry *sorted;     /* ENUM: members by value, ascending */
} type_lookup;

typedef struct schema_names {
    name_table table;
    size_t count;            /* s->nnamed when built */
} schema_names;

/* ---- the schema object ---- */

blobc_schema *blobc_schema_new(const char *filename) {
    blobc_schema *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    blobc_arena_init(&s->arena);
    s->filename = blobc_arena_strndup(&s->arena, filename ? filename : "",
                                      filename ? strlen(filename) : 0);
    if (!s->filename) {
        free(s);
        return NULL;
    }
    return s;
}

void blobc_schema_free(blobc_schema *s) {
    if (!s) return;
    free(s->named);
    blobc_arena_free(&s->arena);
    free(s);
}

blobc_status blobc_schema_add_named(blobc_schema *s, blobc_type *t, blobc_error *err) {
    if (!t || (t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_ENUM) || !t->name ||
        !t->name[0])
        return blobc_schema_err(s, t ? t->pos : (blobc_pos){0, 0}, err,
                                "a named type must be a struct or an enum with a name");
    if (s->nnamed == s->named_cap) {
        size_t cap = s->named_cap ? s->named_cap * 2 : 16;
        size_t bytes;
        if (!blobc_mul_ok(cap, sizeof *s->named, &bytes)) return blobc_err_nomem(err);
        blobc_type **p = realloc(s->named, bytes);
        if (!p) return blobc_err_nomem(err);
        s->named = p;
        s->named_cap = cap;
    }
    s->named[s->nnamed++] = t;
    return BLOBC_OK;
}

const char *blobc_schema_filename(const blobc_schema *s) { return s && s->filename ? s->filename : ""; }
const blobc_type *blobc_schema_root(const blobc_schema *s) { return s ? s->root : NULL; }
size_t blobc_schema_count(const blobc_schema *s) { return s ? s->nnamed : 0; }
const blobc_type *blobc_schema_at(const blobc_schema *s, size_t i) {
    return s && i < s->nnamed ? s->named[i] : NULL;
}

const blobc_type *blobc_schema_find_len(const blobc_schema *s, const char *name, size_t len) {
    if (!s || !name) return NULL;
    const schema_names *sn = s->names;
    if (sn && sn->count == s->nnamed) {
        size_t i = table_find(&sn->table, s->named, named_name, name, len);
        return i == SIZE_MAX ? NULL : s->named[i];
    }
    for (size_t i = 0; i < s->nnamed; i++)
        if (name_eq(s->named[i]->name, name, len)) return s->named[i];
    return NULL;
}

const blobc_type *blobc_schema_find(const blobc_schema *s, const char *name) {
    return name ? blobc_schema_find_len(s, name, strlen(name)) : NULL;
}

static const char *first_at(blobc_pos pos, char *buf, size_t cap) {
    if (!pos.line) return "";
    snprintf(buf, cap, " (first declared at line %u)", (unsigned)pos.line);
    return buf;
}

blobc_status blobc_schema_index_names(blobc_schema *s, blobc_error *err) {
    const schema_names *old = s->names;
    if (old && old->count == s->nnamed) return BLOBC_OK;
    for (size_t i = 0; i < s->nnamed; i++) {
        const blobc_type *t = s->named[i];
        if ((t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_ENUM) || !t->name || !t->name[0])
            return blobc_schema_err(s, t->pos, err,
                                    "a named type must be a struct or an enum with a name");
    }
    schema_names *sn = blobc_arena_alloc(&s->arena, sizeof *sn);
    if (!sn) return blobc_err_nomem(err);
    size_t a, b;
    int rc = table_build(&s->arena, &sn->table, s->named, s->nnamed, named_name, &a, &b);
    if (rc == TABLE_NOMEM) return blobc_err_nomem(err);
    if (rc == TABLE_DUP) {
        char at[64];
        return blobc_schema_err(s, s->named[b]->pos, err, "duplicate type name '%s'%s",
                                s->named[b]->name, first_at(s->named[a]->pos, at, sizeof at));
    }
    sn->count = s->nnamed;
    s->names = sn;
    return BLOBC_OK;
}

/* ---- lookups on the hot path ---- */

/* Below this many fields or members a linear scan beats hashing the key. */
#define LINEAR_MAX 8

const blobc_field *blobc_struct_find_field(const blobc_type *st, const char *name, size_t len) {
    if (!st || st->kind != BLOBC_KIND_STRUCT || !name || len == 0) return NULL;
    const type_lookup *lk = st->lookup;
    if (st->nfields <= LINEAR_MAX || !lk) {
        for (uint32_t i = 0; i < st->nfields; i++) {
            const char *fn = st->fields[i].name;
            if (fn[0] == name[0] && name_eq(fn, name, len)) return &st->fields[i];
        }
        return NULL;
    }
    size_t i = table_find(&lk->names, st->fields, field_name, name, len);
    return i == SIZE_MAX ? NULL : &st->fields[i];
}

const blobc_enum_value *blobc_enum_find_name(const blobc_type *et, const char *name, size_t len) {
    if (!et || et->kind != BLOBC_KIND_ENUM || !name || len == 0) return NULL;
    const type_lookup *lk = et->lookup;
    if (et->nvalues <= LINEAR_MAX || !lk) {
        for (uint32_t i = 0; i < et->nvalues; i++)
            if (name_eq(et->values[i].name, name, len)) return &et->values[i];
        return NULL;
    }
    size_t i = table_find(&lk->names, et->values, member_name, name, len);
    return i == SIZE_MAX ? NULL : &et->values[i];
}

const blobc_enum_value *blobc_enum_find_value(const blobc_type *et, uint64_t bits) {
    if (!et || et->kind != BLOBC_KIND_ENUM) return NULL;
    const type_lookup *lk = et->lookup;
    if (et->nvalues <= LINEAR_MAX || !lk || !lk->sorted) {
        for (uint32_t i = 0; i < et->nvalues; i++)
            if (et->values[i].value == bits) return &et->values[i];
        return NULL;
    }
    size_t lo = 0, hi = et->nvalues;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t v = lk->sorted[mid].value;
        if (v == bits) return &et->values[lk->sorted[mid].index];
        if (v < bits) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* ---- spelling ---- */

typedef struct spell_out {
    char *buf;
    size_t cap;
    size_t n;
} spell_out;

static void sp_puts(spell_out *o, const char *s) {
    for (; *s; s++) {
        if (o->n + 1 < o->cap) o->buf[o->n] = *s;
        o->n++;
    }
}

static bool is_anonymous(const blobc_type *t) {
    return t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_FIXED ||
           t->kind == BLOBC_KIND_PTR;
}

size_t blobc_type_spell(const blobc_type *t, char *buf, size_t cap) {
    /* Composites form a chain ending at a named or builtin type; a chain
     * deeper than this (only a hostile type section builds one) is cut. */
    enum { MAX_LEVELS = 128 };
    const blobc_type *levels[MAX_LEVELS];
    size_t nl = 0;
    spell_out o = {buf, cap, 0};
    while (t && is_anonymous(t) && nl < MAX_LEVELS) {
        levels[nl++] = t;
        t = t->elem;
    }
    for (size_t i = 0; i < nl; i++) sp_puts(&o, levels[i]->kind == BLOBC_KIND_PTR ? "*" : "[");
    if (!t) sp_puts(&o, "?");
    else if (is_anonymous(t)) sp_puts(&o, "...");
    else if (t->name) sp_puts(&o, t->name);
    else sp_puts(&o, blobc_kind_name(t->kind));
    for (size_t i = nl; i-- > 0;) {
        if (levels[i]->kind == BLOBC_KIND_ARRAY) {
            sp_puts(&o, "]");
        } else if (levels[i]->kind == BLOBC_KIND_FIXED) {
            char num[24];
            snprintf(num, sizeof num, "; %u]", (unsigned)levels[i]->count);
            sp_puts(&o, num);
        }
    }
    if (cap) buf[o.n < cap ? o.n : cap - 1] = '\0';
    return o.n;
}

/* "struct Room", "enum Kind" or the spelling of a composite, for messages. */
static const char *label(const blobc_type *t, char *buf, size_t cap) {
    if (t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_ENUM)
        snprintf(buf, cap, "%s %s", blobc_kind_name(t->kind), t->name ? t->name : "(unnamed)");
    else
        blobc_type_spell(t, buf, cap);
    return buf;
}

/* ---- layout ---- */

enum {
    ST_MASK = 3,
    ST_NEW = 0,
    ST_BUSY = 1,        /* on the DFS stack */
    ST_DONE = 2,
    CHAIN_WALK = 4,     /* on the composite chain being checked */
    CHAIN_OK = 8        /* the composite chain below ends at a non-composite */
};

typedef struct frame {
    blobc_type *t;
    uint32_t next;      /* next child to visit */
} frame;

typedef struct layout_ctx {
    blobc_schema *s;
    blobc_error *err;
    frame *stack;
    size_t nstack, stackcap;
    const blobc_type **work;   /* types still to lay out */
    size_t nwork, workcap;
    blobc_type **chain;        /* scratch for the chain check */
    size_t nchain, chaincap;
} layout_ctx;

static bool vec_push(void **v, size_t *n, size_t *cap, size_t elem, const void *item) {
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        size_t bytes;
        if (!blobc_mul_ok(nc, elem, &bytes)) return false;
        void *p = realloc(*v, bytes);
        if (!p) return false;
        *v = p;
        *cap = nc;
    }
    memcpy((char *)*v + *n * elem, item, elem);
    (*n)++;
    return true;
}

static inline unsigned state(const blobc_type *t) { return t->internal & ST_MASK; }
static inline void set_state(blobc_type *t, unsigned st) {
    t->internal = (t->internal & ~(uint32_t)ST_MASK) | st;
}

static uint32_t scalar_size(blobc_kind k) { return builtins[k].size; }

static uint64_t int_max(blobc_kind k) {
    uint32_t bits = 8 * scalar_size(k);
    uint64_t umax = bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
    return blobc_kind_is_signed(k) ? umax >> 1 : umax;
}

/* Whether the sign-extended bits are a value of the integer kind. */
static bool value_fits(blobc_kind k, uint64_t v) {
    uint64_t max = int_max(k);
    if (!blobc_kind_is_signed(k)) return v <= max;
    return v <= max || v >= (uint64_t)0 - max - 1;
}

static void format_int(char *buf, size_t cap, blobc_kind k, uint64_t v) {
    if (blobc_kind_is_signed(k)) snprintf(buf, cap, "%lld", (long long)(int64_t)v);
    else snprintf(buf, cap, "%llu", (unsigned long long)v);
}

static int cmp_value_entry(const void *a, const void *b) {
    const value_entry *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Indexes a struct's fields or an enum's members by name; a duplicate
 * name is an error at the second one. */
static blobc_status index_items(layout_ctx *L, const blobc_type *t, type_lookup **out) {
    bool st = t->kind == BLOBC_KIND_STRUCT;
    const void *items = st ? (const void *)t->fields : (const void *)t->values;
    size_t n = st ? t->nfields : t->nvalues;
    type_lookup *lk = blobc_arena_alloc(&L->s->arena, sizeof *lk);
    if (!lk) return blobc_err_nomem(L->err);
    size_t a, b;
    int rc = table_build(&L->s->arena, &lk->names, items, n, st ? field_name : member_name, &a, &b);
    if (rc == TABLE_NOMEM) return blobc_err_nomem(L->err);
    if (rc == TABLE_DUP) {
        char at[64];
        blobc_pos first = st ? t->fields[a].pos : t->values[a].pos;
        blobc_pos second = st ? t->fields[b].pos : t->values[b].pos;
        return blobc_schema_err(L->s, second, L->err, "duplicate %s '%s' in %s %s%s",
                                st ? "field" : "member", st ? t->fields[b].name : t->values[b].name,
                                blobc_kind_name(t->kind), t->name ? t->name : "(unnamed)",
                                first_at(first, at, sizeof at));
    }
    *out = lk;
    return BLOBC_OK;
}

static blobc_status lay_enum(layout_ctx *L, blobc_type *t) {
    blobc_schema *s = L->s;
    const blobc_type *base = t->elem;
    if (!base || !blobc_kind_is_integer(base->kind))
        return blobc_schema_err(s, t->pos, L->err,
                                "enum %s: the base must be an integer type (i8..u64)",
                                t->name ? t->name : "(unnamed)");
    if (!is_builtin(base)) {
        blobc_type *b = (blobc_type *)base;
        b->size = b->align = scalar_size(base->kind);
        set_state(b, ST_DONE);
    }
    blobc_kind bk = base->kind;
    if (t->nvalues == 0 || !t->values)
        return blobc_schema_err(s, t->pos, L->err, "enum %s has no members",
                                t->name ? t->name : "(unnamed)");
    for (uint32_t i = 0; i < t->nvalues; i++) {
        const blobc_enum_value *v = &t->values[i];
        if (!v->name || !v->name[0])
            return blobc_schema_err(s, t->pos, L->err, "enum %s: member %u has no name",
                                    t->name ? t->name : "(unnamed)", (unsigned)i);
        if (!value_fits(bk, v->value)) {
            char num[32];
            format_int(num, sizeof num, bk, v->value);
            return blobc_schema_err(s, v->pos, L->err,
                                    "enum %s, member '%s': value %s is out of %s range %s",
                                    t->name ? t->name : "(unnamed)", v->name, num,
                                    blobc_kind_name(bk), blobc_int_range_text(bk));
        }
    }
    type_lookup *lk;
    if (index_items(L, t, &lk)) return BLOBC_EINPUT;
    lk->sorted = blobc_arena_array(&s->arena, t->nvalues, sizeof *lk->sorted);
    if (!lk->sorted) return blobc_err_nomem(L->err);
    for (uint32_t i = 0; i < t->nvalues; i++) {
        lk->sorted[i].value = t->values[i].value;
        lk->sorted[i].index = i;
    }
    qsort(lk->sorted, t->nvalues, sizeof *lk->sorted, cmp_value_entry);
    for (uint32_t i = 1; i < t->nvalues; i++) {
        if (lk->sorted[i].value != lk->sorted[i - 1].value) continue;
        const blobc_enum_value *x = &t->values[lk->sorted[i - 1].index];
        const blobc_enum_value *y = &t->values[lk->sorted[i].index];
        char num[32];
        format_int(num, sizeof num, bk, y->value);
        return blobc_schema_err(s, y->pos, L->err,
                                "enum %s: members '%s' and '%s' both have the value %s",
                                t->name ? t->name : "(unnamed)", x->name, y->name, num);
    }
    t->size = t->align = scalar_size(bk);
    t->lookup = lk;
    set_state(t, ST_DONE);
    return BLOBC_OK;
}

/* Checks that the chain of composites below an array or pointer ends at a
 * struct, enum, scalar or string instead of looping back into itself
 * (impossible to write in the language; a decoded section could). */
static blobc_status check_chain(layout_ctx *L, blobc_type *top) {
    L->nchain = 0;
    blobc_type *x = top;
    while (x && is_anonymous(x) && !(x->internal & CHAIN_OK)) {
        if (x->internal & CHAIN_WALK)
            return blobc_schema_err(L->s, (blobc_pos){0, 0}, L->err,
                                    "%s type contains itself without a struct in between",
                                    blobc_kind_name(top->kind));
        x->internal |= CHAIN_WALK;
        if (!vec_push((void **)&L->chain, &L->nchain, &L->chaincap, sizeof x, &x))
            return blobc_err_nomem(L->err);
        x = (blobc_type *)x->elem;
    }
    for (size_t i = 0; i < L->nchain; i++)
        L->chain[i]->internal = (L->chain[i]->internal & ~(uint32_t)CHAIN_WALK) | CHAIN_OK;
    return BLOBC_OK;
}

/* Starts laying out t: leaves and out-of-line composites finish at once;
 * structs and fixed arrays go on the stack until their inline parts are done. */
static blobc_status enter(layout_ctx *L, const blobc_type *ct) {
    blobc_schema *s = L->s;
    if (is_builtin(ct)) return BLOBC_OK;
    blobc_type *t = (blobc_type *)ct;
    if (state(t) == ST_DONE) return BLOBC_OK;
    if (!kind_valid((int)t->kind))
        return blobc_schema_err(s, t->pos, L->err, "type has an invalid kind %d", (int)t->kind);
    switch (t->kind) {
    case BLOBC_KIND_STRING:
        t->size = 8;
        t->align = 4;
        set_state(t, ST_DONE);
        return BLOBC_OK;
    case BLOBC_KIND_ENUM: return lay_enum(L, t);
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
        if (!t->elem)
            return blobc_schema_err(s, t->pos, L->err, "%s type has no element type",
                                    blobc_kind_name(t->kind));
        if (check_chain(L, t)) return BLOBC_EINPUT;
        t->size = t->kind == BLOBC_KIND_ARRAY ? 8 : 4;
        t->align = 4;
        set_state(t, ST_DONE);
        /* The element's size does not matter here; it is laid out later,
         * which is what allows recursion through [T] and *T. */
        if (!vec_push((void **)&L->work, &L->nwork, &L->workcap, sizeof t->elem, &t->elem))
            return blobc_err_nomem(L->err);
        return BLOBC_OK;
    case BLOBC_KIND_FIXED:
        if (!t->elem)
            return blobc_schema_err(s, t->pos, L->err, "fixed array type has no element type");
        if (t->count == 0 || t->count > BLOBC_MAX_FIXED_COUNT) {
            char sp[96];
            blobc_type_spell(t, sp, sizeof sp);
            return blobc_schema_err(s, t->pos, L->err,
                                    "fixed array %s: the length must be from 1 to %u", sp,
                                    BLOBC_MAX_FIXED_COUNT);
        }
        break;
    case BLOBC_KIND_STRUCT: {
        const char *nm = t->name ? t->name : "(unnamed)";
        if (t->nfields == 0 || !t->fields)
            return blobc_schema_err(s, t->pos, L->err,
                                    "struct %s has no fields (a struct needs at least one)", nm);
        for (uint32_t i = 0; i < t->nfields; i++) {
            const blobc_field *f = &t->fields[i];
            if (!f->name || !f->name[0])
                return blobc_schema_err(s, t->pos, L->err, "struct %s: field %u has no name", nm,
                                        (unsigned)i);
            if (!f->type)
                return blobc_schema_err(s, f->pos, L->err, "struct %s: field '%s' has no type",
                                        nm, f->name);
            if (f->def.present && !blobc_kind_is_scalar(f->type->kind) &&
                f->type->kind != BLOBC_KIND_ENUM && f->type->kind != BLOBC_KIND_STRING)
                return blobc_schema_err(s, f->pos, L->err,
                                        "struct %s: field '%s' cannot have a default", nm,
                                        f->name);
        }
        type_lookup *lk;
        if (index_items(L, t, &lk)) return BLOBC_EINPUT;
        t->lookup = lk;
        break;
    }
    default:
        /* A scalar object that is not the singleton (a decoder may make its own). */
        t->size = t->align = scalar_size(t->kind);
        set_state(t, ST_DONE);
        return BLOBC_OK;
    }
    frame fr = {t, 0};
    if (!vec_push((void **)&L->stack, &L->nstack, &L->stackcap, sizeof fr, &fr))
        return blobc_err_nomem(L->err);
    set_state(t, ST_BUSY);
    return BLOBC_OK;
}

/* The stack from index k up holds a chain of inline containment that
 * leads back to stack[k]: name it like "A.b -> B.a -> A". */
static blobc_status cycle_error(layout_ctx *L, size_t k) {
    blobc_buffer b = {0};
    const blobc_type *first = NULL;
    blobc_pos pos = {0, 0};
    for (size_t i = k; i < L->nstack; i++) {
        const blobc_type *t = L->stack[i].t;
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        const blobc_field *f = &t->fields[L->stack[i].next - 1];
        if (!first) {
            first = t;
            pos = f->pos;
        }
        blobc_buf_printf(&b, "%s.%s -> ", t->name ? t->name : "(unnamed)", f->name);
    }
    blobc_status st;
    if (!first) {
        st = blobc_schema_err(L->s, pos, L->err, "a fixed array type contains itself");
    } else {
        const char *nm = first->name ? first->name : "(unnamed)";
        st = blobc_schema_err(L->s, pos, L->err,
                              "struct %s contains itself inline: %.*s%s; use *%s or [%s]", nm,
                              (int)(b.data ? b.len : 0), b.data ? (const char *)b.data : "", nm,
                              nm, nm);
    }
    blobc_buffer_free(&b);
    return st;
}

/* t is on top of the stack. A composite has no position of its own: use
 * that of the field that contains it. */
static blobc_status too_large(layout_ctx *L, const blobc_type *t) {
    char lb[96];
    blobc_pos pos = t->pos;
    for (size_t i = L->nstack - 1; i-- > 0 && !pos.line;)
        if (L->stack[i].t->kind == BLOBC_KIND_STRUCT)
            pos = L->stack[i].t->fields[L->stack[i].next - 1].pos;
    return blobc_schema_err(L->s, pos, L->err, "%s%s is too large (over %u bytes)",
                            t->kind == BLOBC_KIND_FIXED ? "fixed array " : "",
                            label(t, lb, sizeof lb), BLOBC_MAX_TYPE_SIZE);
}

/* All inline parts of t are laid out: compute its size and alignment. */
static blobc_status finish(layout_ctx *L, blobc_type *t) {
    if (t->kind == BLOBC_KIND_FIXED) {
        uint64_t size = (uint64_t)t->count * t->elem->size;
        if (size > BLOBC_MAX_TYPE_SIZE) return too_large(L, t);
        t->size = (uint32_t)size;
        t->align = t->elem->align;
        return BLOBC_OK;
    }
    uint64_t off = 0;
    uint32_t align = 1;
    for (uint32_t i = 0; i < t->nfields; i++) {
        blobc_field *f = (blobc_field *)&t->fields[i];
        uint32_t fa = f->type->align;
        off = (off + fa - 1) & ~(uint64_t)(fa - 1);
        if (off > BLOBC_MAX_TYPE_SIZE) return too_large(L, t);
        f->offset = (uint32_t)off;
        off += f->type->size;
        if (fa > align) align = fa;
    }
    if (t->align_attr) {
        const char *nm = t->name ? t->name : "(unnamed)";
        if (!blobc_is_pow2(t->align_attr) || t->align_attr > BLOBC_MAX_ALIGN)
            return blobc_schema_err(L->s, t->pos, L->err,
                                    "struct %s: @align(%u) is not a power of two from 1 to %u", nm,
                                    (unsigned)t->align_attr, BLOBC_MAX_ALIGN);
        if (t->align_attr < align)
            return blobc_schema_err(L->s, t->pos, L->err,
                                    "struct %s: @align(%u) is below its natural alignment %u; "
                                    "@align can only raise alignment",
                                    nm, (unsigned)t->align_attr, (unsigned)align);
        align = t->align_attr;
    }
    off = (off + align - 1) & ~(uint64_t)(align - 1);
    if (off > BLOBC_MAX_TYPE_SIZE) return too_large(L, t);
    t->size = (uint32_t)off;
    t->align = align;
    return BLOBC_OK;
}

/* Lays out t and everything it contains inline, depth first. */
static blobc_status visit(layout_ctx *L, const blobc_type *t) {
    if (!t) return BLOBC_OK;
    if (enter(L, t)) return BLOBC_EINPUT;
    while (L->nstack) {
        frame *fr = &L->stack[L->nstack - 1];
        blobc_type *cur = fr->t;
        const blobc_type *child = NULL;
        if (cur->kind == BLOBC_KIND_STRUCT && fr->next < cur->nfields)
            child = cur->fields[fr->next].type;
        else if (cur->kind == BLOBC_KIND_FIXED && fr->next == 0)
            child = cur->elem;
        if (child) {
            fr->next++;
            if (!is_builtin(child) && state(child) == ST_BUSY) {
                size_t k = L->nstack;
                while (k-- > 0 && L->stack[k].t != child) {}
                return cycle_error(L, k);
            }
            if (enter(L, child)) return BLOBC_EINPUT;
            continue;
        }
        if (finish(L, cur)) return BLOBC_EINPUT;
        set_state(cur, ST_DONE);
        L->nstack--;
    }
    return BLOBC_OK;
}

blobc_status blobc_schema_layout(blobc_schema *s, blobc_error *err) {
    blobc_error local;
    if (!err) err = &local;
    if (blobc_schema_index_names(s, err)) return err->status;
    layout_ctx L;
    memset(&L, 0, sizeof L);
    L.s = s;
    L.err = err;
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; i < s->nnamed && st == BLOBC_OK; i++) st = visit(&L, s->named[i]);
    if (st == BLOBC_OK && s->root) {
        if (s->root->kind != BLOBC_KIND_STRUCT) {
            char lb[96];
            st = blobc_schema_err(s, s->root->pos, err, "the root must be a struct, not %s",
                                  label(s->root, lb, sizeof lb));
        } else {
            st = visit(&L, s->root);
        }
    }
    for (size_t i = 0; i < L.nwork && st == BLOBC_OK; i++) st = visit(&L, L.work[i]);
    free(L.stack);
    free(L.work);
    free(L.chain);
    return st;
}

/* ---- schema hash ---- */

typedef struct hash_ctx {
    blobc_buffer out;
    bool ok;
    blobc_ptrset seen;         /* numbered types */
    blobc_hash_rec *rec;       /* where each numbered type's bytes lie, or NULL */
    uint32_t *nums;            /* with rec: the number of each open frame's type */
    size_t numcap;
} hash_ctx;

static void h_u8(hash_ctx *h, uint8_t v) { h->ok = h->ok && blobc_buf_putc(&h->out, (char)v); }
static void h_u32(hash_ctx *h, uint32_t v) {
    uint8_t b[4];
    blobc_st32(b, v);
    h->ok = h->ok && blobc_buf_append(&h->out, b, 4);
}
static void h_u64(hash_ctx *h, uint64_t v) {
    uint8_t b[8];
    blobc_st64(b, v);
    h->ok = h->ok && blobc_buf_append(&h->out, b, 8);
}

static size_t ps_slot(const blobc_ptrset *ps, const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(x ^ (x >> 32)) & (ps->cap - 1);
    while (ps->keys[i] && ps->keys[i] != p) i = (i + 1) & (ps->cap - 1);
    return i;
}

int blobc_ptrset_add(blobc_ptrset *ps, const void *p, uint32_t *num) {
    if (ps->count * 2 >= ps->cap) {
        size_t ncap = ps->cap ? ps->cap * 2 : 64;
        blobc_ptrset grown = {calloc(ncap, sizeof *ps->keys), calloc(ncap, sizeof *ps->nums),
                              ncap, ps->count};
        if (!grown.keys || !grown.nums) {
            blobc_ptrset_free(&grown);
            return -1;
        }
        for (size_t i = 0; i < ps->cap; i++) {
            if (!ps->keys[i]) continue;
            size_t j = ps_slot(&grown, ps->keys[i]);
            grown.keys[j] = ps->keys[i];
            grown.nums[j] = ps->nums[i];
        }
        blobc_ptrset_free(ps);
        *ps = grown;
    }
    size_t i = ps_slot(ps, p);
    if (ps->keys[i]) {
        *num = ps->nums[i];
        return 0;
    }
    ps->keys[i] = p;
    ps->nums[i] = *num = (uint32_t)ps->count++;
    return 1;
}

void blobc_ptrset_free(blobc_ptrset *ps) {
    free(ps->keys);
    free(ps->nums);
    memset(ps, 0, sizeof *ps);
}

static void h_enum_values(hash_ctx *h, const blobc_type *t) {
    const type_lookup *lk = t->lookup;
    h_u32(h, t->nvalues);
    if (lk && lk->sorted) {
        for (uint32_t i = 0; i < t->nvalues; i++) h_u64(h, lk->sorted[i].value);
        return;
    }
    /* Not laid out: sort a copy. */
    value_entry *v = t->nvalues ? malloc(t->nvalues * sizeof *v) : NULL;
    if (t->nvalues && !v) {
        h->ok = false;
        return;
    }
    for (uint32_t i = 0; i < t->nvalues; i++) {
        v[i].value = t->values[i].value;
        v[i].index = i;
    }
    if (v) qsort(v, t->nvalues, sizeof *v, cmp_value_entry);
    for (uint32_t i = 0; i < t->nvalues; i++) h_u64(h, v[i].value);
    free(v);
}

/* Writes a reference to t; returns true when t's children must follow. */
static bool h_ref(hash_ctx *h, const blobc_type *t) {
    if (!t) {
        h_u8(h, 0);
        return false;
    }
    bool leaf = blobc_kind_is_scalar(t->kind) || t->kind == BLOBC_KIND_STRING ||
                !kind_valid((int)t->kind);
    if (!leaf) {
        uint32_t n;
        int added = blobc_ptrset_add(&h->seen, t, &n);
        if (added < 0) {
            h->ok = false;
            return false;
        }
        if (!added) {
            h_u8(h, 0xFF);
            if (h->rec) {
                blobc_hash_ref r = {h->out.len, n};
                h->ok = h->ok && vec_push((void **)&h->rec->refs, &h->rec->nrefs,
                                          &h->rec->refcap, sizeof r, &r);
            }
            h_u32(h, n);
            return false;
        }
        if (h->rec) {
            blobc_hash_node nd = {t, h->out.len, 0};
            h->ok = h->ok && vec_push((void **)&h->rec->nodes, &h->rec->nnodes,
                                      &h->rec->nodecap, sizeof nd, &nd);
        }
    }
    h_u8(h, (uint8_t)t->kind);
    h_u32(h, t->size);
    h_u32(h, t->align);
    switch (t->kind) {
    case BLOBC_KIND_ENUM:
        h_u8(h, t->elem ? (uint8_t)t->elem->kind : 0);
        h_enum_values(h, t);
        if (h->rec && h->ok) h->rec->nodes[h->rec->nnodes - 1].end = h->out.len;
        return false;
    case BLOBC_KIND_STRUCT: h_u32(h, t->nfields); return true;
    case BLOBC_KIND_FIXED: h_u32(h, t->count); return true;
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR: return true;
    default: return false;
    }
}

/* Opens a frame for t, whose bytes begin; with a record, its number
 * (the node h_ref just added) goes on a parallel stack. */
static void h_push(hash_ctx *h, frame **stack, size_t *n, size_t *cap, const blobc_type *t) {
    frame fr = {(blobc_type *)t, 0};
    size_t nn = *n, ncap = h->numcap;
    uint32_t num = h->rec ? (uint32_t)(h->rec->nnodes - 1) : 0;
    h->ok = h->ok && vec_push((void **)stack, n, cap, sizeof fr, &fr);
    if (h->rec) h->ok = h->ok && vec_push((void **)&h->nums, &nn, &ncap, sizeof num, &num);
    h->numcap = ncap;
}

/* Closes the frame on top: with a record, the end of its type's bytes. */
static void h_pop(hash_ctx *h, size_t *n) {
    (*n)--;
    if (h->rec) h->rec->nodes[h->nums[*n]].end = h->out.len;
}

static uint64_t type_hash(const blobc_type *type, blobc_hash_rec *rec) {
    hash_ctx h;
    memset(&h, 0, sizeof h);
    h.ok = true;
    h.rec = rec;
    frame *stack = NULL;
    size_t n = 0, cap = 0;
    h.ok = blobc_buf_append(&h.out, "BLOBCTH1", 8);
    if (h_ref(&h, type)) h_push(&h, &stack, &n, &cap, type);
    while (h.ok && n) {
        frame *fr = &stack[n - 1];
        const blobc_type *t = fr->t;
        const blobc_type *child;
        if (t->kind == BLOBC_KIND_STRUCT) {
            if (fr->next >= t->nfields || !t->fields) {
                h_pop(&h, &n);
                continue;
            }
            const blobc_field *f = &t->fields[fr->next++];
            h_u32(&h, f->offset);
            child = f->type;
        } else {
            if (fr->next) {
                h_pop(&h, &n);
                continue;
            }
            fr->next = 1;
            child = t->elem;
        }
        if (h_ref(&h, child)) h_push(&h, &stack, &n, &cap, child);
    }
    uint64_t r = h.ok ? XXH3_64bits(h.out.data, h.out.len) : 0;
    if (rec && h.ok) {
        rec->bytes = h.out;
        h.out = (blobc_buffer){0};
    }
    if (rec && !h.ok) rec->failed = true;
    blobc_buffer_free(&h.out);
    blobc_ptrset_free(&h.seen);
    free(stack);
    free(h.nums);
    return r;
}

uint64_t blobc_type_hash(const blobc_type *type) { return type_hash(type, NULL); }

uint64_t blobc_type_hash_rec(const blobc_type *type, blobc_hash_rec *rec) {
    memset(rec, 0, sizeof *rec);
    return type_hash(type, rec);
}

void blobc_hash_rec_free(blobc_hash_rec *rec) {
    blobc_buffer_free(&rec->bytes);
    free(rec->nodes);
    free(rec->refs);
    memset(rec, 0, sizeof *rec);
}
