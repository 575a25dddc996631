/*
 * gen_util.c - the helpers the code generators share (gen_internal.h):
 * identifier sets for collision-free naming and the type -> index map.
 */
#include "gen/gen_internal.h"

#include "blobc/gen.h"

#include "common/arena.h"
#include "common/buffer.h"
#include "common/err.h"
#include "common/kind.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a set of identifiers ---- */

bool blobc_nameset_has(const blobc_nameset *set, const char *name) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&set->tab, blobc_hash_bytes(name, strlen(name)), &p); k;
         k = blobc_hashtab_next(&set->tab, &p))
        if (strcmp(set->names[k - 1], name) == 0) return true;
    return false;
}

bool blobc_nameset_add(blobc_nameset *set, const char *name) {
    if (set->count >= UINT32_MAX - 1 ||
        !blobc_grow((void **)&set->names, &set->cap, set->count + 1, sizeof *set->names) ||
        !blobc_hashtab_add(&set->tab, blobc_hash_bytes(name, strlen(name)),
                           (uint32_t)set->count + 1))
        return false;
    set->names[set->count++] = name;
    return true;
}

void blobc_nameset_free(blobc_nameset *set) {
    blobc_hashtab_free(&set->tab);
    free(set->names);
    memset(set, 0, sizeof *set);
}

const char *blobc_nameset_unique(blobc_nameset *set, const blobc_nameset *also,
                                 blobc_arena *arena, const char *base) {
    if (!base) return NULL;
    size_t n = strlen(base);
    const char *name = base;
    while (blobc_nameset_has(set, name) || (also && blobc_nameset_has(also, name))) {
        char *longer = blobc_arena_alloc(arena, n + 2);
        if (!longer) return NULL;
        memcpy(longer, name, n);
        longer[n++] = '_';
        longer[n] = '\0';
        name = longer;
    }
    return blobc_nameset_add(set, name) ? name : NULL;
}

/* ---- named type -> index ---- */

bool blobc_typemap_build(blobc_typemap *m, const blobc_schema *schema) {
    size_t n = blobc_schema_count(schema);
    m->schema = schema;
    if (n >= UINT32_MAX || !blobc_hashtab_reserve(&m->tab, n)) return false;
    for (size_t i = 0; i < n; i++)
        if (!blobc_hashtab_add(&m->tab, blobc_hash_ptr(blobc_schema_at(schema, i)), (uint32_t)i + 1))
            return false;
    return true;
}

size_t blobc_typemap_find(const blobc_typemap *m, const blobc_type *t) {
    blobc_hprobe p;
    for (uint32_t k = blobc_hashtab_first(&m->tab, blobc_hash_ptr(t), &p); k;
         k = blobc_hashtab_next(&m->tab, &p))
        if (blobc_schema_at(m->schema, k - 1) == t) return k - 1;
    return SIZE_MAX;
}

void blobc_typemap_free(blobc_typemap *m) {
    blobc_hashtab_free(&m->tab);
    memset(m, 0, sizeof *m);
}

bool blobc_gen_is_identifier(const char *s) {
    if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

bool blobc_gen_file_name(const blobc_schema *schema, blobc_buffer *out) {
    const char *file = blobc_schema_filename(schema);
    const char *base = file && *file ? file : "(schema)";
    for (const char *p = base; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    for (const char *p = base; *p; p++) {
        char ch = *p;
        bool plain = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                     ch == '.' || ch == '_' || ch == '-' || ch == '+';
        if (!blobc_buf_putc(out, plain ? ch : '?')) return false;
    }
    return true;
}

/* Bytes that end a line somewhere: C0 controls and DEL (CR ends a line to
 * every compiler), and the Unicode line ends C# knows (U+0085, U+2028,
 * U+2029). Returns the length of the one at s (0: none). */
static size_t line_break_at(const char *s, size_t n) {
    unsigned char c = (unsigned char)s[0];
    if ((c < 0x20 && c != '\t') || c == 0x7f) return 1;
    if (c == 0xc2 && n >= 2 && (unsigned char)s[1] == 0x85) return 2;
    if (c == 0xe2 && n >= 3 && (unsigned char)s[1] == 0x80 &&
        ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9))
        return 3;
    return 0;
}

/* Whether a C comment needs a space between s[0] and s[1]: a star and a
 * slash either way round end or nest the comment, and a trigraph (two
 * question marks and one of =(/)'<!>-) is read as another character by
 * -std=c11: the backslash one joins two lines. */
static bool c_split_after(const char *s, size_t n) {
    if (n < 2) return false;
    if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*')) return true;
    return s[0] == '?' && s[1] == '?' && n >= 3 && s[2] && strchr("=(/)'<!>-", s[2]);
}

bool blobc_gen_doc_line(blobc_buffer *out, const char *s, size_t n, blobc_gen_doc_lang lang) {
    for (size_t i = 0; i < n;) {
        size_t k = line_break_at(s + i, n - i);
        if (k) {
            if (!blobc_buf_putc(out, ' ')) return false;
            i += k;
            continue;
        }
        char c = s[i];
        bool ok;
        if (lang == BLOBC_GEN_DOC_CS && (c == '&' || c == '<' || c == '>'))
            ok = blobc_buf_puts(out, c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;");
        else
            ok = blobc_buf_putc(out, c);
        if (ok && lang == BLOBC_GEN_DOC_C && c_split_after(s + i, n - i)) ok = blobc_buf_putc(out, ' ');
        if (!ok) return false;
        i++;
    }
    return true;
}

blobc_status blobc_gen_file_name_of(const blobc_schema *schema, size_t file, const char *ext,
                                    blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!schema || !ext || !out) return blobc_err_arg(err, __func__, "schema, ext or out is NULL");
    if (file >= blobc_schema_file_count(schema))
        return blobc_err_arg(err, __func__, "file index out of range");
    const char *path = blobc_schema_file(schema, file), *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/') base = p + 1;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    bool plain = n > 0;
    for (size_t k = 0; k < n && plain; k++) {
        char ch = base[k];
        plain = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                ch == '.' || ch == '_' || ch == '-' || ch == '+';
    }
    if (!plain)
        return blobc_err(err, BLOBC_EINPUT,
                         "gen: cannot name the file generated for '%s': a name of letters, digits and ._+- "
                         "is needed for #include lines",
                         path);
    size_t start = out->len;
    if (!blobc_buf_append(out, base, n) || !blobc_buf_puts(out, ext) || !blobc_buf_putc(out, '\0')) {
        out->len = start;
        return blobc_err_nomem(err);
    }
    out->len--;   /* NUL-terminated, not counted */
    return BLOBC_OK;
}

/* ---- the files a file's types use ---- */

bool blobc_gen_chain_named(const blobc_type *t, bool (*fn)(void *ctx, const blobc_type *named), void *ctx) {
    for (; t; t = blobc_kind_is_anonymous(t->kind) ? blobc_type_next(t) : NULL) {
        if (t->kind == BLOBC_KIND_MAP && blobc_kind_is_named(blobc_map_key(t)->kind) &&
            !fn(ctx, blobc_map_key(t)))
            return false;
        if (blobc_kind_is_named(t->kind) && !fn(ctx, t)) return false;
    }
    return true;
}

typedef struct files_used {
    bool *used;
    size_t nfiles;
} files_used;

static bool mark_file(void *ctx, const blobc_type *t) {
    files_used *u = ctx;
    if (t->pos.file != 0 && t->pos.file < u->nfiles) u->used[t->pos.file] = true;
    return true;
}

void blobc_gen_files_used(const blobc_schema *schema, bool *used) {
    files_used u = {used, blobc_schema_file_count(schema)};
    for (size_t i = 0; i < blobc_schema_count(schema); i++) {
        const blobc_type *t = blobc_schema_at(schema, i);
        if (t->pos.file != 0 || t->kind == BLOBC_KIND_ENUM) continue;
        for (uint32_t f = 0; f < t->nfields; f++) blobc_gen_chain_named(t->fields[f].type, mark_file, &u);
    }
}

const char *blobc_gen_ident(blobc_arena *arena, const char *s) {
    size_t n = strlen(s);
    if (blobc_is_ident(s, n)) return s;
    bool digit = n > 0 && s[0] >= '0' && s[0] <= '9';
    char *r = blobc_arena_alloc(arena, n + 2);
    if (!r) return NULL;
    size_t k = 0;
    if (digit || n == 0) r[k++] = '_';
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        bool keep = ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
        r[k++] = keep ? ch : '_';
    }
    r[k] = '\0';
    return r;
}
