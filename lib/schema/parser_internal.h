/*
 * parser_internal.h - the parser's state, shared by the two halves of the
 * schema front end: parser.c (tokens to declarations) and resolve.c
 * (names and type expressions to types, defaults checked). Private to
 * lib/schema/.
 */
#ifndef BLOBC_PARSER_INTERNAL_H
#define BLOBC_PARSER_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobfile.h"
#include "common/hashtab.h"
#include "common/kind.h"
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

/* A type expression as written, resolved once every name is known. */
typedef enum tx_op { TX_NAME, TX_ARRAY, TX_FIXED, TX_PTR, TX_REF, TX_OPT, TX_MAP } tx_op;
typedef struct texpr {
    tx_op op;
    uint32_t count;        /* FIXED: N */
    blobc_token tok;       /* NAME, REF: the name; else the token that opens it */
    struct texpr *a;       /* the element; MAP: the key */
    struct texpr *b;       /* MAP: the value */
} texpr;

/* A field (or a union member) whose type and default wait for name
 * resolution. */
typedef struct pending_field {
    blobc_type *st;
    uint32_t index;
    texpr *tx;             /* the type; a union member's: its struct's name */
    bool member;           /* a union member: the name must be a struct */
    bool tagged;           /* a union member written with its tag */
    bool has_def;
    blobc_token def;
} pending_field;

/* A value check waiting for its field's type: the bounds of a @range
 * are read as that type's numbers. */
typedef struct pending_check {
    blobc_type *st;
    uint32_t index;        /* the field's */
    uint32_t which;        /* the check's, among the field's */
    blobc_token lo, hi;    /* RANGE: the bounds as written (kind EOF when left out) */
} pending_check;

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
    bool anchor_next;     /* @anchor read, for the next field */
    blobc_check *ck;      /* value checks read, for the next field */
    size_t nck, ckcap;
    pending_check *pc;    /* every value check, for resolve */
    size_t npc, pccap;
    const char *sep;      /* @sep("|") read, for the next field */
    blobc_pos root_at; /* the 'root' keyword */
    /* interned composites, indexed by (kind, elem, count) */
    blobc_hashtab itab;
    const blobc_type **interned;
    size_t ninterned, icap;
} parser;

/* Grows a malloc'd vector so that one more element fits. */
static inline bool grow(void **v, size_t *cap, size_t n, size_t elem) {
    return n < SIZE_MAX && blobc_grow(v, cap, n + 1, elem);
}

static inline bool tok_is(const parser *p, const blobc_token *t, const char *word) {
    size_t n = strlen(word);
    return t->kind == BLOBC_TOK_IDENT && t->len == n && memcmp(t->text + t->off, word, n) == 0;
}

static inline const char *tok_text(const parser *p, const blobc_token *t) {
    return t->text + t->off;
}

static inline blobc_status next(parser *p) { return blobc_lex_next(&p->lx, &p->tok, p->err); }

static inline blobc_status unexpected(parser *p, const char *want) {
    char got[64];
    blobc_tok_describe(p->s, &p->tok, got, sizeof got);
    return blobc_schema_err(p->s, p->tok.pos, p->err, "expected %s, got %s", want, got);
}

static inline blobc_status expect(parser *p, blobc_tok_kind k, const char *want) {
    if (p->tok.kind != k) return unexpected(p, want);
    return next(p);
}

/* Whether the attribute name at p->tok is a value check's (checks.c). */
bool blobc_check_named(const parser *p);
/* A value check before field number p->nfv of struct st (at its name,
 * after the '@' at `at`), kept for that field. */
blobc_status blobc_check_parse(parser *p, blobc_type *st, blobc_pos at);
/* Every value check against its field's type, once types are resolved:
 * @range's bounds read as the field's numbers, patterns compiled. */
blobc_status blobc_checks_resolve(parser *p);

/* Resolves every name the files used, once all are parsed (resolve.c). */
blobc_status blobc_parser_resolve(parser *p);

#endif
