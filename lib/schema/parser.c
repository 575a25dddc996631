/*
 * parser.c - the *.schema front end: a recursive-descent parser
 * over lexer.h tokens that builds blobc_type nodes, then resolves
 * names (declarations may come in any order), interns anonymous
 * composites ([T], [T; N], *T) so that equal types are one object, checks
 * field defaults against their types, and hands the graph to the layout
 * engine. `import "x.schema";` lines at the top of a file parse that file
 * first (each file once, cycles refused), into the same set of types. The
 * language is specified in docs/SCHEMA.md; the first error stops parsing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobfile.h"
#include "common/hashtab.h"
#include "common/scalar.h"
#include "common/suggest.h"
#include "schema/lexer.h"
#include "schema/names.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "platform/platform.h"

/* Deepest nesting of [ ] and * in one type expression. */
#define MAX_TYPE_NESTING 64
/* Longest chain of imports, and most files in one schema. */
#define MAX_IMPORT_DEPTH 32
#define MAX_FILES 1024

/* A file's identity, to read each file once however it is spelt. */
typedef struct file_id {
    bool known;
    blobc_os_info id;
} file_id;

typedef struct ty_op {
    blobc_kind kind;   /* ARRAY, FIXED or PTR */
    uint32_t count;
} ty_op;

/* A field (or a union member) whose type and default wait for name
 * resolution. */
typedef struct pending_field {
    blobc_type *st;
    uint32_t index;
    blobc_token leaf;      /* the type name at the core of the expression */
    bool member;           /* a union member: leaf must name a struct */
    bool ref;              /* &leaf: a reference to a keyed struct */
    ty_op *ops;            /* outermost first */
    uint32_t nops;
    bool has_def;
    blobc_token def;
} pending_field;

typedef struct parser {
    blobc_schema *s;
    blobc_lexer lx;
    blobc_token tok;
    blobc_error *err;
    const blobc_schema_load_options *lo; /* how imports are read */
    pending_field *pf;
    size_t npf, pfcap;
    blobc_field *fv;      /* fields of the struct being parsed */
    size_t nfv, fvcap;
    blobc_enum_value *ev; /* members of the enum being parsed */
    size_t nev, evcap;
    const char *doc;      /* doc comment of the declaration being parsed */
    file_id *ids;         /* ids[i] is s->files[i]'s */
    size_t idcap;
    uint32_t stack[MAX_IMPORT_DEPTH]; /* files being parsed, outermost first */
    uint32_t depth;
    bool has_root;
    blobc_token root_tok;
    const char *was;      /* @was(old) read, for the next field or member */
    blobc_pos root_at; /* the 'root' keyword */
    /* interned composites, indexed by (kind, elem, count) */
    blobc_hashtab itab;
    const blobc_type **interned;
    size_t ninterned, icap;
} parser;

/* Grows a malloc'd vector so that one more element fits. */
static bool grow(void **v, size_t *cap, size_t n, size_t elem) {
    return n < SIZE_MAX && blobc_grow(v, cap, n + 1, elem);
}

static blobc_status next(parser *p) { return blobc_lex_next(&p->lx, &p->tok, p->err); }

static bool tok_is(const parser *p, const blobc_token *t, const char *word) {
    size_t n = strlen(word);
    return t->kind == BLOBC_TOK_IDENT && t->len == n && memcmp(t->text + t->off, word, n) == 0;
}

static const char *tok_text(const parser *p, const blobc_token *t) { return t->text + t->off; }

static blobc_status unexpected(parser *p, const char *want) {
    char got[64];
    blobc_tok_describe(p->s, &p->tok, got, sizeof got);
    return blobc_schema_err(p->s, p->tok.pos, p->err, "expected %s, got %s", want, got);
}

static blobc_status expect(parser *p, blobc_tok_kind k, const char *want) {
    if (p->tok.kind != k) return unexpected(p, want);
    return next(p);
}

/* An identifier that names something new (a type, field or member). */
static blobc_status expect_name(parser *p, const char *what, blobc_token *out) {
    if (p->tok.kind != BLOBC_TOK_IDENT) {
        char want[64];
        snprintf(want, sizeof want, "%s name", what);
        return unexpected(p, want);
    }
    if (blobc_schema_is_keyword(tok_text(p, &p->tok), p->tok.len))
        return blobc_schema_err(p->s, p->tok.pos, p->err, "'%.*s' is a keyword and cannot be used as "
                                "a %s name", (int)p->tok.len, tok_text(p, &p->tok), what);
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

static blobc_status parse_type(parser *p, pending_field *pf) {
    ty_op ops[MAX_TYPE_NESTING];
    uint32_t nops = 0;
    while (p->tok.kind == BLOBC_TOK_LBRACKET || p->tok.kind == BLOBC_TOK_STAR) {
        if (nops == MAX_TYPE_NESTING)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "type nested too deeply (more than "
                                    "%d levels of [ ] and *)", MAX_TYPE_NESTING);
        ops[nops].kind = p->tok.kind == BLOBC_TOK_STAR ? BLOBC_KIND_PTR : BLOBC_KIND_ARRAY;
        ops[nops].count = 0;
        nops++;
        if (next(p)) return BLOBC_EINPUT;
    }
    if (p->tok.kind == BLOBC_TOK_AMP) {
        pf->ref = true;
        if (next(p)) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a struct name after '&'");
    }
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a type");
    pf->leaf = p->tok;
    if (next(p)) return BLOBC_EINPUT;
    /* Close the brackets innermost first: "]" makes [T], "; N ]" makes [T; N]. */
    for (uint32_t i = nops; i-- > 0;) {
        if (ops[i].kind == BLOBC_KIND_PTR) continue;
        if (p->tok.kind == BLOBC_TOK_SEMI) {
            if (next(p)) return BLOBC_EINPUT;
            if (parse_count(p, &ops[i].count)) return BLOBC_EINPUT;
            ops[i].kind = BLOBC_KIND_FIXED;
        }
        if (expect(p, BLOBC_TOK_RBRACKET, "']' or '; N]' to close the array type"))
            return BLOBC_EINPUT;
    }
    pf->nops = nops;
    pf->ops = NULL;
    if (nops) {
        pf->ops = blobc_arena_array(&p->s->arena, nops, sizeof *ops);
        if (!pf->ops) return blobc_err_nomem(p->err);
        memcpy(pf->ops, ops, nops * sizeof *ops);
    }
    return BLOBC_OK;
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
    if (expect_name(p, "field", &name)) return BLOBC_EINPUT;
    if (expect(p, BLOBC_TOK_COLON, "':' and a type after the field name")) return BLOBC_EINPUT;
    if (!grow((void **)&p->fv, &p->fvcap, p->nfv, sizeof *p->fv) ||
        !grow((void **)&p->pf, &p->pfcap, p->npf, sizeof *p->pf))
        return blobc_err_nomem(p->err);
    if (p->nfv >= BLOBC_MAX_TYPE_SIZE)
        return blobc_schema_err(p->s, name.pos, p->err, "too many fields");
    blobc_field *f = &p->fv[p->nfv];
    memset(f, 0, sizeof *f);
    f->name = arena_name(p, &name);
    if (!f->name) return blobc_err_nomem(p->err);
    f->pos = name.pos;
    f->doc = doc;
    f->was = p->was;
    p->was = NULL;
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
    if (p->tok.kind == BLOBC_TOK_COLON && !pf->nops && !pf->has_def &&
        p->tok.off == pf->leaf.off + pf->leaf.len && p->tok.off + 1 < p->s->text_len &&
        p->s->text[p->tok.off + 1] == ':')
        return qualified_type(p, &pf->leaf);
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

/* `@key` or `@was(old)` before a field: the struct's key (at most one),
 * the name the field had before. */
static blobc_status parse_field_attribute(parser *p, blobc_type *st) {
    blobc_pos at = p->tok.pos;
    if (next(p)) return BLOBC_EINPUT; /* '@' */
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "an attribute name after '@'");
    if (tok_is(p, &p->tok, "was")) return parse_was(p);
    if (!tok_is(p, &p->tok, "key"))
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "unknown field attribute '@%.*s' (a field takes @key and @was)",
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    if (st->key)
        return blobc_schema_err(p->s, at, p->err, "struct %s has two @key fields; a struct has at "
                                "most one key", st->name);
    st->key = (uint32_t)p->nfv + 1;
    return next(p);
}

static blobc_status parse_struct(parser *p, uint32_t align_attr) {
    blobc_token name;
    blobc_type *t;
    if (begin_named(p, BLOBC_KIND_STRUCT, &name, &t)) return BLOBC_EINPUT;
    t->align_attr = align_attr;
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
    if (t->key > p->nfv || p->was)
        return unexpected(p, p->was ? "a field after @was" : "a field after @key");
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

static blobc_status parse_union(parser *p) {
    static const ty_op ptr_op = {BLOBC_KIND_PTR, 0};
    blobc_token name;
    blobc_type *t;
    if (begin_named(p, BLOBC_KIND_UNION, &name, &t)) return BLOBC_EINPUT;
    if (expect(p, BLOBC_TOK_LBRACE, "'{' after the union name")) return BLOBC_EINPUT;
    p->nfv = 0;
    while (p->tok.kind != BLOBC_TOK_RBRACE) {
        if (p->tok.kind == BLOBC_TOK_EOF)
            return blobc_schema_err(p->s, name.pos, p->err, "union %s is not closed (missing '}')",
                                    t->name);
        if (p->tok.kind == BLOBC_TOK_AT) {
            if (member_was(p, "'was' after '@' (a union member takes @was(Old))")) return BLOBC_EINPUT;
            continue;
        }
        if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "a struct name (a union member)");
        if (!grow((void **)&p->fv, &p->fvcap, p->nfv, sizeof *p->fv) ||
            !grow((void **)&p->pf, &p->pfcap, p->npf, sizeof *p->pf))
            return blobc_err_nomem(p->err);
        if (p->nfv >= BLOBC_MAX_TYPE_SIZE)
            return blobc_schema_err(p->s, p->tok.pos, p->err, "too many union members");
        blobc_field *f = &p->fv[p->nfv];
        memset(f, 0, sizeof *f);
        if (!(f->name = arena_name(p, &p->tok))) return blobc_err_nomem(p->err);
        f->pos = p->tok.pos;
        f->doc = p->tok.doc;
        f->was = p->was;
        p->was = NULL;
        pending_field *pf = &p->pf[p->npf];
        memset(pf, 0, sizeof *pf);
        pf->st = t;
        pf->index = (uint32_t)p->nfv;
        pf->leaf = p->tok;
        pf->member = true;
        pf->ops = (ty_op *)&ptr_op;
        pf->nops = 1;
        p->nfv++;
        p->npf++;
        if (next(p) || member_sep(p, "a union member")) return BLOBC_EINPUT;
    }
    if (p->was) return unexpected(p, "a member after @was");
    if (p->nfv == 0) return no_members(p, t, &name);
    t->fields = arena_copy(p, p->fv, p->nfv, sizeof *p->fv);
    t->nfields = (uint32_t)p->nfv;
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

static blobc_status parse_attribute(parser *p, uint32_t *align_attr, blobc_pos *attr_pos) {
    blobc_pos at = p->tok.pos;
    if (next(p)) return BLOBC_EINPUT; /* '@' */
    if (p->tok.kind != BLOBC_TOK_IDENT) return unexpected(p, "an attribute name after '@'");
    if (!tok_is(p, &p->tok, "align"))
        return blobc_schema_err(p->s, p->tok.pos, p->err,
                                "unknown attribute '@%.*s' (the only attribute is @align(N))",
                                (int)(p->tok.len > 40 ? 40 : p->tok.len), tok_text(p, &p->tok));
    if (*align_attr)
        return blobc_schema_err(p->s, at, p->err, "@align is given twice");
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
    *align_attr = (uint32_t)v;
    *attr_pos = at;
    if (next(p)) return BLOBC_EINPUT;
    return expect(p, BLOBC_TOK_RPAREN, "')' after the alignment");
}

static blobc_status parse_decl(parser *p) {
    uint32_t align_attr = 0;
    blobc_pos attr_pos = {0, 0, 0};
    p->doc = p->tok.doc;
    while (p->tok.kind == BLOBC_TOK_AT)
        if (parse_attribute(p, &align_attr, &attr_pos)) return BLOBC_EINPUT;
    if (tok_is(p, &p->tok, "struct")) {
        if (parse_struct(p, align_attr)) return BLOBC_EINPUT;
    } else if (align_attr && (tok_is(p, &p->tok, "enum") || tok_is(p, &p->tok, "union") ||
                              tok_is(p, &p->tok, "root"))) {
        return blobc_schema_err(p->s, attr_pos, p->err, "@align applies to structs only");
    } else if (align_attr) {
        return unexpected(p, "'struct' after @align(...)");
    } else if (tok_is(p, &p->tok, "enum")) {
        if (parse_enum(p)) return BLOBC_EINPUT;
    } else if (tok_is(p, &p->tok, "union")) {
        if (parse_union(p)) return BLOBC_EINPUT;
    } else if (tok_is(p, &p->tok, "root")) {
        blobc_pos at = p->tok.pos;
        if (next(p)) return BLOBC_EINPUT;
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

/* ---- resolution ---- */

/* The one object for [elem], [elem; count] or *elem in this schema. */
static const blobc_type *intern(parser *p, blobc_kind kind, const blobc_type *elem,
                                uint32_t count, bool ref) {
    uint64_t h = blobc_hash_u64(blobc_hash_ptr(elem) ^ ((uint64_t)kind << 32) ^ count ^
                                ((uint64_t)ref << 40));
    blobc_hprobe pr;
    for (uint32_t k = blobc_hashtab_first(&p->itab, h, &pr); k; k = blobc_hashtab_next(&p->itab, &pr)) {
        const blobc_type *t = p->interned[k - 1];
        if (t->kind == kind && t->elem == elem && t->count == count && t->ref == ref) return t;
    }
    if (p->ninterned >= UINT32_MAX - 1 ||
        !grow((void **)&p->interned, &p->icap, p->ninterned, sizeof *p->interned))
        return NULL;
    blobc_type *t = blobc_arena_alloc(&p->s->arena, sizeof *t);
    if (!t) return NULL;
    t->kind = kind;
    t->elem = elem;
    t->count = count;
    t->ref = ref;
    if (!blobc_hashtab_add(&p->itab, h, (uint32_t)p->ninterned + 1)) return NULL;
    p->interned[p->ninterned++] = t;
    return t;
}

static const blobc_type *builtin_by_name(const char *s, size_t n) {
    for (int k = BLOBC_KIND_BOOL; k <= BLOBC_KIND_F64; k++) {
        const char *kw = blobc_kind_name((blobc_kind)k);
        if (strlen(kw) == n && memcmp(kw, s, n) == 0) return blobc_builtin_type((blobc_kind)k);
    }
    if (n == 6 && memcmp(s, "string", 6) == 0) return blobc_builtin_type(BLOBC_KIND_STRING);
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
    blobc_suggest_builtin_spellings(&sg);
    char hint[96];
    return blobc_schema_err(p->s, t->pos, p->err, "unknown type '%.*s'%s",
                            (int)(t->len > 64 ? 64 : t->len), txt,
                            blobc_suggest_text(&sg, hint, sizeof hint));
}

static blobc_status resolve_type(parser *p, const pending_field *pf, const blobc_type **out) {
    const blobc_type *t;
    if (resolve_name(p, &pf->leaf, &t)) return BLOBC_EINPUT;
    if (pf->member && t->kind != BLOBC_KIND_STRUCT)
        return blobc_schema_err(p->s, pf->leaf.pos, p->err,
                                "union %s: member '%s' is %s %s; union members are structs",
                                pf->st->name, t->name, t->kind == BLOBC_KIND_ENUM ? "an" : "a",
                                blobc_kind_name(t->kind));
    if (pf->ref) {
        const char *n = t->name ? t->name : blobc_kind_name(t->kind);
        if (t->kind != BLOBC_KIND_STRUCT || !t->key)
            return blobc_schema_err(p->s, pf->leaf.pos, p->err, "&%s refers to an element of a "
                                    "keyed array, so %s must be a struct with a @key field", n, n);
        t = intern(p, BLOBC_KIND_PTR, t, 0, true);
        if (!t) return blobc_err_nomem(p->err);
    }
    for (uint32_t i = pf->nops; i-- > 0;) {
        t = intern(p, pf->ops[i].kind, t, pf->ops[i].count, false);
        if (!t) return blobc_err_nomem(p->err);
    }
    *out = t;
    return BLOBC_OK;
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

static blobc_status resolve(parser *p) {
    if (blobc_schema_index_names(p->s, p->err)) return p->err->status;
    for (size_t i = 0; i < p->npf; i++) {
        pending_field *pf = &p->pf[i];
        blobc_field *f = (blobc_field *)&pf->st->fields[pf->index];
        if (resolve_type(p, pf, &f->type)) return p->err->status;
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
    if (st == BLOBC_OK) st = resolve(&p);
    if (st == BLOBC_OK) st = blobc_schema_layout(s, err);
    free(p.pf);
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
