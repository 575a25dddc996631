/*
 * schema_lexer.h - tokens of the schema language and the helpers the
 * schema parser, layout engine and report share. Private.
 */
#ifndef BLOBC_SCHEMA_LEXER_H
#define BLOBC_SCHEMA_LEXER_H

#include "common/suggest.h"
#include "schema/schema_internal.h"

/* Longest type, field or member name: what the type section can carry. */
#define BLOBC_MAX_NAME 1024u

typedef enum blobc_tok_kind {
    BLOBC_TOK_EOF,
    BLOBC_TOK_IDENT,
    BLOBC_TOK_NUMBER,  /* any numeric-looking literal; scalar.c judges it */
    BLOBC_TOK_STRING,  /* "..." with escapes decoded into str/str_len */
    BLOBC_TOK_LBRACE,
    BLOBC_TOK_RBRACE,
    BLOBC_TOK_LBRACKET,
    BLOBC_TOK_RBRACKET,
    BLOBC_TOK_LPAREN,
    BLOBC_TOK_RPAREN,
    BLOBC_TOK_COLON,
    BLOBC_TOK_SEMI,
    BLOBC_TOK_COMMA,
    BLOBC_TOK_EQ,
    BLOBC_TOK_STAR,
    BLOBC_TOK_AT
} blobc_tok_kind;

typedef struct blobc_token {
    blobc_tok_kind kind;
    size_t off;         /* byte offset of the first byte in the source */
    size_t len;         /* bytes of source text */
    blobc_pos pos;      /* line and column (columns count code points) */
    const char *str;    /* STRING: decoded UTF-8 (arena), NUL-terminated */
    size_t str_len;
} blobc_token;

typedef struct blobc_lexer {
    blobc_schema *s;    /* source text, file name, arena for string values */
    size_t off;
    uint32_t line;
    uint32_t col;
} blobc_lexer;

void blobc_lex_init(blobc_lexer *lx, blobc_schema *s);

/* The next token; on a lexical error fills err (with position) and returns
 * BLOBC_EINPUT. */
blobc_status blobc_lex_next(blobc_lexer *lx, blobc_token *tok, blobc_error *err);

/* Short description of a token for "expected X, got Y" messages. */
void blobc_tok_describe(const blobc_schema *s, const blobc_token *tok, char *buf, size_t cap);

/* Sets err to "file:line:col: message" with the source line, for positions
 * in schema text; for pos 0:0 (decoded schemas) only the message. */
blobc_status blobc_schema_err(const blobc_schema *s, blobc_pos pos, blobc_error *err,
                              const char *fmt, ...) BLOBC_PRINTF(4, 5);

/* Builds the name index of s->named (duplicate and malformed names are
 * errors) so blobc_schema_find is a hash lookup. Idempotent. */
blobc_status blobc_schema_index_names(blobc_schema *s, blobc_error *err);

/* blobc_schema_find for a name that need not be NUL-terminated. */
const blobc_type *blobc_schema_find_len(const blobc_schema *s, const char *name, size_t len);

/* A set of type pointers numbering its members 0, 1, 2... in insertion
 * order (schema hash, reachability). Zero-initialize; free with
 * blobc_ptrset_free. */
typedef struct blobc_ptrset {
    const void **keys;
    uint32_t *nums;
    size_t cap, count;
} blobc_ptrset;
/* 1 when p was added (*num = its new number), 0 when already there
 * (*num = its number), -1 when out of memory. */
int blobc_ptrset_add(blobc_ptrset *ps, const void *p, uint32_t *num);
void blobc_ptrset_free(blobc_ptrset *ps);

/* "; did you mean 'x'?" for the schema's messages, or "" */
const char *blobc_suggest_text(const blobc_suggest *sg, char *buf, size_t cap);

/* True for words the schema language reserves (type keywords, struct,
 * enum, root, true, false). */
bool blobc_schema_is_keyword(const char *s, size_t n);

#endif
