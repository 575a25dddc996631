/*
 * json.c - the JSON front end: an explicit-stack walk over the text feeds
 * the fill stack (fill.c), with cJSON for the values it does not read itself.
 *
 * The document is not parsed whole, and mostly not by cJSON. Objects and
 * arrays whose type takes them are read straight from the text at every
 * depth (their punctuation is checked here), and so are the common
 * scalars: strings without escapes, numbers (their text goes to the fill
 * stack, which converts it exactly), true, false and null. cJSON parses
 * the rest, one value at a time: strings with escapes, the meta keys'
 * values, fixed-size arrays, and any value of the wrong kind or spelled
 * wrongly, whose error is worded from cJSON's verdict. No tree of the
 * document is ever built: memory is the text, the blob, and at most one
 * small value's tree.
 *
 * cJSON keeps no positions, so a cJSON tree is walked with a light
 * tokenizer over the same text in lockstep: every value is visited in
 * document order, and the tokenizer's next value token is that value's
 * source. That gives every error a line:column next to its JSON Pointer,
 * gives integers their exact source text (no rounding through double past
 * 2^53), and reveals what cJSON hides (a "\u0000" that would cut a string
 * short, raw control characters, non-JSON number spellings cJSON accepts).
 * The tokenizer only looks at text cJSON has accepted.
 *
 * cJSON allocates with its own allocator (malloc, or whatever the host
 * program installed with cJSON_InitHooks); the bake never installs hooks,
 * which are process-wide and would break other threads and the host's own
 * use of cJSON. jparse frees the previous value's tree before the next
 * parse.
 *
 * The root type must be known before the first value is placed, while
 * JSON allows $schema and $type anywhere in the top-level object: see
 * open_root for how that is settled without reading the file twice in
 * the usual cases.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"

_Static_assert(BK_JSON_NESTING == CJSON_NESTING_LIMIT, "json_syntax.c nests as cJSON does");

/* Token flags (strings). */
#define JT_ESC 1u   /* has a backslash escape */
#define JT_HIGH 2u  /* has a byte >= 0x80 */
#define JT_NUL 4u   /* spells \u0000 */
#define JT_CTRL 8u  /* has a raw control character */
#define JT_OPEN 16u /* runs to the end of the text without a closing quote */

/* bk_pos.col values marking a meta key's value, located only on error. */
#define JPOS_META_SCHEMA 1u
#define JPOS_META_TYPE 2u

/* ---- the lockstep tokenizer ---- */

typedef struct jtok {
    size_t off, end;
    unsigned flags;
} jtok;

typedef struct jstate {
    const char *text;
    size_t len;
    size_t cur;
    size_t key_off;      /* the key skipped on the way to the last value */
    unsigned key_flags;
    size_t unit_end;     /* where the value cJSON parsed last ends */
    bool meta_done;      /* the meta keys were read ahead of the data */
    bool guessed_root;   /* the root came from the schema before any $type */
    size_t lc_off;       /* an earlier error's offset, line and line start: */
    size_t lc_start;     /* errors come in document order, so the next one */
    uint32_t lc_line;    /* is found from there */
    cJSON *tree;         /* the one value cJSON parsed last, or NULL */
} jstate;

static bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static size_t skip_bom(const char *t, size_t len) {
    return len >= 3 && (unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB &&
                   (unsigned char)t[2] == 0xBF
               ? 3
               : 0;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* t[i] is '"'; returns the index just past the closing quote. */
static size_t scan_string(const char *t, size_t len, size_t i, unsigned *flags) {
    unsigned fl = JT_OPEN;
    i++;
    while (i < len) {
        /* Eight bytes at a time while none is a quote, a backslash or a
         * control character. */
        while (len - i >= 8) {
            uint64_t w;
            memcpy(&w, t + i, 8);
            uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
            uint64_t special = ((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - ONES * 0x20) & ~w);
            if (!(special & HIGHS)) {
                if (w & HIGHS) fl |= JT_HIGH;
                i += 8;
                continue;
            }
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* The lowest flagged byte is a real match (the borrows of the
             * tests only run upwards): step straight to it. */
            unsigned k = (unsigned)__builtin_ctzll(special & HIGHS) >> 3;
            if (k) {
                if (w & HIGHS & (~0ull >> (64 - 8 * k))) fl |= JT_HIGH;
                i += k;
            }
#endif
            break;
        }
        if (i >= len) break;
        unsigned char c = (unsigned char)t[i];
        if (c == '"') {
            fl &= ~JT_OPEN;
            i++;
            break;
        }
        if (c == '\\') {
            fl |= JT_ESC;
            if (i + 5 < len && t[i + 1] == 'u' && t[i + 2] == '0' && t[i + 3] == '0' &&
                t[i + 4] == '0' && t[i + 5] == '0')
                fl |= JT_NUL;
            i += 2;
            continue;
        }
        if (c < 0x20) fl |= JT_CTRL;
        else if (c >= 0x80) fl |= JT_HIGH;
        i++;
    }
    *flags = fl;
    return i > len ? len : i;
}

/* Steps over the key of the next object member, which cJSON decoded as
 * `key`, and its colon; returns the decoded key's length. A key without
 * escapes is its source text, so comparing it against the text is enough
 * and saves scanning it; anything else (escapes, a key cut short at
 * "\u0000") is scanned for its flags. */
static size_t next_key(jstate *js, const char *key) {
    const char *t = js->text;
    size_t len = js->len, i = js->cur;
    while (i < len && (is_ws(t[i]) || t[i] == ',' || t[i] == '}' || t[i] == ']')) i++;
    if (i >= len || t[i] != '"') return strlen(key); /* not a key: next_value copes */
    js->key_off = i;
    size_t j = i + 1, n = 0;
    while (key[n] && j < len && t[j] == key[n]) {
        j++;
        n++;
    }
    if (!key[n] && j < len && t[j] == '"') {
        js->key_flags = 0;
        i = j + 1;
    } else {
        i = scan_string(t, len, i, &js->key_flags);
        n = strlen(key);
    }
    while (i < len && is_ws(t[i])) i++;
    if (i < len && t[i] == ':') i++;
    js->cur = i;
    return n;
}

/* Advances to the next value token, skipping punctuation and the key of
 * an object member (remembered in key_off/key_flags). */
static bool next_value(jstate *js, jtok *tok) {
    const char *t = js->text;
    size_t len = js->len, i = js->cur;
    for (;;) {
        while (i < len && is_ws(t[i])) i++;
        if (i >= len) {
            js->cur = i;
            return false;
        }
        char c = t[i];
        switch (c) {
        case ',':
        case ':':
        case ']':
        case '}': i++; continue;
        case '"': {
            unsigned fl;
            size_t end = scan_string(t, len, i, &fl);
            size_t j = end;
            while (j < len && is_ws(t[j])) j++;
            if (j < len && t[j] == ':') {
                js->key_off = i;
                js->key_flags = fl;
                i = j + 1;
                continue;
            }
            *tok = (jtok){i, end, fl};
            js->cur = end;
            return true;
        }
        case '{':
        case '[': *tok = (jtok){i, i + 1, 0}; js->cur = i + 1; return true;
        case 't':
        case 'n': *tok = (jtok){i, i + 4 <= len ? i + 4 : len, 0}; break;
        case 'f': *tok = (jtok){i, i + 5 <= len ? i + 5 : len, 0}; break;
        default: {
            size_t j = i;
            while (j < len && ((t[j] >= '0' && t[j] <= '9') || t[j] == '-' || t[j] == '+' ||
                               t[j] == '.' || t[j] == 'e' || t[j] == 'E'))
                j++;
            if (j == i) j = i + 1;
            *tok = (jtok){i, j, 0};
            break;
        }
        }
        js->cur = tok->end;
        return true;
    }
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?  (cJSON also takes "01",
 * "1.", "-.5"; JSON does not). */
static bool json_number_ok(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i >= n) return false;
    if (s[i] == '0') i++;
    else if (s[i] >= '1' && s[i] <= '9')
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    else return false;
    if (i < n && s[i] == '.') {
        i++;
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return false;
    }
    return i == n;
}

/* ---- positions ---- */

/* Line and column of offset off, counting from line *line, which starts
 * at offset *start (at or before off); both move to off's line. */
static void line_col(const char *t, size_t len, size_t off, uint32_t *line, size_t *start,
                     uint32_t *col) {
    if (off > len) off = len;
    size_t ln = *line, st = *start;
    const char *p = t + st, *end = t + off;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        ln++;
        p = nl + 1;
        st = (size_t)(p - t);
    }
    size_t c = 1;
    for (size_t i = st; i < off; i++)
        if (((unsigned char)t[i] & 0xC0) != 0x80) c++;
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *start = st;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static void json_locate(bk *k, const bk_pos *pos) {
    jstate *js = k->fe;
    /* Several errors come in document order: go on from the last one. */
    if (js->lc_line == 0 || pos->off < js->lc_off) {
        js->lc_start = 0;
        js->lc_line = 1;
    }
    uint32_t col;
    line_col(js->text, js->len, pos->off, &js->lc_line, &js->lc_start, &col);
    js->lc_off = pos->off;
    blobc_err_at(k->err, NULL, js->lc_line, col);
    blobc_err_source_line(k->err, js->text, js->len, pos->off);
}

/* A syntax error names no path: the text around it is not a value yet. */
BLOBC_PRINTF(3, 4)
static blobc_status syntax_fail(bk *k, size_t off, const char *fmt, ...) {
    bk_pos pos = {0, 0, off};
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    k->syntax = true;
    k->muted = false; /* reported, whatever came before */
    k->depth = 0;
    return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0, "invalid JSON: %s", msg);
}

/* Why the parse stopped near `off`, in words, at the offending token:
 * cJSON says nothing of why and often stops a token or a line after the
 * mistake, so the text is checked from its start (an error path only),
 * which also puts the first syntax error of the text first. */
static blobc_status syntax_error(bk *k, size_t off) {
    const jstate *js = k->fe;
    char msg[200];
    size_t at;
    if (!bk_json_syntax(js->text, js->len, &at, msg, sizeof msg))
        return syntax_fail(k, at, "%s", msg);
    /* Valid JSON as far as syntax goes: the reader stopped for a reason
     * of its own. */
    if (off >= js->len) return syntax_fail(k, js->len, "unexpected end of input");
    unsigned char c = (unsigned char)js->text[off];
    if (c >= 0x21 && c < 0x7f) return syntax_fail(k, off, "unexpected '%c'", c);
    return syntax_fail(k, off, "unexpected byte 0x%02x", c);
}

/* cJSON's parse of the n bytes at `off`, after freeing the tree of the
 * previous parse: the caller is done with it by then. */
static cJSON *jparse(jstate *js, size_t off, size_t n, const char **end) {
    cJSON_Delete(js->tree);
    js->tree = cJSON_ParseWithLengthOpts(js->text + off, n, end, 0);
    return js->tree;
}

/* cJSON parses the one value at `off` into a fresh tree (the previous
 * value's tree is gone), and unit_end records where it ends. */
static blobc_status parse_unit(bk *k, jstate *js, size_t off, cJSON **out) {
    const char *t = js->text;
    /* cJSON would skip control bytes and a byte-order mark here as if
     * they were white space. */
    if (off < js->len && ((unsigned char)t[off] <= 0x20 || (unsigned char)t[off] == 0xEF))
        return syntax_error(k, off);
    const char *end = NULL;
    cJSON *v = jparse(js, off, js->len - off, &end);
    size_t stop = end ? off + (size_t)(end - (t + off)) : js->len;
    if (!v) return syntax_error(k, stop);
    /* cJSON takes more than JSON (any control byte is white space to
     * it); the lockstep walk over this value trusts its text to be JSON,
     * so the value is held to JSON's syntax before anything walks it. */
    char msg[200];
    size_t at;
    if (!bk_json_syntax(t + off, stop - off, &at, msg, sizeof msg)) return syntax_error(k, off + at);
    js->unit_end = stop;
    *out = v;
    return BLOBC_OK;
}

static size_t skip_ws(const char *t, size_t len, size_t i) {
    while (i < len && is_ws(t[i])) i++;
    return i;
}

/* ---- meta keys ---- */

/* 0 for a data key, else which meta key. */
static int meta_kind(const char *key, size_t n) {
    if (n == 7 && memcmp(key, "$schema", 7) == 0) return 1;
    if (n == 5 && memcmp(key, "$type", 5) == 0) return 2;
    return 0;
}

/* meta_kind of the key token at [i, end) with flags fl, its escapes
 * decoded. A key cJSON cannot decode is no meta key: the parse reports it
 * when it gets there. */
static int key_meta_kind(jstate *js, size_t i, size_t end, unsigned fl) {
    if (fl & JT_OPEN) return 0;
    if (!(fl & JT_ESC)) return meta_kind(js->text + i + 1, end - i - 2);
    cJSON *kv = jparse(js, i, end - i, NULL);
    return kv && cJSON_IsString(kv) ? meta_kind(kv->valuestring, strlen(kv->valuestring)) : 0;
}

/* Reads the value at `off` of top-level meta key `which`. */
static blobc_status read_meta_value(bk *k, jstate *js, int which, size_t off) {
    bool is_schema = which == 1;
    const char *key = is_schema ? "$schema" : "$type";
    bk_pos pos = {0, 0, off};
    cJSON *v;
    blobc_status st = parse_unit(k, js, off, &v);
    if (st) return st;
    if (is_schema ? k->meta_schema != NULL : k->meta_type != NULL)
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, key, strlen(key),
                       "duplicate key \"%s\"", key);
    if (!cJSON_IsString(v))
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, key, strlen(key),
                       "\"%s\" must be a string (%s)", key,
                       is_schema ? "the schema file's path" : "the root type's name");
    char *copy = blobc_arena_strndup(&k->arena, v->valuestring, strlen(v->valuestring));
    if (!copy) return blobc_err_nomem(k->err);
    if (is_schema) {
        k->meta_schema = copy;
        k->meta_schema_pos = pos;
    } else {
        k->meta_type = copy;
        k->meta_type_pos = pos;
    }
    return BLOBC_OK;
}

/* Bytes that matter to read_meta_ahead: quotes and brackets. */
static const unsigned char jstruct[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/* The root type must be known before the first value is placed, and JSON
 * allows the meta keys anywhere in the top-level object, so they are read
 * ahead: a scan that only follows strings and nesting finds the object's
 * own keys (from `i`, just inside its brace). Syntax is the parse's
 * business; it reports errors in document order later. */
/* The next meta key of the top-level object, scanning from *i (inside the
 * object, outside any value in it): returns its kind (0 at the object's
 * end), the offset of its value in *value, and moves *i past the key. */
static int next_top_meta(jstate *js, size_t *i, size_t *value) {
    const char *t = js->text;
    size_t len = js->len, at = *i, depth = 1;
    while (at < len) {
        while (at < len && !jstruct[(unsigned char)t[at]]) at++;
        if (at >= len) break;
        if (t[at] != '"') {
            if (t[at] == '{' || t[at] == '[') depth++;
            else if (--depth == 0) break;
            at++;
            continue;
        }
        unsigned fl;
        size_t end = scan_string(t, len, at, &fl);
        size_t j = skip_ws(t, len, end);
        int which = depth == 1 && j < len && t[j] == ':' ? key_meta_kind(js, at, end, fl) : 0;
        at = end;
        if (which) {
            *i = at;
            *value = skip_ws(t, len, j + 1);
            return which;
        }
    }
    *i = at;
    return 0;
}

static blobc_status read_meta_ahead(bk *k, jstate *js, size_t i) {
    size_t value;
    int which;
    while ((which = next_top_meta(js, &i, &value))) {
        blobc_status st = read_meta_value(k, js, which, value);
        if (st) return st;
        i = js->unit_end;
    }
    js->meta_done = true;
    return BLOBC_OK;
}

/* ---- the walk ---- */

/* Not a status the library returns: the bake must start over with the
 * meta keys read ahead. */
#define JRESTART ((blobc_status)-1)

/* Frame states. A streamed frame reads its members or items straight from
 * the text; a tree frame walks the children of a cJSON node. */
#define JF_STREAM 1u
#define JF_FIRST 2u /* streamed, no member or item yet */

static blobc_status nest_check(bk *k, size_t off) {
    if (k->depth < CJSON_NESTING_LIMIT) return BLOBC_OK;
    return syntax_fail(k, off, "nesting is deeper than %d levels", CJSON_NESTING_LIMIT);
}

/* A value whose error was kept (BK_SKIP) is done with. */
static blobc_status kept(blobc_status st) { return st == BK_SKIP ? BLOBC_OK : st; }

/* Where the value at off ends: a container at its closing bracket, a
 * string at its quote, anything else at the next delimiter. Text that is
 * not valid JSON ends somewhere; the syntax check finds what is wrong. */
static size_t value_end(const jstate *js, size_t off) {
    const char *t = js->text;
    size_t len = js->len, depth = 0, i = off;
    while (i < len) {
        char c = t[i];
        if (c == '"') {
            unsigned fl;
            i = scan_string(t, len, i, &fl);
            if (depth == 0) break;
            continue;
        }
        if (depth == 0 && c != '{' && c != '[') {
            while (i < len && !is_ws(t[i]) && !strchr(",:]}", t[i])) i++;
            break;
        }
        i++;
        if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) break;
    }
    return i;
}

/* Does the token at tok start the kind of value cJSON parsed as c? The
 * walk reads lengths and number text from tokens: one out of step with
 * cJSON must stop the bake, not be read. */
static bool in_step(const jstate *js, const cJSON *c, const jtok *tok) {
    if (tok->off >= js->len || tok->end <= tok->off) return false;
    char ch = js->text[tok->off];
    switch (c->type & 0xff) {
    case cJSON_Object: return ch == '{';
    case cJSON_Array: return ch == '[';
    case cJSON_String: return ch == '"' && (tok->end - tok->off >= 2 || (tok->flags & JT_OPEN));
    case cJSON_Number: return ch == '-' || (ch >= '0' && ch <= '9');
    case cJSON_True: return ch == 't';
    case cJSON_False: return ch == 'f';
    default: return ch == 'n';
    }
}

/* Puts value c, whose token is tok, into slot: a scalar is stored, an
 * object or array opens a tree frame over its children. */
static blobc_status put(bk *k, jstate *js, const cJSON *c, bk_slot *slot, const jtok *tok) {
    bk_pos vpos = {0, 0, tok->off};
    bk_scalar v;
    blobc_status st;
    memset(&v, 0, sizeof v);
    if (!in_step(js, c, tok))
        return bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                       "internal error: JSON token stream out of step");
    switch (c->type & 0xff) {
    case cJSON_Object:
    case cJSON_Array: {
        bool obj = (c->type & 0xff) == cJSON_Object;
        if ((st = nest_check(k, tok->off))) return st;
        while (slot->type->kind == BLOBC_KIND_PTR)
            if ((st = bk_deref(k, slot, &vpos, NULL))) return st;
        if (obj) {
            st = bk_push_struct(k, slot, &vpos);
        } else {
            uint32_t n = 0;
            for (const cJSON *e = c->child; e; e = e->next) n++;
            st = bk_push_seq(k, slot, n, &vpos);
        }
        if (st == BK_SKIP) {
            js->cur = value_end(js, tok->off); /* its text, from the tokenizer's way */
            return BLOBC_OK;
        }
        if (st) return st;
        bk_top(k)->fe = c->child;
        return BLOBC_OK;
    }
    case cJSON_String:
        if (tok->flags & JT_CTRL)
            return kept(bk_soft(k, bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                                           "invalid JSON: a control character in a string "
                                           "must be escaped")));
        v.tok = BK_TOK_JSTRING;
        /* Without escapes the value is its source text: pointer and length
         * both come from the token, so neither can outrun the other. */
        if (tok->flags & (JT_ESC | JT_OPEN)) {
            v.s = c->valuestring;
            v.n = strlen(c->valuestring);
        } else {
            v.s = js->text + tok->off + 1;
            v.n = tok->end - tok->off - 2;
        }
        v.has_nul = (tok->flags & JT_NUL) != 0;
        v.check_utf8 = (tok->flags & JT_HIGH) != 0;
        break;
    case cJSON_Number:
        v.tok = BK_TOK_JNUMBER;
        v.s = js->text + tok->off;
        v.n = tok->end - tok->off;
        v.has_d = true;
        v.d = c->valuedouble;
        if (!json_number_ok(v.s, v.n)) {
            char q[200];
            bk_quote(q, sizeof q, v.s, v.n);
            return kept(bk_soft(k, bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                                           "invalid JSON number %s", q)));
        }
        break;
    case cJSON_True:
    case cJSON_False:
        v.tok = BK_TOK_JBOOL;
        v.s = js->text + tok->off;
        v.n = tok->end - tok->off;
        break;
    default:
        v.tok = BK_TOK_JNULL;
        v.s = "null";
        v.n = 4;
        break;
    }
    return kept(bk_store(k, slot, &v, &vpos, NULL));
}

static blobc_status key_nul(bk *k, const bk_pos *kpos) {
    return bk_soft(k, bk_fail(k, BLOBC_EINPUT, kpos, BK_AT_CONTAINER, NULL, 0,
                              "an object key cannot contain a NUL character (U+0000)"));
}

/* One child of a tree frame, or the frame's end. */
static blobc_status tree_step(bk *k, jstate *js, bk_frame *f) {
    const cJSON *c = f->fe;
    if (!c) return bk_is_map(f) ? bk_pop_struct(k) : bk_pop_seq(k, &f->pos, NULL, NULL);
    f->fe = c->next;
    size_t klen = bk_is_map(f) ? next_key(js, c->string) : 0;
    jtok tok;
    if (!next_value(js, &tok))
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_VALUE, NULL, 0,
                       "internal error: JSON token stream out of step");
    bk_slot slot;
    blobc_status st;
    if (bk_is_map(f)) {
        bk_pos kpos = {0, 0, js->key_off};
        st = js->key_flags & JT_NUL ? key_nul(k, &kpos) : bk_key(k, c->string, klen, &kpos, &slot);
    } else {
        bk_pos vpos = {0, 0, tok.off};
        st = bk_item(k, &vpos, &slot);
    }
    if (st == BK_SKIP) {
        /* the value is skipped: past its text */
        if (cJSON_IsObject(c) || cJSON_IsArray(c)) js->cur = value_end(js, tok.off);
        return BLOBC_OK;
    }
    if (st) return st;
    return put(k, js, c, &slot, &tok);
}

/* The type a value finally lands in, past any *T. */
static const blobc_type *landing(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_PTR) t = t->elem;
    return t;
}

/* The scalar at `i` read straight from the text, when it is one of the
 * common, valid spellings: a string without escapes or control
 * characters, a JSON number, true, false or null. Its end goes to *end.
 * Anything else (escapes, errors, whatever needs cJSON's judgement) is
 * left to the cJSON path, which decodes it or reports it. Numbers carry
 * their text only: the fill stack converts it exactly. */
static bool plain_scalar(const jstate *js, size_t i, bk_scalar *v, size_t *end) {
    const char *t = js->text;
    size_t len = js->len, j = i;
    if (i >= len) return false; /* the text ends where a value should be */
    memset(v, 0, sizeof *v);
    char c = t[i];
    if (c == '"') {
        unsigned fl;
        j = scan_string(t, len, i, &fl);
        if (fl & (JT_ESC | JT_OPEN | JT_CTRL)) return false;
        v->tok = BK_TOK_JSTRING;
        v->s = t + i + 1;
        v->n = j - i - 2;
        v->check_utf8 = (fl & JT_HIGH) != 0;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        while (j < len && ((t[j] >= '0' && t[j] <= '9') || t[j] == '-' || t[j] == '+' ||
                           t[j] == '.' || t[j] == 'e' || t[j] == 'E'))
            j++;
        if (!json_number_ok(t + i, j - i)) return false;
        v->tok = BK_TOK_JNUMBER;
        v->s = t + i;
        v->n = j - i;
    } else {
        static const struct {
            const char *word;
            size_t n;
            bk_tok tok;
        } lits[] = {{"true", 4, BK_TOK_JBOOL}, {"false", 5, BK_TOK_JBOOL}, {"null", 4, BK_TOK_JNULL}};
        size_t k;
        for (k = 0; k < sizeof lits / sizeof lits[0]; k++)
            if (len - i >= lits[k].n && memcmp(t + i, lits[k].word, lits[k].n) == 0) break;
        if (k == sizeof lits / sizeof lits[0]) return false;
        v->tok = lits[k].tok;
        v->s = t + i;
        v->n = lits[k].n;
        j = i + lits[k].n;
    }
    *end = j;
    return true;
}

/* One member or item of a streamed frame, or the frame's end. Objects and
 * arrays whose type takes them are streamed at every depth, and common
 * scalars are read straight from the text (plain_scalar); cJSON parses
 * only the rest (escaped strings, fixed-size arrays, values of the wrong
 * kind, errors), each on its own, so no tree of the document is built. */
static blobc_status stream_step(bk *k, jstate *js, bk_frame *f) {
    const char *t = js->text;
    size_t len = js->len;
    bool obj = bk_is_map(f);
    size_t i = skip_ws(t, len, js->cur > js->unit_end ? js->cur : js->unit_end);
    if (i >= len) return syntax_error(k, len);
    if (t[i] == (obj ? '}' : ']')) {
        js->cur = i + 1;
        return obj ? bk_pop_struct(k) : bk_pop_seq(k, &f->pos, NULL, NULL);
    }
    if (f->state & JF_FIRST) {
        f->state &= (uint8_t)~JF_FIRST;
    } else {
        if (t[i] != ',') return syntax_error(k, i);
        i = skip_ws(t, len, i + 1);
        if (i < len && t[i] == (obj ? '}' : ']')) return syntax_error(k, i);
    }

    bk_slot slot;
    blobc_status st;
    if (obj) {
        if (i >= len) return syntax_error(k, len);
        if (t[i] != '"') return syntax_error(k, i);
        bk_pos kpos = {0, 0, i};
        unsigned fl;
        size_t end = scan_string(t, len, i, &fl);
        if (fl & JT_OPEN) return syntax_fail(k, i, "unterminated string");
        const char *key = t + i + 1;
        size_t klen = end - i - 2;
        if (fl & JT_ESC) {
            cJSON *kv;
            if ((st = parse_unit(k, js, i, &kv))) return st;
            key = kv->valuestring;
            klen = strlen(key);
        }
        i = skip_ws(t, len, end);
        if (i >= len || t[i] != ':') return syntax_error(k, i);
        i = skip_ws(t, len, i + 1);
        if (k->depth == 1 && !(fl & JT_NUL)) {
            int which = meta_kind(key, klen);
            if (which) {
                cJSON *v;
                if (js->meta_done) st = parse_unit(k, js, i, &v); /* read ahead already */
                else st = read_meta_value(k, js, which, i);
                js->cur = js->unit_end;
                if (!st && which == 2 && js->guessed_root) {
                    /* A $type after data: fine if it names the root the
                     * data was baked as, else the bake starts over. */
                    if (blobc_schema_find(k->schema, k->meta_type) != k->root) return JRESTART;
                    js->guessed_root = false;
                }
                return st;
            }
        }
        st = fl & JT_NUL ? key_nul(k, &kpos) : bk_key(k, key, klen, &kpos, &slot);
    } else {
        bk_pos vpos = {0, 0, i};
        st = bk_item(k, &vpos, &slot);
    }
    if (st == BK_SKIP) {
        /* the value is stepped over without a tree; its syntax is checked
         * with the whole text's when the bake ends */
        js->cur = js->unit_end = value_end(js, i);
        return BLOBC_OK;
    }
    if (st) return st;

    bk_pos vpos = {0, 0, i};
    if (i < len && (t[i] == '{' || t[i] == '[')) {
        const blobc_type *lt = landing(slot.type);
        bool open = t[i] == '{';
        if (lt->kind == (open ? BLOBC_KIND_STRUCT : BLOBC_KIND_ARRAY)) {
            if ((st = nest_check(k, i))) return st;
            while (slot.type->kind == BLOBC_KIND_PTR)
                if ((st = bk_deref(k, &slot, &vpos, NULL))) return st;
            st = open ? bk_push_struct(k, &slot, &vpos)
                      : bk_push_seq(k, &slot, UINT32_MAX, &vpos);
            if (st) return st;
            bk_top(k)->state = JF_STREAM | JF_FIRST;
            js->cur = i + 1;
            return BLOBC_OK;
        }
    }
    bk_scalar v;
    size_t end;
    if (plain_scalar(js, i, &v, &end)) {
        js->cur = js->unit_end = end;
        return kept(bk_store(k, &slot, &v, &vpos, NULL));
    }
    cJSON *c;
    if ((st = parse_unit(k, js, i, &c))) return st;
    /* The value's token, from what cJSON parsed only: the text after it
     * has not been checked yet, so the tokenizer must not look there. */
    jtok tok = {i, js->unit_end, 0};
    int ty = c->type & 0xff;
    if (ty == cJSON_Object || ty == cJSON_Array) tok.end = i + 1;
    else if (ty == cJSON_String) (void)scan_string(t, js->unit_end, i, &tok.flags);
    js->cur = tok.end;
    return put(k, js, c, &slot, &tok);
}

/* Can the text hold a "$type" key at all? Only as `$type"` or with a
 * \u escape somewhere (every other spelling of its characters is one),
 * and both are found at memchr speed: most data has neither, and then
 * the key scan below is skipped. */
static bool may_spell_type_key(const char *t, size_t len) {
    for (const char *p = t, *end = t + len; (p = memchr(p, '$', (size_t)(end - p))); p++)
        if ((size_t)(end - p) > 5 && memcmp(p + 1, "type\"", 5) == 0) return true;
    for (const char *p = t, *end = t + len; (p = memchr(p, '\\', (size_t)(end - p)));) {
        if ((size_t)(end - p) < 2) break;
        if (p[1] == 'u') return true;
        p += 2; /* past an escaped character, which may be a '\\' */
    }
    return false;
}

/* Is there a top-level "$type" naming a type other than the root the data
 * is being baked as? Asked only after an error, to tell whether the error
 * came from guessing the root: nothing is reported from here. */
static bool late_type_differs(bk *k, jstate *js, size_t open) {
    size_t len = js->len, i = open + 1, j;
    int which;
    if (!may_spell_type_key(js->text, len)) return false;
    while ((which = next_top_meta(js, &i, &j))) {
        if (which != 2) continue;
        cJSON *v = j < len ? jparse(js, j, len - j, NULL) : NULL;
        if (!v || !cJSON_IsString(v) || strcmp(v->valuestring, k->root->name) != 0) return true;
    }
    return false;
}

/* Reads the meta keys that open the top-level object (its brace at
 * `open`), resolves the root type and opens the root's frame at the first
 * data key. A file that names its schema and type up front, or whose
 * options do, is then read once, streaming. Otherwise the meta keys are
 * read ahead, except that a missing $type is taken to mean the schema's
 * root until a late $type says otherwise. */
static blobc_status open_root(bk *k, jstate *js, size_t open, bool ahead) {
    const char *t = js->text;
    size_t len = js->len;
    const blobc_bake_options *o = k->opts;
    bk_pos pos = {0, 0, open};
    blobc_status st;
    size_t i = skip_ws(t, len, open + 1);
    if (ahead) {
        if ((st = read_meta_ahead(k, js, open + 1))) return st;
    } else {
        while (i < len && t[i] == '"') {
            unsigned fl;
            size_t end = scan_string(t, len, i, &fl);
            if (fl & (JT_OPEN | JT_ESC)) break; /* the stream reads it */
            int which = meta_kind(t + i + 1, end - i - 2);
            size_t j = skip_ws(t, len, end);
            if (!which || j >= len || t[j] != ':') break;
            if ((st = read_meta_value(k, js, which, skip_ws(t, len, j + 1)))) return st;
            j = skip_ws(t, len, js->unit_end);
            if (j < len && t[j] == '}') {
                i = j;
                break;
            }
            if (j >= len || t[j] != ',') return syntax_error(k, j);
            j = skip_ws(t, len, j + 1);
            if (j < len && t[j] != '"') return syntax_error(k, j);
            i = j;
        }
        if (!(o->schema || o->schema_path) && !k->meta_schema &&
            (st = read_meta_ahead(k, js, i)))
            return st;
        js->guessed_root = !js->meta_done && !o->type_name && !k->meta_type;
    }
    if ((st = bk_resolve_root(k, &pos))) return st;
    bk_top(k)->state = JF_STREAM | JF_FIRST;
    js->cur = i;
    js->unit_end = 0;
    return BLOBC_OK;
}

static blobc_status bake_object(bk *k, jstate *js, size_t open, bool ahead) {
    blobc_status st = open_root(k, js, open, ahead);
    while (!st && k->depth > 0) {
        bk_frame *f = bk_top(k);
        st = f->state & JF_STREAM ? stream_step(k, js, f) : tree_step(k, js, f);
    }
    if ((st || k->nerrors) && st != JRESTART && st != BLOBC_ENOMEM && js->guessed_root &&
        k->root && late_type_differs(k, js, open))
        st = JRESTART;
    if (st) return st;
    size_t tail = skip_ws(js->text, js->len, js->cur);
    if (tail < js->len) return syntax_fail(k, tail, "more text after the top-level value");
    return BLOBC_OK;
}

blobc_status bk_bake_json(bk *k, const char *text, size_t len) {
    jstate js;
    memset(&js, 0, sizeof js);
    js.text = text;
    js.len = len;
    k->json = true;
    k->fe = &js;
    k->locate = json_locate;

    blobc_status st;
    size_t i = skip_ws(text, len, skip_bom(text, len));
    if (i < len && text[i] == '{') {
        st = bake_object(k, &js, i, false);
        if (st == JRESTART) {
            bk_reset(k);
            if (k->err) blobc_error_clear(k->err);
            k->json = true;
            k->fe = &js;
            k->locate = json_locate;
            js.cur = js.unit_end = 0;
            js.meta_done = js.guessed_root = false;
            st = bake_object(k, &js, i, true);
        }
    } else {
        /* Not an object: a syntax error first, if there is one. */
        cJSON *whole;
        st = parse_unit(k, &js, i, &whole);
        size_t tail = st ? len : skip_ws(text, len, js.unit_end);
        if (!st && tail < len) {
            st = syntax_fail(k, tail, "more text after the top-level value");
        } else if (!st) {
            bk_pos pos = {0, 0, i};
            st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                         "the top level must be an object holding the root struct's fields");
        }
    }
    if ((st == BLOBC_EINPUT || (st == BLOBC_OK && k->nerrors)) && !k->syntax) {
        /* A syntax error anywhere goes first: data errors before it are
         * often its echo. */
        char msg[200];
        size_t at;
        if (!bk_json_syntax(text, len, &at, msg, sizeof msg)) st = syntax_fail(k, at, "%s", msg);
    }
    cJSON_Delete(js.tree);
    if (st) k->depth = 0;
    k->fe = NULL;
    k->locate = NULL;
    return st;
}
