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
 * the names.
 */
#include "gen/c_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

void blobc_genc_emit(gen *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_vemit(g->out, &g->ok, fmt, ap);
    va_end(ap);
}
#define emit blobc_genc_emit
#define base_ctype blobc_genc_base_ctype
#define emit_ptr_type blobc_genc_ptr_type
#define emit_ptr_decl blobc_genc_ptr_decl
#define cast_macro blobc_genc_cast_macro
#define emit_view_head blobc_genc_view_head
#define emit_view_body blobc_genc_view_body
#define add_fixed_indices blobc_genc_fixed_indices

static bool map_build(gen *g) {
    if (g->ninfo >= UINT32_MAX / 2 || !blobc_hashtab_reserve(&g->map, g->ninfo)) return false;
    /* the anonymous types come later (blobc_genc_collect_anon) */
    for (size_t i = 0; i < g->ninfo; i++)
        if (!blobc_hashtab_add(&g->map, blobc_hash_ptr(g->info[i].type), (uint32_t)i + 1))
            return false;
    return true;
}

type_info *blobc_genc_info_of(const gen *g, const blobc_type *t) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&g->map, blobc_hash_ptr(t), &p); k;
         k = blobc_hashtab_next(&g->map, &p))
        if (g->info[k - 1].type == t) return &g->info[k - 1];
    return NULL;
}

/* ---- C spelling of types ---- */

const char *blobc_genc_base_ctype(const gen *g, const blobc_type *t) {
    switch (t->kind) {
    case BLOBC_KIND_ENUM:
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_UNION: return blobc_genc_info_of(g, t)->cname;
    case BLOBC_KIND_STRING: return "blobc_rt_str";
    case BLOBC_KIND_ANY: return "blobc_rt_any";
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_ARRAY: return "blobc_rt_array";
    case BLOBC_KIND_PTR: return "blobc_rt_ptr";
    default: return blobc_genc_scalar_type(t->kind);
    }
}

const char *blobc_genc_scalar_type(blobc_kind k) {
    switch (k) {
    case BLOBC_KIND_BOOL: return "blobc_rt_bool";
    case BLOBC_KIND_I8: return "int8_t";
    case BLOBC_KIND_U8: return "uint8_t";
    case BLOBC_KIND_I16: return "int16_t";
    case BLOBC_KIND_U16: return "uint16_t";
    case BLOBC_KIND_I32: return "int32_t";
    case BLOBC_KIND_U32: return "uint32_t";
    case BLOBC_KIND_I64: return "int64_t";
    case BLOBC_KIND_U64: return "uint64_t";
    case BLOBC_KIND_F32: return "float";
    case BLOBC_KIND_F64: return "double";
    default: return "void";
    }
}

static void emit_dims(gen *g, const blobc_type *t) {
    for (; t->kind == BLOBC_KIND_FIXED; t = t->elem) emit(g, "[%" PRIu32 "]", t->count);
}

/* The type name "pointer to const t": `const T *`, or `const T (*)[N]`
 * when t is a fixed array. */
void emit_ptr_type(gen *g, const blobc_type *t) {
    if (t->kind == BLOBC_KIND_FIXED) {
        emit(g, "const %s (*)", base_ctype(g, strip_fixed(t)));
        emit_dims(g, t);
    } else {
        emit(g, "const %s *", base_ctype(g, t));
    }
}

/* A declarator of type "pointer to const t" around `inner` (a variable
 * name, or a function name with its parameter list). */
void emit_ptr_decl(gen *g, const blobc_type *t, const char *inner) {
    if (t->kind == BLOBC_KIND_FIXED) {
        emit(g, "const %s (*%s)", base_ctype(g, strip_fixed(t)), inner);
        emit_dims(g, t);
    } else {
        emit(g, "const %s *%s", base_ctype(g, t), inner);
    }
}

/* The cast from `const void *` to "pointer to const t". */
const char *cast_macro(const blobc_type *t) {
    return t->kind == BLOBC_KIND_FIXED ? "BLOBC_RT_CAST_ROWS" : "BLOBC_RT_CAST";
}

/* The schema spelling of a type, for comments. */
void blobc_genc_spelling(gen *g, const blobc_type *t) {
    char small[128];
    size_t n = blobc_type_spell(t, small, sizeof small);
    if (n < sizeof small) {
        emit(g, "%s", small);
        return;
    }
    char *big = n < SIZE_MAX ? malloc(n + 1) : NULL;
    if (!big) {
        g->ok = false;
        return;
    }
    blobc_type_spell(t, big, n + 1);
    emit(g, "%s", big);
    free(big);
}

/* ---- enums ---- */

/* An enum member's value as a C constant expression of the right type
 * and range: plain int literals where they fit, `u` for u32, the
 * <stdint.h> macros for 64 bits, and the usual (-MAX - 1) for minimums. */
void blobc_genc_enum_literal(gen *g, blobc_kind base, uint64_t bits) {
    if (!blobc_kind_is_signed(base)) {
        if (base == BLOBC_KIND_U64) emit(g, "UINT64_C(%" PRIu64 ")", bits);
        else if (base == BLOBC_KIND_U32) emit(g, "%" PRIu64 "u", bits);
        else emit(g, "%" PRIu64, bits);
        return;
    }
    bool neg = bits >> 63;
    uint64_t mag = neg ? ~bits + 1 : bits;   /* |value|, exact even for INT64_MIN */
    if (base == BLOBC_KIND_I64) {
        if (!neg) emit(g, "INT64_C(%" PRIu64 ")", mag);
        else if (mag == (uint64_t)1 << 63) emit(g, "(-INT64_C(9223372036854775807) - 1)");
        else emit(g, "(-INT64_C(%" PRIu64 "))", mag);
    } else if (!neg) {
        emit(g, "%" PRIu64, mag);
    } else if (mag == (uint64_t)1 << 31) {
        emit(g, "(-2147483647 - 1)");
    } else {
        emit(g, "(-%" PRIu64 ")", mag);
    }
}

/* A schema doc comment as a C comment: one line stays one line, more make a
 * block; blobc_gen_doc_line keeps each line inside it. */
void blobc_genc_doc(gen *g, const char *indent, const char *doc) {
    if (!doc) return;
    bool multi = strchr(doc, '\n') != NULL;
    emit(g, "%s/**%s", indent, multi ? "\n" : " ");
    for (const char *p = doc; *p;) {
        size_t n = strcspn(p, "\n");
        if (multi) emit(g, "%s *%s", indent, n ? " " : "");
        if (g->ok) g->ok = blobc_gen_doc_line(g->out, p, n, BLOBC_GEN_DOC_C);
        if (multi) emit(g, "\n");
        p += n;
        if (*p) p++;
    }
    emit(g, multi ? "%s */\n" : "%s*/\n", multi ? indent : " ");
}

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

typedef struct value_index {
    uint64_t value;
    uint32_t index;
} value_index;

static int cmp_value_index(const void *a, const void *b) {
    const value_index *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* `<Enum>_name(v)`: the member's name, NULL for an undeclared value. */
bool *blobc_genc_enum_dups(const blobc_type *t) {
    value_index *order = malloc((t->nvalues ? t->nvalues : 1) * sizeof *order);
    bool *dup = calloc(t->nvalues ? t->nvalues : 1, sizeof *dup);
    if (!order || !dup) {
        free(order);
        free(dup);
        return NULL;
    }
    for (uint32_t v = 0; v < t->nvalues; v++) {
        order[v].value = t->values[v].value;
        order[v].index = v;
    }
    qsort(order, t->nvalues, sizeof *order, cmp_value_index);
    for (uint32_t k = 1; k < t->nvalues; k++)
        if (order[k].value == order[k - 1].value) dup[order[k].index] = true;
    free(order);
    return dup;
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

/* ---- structs ---- */

static uint32_t natural_align(const blobc_type *t) {
    uint32_t a = 1;
    for (uint32_t f = 0; f < t->nfields; f++)
        if (t->fields[f].type->align > a) a = t->fields[f].type->align;
    return a;
}

static blobc_status bad_layout(gen *g, const blobc_type *t, const char *what) {
    return blobc_err(g->err, BLOBC_EINPUT, "%s: struct %s: %s", g->lang, t->name, what);
}

blobc_status blobc_genc_check_struct(gen *g, const blobc_type *t) {
    if (t->nfields == 0) return bad_layout(g, t, "has no fields");
    uint32_t cur = 0;
    for (uint32_t f = 0; f < t->nfields; f++) {
        const blobc_field *fd = &t->fields[f];
        if (fd->offset < cur || fd->type->size > t->size || fd->offset > t->size - fd->type->size)
            return bad_layout(g, t, "field offsets are not increasing within the struct");
        cur = fd->offset + fd->type->size;
    }
    return BLOBC_OK;
}

bool blobc_genc_raised_align(const blobc_type *t) { return t->align > natural_align(t); }

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

void blobc_genc_struct_def(gen *g, const type_info *ti, const char *what) {
    const blobc_type *t = ti->type;
    bool raise = blobc_genc_raised_align(t);
    uint32_t cur = 0, npad = 0;
    emit(g, "/* %s: size %" PRIu32 ", alignment %" PRIu32 " */\nstruct %s {\n", what,
         t->size, t->align, ti->cname);
    for (uint32_t f = 0; f < t->nfields; f++) {
        const blobc_field *fd = &t->fields[f];
        if (fd->offset > cur)
            emit(g, "    uint8_t blobc_pad%" PRIu32 "[%" PRIu32 "];\n", npad++, fd->offset - cur);
        blobc_genc_doc(g, "    ", fd->doc);
        emit(g, "    ");
        if (f == 0 && raise) emit(g, "BLOBC_RT_ALIGNAS(%" PRIu32 ") ", t->align);
        emit(g, "%s %s", base_ctype(g, strip_fixed(fd->type)), ti->members[f]);
        emit_dims(g, fd->type);
        emit(g, "; /* @%" PRIu32 " ", fd->offset);
        blobc_genc_spelling(g, fd->type);
        emit(g, " */\n");
        cur = fd->offset + fd->type->size;
    }
    if (t->size > cur) emit(g, "    uint8_t blobc_pad%" PRIu32 "[%" PRIu32 "];\n", npad, t->size - cur);
    emit(g, "};\n");
    emit(g, "BLOBC_RT_STATIC_ASSERT(sizeof(%s) == %" PRIu32 ", \"%s: size must be %" PRIu32 "\");\n",
         ti->cname, t->size, ti->cname, t->size);
    emit(g, "BLOBC_RT_STATIC_ASSERT(BLOBC_RT_ALIGNOF(%s) == %" PRIu32
            ", \"%s: alignment must be %" PRIu32 "\");\n",
         ti->cname, t->align, ti->cname, t->align);
    for (uint32_t f = 0; f < t->nfields; f++)
        emit(g, "BLOBC_RT_STATIC_ASSERT(offsetof(%s, %s) == %" PRIu32
                ", \"%s.%s: offset must be %" PRIu32 "\");\n",
             ti->cname, ti->members[f], t->fields[f].offset, ti->cname, ti->members[f],
             t->fields[f].offset);
    emit(g, "\n");
}

/* Emits every struct after the structs it contains inline (directly or in
 * a fixed array), visiting in declaration order. An explicit stack keeps
 * deep containment chains from a hostile schema off the C stack. */
blobc_status blobc_genc_structs_in_order(gen *g, blobc_status (*emit_one)(gen *, const type_info *)) {
    size_t *stack = malloc((g->ninfo ? g->ninfo : 1) * sizeof *stack);
    if (!stack) return nomem(g);
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++) {
        if (g->info[i].type->kind != BLOBC_KIND_STRUCT || g->info[i].visit != VISIT_NONE) continue;
        size_t top = 0;
        stack[top++] = i;
        g->info[i].visit = VISIT_OPEN;
        while (top && st == BLOBC_OK) {
            type_info *ti = &g->info[stack[top - 1]];
            type_info *next = NULL;
            while (ti->cursor < ti->type->nfields && !next) {
                const blobc_type *ft = strip_inline(ti->type->fields[ti->cursor++].type);
                if (ft->kind != BLOBC_KIND_STRUCT) continue;
                type_info *dep = blobc_genc_info_of(g, ft);
                if (dep->visit == VISIT_OPEN) st = bad_layout(g, ti->type, "contains itself inline");
                else if (dep->visit == VISIT_NONE) next = dep;
            }
            if (st != BLOBC_OK) break;
            if (next) {
                next->visit = VISIT_OPEN;
                stack[top++] = (size_t)(next - g->info);
                continue;
            }
            ti->visit = VISIT_DONE;
            top--;
            st = emit_one(g, ti);
        }
    }
    free(stack);
    return st;
}

/* ---- accessors ---- */

/* The head of a function returning the resolved view of a value of
 * ref-kind type r: `const char *` for a string, a pointer to the items
 * (and a length out-parameter) for [T], a pointer to the target for *T. */
void emit_view_head(gen *g, const char *fn, const char *params, const blobc_type *r) {
    g->tmp.len = 0;
    if (!blobc_buf_printf(&g->tmp, "%s(%s%s)", fn, params,
                          is_list_kind(r->kind) ? ", size_t *blobc_n" : "") ||
        !blobc_buf_putc(&g->tmp, '\0')) {
        g->ok = false;
        return;
    }
    emit(g, "static inline ");
    if (r->kind == BLOBC_KIND_STRING) emit(g, "const char *%s", (const char *)g->tmp.data);
    else emit_ptr_decl(g, r->elem, (const char *)g->tmp.data);
    emit(g, " {\n");
}

void emit_view_body(gen *g, const blobc_type *r, const char *lvalue) {
    if (r->kind == BLOBC_KIND_STRING) {
        emit(g, "    return blobc_rt_str_cstr(&%s);\n}\n", lvalue);
        return;
    }
    emit(g, "    return %s(", cast_macro(r->elem));
    emit_ptr_type(g, r->elem);
    if (is_list_kind(r->kind)) emit(g, ", blobc_rt_array_data(&%s, blobc_n));\n}\n", lvalue);
    else emit(g, ", blobc_rt_ptr_get(&%s));\n}\n", lvalue);
}

/* Appends ", size_t blobc_i0, ..." for each fixed level of t to params and
 * "[blobc_i0]..." to lvalue. */
bool add_fixed_indices(blobc_buffer *params, blobc_buffer *lvalue, const blobc_type *t) {
    uint32_t depth = fixed_depth(t);
    for (uint32_t k = 0; k < depth; k++)
        if (!blobc_buf_printf(params, ", size_t blobc_i%" PRIu32, k) ||
            !blobc_buf_printf(lvalue, "[blobc_i%" PRIu32 "]", k))
            return false;
    return blobc_buf_putc(params, '\0') && blobc_buf_putc(lvalue, '\0');
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
         ti->members[f], kf->name, ei->cname);
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

/* ---- the schema, as text, for the checked opens ---- */

/* Writes the schema's types back in the schema language: enough for
 * blobc_schema_parse to rebuild the same layouts (defaults and the root
 * declaration do not change a layout and are left out). */
static bool write_schema_text(gen *g, blobc_buffer *b) {
    char small[128];
    for (size_t i = 0; i < g->ninfo; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind == BLOBC_KIND_ENUM) {
            if (!blobc_buf_printf(b, "enum %s : %s {", t->name, blobc_kind_name(t->elem->kind)))
                return false;
            for (uint32_t v = 0; v < t->nvalues; v++) {
                uint64_t bits = t->values[v].value;
                bool neg = blobc_kind_is_signed(t->elem->kind) && bits >> 63;
                if (!blobc_buf_printf(b, "%s %s = %s%" PRIu64, v ? "," : "", t->values[v].name,
                                      neg ? "-" : "", neg ? ~bits + 1 : bits))
                    return false;
            }
            if (!blobc_buf_puts(b, " }\n")) return false;
            continue;
        }
        if (t->kind == BLOBC_KIND_UNION) {
            if (!blobc_buf_printf(b, "union %s {", t->name)) return false;
            for (uint32_t m = 0; m < t->nfields; m++)
                if (!blobc_buf_printf(b, "%s %s", m ? "," : "", t->fields[m].name)) return false;
            if (!blobc_buf_puts(b, " }\n")) return false;
            continue;
        }
        if (t->align_attr && !blobc_buf_printf(b, "@align(%" PRIu32 ") ", t->align_attr)) return false;
        if (!blobc_buf_printf(b, "struct %s {", t->name)) return false;
        for (uint32_t f = 0; f < t->nfields; f++) {
            const blobc_type *ft = t->fields[f].type;
            size_t n = blobc_type_spell(ft, small, sizeof small);
            char *spelled = small;
            if (n >= sizeof small) {
                if (n == SIZE_MAX || !(spelled = malloc(n + 1))) return false;
                blobc_type_spell(ft, spelled, n + 1);
            }
            /* `= null` decides where a union may hold none, which the
             * checked open verifies; no other default matters to it */
            bool none_ok = blobc_field_may_be_none(&t->fields[f]);
            bool ok = blobc_buf_printf(b, " %s%s: %s%s;", t->key == f + 1 ? "@key " : "",
                                       t->fields[f].name, spelled, none_ok ? " = null" : "");
            if (spelled != small) free(spelled);
            if (!ok) return false;
        }
        if (!blobc_buf_puts(b, " }\n")) return false;
    }
    return true;
}

/* Parses the text back and checks that every struct has the layout hash
 * the header asserts, so that a checked open can never verify against a
 * layout other than the one the structs were generated for. */
static blobc_status check_schema_text(gen *g, const blobc_buffer *text) {
    blobc_schema *back = NULL;
    blobc_error perr;
    blobc_error_clear(&perr);
    if (blobc_schema_parse((const char *)text->data, text->len, "(generated)", &back, &perr) != BLOBC_OK)
        return blobc_err(g->err, perr.status == BLOBC_ENOMEM ? BLOBC_ENOMEM : BLOBC_EINPUT,
                         "%s: the schema cannot be written back as schema text: %s", g->lang, perr.message);
    /* Every struct's hash, and the same struct read back from the text:
     * in one batch, as one call per struct would serialize a chain of
     * nested structs once per link. */
    size_t cap = g->ninfo ? g->ninfo : 1;
    const blobc_type **types = malloc(2 * cap * sizeof *types), **again = types + cap;
    uint64_t *hashes = malloc(cap * sizeof *hashes);
    blobc_status st = types && hashes ? BLOBC_OK : nomem(g);
    size_t n = 0;
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        types[n] = t;
        if (!(again[n++] = blobc_schema_find(back, t->name)))
            st = blobc_err(g->err, BLOBC_EINPUT,
                           "%s: struct %s does not keep its layout when written back as schema text",
                           g->lang, t->name);
    }
    bool same = false;
    if (st == BLOBC_OK && blobc_type_hashes_same(types, again, n, hashes, &same) != BLOBC_OK)
        st = nomem(g);
    for (size_t i = 0, k = 0; i < g->ninfo && st == BLOBC_OK; i++)
        if (g->info[i].type->kind == BLOBC_KIND_STRUCT) g->info[i].hash = hashes[k++];
    if (st == BLOBC_OK && !same) { /* name the first struct that changed */
        uint64_t *other = malloc(cap * sizeof *other);
        size_t k = 0;
        if (!other || blobc_type_hashes(again, n, other) != BLOBC_OK) st = nomem(g);
        while (st == BLOBC_OK && k < n && other[k] == hashes[k]) k++;
        if (st == BLOBC_OK)
            st = blobc_err(g->err, BLOBC_EINPUT,
                           "%s: struct %s does not keep its layout when written back as schema text",
                           g->lang, types[k < n ? k : 0]->name);
        free(other);
    }
    free(types);
    free(hashes);
    blobc_schema_free(back);
    return st;
}

blobc_status blobc_genc_schema_text(gen *g) {
    blobc_buffer text = {0};
    if (!write_schema_text(g, &text)) {
        blobc_buffer_free(&text);
        return nomem(g);
    }
    blobc_status st = check_schema_text(g, &text);
    if (st == BLOBC_OK) {
        emit(g,
             "#ifdef BLOBC_WITH_LIBRARY\n"
             "/* The schema's types in the schema language, for the checked opens. */\n"
             "static inline const char *%s(size_t *blobc_n) {\n"
             "    static const char blobc_text[%zu] = {",
             g->text_fn, text.len);
        for (size_t k = 0; k < text.len; k++)
            emit(g, "%s%d,", k % 16 == 0 ? "\n        " : " ", text.data[k]);
        emit(g, "\n    };\n    *blobc_n = sizeof blobc_text;\n    return blobc_text;\n}\n#endif\n\n");
    }
    blobc_buffer_free(&text);
    return st;
}

/* ---- headers of the other files ---- */

blobc_status blobc_genc_includes(gen *g, const char *ext) {
    if (!g->own_only) return BLOBC_OK;
    size_t nfiles = blobc_schema_file_count(g->schema);
    bool *used = calloc(nfiles ? nfiles : 1, sizeof *used);
    if (!used) return nomem(g);
    blobc_gen_files_used(g->schema, used);
    blobc_status st = BLOBC_OK;
    blobc_buffer name = {0};
    for (size_t k = 1; k < nfiles && st == BLOBC_OK; k++) {
        if (!used[k]) continue;
        name.len = 0;
        st = blobc_gen_file_name_of(g->schema, k, ext, &name, g->err);
        if (st == BLOBC_OK) emit(g, "#include \"%s\"\n", (const char *)name.data);
    }
    if (st == BLOBC_OK && nfiles > 1) emit(g, "\n");
    blobc_buffer_free(&name);
    free(used);
    return st;
}

/* ---- driver ---- */

static bool is_known(void *ctx, const blobc_type *t) { return blobc_genc_info_of(ctx, t) != NULL; }

/* Every enum and struct a field refers to must be one of the schema's
 * named types, since that is where its C name comes from. */
static blobc_status check_references(gen *g) {
    for (size_t i = 0; i < g->ninfo; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind == BLOBC_KIND_ENUM) {
            if (!t->elem || !blobc_kind_is_integer(t->elem->kind))
                return blobc_err(g->err, BLOBC_EINPUT, "%s: enum %s has no integer base", g->lang, t->name);
            continue;
        }
        for (uint32_t f = 0; f < t->nfields; f++) {
            if (!blobc_gen_chain_named(t->fields[f].type, is_known, g))
                return blobc_err(g->err, BLOBC_EINPUT,
                                 "%s: field %s.%s refers to a type that is not in the schema",
                                 g->lang, t->name, t->fields[f].name);
        }
    }
    return BLOBC_OK;
}

/* BLOBC_GEN_<FILE STEM><suffix> from the schema's file name. */
static const char *derive_guard(gen *g, const char *suffix) {
    const char *file = blobc_schema_filename(g->schema);
    const char *base = file ? file : "";
    for (const char *p = base; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    if (n == 0) {
        base = "schema";
        n = 6;
    }
    g->tmp.len = 0;
    if (!blobc_buf_puts(&g->tmp, "BLOBC_GEN_")) return NULL;
    for (size_t k = 0; k < n; k++) {
        char ch = base[k];
        if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
        else if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) ch = '_';
        if (!blobc_buf_putc(&g->tmp, ch)) return NULL;
    }
    if (!blobc_buf_puts(&g->tmp, suffix) || !blobc_buf_putc(&g->tmp, '\0')) return NULL;
    return blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
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

blobc_status blobc_genc_begin(gen *g, const char *lang, const blobc_schema *schema, const char *prefix,
                              const char *guard, const char *guard_suffix, blobc_buffer *out,
                              blobc_error *err) {
    memset(g, 0, sizeof *g);
    g->schema = schema;
    g->out = out;
    g->err = err;
    g->ok = true;
    g->prefix = prefix;
    g->lang = lang;
    blobc_arena_init(&g->arena);
    g->ninfo = blobc_schema_count(schema);
    g->info = calloc(g->ninfo ? g->ninfo : 1, sizeof *g->info);
    if (!g->info) return nomem(g);
    for (size_t i = 0; i < g->ninfo; i++) {
        g->info[i].type = blobc_schema_at(schema, i);
        if (!g->info[i].type || !g->info[i].type->name ||
            (g->info[i].type->kind != BLOBC_KIND_ENUM && g->info[i].type->kind != BLOBC_KIND_STRUCT &&
             g->info[i].type->kind != BLOBC_KIND_UNION))
            return blobc_err(err, BLOBC_EINPUT,
                             "%s: named type %zu is not an enum, a struct or a union", lang, i);
    }
    if (!map_build(g)) return nomem(g);
    blobc_status st = blobc_genc_collect_anon(g);
    if (st != BLOBC_OK) return st;
    g->guard = guard ? guard : derive_guard(g, guard_suffix);
    if (!g->guard) return nomem(g);
    return check_references(g);
}

void blobc_genc_end(gen *g) {
    blobc_hashtab_free(&g->map);
    free(g->info);
    blobc_nameset_free(&g->globals);
    blobc_buffer_free(&g->tmp);
    blobc_arena_free(&g->arena);
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
    g.own_only = opts && opts->own_file_only;
    if (st == BLOBC_OK) st = generate(&g);
    if (st != BLOBC_OK) out->len = start;   /* all or nothing */
    blobc_genc_end(&g);
    return st;
}
