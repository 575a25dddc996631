/*
 * parser.c - the *.schema front end: a recursive-descent parser
 * over lexer.h tokens that builds blobc_type nodes; resolve.c then resolves
 * names (declarations may come in any order), interns anonymous
 * composites ([T], [T; N], *T) so that equal types are one object, checks
 * field defaults against their types, and hands the graph to the layout
 * engine. `import "x.schema";` lines at the top of a file parse that file
 * first (each file once, cycles refused), into the same set of types. The
 * language is specified in docs/SCHEMA.md; the first error stops parsing.
 */
#include "schema/parser_internal.h"

/* An identifier that names something new (a type, field or member). */
static blobc_status expect_name(parser *p, const char *what, blobc_token *out) {
    if (p->tok.kind != BLOBC_TOK_IDENT) {
        char want[64];
        snprintf(want, sizeof want, "%s name", what);
        return unexpected(p, want);
    }
    bool field = strcmp(what, "field") == 0;
    if (blobc_schema_is_keyword(tok_text(p, &p->tok), p->tok.len))
        return blobc_schema_err(p->s, p->tok.pos, p->err, "'%.*s' is a keyword and cannot be used as "
                                "a %s name%s%.*s%s", (int)p->tok.len, tok_text(p, &p->tok), what,
                                field ? " (quote it for a key named so: \"" : "",
                                field ? (int)p->tok.len : 0, tok_text(p, &p->tok), field ? "\": ...)" : "");
    *out = p->tok;
    return next(p);
}

static char *arena_name(parser *p, const blobc_token *t) {
    return blobc_arena_strndup(&p->s->arena, tok_text(p, t), t->len);
}

/* ---- type expressions ---- */

static blobc_status parse_count(parser *p, uint32_t *count) {
    if (p->tok.kind != BLOBC_TOK_NUMBER) return unexpected(p, "an array length after ';'");
    uint64_t v;
    char msg[8];
    if (!blobc_parse_int(tok_text(p, &p->tok), p->tok.len, BLOBC_KIND_U64, BLOBC_SYNTAX_SCHEMA, &v,
                         msg, sizeof msg) ||
        v > BLOBC_MAX_FIXED_COUNT)
        return blobc_schema_err(p->s, p->tok.pos, p->err, "array length must be an integer from 1 "
                                "to %u, got '%.*s'", BLOBC_MAX_FIXED_COUNT,
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    if (v == 0)
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "a fixed array needs at least one element ([T; 0] has no size); "
                                "use [T] for an array that may be empty");
    *count = (uint32_t)v;
    return next(p);
}

static texpr *new_texpr(parser *p, tx_op op, const blobc_token *tok) {
    texpr *x = blobc_arena_alloc(&p->s->arena, sizeof *x);
    if (!x) return NULL;
    memset(x, 0, sizeof *x);
    x->op = op;
    x->tok = *tok;
    return x;
}

/* type = NAME | "&" NAME | "?" type | "*" type
 *      | "[" type ( "]" | ";" N "]" | ":" type "]" ) ;
 * Recursion is bounded by MAX_TYPE_NESTING levels in all. */
static blobc_status parse_type_at(parser *p, uint32_t *depth, texpr **out) {
    blobc_token open = p->tok;
    tx_op op;
    switch (p->tok.kind) {
    case BLOBC_TOK_IDENT:
        if (!(*out = new_texpr(p, TX_NAME, &p->tok))) return blobc_err_nomem(p->err);
        return next(p);
    case BLOBC_TOK_AMP:
        if (next(p)) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a struct name after '&'");
        if (!(*out = new_texpr(p, TX_REF, &p->tok))) return blobc_err_nomem(p->err);
        return next(p);
    case BLOBC_TOK_QUESTION: op = TX_OPT; break;
    case BLOBC_TOK_STAR: op = TX_PTR; break;
    case BLOBC_TOK_LBRACKET: op = TX_ARRAY; break;
    default: return unexpected(p, "a type");
    }
    if (++*depth > MAX_TYPE_NESTING)
        return blobc_schema_err(p->s, p->tok.pos, p->err, "type nested too deeply (more than "
                                "%d levels of [ ], ?, * and maps)", MAX_TYPE_NESTING);
    texpr *x = new_texpr(p, op, &open);
    if (!x) return blobc_err_nomem(p->err);
    *out = x;
    if (next(p) || parse_type_at(p, depth, &x->a)) return BLOBC_EINPUT;
    if (op != TX_ARRAY) return BLOBC_OK;
    if (p->tok.kind == BLOBC_TOK_SEMI) {
        x->op = TX_FIXED;
        if (next(p) || parse_count(p, &x->count)) return BLOBC_EINPUT;
    } else if (p->tok.kind == BLOBC_TOK_COLON) {
        x->op = TX_MAP;
        if (next(p) || parse_type_at(p, depth, &x->b)) return BLOBC_EINPUT;
    }
    return expect(p, BLOBC_TOK_RBRACKET,
                  x->op == TX_MAP ? "']' to close the map type" : "']', '; N]' or ': V]' to "
                                                                   "close the array or map type");
}

static blobc_status parse_type(parser *p, pending_field *pf) {
    uint32_t depth = 0;
    return parse_type_at(p, &depth, &pf->tx);
}

/* ---- declarations ---- */

static void *arena_copy(parser *p, const void *src, size_t n, size_t size) {
    void *dst = blobc_arena_array(&p->s->arena, n, size);
    if (dst) memcpy(dst, src, n * size);
    return dst;
}

/* Registers a struct or enum whose fields or members were just copied to
 * `items` (NULL when that copy ran out of memory) and steps over its '}'. */
static blobc_status finish_decl(parser *p, blobc_type *t, const void *items) {
    if (!items) return blobc_err_nomem(p->err);
    if (blobc_schema_add_named(p->s, t, p->err)) return BLOBC_EINPUT;
    return next(p);
}

/* "x: std::string;" - a C++ qualified name where a type belongs: said as
 * an unknown type, with the builtin it stands for when there is one. */
static blobc_status qualified_type(parser *p, const blobc_token *leaf) {
    const char *t = p->s->text + leaf->off;
    size_t n = 0, max = p->s->text_len - leaf->off;
    while (n < max && n < 64 &&
           (t[n] == ':' || t[n] == '_' || (t[n] >= '0' && t[n] <= '9') ||
            ((t[n] | 0x20) >= 'a' && (t[n] | 0x20) <= 'z')))
        n++;
    blobc_suggest sg;
    blobc_suggest_init(&sg, t, n);
    blobc_suggest_builtin_spellings(&sg);
    char hint[96];
    return blobc_schema_err(p->s, leaf->pos, p->err, "unknown type '%.*s' (the schema language has "
                            "no namespaces)%s", (int)n, t, blobc_suggest_text(&sg, hint, sizeof hint));
}

static blobc_status parse_field(parser *p, blobc_type *st) {
    blobc_token name;
    const char *doc = p->tok.doc;
    /* a quoted name is the data's key as other tools write it ("near clip
     * plane", "string"): any text but empty or holding NUL */
    bool quoted = p->tok.kind == BLOBC_TOK_STRING;
    if (quoted) {
        if (p->tok.str_len == 0 || memchr(p->tok.str, 0, p->tok.str_len))
            return blobc_schema_err(p->s, p->tok.pos, p->err, "a quoted field name cannot be "
                                    "empty or hold a NUL character");
        name = p->tok;
        if (next(p)) return BLOBC_EINPUT;
    } else if (expect_name(p, "field", &name)) {
        return BLOBC_EINPUT;
    }
    if (expect(p, BLOBC_TOK_COLON, "':' and a type after the field name")) return BLOBC_EINPUT;
    if (!grow((void **)&p->fv, &p->fvcap, p->nfv, sizeof *p->fv) ||
        !grow((void **)&p->pf, &p->pfcap, p->npf, sizeof *p->pf))
        return blobc_err_nomem(p->err);
    if (p->nfv >= BLOBC_MAX_TYPE_SIZE)
        return blobc_schema_err(p->s, name.pos, p->err, "too many fields");
    blobc_field *f = &p->fv[p->nfv];
    memset(f, 0, sizeof *f);
    f->name = quoted ? blobc_arena_strndup(&p->s->arena, name.str, name.str_len)
                     : arena_name(p, &name);
    if (!f->name) return blobc_err_nomem(p->err);
    f->pos = name.pos;
    f->doc = doc;
    f->was = p->was;
    p->was = NULL;
    f->sep = p->sep;
    p->sep = NULL;
    f->flags = p->anchor_next ? BLOBC_FIELD_ANCHOR : 0;
    p->anchor_next = false;
    if (p->nck) {
        if (!(f->checks = arena_copy(p, p->ck, p->nck, sizeof *p->ck))) return blobc_err_nomem(p->err);
        f->nchecks = (uint32_t)p->nck;
        p->nck = 0;
    }
    pending_field *pf = &p->pf[p->npf];
    memset(pf, 0, sizeof *pf);
    pf->st = st;
    pf->index = (uint32_t)p->nfv;
    if (parse_type(p, pf)) return BLOBC_EINPUT;
    if (p->tok.kind == BLOBC_TOK_EQ) {
        if (next(p)) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_NUMBER && p->tok.kind != BLOBC_TOK_STRING &&
            p->tok.kind != BLOBC_TOK_IDENT)
            return unexpected(p, "a default value after '='");
        pf->has_def = true;
        pf->def = p->tok;
        if (next(p)) return BLOBC_EINPUT;
    }
    const blobc_token *leaf = &pf->tx->tok;
    if (p->tok.kind == BLOBC_TOK_COLON && pf->tx->op == TX_NAME && !pf->has_def &&
        p->tok.off == leaf->off + leaf->len && p->tok.off + 1 < p->s->text_len &&
        p->s->text[p->tok.off + 1] == ':')
        return qualified_type(p, leaf);
    if (p->tok.kind != BLOBC_TOK_SEMI) {
        char want[80];
        snprintf(want, sizeof want, "';' after field '%s'", f->name);
        return unexpected(p, want);
    }
    p->nfv++;
    p->npf++;
    return next(p);
}

/* Steps over the 'struct' or 'enum' keyword and reads the new type's name. */
static blobc_status begin_named(parser *p, blobc_kind kind, blobc_token *name, blobc_type **out) {
    if (next(p)) return BLOBC_EINPUT;
    if (expect_name(p, "type", name)) return BLOBC_EINPUT;
    if (name->len == 4 && memcmp(tok_text(p, name), "text", 4) == 0)
        return blobc_schema_err(p->s, name->pos, p->err, "'text' is a built-in type (a string "
                                "that is a key of a string table) and cannot be declared");
    blobc_type *t = blobc_arena_alloc(&p->s->arena, sizeof *t);
    if (!t || !(t->name = arena_name(p, name))) return blobc_err_nomem(p->err);
    t->kind = kind;
    t->pos = name->pos;
    t->doc = p->doc;
    *out = t;
    return BLOBC_OK;
}

/* `@was(old)` (the '@' and "was" read): the name the next field or
 * member had before. */
static blobc_status parse_was(parser *p) {
    if (p->was) return blobc_schema_err(p->s, p->tok.pos, p->err, "@was is given twice");
    blobc_token old;
    if (next(p) || expect(p, BLOBC_TOK_LPAREN, "'(' after @was") ||
        expect_name(p, "old name", &old))
        return BLOBC_EINPUT;
    if (!(p->was = arena_name(p, &old))) return blobc_err_nomem(p->err);
    return expect(p, BLOBC_TOK_RPAREN, "')' after the old name");
}

/* `@sep("|")` (the '@' and "sep" read): the character a spreadsheet
 * cell splits the next field's items or entries by. */
static blobc_status parse_sep(parser *p) {
    blobc_pos at = p->tok.pos;
    if (p->sep) return blobc_schema_err(p->s, at, p->err, "@sep is given twice");
    if (next(p) || expect(p, BLOBC_TOK_LPAREN, "'(' after @sep")) return BLOBC_EINPUT;
    const char *c = p->tok.str;
    if (p->tok.kind != BLOBC_TOK_STRING || p->tok.str_len != 1 || !(c[0] == '\t' || (c[0] >= ' ' && c[0] < 0x7f)) ||
        strchr("\"=._", c[0]) || ((c[0] | 0x20) >= 'a' && (c[0] | 0x20) <= 'z') ||
        (c[0] >= '0' && c[0] <= '9'))
        return blobc_schema_err(p->s, p->tok.pos, p->err, "@sep takes one punctuation character "
                                "in quotes, such as @sep(\"|\") (not a letter, digit, '_', '.', '=' or '\"')");
    p->sep = c;
    if (next(p)) return BLOBC_EINPUT;
    return expect(p, BLOBC_TOK_RPAREN, "')' after @sep's character");
}

/* `@key`, `@anchor`, `@was(old)` or `@sep("|")` before a field: the struct's key (at
 * most one), the field taking its node's YAML anchor, the name the field
 * had before. */
static blobc_status parse_field_attribute(parser *p, blobc_type *st) {
    blobc_pos at = p->tok.pos;
    if (next(p)) return BLOBC_EINPUT; /* '@' */
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "an attribute name after '@'");
    if (tok_is(p, &p->tok, "was")) return parse_was(p);
    if (blobc_check_named(p)) return blobc_check_parse(p, st, at);
    if (tok_is(p, &p->tok, "sep")) return parse_sep(p);
    if (tok_is(p, &p->tok, "anchor")) {
        if (p->anchor_next) return blobc_schema_err(p->s, at, p->err, "@anchor is given twice");
        p->anchor_next = true;
        return next(p);
    }
    if (tok_is(p, &p->tok, "tags"))
        return blobc_schema_err(p->s, at, p->err, "@tags goes before a struct (the tags its items "
                                "may carry in data), not before a field");
    if (!tok_is(p, &p->tok, "key"))
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "unknown field attribute '@%.*s' (a field takes @key, @anchor, "
                                "@was, @sep, @range, @len, @match, @path and @unique)",
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    if (st->key)
        return blobc_schema_err(p->s, at, p->err, "struct %s has two @key fields; a struct has at "
                                "most one key", st->name);
    st->key = (uint32_t)p->nfv + 1;
    return next(p);
}

/* What attributes before a declaration said. */
typedef struct decl_attrs {
    uint32_t align;      /* @align(N), 0 when absent */
    uint32_t flags;      /* BLOBC_STRUCT_OPEN, BLOBC_STRUCT_STREAM */
    bool any;            /* some attribute was given */
    blobc_pos at;        /* the first one's '@' */
    const char **tags;   /* @tags(a, b): the tags its items may carry */
    uint32_t ntags;
} decl_attrs;

static blobc_status parse_struct(parser *p, const decl_attrs *da) {
    blobc_token name;
    blobc_type *t;
    if (begin_named(p, BLOBC_KIND_STRUCT, &name, &t)) return BLOBC_EINPUT;
    t->align_attr = da->align;
    t->flags = da->flags;
    t->tags = da->tags;
    t->ntags = da->ntags;
    if (expect(p, BLOBC_TOK_LBRACE, "'{' after the struct name")) return BLOBC_EINPUT;
    p->nfv = 0;
    while (p->tok.kind != BLOBC_TOK_RBRACE) {
        if (p->tok.kind == BLOBC_TOK_EOF)
            return blobc_schema_err(p->s, name.pos, p->err,
                                    "struct %s is not closed (missing '}')", t->name);
        if (p->tok.kind == BLOBC_TOK_AT) {
            if (parse_field_attribute(p, t)) return BLOBC_EINPUT;
            continue;
        }
        if (parse_field(p, t)) return BLOBC_EINPUT;
    }
    if (t->key > p->nfv || p->was || p->anchor_next || p->sep || p->nck)
        return unexpected(p, p->was ? "a field after @was" : p->anchor_next ? "a field after @anchor"
                             : p->sep ? "a field after @sep" : p->nck ? "a field after the value check"
                             : "a field after @key");
    if (p->nfv == 0)
        return blobc_schema_err(p->s, name.pos, p->err,
                                "struct %s has no fields (a struct needs at least one)", t->name);
    t->fields = arena_copy(p, p->fv, p->nfv, sizeof *p->fv);
    t->nfields = (uint32_t)p->nfv;
    return finish_decl(p, t, t->fields);
}

/* After a member of an enum or union: ',' (then maybe the '}') or '}'. */
static blobc_status member_sep(parser *p, const char *after) {
    if (p->tok.kind == BLOBC_TOK_COMMA) return next(p);
    if (p->tok.kind == BLOBC_TOK_RBRACE) return BLOBC_OK;
    char want[64];
    snprintf(want, sizeof want, "',' or '}' after %s", after);
    return unexpected(p, want);
}

static blobc_status no_members(parser *p, const blobc_type *t, const blobc_token *name) {
    const char *kw = blobc_kind_name(t->kind);
    return blobc_schema_err(p->s, name->pos, p->err, "%s %s has no members (%s %s needs at least one)",
                            kw, t->name, t->kind == BLOBC_KIND_ENUM ? "an" : "a", kw);
}

/* union Name { A, B, } : each member names a struct and is stored as a
 * *A at BLOBC_UNION_REF (see blobc_type), resolved with the fields. */
/* `@was(old)` before an enum or union member (at the '@'). */
static blobc_status member_was(parser *p, const char *what) {
    if (next(p)) return BLOBC_EINPUT;
    return tok_is(p, &p->tok, "was") ? parse_was(p) : unexpected(p, what);
}

/* A union member's tag as written ("tilelayer": or 1:), into f. */
static blobc_status member_tag(parser *p, blobc_type *t, blobc_field *f, bool *seen_int,
                               bool *seen_str) {
    if (p->tok.kind == BLOBC_TOK_STRING) {
        if (t->by == BLOBC_UNION_BY_KEY)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s: a member tag (\"...\": "
                                    "Member) needs the union to be tagged `by \"field\"` or `by "
                                    "tag`", t->name);
        if (p->tok.str_len == 0)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s: a tag cannot be empty",
                                    t->name);
        f->tag = p->tok.str;
        *seen_str = true;
    } else {
        if (t->by != BLOBC_UNION_BY_FIELD)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s: integer tags need the "
                                    "union to be tagged `by \"field\"`", t->name);
        char msg[160];
        if (!blobc_parse_int(tok_text(p, &p->tok), p->tok.len, BLOBC_KIND_I64, BLOBC_SYNTAX_SCHEMA,
                             &f->tag_value, msg, sizeof msg))
            return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s: tag: %s", t->name, msg);
        *seen_int = true;
    }
    if (*seen_int && *seen_str)
        return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s mixes integer and string "
                                "tags; a union's tags are all of one sort", t->name);
    if (next(p)) return BLOBC_EINPUT;
    return expect(p, BLOBC_TOK_COLON, "':' and the member's struct after its tag");
}

/* `by "field"` or `by tag`, then `default TAG`, after the union's name. */
static blobc_status union_by(parser *p, blobc_type *t, blobc_token *def, bool *has_def) {
    if (!tok_is(p, &p->tok, "by")) return BLOBC_OK;
    if (next(p)) return BLOBC_EINPUT;
    if (p->tok.kind == BLOBC_TOK_STRING) {
        if (p->tok.str_len == 0 || p->tok.str_len > BLOBC_MAX_NAME)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "union %s: the tag field's name "
                                    "must be 1 to %u bytes", t->name, BLOBC_MAX_NAME);
        t->by = BLOBC_UNION_BY_FIELD;
        t->tag_field = p->tok.str;
    } else if (tok_is(p, &p->tok, "tag")) {
        t->by = BLOBC_UNION_BY_TAG;
    } else {
        return unexpected(p, "a field name in quotes (by \"type\") or 'tag' after 'by'");
    }
    if (next(p)) return BLOBC_EINPUT;
    if (!tok_is(p, &p->tok, "default")) return BLOBC_OK;
    if (next(p)) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_STRING && p->tok.kind != BLOBC_TOK_NUMBER)
        return unexpected(p, "a member's tag after 'default'");
    *def = p->tok;
    *has_def = true;
    return next(p);
}

/* The member whose tag `def` names becomes the default. */
static blobc_status union_default(parser *p, blobc_type *t, const blobc_token *def) {
    for (uint32_t i = 0; i < t->nfields; i++) {
        const blobc_field *f = &t->fields[i];
        bool hit;
        if (def->kind == BLOBC_TOK_STRING) {
            hit = !t->int_tags && strlen(f->tag) == def->str_len &&
                  memcmp(f->tag, def->str, def->str_len) == 0;
        } else {
            uint64_t v;
            char msg[8];
            hit = t->int_tags && blobc_parse_int(tok_text(p, def), def->len, BLOBC_KIND_I64,
                                                 BLOBC_SYNTAX_SCHEMA, &v, msg, sizeof msg) &&
                  v == f->tag_value;
        }
        if (hit) {
            t->default_member = i + 1;
            return BLOBC_OK;
        }
    }
    blobc_suggest sg;
    blobc_suggest_init(&sg, def->kind == BLOBC_TOK_STRING ? def->str : tok_text(p, def),
                       def->kind == BLOBC_TOK_STRING ? def->str_len : def->len);
    for (uint32_t i = 0; i < t->nfields && !t->int_tags; i++) blobc_suggest_offer(&sg, t->fields[i].tag);
    char got[64], hint[96];
    blobc_tok_describe(p->s, def, got, sizeof got);
    return blobc_schema_err(p->s, def->pos, p->err, "union %s: the default %s is no member's "
                            "tag%s", t->name, def->kind == BLOBC_TOK_STRING ? def->str : got,
                            blobc_suggest_text(&sg, hint, sizeof hint));
}

/* union Name [by "field" | by tag] [default TAG] { [TAG:] A, B, } : each
 * member names a struct and is stored as a *A at BLOBC_UNION_REF (see
 * blobc_type), resolved with the fields. A member of a tagged union
 * without a tag is tagged by its struct's name (`!Name` by tag). */
static blobc_status parse_union(parser *p, const decl_attrs *da) {
    blobc_token name, def;
    bool has_def = false, seen_int = false, seen_str = false;
    blobc_type *t;
    if (begin_named(p, BLOBC_KIND_UNION, &name, &t)) return BLOBC_EINPUT;
    if (union_by(p, t, &def, &has_def)) return BLOBC_EINPUT;
    /* @open union: a tag naming no member leaves the value out (none) */
    if (da->flags & BLOBC_STRUCT_OPEN) {
        if (!t->by)
            return blobc_schema_err(p->s, da->at, p->err, "@open applies to unions tagged by a "
                                    "field or a YAML tag (union %s is tagged by its one key)",
                                    t->name);
        t->flags = BLOBC_STRUCT_OPEN;
    }
    if (expect(p, BLOBC_TOK_LBRACE, t->by ? "'{' after the union's tagging" :
                                            "'{' (or 'by') after the union name"))
        return BLOBC_EINPUT;
    p->nfv = 0;
    while (p->tok.kind != BLOBC_TOK_RBRACE) {
        if (p->tok.kind == BLOBC_TOK_EOF)
            return blobc_schema_err(p->s, name.pos, p->err, "union %s is not closed (missing '}')",
                                    t->name);
        if (p->tok.kind == BLOBC_TOK_AT) {
            if (member_was(p, "'was' after '@' (a union member takes @was(Old))")) return BLOBC_EINPUT;
            continue;
        }
        if (!grow((void **)&p->fv, &p->fvcap, p->nfv, sizeof *p->fv) ||
            !grow((void **)&p->pf, &p->pfcap, p->npf, sizeof *p->pf))
            return blobc_err_nomem(p->err);
        if (p->nfv >= BLOBC_MAX_TYPE_SIZE)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "too many union members");
        blobc_field *f = &p->fv[p->nfv];
        memset(f, 0, sizeof *f);
        f->doc = p->tok.doc;
        bool tagged = p->tok.kind == BLOBC_TOK_STRING || p->tok.kind == BLOBC_TOK_NUMBER;
        if (tagged && member_tag(p, t, f, &seen_int, &seen_str)) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a struct name (a union member)");
        if (!(f->name = arena_name(p, &p->tok))) return blobc_err_nomem(p->err);
        f->pos = p->tok.pos;
        f->was = p->was;
        p->was = NULL;
        pending_field *pf = &p->pf[p->npf];
        memset(pf, 0, sizeof *pf);
        pf->st = t;
        pf->index = (uint32_t)p->nfv;
        pf->member = true;
        pf->tagged = tagged;
        if (!(pf->tx = new_texpr(p, TX_NAME, &p->tok))) return blobc_err_nomem(p->err);
        p->nfv++;
        p->npf++;
        if (next(p) || member_sep(p, "a union member")) return BLOBC_EINPUT;
    }
    if (p->was) return unexpected(p, "a member after @was");
    if (p->nfv == 0) return no_members(p, t, &name);
    t->int_tags = seen_int;
    for (size_t i = 0; i < p->nfv && t->by; i++) {
        blobc_field *f = &p->fv[i];
        if (seen_int && !p->pf[p->npf - p->nfv + i].tagged)
            return blobc_schema_err(p->s, f->pos, p->err, "union %s has integer tags: member %s "
                                    "needs one too (N: %s)", t->name, f->name, f->name);
        if (f->tag || seen_int) continue;
        const char *prefix = t->by == BLOBC_UNION_BY_TAG ? "!" : "";
        size_t n = strlen(prefix) + strlen(f->name);
        char *tg = blobc_arena_alloc(&p->s->arena, n + 1);
        if (!tg) return blobc_err_nomem(p->err);
        snprintf(tg, n + 1, "%s%s", prefix, f->name);
        f->tag = tg;
    }
    t->fields = arena_copy(p, p->fv, p->nfv, sizeof *p->fv);
    t->nfields = (uint32_t)p->nfv;
    if (t->fields && has_def && union_default(p, t, &def)) return BLOBC_EINPUT;
    return finish_decl(p, t, t->fields);
}

static const blobc_type *integer_base(const parser *p, const blobc_token *t) {
    for (int k = BLOBC_KIND_I8; k <= BLOBC_KIND_U64; k++)
        if (tok_is(p, t, blobc_kind_name((blobc_kind)k))) return blobc_builtin_type((blobc_kind)k);
    return NULL;
}

static void format_value(char *buf, size_t cap, blobc_kind base, uint64_t bits) {
    if (blobc_kind_is_signed(base)) snprintf(buf, cap, "%lld", (long long)(int64_t)bits);
    else snprintf(buf, cap, "%llu", (unsigned long long)bits);
}

static blobc_status parse_enum(parser *p) {
    blobc_token name;
    blobc_type *t;
    if (begin_named(p, BLOBC_KIND_ENUM, &name, &t)) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_COLON)
        return unexpected(p, "':' and an integer base type after the enum name (enum Name : u8 { ... })");
    if (next(p)) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "an integer base type (i8..u64)");
    const blobc_type *base = integer_base(p, &p->tok);
    if (!base)
        return blobc_schema_err(p->s, p->tok.pos, p->err, "an enum's base must be an integer type "
                                "(i8, u8, i16, u16, i32, u32, i64 or u64), got '%.*s'",
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    t->elem = base;
    if (next(p)) return BLOBC_EINPUT;
    if (expect(p, BLOBC_TOK_LBRACE, "'{' after the enum's base type")) return BLOBC_EINPUT;
    p->nev = 0;
    uint64_t next_value = 0;
    bool next_ok = true; /* false once the previous value was the base's maximum */
    blobc_kind bk = base->kind;
    while (p->tok.kind != BLOBC_TOK_RBRACE) {
        blobc_token m;
        const char *doc = p->tok.doc;
        if (p->tok.kind == BLOBC_TOK_EOF)
            return blobc_schema_err(p->s, name.pos, p->err, "enum %s is not closed (missing '}')",
                                    t->name);
        if (p->tok.kind == BLOBC_TOK_AT) {
            if (member_was(p, "'was' after '@' (an enum member takes @was(old))")) return BLOBC_EINPUT;
            continue;
        }
        if (expect_name(p, "member", &m)) return BLOBC_EINPUT;
        if (!grow((void **)&p->ev, &p->evcap, p->nev, sizeof *p->ev)) return blobc_err_nomem(p->err);
        if (p->nev >= BLOBC_MAX_TYPE_SIZE)
            return blobc_schema_err(p->s, m.pos, p->err, "too many enum members");
        blobc_enum_value *v = &p->ev[p->nev];
        memset(v, 0, sizeof *v);
        v->name = arena_name(p, &m);
        v->pos = m.pos;
        v->doc = doc;
        v->was = p->was;
        p->was = NULL;
        if (!v->name) return blobc_err_nomem(p->err);
        if (p->tok.kind == BLOBC_TOK_EQ) {
            if (next(p)) return BLOBC_EINPUT;
            if (p->tok.kind != BLOBC_TOK_NUMBER)
                return unexpected(p, "an integer value after '='");
            char msg[160];
            if (!blobc_parse_int(tok_text(p, &p->tok), p->tok.len, bk, BLOBC_SYNTAX_SCHEMA,
                                 &v->value, msg, sizeof msg))
                return blobc_schema_err(p->s, p->tok.pos, p->err, "enum %s, member '%s': %s",
                                        t->name, v->name, msg);
            if (next(p)) return BLOBC_EINPUT;
        } else {
            if (!next_ok) {
                char prev[32];
                format_value(prev, sizeof prev, bk, p->ev[p->nev - 1].value);
                return blobc_schema_err(p->s, m.pos, p->err,
                                        "enum %s, member '%s': the value after %s is out of %s "
                                        "range %s",
                                        t->name, v->name, prev, blobc_kind_name(bk),
                                        blobc_int_range_text(bk));
            }
            v->value = next_value;
        }
        /* The next implicit value is this one plus one, if the base has room. */
        uint64_t max = UINT64_MAX >> (64 - 8 * base->size + (blobc_kind_is_signed(bk) ? 1 : 0));
        next_ok = v->value != max;
        next_value = v->value + 1;
        if (blobc_kind_is_signed(bk) && v->value == UINT64_MAX) next_value = 0;
        p->nev++;
        if (member_sep(p, "an enum member")) return BLOBC_EINPUT;
    }
    if (p->was) return unexpected(p, "a member after @was");
    if (p->nev == 0) return no_members(p, t, &name);
    t->values = arena_copy(p, p->ev, p->nev, sizeof *p->ev);
    t->nvalues = (uint32_t)p->nev;
    return finish_decl(p, t, t->values);
}

static blobc_status parse_align(parser *p, decl_attrs *da, blobc_pos at) {
    if (da->align) return blobc_schema_err(p->s, at, p->err, "@align is given twice");
    if (next(p)) return BLOBC_EINPUT;
    if (expect(p, BLOBC_TOK_LPAREN, "'(' after @align")) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_NUMBER) return unexpected(p, "an alignment (1, 2, 4, 8 or 16)");
    uint64_t v = 0;
    char msg[8];
    if (!blobc_parse_int(tok_text(p, &p->tok), p->tok.len, BLOBC_KIND_U64, BLOBC_SYNTAX_SCHEMA, &v,
                         msg, sizeof msg) ||
        !blobc_is_pow2(v) || v > BLOBC_MAX_ALIGN)
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "@align takes a power of two from 1 to %u, got '%.*s'",
                                BLOBC_MAX_ALIGN, (int)(p->tok.len > 40 ? 40 : p->tok.len),
                                tok_text(p, &p->tok));
    da->align = (uint32_t)v;
    if (next(p)) return BLOBC_EINPUT;
    return expect(p, BLOBC_TOK_RPAREN, "')' after the alignment");
}

/* `@tags(dev, test)` (the '@' and "tags" read): the tags the struct's
 * items may carry in their data ($tags), which `bake --exclude-tags`
 * leaves out. Names, each once, at most BLOBC_MAX_TAGS. */
static blobc_status parse_tags(parser *p, decl_attrs *da, blobc_pos at) {
    if (da->tags) return blobc_schema_err(p->s, at, p->err, "@tags is given twice");
    const char *names[BLOBC_MAX_TAGS];
    uint32_t n = 0;
    if (next(p) || expect(p, BLOBC_TOK_LPAREN, "'(' after @tags")) return BLOBC_EINPUT;
    for (;;) {
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a tag name (such as dev or test)");
        if (n == BLOBC_MAX_TAGS)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "@tags names at most %u tags",
                                    (unsigned)BLOBC_MAX_TAGS);
        for (uint32_t i = 0; i < n; i++)
            if (tok_is(p, &p->tok, names[i]))
                return blobc_schema_err(p->s, p->tok.pos, p->err, "tag '%s' is given twice",
                                        names[i]);
        if (!(names[n++] = arena_name(p, &p->tok))) return blobc_err_nomem(p->err);
        if (next(p)) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_COMMA) break;
        if (next(p)) return BLOBC_EINPUT;
    }
    if (!(da->tags = arena_copy(p, names, n, sizeof *names))) return blobc_err_nomem(p->err);
    da->ntags = n;
    return expect(p, BLOBC_TOK_RPAREN, "',' or ')' after a tag name");
}

/* The first attribute a declaration was given, for messages. */
static const char *attr_word(const decl_attrs *da) {
    return da->align ? "align" : da->flags & BLOBC_STRUCT_OPEN ? "open"
           : da->flags & BLOBC_STRUCT_STREAM ? "stream" : "tags";
}

/* @align(N), @open, @stream or @tags(...) before a struct. */
static blobc_status parse_attribute(parser *p, decl_attrs *da) {
    blobc_pos at = p->tok.pos;
    if (next(p)) return BLOBC_EINPUT; /* '@' */
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "an attribute name after '@'");
    if (!da->any) da->at = at;
    da->any = true;
    if (tok_is(p, &p->tok, "align")) return parse_align(p, da, at);
    if (tok_is(p, &p->tok, "tags")) return parse_tags(p, da, at);
    uint32_t flag = tok_is(p, &p->tok, "open") ? BLOBC_STRUCT_OPEN
                    : tok_is(p, &p->tok, "stream") ? BLOBC_STRUCT_STREAM : 0;
    if (!flag)
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "unknown attribute '@%.*s' (a struct takes @align(N), @open, "
                                "@stream and @tags(...))",
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    if (da->flags & flag)
        return blobc_schema_err(p->s, at, p->err, "@%s is given twice",
                                flag == BLOBC_STRUCT_OPEN ? "open" : "stream");
    da->flags |= flag;
    return next(p);
}

static blobc_status parse_decl(parser *p) {
    decl_attrs da = {0, 0, false, {0, 0, 0}, NULL, 0};
    p->doc = p->tok.doc;
    while (p->tok.kind == BLOBC_TOK_AT)
        if (parse_attribute(p, &da)) return BLOBC_EINPUT;
    if (tok_is(p, &p->tok, "struct")) {
        if (parse_struct(p, &da)) return BLOBC_EINPUT;
    } else if (da.flags == BLOBC_STRUCT_OPEN && !da.align && !da.tags && tok_is(p, &p->tok, "union")) {
        if (parse_union(p, &da)) return BLOBC_EINPUT;
    } else if (da.any && (tok_is(p, &p->tok, "enum") || tok_is(p, &p->tok, "union") ||
                          tok_is(p, &p->tok, "root"))) {
        return blobc_schema_err(p->s, da.at, p->err, "@%s applies to structs only", attr_word(&da));
    } else if (da.any) {
        return unexpected(p, "'struct' after the attribute");
    } else if (tok_is(p, &p->tok, "enum")) {
        if (parse_enum(p)) return BLOBC_EINPUT;
    } else if (tok_is(p, &p->tok, "union")) {
        if (parse_union(p, &da)) return BLOBC_EINPUT;
    } else if (tok_is(p, &p->tok, "root")) {
        blobc_pos at = p->tok.pos;
        if (next(p)) return BLOBC_EINPUT;
        if (p->tok.kind == BLOBC_TOK_LBRACKET)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "the root is a struct; for a file of "
                                    "many documents (a YAML stream) declare `@stream struct "
                                    "Docs { items: [T]; }` and `root Docs;`");
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a struct name after 'root'");
        /* An imported file's root is its own (for its own bakes), not the
         * importer's: two imported files may each have one. */
        if (p->lx.file != 0) {
            if (next(p)) return BLOBC_EINPUT;
            return expect(p, BLOBC_TOK_SEMI, "';' after the root declaration");
        }
        char first[BLOBC_PLACE_BUF];
        if (p->has_root)
            return blobc_schema_err(p->s, at, p->err,
                                    "a schema has at most one root (the first is at %s)",
                                    blobc_schema_place(p->s, p->root_at, first, sizeof first));
        p->has_root = true;
        p->root_at = at;
        p->root_tok = p->tok;
        if (next(p)) return BLOBC_EINPUT;
        return expect(p, BLOBC_TOK_SEMI, "';' after the root declaration");
    } else if (tok_is(p, &p->tok, "import")) {
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "imports come first in a file, before any declaration");
    } else {
        return unexpected(p, "a declaration (struct, enum, union or root)");
    }
    /* C habit: "struct X { ... };" */
    if (p->tok.kind == BLOBC_TOK_SEMI) return next(p);
    return BLOBC_OK;
}

/* ---- files and imports ---- */

static blobc_status parse_file(parser *p, uint32_t file);

/* Adds a source to s->files (text and path already in the arena). */
static blobc_status add_file(parser *p, const char *path, const char *text, size_t len,
                             const blobc_os_info *st, uint32_t *index) {
    blobc_schema *s = p->s;
    if (!grow((void **)&s->files, &s->files_cap, s->nfiles, sizeof *s->files) ||
        !grow((void **)&p->ids, &p->idcap, s->nfiles, sizeof *p->ids))
        return blobc_err_nomem(p->err);
    s->files[s->nfiles] = (blobc_srcfile){path, text, len};
    p->ids[s->nfiles].known = st != NULL;
    if (st) p->ids[s->nfiles].id = *st;
    *index = (uint32_t)s->nfiles++;
    return BLOBC_OK;
}

/* The import path as found from the importing file: joined to its
 * directory unless absolute. */
static char *import_path(parser *p, const char *importer, const char *path) {
    size_t dir = blobc_os_is_absolute(path) ? 0 : blobc_os_dir_len(importer);
    size_t n = strlen(path), total;
    if (!blobc_add_ok(dir, n, &total)) return NULL;
    char *out = blobc_arena_alloc(&p->s->arena, total + 1);
    if (!out) return NULL;
    memcpy(out, importer, dir);
    memcpy(out + dir, path, n + 1);
    return out;
}

/* "a.schema -> b.schema -> a.schema": the stack from `from` on, then `again`. */
static void cycle_text(const parser *p, uint32_t from, uint32_t again, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = from; i < p->depth && n < cap; i++) {
        int w = snprintf(buf + n, cap - n, "%s -> ", p->s->files[p->stack[i]].path);
        if (w < 0) return;
        n += (size_t)w;
    }
    if (n < cap) snprintf(buf + n, cap - n, "%s", p->s->files[again].path);
}

/* The file `path` names, read now unless it was read before. */
static blobc_status open_import(parser *p, const blobc_token *at, const char *path,
                                uint32_t *file, bool *fresh) {
    blobc_os_info st;
    bool have_id = blobc_os_stat(path, &st) == 0;
    if (have_id) {
        for (uint32_t i = 0; i < p->s->nfiles; i++)
            if (p->ids[i].known && blobc_os_same_file(&p->ids[i].id, &st)) {
                *file = i;
                *fresh = false;
                return BLOBC_OK;
            }
    }
    if (p->s->nfiles >= MAX_FILES)
        return blobc_schema_err(p->s, at->pos, p->err, "too many schema files (more than %d)",
                                MAX_FILES);
    uint8_t *data = NULL;
    size_t len = 0;
    blobc_error rerr;
    blobc_error_clear(&rerr);
    blobc_status rs = blobc_schema_read(path, p->lo, &data, &len, &rerr);
    if (rs != BLOBC_OK) {
        blobc_schema_err(p->s, at->pos, p->err, "cannot import \"%s\": %s", at->str,
                         rerr.message);
        p->err->status = rs;
        return rs;
    }
    char *text = blobc_arena_strndup(&p->s->arena, (const char *)data, len);
    free(data);
    if (!text) return blobc_err_nomem(p->err);
    *fresh = true;
    return add_file(p, path, text, len, have_id ? &st : NULL, file);
}

/* import "path";  (the lexer is on 'import') */
static blobc_status parse_import(parser *p) {
    if (next(p)) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_STRING) return unexpected(p, "a file name in quotes after 'import'");
    blobc_token at = p->tok;
    if (at.str_len == 0)
        return blobc_schema_err(p->s, at.pos, p->err, "import of an empty file name");
    if (next(p)) return BLOBC_EINPUT;
    if (p->tok.kind != BLOBC_TOK_SEMI) return unexpected(p, "';' after the import");
    const char *path = import_path(p, p->s->files[p->lx.file].path, at.str);
    if (!path) return blobc_err_nomem(p->err);
    uint32_t file;
    bool fresh;
    if (open_import(p, &at, path, &file, &fresh)) return p->err->status;
    for (uint32_t i = 0; i < p->depth; i++)
        if (p->stack[i] == file) {
            char cyc[BLOBC_ERROR_MSG_MAX / 2];
            cycle_text(p, i, file, cyc, sizeof cyc);
            return blobc_schema_err(p->s, at.pos, p->err, "import cycle: %s", cyc);
        }
    if (fresh) {
        if (p->depth == MAX_IMPORT_DEPTH)
            return blobc_schema_err(p->s, at.pos, p->err,
                                    "imports nested too deeply (more than %d files)",
                                    MAX_IMPORT_DEPTH);
        if (parse_file(p, file)) return p->err->status;
    }
    return next(p);
}

/* Parses one file: its imports (recursively, each file once), then its
 * declarations. The lexer and token of the importing file are kept. */
static blobc_status parse_file(parser *p, uint32_t file) {
    blobc_lexer saved_lx = p->lx;
    blobc_token saved_tok = p->tok;
    blobc_lex_init(&p->lx, p->s, file);
    p->stack[p->depth++] = file;
    blobc_status st = next(p);
    while (st == BLOBC_OK && tok_is(p, &p->tok, "import")) st = parse_import(p);
    while (st == BLOBC_OK && p->tok.kind != BLOBC_TOK_EOF) st = parse_decl(p);
    p->depth--;
    p->lx = saved_lx;
    p->tok = saved_tok;
    return st;
}

blobc_status blobc_schema_parse(const char *text, size_t len, const char *filename,
                                blobc_schema **out, blobc_error *err) {
    return blobc_schema_parse_with(text, len, filename, NULL, out, err);
}

blobc_status blobc_schema_parse_with(const char *text, size_t len, const char *filename,
                                     const blobc_schema_load_options *lo, blobc_schema **out,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    blobc_error_clear(err);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    *out = NULL;
    if (!text && len) return blobc_err_arg(err, __func__, "len is not 0 but text is NULL");
    if (text && !blobc_text_check(filename, text, len, "schema text", err)) return BLOBC_EINPUT;
    if (len > BLOBC_MAX_SCHEMA_SIZE)
        return blobc_text_too_large(err, filename ? filename : "", "schema text",
                                    BLOBC_MAX_SCHEMA_SIZE);
    blobc_schema *s = blobc_schema_new(filename);
    if (!s) return blobc_err_nomem(err);
    char *copy = blobc_arena_strndup(&s->arena, text ? text : "", text ? len : 0);
    if (!copy) {
        blobc_schema_free(s);
        return blobc_err_nomem(err);
    }
    s->text = copy;
    s->text_len = text ? len : 0;

    parser p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.err = err;
    p.lo = lo;
    /* The first file's identity, when it is a file, so importing it back is a cycle. */
    blobc_os_info fst;
    bool known = s->filename[0] && strcmp(s->filename, "-") != 0 && blobc_os_stat(s->filename, &fst) == 0;
    uint32_t first;
    blobc_status st = add_file(&p, s->filename, s->text, s->text_len, known ? &fst : NULL, &first);
    if (st == BLOBC_OK) st = parse_file(&p, first);
    if (st == BLOBC_OK) st = blobc_parser_resolve(&p);
    if (st == BLOBC_OK) st = blobc_schema_layout(s, err);
    free(p.pf);
    free(p.ck);
    free(p.pc);
    free(p.fv);
    free(p.ev);
    blobc_hashtab_free(&p.itab);
    free(p.interned);
    free(p.ids);
    if (st != BLOBC_OK) {
        blobc_schema_free(s);
        return st;
    }
    *out = s;
    return BLOBC_OK;
}
