/*
 * lexer.h - tokens of the schema language and the lexer that splits
 * schema text into them (lexer.c). Private to lib/schema/.
 */
#ifndef BLOBC_SCHEMA_LEXER_H
#define BLOBC_SCHEMA_LEXER_H

#include "schema/schema_internal.h"

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
    BLOBC_TOK_AT,
    BLOBC_TOK_AMP,
    BLOBC_TOK_QUESTION
} blobc_tok_kind;

typedef struct blobc_token {
    blobc_tok_kind kind;
    size_t off;         /* byte offset of the first byte in the source */
    size_t len;         /* bytes of source text */
    blobc_pos pos;      /* line, column (columns count code points), file */
    const char *text;   /* the source text the token is in: text + off */
    const char *str;    /* STRING: decoded UTF-8 (arena), NUL-terminated */
    size_t str_len;
    const char *doc;    /* `///` lines just before the token (arena), or NULL */
} blobc_token;

typedef struct blobc_lexer {
    blobc_schema *s;    /* file names and the arena for string values */
    const char *text;   /* s->files[file] */
    size_t len;
    uint32_t file;
    size_t off;
    uint32_t line;
    uint32_t col;
    bool has_doc;       /* a `///` comment was skipped since the last token */
    size_t doc_off;     /* where the first of them starts */
} blobc_lexer;

/* Starts lexing s->files[file]. */
void blobc_lex_init(blobc_lexer *lx, blobc_schema *s, uint32_t file);

/* The next token; on a lexical error fills err (with position) and returns
 * BLOBC_EINPUT. */
blobc_status blobc_lex_next(blobc_lexer *lx, blobc_token *tok, blobc_error *err);

/* Short description of a token for "expected X, got Y" messages. */
void blobc_tok_describe(const blobc_schema *s, const blobc_token *tok, char *buf, size_t cap);

#endif
