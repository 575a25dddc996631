/*
 * bake_json.c - the JSON front end: cJSON parses the text into a tree,
 * and an explicit-stack walk feeds it to the fill stack (bake_common.c).
 *
 * cJSON keeps no positions and stores numbers as doubles, so the walk runs
 * a light tokenizer over the same text in lockstep: every value is visited
 * in document order, and the tokenizer's next value token is that value's
 * source. That gives every error a line:column next to its JSON Pointer,
 * gives integers their exact source text (no rounding through double past
 * 2^53), and reveals what cJSON hides (a "\u0000" that would cut a string
 * short, raw control characters, non-JSON number spellings cJSON accepts).
 * The tokenizer only needs to be right for text cJSON accepted.
 *
 * cJSON mallocs every node and string, and freeing the tree costs about as
 * much again. A bake parses one document and drops it whole, so while
 * cJSON parses, its allocations for this thread come from a bump arena
 * (cJSON_InitHooks with hooks that fall back to malloc/free on any other
 * thread), and the tree is released by freeing the arena.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */

#include <cjson/cJSON.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"

/* Token flags (strings). */
#define JT_ESC 1u   /* has a backslash escape */
#define JT_HIGH 2u  /* has a byte >= 0x80 */
#define JT_NUL 4u   /* spells \u0000 */
#define JT_CTRL 8u  /* has a raw control character */
#define JT_OPEN 16u /* runs to the end of the text without a closing quote */

/* bk_pos.col values marking a meta key's value, located only on error. */
#define JPOS_META_SCHEMA 1u
#define JPOS_META_TYPE 2u

/* ---- the arena behind cJSON ---- */

/* A big document's tree is several times its text (a 64-byte node per
 * value, plus a copy of every key and string), and faulting that memory in
 * 4 KiB at a time was a sixth of the bake. Blocks from 2 MiB up are mapped
 * on a 2 MiB boundary and offered to transparent huge pages, so the kernel
 * fills them a huge page per fault where it can. */
#define JHUGE ((size_t)2 * 1024 * 1024)
#define JBLOCK_MAX ((size_t)32 * 1024 * 1024)

typedef struct jblock {
    struct jblock *next;
    size_t mapped; /* bytes mapped at the block (mmap), 0 for malloc */
} jblock;          /* two words: the memory after it stays 16-byte aligned */

typedef struct jarena {
    jblock *head;
    char *cur;
    size_t left;
    size_t next_size;
    bool failed;
} jarena;

static _Thread_local jarena *tls_arena;

static jblock *jblock_new(size_t size) {
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (size >= JHUGE && size <= SIZE_MAX - sizeof(jblock) - 2 * JHUGE) {
        size_t want = (sizeof(jblock) + size + JHUGE - 1) & ~(JHUGE - 1);
        size_t span = want + JHUGE;
        void *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            /* Trim to a 2 MiB-aligned range: huge pages need one. */
            uintptr_t base = (uintptr_t)m;
            size_t head = (size_t)(((base + JHUGE - 1) & ~(uintptr_t)(JHUGE - 1)) - base);
            if (head) munmap(m, head);
            if (span - head > want) munmap((char *)m + head + want, span - head - want);
            jblock *b = (jblock *)((char *)m + head);
            (void)madvise(b, want, MADV_HUGEPAGE); /* only advice */
            b->mapped = want;
            return b;
        }
    }
#endif
    jblock *b = malloc(sizeof(jblock) + size);
    if (b) b->mapped = 0;
    return b;
}

static void jblock_free(jblock *b) {
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (b->mapped) {
        munmap(b, b->mapped);
        return;
    }
#endif
    free(b);
}

/* Starts a new block big enough for n bytes, and takes them from it. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void *jarena_grow(jarena *a, size_t n) {
    if (n > SIZE_MAX - 15 - sizeof(jblock)) {
        a->failed = true;
        return NULL;
    }
    /* Blocks double: small documents stay small. */
    size_t size = a->next_size ? a->next_size : (size_t)64 * 1024;
    if (size < JBLOCK_MAX) a->next_size = size * 2;
    if (size < n) size = n;
    jblock *b = jblock_new(size);
    if (!b) {
        a->failed = true;
        return NULL;
    }
    b->next = a->head;
    a->head = b;
    a->cur = (char *)(b + 1) + n;
    a->left = (b->mapped ? b->mapped - sizeof(jblock) : size) - n;
    return b + 1;
}

/* cJSON asks for nodes (pointers and a double: 8-byte alignment) and for
 * strings (any alignment); packing strings unaligned keeps the tree, and
 * the memory it faults in, smaller. The common case stays a few
 * instructions: it runs for every node and string of the document. */
static inline void *jarena_alloc(jarena *a, size_t n) {
    size_t pad = (n & 7) ? 0 : (size_t)(-(uintptr_t)a->cur & 7);
    if (a->left < pad || n > a->left - pad) return jarena_grow(a, n);
    void *p = a->cur + pad;
    a->cur += pad + n;
    a->left -= pad + n;
    return p;
}

static void jarena_free(jarena *a) {
    for (jblock *b = a->head; b;) {
        jblock *next = b->next;
        jblock_free(b);
        b = next;
    }
    memset(a, 0, sizeof *a);
}

static void *CJSON_CDECL hook_malloc(size_t n) {
    jarena *a = tls_arena;
    return a ? jarena_alloc(a, n) : malloc(n);
}

static void CJSON_CDECL hook_free(void *p) {
    if (!tls_arena) free(p);
}

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
 * `key`, and its colon. A key without escapes is its source text, so
 * comparing it against the text is enough and saves scanning it; anything
 * else (escapes, a key cut short at "\u0000") is scanned for its flags. */
static void next_key(jstate *js, const char *key, size_t klen) {
    const char *t = js->text;
    size_t len = js->len, i = js->cur;
    while (i < len && (is_ws(t[i]) || t[i] == ',' || t[i] == '}' || t[i] == ']')) i++;
    if (i >= len || t[i] != '"') return; /* not a key: next_value copes */
    js->key_off = i;
    if (klen < len - i - 1 && memcmp(t + i + 1, key, klen) == 0 && t[i + 1 + klen] == '"') {
        js->key_flags = 0;
        i += klen + 2;
    } else {
        i = scan_string(t, len, i, &js->key_flags);
    }
    while (i < len && is_ws(t[i])) i++;
    if (i < len && t[i] == ':') i++;
    js->cur = i;
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

static void line_col(const char *t, size_t len, size_t off, uint32_t *line, uint32_t *col) {
    if (off > len) off = len;
    size_t ln = 1, start = 0;
    const char *p = t, *end = t + off;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        ln++;
        p = nl + 1;
        start = (size_t)(p - t);
    }
    size_t c = 1;
    for (size_t i = start; i < off; i++)
        if (((unsigned char)t[i] & 0xC0) != 0x80) c++;
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Offset of the value of top-level key `key` (the last one, if repeated:
 * cJSON's order), or SIZE_MAX. Error path only. */
static size_t find_top_value(const char *t, size_t len, const char *key) {
    size_t klen = strlen(key), found = SIZE_MAX;
    size_t i = skip_bom(t, len);
    int depth = 0;
    while (i < len) {
        char c = t[i];
        if (c == '"') {
            unsigned fl;
            size_t end = scan_string(t, len, i, &fl);
            if (depth == 1 && end - i == klen + 2 && memcmp(t + i + 1, key, klen) == 0) {
                size_t j = end;
                while (j < len && is_ws(t[j])) j++;
                if (j < len && t[j] == ':') {
                    j++;
                    while (j < len && is_ws(t[j])) j++;
                    found = j;
                }
            }
            i = end;
            continue;
        }
        if (c == '{' || c == '[') depth++;
        else if (c == '}' || c == ']') depth--;
        i++;
    }
    return found;
}

static void json_locate(bk *k, const bk_pos *pos) {
    jstate *js = k->fe;
    size_t off = pos->off;
    if (pos->line == 0 && pos->col == JPOS_META_SCHEMA)
        off = find_top_value(js->text, js->len, "$schema");
    else if (pos->line == 0 && pos->col == JPOS_META_TYPE)
        off = find_top_value(js->text, js->len, "$type");
    if (off == SIZE_MAX) return;
    uint32_t line, col;
    line_col(js->text, js->len, off, &line, &col);
    blobc_err_at(k->err, NULL, line, col);
    blobc_err_source_line(k->err, js->text, js->len, off);
}

/* Why cJSON stopped at `off`, in words. */
static blobc_status syntax_error(bk *k, const char *t, size_t len, size_t off) {
    bk_pos pos = {0, 0, off};
    if (off >= len) return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                                   "invalid JSON: unexpected end of input");
    /* cJSON says nothing of why: find out whether it stopped inside a
     * string, or at nesting deeper than it allows. */
    int depth = 0, deepest = 0;
    for (size_t i = skip_bom(t, len); i <= off && i < len;) {
        char c = t[i];
        if (c == '"') {
            unsigned fl;
            size_t end = scan_string(t, len, i, &fl);
            if (off > i && (fl & JT_OPEN)) {
                bk_pos at = {0, 0, i};
                return bk_fail(k, BLOBC_EINPUT, &at, BK_AT_VALUE, NULL, 0,
                               "invalid JSON: unterminated string");
            }
            if (off > i && off < end)
                return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                               t[off] == '\\' ? "invalid JSON: bad escape sequence in a string"
                                               : "invalid JSON: bad string");
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > deepest) deepest = depth;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        i++;
    }
    if (deepest > CJSON_NESTING_LIMIT)
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                       "invalid JSON: nesting is deeper than %d levels", CJSON_NESTING_LIMIT);
    /* Stopped in the last token of a text that leaves brackets open: the
     * text was cut short. */
    size_t j = off;
    while (j < len && !is_ws(t[j]) && !strchr(",:[]{}\"", t[j])) j++;
    while (j < len && is_ws(t[j])) j++;
    if (j == len && depth > 0) {
        bk_pos end = {0, 0, len};
        return bk_fail(k, BLOBC_EINPUT, &end, BK_AT_VALUE, NULL, 0,
                       "invalid JSON: unexpected end of input");
    }
    unsigned char c = (unsigned char)t[off];
    if (c >= 0x21 && c < 0x7f)
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                       "invalid JSON: unexpected '%c'", c);
    return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                   "invalid JSON: unexpected byte 0x%02x", c);
}

/* ---- meta keys ---- */

static blobc_status read_meta(bk *k, const cJSON *root) {
    bool seen_schema = false, seen_type = false;
    for (const cJSON *c = root->child; c; c = c->next) {
        const char *key = c->string;
        bool is_schema = strcmp(key, "$schema") == 0;
        if (!is_schema && strcmp(key, "$type") != 0) continue;
        bool *seen = is_schema ? &seen_schema : &seen_type;
        bk_pos pos = {0, is_schema ? JPOS_META_SCHEMA : JPOS_META_TYPE, 0};
        if (*seen)
            return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, key, strlen(key),
                           "duplicate key \"%s\"", key);
        *seen = true;
        if (!cJSON_IsString(c))
            return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, key, strlen(key),
                           "\"%s\" must be a string (%s)", key,
                           is_schema ? "the schema file's path" : "the root type's name");
        char *copy = blobc_arena_strndup(&k->arena, c->valuestring, strlen(c->valuestring));
        if (!copy) return blobc_err_nomem(k->err);
        if (is_schema) {
            k->meta_schema = copy;
            k->meta_schema_pos = pos;
        } else {
            k->meta_type = copy;
            k->meta_type_pos = pos;
        }
    }
    return BLOBC_OK;
}

static bool is_meta_key(const char *key) {
    return key[0] == '$' && (strcmp(key, "$schema") == 0 || strcmp(key, "$type") == 0);
}

/* ---- the walk ---- */

static blobc_status walk(bk *k, jstate *js) {
    const char *text = js->text;
    jtok tok;
    while (k->depth > 0) {
        bk_frame *f = bk_top(k);
        const cJSON *c = f->fe;
        if (!c) {
            blobc_status st = f->kind == BK_STRUCT ? bk_pop_struct(k)
                                                   : bk_pop_seq(k, &f->pos, NULL, NULL);
            if (st) return st;
            continue;
        }
        f->fe = c->next;
        size_t klen = 0;
        if (f->kind == BK_STRUCT) {
            klen = strlen(c->string);
            next_key(js, c->string, klen);
        }
        if (!next_value(js, &tok))
            return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_VALUE, NULL, 0,
                           "internal error: JSON token stream out of step");
        bk_pos vpos = {0, 0, tok.off};
        bk_slot slot;
        blobc_status st;
        if (f->kind == BK_STRUCT) {
            bk_pos kpos = {0, 0, js->key_off};
            const char *key = c->string;
            if (js->key_flags & JT_NUL)
                return bk_fail(k, BLOBC_EINPUT, &kpos, BK_AT_CONTAINER, NULL, 0,
                               "an object key cannot contain a NUL character (U+0000)");
            if (k->depth == 1 && is_meta_key(key)) continue; /* read up front, a string */
            st = bk_key(k, key, klen, &kpos, &slot);
        } else {
            st = bk_item(k, &vpos, &slot);
        }
        if (st) return st;

        bk_scalar v;
        memset(&v, 0, sizeof v);
        switch (c->type & 0xff) {
        case cJSON_Object:
        case cJSON_Array: {
            bool obj = (c->type & 0xff) == cJSON_Object;
            while (slot.type->kind == BLOBC_KIND_PTR)
                if ((st = bk_deref(k, &slot, &vpos, NULL))) return st;
            if (obj) {
                st = bk_push_struct(k, &slot, &vpos);
            } else {
                uint32_t n = 0;
                for (const cJSON *e = c->child; e; e = e->next) n++;
                st = bk_push_seq(k, &slot, n, &vpos);
            }
            if (st) return st;
            bk_top(k)->fe = c->child;
            continue;
        }
        case cJSON_String:
            if (tok.flags & JT_CTRL)
                return bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                               "invalid JSON: a control character in a string must be escaped");
            v.tok = BK_TOK_JSTRING;
            v.s = c->valuestring;
            /* Without escapes the value is its source text. */
            v.n = tok.flags & (JT_ESC | JT_OPEN) ? strlen(c->valuestring)
                                                 : tok.end - tok.off - 2;
            v.has_nul = (tok.flags & JT_NUL) != 0;
            v.check_utf8 = (tok.flags & JT_HIGH) != 0;
            break;
        case cJSON_Number:
            v.tok = BK_TOK_JNUMBER;
            v.s = text + tok.off;
            v.n = tok.end - tok.off;
            v.has_d = true;
            v.d = c->valuedouble;
            if (!json_number_ok(v.s, v.n)) {
                char q[200];
                bk_quote(q, sizeof q, v.s, v.n);
                return bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                               "invalid JSON number %s", q);
            }
            break;
        case cJSON_True:
        case cJSON_False:
            v.tok = BK_TOK_JBOOL;
            v.s = text + tok.off;
            v.n = tok.end - tok.off;
            break;
        default:
            v.tok = BK_TOK_JNULL;
            v.s = "null";
            v.n = 4;
            break;
        }
        if ((st = bk_store(k, &slot, &v, &vpos, NULL))) return st;
    }
    return BLOBC_OK;
}

blobc_status bk_bake_json(bk *k, const char *text, size_t len) {
    jstate js = {text, len, skip_bom(text, len), 0, 0};
    k->json = true;
    k->fe = &js;
    k->locate = json_locate;

    const char *end = NULL;
    jarena arena;
    memset(&arena, 0, sizeof arena);
    cJSON_Hooks hooks = {hook_malloc, hook_free};
    cJSON_InitHooks(&hooks);
    tls_arena = &arena;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    tls_arena = NULL;
    cJSON_InitHooks(NULL);
    if (!root) {
        size_t off = end && end >= text ? (size_t)(end - text) : len;
        blobc_status st =
            arena.failed ? blobc_err_nomem(k->err) : syntax_error(k, text, len, off);
        jarena_free(&arena);
        k->fe = NULL;
        return st;
    }
    blobc_status st = BLOBC_OK;
    size_t tail = end && end >= text ? (size_t)(end - text) : len;
    while (tail < len && is_ws(text[tail])) tail++;
    jtok tok;
    if (tail < len) {
        bk_pos pos = {0, 0, tail};
        st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                     "invalid JSON: more text after the top-level value");
    } else if (!next_value(&js, &tok)) {
        st = bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_VALUE, NULL, 0, "invalid JSON: no value");
    } else if (!cJSON_IsObject(root)) {
        bk_pos pos = {0, 0, tok.off};
        st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                     "the top level must be an object holding the root struct's fields");
    } else {
        bk_pos pos = {0, 0, tok.off};
        st = read_meta(k, root);
        if (!st) st = bk_resolve_root(k, &pos);
        if (!st) {
            bk_top(k)->fe = root->child;
            st = walk(k, &js);
        }
    }
    jarena_free(&arena); /* the whole tree */
    if (st) k->depth = 0;
    k->fe = NULL;
    k->locate = NULL;
    return st;
}
