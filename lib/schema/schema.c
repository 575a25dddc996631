/*
 * schema.c - the schema object: creating and freeing one, reading a
 * schema file (load.c the one loaded, the parser its imports), its named
 * types, its positioned errors, and the spelling of a type for messages.
 */
#include <stdio.h>
#include <stdlib.h>

#include "blobc/blobfile.h"
#include "common/kind.h"
#include "schema/schema_internal.h"

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
    free(s->files);
    blobc_arena_free(&s->arena);
    free(s);
}

blobc_status blobc_schema_add_named(blobc_schema *s, blobc_type *t, blobc_error *err) {
    if (!t || !blobc_kind_is_named(t->kind) || !t->name || !t->name[0])
        return blobc_schema_err(s, t ? t->pos : (blobc_pos){0, 0, 0}, err,
                                "a named type must be a struct, an enum or a union with a name");
    if (!blobc_grow((void **)&s->named, &s->named_cap, s->nnamed + 1, sizeof *s->named))
        return blobc_err_nomem(err);
    s->named[s->nnamed++] = t;
    return BLOBC_OK;
}

const char *blobc_schema_filename(const blobc_schema *s) { return s && s->filename ? s->filename : ""; }
size_t blobc_schema_file_count(const blobc_schema *s) { return !s ? 0 : s->nfiles ? s->nfiles : 1; }
const char *blobc_schema_file(const blobc_schema *s, size_t i) {
    if (!s) return NULL;
    if (i < s->nfiles) return s->files[i].path;
    return i == 0 ? blobc_schema_filename(s) : NULL;
}
const blobc_type *blobc_schema_root(const blobc_schema *s) { return s ? s->root : NULL; }
size_t blobc_schema_count(const blobc_schema *s) { return s ? s->nnamed : 0; }
const blobc_type *blobc_schema_at(const blobc_schema *s, size_t i) {
    return s && i < s->nnamed ? s->named[i] : NULL;
}

/* ---- loading ---- */

blobc_status blobc_schema_read(const char *path, const blobc_schema_load_options *lo,
                               uint8_t **data, size_t *len, blobc_error *err) {
    blobc_read_options ro = {lo ? lo->max_input : 0, false, "schema text", BLOBC_MAX_SCHEMA_SIZE,
                             lo && lo->regular};
    blobc_status st = blobc_read_file_ex(path, &ro, data, len, err);
    if (st && st != BLOBC_ENOMEM && lo && lo->unread) lo->unread(lo->unread_ctx, path);
    return st;
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

/* Composites form chains ending at a named or builtin type (a map's key
 * is a leaf); spelling recurses only into a map's value, and a chain
 * deeper than MAX_LEVELS in all (only a hostile type section builds one)
 * is cut. */
enum { MAX_LEVELS = 128 };

static void spell(spell_out *o, const blobc_type *t, size_t budget) {
    const blobc_type *levels[MAX_LEVELS];
    size_t nl = 0;
    while (t && blobc_kind_is_anonymous(t->kind) && t->kind != BLOBC_KIND_MAP && nl < budget) {
        levels[nl++] = t;
        t = t->elem;
    }
    for (size_t i = 0; i < nl; i++) {
        blobc_kind k = levels[i]->kind;
        sp_puts(o, k == BLOBC_KIND_OPTIONAL ? "?"
                   : k != BLOBC_KIND_PTR    ? "["
                   : levels[i]->ref         ? "&"
                                            : "*");
    }
    if (!t) sp_puts(o, "?");
    else if (t->kind == BLOBC_KIND_MAP && nl < budget && t->elem && t->elem->nfields == 2) {
        sp_puts(o, "[");
        spell(o, blobc_map_key(t), 1);
        sp_puts(o, ": ");
        spell(o, blobc_map_value(t), budget - nl - 1);
        sp_puts(o, "]");
    } else if (blobc_kind_is_anonymous(t->kind)) sp_puts(o, "...");
    else if (t->name) sp_puts(o, t->name);
    else sp_puts(o, blobc_kind_name(t->kind));
    for (size_t i = nl; i-- > 0;) {
        if (levels[i]->kind == BLOBC_KIND_ARRAY) {
            sp_puts(o, "]");
        } else if (levels[i]->kind == BLOBC_KIND_FIXED) {
            char num[24];
            snprintf(num, sizeof num, "; %u]", (unsigned)levels[i]->count);
            sp_puts(o, num);
        }
    }
}

size_t blobc_type_spell(const blobc_type *t, char *buf, size_t cap) {
    spell_out o = {buf, cap, 0};
    spell(&o, t, MAX_LEVELS);
    if (cap) buf[o.n < cap ? o.n : cap - 1] = '\0';
    return o.n;
}

/* ---- maps ---- */

const blobc_type *blobc_schema_new_map(blobc_schema *s, const blobc_type *key,
                                       const blobc_type *value) {
    if (key == blobc_builtin_type(BLOBC_KIND_STRING) && value == blobc_builtin_type(BLOBC_KIND_ANY))
        return blobc_any_map_type();
    blobc_type *m = blobc_arena_alloc(&s->arena, sizeof *m);
    return m && blobc_schema_init_map(s, m, key, value) ? m : NULL;
}

bool blobc_schema_init_map(blobc_schema *s, blobc_type *m, const blobc_type *key,
                           const blobc_type *value) {
    blobc_type *e = blobc_arena_alloc(&s->arena, sizeof *e);
    blobc_field *f = blobc_arena_array(&s->arena, 2, sizeof *f);
    if (!e || !f) return false;
    f[0].name = "key";
    f[0].type = key;
    f[1].name = "value";
    f[1].type = value;
    e->kind = BLOBC_KIND_STRUCT;
    e->nfields = 2;
    e->fields = f;
    e->key = 1;
    e->flags = BLOBC_STRUCT_ENTRY;
    m->kind = BLOBC_KIND_MAP;
    m->elem = e;
    return true;
}

/* ---- positioned errors ---- */

static size_t line_start_offset(const char *text, size_t len, uint32_t line) {
    size_t off = 0;
    for (uint32_t l = 1; l < line && off < len; off++)
        if (text[off] == '\n') l++;
    return off;
}

static const char *pos_file(const blobc_schema *s, blobc_pos pos) {
    if (!s) return NULL;
    return pos.file < s->nfiles ? s->files[pos.file].path : s->filename;
}

const char *blobc_schema_place(const blobc_schema *s, blobc_pos pos, char *buf, size_t cap) {
    return blobc_place(buf, cap, pos_file(s, pos), pos.line, pos.column);
}

blobc_status blobc_schema_err(const blobc_schema *s, blobc_pos pos, blobc_error *err,
                              const char *fmt, ...) {
    if (!err) return BLOBC_EINPUT;
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(err, BLOBC_EINPUT, fmt, ap);
    va_end(ap);
    const blobc_srcfile *src = s && pos.file < s->nfiles ? &s->files[pos.file] : NULL;
    const char *file = pos_file(s, pos);
    if (file && file[0]) blobc_err_file(err, file);
    if (pos.line) {
        blobc_err_at(err, NULL, pos.line, pos.column);
        if (src && src->text) {
            size_t off = line_start_offset(src->text, src->len, pos.line);
            blobc_err_source_line(err, src->text, src->len, off);
        }
    }
    return BLOBC_EINPUT;
}

bool blobc_field_may_be_none(const blobc_field *f) {
    const blobc_type *t = f->type;
    /* an @open union holds none for a tag naming no member */
    if (t->kind == BLOBC_KIND_UNION && (t->flags & BLOBC_STRUCT_OPEN)) return true;
    return f->def.present && (t->kind == BLOBC_KIND_UNION || (t->kind == BLOBC_KIND_PTR && t->ref));
}

bool blobc_field_optional(const blobc_field *f) {
    blobc_kind kind = f->type->kind;
    if (f->def.present || kind == BLOBC_KIND_ARRAY || kind == BLOBC_KIND_MAP ||
        kind == BLOBC_KIND_OPTIONAL || kind == BLOBC_KIND_ANY ||
        (kind == BLOBC_KIND_PTR && !f->type->ref))
        return true;
    /* A struct: layout noted whether all its fields are, deepest first. */
    return kind == BLOBC_KIND_STRUCT && (f->type->internal & BLOBC_TI_ALL_OPTIONAL);
}
