/*
 * gen_c.c - `blobc gen c`: writes a C11 / C++17 header that reads blobs of
 * a schema in place over the header-only runtime in blobc/blob.h.
 *
 * The output, in order: forward typedefs of every struct and union, the
 * enums (an integer typedef plus one macro per member), the unions ({u32
 * tag, blobc_rt_ptr}, one macro per tag), the struct definitions in
 * inline-dependency order with explicit padding and static assertions on
 * every size, alignment and field offset, then the accessors and the
 * open functions. docs/CODEGEN.md describes the output; c_names.c gives
 * the names, c_shared.c the parts gen cpp writes too, c_types.c those of
 * maps, optionals and any.
 */
#include "gen/c_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#define emit blobc_genc_emit
#define base_ctype blobc_genc_base_ctype
#define emit_ptr_type blobc_genc_ptr_type
#define emit_ptr_decl blobc_genc_ptr_decl
#define cast_macro blobc_genc_cast_macro
#define emit_view_head blobc_genc_view_head
#define emit_view_body blobc_genc_view_body
#define add_fixed_indices blobc_genc_fixed_indices


static void emit_enum(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    blobc_genc_doc(g, "", t->doc);
    emit(g, "/* enum %s : %s */\ntypedef %s %s;\n", t->name, blobc_kind_name(t->elem->kind),
         base_ctype(g, t->elem), ti->cname);
    for (uint32_t v = 0; v < t->nvalues; v++) {
        blobc_genc_doc(g, "", t->values[v].doc);
        emit(g, "#define %s ", ti->values[v]);
        blobc_genc_enum_literal(g, t->elem->kind, t->values[v].value);
        emit(g, "\n");
    }
    emit(g, "\n");
}

static blobc_status emit_enum_name_fn(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    bool *dup = blobc_genc_enum_dups(t);
    if (!dup) return nomem(g);
    emit(g, "static inline const char *%s(%s blobc_v) {\n    switch (blobc_v) {\n", ti->name_fn,
         ti->cname);
    for (uint32_t v = 0; v < t->nvalues; v++)
        if (!dup[v]) emit(g, "    case %s: return \"%s\";\n", ti->values[v], t->values[v].name);
    emit(g, "    default: return BLOBC_RT_NULL;\n    }\n}\n\n");
    free(dup);
    return BLOBC_OK;
}

/* ---- unions ---- */

/* The value: {u32 tag; blobc_rt_ptr ref}, asserted like a struct, with a
 * macro per tag; accessors come after the structs (they return them). */
static void emit_union(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    const char *c = ti->cname, *tag = ti->members[0], *ref = ti->members[1];
    blobc_genc_doc(g, "", t->doc);
    emit(g, "/* union %s: size %u, alignment %u */\n", t->name, BLOBC_UNION_SIZE, BLOBC_UNION_ALIGN);
    emit(g, "#define %s 0u\n", ti->values[0]);
    for (uint32_t m = 0; m < t->nfields; m++) {
        blobc_genc_doc(g, "", t->fields[m].doc);
        emit(g, "#define %s %" PRIu32 "u /* %s */\n", ti->values[m + 1], m + 1, t->fields[m].name);
    }
    emit(g, "struct %s {\n    uint32_t %s; /* @0 %s, or the member's tag */\n"
            "    blobc_rt_ptr %s; /* @%u the member, 0 for %s */\n};\n",
         c, tag, ti->values[0], ref, BLOBC_UNION_REF, ti->values[0]);
    emit(g, "BLOBC_RT_STATIC_ASSERT(sizeof(%s) == %u, \"%s: size must be %u\");\n", c,
         BLOBC_UNION_SIZE, c, BLOBC_UNION_SIZE);
    emit(g, "BLOBC_RT_STATIC_ASSERT(BLOBC_RT_ALIGNOF(%s) == %u, \"%s: alignment must be %u\");\n",
         c, BLOBC_UNION_ALIGN, c, BLOBC_UNION_ALIGN);
    emit(g, "BLOBC_RT_STATIC_ASSERT(offsetof(%s, %s) == %u, \"%s.%s: offset must be %u\");\n",
         c, ref, BLOBC_UNION_REF, c, ref, BLOBC_UNION_REF);
    blobc_genc_union_tags(g, ti);
    emit(g, "\n");
}

/* <U>_tag, and <U>_as_<Member>: the member's struct, or NULL when the
 * value holds another member or none. */
static void emit_union_accessors(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    const char *c = ti->cname;
    emit(g, "static inline uint32_t %s(const %s *blobc_u) { return blobc_u->%s; }\n", ti->tag_fn,
         c, ti->members[0]);
    for (uint32_t m = 0; m < t->nfields; m++) {
        const char *mc = blobc_genc_info_of(g, t->fields[m].type->elem)->cname;
        emit(g,
             "static inline const %s *%s(const %s *blobc_u) {\n"
             "    return blobc_u->%s == %s ? BLOBC_RT_CAST(const %s *, blobc_rt_ptr_get(&blobc_u->%s))\n"
             "                                : BLOBC_RT_NULL;\n}\n",
             mc, ti->acc[m], c, ti->members[0], ti->values[m + 1], mc, ti->members[1]);
    }
    emit(g, "\n");
}

static blobc_status emit_struct(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    blobc_status st = blobc_genc_check_struct(g, t);
    if (st != BLOBC_OK || !is_own(g, t)) return st;
    blobc_genc_anon_defs(g, ti, true);
    blobc_genc_doc(g, "", t->doc);
    g->tmp.len = 0;
    if (!blobc_buf_printf(&g->tmp, "struct %s", t->name) || !blobc_buf_putc(&g->tmp, '\0')) return nomem(g);
    const char *what = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    if (!what) return nomem(g);
    blobc_genc_struct_def(g, ti, what);
    return BLOBC_OK;
}

/* <S>_<f>_find: the item of the keyed [T] field f with a key, by binary
 * search (the blob stores a keyed array sorted, and verify checks it). */
static void emit_find(gen *g, const type_info *ti, uint32_t f) {
    const blobc_type *et = ti->type->fields[f].type->elem;
    const type_info *ei = blobc_genc_info_of(g, et);
    const blobc_field *kf = &et->fields[et->key - 1];
    const char *km = ei->members[et->key - 1];
    bool str = kf->type->kind == BLOBC_KIND_STRING;
    emit(g, "/* The item of %s whose %s is the key (a binary search: the blob keeps\n"
            " * [%s] sorted by key), or NULL. */\n",
         ti->members[f], km, ei->cname);
    if (str)
        emit(g, "static inline const %s *%s(const %s *blobc_p, const char *blobc_key, size_t blobc_len) {\n",
             ei->cname, ti->acc_find[f], ti->cname);
    else
        emit(g, "static inline const %s *%s(const %s *blobc_p, %s blobc_key) {\n", ei->cname,
             ti->acc_find[f], ti->cname, base_ctype(g, kf->type));
    emit(g, "    size_t blobc_lo = 0, blobc_hi;\n"
            "    const %s *blobc_a = BLOBC_RT_CAST(const %s *, blobc_rt_array_data(&blobc_p->%s, &blobc_hi));\n"
            "    while (blobc_lo < blobc_hi) {\n"
            "        size_t blobc_mid = blobc_lo + (blobc_hi - blobc_lo) / 2;\n",
         ei->cname, ei->cname, ti->members[f]);
    if (str)
        emit(g, "        int blobc_c = blobc_rt_str_cmp(&blobc_a[blobc_mid].%s, blobc_key, blobc_len);\n",
             km);
    else
        emit(g, "        int blobc_c = blobc_a[blobc_mid].%s < blobc_key ? -1 : blobc_key < blobc_a[blobc_mid].%s;\n",
             km, km);
    emit(g, "        if (blobc_c < 0) blobc_lo = blobc_mid + 1;\n"
            "        else if (blobc_c > 0) blobc_hi = blobc_mid;\n"
            "        else return &blobc_a[blobc_mid];\n"
            "    }\n"
            "    return BLOBC_RT_NULL;\n"
            "}\n");
}

static blobc_status emit_accessors(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    blobc_buffer params = {0}, lvalue = {0};
    for (uint32_t f = 0; f < t->nfields && g->ok; f++) {
        const blobc_type *ft = t->fields[f].type;
        if (ti->acc[f] && wants_accessor(ft)) {
            /* The field itself, indexed through any fixed-array levels. */
            params.len = lvalue.len = 0;
            if (!blobc_buf_printf(&params, "const %s *blobc_p", ti->cname) ||
                !blobc_buf_printf(&lvalue, "blobc_p->%s", ti->members[f]) ||
                !add_fixed_indices(&params, &lvalue, ft)) {
                g->ok = false;
                break;
            }
            emit_view_head(g, ti->acc[f], (const char *)params.data, strip_fixed(ft));
            emit_view_body(g, strip_fixed(ft), (const char *)lvalue.data);
        }
        if (ti->acc_at[f] && ft->kind == BLOBC_KIND_ARRAY) {
            /* Item i of a [T] whose items hold offsets themselves. */
            const blobc_type *item = ft->elem;
            params.len = lvalue.len = 0;
            if (!blobc_buf_printf(&params, "const %s *blobc_p, size_t blobc_i", ti->cname) ||
                !blobc_buf_puts(&lvalue, "blobc_a[blobc_i]") ||
                !add_fixed_indices(&params, &lvalue, item)) {
                g->ok = false;
                break;
            }
            emit_view_head(g, ti->acc_at[f], (const char *)params.data, strip_fixed(item));
            emit(g, "    ");
            emit_ptr_decl(g, item, "blobc_a");
            emit(g, " = %s(", cast_macro(item));
            emit_ptr_type(g, item);
            emit(g, ", blobc_rt_array_data(&blobc_p->%s, BLOBC_RT_NULL));\n", ti->members[f]);
            emit_view_body(g, strip_fixed(item), (const char *)lvalue.data);
        }
        if (ti->acc_find[f] && ft->kind == BLOBC_KIND_ARRAY) emit_find(g, ti, f);
        blobc_genc_new_accessors(g, ti, f);
    }
    blobc_buffer_free(&params);
    blobc_buffer_free(&lvalue);
    return g->ok ? BLOBC_OK : nomem(g);
}

static blobc_status emit_open_fns(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    const char *c = ti->cname;
    emit(g, "#define %s UINT64_C(0x%016" PRIx64 ")\n", ti->hash_macro, ti->hash);
    emit(g,
         "/* A .blob file image whose root is a %s: the root, or NULL and *status. */\n"
         "static inline const %s *%s(const void *blobc_data, size_t blobc_size, "
         "blobc_rt_status *blobc_status_out) {\n"
         "    blobc_rt_view blobc_v;\n"
         "    blobc_rt_status blobc_s = blobc_rt_open(blobc_data, blobc_size, %s, sizeof(%s), &blobc_v);\n"
         "    if (blobc_status_out) *blobc_status_out = blobc_s;\n"
         "    return blobc_s == BLOBC_RT_OK ? BLOBC_RT_CAST(const %s *, blobc_v.data) : BLOBC_RT_NULL;\n"
         "}\n",
         t->name, c, ti->open_fn, ti->hash_macro, c, c);
    emit(g,
         "/* A raw data section (bake --format raw) whose root is a %s. */\n"
         "static inline const %s *%s(const void *blobc_data, size_t blobc_size, "
         "blobc_rt_status *blobc_status_out) {\n"
         "    blobc_rt_view blobc_v;\n"
         "    blobc_rt_status blobc_s = blobc_rt_open_raw(blobc_data, blobc_size, sizeof(%s), &blobc_v);\n"
         "    if (blobc_status_out) *blobc_status_out = blobc_s;\n"
         "    return blobc_s == BLOBC_RT_OK ? BLOBC_RT_CAST(const %s *, blobc_v.data) : BLOBC_RT_NULL;\n"
         "}\n",
         t->name, c, ti->open_raw_fn, c, c);

    emit(g,
         "#ifdef BLOBC_WITH_LIBRARY\n"
         "/* Like %s, after blobc_verify_blob checked the whole file against\n"
         " * this layout: for files from outside the program. */\n"
         "static inline const %s *%s(const void *blobc_data, size_t blobc_size, "
         "blobc_error *blobc_err) {\n"
         "    size_t blobc_n;\n"
         "    const char *blobc_text = %s(&blobc_n);\n"
         "    blobc_rt_view blobc_v;\n"
         "    if (blobc_rt_open_checked(blobc_data, blobc_size, blobc_text, blobc_n, \"%s\", %s,\n"
         "                              sizeof(%s), &blobc_v, blobc_err) != BLOBC_OK)\n"
         "        return BLOBC_RT_NULL;\n"
         "    return BLOBC_RT_CAST(const %s *, blobc_v.data);\n"
         "}\n#endif\n\n",
         ti->open_fn, c, ti->open_checked_fn, g->text_fn, t->name, ti->hash_macro, c, c);
    return BLOBC_OK;
}

/* The schema's file name for the header comment, with anything that could
 * end the comment or confuse a reader replaced. */
static void emit_file_name(gen *g) {
    const char *file = blobc_schema_filename(g->schema);
    const char *base = file && *file ? file : "(schema)";
    for (const char *p = base; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    for (const char *p = base; *p && g->ok; p++) {
        char ch = *p;
        bool plain = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                     ch == '.' || ch == '_' || ch == '-' || ch == '+';
        g->ok = blobc_buf_putc(g->out, plain ? ch : '?');
    }
}

static blobc_status generate(gen *g) {
    blobc_status st;
    if ((st = blobc_genc_assign_names(g)) != BLOBC_OK) return st;
    const blobc_type *root = blobc_schema_root(g->schema);

    emit(g, "/*\n * Generated by `blobc gen c` from ");
    emit_file_name(g);
    emit(g, "; do not edit.\n"
            " *\n"
            " * Reads blobs of this schema in place over the runtime in <blobc/blob.h>.\n"
            " * <Type>_open checks the header only (trusted files); define\n"
            " * BLOBC_WITH_LIBRARY and link libblobc for <Type>_open_checked, which\n"
            " * verifies the whole file first. See docs/CODEGEN.md.\n");
    if (root && root->kind == BLOBC_KIND_STRUCT && blobc_genc_info_of(g, root) && is_own(g, root))
        emit(g, " *\n * Root type: %s (open with %s).\n", blobc_genc_info_of(g, root)->cname, blobc_genc_info_of(g, root)->open_fn);
    emit(g, " */\n#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n\n"
            "#include <blobc/blob.h>\n#ifdef BLOBC_WITH_LIBRARY\n#include <blobc/blobc.h>\n"
            "#endif\n\n",
         g->guard, g->guard);
    if ((st = blobc_genc_includes(g, ".h")) != BLOBC_OK) return st;

    bool any_struct = false;
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind != BLOBC_KIND_ENUM && is_own(g, g->info[i].type)) {
            emit(g, "typedef struct %s %s;\n", g->info[i].cname, g->info[i].cname);
            any_struct = true;
        }
    blobc_genc_anon_typedefs(g);
    if (any_struct) emit(g, "\n");
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind == BLOBC_KIND_ENUM && is_own(g, g->info[i].type)) emit_enum(g, &g->info[i]);
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind == BLOBC_KIND_UNION && is_own(g, g->info[i].type)) emit_union(g, &g->info[i]);
    if ((st = blobc_genc_structs_in_order(g, emit_struct)) != BLOBC_OK) return st;
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind == BLOBC_KIND_STRUCT && is_own(g, g->info[i].type))
            blobc_genc_anon_defs(g, &g->info[i], false);
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind == BLOBC_KIND_ENUM && is_own(g, g->info[i].type) &&
            (st = emit_enum_name_fn(g, &g->info[i])) != BLOBC_OK)
            return st;
    if (any_struct && (st = blobc_genc_schema_text(g)) != BLOBC_OK) return st;
    for (size_t i = 0; i < g->ninfo; i++) {
        const type_info *ti = &g->info[i];
        if (!is_own(g, ti->type)) continue;
        if (ti->type->kind == BLOBC_KIND_UNION) {
            emit(g, "/* ---- union %s ---- */\n", ti->type->name);
            emit_union_accessors(g, ti);
        }
        if (ti->type->kind != BLOBC_KIND_STRUCT) continue;
        emit(g, "/* ---- %s ---- */\n", ti->type->name);
        if ((st = emit_accessors(g, ti)) != BLOBC_OK) return st;
        if ((st = emit_open_fns(g, ti)) != BLOBC_OK) return st;
    }
    emit(g, "#endif /* %s */\n", g->guard);
    return g->ok ? BLOBC_OK : nomem(g);
}

blobc_status blobc_gen_c(const blobc_schema *schema, const blobc_gen_options *opts,
                         blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!schema || !out) return blobc_err_arg(err, __func__, "schema or out is NULL");
    const char *prefix = opts && opts->prefix ? opts->prefix : "";
    if (*prefix && !blobc_gen_is_identifier(prefix))
        return blobc_err(err, BLOBC_EARG, "gen c: prefix '%s' is not a C identifier", prefix);
    if (opts && opts->guard && !blobc_gen_is_identifier(opts->guard))
        return blobc_err(err, BLOBC_EARG, "gen c: include guard '%s' is not a C identifier",
                         opts->guard);
    gen g;
    size_t start = out->len;
    blobc_status st = blobc_genc_begin(&g, "gen c", schema, prefix, opts ? opts->guard : NULL, "_H", out, err);
    if (st == BLOBC_OK) st = blobc_genc_collect_anon(&g);
    g.own_only = opts && opts->own_file_only;
    if (st == BLOBC_OK) st = generate(&g);
    if (st != BLOBC_OK) out->len = start;   /* all or nothing */
    blobc_genc_end(&g);
    return st;
}
