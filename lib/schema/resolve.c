/*
 * resolve.c - the second half of the schema front end: once every file is
 * parsed, turns the names and type expressions fields were written with
 * into types (declarations may come in any order), interns anonymous
 * composites so that equal types are one object, and checks each field's
 * default against its type.
 */
#include "schema/parser_internal.h"

/* The one object for [elem], [elem; count], *elem, &elem, ?elem or
 * [key: elem] in this schema ([any] and [string: any]: the ones every
 * schema shares). */
static const blobc_type *intern(parser *p, blobc_kind kind, const blobc_type *elem,
                                uint32_t count, bool ref, const blobc_type *key) {
    if (kind == BLOBC_KIND_ARRAY && elem == blobc_builtin_type(BLOBC_KIND_ANY))
        return blobc_any_list_type();
    uint64_t h = blobc_hash_u64(blobc_hash_ptr(elem) ^ ((uint64_t)kind << 32) ^ count ^
                                ((uint64_t)ref << 40) ^ blobc_hash_ptr(key));
    blobc_hprobe pr;
    for (uint32_t k = blobc_hashtab_first(&p->itab, h, &pr); k; k = blobc_hashtab_next(&p->itab, &pr)) {
        const blobc_type *t = p->interned[k - 1];
        if (t->kind != kind) continue;
        if (kind == BLOBC_KIND_MAP ? blobc_map_key(t) == key && blobc_map_value(t) == elem
                                   : t->elem == elem && t->count == count && t->ref == ref)
            return t;
    }
    if (p->ninterned >= UINT32_MAX - 1 ||
        !grow((void **)&p->interned, &p->icap, p->ninterned, sizeof *p->interned))
        return NULL;
    const blobc_type *made;
    if (kind == BLOBC_KIND_MAP) {
        made = blobc_schema_new_map(p->s, key, elem);
    } else {
        blobc_type *t = blobc_arena_alloc(&p->s->arena, sizeof *t);
        if (t) {
            t->kind = kind;
            t->elem = elem;
            t->count = count;
            t->ref = ref;
        }
        made = t;
    }
    if (!made || !blobc_hashtab_add(&p->itab, h, (uint32_t)p->ninterned + 1)) return NULL;
    p->interned[p->ninterned++] = made;
    return made;
}

static const blobc_type *builtin_by_name(const char *s, size_t n) {
    for (int k = BLOBC_KIND_BOOL; k <= BLOBC_KIND_F64; k++) {
        const char *kw = blobc_kind_name((blobc_kind)k);
        if (strlen(kw) == n && memcmp(kw, s, n) == 0) return blobc_builtin_type((blobc_kind)k);
    }
    /* text is a string whose value is a key of a string table (mark_text) */
    if ((n == 6 && memcmp(s, "string", 6) == 0) || (n == 4 && memcmp(s, "text", 4) == 0))
        return blobc_builtin_type(BLOBC_KIND_STRING);
    if (n == 3 && memcmp(s, "any", 3) == 0) return blobc_builtin_type(BLOBC_KIND_ANY);
    return NULL;
}

static blobc_status resolve_name(parser *p, const blobc_token *t, const blobc_type **out) {
    const char *txt = tok_text(p, t);
    const blobc_type *ty = builtin_by_name(txt, t->len);
    if (!ty) ty = blobc_schema_find_len(p->s, txt, t->len);
    if (ty) {
        *out = ty;
        return BLOBC_OK;
    }
    blobc_suggest sg;
    blobc_suggest_init(&sg, txt, t->len);
    for (size_t i = 0; i < p->s->nnamed; i++) blobc_suggest_offer(&sg, p->s->named[i]->name);
    for (int k = BLOBC_KIND_BOOL; k <= BLOBC_KIND_STRING; k++)
        if (k != BLOBC_KIND_ENUM && k != BLOBC_KIND_STRUCT)
            blobc_suggest_offer(&sg, blobc_kind_name((blobc_kind)k));
    blobc_suggest_offer(&sg, "any");
    blobc_suggest_builtin_spellings(&sg);
    char hint[96];
    return blobc_schema_err(p->s, t->pos, p->err, "unknown type '%.*s'%s",
                            (int)(t->len > 64 ? 64 : t->len), txt,
                            blobc_suggest_text(&sg, hint, sizeof hint));
}

static const char *a_kind(const blobc_type *t) {
    return t->kind == BLOBC_KIND_ENUM || t->kind == BLOBC_KIND_ARRAY ||
                   t->kind == BLOBC_KIND_OPTIONAL || t->kind == BLOBC_KIND_ANY
               ? "an"
               : "a";
}

/* The type an expression names (recursion bounded by MAX_TYPE_NESTING,
 * as the parse was). */
static blobc_status resolve_texpr(parser *p, const texpr *x, const blobc_type **out) {
    const blobc_type *t, *key = NULL;
    char sp[128];
    if (x->op == TX_NAME) return resolve_name(p, &x->tok, out);
    if (x->op == TX_REF) {
        if (resolve_name(p, &x->tok, &t)) return BLOBC_EINPUT;
        const char *n = t->name ? t->name : blobc_kind_name(t->kind);
        if (t->kind != BLOBC_KIND_STRUCT || !t->key)
            return blobc_schema_err(p->s, x->tok.pos, p->err, "&%s refers to an element of a "
                                    "keyed array, so %s must be a struct with a @key field", n, n);
        t = intern(p, BLOBC_KIND_PTR, t, 0, true, NULL);
        if (!t) return blobc_err_nomem(p->err);
        *out = t;
        return BLOBC_OK;
    }
    if (resolve_texpr(p, x->op == TX_MAP ? x->b : x->a, &t)) return BLOBC_EINPUT;
    blobc_kind kind = BLOBC_KIND_ARRAY;
    switch (x->op) {
    case TX_FIXED: kind = BLOBC_KIND_FIXED; break;
    case TX_PTR: kind = BLOBC_KIND_PTR; break;
    case TX_OPT:
        kind = BLOBC_KIND_OPTIONAL;
        if (t->kind == BLOBC_KIND_OPTIONAL)
            return blobc_schema_err(p->s, x->tok.pos, p->err, "?%s: an optional of an optional "
                                    "says nothing more; write one '?'",
                                    (blobc_type_spell(t, sp, sizeof sp), sp));
        break;
    case TX_MAP:
        kind = BLOBC_KIND_MAP;
        if (resolve_texpr(p, x->a, &key)) return BLOBC_EINPUT;
        if (!blobc_kind_is_integer(key->kind) && key->kind != BLOBC_KIND_ENUM &&
            key->kind != BLOBC_KIND_STRING) {
            blobc_type_spell(key, sp, sizeof sp);
            return blobc_schema_err(p->s, x->a->tok.pos, p->err, "a map's key is a string, an "
                                    "integer or an enum, not %s %s", a_kind(key), sp);
        }
        break;
    default: break;
    }
    t = intern(p, kind, t, x->count, false, key);
    if (!t) return blobc_err_nomem(p->err);
    *out = t;
    return BLOBC_OK;
}

static blobc_status resolve_type(parser *p, const pending_field *pf, const blobc_type **out) {
    if (!pf->member) return resolve_texpr(p, pf->tx, out);
    const blobc_type *t;
    if (resolve_name(p, &pf->tx->tok, &t)) return BLOBC_EINPUT;
    if (t->kind != BLOBC_KIND_STRUCT)
        return blobc_schema_err(p->s, pf->tx->tok.pos, p->err,
                                "union %s: member '%s' is %s %s; union members are structs",
                                pf->st->name, t->name ? t->name : blobc_kind_name(t->kind),
                                a_kind(t), blobc_kind_name(t->kind));
    t = intern(p, BLOBC_KIND_PTR, t, 0, false, NULL);
    if (!t) return blobc_err_nomem(p->err);
    *out = t;
    return BLOBC_OK;
}

static bool is_text(const parser *p, const texpr *x) {
    return x->op == TX_NAME && x->tok.len == 4 && memcmp(tok_text(p, &x->tok), "text", 4) == 0;
}

/* A `text` anywhere in x, or NULL (recursion bounded as the parse was). */
static const texpr *find_text(const parser *p, const texpr *x) {
    if (!x) return NULL;
    if (is_text(p, x)) return x;
    const texpr *t = x->op == TX_NAME || x->op == TX_REF ? NULL : find_text(p, x->a);
    return t ? t : x->op == TX_MAP ? find_text(p, x->b) : NULL;
}

/* A field of `text`: the type itself, or one level down in [text],
 * [text; N] or ?text, takes BLOBC_FIELD_TEXT; a text anywhere else is an
 * error, since a bake translates the strings of a field, not of its
 * deeper parts. */
static blobc_status mark_text(parser *p, const pending_field *pf, blobc_field *f) {
    const texpr *x = pf->tx;
    if (pf->member) return BLOBC_OK;
    if (is_text(p, x) ||
        ((x->op == TX_ARRAY || x->op == TX_FIXED || x->op == TX_OPT) && is_text(p, x->a))) {
        f->flags |= BLOBC_FIELD_TEXT;
        return BLOBC_OK;
    }
    const texpr *t = find_text(p, x);
    return !t ? BLOBC_OK
              : blobc_schema_err(p->s, t->tok.pos, p->err, "text goes where a field's string "
                                 "goes: `name: text`, or its items in [text], [text; N] or ?text "
                                 "(a bake translates a field's own strings, not deeper ones)");
}

static blobc_status check_default(parser *p, const pending_field *pf, blobc_field *f) {
    const blobc_token *d = &pf->def;
    const blobc_type *t = f->type;
    const char *txt = tok_text(p, d);
    char got[64], msg[160];
    blobc_tok_describe(p->s, d, got, sizeof got);
    blobc_kind k = t->kind;
    if (k == BLOBC_KIND_BOOL) {
        bool b;
        if (d->kind != BLOBC_TOK_IDENT || !blobc_parse_bool(txt, d->len, &b, msg, sizeof msg))
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "default of bool field '%s' must be true or false, got %s",
                                    f->name, got);
        f->def.bits = b;
    } else if (blobc_kind_is_integer(k)) {
        if (d->kind != BLOBC_TOK_NUMBER)
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "default of %s field '%s' must be an integer, got %s",
                                    blobc_kind_name(k), f->name, got);
        if (!blobc_parse_int(txt, d->len, k, BLOBC_SYNTAX_SCHEMA, &f->def.bits, msg, sizeof msg))
            return blobc_schema_err(p->s, d->pos, p->err, "default of field '%s': %s", f->name,
                                    msg);
    } else if (k == BLOBC_KIND_F32 || k == BLOBC_KIND_F64) {
        if (d->kind != BLOBC_TOK_NUMBER)
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "default of %s field '%s' must be a number, got %s",
                                    blobc_kind_name(k), f->name, got);
        if (!blobc_parse_float(txt, d->len, k, BLOBC_SYNTAX_SCHEMA, &f->def.f, msg, sizeof msg))
            return blobc_schema_err(p->s, d->pos, p->err, "default of field '%s': %s", f->name,
                                    msg);
    } else if (k == BLOBC_KIND_ENUM) {
        if (d->kind != BLOBC_TOK_IDENT)
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "default of field '%s' must name a member of enum %s, got %s",
                                    f->name, t->name, got);
        const blobc_enum_value *v = NULL;
        for (uint32_t i = 0; i < t->nvalues && !v; i++)
            if (strlen(t->values[i].name) == d->len && memcmp(t->values[i].name, txt, d->len) == 0)
                v = &t->values[i];
        if (!v) {
            blobc_suggest sg;
            blobc_suggest_init(&sg, txt, d->len);
            for (uint32_t i = 0; i < t->nvalues; i++) blobc_suggest_offer(&sg, t->values[i].name);
            char hint[96];
            return blobc_schema_err(p->s, d->pos, p->err, "enum %s has no member %s%s", t->name,
                                    got, blobc_suggest_text(&sg, hint, sizeof hint));
        }
        f->def.bits = v->value;
    } else if (k == BLOBC_KIND_UNION) {
        if (!tok_is(p, d, "null"))
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "the default of union field '%s' can only be null (no "
                                    "member), got %s",
                                    f->name, got);
    } else if (k == BLOBC_KIND_PTR && t->ref) {
        if (!tok_is(p, d, "null"))
            return blobc_schema_err(p->s, d->pos, p->err, "the default of reference field '%s' can "
                                    "only be null (no element), got %s", f->name, got);
    } else if (k == BLOBC_KIND_OPTIONAL) {
        return blobc_schema_err(p->s, d->pos, p->err, "optional field '%s' takes no default: "
                                "absent is its own value (declare it without '?' to give one)",
                                f->name);
    } else if (k == BLOBC_KIND_STRING) {
        if (d->kind != BLOBC_TOK_STRING)
            return blobc_schema_err(p->s, d->pos, p->err,
                                    "default of string field '%s' must be a string literal "
                                    "(\"...\"), got %s",
                                    f->name, got);
        f->def.str = d->str;
        f->def.str_len = d->str_len;
    } else {
        char spelled[128];
        blobc_type_spell(t, spelled, sizeof spelled);
        return blobc_schema_err(p->s, d->pos, p->err,
                                "field '%s' of type %s cannot have a default (only scalars, "
                                "bool, enums, string, unions and references can)",
                                f->name, spelled);
    }
    f->def.present = true;
    return BLOBC_OK;
}

blobc_status blobc_parser_resolve(parser *p) {
    if (blobc_schema_index_names(p->s, p->err)) return p->err->status;
    for (size_t i = 0; i < p->npf; i++) {
        pending_field *pf = &p->pf[i];
        blobc_field *f = (blobc_field *)&pf->st->fields[pf->index];
        if (resolve_type(p, pf, &f->type) || mark_text(p, pf, f)) return p->err->status;
    }
    if (p->has_root) {
        const blobc_type *r;
        if (resolve_name(p, &p->root_tok, &r)) return p->err->status;
        if (r->kind != BLOBC_KIND_STRUCT)
            return blobc_schema_err(p->s, p->root_tok.pos, p->err,
                                    "the root must be a struct, but '%.*s' is %s",
                                    (int)p->root_tok.len, tok_text(p, &p->root_tok),
                                    r->kind == BLOBC_KIND_ENUM    ? "an enum"
                                    : r->kind == BLOBC_KIND_UNION ? "a union"
                                                                  : "a builtin type");
        p->s->root = r;
    }
    for (size_t i = 0; i < p->npf; i++) {
        pending_field *pf = &p->pf[i];
        if (!pf->has_def) continue;
        if (check_default(p, pf, (blobc_field *)&pf->st->fields[pf->index])) return BLOBC_EINPUT;
    }
    return blobc_checks_resolve(p);
}
