/*
 * gen_cpp.c - `blobc gen cpp`: writes a C++17 header that reads blobs of
 * a schema in place through classes with accessors, over the runtime in
 * blobc/blob.hpp (views for strings, arrays, pointers).
 *
 * The output, in order: forward declarations of every class, the enums
 * (enum class, with a to_string overload), the schema text for the
 * verified open, the unions' classes, the structs' classes in
 * inline-dependency order (private data members laid out with explicit
 * padding, an accessor per field, the open functions) each followed by
 * static assertions on its size, alignment and offsets, then the keys of
 * the structs with a @key field (blobc::key_of, for Vector<T>::find). It shares with
 * gen c (c_shared.c) its state, struct order, doc comments, enum literals and
 * schema text; c_names.c gives the names. docs/CODEGEN.md describes it.
 */
#include "gen/c_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define emit(g, ...) blobc_emit((g)->out, &(g)->ok, __VA_ARGS__)

/* ---- stored types ---- */

/* A generated type where a member function may have its name: qualified,
 * and in the global namespace elaborated too (`class ::remove`), since the
 * C library may have a function of that name there. */
static void emit_type_ref(gen *g, const blobc_type *t) {
    const char *key = g->qual[2] ? "" : t->kind == BLOBC_KIND_ENUM ? "enum " : "class ";
    emit(g, "%s%s%s", key, g->qual, blobc_genc_info_of(g, t)->cname);
}

/* The C++ type a value of t is stored as, every generated type as above. */
static void emit_stored(gen *g, const blobc_type *t) {
    switch (t->kind) {
    case BLOBC_KIND_BOOL: emit(g, "::blobc::Bool"); return;
    case BLOBC_KIND_ENUM:
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION: emit_type_ref(g, t); return;
    case BLOBC_KIND_STRING: emit(g, "::blobc::String"); return;
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
        emit(g, t->kind == BLOBC_KIND_ARRAY ? "::blobc::Vector<" : "::blobc::Ptr<");
        emit_stored(g, t->elem);
        emit(g, ">");
        return;
    case BLOBC_KIND_FIXED:
        emit(g, "::blobc::Fixed<");
        emit_stored(g, t->elem);
        emit(g, ", %" PRIu32 ">", t->count);
        return;
    case BLOBC_KIND_MAP:
        emit(g, "::blobc::Map<");
        emit_stored(g, blobc_map_key(t));
        emit(g, ", ");
        emit_stored(g, blobc_map_value(t));
        emit(g, ">");
        return;
    case BLOBC_KIND_OPTIONAL:
        emit(g, "::blobc::Optional<");
        emit_stored(g, t->elem);
        emit(g, ">");
        return;
    case BLOBC_KIND_ANY: emit(g, "::blobc::Any"); return;
    default: emit(g, "%s", blobc_genc_scalar_type(t->kind)); return;
    }
}

/* Whether a value of t holds offsets, so that a copy would read wrong. */
static bool holds_offsets(const gen *g, const blobc_type *t) {
    t = strip_inline(t);
    if (is_ref_kind(t->kind) || t->kind == BLOBC_KIND_UNION || t->kind == BLOBC_KIND_ANY) return true;
    return t->kind == BLOBC_KIND_STRUCT && blobc_genc_info_of(g, t)->offsets;
}

static void emit_no_copy(gen *g, const char *c) {
    emit(g, "    %s(const %s &) = delete;\n    %s &operator=(const %s &) = delete;\n", c, c, c, c);
}

/* ---- enums ---- */

/* to_string(v): the member's name, nullptr for an undeclared value; the
 * first of several members with one value names it. */
static blobc_status emit_to_string(gen *g, const char *param, const char *type, uint32_t n,
                                   const char *const *cases, const char *const *names, const bool *dup) {
    emit(g, "constexpr const char *to_string(%s%s blobc_v) noexcept {\n    switch (blobc_v) {\n", param, type);
    for (uint32_t v = 0; v < n; v++)
        if (!dup || !dup[v]) emit(g, "    case %s::%s: return \"%s\";\n", type, cases[v], names[v]);
    emit(g, "    default: break;\n    }\n    return nullptr;\n}\n\n");
    return BLOBC_OK;
}

static blobc_status emit_enum(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    blobc_genc_doc(g, "", t->doc);
    emit(g, "enum class %s : %s {\n", ti->cname, blobc_genc_scalar_type(t->elem->kind));
    for (uint32_t v = 0; v < t->nvalues; v++) {
        blobc_genc_doc(g, "    ", t->values[v].doc);
        emit(g, "    %s = ", ti->values[v]);
        blobc_genc_enum_literal(g, t->elem->kind, t->values[v].value);
        emit(g, ",\n");
    }
    emit(g, "};\n");
    bool *dup = blobc_genc_enum_dups(t);
    const char **names = blobc_arena_array(&g->arena, t->nvalues ? t->nvalues : 1, sizeof *names);
    g->tmp.len = 0;
    if (!dup || !names || !blobc_buf_printf(&g->tmp, "%s%s", g->qual, ti->cname) ||
        !blobc_buf_putc(&g->tmp, '\0')) {
        free(dup);
        return nomem(g);
    }
    for (uint32_t v = 0; v < t->nvalues; v++) names[v] = t->values[v].name;
    char *type = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    blobc_status st = type ? emit_to_string(g, g->qual[2] ? "" : "enum ", type, t->nvalues, ti->values,
                                            names, dup)
                           : nomem(g);
    free(dup);
    return st;
}

/* ---- layout assertions ---- */

/* After a class: a private static member function holding the static
 * assertions, as only members may name the private data members. */
static void emit_layout_check(gen *g, const type_info *ti, uint32_t size, uint32_t align) {
    const char *c = ti->cname;
    emit(g, "inline void %s::blobc_layout() noexcept {\n", c);
    emit(g, "    static_assert(::std::is_standard_layout_v<%s>, \"%s: must be standard-layout\");\n", c, c);
    emit(g, "    static_assert(sizeof(%s) == %" PRIu32 ", \"%s: size must be %" PRIu32 "\");\n", c, size,
         c, size);
    emit(g, "    static_assert(alignof(%s) == %" PRIu32 ", \"%s: alignment must be %" PRIu32 "\");\n", c,
         align, c, align);
}

static void emit_offset_check(gen *g, const char *c, const char *member, const char *shown,
                              uint32_t offset) {
    emit(g, "    static_assert(offsetof(%s, %s) == %" PRIu32 ", \"%s.%s: offset must be %" PRIu32 "\");\n",
         c, member, offset, c, shown, offset);
}

/* ---- unions ---- */

/* A tagged union's data names the member by a field's value or a YAML
 * tag: tag_of(Tag) gives it, tag_field the field. */
static void emit_union_tags(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    if (t->by == BLOBC_UNION_BY_KEY) return;
    if (t->by == BLOBC_UNION_BY_FIELD) {
        emit(g, "    /* The field of a member's data that names the member. */\n"
                "    static constexpr ::std::string_view %s = ", ti->tag_field_macro);
        blobc_genc_c_string(g, t->tag_field ? t->tag_field : "");
        emit(g, ";\n");
    }
    if (ti->default_macro && t->default_member <= t->nfields)
        emit(g, "    /* The member of data without a tag. */\n    static constexpr %s %s = %s::%s;\n",
             ti->members[1], ti->default_macro, ti->members[1], ti->values[t->default_member]);
    emit(g, "    /* A member's tag in the data (%s; %s for none). */\n"
            "    static constexpr %s %s(%s blobc_t) noexcept {\n        switch (blobc_t) {\n",
         t->by == BLOBC_UNION_BY_TAG ? "its YAML tag" : "the value of that field", t->int_tags ? "0" : "\"\"",
         t->int_tags ? "::std::int64_t" : "::std::string_view", ti->name_fn, ti->members[1]);
    for (uint32_t m = 0; m < t->nfields; m++) {
        emit(g, "        case %s::%s: return ", ti->members[1], ti->values[m + 1]);
        if (t->int_tags) blobc_genc_enum_literal(g, BLOBC_KIND_I64, t->fields[m].tag_value);
        else blobc_genc_c_string(g, t->fields[m].tag ? t->fields[m].tag : "");
        emit(g, ";\n");
    }
    emit(g, "        default: break;\n        }\n        return %s;\n    }\n", t->int_tags ? "0" : "\"\"");
}

static blobc_status emit_union(gen *g, const type_info *ti) {
    const blobc_type *t = ti->type;
    const char *c = ti->cname, *tag_fn = ti->members[0], *tag_type = ti->members[1];
    blobc_genc_doc(g, "", t->doc);
    emit(g, "/* union %s: a tag (0: none, i: member i) and the member out of line */\nclass %s {\npublic:\n",
         t->name, c);
    emit(g, "    enum class %s : uint32_t {\n        %s = 0u,\n", tag_type, ti->values[0]);
    for (uint32_t m = 0; m < t->nfields; m++) {
        blobc_genc_doc(g, "        ", t->fields[m].doc);
        emit(g, "        %s = %" PRIu32 "u,\n", ti->values[m + 1], m + 1);
    }
    emit(g, "    };\n");
    emit_no_copy(g, c);
    emit(g, "    constexpr %s %s() const noexcept { return static_cast<%s>(blobc_tag); }\n", tag_type,
         tag_fn, tag_type);
    for (uint32_t m = 0; m < t->nfields; m++) {
        const blobc_type *mt = t->fields[m].type->elem;
        emit(g, "    /* The %s, or nullptr when the value holds another member or none. */\n    const ",
             t->fields[m].name);
        emit_type_ref(g, mt);
        emit(g, " *%s() const noexcept {\n        return blobc_tag == %" PRIu32 "u ? static_cast<const ",
             ti->acc[m], m + 1);
        emit_type_ref(g, mt);
        emit(g, " *>(::blobc::resolve(blobc_ref)) : nullptr;\n    }\n");
    }
    emit_union_tags(g, ti);
    emit(g, "\nprivate:\n    uint32_t blobc_tag;\n    int32_t blobc_ref;\n"
            "    static void blobc_layout() noexcept;\n};\n");
    emit_layout_check(g, ti, BLOBC_UNION_SIZE, BLOBC_UNION_ALIGN);
    emit_offset_check(g, c, "blobc_tag", "tag", 0);
    emit_offset_check(g, c, "blobc_ref", "ref", BLOBC_UNION_REF);
    emit(g, "}\n\n");

    const char **names = blobc_arena_array(&g->arena, t->nfields + 1, sizeof *names);
    g->tmp.len = 0;
    if (!names || !blobc_buf_printf(&g->tmp, "%s%s::%s", g->qual, c, tag_type) || !blobc_buf_putc(&g->tmp, '\0'))
        return nomem(g);
    names[0] = "";
    for (uint32_t m = 0; m < t->nfields; m++) names[m + 1] = t->fields[m].name;
    char *type = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    return type ? emit_to_string(g, "", type, t->nfields + 1, ti->values, names, NULL) : nomem(g);
}

/* ---- structs ---- */

/* The accessor of field f: numbers, enums and bools by value, a string as
 * std::string_view, a *T as const T *, the rest by reference (structs,
 * unions, [T] and [T; N] views). */
static void emit_accessor(gen *g, const type_info *ti, uint32_t f) {
    const blobc_field *fd = &ti->type->fields[f];
    const blobc_type *ft = fd->type;
    const char *fn = ti->acc[f];
    blobc_genc_doc(g, "    ", fd->doc);
    emit(g, "    ");
    switch (ft->kind) {
    case BLOBC_KIND_STRING:
        emit(g, "::std::string_view %s() const noexcept { return blobc_f%" PRIu32 ".view(); }\n", fn, f);
        return;
    case BLOBC_KIND_PTR:
        emit(g, "const ");
        emit_stored(g, ft->elem);
        emit(g, " *%s() const noexcept { return blobc_f%" PRIu32 ".get(); }\n", fn, f);
        return;
    case BLOBC_KIND_BOOL:
        emit(g, "constexpr bool %s() const noexcept { return blobc_f%" PRIu32 ".get(); }\n", fn, f);
        return;
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_ANY:
    case BLOBC_KIND_FIXED:
        emit(g, "%sconst ", ft->kind == BLOBC_KIND_STRUCT || ft->kind == BLOBC_KIND_UNION ||
                                    ft->kind == BLOBC_KIND_FIXED ? "constexpr " : "");
        emit_stored(g, ft);
        emit(g, " &%s() const noexcept { return blobc_f%" PRIu32 "; }\n", fn, f);
        return;
    default:
        emit(g, "constexpr ");
        emit_stored(g, ft);
        emit(g, " %s() const noexcept { return blobc_f%" PRIu32 "; }\n", fn, f);
        return;
    }
}

static void emit_open_fns(gen *g, const type_info *ti) {
    const char *c = ti->cname;
    emit(g,
         "\n    /* The layout hash of %s, as `blobc check` prints it. */\n"
         "    static constexpr uint64_t schema_hash = UINT64_C(0x%016" PRIx64 ");\n"
         "    /* A .blob file image whose root is a %s, its header checked (for\n"
         "     * trusted files): the root, or nullptr and *why. */\n"
         "    static const %s *open(const void *blobc_data, size_t blobc_size,\n"
         "        blobc_rt_status *blobc_why = nullptr) noexcept {\n"
         "        return ::blobc::open<%s>(blobc_data, blobc_size, blobc_why);\n    }\n"
         "    /* A raw data section (bake --format raw) whose root is a %s. */\n"
         "    static const %s *open_raw(const void *blobc_data, size_t blobc_size,\n"
         "        blobc_rt_status *blobc_why = nullptr) noexcept {\n"
         "        return ::blobc::open_raw<%s>(blobc_data, blobc_size, blobc_why);\n    }\n",
         ti->type->name, ti->hash, ti->type->name, c, c, ti->type->name, c, c);
    emit(g,
         "#ifdef BLOBC_WITH_LIBRARY\n"
         "    /* Like open, after blobc_verify_blob checked the whole file against\n"
         "     * this layout: for files from outside the program. */\n"
         "    static const %s *open_verified(const void *blobc_data, size_t blobc_size,\n"
         "        blobc_error *blobc_err) noexcept {\n"
         "        size_t blobc_n;\n"
         "        const char *blobc_text = %s%s(&blobc_n);\n"
         "        return ::blobc::open_verified<%s>(blobc_data, blobc_size, blobc_text, blobc_n, \"%s\", blobc_err);\n"
         "    }\n#endif\n",
         c, g->qual, g->text_fn, c, ti->type->name);
}

static blobc_status emit_struct(gen *g, const type_info *cti) {
    type_info *ti = blobc_genc_info_of(g, cti->type);
    const blobc_type *t = ti->type;
    const char *c = ti->cname;
    blobc_status st = blobc_genc_check_struct(g, t);
    if (st != BLOBC_OK) return st;
    for (uint32_t f = 0; f < t->nfields; f++) ti->offsets = ti->offsets || holds_offsets(g, t->fields[f].type);
    if (!is_own(g, t)) return BLOBC_OK;
    blobc_genc_doc(g, "", t->doc);
    emit(g, "/* struct %s: size %" PRIu32 ", alignment %" PRIu32 " */\nclass %s {\npublic:\n", t->name,
         t->size, t->align, c);
    if (ti->offsets) emit_no_copy(g, c);
    for (uint32_t f = 0; f < t->nfields; f++) emit_accessor(g, ti, f);
    emit_open_fns(g, ti);
    emit(g, "\nprivate:\n");
    uint32_t cur = 0, npad = 0;
    for (uint32_t f = 0; f < t->nfields; f++) {
        const blobc_field *fd = &t->fields[f];
        if (fd->offset > cur)
            emit(g, "    uint8_t blobc_pad%" PRIu32 "[%" PRIu32 "];\n", npad++, fd->offset - cur);
        emit(g, "    %s", f == 0 && blobc_genc_raised_align(t) ? "alignas(" : "");
        if (f == 0 && blobc_genc_raised_align(t)) emit(g, "%" PRIu32 ") ", t->align);
        emit_stored(g, fd->type);
        /* a quoted name ("near clip plane") is shown as its identifier in comments and messages */
        const char *shown = blobc_gen_ident(&g->arena, fd->name);
        emit(g, " blobc_f%" PRIu32 "; /* @%" PRIu32 " %s: ", f, fd->offset, shown ? shown : "?");
        blobc_genc_spelling(g, fd->type);
        emit(g, " */\n");
        cur = fd->offset + fd->type->size;
    }
    if (t->size > cur) emit(g, "    uint8_t blobc_pad%" PRIu32 "[%" PRIu32 "];\n", npad++, t->size - cur);
    emit(g, "    static void blobc_layout() noexcept;\n};\n");
    emit_layout_check(g, ti, t->size, t->align);
    g->tmp.len = 0;
    for (uint32_t f = 0; f < t->nfields; f++) {
        char member[24];
        snprintf(member, sizeof member, "blobc_f%" PRIu32, f);
        const char *shown = blobc_gen_ident(&g->arena, t->fields[f].name);
        emit_offset_check(g, c, member, shown ? shown : "?", t->fields[f].offset);
    }
    for (uint32_t k = 0; k < npad; k++) /* names every padding member: none goes unused */
        emit(g, "    static_assert(sizeof(blobc_pad%" PRIu32 ") > 0, \"padding\");\n", k);
    emit(g, "}\n\n");
    return g->ok ? BLOBC_OK : nomem(g);
}

/* ---- keys ---- */

/* blobc::key_of<S> for each struct S with a @key field, which
 * blobc::Vector<S>::find reads: in namespace blobc, so after the output's
 * own namespace is closed. */
static void emit_keys(gen *g) {
    bool open = false;
    for (size_t i = 0; i < g->ninfo; i++) {
        const type_info *ti = &g->info[i];
        const blobc_type *t = ti->type;
        if (t->kind != BLOBC_KIND_STRUCT || !t->key || !is_own(g, t)) continue;
        const blobc_type *kt = t->fields[t->key - 1].type;
        if (!open) emit(g, "namespace blobc {\n\n");
        open = true;
        const char *shown = blobc_gen_ident(&g->arena, t->fields[t->key - 1].name);
        emit(g, "/* %s's key, its %s: for ::blobc::Vector<%s>::find. */\ntemplate <>\nstruct key_of<",
             t->name, shown ? shown : "?", t->name);
        emit_type_ref(g, t);
        emit(g, "> {\n    using type = ");
        if (kt->kind == BLOBC_KIND_STRING) emit(g, "::std::string_view");
        else emit_stored(g, kt);
        emit(g, ";\n    static type get(const ");
        emit_type_ref(g, t);
        emit(g, " &blobc_v) noexcept { return blobc_v.%s(); }\n};\n\n", ti->acc[t->key - 1]);
    }
    if (open) emit(g, "} // namespace blobc\n\n");
}

/* ---- driver ---- */

static blobc_status generate(gen *g, const char *ns) {
    blobc_status st = blobc_gencpp_assign_names(g);
    if (st != BLOBC_OK) return st;
    const blobc_type *root = blobc_schema_root(g->schema);
    emit(g, "/*\n * Generated by `blobc gen cpp` from ");
    if (g->ok) g->ok = blobc_gen_file_name(g->schema, g->out);
    emit(g, "; do not edit.\n"
            " *\n"
            " * Reads blobs of this schema in place: Type::open checks the header only\n"
            " * (trusted files); define BLOBC_WITH_LIBRARY and link libblobc for\n"
            " * Type::open_verified, which verifies the whole file first. Needs\n"
            " * <blobc/blob.hpp>; see docs/CODEGEN.md.\n");
    if (root && root->kind == BLOBC_KIND_STRUCT && blobc_genc_info_of(g, root) && is_own(g, root))
        emit(g, " *\n * Root type: %s (open with %s::open).\n", blobc_genc_info_of(g, root)->cname,
             blobc_genc_info_of(g, root)->cname);
    emit(g, " */\n#ifndef %s\n#define %s\n\n#include <cstddef>\n#include <cstdint>\n"
            "#include <string_view>\n#include <type_traits>\n\n#include <blobc/blob.hpp>\n\n",
         g->guard, g->guard);
    if ((st = blobc_genc_includes(g, ".hpp")) != BLOBC_OK) return st;
    if (ns) emit(g, "namespace %s {\n\n", ns);
    bool any_struct = false;
    for (size_t i = 0; i < g->ninfo; i++)
        if (g->info[i].type->kind != BLOBC_KIND_ENUM && is_own(g, g->info[i].type)) {
            emit(g, "class %s;\n", g->info[i].cname);
            any_struct = any_struct || g->info[i].type->kind == BLOBC_KIND_STRUCT;
        }
    emit(g, "\n");
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++)
        if (g->info[i].type->kind == BLOBC_KIND_ENUM && is_own(g, g->info[i].type)) st = emit_enum(g, &g->info[i]);
    if (st == BLOBC_OK && any_struct) st = blobc_genc_schema_text(g);
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++)
        if (g->info[i].type->kind == BLOBC_KIND_UNION && is_own(g, g->info[i].type)) st = emit_union(g, &g->info[i]);
    if (st == BLOBC_OK) st = blobc_genc_structs_in_order(g, emit_struct);
    if (st != BLOBC_OK) return st;
    if (ns) emit(g, "} // namespace %s\n\n", ns);
    emit_keys(g);
    emit(g, "#endif /* %s */\n", g->guard);
    return g->ok ? BLOBC_OK : nomem(g);
}

/* A::B::C: each part a C++ identifier the output would not escape. */
static bool is_namespace(const char *ns) {
    blobc_buffer part = {0};
    bool ok = *ns != '\0';
    for (const char *p = ns; ok && *p;) {
        size_t n = strcspn(p, ":");
        part.len = 0;
        ok = n > 0 && blobc_buf_append(&part, p, n) && blobc_buf_putc(&part, '\0') &&
             blobc_gen_is_identifier((const char *)part.data) &&
             !blobc_genc_is_escaped((const char *)part.data);
        p += n;
        if (ok && *p) {
            ok = p[1] == ':' && p[2] != '\0';
            p += 2;
        }
    }
    blobc_buffer_free(&part);
    return ok;
}

blobc_status blobc_gen_cpp(const blobc_schema *schema, const blobc_gen_cpp_options *opts,
                           blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!schema || !out) return blobc_err_arg(err, __func__, "schema or out is NULL");
    const char *ns = opts && opts->namespace_name && *opts->namespace_name ? opts->namespace_name : NULL;
    if (ns && !is_namespace(ns))
        return blobc_err(err, BLOBC_EARG, "gen cpp: namespace '%s' is not a C++ namespace name", ns);
    if (opts && opts->guard && !blobc_gen_is_identifier(opts->guard))
        return blobc_err(err, BLOBC_EARG, "gen cpp: include guard '%s' is not a C identifier",
                         opts->guard);
    gen g;
    size_t start = out->len;
    blobc_status st = blobc_genc_begin(&g, "gen cpp", schema, "", opts ? opts->guard : NULL, "_HPP", out, err);
    blobc_buffer qual = {0};
    if (st == BLOBC_OK && (!blobc_buf_printf(&qual, "::%s%s", ns ? ns : "", ns ? "::" : "") ||
                           !blobc_buf_putc(&qual, '\0')))
        st = nomem(&g);
    g.qual = (const char *)qual.data;
    g.own_only = opts && opts->own_file_only;
    if (st == BLOBC_OK) st = generate(&g, ns);
    if (st != BLOBC_OK) out->len = start;   /* all or nothing */
    blobc_buffer_free(&qual);
    blobc_genc_end(&g);
    return st;
}
