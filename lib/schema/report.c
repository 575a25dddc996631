/*
 * report.c - the text `blobc check` prints: each named type's
 * layout (sizes, alignments, offsets, padding, enum values), the root and
 * its schema hash, and lint warnings about things that are legal but
 * probably not meant (docs/SCHEMA.md, "blobc check").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/hashtab.h"
#include "schema/schema_internal.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/err.h"
#include "platform/platform.h"

typedef struct report {
    const blobc_schema *s;
    blobc_buffer *out;      /* NULL when only counting warnings */
    bool ok;
    size_t warnings;
} report;

static void vput(report *r, const char *fmt, va_list ap) BLOBC_PRINTF(2, 0);
static void vput(report *r, const char *fmt, va_list ap) {
    if (r->out) blobc_vemit(r->out, &r->ok, fmt, ap);
}

static void put(report *r, const char *fmt, ...) BLOBC_PRINTF(2, 3);
static void put(report *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vput(r, fmt, ap);
    va_end(ap);
}

static void warn(report *r, blobc_pos pos, const char *fmt, ...) BLOBC_PRINTF(3, 4);
static void warn(report *r, blobc_pos pos, const char *fmt, ...) {
    r->warnings++;
    if (!r->out) return;
    const char *file = blobc_schema_file(r->s, pos.file);
    if (!file || !file[0]) file = "schema";
    if (pos.line) put(r, "%s:%u:%u: warning: ", file, (unsigned)pos.line, (unsigned)pos.column);
    else put(r, "%s: warning: ", file);
    va_list ap;
    va_start(ap, fmt);
    vput(r, fmt, ap);
    va_end(ap);
    put(r, "\n");
}

static void put_string_literal(report *r, const char *s, size_t n) {
    put(r, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') put(r, "\\%c", c);
        else if (c == '\n') put(r, "\\n");
        else if (c == '\t') put(r, "\\t");
        else if (c == '\r') put(r, "\\r");
        else if (c < 0x20 || c == 0x7f) put(r, "\\u{%x}", c);
        else put(r, "%c", c);
    }
    put(r, "\"");
}

/* The shortest %g text that reads back to the same value. */
static void put_float(report *r, double v, bool f32) {
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        blobc_os_fmt_g(buf, sizeof buf, prec, v);
        if (f32 ? blobc_os_strtof(buf, NULL) == (float)v : blobc_os_strtod(buf, NULL) == v) break;
    }
    /* Keep it a float literal, as the schema would write it. */
    put(r, "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
}

static void put_default(report *r, const blobc_field *f) {
    const blobc_default *d = &f->def;
    if (!d->present) return;
    blobc_kind k = f->type->kind;
    put(r, " = ");
    if (k == BLOBC_KIND_BOOL) {
        put(r, "%s", d->bits ? "true" : "false");
    } else if (k == BLOBC_KIND_ENUM) {
        const blobc_enum_value *v = blobc_enum_find_value(f->type, d->bits);
        put(r, "%s", v ? v->name : "?");
    } else if (blobc_kind_is_signed(k)) {
        put(r, "%lld", (long long)(int64_t)d->bits);
    } else if (blobc_kind_is_integer(k)) {
        put(r, "%llu", (unsigned long long)d->bits);
    } else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) {
        if (isnan(d->f)) put(r, ".nan");
        else if (isinf(d->f)) put(r, d->f < 0 ? "-.inf" : ".inf");
        else put_float(r, d->f, k == BLOBC_KIND_F32);
    } else if (k == BLOBC_KIND_STRING) {
        put_string_literal(r, d->str ? d->str : "", d->str ? d->str_len : 0);
    } else if (k == BLOBC_KIND_UNION || k == BLOBC_KIND_PTR) {
        put(r, "null");
    }
}

static int digits(uint64_t v) {
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* A doc comment as the schema spells it, one `///` line per line. */
static void put_doc(report *r, int indent, const char *doc) {
    while (doc) {
        const char *nl = strchr(doc, '\n');
        int n = nl ? (int)(nl - doc) : (int)strlen(doc);
        put(r, "%*s///%s%.*s\n", indent, "", n ? " " : "", n, doc);
        doc = nl ? nl + 1 : NULL;
    }
}

static void report_struct(report *r, const blobc_type *t) {
    put_doc(r, 0, t->doc);
    if (t->align_attr) put(r, "@align(%u) ", (unsigned)t->align_attr);
    if (t->flags & BLOBC_STRUCT_OPEN) put(r, "@open ");
    if (t->flags & BLOBC_STRUCT_STREAM) put(r, "@stream ");
    for (uint32_t i = 0; i < t->ntags; i++)
        put(r, "%s%s%s", i ? ", " : "@tags(", t->tags[i], i + 1 == t->ntags ? ") " : "");
    put(r, "struct %s  (size %u, align %u)\n", t->name, (unsigned)t->size, (unsigned)t->align);
    int ow = digits(t->size);
    if (ow < 6) ow = 6;
    int sw = 4;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (digits(t->fields[i].type->size) > sw) sw = digits(t->fields[i].type->size);
    put(r, "    %*s  %*s  field\n", ow, "offset", sw, "size");
    uint64_t end = 0;
    for (uint32_t i = 0; i <= t->nfields; i++) {
        uint64_t at = i < t->nfields ? t->fields[i].offset : t->size;
        if (at > end)
            put(r, "    %*llu  %*llu  (padding)\n", ow, (unsigned long long)end, sw,
                (unsigned long long)(at - end));
        if (i == t->nfields) break;
        const blobc_field *f = &t->fields[i];
        char sp[256];
        blobc_type_spell(f->type, sp, sizeof sp);
        char *str = f->flags & BLOBC_FIELD_TEXT ? strstr(sp, "string") : NULL;
        if (str) memmove(str + 4, str + 6, strlen(str + 6) + 1), memcpy(str, "text", 4); /* as written */
        put_doc(r, 4 + ow + 2 + sw + 2, f->doc);
        put(r, "    %*u  %*u  %s%s%s: %s", ow, (unsigned)f->offset, sw, (unsigned)f->type->size,
            t->key == i + 1 ? "@key " : "", f->flags & BLOBC_FIELD_ANCHOR ? "@anchor " : "",
            f->name, sp);
        put_default(r, f);
        for (uint32_t c = 0; c < f->nchecks; c++) put(r, "%s%s", c ? " " : "  ", f->checks[c].text);
        if (f->was) put(r, "  (@was %s)", f->was);
        put(r, "\n");
        end = (uint64_t)f->offset + f->type->size;
    }
}

static void report_enum(report *r, const blobc_type *t) {
    blobc_kind bk = t->elem->kind;
    put_doc(r, 0, t->doc);
    put(r, "enum %s : %s  (size %u, align %u)\n", t->name, blobc_kind_name(bk), (unsigned)t->size,
        (unsigned)t->align);
    int w = 1;
    for (uint32_t i = 0; i < t->nvalues; i++) {
        size_t n = strlen(t->values[i].name);
        if ((int)n > w) w = n > 64 ? 64 : (int)n;
    }
    for (uint32_t i = 0; i < t->nvalues; i++) {
        const blobc_enum_value *v = &t->values[i];
        put_doc(r, 4, v->doc);
        if (blobc_kind_is_signed(bk))
            put(r, "    %-*s = %lld", w, v->name, (long long)(int64_t)v->value);
        else
            put(r, "    %-*s = %llu", w, v->name, (unsigned long long)v->value);
        if (v->was) put(r, "  (@was %s)", v->was);
        put(r, "\n");
    }
}

/* How data tags a member: ` by "type"`, ` by tag`, and its default. */
static void put_by(report *r, const blobc_type *t) {
    if (t->by == BLOBC_UNION_BY_FIELD) put(r, " by \"%s\"", t->tag_field);
    else if (t->by == BLOBC_UNION_BY_TAG) put(r, " by tag");
    if (!t->default_member) return;
    const blobc_field *d = &t->fields[t->default_member - 1];
    if (t->int_tags) put(r, " default %lld", (long long)d->tag_value);
    else put(r, " default \"%s\"", d->tag);
}

/* A member's tag as data writes it. */
static void put_tag(report *r, const blobc_type *t, const blobc_field *m) {
    if (t->by == BLOBC_UNION_BY_KEY) return;
    if (t->int_tags) put(r, "  (tag %lld)", (long long)m->tag_value);
    else put(r, "  (tag \"%s\")", m->tag);
}

/* A union: its value's layout, then each member's tag and payload size. */
static void report_union(report *r, const blobc_type *t) {
    put_doc(r, 0, t->doc);
    put(r, "union %s", t->name);
    put_by(r, t);
    put(r, "  (size %u, align %u: u32 tag at 0, i32 offset at %u)\n", (unsigned)t->size,
        (unsigned)t->align, (unsigned)BLOBC_UNION_REF);
    int tw = digits(t->nfields) < 3 ? 3 : digits(t->nfields);
    int w = 6;
    for (uint32_t i = 0; i < t->nfields; i++) {
        size_t n = strlen(t->fields[i].name);
        if ((int)n > w) w = n > 64 ? 64 : (int)n;
    }
    put(r, "    %*s  member\n", tw, "tag");
    put(r, "    %*u  %-*s  (no member: the offset is 0)\n", tw, 0u, w, "none");
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_type *m = t->fields[i].type->elem;
        put_doc(r, 4 + tw + 2, t->fields[i].doc);
        put(r, "    %*u  %-*s  (size %u, align %u)", tw, (unsigned)i + 1, w, t->fields[i].name,
            (unsigned)m->size, (unsigned)m->align);
        put_tag(r, t, &t->fields[i]);
        if (t->fields[i].was) put(r, "  (@was %s)", t->fields[i].was);
        put(r, "\n");
    }
}

/* Interior padding, no-op @align, unreachable types, missing root. */
static bool lint(report *r) {
    const blobc_schema *s = r->s;
    for (size_t i = 0; i < s->nnamed; i++) {
        const blobc_type *t = s->named[i];
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        uint64_t end = 0;
        for (uint32_t k = 0; k < t->nfields; k++) {
            const blobc_field *f = &t->fields[k];
            if (f->offset > end)
                warn(r, f->pos,
                     "struct %s: %llu padding byte%s at offset %llu, before field '%s' "
                     "(ordering fields by decreasing alignment avoids padding)",
                     t->name, (unsigned long long)(f->offset - end),
                     f->offset - end == 1 ? "" : "s", (unsigned long long)end, f->name);
            end = (uint64_t)f->offset + f->type->size;
        }
        if (t->align_attr) {
            uint32_t natural = 1;
            for (uint32_t k = 0; k < t->nfields; k++)
                if (t->fields[k].type->align > natural) natural = t->fields[k].type->align;
            if (natural == t->align_attr)
                warn(r, t->pos, "struct %s: @align(%u) has no effect (its natural alignment is %u)",
                     t->name, (unsigned)t->align_attr, (unsigned)natural);
        }
    }
    if (!s->root) {
        if (s->nnamed)
            warn(r, (blobc_pos){0, 0, 0},
                 "no root declared; baking needs -t TYPE or a $type key in the data");
        return true;
    }
    /* Everything reachable from the root, through any kind of reference. */
    blobc_ptrset seen = {0};
    const blobc_type **work = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    uint32_t num;
    if (blobc_ptrset_add(&seen, s->root, &num) < 0) ok = false;
    const blobc_type *start = s->root;
    if (ok) {
        work = malloc(16 * sizeof *work);
        cap = 16;
        if (!work) ok = false;
        else work[n++] = start;
    }
    while (ok && n) {
        const blobc_type *t = work[--n];
        bool fields = t->kind == BLOBC_KIND_STRUCT || t->kind == BLOBC_KIND_UNION;
        size_t nchild = fields ? t->nfields : (t->elem ? 1 : 0);
        for (size_t k = 0; k < nchild && ok; k++) {
            const blobc_type *c = fields ? t->fields[k].type : t->elem;
            int added = blobc_ptrset_add(&seen, c, &num);
            if (added < 0) ok = false;
            if (added <= 0) continue;
            if (!blobc_grow((void **)&work, &cap, n + 1, sizeof *work)) {
                ok = false;
                break;
            }
            work[n++] = c;
        }
    }
    for (size_t i = 0; ok && i < s->nnamed; i++) {
        const blobc_type *t = s->named[i];
        int added = blobc_ptrset_add(&seen, t, &num);
        if (added < 0) ok = false;
        else if (added)
            warn(r, t->pos, "%s %s is not used by the root %s", blobc_kind_name(t->kind), t->name,
                 s->root->name);
    }
    free(work);
    blobc_ptrset_free(&seen);
    return ok;
}

size_t blobc_schema_warning_count(const blobc_schema *schema) {
    report r = {schema, NULL, true, 0};
    lint(&r);
    return r.warnings;
}

blobc_status blobc_schema_report(const blobc_schema *s, blobc_buffer *out, blobc_error *err) {
    if (!s || !out) return blobc_err_arg(err, __func__, "schema or out is NULL");
    report r = {s, out, true, 0};
    const char *file = s->filename && s->filename[0] ? s->filename : "schema";
    for (size_t i = 0; i < s->nnamed; i++) {
        const blobc_type *t = s->named[i];
        if (i) put(&r, "\n");
        if (t->kind == BLOBC_KIND_STRUCT) report_struct(&r, t);
        else if (t->kind == BLOBC_KIND_UNION) report_union(&r, t);
        else report_enum(&r, t);
    }
    if (s->nnamed) put(&r, "\n");
    if (s->root)
        put(&r, "root %s  (size %u, align %u, schema hash 0x%016llx)\n", s->root->name,
            (unsigned)s->root->size, (unsigned)s->root->align,
            (unsigned long long)blobc_type_hash(s->root));
    else
        put(&r, "no root\n");
    if (!lint(&r)) r.ok = false;
    put(&r, "%s: %zu type%s, %zu warning%s\n", file, s->nnamed, s->nnamed == 1 ? "" : "s",
        r.warnings, r.warnings == 1 ? "" : "s");
    if (!r.ok) return blobc_err_nomem(err);
    return BLOBC_OK;
}
