/*
 * json.c - the JSON front end: cJSON parses the values, and an
 * explicit-stack walk feeds them to the fill stack (fill.c).
 *
 * The document is not parsed whole. The top-level object, the objects in
 * it down to the first array, and that array are read straight from the
 * text (their punctuation is checked here); every item of such an array,
 * and every other value met there, is one cJSON parse whose tree is baked
 * and dropped before the next. A level's big arrays therefore never exist
 * as a tree: memory is the text, the blob, and one item's tree, which
 * reuses the same few warm pages item after item.
 *
 * cJSON keeps no positions and stores numbers as doubles, so the walk runs
 * a light tokenizer over the same text in lockstep: every value is visited
 * in document order, and the tokenizer's next value token is that value's
 * source. That gives every error a line:column next to its JSON Pointer,
 * gives integers their exact source text (no rounding through double past
 * 2^53), and reveals what cJSON hides (a "\u0000" that would cut a string
 * short, raw control characters, non-JSON number spellings cJSON accepts).
 * The tokenizer only looks at text cJSON has accepted.
 *
 * cJSON mallocs every node and string; its allocations on this thread come
 * from a bump arena instead (cJSON_InitHooks with hooks that fall back to
 * malloc/free on any other thread), rewound before each parse.
 *
 * The root type must be known before the first value is placed, while
 * JSON allows $schema and $type anywhere in the top-level object: see
 * open_root for how that is settled without reading the file twice in
 * the usual cases.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */

#include <cjson/cJSON.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"

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
    size_t size;   /* usable bytes after the header */
    size_t mapped; /* bytes mapped at the block (mmap), 0 for malloc */
    size_t pad;    /* four words: the memory after it stays 16-byte aligned */
} jblock;

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
            b->size = want - sizeof(jblock);
            return b;
        }
    }
#endif
    jblock *b = malloc(sizeof(jblock) + size);
    if (b) {
        b->mapped = 0;
        b->size = size;
    }
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
    size_t r = (n + 7) & ~(size_t)7; /* no overflow: n is far below SIZE_MAX */
    if (r > b->size) r = b->size;
    a->cur = (char *)(b + 1) + r;
    a->left = b->size - r;
    return b + 1;
}

/* cJSON asks for nodes (pointers and a double: 8-byte alignment) and for
 * strings; every request is rounded up to 8 bytes, which keeps the bump
 * aligned without a test. This runs for every node and string baked. */
static inline void *jarena_alloc(jarena *a, size_t n) {
    size_t r = (n + 7) & ~(size_t)7;
    if (r < n || r > a->left) return jarena_grow(a, n);
    void *p = a->cur;
    a->cur += r;
    a->left -= r;
    return p;
}

/* Forgets every allocation but keeps the newest block (the largest) for
 * the next value: one value's tree at a time reuses the same few pages,
 * warm in the cache, instead of faulting in fresh ones for the whole
 * document. */
static void jarena_reset(jarena *a) {
    jblock *keep = a->head;
    if (!keep) return;
    for (jblock *b = keep->next; b;) {
        jblock *next = b->next;
        jblock_free(b);
        b = next;
    }
    keep->next = NULL;
    a->cur = (char *)(keep + 1);
    a->left = keep->size;
    a->failed = false;
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
    size_t unit_end;     /* where the value cJSON parsed last ends */
    bool meta_done;      /* the meta keys were read ahead of the data */
    bool guessed_root;   /* the root came from the schema before any $type */
    jarena arena;        /* behind cJSON: the tree of one value at a time */
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


static void json_locate(bk *k, const bk_pos *pos) {
    jstate *js = k->fe;
    uint32_t line, col;
    line_col(js->text, js->len, pos->off, &line, &col);
    blobc_err_at(k->err, NULL, line, col);
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
    k->depth = 0;
    return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0, "invalid JSON: %s", msg);
}

/* Why the parse stopped at `off`, in words. cJSON says nothing of why, so
 * the text up to there is scanned again (an error path only): for a string
 * left open, a bad escape, or nesting deeper than cJSON allows. */
static blobc_status syntax_error(bk *k, size_t off) {
    const jstate *js = k->fe;
    const char *t = js->text;
    size_t len = js->len;
    if (off >= len) return syntax_fail(k, len, "unexpected end of input");
    int depth = 0;
    size_t too_deep = SIZE_MAX;
    for (size_t i = skip_bom(t, len); i <= off && i < len;) {
        char c = t[i];
        if (c == '"') {
            unsigned fl;
            size_t end = scan_string(t, len, i, &fl);
            if (off > i && (fl & JT_OPEN)) return syntax_fail(k, i, "unterminated string");
            if (off > i && off < end)
                return syntax_fail(k, off, t[off] == '\\' ? "bad escape sequence in a string"
                                                          : "bad string");
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > CJSON_NESTING_LIMIT && too_deep == SIZE_MAX) too_deep = i;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        i++;
    }
    if (too_deep != SIZE_MAX)
        return syntax_fail(k, too_deep, "nesting is deeper than %d levels", CJSON_NESTING_LIMIT);
    /* Stopped in the last token of a text that leaves brackets open: the
     * text was cut short. */
    size_t j = off;
    while (j < len && !is_ws(t[j]) && !strchr(",:[]{}\"", t[j])) j++;
    while (j < len && is_ws(t[j])) j++;
    if (j == len && depth > 0) return syntax_fail(k, len, "unexpected end of input");
    unsigned char c = (unsigned char)t[off];
    if (c >= 0x21 && c < 0x7f) return syntax_fail(k, off, "unexpected '%c'", c);
    return syntax_fail(k, off, "unexpected byte 0x%02x", c);
}

/* cJSON parses the one value at `off` into a fresh tree (the previous
 * value's tree is gone), and unit_end records where it ends. */
static blobc_status parse_unit(bk *k, jstate *js, size_t off, cJSON **out) {
    const char *t = js->text;
    /* cJSON would skip control bytes and a byte-order mark here as if
     * they were white space. */
    if (off < js->len && ((unsigned char)t[off] <= 0x20 || (unsigned char)t[off] == 0xEF))
        return syntax_error(k, off);
    jarena_reset(&js->arena);
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(t + off, js->len - off, &end, 0);
    size_t stop = end ? off + (size_t)(end - (t + off)) : js->len;
    if (!v) return js->arena.failed ? blobc_err_nomem(k->err) : syntax_error(k, stop);
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
    jarena_reset(&js->arena);
    cJSON *kv = cJSON_ParseWithLengthOpts(js->text + i, end - i, NULL, 0);
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

/* Puts value c, whose token is tok, into slot: a scalar is stored, an
 * object or array opens a tree frame over its children. */
static blobc_status put(bk *k, jstate *js, const cJSON *c, bk_slot *slot, const jtok *tok) {
    bk_pos vpos = {0, 0, tok->off};
    bk_scalar v;
    blobc_status st;
    memset(&v, 0, sizeof v);
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
        if (st) return st;
        bk_top(k)->fe = c->child;
        return BLOBC_OK;
    }
    case cJSON_String:
        if (tok->flags & JT_CTRL)
            return bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                           "invalid JSON: a control character in a string must be escaped");
        v.tok = BK_TOK_JSTRING;
        v.s = c->valuestring;
        /* Without escapes the value is its source text. */
        v.n = tok->flags & (JT_ESC | JT_OPEN) ? strlen(c->valuestring) : tok->end - tok->off - 2;
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
            return bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                           "invalid JSON number %s", q);
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
    return bk_store(k, slot, &v, &vpos, NULL);
}

/* One child of a tree frame, or the frame's end. */
static blobc_status tree_step(bk *k, jstate *js, bk_frame *f) {
    const cJSON *c = f->fe;
    if (!c) return f->kind == BK_STRUCT ? bk_pop_struct(k) : bk_pop_seq(k, &f->pos, NULL, NULL);
    f->fe = c->next;
    size_t klen = f->kind == BK_STRUCT ? next_key(js, c->string) : 0;
    jtok tok;
    if (!next_value(js, &tok))
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_VALUE, NULL, 0,
                       "internal error: JSON token stream out of step");
    bk_slot slot;
    blobc_status st;
    if (f->kind == BK_STRUCT) {
        bk_pos kpos = {0, 0, js->key_off};
        if (js->key_flags & JT_NUL)
            return bk_fail(k, BLOBC_EINPUT, &kpos, BK_AT_CONTAINER, NULL, 0,
                           "an object key cannot contain a NUL character (U+0000)");
        st = bk_key(k, c->string, klen, &kpos, &slot);
    } else {
        bk_pos vpos = {0, 0, tok.off};
        st = bk_item(k, &vpos, &slot);
    }
    if (st) return st;
    return put(k, js, c, &slot, &tok);
}

/* The type a value finally lands in, past any *T. */
static const blobc_type *landing(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_PTR) t = t->elem;
    return t;
}

/* One member or item of a streamed frame, or the frame's end. Objects are
 * streamed from the top down to the first array, and that array too; each
 * of its items, and every other value, is parsed by cJSON on its own, so
 * the tree in memory is never more than one item of the biggest array. */
static blobc_status stream_step(bk *k, jstate *js, bk_frame *f) {
    const char *t = js->text;
    size_t len = js->len;
    bool obj = f->kind == BK_STRUCT;
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
        if (fl & JT_NUL)
            return bk_fail(k, BLOBC_EINPUT, &kpos, BK_AT_CONTAINER, NULL, 0,
                           "an object key cannot contain a NUL character (U+0000)");
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
        if (k->depth == 1) {
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
        st = bk_key(k, key, klen, &kpos, &slot);
    } else {
        bk_pos vpos = {0, 0, i};
        st = bk_item(k, &vpos, &slot);
    }
    if (st) return st;

    bk_pos vpos = {0, 0, i};
    if (obj && i < len && (t[i] == '{' || t[i] == '[')) {
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

/* Is there a top-level "$type" naming a type other than the root the data
 * is being baked as? Asked only after an error, to tell whether the error
 * came from guessing the root: nothing is reported from here. */
static bool late_type_differs(bk *k, jstate *js, size_t open) {
    const char *t = js->text;
    size_t len = js->len, i = open + 1, j;
    int which;
    while ((which = next_top_meta(js, &i, &j))) {
        if (which != 2) continue;
        jarena_reset(&js->arena);
        cJSON *v = j < len ? cJSON_ParseWithLengthOpts(t + j, len - j, NULL, 0) : NULL;
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
    if (st && st != JRESTART && st != BLOBC_ENOMEM && js->guessed_root && k->root &&
        late_type_differs(k, js, open))
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

    /* cJSON's allocations on this thread come from the arena while the
     * bake runs; the hooks fall back to malloc/free on any other. */
    cJSON_Hooks hooks = {hook_malloc, hook_free};
    cJSON_InitHooks(&hooks);
    tls_arena = &js.arena;

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
    tls_arena = NULL;
    cJSON_InitHooks(NULL);
    jarena_free(&js.arena);
    if (st) k->depth = 0;
    k->fe = NULL;
    k->locate = NULL;
    return st;
}
