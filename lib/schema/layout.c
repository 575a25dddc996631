/*
 * layout.c - the C layout rules (docs/FORMAT.md, "Layout of values"):
 * size, alignment and field offsets of every type of a schema, and the
 * name and value indexes each struct and enum gets on the way.
 *
 * blobc_schema_layout is the single gate every schema passes, parsed or
 * decoded from an untrusted type section, so it re-checks everything the
 * parser guarantees structurally and never recurses on the type graph:
 * depth-first walks use explicit stacks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/kind.h"
#include "common/scalar.h"
#include "schema/names.h"

/* "struct Room", "enum Kind" or the spelling of a composite, for messages. */
static const char *label(const blobc_type *t, char *buf, size_t cap) {
    if (blobc_kind_is_named(t->kind))
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
    if (!blobc_grow(v, cap, *n + 1, elem)) return false;
    memcpy((char *)*v + *n * elem, item, elem);
    (*n)++;
    return true;
}

static inline unsigned state(const blobc_type *t) { return t->internal & ST_MASK; }
static inline void set_state(blobc_type *t, unsigned st) {
    t->internal = (t->internal & ~(uint32_t)ST_MASK) | st;
}

/* A struct or fixed array's inline depth: 1 + its deepest inline part's;
 * 0 for every other type (nothing or an offset inline). */
static inline uint32_t inline_depth(const blobc_type *t) {
    return blobc_is_builtin(t) ? 0 : t->internal >> BLOBC_TI_DEPTH_SHIFT;
}

/* What layout learns of a finished struct or fixed array: its depth, and
 * for a struct whether a value may leave out every field
 * (blobc_field_optional, answered without a walk). */
static blobc_status set_depth(layout_ctx *L, blobc_type *t, uint32_t below) {
    if (below >= BLOBC_MAX_NESTING) {
        char lb[96];
        return blobc_schema_err(L->s, t->pos, L->err,
                                "%s nests more than %u levels deep inline (structs and fixed "
                                "arrays held in place); a value of it could not be written as "
                                "text: hold a level by reference (*T) or in an array ([T])",
                                label(t, lb, sizeof lb), BLOBC_MAX_NESTING);
    }
    bool all_optional = t->kind == BLOBC_KIND_STRUCT;
    for (uint32_t i = 0; i < t->nfields && all_optional; i++)
        all_optional = blobc_field_optional(&t->fields[i]);
    t->internal = (t->internal & BLOBC_TI_FLAGS) | (all_optional ? BLOBC_TI_ALL_OPTIONAL : 0) |
                  (below + 1) << BLOBC_TI_DEPTH_SHIFT;
    return BLOBC_OK;
}

static uint32_t scalar_size(blobc_kind k) { return blobc_builtin_type(k)->size; }

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

static blobc_status lay_enum(layout_ctx *L, blobc_type *t) {
    blobc_schema *s = L->s;
    const blobc_type *base = t->elem;
    if (!base || !blobc_kind_is_integer(base->kind))
        return blobc_schema_err(s, t->pos, L->err,
                                "enum %s: the base must be an integer type (i8..u64)",
                                t->name ? t->name : "(unnamed)");
    if (!blobc_is_builtin(base)) {
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
    if (blobc_schema_index_items(L->s, t, L->err, &lk)) return BLOBC_EINPUT;
    lk->sorted = blobc_arena_array(&s->arena, t->nvalues, sizeof *lk->sorted);
    if (!lk->sorted) return blobc_err_nomem(L->err);
    for (uint32_t i = 0; i < t->nvalues; i++) {
        lk->sorted[i].value = t->values[i].value;
        lk->sorted[i].index = i;
    }
    qsort(lk->sorted, t->nvalues, sizeof *lk->sorted, blobc_value_entry_cmp);
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

/* A tagged union's member i: tagged once (its tag unlike the others'),
 * and, tagged by a field, with no field of that name in its struct (the
 * tag is the union's, not the member's). */
static blobc_status check_member_tag(layout_ctx *L, const blobc_type *t, uint32_t i) {
    const char *nm = t->name ? t->name : "(unnamed)";
    const blobc_field *f = &t->fields[i];
    if (t->by == BLOBC_UNION_BY_KEY) {
        if (f->tag || t->int_tags || t->tag_field || t->default_member)
            return blobc_schema_err(L->s, f->pos, L->err, "union %s is not tagged, but member "
                                    "'%s' has a tag", nm, f->name);
        return BLOBC_OK;
    }
    if (t->by == BLOBC_UNION_BY_FIELD ? !t->tag_field || !t->tag_field[0] : t->tag_field != NULL)
        return blobc_schema_err(L->s, t->pos, L->err, "union %s: a tag field is named exactly "
                                "when it is tagged by a field", nm);
    if (t->by != BLOBC_UNION_BY_FIELD && t->by != BLOBC_UNION_BY_TAG)
        return blobc_schema_err(L->s, t->pos, L->err, "union %s: unknown tagging %u", nm,
                                (unsigned)t->by);
    if (t->default_member > t->nfields)
        return blobc_schema_err(L->s, t->pos, L->err, "union %s: its default is member %u of %u",
                                nm, (unsigned)t->default_member, (unsigned)t->nfields);
    if (t->int_tags ? f->tag != NULL || t->by != BLOBC_UNION_BY_FIELD : !f->tag || !f->tag[0])
        return blobc_schema_err(L->s, f->pos, L->err, "union %s: member '%s' has no tag of the "
                                "union's sort", nm, f->name);
    for (uint32_t k = 0; k < i; k++) {
        const blobc_field *g = &t->fields[k];
        if (t->int_tags ? g->tag_value == f->tag_value : strcmp(g->tag, f->tag) == 0) {
            char place[BLOBC_PLACE_BUF];
            if (t->int_tags)
                return blobc_schema_err(L->s, f->pos, L->err, "union %s: members '%s' and '%s' "
                                        "have the same tag %lld (the first at %s)", nm, g->name,
                                        f->name, (long long)g->tag_value,
                                        blobc_schema_place(L->s, g->pos, place, sizeof place));
            return blobc_schema_err(L->s, f->pos, L->err, "union %s: members '%s' and '%s' have "
                                    "the same tag \"%s\" (the first at %s)", nm, g->name,
                                    f->name, f->tag,
                                    blobc_schema_place(L->s, g->pos, place, sizeof place));
        }
    }
    const blobc_type *m = f->type->elem;
    if (t->by == BLOBC_UNION_BY_FIELD &&
        blobc_struct_find_field(m, t->tag_field, strlen(t->tag_field)))
        return blobc_schema_err(L->s, f->pos, L->err, "union %s is tagged by the field \"%s\", "
                                "and member struct %s has a field of that name; the tag is the "
                                "union's (rename the field, or tag the union by another)",
                                nm, t->tag_field, m->name ? m->name : "(unnamed)");
    return BLOBC_OK;
}

/* A union is an 8-byte value whatever its members: it is done at once,
 * and its members' payloads (out of line, like *T targets) are laid out
 * later, which allows recursion through unions. Each member is a *Struct
 * named after its struct, at BLOBC_UNION_REF. */
static blobc_status lay_union(layout_ctx *L, blobc_type *t) {
    const char *nm = t->name ? t->name : "(unnamed)";
    if (t->nfields == 0 || !t->fields)
        return blobc_schema_err(L->s, t->pos, L->err,
                                "union %s has no members (a union needs at least one)", nm);
    for (uint32_t i = 0; i < t->nfields; i++) {
        blobc_field *f = (blobc_field *)&t->fields[i];
        const blobc_type *m = f->type;
        if (!m || m->kind != BLOBC_KIND_PTR || !m->elem || m->elem->kind != BLOBC_KIND_STRUCT)
            return blobc_schema_err(L->s, f->pos, L->err,
                                    "union %s: member %u is not a struct type", nm, (unsigned)i + 1);
        if (!f->name || !m->elem->name || strcmp(f->name, m->elem->name) != 0)
            return blobc_schema_err(L->s, f->pos, L->err,
                                    "union %s: member %u is not named after its struct", nm,
                                    (unsigned)i + 1);
        if (f->def.present)
            return blobc_schema_err(L->s, f->pos, L->err, "union %s: member '%s' has a default",
                                    nm, f->name);
        if (check_member_tag(L, t, i)) return BLOBC_EINPUT;
        f->offset = BLOBC_UNION_REF;
        if (!vec_push((void **)&L->work, &L->nwork, &L->workcap, sizeof m, &m))
            return blobc_err_nomem(L->err);
    }
    type_lookup *lk;
    if (blobc_schema_index_items(L->s, t, L->err, &lk)) return BLOBC_EINPUT;
    t->lookup = lk;
    t->size = BLOBC_UNION_SIZE;
    t->align = BLOBC_UNION_ALIGN;
    set_state(t, ST_DONE);
    return BLOBC_OK;
}

/* Checks that the chain of composites below an array or pointer ends at a
 * struct, enum, scalar or string instead of looping back into itself
 * (impossible to write in the language; a decoded section could). */
static blobc_status check_chain(layout_ctx *L, blobc_type *top) {
    L->nchain = 0;
    blobc_type *x = top;
    while (x && !blobc_is_builtin(x) && blobc_kind_is_anonymous(x->kind) &&
           !(x->internal & CHAIN_OK)) {
        if (x->internal & CHAIN_WALK)
            return blobc_schema_err(L->s, (blobc_pos){0, 0, 0}, L->err,
                                    "%s type contains itself without a struct in between",
                                    blobc_kind_name(top->kind));
        x->internal |= CHAIN_WALK;
        if (!vec_push((void **)&L->chain, &L->nchain, &L->chaincap, sizeof x, &x))
            return blobc_err_nomem(L->err);
        x = (blobc_type *)blobc_type_next(x);
    }
    for (size_t i = 0; i < L->nchain; i++)
        L->chain[i]->internal = (L->chain[i]->internal & ~(uint32_t)CHAIN_WALK) | CHAIN_OK;
    return BLOBC_OK;
}

/* A struct's @key names one of its fields, of a type readers can
 * compare: an integer, an enum or a string. */
static blobc_status check_key(layout_ctx *L, const blobc_type *t) {
    if (!t->key) return BLOBC_OK;
    if (t->key > t->nfields)
        return blobc_schema_err(L->s, t->pos, L->err, "struct %s: its key is field %u of %u",
                                t->name ? t->name : "(unnamed)", (unsigned)t->key,
                                (unsigned)t->nfields);
    const blobc_field *f = &t->fields[t->key - 1];
    blobc_kind k = f->type->kind;
    if (blobc_kind_is_integer(k) || k == BLOBC_KIND_ENUM || k == BLOBC_KIND_STRING)
        return BLOBC_OK;
    char sp[96];
    blobc_type_spell(f->type, sp, sizeof sp);
    return blobc_schema_err(L->s, f->pos, L->err,
                            "struct %s: the @key field '%s' is %s; a key is an integer, an enum "
                            "or a string",
                            t->name ? t->name : "(unnamed)", f->name, sp);
}

/* @stream, @anchor and a map's entry: what they ask of the struct. */
static blobc_status check_struct_flags(layout_ctx *L, const blobc_type *t) {
    const char *nm = t->name ? t->name : "(unnamed)";
    if (t->flags & ~(BLOBC_STRUCT_OPEN | BLOBC_STRUCT_STREAM | BLOBC_STRUCT_ENTRY))
        return blobc_schema_err(L->s, t->pos, L->err, "struct %s: unknown flags", nm);
    if ((t->flags & BLOBC_STRUCT_STREAM) &&
        (t->nfields != 1 || t->fields[0].type->kind != BLOBC_KIND_ARRAY))
        return blobc_schema_err(L->s, t->pos, L->err, "@stream struct %s has one field, a list "
                                "([T]) of the stream's documents", nm);
    if ((t->flags & BLOBC_STRUCT_ENTRY) && (t->nfields != 2 || t->key != 1 || t->name))
        return blobc_schema_err(L->s, t->pos, L->err, "a map's entry is {key, value}");
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_field *f = &t->fields[i];
        blobc_kind k = f->type->kind;
        if (f->flags & ~(BLOBC_FIELD_ANCHOR | BLOBC_FIELD_TEXT))
            return blobc_schema_err(L->s, f->pos, L->err, "struct %s: field '%s' has unknown "
                                    "flags", nm, f->name);
        if ((f->flags & BLOBC_FIELD_ANCHOR) && !blobc_kind_is_integer(k) &&
            k != BLOBC_KIND_STRING)
            return blobc_schema_err(L->s, f->pos, L->err, "struct %s: @anchor field '%s' is an "
                                    "integer or a string (a YAML anchor's text)", nm, f->name);
        if (f->tag || f->tag_value)
            return blobc_schema_err(L->s, f->pos, L->err, "struct %s: field '%s' has a tag", nm,
                                    f->name);
    }
    return BLOBC_OK;
}

/* Starts laying out t: leaves and out-of-line composites finish at once;
 * structs and fixed arrays go on the stack until their inline parts are done. */
static blobc_status enter(layout_ctx *L, const blobc_type *ct) {
    blobc_schema *s = L->s;
    if (blobc_is_builtin(ct)) return BLOBC_OK;
    blobc_type *t = (blobc_type *)ct;
    if (state(t) == ST_DONE) return BLOBC_OK;
    if (!blobc_kind_valid((int)t->kind))
        return blobc_schema_err(s, t->pos, L->err, "type has an invalid kind %d", (int)t->kind);
    switch (t->kind) {
    case BLOBC_KIND_STRING:
        t->size = 8;
        t->align = 4;
        set_state(t, ST_DONE);
        return BLOBC_OK;
    case BLOBC_KIND_ENUM: return lay_enum(L, t);
    case BLOBC_KIND_UNION: return lay_union(L, t);
    case BLOBC_KIND_MAP: /* the bytes of [entry] */
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
        if (!t->elem)
            return blobc_schema_err(s, t->pos, L->err, "%s type has no element type",
                                    blobc_kind_name(t->kind));
        if (t->kind == BLOBC_KIND_MAP &&
            (t->elem->kind != BLOBC_KIND_STRUCT || !(t->elem->flags & BLOBC_STRUCT_ENTRY)))
            return blobc_schema_err(s, t->pos, L->err, "map type has no entry struct");
        if (check_chain(L, t)) return BLOBC_EINPUT;
        if (t->kind == BLOBC_KIND_PTR && t->ref &&
            (t->elem->kind != BLOBC_KIND_STRUCT || !t->elem->key))
            return blobc_schema_err(s, t->pos, L->err,
                                    "a reference's target must be a struct with a @key field");
        t->size = t->kind == BLOBC_KIND_PTR ? 4 : 8;
        t->align = 4;
        set_state(t, ST_DONE);
        /* The element's size does not matter here; it is laid out later,
         * which is what allows recursion through [T] and *T. */
        if (!vec_push((void **)&L->work, &L->nwork, &L->workcap, sizeof t->elem, &t->elem))
            return blobc_err_nomem(L->err);
        return BLOBC_OK;
    case BLOBC_KIND_OPTIONAL:
        if (!t->elem || t->elem->kind == BLOBC_KIND_OPTIONAL)
            return blobc_schema_err(s, t->pos, L->err, "optional type without an element, or of "
                                    "an optional");
        if (check_chain(L, t)) return BLOBC_EINPUT;
        break;
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
                f->type->kind != BLOBC_KIND_ENUM && f->type->kind != BLOBC_KIND_STRING &&
                f->type->kind != BLOBC_KIND_UNION &&
                !(f->type->kind == BLOBC_KIND_PTR && f->type->ref))
                return blobc_schema_err(s, f->pos, L->err,
                                        "struct %s: field '%s' cannot have a default", nm,
                                        f->name);
        }
        if (check_key(L, t) || check_struct_flags(L, t)) return BLOBC_EINPUT;
        type_lookup *lk;
        if (blobc_schema_index_items(L->s, t, L->err, &lk)) return BLOBC_EINPUT;
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
    blobc_pos pos = {0, 0, 0};
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
                            t->kind == BLOBC_KIND_FIXED ? "fixed array " :
                            t->kind == BLOBC_KIND_OPTIONAL ? "optional " : "",
                            label(t, lb, sizeof lb), BLOBC_MAX_TYPE_SIZE);
}

/* All inline parts of t are laid out: compute its size and alignment. */
static blobc_status finish(layout_ctx *L, blobc_type *t) {
    if (t->kind == BLOBC_KIND_OPTIONAL) {
        /* T, its presence byte, padding to T's alignment. */
        uint32_t a = t->elem->align;
        uint64_t size = ((uint64_t)t->elem->size + 1 + a - 1) & ~(uint64_t)(a - 1);
        if (size > BLOBC_MAX_TYPE_SIZE) return too_large(L, t);
        t->size = (uint32_t)size;
        t->align = a;
        return set_depth(L, t, inline_depth(t->elem));
    }
    if (t->kind == BLOBC_KIND_FIXED) {
        uint64_t size = (uint64_t)t->count * t->elem->size;
        if (size > BLOBC_MAX_TYPE_SIZE) return too_large(L, t);
        t->size = (uint32_t)size;
        t->align = t->elem->align;
        return set_depth(L, t, inline_depth(t->elem));
    }
    uint64_t off = 0;
    uint32_t align = 1, below = 0;
    for (uint32_t i = 0; i < t->nfields; i++) {
        blobc_field *f = (blobc_field *)&t->fields[i];
        if (inline_depth(f->type) > below) below = inline_depth(f->type);
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
    return set_depth(L, t, below);
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
        else if ((cur->kind == BLOBC_KIND_FIXED || cur->kind == BLOBC_KIND_OPTIONAL) &&
                 fr->next == 0)
            child = cur->elem;
        if (child) {
            fr->next++;
            if (!blobc_is_builtin(child) && state(child) == ST_BUSY) {
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

