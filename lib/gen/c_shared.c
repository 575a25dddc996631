/*
 * c_shared.c - what gen c and gen cpp share: their state over the
 * schema's named types, the C spelling of types, doc comments, enum
 * literals, the struct order and layout, the resolving accessors' pieces,
 * the schema text for the checked opens and the includes of the other
 * files' headers. gen_c.c writes the C header over it, gen_cpp.c the
 * C++ one, c_types.c the parts for maps, optionals and any.
 */
#include "gen/c_internal.h"

#include "common/quote.h"
#include "common/kind.h"

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
void blobc_genc_ptr_type(gen *g, const blobc_type *t) {
    if (t->kind == BLOBC_KIND_FIXED) {
        emit(g, "const %s (*)", blobc_genc_base_ctype(g, strip_fixed(t)));
        emit_dims(g, t);
    } else {
        emit(g, "const %s *", blobc_genc_base_ctype(g, t));
    }
}

/* A declarator of type "pointer to const t" around `inner` (a variable
 * name, or a function name with its parameter list). */
void blobc_genc_ptr_decl(gen *g, const blobc_type *t, const char *inner) {
    if (t->kind == BLOBC_KIND_FIXED) {
        emit(g, "const %s (*%s)", blobc_genc_base_ctype(g, strip_fixed(t)), inner);
        emit_dims(g, t);
    } else {
        emit(g, "const %s *%s", blobc_genc_base_ctype(g, t), inner);
    }
}

/* The cast from `const void *` to "pointer to const t". */
const char *blobc_genc_cast_macro(const blobc_type *t) {
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
        emit(g, "%s %s", blobc_genc_base_ctype(g, strip_fixed(fd->type)), ti->members[f]);
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
void blobc_genc_view_head(gen *g, const char *fn, const char *params, const blobc_type *r) {
    g->tmp.len = 0;
    if (!blobc_buf_printf(&g->tmp, "%s(%s%s)", fn, params,
                          is_list_kind(r->kind) ? ", size_t *blobc_n" : "") ||
        !blobc_buf_putc(&g->tmp, '\0')) {
        g->ok = false;
        return;
    }
    emit(g, "static inline ");
    if (r->kind == BLOBC_KIND_STRING) emit(g, "const char *%s", (const char *)g->tmp.data);
    else blobc_genc_ptr_decl(g, r->elem, (const char *)g->tmp.data);
    emit(g, " {\n");
}

void blobc_genc_view_body(gen *g, const blobc_type *r, const char *lvalue) {
    if (r->kind == BLOBC_KIND_STRING) {
        emit(g, "    return blobc_rt_str_cstr(&%s);\n}\n", lvalue);
        return;
    }
    emit(g, "    return %s(", blobc_genc_cast_macro(r->elem));
    blobc_genc_ptr_type(g, r->elem);
    if (is_list_kind(r->kind)) emit(g, ", blobc_rt_array_data(&%s, blobc_n));\n}\n", lvalue);
    else emit(g, ", blobc_rt_ptr_get(&%s));\n}\n", lvalue);
}

/* Appends ", size_t blobc_i0, ..." for each fixed level of t to params and
 * "[blobc_i0]..." to lvalue. */
bool blobc_genc_fixed_indices(blobc_buffer *params, blobc_buffer *lvalue, const blobc_type *t) {
    uint32_t depth = fixed_depth(t);
    for (uint32_t k = 0; k < depth; k++)
        if (!blobc_buf_printf(params, ", size_t blobc_i%" PRIu32, k) ||
            !blobc_buf_printf(lvalue, "[blobc_i%" PRIu32 "]", k))
            return false;
    return blobc_buf_putc(params, '\0') && blobc_buf_putc(lvalue, '\0');
}

/* ---- the schema, as text, for the checked opens ---- */

/* A union declaration. An @open union may hold none wherever it is,
 * which the checked open verifies, so it goes back @open, with the
 * tagging and tags @open needs; any other union's tagging is the data's
 * concern only. */
static bool write_union_text(blobc_buffer *b, const blobc_type *t) {
    bool open = (t->flags & BLOBC_STRUCT_OPEN) != 0;
    bool ok = blobc_buf_printf(b, "%sunion %s", open ? "@open " : "", t->name);
    if (open && t->by == BLOBC_UNION_BY_FIELD)
        ok = ok && blobc_buf_puts(b, " by ") &&
             blobc_buf_quoted(b, (const uint8_t *)t->tag_field, strlen(t->tag_field), true);
    else if (open)
        ok = ok && blobc_buf_puts(b, " by tag");
    ok = ok && blobc_buf_puts(b, " {");
    for (uint32_t m = 0; m < t->nfields && ok; m++) {
        const blobc_field *f = &t->fields[m];
        ok = blobc_buf_puts(b, m ? ", " : " ");
        if (open && t->int_tags) ok = ok && blobc_buf_printf(b, "%lld: ", (long long)f->tag_value);
        else if (open)
            ok = ok && blobc_buf_quoted(b, (const uint8_t *)f->tag, strlen(f->tag), true) &&
                 blobc_buf_puts(b, ": ");
        ok = ok && blobc_buf_puts(b, f->name);
    }
    return ok && blobc_buf_puts(b, " }\n");
}

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
            if (!write_union_text(b, t)) return false;
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
            const char *name = t->fields[f].name;
            bool ok = blobc_buf_printf(b, " %s", t->key == f + 1 ? "@key " : "");
            /* a quoted name ("near clip plane") goes back quoted */
            if (blobc_is_ident(name, strlen(name)) && !blobc_schema_is_keyword(name, strlen(name))) ok = ok && blobc_buf_puts(b, name);
            else ok = ok && blobc_buf_quoted(b, (const uint8_t *)name, strlen(name), true);
            ok = ok && blobc_buf_printf(b, ": %s%s;", spelled, none_ok ? " = null" : "");
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

/* One byte of the schema text as an initializer, sixteen to a line;
 * written by hand, as printf would cost more than all the rest of a
 * large schema's output. A byte past ASCII (a quoted name or tag in
 * UTF-8) is cast, as it may not fit a signed char. */
static void emit_text_byte(gen *g, size_t k, uint8_t byte) {
    char s[48];
    size_t n = 0;
    const char *lead = k % 16 == 0 ? "\n        " : " ";
    while (*lead) s[n++] = *lead++;
    if (byte >= 0x80) {
        memcpy(s + n, "BLOBC_RT_CAST(char, ", 20);
        n += 20;
    }
    if (byte >= 100) s[n++] = (char)('0' + byte / 100);
    if (byte >= 10) s[n++] = (char)('0' + byte / 10 % 10);
    s[n++] = (char)('0' + byte % 10);
    if (byte >= 0x80) s[n++] = ')';
    s[n++] = ',';
    blobc_emit_bytes(g->out, &g->ok, s, n);
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
        for (size_t k = 0; k < text.len; k++) emit_text_byte(g, k, text.data[k]);
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
