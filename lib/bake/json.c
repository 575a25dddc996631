/*
 * json.c - the JSON front end: a walk over the text, with an explicit
 * stack, that feeds the fill stack (fill.c) through the tokenizer of
 * json_lex.c.
 *
 * Every value takes the same way: the tokenizer reads its token at the
 * walker's position, an object or array whose type takes it opens a frame
 * (at any depth: no C recursion), a scalar goes to bk_store with its text
 * and, for a number, the value the tokenizer converted in the same pass.
 * A value the fill stack refuses is stepped over by the tokenizer, which
 * checks its syntax on the way. Nothing of the document is ever built as
 * a tree: memory is the text, the blob, and the one escaped string decoded
 * last.
 *
 * Positions are byte offsets; line and column are computed from one only
 * when an error is reported (json_locate). A syntax error is reported at
 * the first mistake of the text, found by the tokenizer's check of the
 * whole text (an error path only): the walker notices a mistake where it
 * stands, and a data error before a syntax error is often its echo, so a
 * syntax error anywhere goes first.
 *
 * The root type must be known before the first value is placed, while
 * JSON allows $schema and $type anywhere in the top-level object: see
 * open_root for how that is settled without reading the file twice in
 * the usual cases.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/bake_internal.h"
#include "bake/json_lex.h"

typedef struct jstate {
    const char *text;
    size_t len;
    size_t cur;          /* where the walk goes on */
    size_t unit_end;     /* where the meta value read last ends */
    bool meta_done;      /* the meta keys were read ahead of the data */
    bool guessed_root;   /* the root came from the schema before any $type */
    size_t lc_off;       /* an earlier error's offset, line and line start: */
    size_t lc_start;     /* errors come in document order, so the next one */
    uint32_t lc_line;    /* is found from there */
    blobc_buffer key;    /* the last escaped key, decoded */
    blobc_buffer str;    /* the last escaped string value, decoded */
    size_t obj;          /* the '{' of the object about to open */
    blobc_buffer tag;    /* a tagged union's tag, decoded */
} jstate;

static size_t skip_bom(const char *t, size_t len) {
    return len >= 3 && (unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB &&
                   (unsigned char)t[2] == 0xBF
               ? 3
               : 0;
}

/* ---- positions and syntax errors ---- */

static void json_locate(bk *k, const bk_pos *pos) {
    jstate *js = k->fe;
    /* Several errors come in document order: go on from the last one. */
    if (js->lc_line == 0 || pos->off < js->lc_off) {
        js->lc_start = 0;
        js->lc_line = 1;
    }
    uint32_t col;
    jl_line_col(js->text, js->len, pos->off, &js->lc_line, &js->lc_start, &col);
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

/* The walk found the text wrong near `off`: the first syntax error of the
 * text is reported, in words, at the offending token (the walk has
 * checked everything before `off`, so that is usually here). */
BLOBC_NOINLINE
static blobc_status syntax_error(bk *k, size_t off) {
    const jstate *js = k->fe;
    char msg[200];
    size_t at;
    if (!jl_check(js->text, js->len, &at, msg, sizeof msg)) return syntax_fail(k, at, "%s", msg);
    /* Valid JSON as far as syntax goes: the reader stopped for a reason
     * of its own. */
    if (off >= js->len) return syntax_fail(k, js->len, "unexpected end of input");
    unsigned char c = (unsigned char)js->text[off];
    if (c >= 0x21 && c < 0x7f) return syntax_fail(k, off, "unexpected '%c'", c);
    return syntax_fail(k, off, "unexpected byte 0x%02x", c);
}

/* The string at `off`, its escapes decoded into buf when it has any:
 * *s, *n, its flags and *end (past its quote). */
static blobc_status read_string(bk *k, jstate *js, size_t off, blobc_buffer *buf, const char **s,
                                size_t *n, unsigned *flags, size_t *end) {
    const char *t = js->text;
    *end = jl_string(t, js->len, off, flags);
    if (*flags & JL_OPEN) return syntax_error(k, off);
    *s = t + off + 1;
    *n = *end - off - 2;
    if (!(*flags & JL_ESC)) return BLOBC_OK;
    bool nomem;
    if (!jl_unescape(*s, *n, buf, &nomem)) return nomem ? blobc_err_nomem(k->err) : syntax_error(k, off);
    *s = (const char *)buf->data;
    *n = buf->len;
    return BLOBC_OK;
}

/* Steps over the value at `off`, checking its syntax. */
static blobc_status skip_value(bk *k, jstate *js, size_t off) {
    if (!jl_skip(js->text, js->len, off, &js->cur)) return syntax_error(k, off);
    return BLOBC_OK;
}

/* ---- meta keys ---- */

/* 0 for a data key, else which meta key. */
static int meta_kind(const char *key, size_t n) {
    if (n == 7 && memcmp(key, "$schema", 7) == 0) return 1;
    if (n == 5 && memcmp(key, "$type", 5) == 0) return 2;
    return 0;
}

/* meta_kind of the key token at [i, end) with flags fl, its escapes
 * decoded. A key that does not decode is no meta key: the walk reports it
 * when it gets there. */
static int key_meta_kind(jstate *js, size_t i, size_t end, unsigned fl) {
    if (fl & JL_OPEN) return 0;
    if (!(fl & JL_ESC)) return meta_kind(js->text + i + 1, end - i - 2);
    bool nomem;
    if (!jl_unescape(js->text + i + 1, end - i - 2, &js->key, &nomem)) return 0;
    return meta_kind((const char *)js->key.data, js->key.len);
}

/* Reads the value at `off` of top-level meta key `which`; unit_end
 * receives where it ends. */
static blobc_status read_meta_value(bk *k, jstate *js, int which, size_t off) {
    bool is_schema = which == 1;
    const char *key = is_schema ? "$schema" : "$type";
    bk_pos pos = {0, 0, off};
    const char *s = NULL;
    size_t n = 0;
    blobc_status st;
    if (off < js->len && js->text[off] == '"') {
        unsigned fl;
        if ((st = read_string(k, js, off, &js->str, &s, &n, &fl, &js->unit_end))) return st;
    } else if (!jl_skip(js->text, js->len, off, &js->unit_end)) {
        return syntax_error(k, off);
    }
    if (is_schema ? k->meta_schema != NULL : k->meta_type != NULL)
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, key, strlen(key),
                       "duplicate key \"%s\"", key);
    if (!s)
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, key, strlen(key),
                       "\"%s\" must be a string (%s)", key,
                       is_schema ? "the schema file's path" : "the root type's name");
    char *copy = blobc_arena_strndup(&k->arena, s, strnlen(s, n));
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

/* Bytes that matter to next_top_meta: quotes and brackets. */
static const unsigned char jstruct[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/* The root type must be known before the first value is placed, and JSON
 * allows the meta keys anywhere in the top-level object, so they may be
 * read ahead: a scan that only follows strings and nesting finds the
 * object's own keys. Syntax is the walk's business; it reports errors in
 * document order later.
 * The next meta key of the top-level object, scanning from *i (inside the
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
        size_t end = jl_string(t, len, at, &fl);
        size_t j = jl_ws(t, len, end);
        int which = depth == 1 && j < len && t[j] == ':' ? key_meta_kind(js, at, end, fl) : 0;
        at = end;
        if (which) {
            *i = at;
            *value = jl_ws(t, len, j + 1);
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

/* A short array of scalars is counted before it is read, so that its
 * items are allocated once (a count costs a pass over its text: the
 * limit bounds that pass for the arrays that are not short). */
#define FLAT_COUNT_LIMIT 1024

/* Frame state: no member or item yet. */
#define JF_FIRST 1u

static blobc_status nest_check(bk *k, size_t off) {
    if (k->depth < BK_JSON_NESTING) return BLOBC_OK;
    return syntax_fail(k, off, "nesting is deeper than %d levels", BK_JSON_NESTING);
}

/* A value whose error was kept (BK_OUT_KEPT) is done with. */
static blobc_status kept(bk *k, blobc_status st) { return bk_kept(k, st) ? BLOBC_OK : st; }

/* An object or array at `off` going into slot: through any *T to the
 * value, then a frame for its members or items (a [T; N] knows its count
 * up front). A container the type does not take is stepped over. */
BLOBC_NOINLINE /* kept out of value(), which is on every scalar's way */
static blobc_status open_container(bk *k, jstate *js, size_t off, bk_slot *slot) {
    const char *t = js->text;
    bk_pos vpos = {0, 0, off};
    bool obj = t[off] == '{';
    blobc_status st = nest_check(k, off);
    if (st) return st;
    if (obj) {
        js->obj = off;
        if ((st = bk_open_union_gone(k, slot->type, &vpos)))
            return bk_kept(k, st) ? skip_value(k, js, off) : st;
    }
    while (slot->type->kind == BLOBC_KIND_PTR && !slot->type->ref)
        if ((st = bk_deref(k, slot, &vpos, NULL))) return st;
    if (obj) {
        st = bk_push_struct(k, slot, &vpos);
    } else {
        uint32_t known = UINT32_MAX;
        if (slot->type->kind == BLOBC_KIND_FIXED) {
            if (!jl_count_items(t, js->len, off, &known)) return syntax_error(k, off);
        } else if (slot->type->kind == BLOBC_KIND_ARRAY &&
                   !jl_count_flat(t, js->len, off, FLAT_COUNT_LIMIT, &known)) {
            known = UINT32_MAX; /* a long or nested array grows item by item */
        }
        st = bk_push_seq(k, slot, known, &vpos);
    }
    if (bk_kept(k, st)) return skip_value(k, js, off);
    if (st) return st;
    bk_top(k)->state = JF_FIRST;
    js->cur = off + 1;
    return BLOBC_OK;
}

/* A number-like token JSON does not allow (kept out of scalar(), whose
 * stack frame it would grow). */
BLOBC_NOINLINE
static blobc_status bad_number(bk *k, const bk_pos *vpos, const char *s, size_t n) {
    char q[200];
    bk_quote(q, sizeof q, s, n);
    return kept(k, bk_soft(k, bk_fail(k, BLOBC_EINPUT, vpos, BK_AT_VALUE, NULL, 0,
                                   "invalid JSON number %s", q)));
}

/* The scalar at `off` into slot. */
static blobc_status scalar(bk *k, jstate *js, size_t off, bk_slot *slot) {
    const char *t = js->text;
    size_t len = js->len, end;
    bk_pos vpos = {0, 0, off};
    bk_scalar v;
    blobc_status st;
    v.check_utf8 = v.has_nul = v.has_d = v.has_u = false; /* d, u: read only when has_ */
    char c = t[off];
    if (c == '"') {
        unsigned fl;
        if ((st = read_string(k, js, off, &js->str, &v.s, &v.n, &fl, &end))) return st;
        js->cur = end;
        if (fl & JL_CTRL)
            return kept(k, bk_soft(k, bk_fail(k, BLOBC_EINPUT, &vpos, BK_AT_VALUE, NULL, 0,
                                           "invalid JSON: a control character in a string "
                                           "must be escaped")));
        /* ASCII without NUL into a string field: bk_store's own way for it. */
        if (slot->type->kind == BLOBC_KIND_STRING && !(fl & (JL_NUL | JL_HIGH)))
            return kept(k, bk_soft(k, bk_store_string(k, slot, v.s, v.n, &vpos, NULL)));
        v.tok = BK_TOK_JSTRING;
        v.has_nul = (fl & JL_NUL) != 0;
        v.check_utf8 = (fl & JL_HIGH) != 0;
    } else if (c == 't' || c == 'f' || c == 'n') {
        static const char *const words[] = {"true", "false", "null"};
        const char *w = words[c == 't' ? 0 : c == 'f' ? 1 : 2];
        size_t n = c == 'f' ? 5 : 4;
        if (len - off < n || memcmp(t + off, w, n) != 0) return syntax_error(k, off);
        v.tok = c == 'n' ? BK_TOK_JNULL : BK_TOK_JBOOL;
        v.s = t + off;
        v.n = n;
        js->cur = off + n;
    } else {
        jl_num num;
        if (!jl_number(t, len, off, &num)) return syntax_error(k, off);
        js->cur = num.end;
        v.s = t + off;
        v.n = num.end - off;
        if (!num.json) return bad_number(k, &vpos, v.s, v.n);
        v.tok = BK_TOK_JNUMBER;
        v.has_u = num.has_u;
        v.u = num.u;
        v.has_d = num.has_d;
        v.d = num.d;
        if (bk_store_quick(k, slot, &v)) return BLOBC_OK;
    }
    return kept(k, bk_store(k, slot, &v, &vpos, NULL));
}

/* The value at `off` into slot. */
static inline blobc_status value(bk *k, jstate *js, size_t off, bk_slot *slot) {
    if (off >= js->len) return syntax_error(k, js->len);
    char c = js->text[off];
    if (c == '{' || c == '[') return open_container(k, js, off, slot);
    return scalar(k, js, off, slot);
}

static blobc_status key_nul(bk *k, const bk_pos *kpos) {
    return bk_soft(k, bk_fail(k, BLOBC_EINPUT, kpos, BK_AT_CONTAINER, NULL, 0,
                              "an object key cannot contain a NUL character (U+0000)"));
}

/* A meta key's value at `off` in the top-level object. */
static blobc_status meta_member(bk *k, jstate *js, int which, size_t off) {
    if (js->meta_done) return skip_value(k, js, off); /* read ahead already */
    blobc_status st = read_meta_value(k, js, which, off);
    js->cur = js->unit_end;
    if (!st && which == 2 && js->guessed_root) {
        /* A $type after data: fine if it names the root the data was
         * baked as, else the bake starts over. */
        if (blobc_schema_find(k->schema, k->meta_type) != k->root) return bk_stop(k, BK_OUT_RESTART);
        js->guessed_root = false;
    }
    return st;
}

/* The key at `off` when it spells the field the struct expects next,
 * read straight from the text (a field name is an identifier, with no
 * quote or backslash, so the text matching it is the whole key); else
 * NULL. The name and its closing quote are compared as one word where
 * the text has eight bytes left (the field's key plan). */
static const blobc_field *expected_key(const bk *k, const jstate *js, size_t off, size_t *end) {
    const bk_keyplan *kp;
    const blobc_field *fld = bk_next_field(k, &kp);
    if (!fld) return NULL;
    const char *t = js->text, *nm = fld->name;
    size_t len = js->len, j = off + 1;
    if (len - j > kp->len && len - j >= 8) {
        uint64_t w;
        memcpy(&w, t + j, 8);
        if ((w ^ kp->word) & kp->mask) return NULL;
        if (kp->len >= 8 && (memcmp(t + j + 8, nm + 8, kp->len - 8) != 0 || t[j + kp->len] != '"'))
            return NULL;
        *end = j + kp->len + 1;
        return fld;
    }
    while (j < len && *nm && t[j] == *nm) {
        j++;
        nm++;
    }
    if (*nm || j >= len || t[j] != '"') return NULL;
    *end = j + 1;
    return fld;
}

/* The member of an object whose key starts at `off`. */
static blobc_status member(bk *k, jstate *js, size_t off) {
    const char *t = js->text;
    size_t len = js->len, end, klen;
    const char *key;
    unsigned fl;
    if (off >= len || t[off] != '"') return syntax_error(k, off);
    bk_pos kpos = {0, 0, off};
    bk_slot slot;
    const blobc_field *fld = expected_key(k, js, off, &end);
    if (fld) {
        size_t i = jl_ws(t, len, end);
        if (i < len && t[i] == ':') {
            i = jl_ws(t, len, i + 1);
            blobc_status st = bk_key_field(k, fld, &kpos, &slot);
            if (bk_kept(k, st)) return skip_value(k, js, i);
            if (st) return st;
            return value(k, js, i, &slot);
        }
    }
    blobc_status st = read_string(k, js, off, &js->key, &key, &klen, &fl, &end);
    if (st) return st;
    size_t i = jl_ws(t, len, end);
    if (i >= len || t[i] != ':') return syntax_error(k, i);
    i = jl_ws(t, len, i + 1);
    if (k->depth == 1 && !(fl & JL_NUL)) {
        int which = meta_kind(key, klen);
        if (which) return meta_member(k, js, which, i);
    }
    st = fl & JL_NUL ? key_nul(k, &kpos) : bk_key(k, key, klen, &kpos, &slot);
    if (bk_kept(k, st)) return skip_value(k, js, i);
    if (st) return st;
    return value(k, js, i, &slot);
}

/* One member or item of the innermost frame, or the frame's end. */
static blobc_status step(bk *k, jstate *js, bk_frame *f) {
    const char *t = js->text;
    size_t len = js->len;
    bool obj = bk_is_map(f);
    char close = obj ? '}' : ']';
    size_t i = jl_ws(t, len, js->cur);
    if (i >= len) return syntax_error(k, len);
    if (t[i] == close) {
        js->cur = i + 1;
        return obj ? bk_pop_struct(k) : bk_pop_seq(k, &f->pos, NULL, NULL);
    }
    if (f->state & JF_FIRST) {
        f->state = 0;
    } else {
        if (t[i] != ',') return syntax_error(k, i);
        i = jl_ws(t, len, i + 1);
        if (i < len && t[i] == close) return syntax_error(k, i);
    }
    if (obj) return member(k, js, i);
    bk_pos vpos = {0, 0, i};
    bk_slot slot;
    blobc_status st;
    if (i < len && t[i] == '{') {
        js->obj = i; /* for the look ahead of an item's tags */
        st = bk_item_map(k, &vpos, &slot);
    } else {
        st = bk_item(k, &vpos, &slot);
    }
    if (bk_kept(k, st)) return skip_value(k, js, i);
    if (st) return st;
    return value(k, js, i, &slot);
}

/* Can the text hold a "$type" key at all? Only as `$type"` or with a
 * \u escape somewhere (every other spelling of its characters is one),
 * and both are found at memchr speed: most data has neither, and then
 * the key scan below is skipped. (A plan's pass over a file asks the
 * same in pieces: blobc_scan_type_key, plan.c.) */
bool bk_type_key_piece(const char *b, size_t n, size_t avail, uint64_t off, uint64_t *from) {
    for (const char *p = b, *end = b + n; (p = memchr(p, '$', (size_t)(end - p))); p++)
        if (avail - (size_t)(p - b) > 5 && memcmp(p + 1, "type\"", 5) == 0) return true;
    const char *p = b + (*from > off ? (size_t)(*from - off) : 0), *end = b + n;
    while (p < end && (p = memchr(p, '\\', (size_t)(end - p)))) {
        if (avail - (size_t)(p - b) < 2) break;
        if (p[1] == 'u') return true;
        p += 2; /* past an escaped character, which may be a '\\' */
        *from = off + (uint64_t)(p - b);
    }
    return false;
}

static bool may_spell_type_key(const char *t, size_t len) {
    uint64_t from = 0;
    return bk_type_key_piece(t, len, len, 0, &from);
}

/* Is there a top-level "$type" naming a type other than the root the data
 * is being baked as? Asked only after an error, to tell whether the error
 * came from guessing the root: nothing is reported from here. */
static bool late_type_differs(bk *k, jstate *js, size_t open) {
    const char *t = js->text;
    size_t len = js->len, i = open + 1, j;
    int which;
    if (k->type_key ? k->type_key == 1 : !may_spell_type_key(t, len)) return false;
    while ((which = next_top_meta(js, &i, &j))) {
        if (which != 2) continue;
        unsigned fl;
        bool nomem;
        if (j >= len || t[j] != '"') return true;
        size_t end = jl_string(t, len, j, &fl);
        if (fl & JL_OPEN || !jl_unescape(t + j + 1, end - j - 2, &js->str, &nomem) ||
            strcmp((const char *)js->str.data, k->root->name) != 0)
            return true;
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
    size_t i = jl_ws(t, len, open + 1);
    if (ahead) {
        if ((st = read_meta_ahead(k, js, open + 1))) return st;
    } else {
        while (i < len && t[i] == '"') {
            unsigned fl;
            size_t end = jl_string(t, len, i, &fl);
            if (fl & (JL_OPEN | JL_ESC)) break; /* the walk reads it */
            int which = meta_kind(t + i + 1, end - i - 2);
            size_t j = jl_ws(t, len, end);
            if (!which || j >= len || t[j] != ':') break;
            if ((st = read_meta_value(k, js, which, jl_ws(t, len, j + 1)))) return st;
            j = jl_ws(t, len, js->unit_end);
            if (j < len && t[j] == '}') {
                i = j;
                break;
            }
            if (j >= len || t[j] != ',') return syntax_error(k, j);
            j = jl_ws(t, len, j + 1);
            if (j < len && t[j] != '"') return syntax_error(k, j);
            i = j;
        }
        if (!(o->schema || o->schema_path) && !k->meta_schema &&
            (st = read_meta_ahead(k, js, i)))
            return st;
        js->guessed_root = !js->meta_done && !o->type_name && !k->meta_type;
    }
    if ((st = bk_resolve_root(k, &pos))) return st;
    bk_top(k)->state = JF_FIRST;
    js->cur = i;
    return BLOBC_OK;
}

static blobc_status bake_object(bk *k, jstate *js, size_t open, bool ahead) {
    blobc_status st = open_root(k, js, open, ahead);
    while (!st && k->depth > 0) st = step(k, js, bk_top(k));
    if ((st || k->nerrors) && !bk_stopped(k, st, BK_OUT_RESTART) && st != BLOBC_ENOMEM &&
        js->guessed_root && k->root && late_type_differs(k, js, open))
        st = bk_stop(k, BK_OUT_RESTART);
    if (st) return st;
    size_t tail = jl_ws(js->text, js->len, js->cur);
    if (tail < js->len) return syntax_fail(k, tail, "more text after the top-level value");
    return BLOBC_OK;
}

/* A top-level array: the items of a @stream root (a schema and root type
 * given by the options, as a bare array has no meta keys). */
static blobc_status bake_stream(bk *k, jstate *js, size_t open) {
    bk_pos pos = {0, 0, open};
    blobc_status st = bk_resolve_root(k, &pos);
    if (st) return st;
    if (!(k->root->flags & BLOBC_STRUCT_STREAM))
        return bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_CONTAINER, NULL, 0,
                       "the top level is an array, which only a @stream root takes; %s is not "
                       "one (expected an object holding its fields)",
                       k->root->name);
    bk_slot slot;
    if ((st = bk_key_field(k, &k->root->fields[0], &pos, &slot))) return st;
    if ((st = value(k, js, open, &slot))) return kept(k, st);
    while (!st && k->depth > 1) st = step(k, js, bk_top(k));
    if (!st) st = bk_pop_struct(k);
    if (st) return st;
    size_t tail = jl_ws(js->text, js->len, js->cur);
    if (tail < js->len) return syntax_fail(k, tail, "more text after the top-level value");
    return BLOBC_OK;
}

/* The members of the object about to open (at js->obj) are stepped over
 * until the key `name`: *at is where its value starts (name NULL: where
 * the first key starts). A syntax error ends the look ahead, *found
 * false: the walk reports it when it gets there. */
static blobc_status find_member(bk *k, const char *name, size_t *at, bool *found) {
    jstate *js = k->fe;
    const char *t = js->text;
    size_t len = js->len, nlen = name ? strlen(name) : 0, i = jl_ws(t, len, js->obj + 1), end;
    *found = false;
    while (i < len && t[i] == '"') {
        unsigned fl;
        end = jl_string(t, len, i, &fl);
        if (fl & JL_OPEN) return BLOBC_OK;
        const char *key = t + i + 1;
        size_t klen = end - i - 2;
        bool nomem = false;
        if ((fl & JL_ESC) && jl_unescape(key, klen, &js->tag, &nomem)) {
            key = (const char *)js->tag.data;
            klen = js->tag.len;
        }
        if (nomem) return blobc_err_nomem(k->err);
        if (!name) return *found = true, *at = i, BLOBC_OK;
        bool match = klen == nlen && memcmp(key, name, nlen) == 0;
        i = jl_ws(t, len, end);
        if (i >= len || t[i] != ':') return BLOBC_OK;
        i = jl_ws(t, len, i + 1);
        if (match) return *found = true, *at = i, BLOBC_OK;
        if (!jl_skip(t, len, i, &end)) return BLOBC_OK;
        uint64_t limit = (uint64_t)BK_AHEAD_FACTOR * len + BK_AHEAD_FLOOR;
        if ((k->ahead_work += end - i) > limit) {
            bk_pos here = {0, 0, js->obj};
            return bk_ahead_over(k, &here, limit);
        }
        i = jl_ws(t, len, end);
        if (i >= len || t[i] != ',') return BLOBC_OK;
        i = jl_ws(t, len, i + 1);
    }
    return BLOBC_OK;
}

/* The scalar at i as a tag: a string (unescaped into js->tag when
 * `unescape`), a number, else a null (an object or array, which no tag
 * is); *next is where the token ends. */
static blobc_status tag_scalar(bk *k, size_t i, bool unescape, bk_scalar *tag, size_t *next) {
    jstate *js = k->fe;
    const char *t = js->text;
    size_t len = js->len;
    memset(tag, 0, sizeof *tag);
    tag->s = t + i;
    tag->n = 1;
    tag->tok = BK_TOK_JNULL;
    *next = i;
    if (i < len && t[i] == '"') {
        unsigned fl;
        size_t end = jl_string(t, len, i, &fl);
        bool nomem = false;
        tag->tok = BK_TOK_JSTRING;
        tag->s = t + i + 1;
        tag->n = (fl & JL_OPEN) ? 0 : end - i - 2;
        *next = (fl & JL_OPEN) ? len : end;
        if (unescape && (fl & JL_ESC) && jl_unescape(tag->s, tag->n, &js->tag, &nomem)) {
            tag->s = (const char *)js->tag.data;
            tag->n = js->tag.len;
        }
        if (nomem) return blobc_err_nomem(k->err);
    } else if (i < len && (t[i] == '-' || (t[i] >= '0' && t[i] <= '9'))) {
        jl_num num;
        if (jl_number(t, len, i, &num)) {
            tag->tok = BK_TOK_JNUMBER;
            tag->n = num.end - i;
            *next = num.end;
        }
    }
    return BLOBC_OK;
}

/* The tag of a union tagged by a field (bk.find_tag): key `name`'s
 * scalar, or with name NULL the first key itself. */
static blobc_status find_tag(bk *k, const char *name, bk_scalar *tag, bk_pos *tpos, bool *found) {
    size_t at = 0, next;
    memset(tag, 0, sizeof *tag);
    blobc_status st = find_member(k, name, &at, found);
    if (st || !*found) return st;
    *tpos = (bk_pos){0, 0, at};
    return tag_scalar(k, at, true, tag, &next);
}

/* A scalar of an item's tags, as written: true, false and null spelt
 * out, so that a message shows them. */
static blobc_status list_scalar(bk *k, size_t i, bk_scalar *v, size_t *next) {
    jstate *js = k->fe;
    blobc_status st = tag_scalar(k, i, false, v, next);
    if (!st && v->tok == BK_TOK_JNULL && jl_skip(js->text, js->len, i, next)) {
        v->n = *next - i;
        v->tok = js->text[i] == 'n' ? BK_TOK_JNULL : BK_TOK_JBOOL;
    }
    return st;
}

/* An item's tags (bk.find_list): key `name`'s string, or the strings of
 * its array, as written (a tag is a name: one spelt with an escape is
 * none the schema declares, and says so). */
static blobc_status find_list(bk *k, const char *name, bk_scalar *vals, bk_pos *pos, uint32_t cap,
                              uint32_t *n, bk_pos *vpos, bool *found) {
    jstate *js = k->fe;
    const char *t = js->text;
    size_t len = js->len, at = 0, i;
    *n = 0;
    blobc_status st = find_member(k, name, &at, found);
    if (st || !*found) return st;
    *vpos = (bk_pos){0, 0, at};
    *n = UINT32_MAX;
    if (at >= len || t[at] == '{') return BLOBC_OK;
    if (t[at] != '[') {
        pos[0] = *vpos;
        *n = 1;
        return list_scalar(k, at, &vals[0], &i);
    }
    uint32_t count = 0;
    i = jl_ws(t, len, at + 1);
    if (i < len && t[i] == ']') return *n = 0, BLOBC_OK;
    while (i < len && t[i] != '{' && t[i] != '[') {
        bk_scalar v;
        size_t end;
        if ((st = list_scalar(k, i, &v, &end))) return st;
        if (count < cap) vals[count] = v, pos[count] = (bk_pos){0, 0, i};
        count++;
        i = jl_ws(t, len, end);
        if (i < len && t[i] == ']') return *n = count > cap ? cap + 1 : count, BLOBC_OK;
        if (i >= len || t[i] != ',') return BLOBC_OK;
        i = jl_ws(t, len, i + 1);
    }
    return BLOBC_OK;
}

/* The JSON front end on the current bake: the fields it needs set. */
static void begin(bk *k, jstate *js) {
    k->json = true;
    k->fe = js;
    k->locate = json_locate;
    k->find_tag = find_tag;
    k->find_list = find_list;
}

blobc_status bk_bake_json(bk *k, const char *text, size_t len) {
    jstate js;
    memset(&js, 0, sizeof js);
    js.text = text;
    js.len = len;
    begin(k, &js);

    blobc_status st;
    size_t i = jl_ws(text, len, skip_bom(text, len));
    if (i < len && text[i] == '{') {
        st = bake_object(k, &js, i, false);
        if (bk_stopped(k, st, BK_OUT_RESTART)) {
            bk_reset(k);
            if (k->err) blobc_error_clear(k->err);
            begin(k, &js);
            js.cur = js.unit_end = 0;
            js.meta_done = js.guessed_root = false;
            st = bake_object(k, &js, i, true);
        }
    } else if (i < len && text[i] == '[' && (k->opts->schema || k->opts->schema_path) &&
               jl_check(text, len, &(size_t){0}, NULL, 0)) {
        st = bake_stream(k, &js, i);
    } else {
        /* Not an object: a syntax error first, if there is one. */
        size_t end;
        if (!jl_skip(text, len, i, &end)) {
            st = syntax_error(k, i);
        } else if (end < len) {
            st = syntax_fail(k, end, "more text after the top-level value");
        } else {
            bk_pos pos = {0, 0, i};
            st = bk_fail(k, BLOBC_EINPUT, &pos, BK_AT_VALUE, NULL, 0,
                         "the top level must be an object holding the root struct's fields");
        }
    }
    if ((bk_input_failed(k, st) || (st == BLOBC_OK && k->nerrors)) && !k->syntax) {
        /* A syntax error anywhere goes first: data errors before it are
         * often its echo. */
        char msg[200];
        size_t at;
        if (!jl_check(text, len, &at, msg, sizeof msg)) st = syntax_fail(k, at, "%s", msg);
    }
    blobc_buffer_free(&js.key);
    blobc_buffer_free(&js.str);
    blobc_buffer_free(&js.tag);
    if (st) k->depth = 0;
    k->fe = NULL;
    k->locate = NULL;
    k->find_tag = NULL;
    k->find_list = NULL;
    return st;
}
