/*
 * lexer.c - splits schema text into tokens and decodes string literals.
 * Columns count UTF-8 code points so the caret under an error lines up in
 * a terminal.
 */
#include "schema/lexer.h"

#include <stdio.h>

#include "common/arena.h"
#include "common/err.h"
#include "common/utf8.h"

void blobc_lex_init(blobc_lexer *lx, blobc_schema *s, uint32_t file) {
    memset(lx, 0, sizeof *lx);
    lx->s = s;
    lx->text = s->files[file].text;
    lx->len = s->files[file].len;
    lx->file = file;
    lx->line = 1;
    lx->col = 1;
    /* A UTF-8 byte order mark is not part of the text. */
    if (lx->len >= 3 && memcmp(lx->text, "\xEF\xBB\xBF", 3) == 0) lx->off = 3;
}

static blobc_status lex_err(blobc_lexer *lx, blobc_pos pos, blobc_error *err, const char *msg,
                            unsigned char c) {
    char what[32];
    if (c >= 0x21 && c < 0x7f) snprintf(what, sizeof what, "'%c'", c);
    else snprintf(what, sizeof what, "byte 0x%02x", c);
    return blobc_schema_err(lx->s, pos, err, msg, what);
}

/* ---- scanning ---- */

static inline int peek(const blobc_lexer *lx, size_t ahead) {
    size_t o = lx->off + ahead;
    return o < lx->len ? (unsigned char)lx->text[o] : -1;
}

static inline void adv(blobc_lexer *lx) {
    unsigned char c = (unsigned char)lx->text[lx->off++];
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if ((c & 0xC0) != 0x80) {
        lx->col++;
    }
}

static inline bool is_ident_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static inline bool is_digit(int c) { return c >= '0' && c <= '9'; }

static blobc_pos here(const blobc_lexer *lx) {
    blobc_pos p = {lx->line, lx->col, lx->file};
    return p;
}

static blobc_status skip_space(blobc_lexer *lx, blobc_error *err) {
    for (;;) {
        int c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            adv(lx);
        } else if (c == '/' && peek(lx, 1) == '/') {
            if (peek(lx, 2) == '/' && peek(lx, 3) != '/' && !lx->has_doc) {
                lx->has_doc = true;
                lx->doc_off = lx->off;
            }
            while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n') adv(lx);
        } else if (c == '/' && peek(lx, 1) == '*') {
            blobc_pos start = here(lx);
            adv(lx);
            adv(lx);
            for (;;) {
                int d = peek(lx, 0);
                if (d < 0)
                    return blobc_schema_err(lx->s, start, err,
                                            "unterminated block comment (no closing */)");
                if (d == '*' && peek(lx, 1) == '/') {
                    adv(lx);
                    adv(lx);
                    break;
                }
                adv(lx);
            }
        } else {
            return BLOBC_OK;
        }
    }
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* \u{X...} (1 to 6 hex digits) or \uXXXX; the lexer is just past the 'u'. */
static blobc_status lex_unicode(blobc_lexer *lx, blobc_pos esc, uint32_t *cp, blobc_error *err) {
    uint32_t v = 0;
    if (peek(lx, 0) == '{') {
        adv(lx);
        int n = 0;
        while (hexval(peek(lx, 0)) >= 0) {
            if (++n > 6)
                return blobc_schema_err(lx->s, esc, err,
                                        "\\u{...} takes 1 to 6 hex digits");
            v = v * 16 + (uint32_t)hexval(peek(lx, 0));
            adv(lx);
        }
        if (n == 0 || peek(lx, 0) != '}')
            return blobc_schema_err(lx->s, esc, err,
                                    "malformed \\u{...} escape: expected 1 to 6 hex digits and '}'");
        adv(lx);
    } else {
        for (int i = 0; i < 4; i++) {
            int h = hexval(peek(lx, 0));
            if (h < 0)
                return blobc_schema_err(lx->s, esc, err,
                                        "malformed \\u escape: expected 4 hex digits or {...}");
            v = v * 16 + (uint32_t)h;
            adv(lx);
        }
    }
    if (v == 0)
        return blobc_schema_err(lx->s, esc, err,
                                "NUL is not allowed in a string (strings end at their NUL)");
    if (v >= 0xD800 && v <= 0xDFFF)
        return blobc_schema_err(lx->s, esc, err,
                                "\\u escape U+%04X is a surrogate, not a character", (unsigned)v);
    if (v > 0x10FFFF)
        return blobc_schema_err(lx->s, esc, err,
                                "\\u escape U+%X is beyond U+10FFFF", (unsigned)v);
    *cp = v;
    return BLOBC_OK;
}

static blobc_status lex_string(blobc_lexer *lx, blobc_token *tok, blobc_error *err) {
    blobc_pos start = here(lx);
    size_t raw_start = lx->off;
    adv(lx); /* opening quote */
    /* The decoded text is never longer than the raw literal: find where
     * that ends (closing quote, end of line or of text) to size it. */
    const char *text = lx->text;
    size_t end = raw_start + 1;
    while (end < lx->len && text[end] != '"' && text[end] != '\n')
        end += text[end] == '\\' ? 2 : 1;
    char *out = blobc_arena_alloc(&lx->s->arena, end - raw_start);
    if (!out) return blobc_err_nomem(err);
    size_t n = 0;
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n' || c == '\r')
            return blobc_schema_err(lx->s, start, err,
                                    "unterminated string literal (missing closing \")");
        if (c == '"') {
            adv(lx);
            break;
        }
        if (c == '\\') {
            blobc_pos esc = here(lx);
            adv(lx);
            int e = peek(lx, 0);
            uint32_t cp = 0;
            switch (e) {
            case '"': out[n++] = '"'; adv(lx); break;
            case '\\': out[n++] = '\\'; adv(lx); break;
            case 'n': out[n++] = '\n'; adv(lx); break;
            case 't': out[n++] = '\t'; adv(lx); break;
            case 'r': out[n++] = '\r'; adv(lx); break;
            case 'b': out[n++] = '\b'; adv(lx); break;
            case 'f': out[n++] = '\f'; adv(lx); break;
            case 'u':
                adv(lx);
                if (lex_unicode(lx, esc, &cp, err) != BLOBC_OK) return BLOBC_EINPUT;
                n += blobc_utf8_put(out + n, cp);
                break;
            case '0':
                return blobc_schema_err(lx->s, esc, err,
                                        "NUL is not allowed in a string (strings end at their NUL)");
            default:
                if (e < 0 || e == '\n')
                    return blobc_schema_err(lx->s, start, err,
                                            "unterminated string literal (missing closing \")");
                if (e > 0x20 && e < 0x7f)
                    return blobc_schema_err(lx->s, esc, err,
                                            "unknown escape '\\%c' in string literal (known: "
                                            "\\\" \\\\ \\n \\t \\r \\b \\f \\u{...} \\uXXXX)",
                                            e);
                return blobc_schema_err(lx->s, esc, err,
                                        "unknown escape in string literal (known: \\\" \\\\ "
                                        "\\n \\t \\r \\b \\f \\u{...} \\uXXXX)");
            }
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return blobc_schema_err(lx->s, here(lx), err,
                                    "control character in string literal; write it as an escape");
        out[n++] = (char)c;
        adv(lx);
    }
    out[n] = '\0';
    if (!blobc_utf8_valid((const uint8_t *)out, n))
        return blobc_schema_err(lx->s, start, err, "string literal is not valid UTF-8");
    tok->kind = BLOBC_TOK_STRING;
    tok->str = out;
    tok->str_len = n;
    tok->len = lx->off - raw_start;
    return BLOBC_OK;
}

/* A numeric-looking run: the literal grammar itself is checked by
 * scalar.c when the parser knows which type the literal is for. */
static void lex_number(blobc_lexer *lx, blobc_token *tok) {
    size_t start = lx->off;
    bool hex = false;
    if (peek(lx, 0) == '+' || peek(lx, 0) == '-') adv(lx);
    if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) hex = true;
    for (;;) {
        int c = peek(lx, 0);
        if (is_ident_char(c) || c == '.') {
            adv(lx);
        } else if ((c == '+' || c == '-') && !hex) {
            int p = (unsigned char)lx->text[lx->off - 1];
            if (p != 'e' && p != 'E') break;
            adv(lx);
        } else {
            break;
        }
    }
    tok->kind = BLOBC_TOK_NUMBER;
    tok->len = lx->off - start;
}

/* True when the line from `i` (after indentation) is a `///` doc comment. */
static bool doc_line_at(const char *t, size_t end, size_t *i) {
    while (*i < end && (t[*i] == ' ' || t[*i] == '\t')) (*i)++;
    return end - *i >= 3 && memcmp(t + *i, "///", 3) == 0 && (end - *i == 3 || t[*i + 3] != '/');
}

/* Joins the `///` lines between lx->doc_off and `end` (each without the
 * slashes and one following space) with '\n'. Other comments between
 * them are skipped; the result is never longer than the text scanned. */
static blobc_status collect_doc(blobc_lexer *lx, size_t end, const char **out, blobc_error *err) {
    const char *t = lx->text;
    size_t from = lx->doc_off;
    while (from > 0 && t[from - 1] != '\n') from--;
    char *doc = blobc_arena_alloc(&lx->s->arena, end - from + 1);
    if (!doc) return blobc_err_nomem(err);
    size_t n = 0;
    /* From the start of the line: a `///` after code on its line is not a doc line. */
    for (size_t i = from; i < end;) {
        size_t eol = i;
        while (eol < end && t[eol] != '\n') eol++;
        if (doc_line_at(t, eol, &i)) {
            i += 3;
            if (i < eol && t[i] == ' ') i++;
            size_t stop = eol;
            if (stop > i && t[stop - 1] == '\r') stop--;
            if (n) doc[n++] = '\n';
            memcpy(doc + n, t + i, stop - i);
            n += stop - i;
        }
        i = eol + 1;
    }
    doc[n] = '\0';
    *out = doc;
    lx->has_doc = false;
    /* generators copy docs into JSON and C text */
    if (!blobc_utf8_valid((const uint8_t *)doc, n))
        return blobc_schema_err(lx->s, here(lx), err,
                                "the doc comment before this is not valid UTF-8");
    return BLOBC_OK;
}

blobc_status blobc_lex_next(blobc_lexer *lx, blobc_token *tok, blobc_error *err) {
    if (skip_space(lx, err) != BLOBC_OK) return BLOBC_EINPUT;
    memset(tok, 0, sizeof *tok);
    tok->off = lx->off;
    tok->pos = here(lx);
    tok->text = lx->text;
    if (lx->has_doc && collect_doc(lx, lx->off, &tok->doc, err)) return err->status;
    int c = peek(lx, 0);
    if (c < 0) {
        tok->kind = BLOBC_TOK_EOF;
        return BLOBC_OK;
    }
    if (is_ident_start(c)) {
        while (is_ident_char(peek(lx, 0))) adv(lx);
        tok->kind = BLOBC_TOK_IDENT;
        tok->len = lx->off - tok->off;
        if (tok->len > BLOBC_MAX_NAME)
            return blobc_schema_err(lx->s, tok->pos, err, "name is longer than %u bytes",
                                    BLOBC_MAX_NAME);
        return BLOBC_OK;
    }
    if (is_digit(c) || ((c == '+' || c == '-') && (is_digit(peek(lx, 1)) || peek(lx, 1) == '.')) ||
        (c == '.' && is_ident_char(peek(lx, 1)))) {
        lex_number(lx, tok);
        return BLOBC_OK;
    }
    if (c == '"') return lex_string(lx, tok, err);
    blobc_tok_kind k;
    switch (c) {
    case '{': k = BLOBC_TOK_LBRACE; break;
    case '}': k = BLOBC_TOK_RBRACE; break;
    case '[': k = BLOBC_TOK_LBRACKET; break;
    case ']': k = BLOBC_TOK_RBRACKET; break;
    case '(': k = BLOBC_TOK_LPAREN; break;
    case ')': k = BLOBC_TOK_RPAREN; break;
    case ':': k = BLOBC_TOK_COLON; break;
    case ';': k = BLOBC_TOK_SEMI; break;
    case ',': k = BLOBC_TOK_COMMA; break;
    case '=': k = BLOBC_TOK_EQ; break;
    case '*': k = BLOBC_TOK_STAR; break;
    case '@': k = BLOBC_TOK_AT; break;
    case '&': k = BLOBC_TOK_AMP; break;
    case '?': k = BLOBC_TOK_QUESTION; break;
    default: return lex_err(lx, tok->pos, err, "unexpected character %s", (unsigned char)c);
    }
    adv(lx);
    tok->kind = k;
    tok->len = 1;
    return BLOBC_OK;
}

void blobc_tok_describe(const blobc_schema *s, const blobc_token *tok, char *buf, size_t cap) {
    switch (tok->kind) {
    case BLOBC_TOK_EOF: snprintf(buf, cap, "end of file"); return;
    case BLOBC_TOK_STRING: snprintf(buf, cap, "a string literal"); return;
    case BLOBC_TOK_NUMBER:
    case BLOBC_TOK_IDENT: {
        int n = tok->len > 40 ? 40 : (int)tok->len;
        snprintf(buf, cap, "'%.*s%s'", n, tok->text + tok->off, tok->len > 40 ? "..." : "");
        return;
    }
    default: snprintf(buf, cap, "'%c'", tok->text[tok->off]); return;
    }
}
