/*
 * c_types.c - what `blobc gen c` writes for maps, optionals, `any` and
 * tagged unions (docs/CODEGEN.md, "Maps, optionals and any").
 *
 * A map [K: V] and an optional ?T have no name in the schema, but C needs
 * one to declare a member of or to point at: every such type a struct's
 * field holds gets a struct named after the field (<S>_<f>_entry for a
 * map's entries, <S>_<f>_opt for an optional; a map's value type adds
 * _value). An `any` is the runtime's blobc_rt_any, read with the
 * blobc_rt_any_* functions of blobc/blob.h, as is every map lookup: the
 * generated functions only give them the entry size and the key type.
 */
#include "gen/c_internal.h"

#include <inttypes.h>
#include <stdlib.h>

#include "common/kind.h"

#define emit blobc_genc_emit

/* The nodes of t's chain of anonymous composites, from t inward, into a
 * malloc'd array; NULL when out of memory (*n is then 0). */
static const blobc_type **chain_of(const blobc_type *t, size_t *n) {
    size_t len = 0;
    for (const blobc_type *c = t; c; c = blobc_kind_is_anonymous(c->kind) ? blobc_type_next(c) : NULL) len++;
    const blobc_type **nodes = malloc(len * sizeof *nodes);
    *n = 0;
    if (!nodes) return NULL;
    for (const blobc_type *c = t; c; c = blobc_kind_is_anonymous(c->kind) ? blobc_type_next(c) : NULL)
        nodes[(*n)++] = c;
    return nodes;
}

static type_info *anon_info(const gen *g, const blobc_type *node) {
    type_info *ti = blobc_genc_info_of(g, anon_key(node));
    return ti && ti >= g->info + g->ninfo ? ti : NULL;
}

blobc_status blobc_genc_collect_anon(gen *g) {
    size_t total = 0;
    for (size_t i = 0; i < g->ninfo; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        for (uint32_t f = 0; f < t->nfields; f++)
            for (const blobc_type *c = t->fields[f].type; c;
                 c = blobc_kind_is_anonymous(c->kind) ? blobc_type_next(c) : NULL)
                total += needs_anon_type(c->kind);
    }
    if (!total) return BLOBC_OK;
    if (total >= UINT32_MAX / 2 - g->ninfo) return nomem(g);
    type_info *grown = realloc(g->info, (g->ninfo + total) * sizeof *grown);
    if (!grown) return nomem(g);
    g->info = grown;
    memset(g->info + g->ninfo, 0, total * sizeof *grown);
    if (!blobc_hashtab_reserve(&g->map, g->ninfo + total)) return nomem(g);
    for (size_t i = 0; i < g->ninfo; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        for (uint32_t f = 0; f < t->nfields; f++)
            for (const blobc_type *c = t->fields[f].type; c;
                 c = blobc_kind_is_anonymous(c->kind) ? blobc_type_next(c) : NULL) {
                /* a node two fields share is declared once, for the first */
                if (!needs_anon_type(c->kind) || blobc_genc_info_of(g, anon_key(c))) continue;
                size_t k = g->ninfo + g->nanon++;
                g->info[k].type = anon_key(c);
                g->info[k].owner = &g->info[i];
                g->info[k].owner_field = f;
                if (!blobc_hashtab_add(&g->map, blobc_hash_ptr(anon_key(c)), (uint32_t)k + 1)) return nomem(g);
            }
    }
    return BLOBC_OK;
}

void blobc_genc_anon_typedefs(gen *g) {
    for (size_t k = g->ninfo; k < g->ninfo + g->nanon; k++)
        if (is_own(g, g->info[k].owner->type)) emit(g, "typedef struct %s %s;\n", g->info[k].cname, g->info[k].cname);
}

static void emit_optional(gen *g, type_info *ai) {
    const blobc_type *o = ai->type, *t = o->elem;
    const char *c = ai->cname;
    uint32_t flag = blobc_optional_flag(o);
    emit(g, "/* ");
    blobc_genc_spelling(g, o);
    const char *shown = blobc_gen_ident(&g->arena, ai->owner->type->fields[ai->owner_field].name);
    emit(g, " of %s.%s: size %" PRIu32 ", alignment %" PRIu32 " */\nstruct %s {\n    %s %s", ai->owner->type->name,
         shown ? shown : "?", o->size, o->align, c,
         blobc_genc_base_ctype(g, strip_fixed(t)), ai->members[0]);
    for (const blobc_type *d = t; d->kind == BLOBC_KIND_FIXED; d = d->elem) emit(g, "[%" PRIu32 "]", d->count);
    emit(g, "; /* @0 */\n    blobc_rt_bool %s; /* @%" PRIu32 " 1: the value is there, 0: all bytes are 0 */\n",
         ai->members[1], flag);
    if (o->size > flag + 1) emit(g, "    uint8_t blobc_pad0[%" PRIu32 "];\n", o->size - flag - 1);
    emit(g, "};\n");
    emit(g, "BLOBC_RT_STATIC_ASSERT(sizeof(%s) == %" PRIu32 ", \"%s: size must be %" PRIu32 "\");\n", c, o->size,
         c, o->size);
    emit(g, "BLOBC_RT_STATIC_ASSERT(BLOBC_RT_ALIGNOF(%s) == %" PRIu32 ", \"%s: alignment must be %" PRIu32 "\");\n",
         c, o->align, c, o->align);
    emit(g, "BLOBC_RT_STATIC_ASSERT(offsetof(%s, %s) == %" PRIu32 ", \"%s.%s: offset must be %" PRIu32 "\");\n\n",
         c, ai->members[1], flag, c, ai->members[1], flag);
}

static void emit_anon(gen *g, type_info *ai) {
    ai->emitted = true;
    if (ai->type->kind == BLOBC_KIND_OPTIONAL) {
        emit_optional(g, ai);
        return;
    }
    g->tmp.len = 0;
    const blobc_type *ot = ai->owner->type;
    const char *shown = blobc_gen_ident(&g->arena, ot->fields[ai->owner_field].name);
    if (!shown || !blobc_buf_printf(&g->tmp, "map entry of %s.%s", ot->name, shown) ||
        !blobc_buf_putc(&g->tmp, '\0')) {
        g->ok = false;
        return;
    }
    char *what = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    if (!what) g->ok = false;
    else blobc_genc_struct_def(g, ai, what);
}

/* Innermost first: a type comes after those it holds inline. An optional
 * a struct holds inline must come before the struct; everything else
 * waits until every struct is complete, as it may hold any of them. */
void blobc_genc_anon_defs(gen *g, const type_info *owner, bool inline_only) {
    const blobc_type *t = owner->type;
    for (uint32_t f = 0; f < t->nfields && g->ok; f++) {
        size_t n;
        const blobc_type **nodes = chain_of(t->fields[f].type, &n);
        if (!nodes) {
            g->ok = false;
            return;
        }
        if (inline_only) {
            size_t k = 0;
            while (k < n && (nodes[k]->kind == BLOBC_KIND_FIXED || nodes[k]->kind == BLOBC_KIND_OPTIONAL)) k++;
            n = k;
        }
        for (size_t k = n; k-- > 0;) {
            type_info *ai = needs_anon_type(nodes[k]->kind) ? anon_info(g, nodes[k]) : NULL;
            if (ai && !ai->emitted) emit_anon(g, ai);
        }
        free(nodes);
    }
}

/* ---- accessors ---- */

static void emit_map_accessors(gen *g, const type_info *ti, uint32_t f, const char *params, const char *lv) {
    const blobc_type *m = strip_fixed(ti->type->fields[f].type), *k = blobc_map_key(m);
    const char *e = blobc_genc_info_of(g, m->elem)->cname;
    emit(g, "static inline size_t %s(%s) { return blobc_rt_array_len(&%s); }\n", ti->acc_count[f], params, lv);
    emit(g,
         "/* Entry i in key order, or NULL past the end. */\n"
         "static inline const %s *%s(%s, size_t blobc_i) {\n"
         "    size_t blobc_n;\n"
         "    const %s *blobc_a = BLOBC_RT_CAST(const %s *, blobc_rt_array_data(&%s, &blobc_n));\n"
         "    return blobc_i < blobc_n ? &blobc_a[blobc_i] : BLOBC_RT_NULL;\n}\n",
         e, ti->acc_at[f], params, e, e, lv);
    emit(g, "/* The entry whose key is the key (a binary search: entries are sorted), or NULL. */\n");
    if (k->kind == BLOBC_KIND_STRING) {
        emit(g,
             "static inline const %s *%s(%s, const char *blobc_key, size_t blobc_len) {\n"
             "    return BLOBC_RT_CAST(const %s *, blobc_rt_map_find_str(&%s, sizeof(%s), blobc_key, blobc_len));\n}\n",
             e, ti->acc_find[f], params, e, lv, e);
        return;
    }
    blobc_kind base = k->kind == BLOBC_KIND_ENUM ? k->elem->kind : k->kind;
    emit(g,
         "static inline const %s *%s(%s, %s blobc_key) {\n"
         "    return BLOBC_RT_CAST(const %s *, blobc_rt_map_find_int(&%s, sizeof(%s), %" PRIu32
         ", %d, BLOBC_RT_CAST(uint64_t, blobc_key)));\n}\n",
         e, ti->acc_find[f], params, blobc_genc_base_ctype(g, k), e, lv, e, k->size,
         blobc_kind_is_signed(base) ? 1 : 0);
}

static void emit_optional_accessors(gen *g, const type_info *ti, uint32_t f, const char *params,
                                    const char *lv) {
    const blobc_type *o = strip_fixed(ti->type->fields[f].type), *t = o->elem;
    const type_info *oi = blobc_genc_info_of(g, o);
    const char *val = oi->members[0], *has = oi->members[1];
    emit(g, "static inline int %s(%s) { return %s.%s != 0; }\n", ti->acc_has[f], params, lv, has);
    if (blobc_kind_is_scalar(t->kind) || t->kind == BLOBC_KIND_ENUM) {
        emit(g, "/* The value; 0 when it is not there. */\nstatic inline " "%s %s(%s) { return %s.%s; }\n",
             blobc_genc_base_ctype(g, t), ti->acc[f], params, lv, val);
        return;
    }
    if (t->kind == BLOBC_KIND_STRING) {
        emit(g, "/* The string, or NULL when it is not there. */\n"
                "static inline const char *%s(%s) { return %s.%s ? blobc_rt_str_cstr(&%s.%s) : BLOBC_RT_NULL; }\n",
             ti->acc[f], params, lv, has, lv, val);
        return;
    }
    g->tmp.len = 0;
    if (!blobc_buf_printf(&g->tmp, "%s.%s", lv, val) || !blobc_buf_putc(&g->tmp, '\0')) {
        g->ok = false;
        return;
    }
    char *inner = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    if (!inner) {
        g->ok = false;
        return;
    }
    if (is_ref_kind(t->kind)) {   /* absent is all zero: empty, or null */
        emit(g, "/* The value's view: empty or NULL when it is not there. */\n");
        blobc_genc_view_head(g, ti->acc[f], params, t);
        blobc_genc_view_body(g, t, inner);
        return;
    }
    emit(g, "/* The value, or NULL when it is not there. */\nstatic inline ");
    g->tmp.len = 0;
    if (!blobc_buf_printf(&g->tmp, "%s(%s)", ti->acc[f], params) || !blobc_buf_putc(&g->tmp, '\0')) {
        g->ok = false;
        return;
    }
    blobc_genc_ptr_decl(g, t, (const char *)g->tmp.data);
    emit(g, " { return %s.%s ? &%s : BLOBC_RT_NULL; }\n", lv, has, inner);
}

void blobc_genc_new_accessors(gen *g, const type_info *ti, uint32_t f) {
    const blobc_type *ft = ti->type->fields[f].type, *s = strip_fixed(ft);
    if (s->kind != BLOBC_KIND_MAP && s->kind != BLOBC_KIND_OPTIONAL) return;
    blobc_buffer params = {0}, lvalue = {0};
    if (!blobc_buf_printf(&params, "const %s *blobc_p", ti->cname) ||
        !blobc_buf_printf(&lvalue, "blobc_p->%s", ti->members[f]) ||
        !blobc_genc_fixed_indices(&params, &lvalue, ft)) {
        g->ok = false;
    } else if (s->kind == BLOBC_KIND_MAP) {
        emit_map_accessors(g, ti, f, (const char *)params.data, (const char *)lvalue.data);
    } else {
        emit_optional_accessors(g, ti, f, (const char *)params.data, (const char *)lvalue.data);
    }
    blobc_buffer_free(&params);
    blobc_buffer_free(&lvalue);
}

/* ---- tagged unions ---- */

/* s as a C string literal: only the bytes that stand for themselves in
 * any source character set, the rest as octal escapes (a '?' too, which
 * could start a trigraph). */
void blobc_genc_c_string(gen *g, const char *s) {
    emit(g, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     (*p && strchr(" !#%&'()*+,-./:;<=>[]^_{|}~", *p));
        if (plain) emit(g, "%c", *p);
        else emit(g, "\\%03o", *p);
    }
    emit(g, "\"");
}

void blobc_genc_union_tags(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    if (t->by == BLOBC_UNION_BY_KEY) return;
    if (t->by == BLOBC_UNION_BY_FIELD) {
        emit(g, "/* The field of a member's data that names the member. */\n#define %s ", ti->tag_field_macro);
        blobc_genc_c_string(g, t->tag_field ? t->tag_field : "");
        emit(g, "\n");
    }
    emit(g, "/* Each member's tag in the data (%s). */\n",
         t->by == BLOBC_UNION_BY_TAG ? "its YAML tag" : "the value of that field");
    for (uint32_t m = 0; m < t->nfields; m++) {
        emit(g, "#define %s ", ti->tags[m]);
        if (t->int_tags) blobc_genc_enum_literal(g, BLOBC_KIND_I64, t->fields[m].tag_value);
        else blobc_genc_c_string(g, t->fields[m].tag ? t->fields[m].tag : "");
        emit(g, "\n");
    }
    if (ti->default_macro && t->default_member <= t->nfields)
        emit(g, "/* The member of data without a tag. */\n#define %s %s\n", ti->default_macro,
             ti->values[t->default_member]);
}
