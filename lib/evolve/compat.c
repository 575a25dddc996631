/*
 * compat.c - layout compatibility of two versions of a type: would a blob
 * baked with the old one read correctly through code generated from the
 * new one, and does `blobc upgrade` carry them over unchanged? Walks both
 * type graphs side by side from the roots, pairing struct fields, enum
 * members and union members by name, as upgrade does (a field of another
 * name is a removal and an addition, even at the same offset: its values
 * would not carry over), and lists every difference by schema path
 * (docs/SCHEMA.md, "Evolving a schema"). Names of types never matter,
 * only layouts and the names the data uses.
 *
 * The same walk checks an upgrade (evolve_internal.h): there a removed
 * field, a new field without a default or a conversion between kinds of
 * values is a decision, not a line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/hashtab.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/kind.h"
#include "common/err.h"
#include "evolve/evolve_internal.h"

/* Longest path kept; deeper ones are cut with "...". */
#define PATH_MAX_LEN 400

typedef struct pair {
    const blobc_type *o, *n;
    const char *path;
} pair;

typedef struct compat {
    blobc_buffer *out;
    blobc_error *err;
    blobc_arena arena;        /* paths */
    pair *work;
    size_t nwork, wcap, next;
    blobc_hashtab seen;       /* the pairs queued so far: work[item - 1] */
    size_t changes, notes;
    bool root_changed;
    bool ok;
    /* upgrade checks: set by blobc_upgrade_plan */
    upgrade_plan *plan;
    bool failed;
} compat;

/* An upgrade stops at its first refusal, with the path in the message. */
static void refuse(compat *c, const char *path, const char *fmt, ...) BLOBC_PRINTF(3, 4);
static void refuse(compat *c, const char *path, const char *fmt, ...) {
    if (c->failed) return;
    c->failed = true;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    blobc_err(c->err, BLOBC_EINPUT, "%s", msg);
    blobc_err_path(c->err, path[0] ? path : "(root)");
}

static void line(compat *c, bool change, const char *path, const char *fmt, ...)
    BLOBC_PRINTF(4, 5);
static void line(compat *c, bool change, const char *path, const char *fmt, ...) {
    if (change) c->changes++;
    else c->notes++;
    if (!c->out) return;
    va_list ap;
    va_start(ap, fmt);
    blobc_emit(c->out, &c->ok, "%s%s: ", change ? "" : "note: ", path[0] ? path : "(root)");
    blobc_vemit(c->out, &c->ok, fmt, ap);
    blobc_emit_bytes(c->out, &c->ok, "\n", 1);
    va_end(ap);
}

static const char *join(compat *c, const char *path, const char *sep, const char *name) {
    size_t n = strlen(path);
    if (n > PATH_MAX_LEN) return path;
    char buf[PATH_MAX_LEN + 1100];
    int len = snprintf(buf, sizeof buf, "%s%s%s", path, path[0] || sep[0] == '[' ? sep : "",
                       name);
    if (len < 0) return path;
    if ((size_t)len > PATH_MAX_LEN) len = snprintf(buf, sizeof buf, "%s...", path);
    char *s = blobc_arena_strndup(&c->arena, buf, (size_t)len);
    if (!s) c->ok = false;
    return s ? s : path;
}

static uint64_t pair_hash(const blobc_type *o, const blobc_type *n) {
    return blobc_hash_u64(blobc_hash_ptr(o) ^ (uint64_t)(uintptr_t)n);
}

/* Queues the pair unless it was queued already (recursive types meet
 * themselves again). */
static void push(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    if (!c->ok) return;
    uint64_t h = pair_hash(o, n);
    blobc_hprobe pr;
    for (uint32_t k = blobc_hashtab_first(&c->seen, h, &pr); k; k = blobc_hashtab_next(&c->seen, &pr))
        if (c->work[k - 1].o == o && c->work[k - 1].n == n) return;
    if (c->nwork >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&c->work, &c->wcap, c->nwork + 1, sizeof *c->work) ||
        !blobc_hashtab_add(&c->seen, h, (uint32_t)c->nwork + 1)) {
        c->ok = false;
        return;
    }
    c->work[c->nwork++] = (pair){o, n, path};
}

static const char *spell(const blobc_type *t, char *buf, size_t cap) {
    blobc_type_spell(t, buf, cap);
    return buf;
}

static void value_text(char *buf, size_t cap, blobc_kind base, uint64_t v) {
    if (blobc_kind_is_signed(base)) snprintf(buf, cap, "%lld", (long long)(int64_t)v);
    else snprintf(buf, cap, "%llu", (unsigned long long)v);
}

/* The member of NEW that says it was called NAME (@was), or NULL. */
static const blobc_enum_value *enum_find_was(const blobc_type *n, const char *name) {
    for (uint32_t i = 0; i < n->nvalues; i++)
        if (n->values[i].was && strcmp(n->values[i].was, name) == 0) return &n->values[i];
    return NULL;
}

static void compare_enum(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    blobc_kind bk = o->elem->kind;
    if (o->elem->kind != n->elem->kind) {
        line(c, true, path, "enum %s: base changed from %s to %s", o->name,
             blobc_kind_name(o->elem->kind), blobc_kind_name(n->elem->kind));
        return;
    }
    char a[32], b[32];
    for (uint32_t i = 0; i < o->nvalues; i++) {
        const blobc_enum_value *ov = &o->values[i];
        const blobc_enum_value *byname = blobc_enum_find_name(n, ov->name, strlen(ov->name));
        const blobc_enum_value *byvalue = blobc_enum_find_value(n, ov->value);
        const blobc_enum_value *was = byname ? NULL : enum_find_was(n, ov->name);
        value_text(a, sizeof a, bk, ov->value);
        if (was && was->value == ov->value) {
            line(c, false, path, "enum %s: member '%s' (%s) renamed to '%s' (@was)", o->name,
                 ov->name, a, was->name);
        } else if (was) {
            value_text(b, sizeof b, bk, was->value);
            line(c, true, path, "enum %s: member '%s' (now '%s', @was) changed value from %s to %s",
                 o->name, ov->name, was->name, a, b);
        } else if (byname && byname->value != ov->value) {
            value_text(b, sizeof b, bk, byname->value);
            line(c, true, path, "enum %s: member '%s' changed value from %s to %s", o->name,
                 ov->name, a, b);
        } else if (!byname && byvalue) {
            line(c, true, path, "enum %s: member '%s' (%s) removed (%s is now '%s')", o->name,
                 ov->name, a, a, byvalue->name);
        } else if (!byname) {
            line(c, true, path, "enum %s: member '%s' (%s) removed", o->name, ov->name, a);
        }
    }
}

/* The new field an old one became: same name, or a new one that says it
 * was called so (@was). Nothing else pairs: values carry over by name. */
static const blobc_field *partner_field(const blobc_type *n, const blobc_field *of, bool *renamed) {
    const blobc_field *nf = blobc_struct_find_field(n, of->name, strlen(of->name));
    *renamed = false;
    if (nf) return nf;
    for (uint32_t i = 0; i < n->nfields; i++)
        if (n->fields[i].was && strcmp(n->fields[i].was, of->name) == 0) {
            *renamed = true;
            return &n->fields[i];
        }
    return NULL;
}

/* How the data names union u's member m: its struct's name, or for a
 * union tagged by a field or by YAML tag its tag. */
static const char *member_word(const blobc_type *u, const blobc_field *m, char *buf, size_t cap) {
    if (u->by == BLOBC_UNION_BY_KEY) return m->name;
    if (u->int_tags) value_text(buf, cap, BLOBC_KIND_I64, m->tag_value);
    else snprintf(buf, cap, "%s", m->tag);
    return buf;
}

static void union_by_text(const blobc_type *u, char *buf, size_t cap) {
    if (u->by == BLOBC_UNION_BY_FIELD)
        snprintf(buf, cap, "field \"%s\"%s", u->tag_field, u->int_tags ? " (integer tags)" : "");
    else snprintf(buf, cap, "%s", u->by == BLOBC_UNION_BY_TAG ? "YAML tag" : "key");
}

/* A union's tags: each old tag must still mean a member of the same
 * layout and name (the data names the member: by its struct's name, or
 * by its tag when both unions are tagged alike, blobc_union_partner). A
 * member found at another tag has moved; a member gone is removed, even
 * when a member of another name took its tag, unless that one says it was
 * called so (@was); members added after the old ones are compatible. A
 * union tagged another way keeps its bytes: a note. */
static void compare_union(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    char w1[32], w2[32], b1[300], b2[300];
    union_by_text(o, b1, sizeof b1);
    union_by_text(n, b2, sizeof b2);
    if (strcmp(b1, b2) != 0)
        line(c, false, path, "union %s: tagged by %s, was by %s (data files name members another "
                             "way; blobs carry over by member name)", n->name, b2, b1);
    for (uint32_t i = 0; i < o->nfields; i++) {
        const blobc_field *om = &o->fields[i];
        const char *ow = member_word(o, om, w1, sizeof w1);
        bool renamed;
        const blobc_field *nm = blobc_union_partner(n, o, om, &renamed);
        if (renamed)
            line(c, false, path, "union %s: member '%s' (tag %u) renamed to '%s' (@was)", o->name,
                 ow, (unsigned)i + 1, member_word(n, nm, w2, sizeof w2));
        if (nm && nm != &n->fields[i])
            line(c, true, path, "union %s: member '%s' moved from tag %u to %u", o->name, ow,
                 (unsigned)i + 1, (unsigned)(nm - n->fields) + 1);
        if (!nm && i < n->nfields && !blobc_union_partner(o, n, &n->fields[i], NULL)) {
            line(c, true, path, "union %s: member '%s' (tag %u) removed (tag %u is now '%s')",
                 o->name, ow, (unsigned)i + 1, (unsigned)i + 1,
                 member_word(n, &n->fields[i], w2, sizeof w2));
            continue;
        }
        if (!nm) {
            line(c, true, path, "union %s: member '%s' (tag %u) removed", o->name, ow,
                 (unsigned)i + 1);
            continue;
        }
        push(c, om->type->elem, nm->type->elem, join(c, path, ".", om->name));
    }
    for (uint32_t j = o->nfields; j < n->nfields; j++)
        if (!blobc_union_partner(o, n, &n->fields[j], NULL))
            line(c, false, path, "union %s: member '%s' added (tag %u; old blobs do not hold it)",
                 n->name, member_word(n, &n->fields[j], w2, sizeof w2), (unsigned)j + 1);
}

/* For a field gone by name: a new field, unknown to the old struct, at
 * the same offset with the same layout, which may be the old one renamed
 * (NULL when none). Only a hint: values carry over by name. */
static const blobc_field *rename_candidate(const blobc_type *o, const blobc_type *n,
                                           const blobc_field *of) {
    for (uint32_t i = 0; i < n->nfields; i++) {
        const blobc_field *g = &n->fields[i];
        if (g->offset == of->offset && !blobc_struct_find_field(o, g->name, strlen(g->name)) &&
            blobc_type_hash(g->type) == blobc_type_hash(of->type))
            return g;
    }
    return NULL;
}

/* A struct's key: which arrays are sorted by what, and what references
 * name. A change is a change of the data. */
static void compare_key(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    const char *ok = o->key ? o->fields[o->key - 1].name : NULL;
    const char *nk = n->key ? n->fields[n->key - 1].name : NULL;
    if (!ok && nk)
        line(c, true, path, "struct %s: @key added on '%s' (its arrays are sorted by it)", n->name, nk);
    else if (ok && !nk)
        line(c, true, path, "struct %s: @key removed from '%s'", o->name, ok);
    else if (ok && strcmp(ok, nk) != 0)
        line(c, true, path, "struct %s: @key moved from '%s' to '%s'", o->name, ok, nk);
}

/* An upgrade of a field the new struct lacks: refused, or with --drop
 * left out. */
static void drop_field(compat *c, const blobc_type *o, const blobc_type *n, const blobc_field *of,
                       const char *fp) {
    if (c->plan->drop) {
        if (!blobc_grow((void **)&c->plan->dropped, &c->plan->dcap, c->plan->ndropped + 1,
                        sizeof *c->plan->dropped))
            c->ok = false;
        else
            c->plan->dropped[c->plan->ndropped++] = of;
        return;
    }
    const blobc_field *g = rename_candidate(o, n, of);
    if (g)
        refuse(c, fp,
               "field '%s' is not in the new schema (values carry over by name: if '%s' is its "
               "new name, rename it back first); --drop leaves its values out",
               of->name, g->name);
    else
        refuse(c, fp, "field '%s' is not in the new schema; --drop leaves its values out",
               of->name);
}

/* A union field that took null and no longer does: old blobs may hold
 * no member there. */
static bool loses_null(const blobc_field *of, const blobc_field *nf) {
    return of->type->kind == BLOBC_KIND_UNION && nf->type->kind == BLOBC_KIND_UNION &&
           of->def.present && !nf->def.present;
}

/* Whether a new field takes a value when the data leaves it out: its
 * default, or an empty [T] or map, a null *T, an absent ?T. */
static bool may_be_left_out(const blobc_field *f) {
    blobc_kind k = f->type->kind;
    return f->def.present || k == BLOBC_KIND_ARRAY || k == BLOBC_KIND_PTR || k == BLOBC_KIND_MAP ||
           k == BLOBC_KIND_OPTIONAL;
}

static void compare_struct(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    char s1[256], s2[256];
    if (!c->plan) compare_key(c, o, n, path);
    if (o->size != n->size)
        line(c, true, path, "struct %s: size changed from %u to %u", o->name, (unsigned)o->size,
             (unsigned)n->size);
    if (o->align != n->align)
        line(c, true, path, "struct %s: alignment changed from %u to %u", o->name,
             (unsigned)o->align, (unsigned)n->align);
    bool *used = calloc(n->nfields ? n->nfields : 1, sizeof *used);
    if (!used) {
        c->ok = false;
        return;
    }
    for (uint32_t i = 0; i < o->nfields; i++) {
        const blobc_field *of = &o->fields[i];
        const char *fp = join(c, path, ".", of->name);
        bool renamed;
        const blobc_field *nf = partner_field(n, of, &renamed);
        if (!nf && c->plan) {
            drop_field(c, o, n, of, fp);
            continue;
        }
        if (!nf) {
            line(c, true, fp, "removed (was %s at offset %u)", spell(of->type, s1, sizeof s1),
                 (unsigned)of->offset);
            continue;
        }
        used[nf - n->fields] = true;
        if (renamed) line(c, false, fp, "renamed to '%s' (@was)", nf->name);
        if (!c->plan && loses_null(of, nf))
            line(c, true, fp, "takes no null any more (was '= null': old blobs may hold no member)");
        if (nf->offset != of->offset)
            line(c, true, fp, "moved from offset %u to %u", (unsigned)of->offset,
                 (unsigned)nf->offset);
        if (c->plan && of->type->kind == BLOBC_KIND_OPTIONAL && nf->type->kind != BLOBC_KIND_OPTIONAL) {
            /* an absent value takes the new field's default, as a left-out key does */
            if (!may_be_left_out(nf))
                refuse(c, fp, "field '%s' is no longer optional (%s to %s) and has no default for "
                              "the values that are absent; give it one in the schema",
                       nf->name, spell(of->type, s1, sizeof s1), spell(nf->type, s2, sizeof s2));
            else
                push(c, of->type->elem, nf->type, fp);
            continue;
        }
        push(c, of->type, nf->type, fp);
    }
    for (uint32_t i = 0; i < n->nfields && c->plan; i++) {
        const blobc_field *g = &n->fields[i];
        if (!used[i] && !may_be_left_out(g))
            refuse(c, join(c, path, ".", g->name),
                   "new field '%s' (%s) has no default to take; give it one in the schema",
                   g->name, spell(g->type, s2, sizeof s2));
    }
    for (uint32_t i = 0; i < n->nfields && !c->plan; i++)
        if (!used[i])
            line(c, true, join(c, path, ".", n->fields[i].name), "added (%s at offset %u)",
                 spell(n->fields[i].type, s2, sizeof s2), (unsigned)n->fields[i].offset);
    free(used);
}

/* What an upgrade converts: integers to integers and floats to floats
 * (values are range-checked when baked), [T] and [T; N] to each other
 * (lengths checked when baked); everything else only to its own kind. */
static bool convertible(const blobc_type *o, const blobc_type *n) {
    blobc_kind a = o->kind, b = n->kind;
    if (a == b) return true;
    if (blobc_kind_is_integer(a) && blobc_kind_is_integer(b)) return true;
    bool fa = a == BLOBC_KIND_F32 || a == BLOBC_KIND_F64, fb = b == BLOBC_KIND_F32 || b == BLOBC_KIND_F64;
    if (fa && fb) return true;
    return (a == BLOBC_KIND_ARRAY || a == BLOBC_KIND_FIXED) &&
           (b == BLOBC_KIND_ARRAY || b == BLOBC_KIND_FIXED);
}

/* A map's keys: the entries are sorted by them, so their type stays (an
 * enum's members compared as any enum's). */
static void compare_map(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    char s1[256], s2[256];
    const blobc_type *ok = blobc_map_key(o), *nk = blobc_map_key(n);
    if (ok->kind != nk->kind) {
        if (c->plan)
            refuse(c, path, "the map's key type changed from %s to %s: keys do not convert (a "
                            "map's entries are sorted by key); bake the data again",
                   spell(ok, s1, sizeof s1), spell(nk, s2, sizeof s2));
        else
            line(c, true, path, "map key retyped from %s to %s", spell(ok, s1, sizeof s1),
                 spell(nk, s2, sizeof s2));
        return;
    }
    if (ok->kind == BLOBC_KIND_ENUM) push(c, ok, nk, join(c, path, "", "{key}"));
    push(c, blobc_map_value(o), blobc_map_value(n), join(c, path, "", "{}"));
}

/* T to ?T or back, outside a struct field (which compare_struct takes):
 * the upgrade of a present value; an absent one has no value to take. */
static bool optional_step(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    char s1[256], s2[256];
    bool oo = o->kind == BLOBC_KIND_OPTIONAL, no = n->kind == BLOBC_KIND_OPTIONAL;
    if (oo == no) return false;
    if (c->plan && oo) {
        refuse(c, path, "cannot carry %s over to %s: absent values have nothing to take (only a "
                        "field with a default stops being optional)",
               spell(o, s1, sizeof s1), spell(n, s2, sizeof s2));
        return true;
    }
    if (!c->plan)
        line(c, true, path, "%s (%s to %s, size %u to %u)", no ? "made optional" : "no longer optional",
             spell(o, s1, sizeof s1), spell(n, s2, sizeof s2), (unsigned)o->size,
             (unsigned)n->size);
    push(c, oo ? o->elem : o, no ? n->elem : n, path);
    return true;
}

static void compare(compat *c, const blobc_type *o, const blobc_type *n, const char *path) {
    char s1[256], s2[256];
    if (optional_step(c, o, n, path)) return;
    if (c->plan) {
        if (!convertible(o, n) || (o->kind == BLOBC_KIND_PTR && o->ref != n->ref)) {
            refuse(c, path, "cannot carry %s over to %s (integers convert to integers, f32 and "
                            "f64 to each other, [T] and [T; N] to each other, enums by member "
                            "name, a reference only to a reference)",
                   spell(o, s1, sizeof s1), spell(n, s2, sizeof s2));
            return;
        }
        if (o->kind == BLOBC_KIND_STRUCT) compare_struct(c, o, n, path);
        else if (o->kind == BLOBC_KIND_MAP) compare_map(c, o, n, path);
        else if (o->kind == BLOBC_KIND_OPTIONAL) push(c, o->elem, n->elem, path);
        else if (o->kind == BLOBC_KIND_UNION)
            /* members by name; a member the new union lacks fails where a value uses it */
            for (uint32_t i = 0; i < o->nfields; i++) {
                const blobc_field *om = &o->fields[i], *nm = blobc_union_partner(n, o, om, NULL);
                if (nm) push(c, om->type->elem, nm->type->elem, join(c, path, ".", om->name));
            }
        else if (o->kind == BLOBC_KIND_ARRAY || o->kind == BLOBC_KIND_FIXED)
            push(c, o->elem, n->elem, join(c, path, "[", "]"));
        else if (o->kind == BLOBC_KIND_PTR)
            push(c, o->elem, n->elem, join(c, path, "", "*"));
        return;
    }
    if (o->kind != n->kind || (o->kind == BLOBC_KIND_PTR && o->ref != n->ref)) {
        if (o->size == n->size)
            line(c, true, path, "retyped from %s to %s", spell(o, s1, sizeof s1),
                 spell(n, s2, sizeof s2));
        else
            line(c, true, path, "retyped from %s to %s (size %u to %u)", spell(o, s1, sizeof s1),
                 spell(n, s2, sizeof s2), (unsigned)o->size, (unsigned)n->size);
        return;
    }
    /* A rename is news, unless the root changed to another type anyway. */
    if ((o->kind == BLOBC_KIND_STRUCT || o->kind == BLOBC_KIND_ENUM || o->kind == BLOBC_KIND_UNION) &&
        strcmp(o->name, n->name) && !(path[0] == '\0' && c->root_changed))
        line(c, false, path, "%s %s is now called %s", blobc_kind_name(o->kind), o->name, n->name);
    switch (o->kind) {
    case BLOBC_KIND_STRUCT: compare_struct(c, o, n, path); break;
    case BLOBC_KIND_UNION: compare_union(c, o, n, path); break;
    case BLOBC_KIND_ENUM: compare_enum(c, o, n, path); break;
    case BLOBC_KIND_FIXED:
        if (o->count != n->count)
            line(c, true, path, "resized from %s to %s", spell(o, s1, sizeof s1),
                 spell(n, s2, sizeof s2));
        push(c, o->elem, n->elem, join(c, path, "[", "]"));
        break;
    case BLOBC_KIND_ARRAY: push(c, o->elem, n->elem, join(c, path, "[", "]")); break;
    case BLOBC_KIND_PTR: push(c, o->elem, n->elem, join(c, path, "", "*")); break;
    case BLOBC_KIND_MAP: compare_map(c, o, n, path); break;
    case BLOBC_KIND_OPTIONAL: push(c, o->elem, n->elem, path); break;
    default: break; /* scalars, strings and any-values of the same kind are the same */
    }
}

/* Walks the pairs from the roots until done, out of memory or refused. */
static void walk(compat *c, const blobc_type *old_root, const blobc_type *new_root) {
    push(c, old_root, new_root, "");
    while (c->ok && !c->failed && c->next < c->nwork) {
        pair p = c->work[c->next++];
        compare(c, p.o, p.n, p.path);
    }
    free(c->work);
    blobc_hashtab_free(&c->seen);
    blobc_arena_free(&c->arena);
}

static void init(compat *c, blobc_buffer *out, upgrade_plan *plan, blobc_error *err) {
    memset(c, 0, sizeof *c);
    c->out = out;
    c->plan = plan;
    c->err = err;
    c->ok = true;
    blobc_arena_init(&c->arena);
    blobc_hashtab_init(&c->seen, NULL);
}

blobc_status blobc_upgrade_plan(const blobc_type *old_root, const blobc_type *new_root,
                                upgrade_plan *plan, blobc_error *err) {
    compat c;
    init(&c, NULL, plan, err);
    walk(&c, old_root, new_root);
    if (!c.ok) return blobc_err_nomem(err);
    return c.failed ? BLOBC_EINPUT : BLOBC_OK;
}

blobc_status blobc_compat(const blobc_type *old_root, const blobc_type *new_root,
                          const blobc_schema *new_schema, blobc_buffer *out,
                          blobc_compat_result *res, blobc_error *err) {
    if (!old_root || !new_root || !out || !res)
        return blobc_err_arg(err, __func__, "old_root, new_root, out or result is NULL");
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    compat c;
    init(&c, out, NULL, err);
    size_t mark = out->len;
    /* Another root name is the old root renamed, unless the new schema
     * still has a type of the old name. */
    if (old_root->name && new_root->name && strcmp(old_root->name, new_root->name) != 0 &&
        blobc_type_hash(old_root) != blobc_type_hash(new_root) &&
        (!new_schema || blobc_schema_find(new_schema, old_root->name))) {
        line(&c, true, "", "root type changed from %s to %s", old_root->name, new_root->name);
        c.root_changed = true;
    }
    walk(&c, old_root, new_root);
    if (!c.ok) {
        out->len = mark;
        return blobc_err_nomem(err);
    }
    res->changes = c.changes;
    res->notes = c.notes;
    return BLOBC_OK;
}
