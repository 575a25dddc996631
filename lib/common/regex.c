/*
 * regex.c - POSIX extended regular expressions as a Thompson NFA: the
 * pattern is parsed into a tree, the tree written out as a program of
 * instructions (counted repetitions copied, within a bound), and a search
 * runs every thread of the program in step over the text, one code point
 * at a time. No backtracking: a search costs at most the program's length
 * per code point, so no pattern can make a bake hang.
 *
 * Beyond POSIX: \d \w \s (and \D \W \S), \t \n, and backslash escapes
 * inside brackets, as most users of regular expressions expect. Matching
 * is by code point; classes like [:alpha:] are ASCII.
 */
#include "common/regex.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "common/utf8.h"

enum { OP_CHAR, OP_ANY, OP_CLASS, OP_SPLIT, OP_JMP, OP_BOL, OP_EOL, OP_MATCH };

typedef struct re_range {
    uint32_t lo, hi;
} re_range;

typedef struct re_class {
    const re_range *r;
    uint32_t n;
    bool neg;
} re_class;

typedef struct re_inst {
    uint8_t op;
    uint32_t x, y;            /* CHAR: x the code point; SPLIT: x, y; JMP: x */
    const re_class *cls;      /* CLASS */
} re_inst;

struct blobc_regex {
    const re_inst *prog;
    uint32_t n;
};

/* ---- the tree ---- */

enum { N_EMPTY, N_CHAR, N_ANY, N_CLASS, N_BOL, N_EOL, N_CAT, N_ALT, N_REP };
#define REP_INF UINT32_MAX
#define MAX_DUP 255u   /* RE_DUP_MAX */
#define MAX_GROUPS 256u

typedef struct re_node {
    uint8_t type;
    uint32_t a, b;            /* CAT, ALT: children; REP: a */
    uint32_t min, max;        /* REP */
    uint32_t c;               /* CHAR */
    const re_class *cls;      /* CLASS */
} re_node;

typedef struct re_parse {
    const char *p;
    size_t n, i;
    blobc_arena *arena;
    re_node *nodes;
    size_t nn, cap;
    re_range *rs;             /* the class being read */
    size_t nr, rcap;
    uint32_t depth;
    char *msg;
    size_t msgcap;
    size_t at;
    bool nomem;
} re_parse;

static bool fail(re_parse *rp, size_t at, const char *m) {
    if (!rp->nomem && !rp->msg[0]) {
        snprintf(rp->msg, rp->msgcap, "%s", m);
        rp->at = at;
    }
    return false;
}

static bool oom(re_parse *rp) {
    rp->nomem = true;
    rp->msg[0] = 0;
    return false;
}

static bool node(re_parse *rp, uint8_t type, uint32_t *out) {
    if (!blobc_grow((void **)&rp->nodes, &rp->cap, rp->nn + 1, sizeof *rp->nodes)) return oom(rp);
    memset(&rp->nodes[rp->nn], 0, sizeof rp->nodes[0]);
    rp->nodes[rp->nn].type = type;
    *out = (uint32_t)rp->nn++;
    return true;
}

static bool pair(re_parse *rp, uint8_t type, uint32_t a, uint32_t b, uint32_t *out) {
    if (!node(rp, type, out)) return false;
    rp->nodes[*out].a = a;
    rp->nodes[*out].b = b;
    return true;
}

static bool cp_at(re_parse *rp, uint32_t *cp, size_t *len) {
    *len = blobc_utf8_seq((const uint8_t *)rp->p + rp->i, rp->n - rp->i, cp);
    return *len ? true : fail(rp, rp->i, "the pattern is not valid UTF-8");
}

static bool add_range(re_parse *rp, uint32_t lo, uint32_t hi) {
    if (!blobc_grow((void **)&rp->rs, &rp->rcap, rp->nr + 1, sizeof *rp->rs)) return oom(rp);
    rp->rs[rp->nr++] = (re_range){lo, hi};
    return true;
}

/* The ranges of a named class ([:alpha:], \d, ...), ASCII. */
static bool add_named(re_parse *rp, const char *name) {
    static const struct {
        const char *name;
        const char *ranges; /* pairs of bytes */
    } tab[] = {
        {"alpha", "AZaz"}, {"digit", "09"}, {"alnum", "09AZaz"}, {"upper", "AZ"},
        {"lower", "az"}, {"space", "\t\r  "}, {"blank", "\t\t  "}, {"xdigit", "09AFaf"},
        {"punct", "!/:@[`{~"}, {"cntrl", "\x01\x1f\x7f\x7f"}, {"print", " ~"}, {"graph", "!~"},
        {"word", "09AZ__az"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(tab[i].name, name) != 0) continue;
        for (const char *r = tab[i].ranges; *r; r += 2)
            if (!add_range(rp, (uint8_t)r[0], (uint8_t)r[1])) return false;
        if (!strcmp(name, "cntrl") && !add_range(rp, 0, 0)) return false;
        return true;
    }
    return false;
}

static const re_class *finish_class(re_parse *rp, bool neg) {
    re_class *c = blobc_arena_alloc(rp->arena, sizeof *c);
    re_range *r = rp->nr ? blobc_arena_array(rp->arena, rp->nr, sizeof *r) : NULL;
    if (!c || (rp->nr && !r)) {
        oom(rp);
        return NULL;
    }
    if (rp->nr) memcpy(r, rp->rs, rp->nr * sizeof *r);
    *c = (re_class){r, (uint32_t)rp->nr, neg};
    return c;
}

/* \d \w \s and their negations, as a class node. */
static bool escape_class(re_parse *rp, char e, uint32_t *out) {
    const char *name = e == 'd' || e == 'D' ? "digit" : e == 'w' || e == 'W' ? "word" : "space";
    rp->nr = 0;
    if (!add_named(rp, name)) return false;
    const re_class *c = finish_class(rp, e >= 'A' && e <= 'Z');
    if (!c || !node(rp, N_CLASS, out)) return false;
    rp->nodes[*out].cls = c;
    return true;
}

/* The character after a backslash, outside brackets or in: *cp, or a class
 * letter in *cls. */
static bool read_escape(re_parse *rp, uint32_t *cp, char *cls) {
    size_t at = rp->i++;
    *cls = 0;
    if (rp->i >= rp->n) return fail(rp, at, "a '\\' ends the pattern");
    char e = rp->p[rp->i];
    if (strchr("dDwWsS", e) && e) {
        *cls = e;
        rp->i++;
        return true;
    }
    if (e == 't' || e == 'n') {
        *cp = e == 't' ? '\t' : '\n';
        rp->i++;
        return true;
    }
    if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9'))
        return fail(rp, at, "unknown escape (a backslash makes a punctuation character literal; "
                            "\\d \\w \\s \\t \\n are classes and controls)");
    size_t len;
    if (!cp_at(rp, cp, &len)) return false;
    rp->i += len;
    return true;
}

/* One member of a bracket expression: a character, or a named class. */
static bool bracket_char(re_parse *rp, uint32_t *cp, bool *named) {
    *named = false;
    if (rp->p[rp->i] == '[' && rp->i + 1 < rp->n && rp->p[rp->i + 1] == ':') {
        size_t start = rp->i + 2, end = start;
        while (end + 1 < rp->n && !(rp->p[end] == ':' && rp->p[end + 1] == ']')) end++;
        char name[16];
        if (end + 1 >= rp->n || end - start >= sizeof name)
            return fail(rp, rp->i, "unknown character class (expected [:alpha:], [:digit:], ...)");
        memcpy(name, rp->p + start, end - start);
        name[end - start] = 0;
        if (!add_named(rp, name))
            return rp->nomem ? false
                             : fail(rp, rp->i, "unknown character class (expected [:alpha:], "
                                               "[:digit:], [:alnum:], [:space:], [:upper:], "
                                               "[:lower:], [:punct:], [:xdigit:], ...)");
        rp->i = end + 2;
        *named = true;
        return true;
    }
    if (rp->p[rp->i] == '\\') {
        char cls;
        if (!read_escape(rp, cp, &cls)) return false;
        if (!cls) return true;
        *named = true;
        const char *name = cls == 'd' || cls == 'D' ? "digit" : cls == 'w' || cls == 'W' ? "word" : "space";
        if (cls >= 'A' && cls <= 'Z')
            return fail(rp, rp->i - 2, "\\D, \\W and \\S cannot stand inside brackets");
        return add_named(rp, name);
    }
    size_t len;
    if (!cp_at(rp, cp, &len)) return false;
    rp->i += len;
    return true;
}

static bool parse_bracket(re_parse *rp, uint32_t *out) {
    size_t open = rp->i++;
    bool neg = rp->i < rp->n && rp->p[rp->i] == '^';
    if (neg) rp->i++;
    rp->nr = 0;
    bool first = true;
    for (;;) {
        if (rp->i >= rp->n) return fail(rp, open, "a '[' is not closed (missing ']')");
        if (rp->p[rp->i] == ']' && !first) break;
        first = false;
        uint32_t lo, hi;
        bool named;
        if (!bracket_char(rp, &lo, &named)) return false;
        if (named) continue;
        hi = lo;
        if (rp->i + 1 < rp->n && rp->p[rp->i] == '-' && rp->p[rp->i + 1] != ']') {
            size_t at = rp->i++;
            if (!bracket_char(rp, &hi, &named)) return false;
            if (named || hi < lo) return fail(rp, at, "a range in brackets runs backwards");
        }
        if (!add_range(rp, lo, hi)) return false;
    }
    rp->i++;
    const re_class *c = finish_class(rp, neg);
    if (!c || !node(rp, N_CLASS, out)) return false;
    rp->nodes[*out].cls = c;
    return true;
}

static bool parse_alt(re_parse *rp, uint32_t *out);

static bool parse_atom(re_parse *rp, uint32_t *out) {
    char ch = rp->p[rp->i];
    if (ch == '(') {
        size_t open = rp->i++;
        if (++rp->depth > MAX_GROUPS) return fail(rp, open, "groups nest too deep");
        if (!parse_alt(rp, out)) return false;
        rp->depth--;
        if (rp->i >= rp->n || rp->p[rp->i] != ')') return fail(rp, open, "a '(' is not closed (missing ')')");
        rp->i++;
        return true;
    }
    if (ch == '[') return parse_bracket(rp, out);
    if (ch == '.' || ch == '^' || ch == '$') {
        rp->i++;
        return node(rp, ch == '.' ? N_ANY : ch == '^' ? N_BOL : N_EOL, out);
    }
    if (ch == '*' || ch == '+' || ch == '?' || ch == '{')
        return fail(rp, rp->i, "a repetition follows nothing");
    uint32_t cp;
    if (ch == '\\') {
        char cls;
        if (!read_escape(rp, &cp, &cls)) return false;
        if (cls) return escape_class(rp, cls, out);
    } else {
        size_t len;
        if (!cp_at(rp, &cp, &len)) return false;
        rp->i += len;
    }
    if (!node(rp, N_CHAR, out)) return false;
    rp->nodes[*out].c = cp;
    return true;
}

static bool read_count(re_parse *rp, uint32_t *v) {
    size_t start = rp->i;
    uint32_t x = 0;
    while (rp->i < rp->n && rp->p[rp->i] >= '0' && rp->p[rp->i] <= '9') {
        x = x * 10 + (uint32_t)(rp->p[rp->i++] - '0');
        if (x > MAX_DUP) return fail(rp, start, "a count in braces is over 255");
    }
    *v = x;
    return rp->i > start;
}

/* {m}, {m,}, {m,n} after an atom. */
static bool parse_braces(re_parse *rp, uint32_t *min, uint32_t *max) {
    size_t open = rp->i++;
    const char *want = "a '{' takes {m}, {m,} or {m,n}";
    if (!read_count(rp, min)) return fail(rp, open, want);
    *max = *min;
    if (rp->i < rp->n && rp->p[rp->i] == ',') {
        rp->i++;
        *max = REP_INF;
        if (rp->i < rp->n && rp->p[rp->i] != '}' && !read_count(rp, max)) return fail(rp, open, want);
    }
    if (rp->i >= rp->n || rp->p[rp->i] != '}') return fail(rp, open, want);
    rp->i++;
    if (*max < *min) return fail(rp, open, "a count in braces runs backwards ({m,n} with n < m)");
    return true;
}

static bool parse_piece(re_parse *rp, uint32_t *out) {
    if (!parse_atom(rp, out)) return false;
    while (rp->i < rp->n) {
        char ch = rp->p[rp->i];
        uint32_t min, max;
        if (ch == '*' || ch == '+' || ch == '?') {
            rp->i++;
            min = ch == '+' ? 1 : 0;
            max = ch == '?' ? 1 : REP_INF;
        } else if (ch == '{') {
            if (!parse_braces(rp, &min, &max)) return false;
        } else {
            break;
        }
        uint32_t r;
        if (!node(rp, N_REP, &r)) return false;
        rp->nodes[r].a = *out;
        rp->nodes[r].min = min;
        rp->nodes[r].max = max;
        *out = r;
    }
    return true;
}

static bool parse_cat(re_parse *rp, uint32_t *out) {
    if (!node(rp, N_EMPTY, out)) return false;
    while (rp->i < rp->n && rp->p[rp->i] != '|' && rp->p[rp->i] != ')') {
        uint32_t piece;
        if (!parse_piece(rp, &piece) || !pair(rp, N_CAT, *out, piece, out)) return false;
    }
    return true;
}

static bool parse_alt(re_parse *rp, uint32_t *out) {
    if (!parse_cat(rp, out)) return false;
    while (rp->i < rp->n && rp->p[rp->i] == '|') {
        rp->i++;
        uint32_t b;
        if (!parse_cat(rp, &b) || !pair(rp, N_ALT, *out, b, out)) return false;
    }
    return true;
}

/* ---- the program ---- */

typedef struct re_emit {
    re_parse *rp;
    re_inst *prog;
    uint32_t n;
} re_emit;

static bool put(re_emit *e, uint8_t op, uint32_t x, uint32_t y, uint32_t *at) {
    if (e->n >= BLOBC_REGEX_MAX_PROGRAM)
        return fail(e->rp, 0, "the pattern is too large once its repetitions are counted out");
    e->prog[e->n] = (re_inst){op, x, y, NULL};
    if (at) *at = e->n;
    e->n++;
    return true;
}

static bool emit(re_emit *e, uint32_t id);

/* x{min,max}: min copies, then max - min optional ones (or a loop). The
 * program stays within BLOBC_REGEX_MAX_PROGRAM however the counts nest. */
static bool emit_rep(re_emit *e, const re_node *nd) {
    for (uint32_t i = 0; i < nd->min; i++)
        if (!emit(e, nd->a)) return false;
    if (nd->max == REP_INF) {
        uint32_t split;
        if (!put(e, OP_SPLIT, 0, 0, &split) || !emit(e, nd->a) || !put(e, OP_JMP, split, 0, NULL))
            return false;
        e->prog[split].x = split + 1;
        e->prog[split].y = e->n;
        return true;
    }
    uint32_t splits[MAX_DUP], opt = nd->max - nd->min;
    for (uint32_t i = 0; i < opt; i++) {
        if (!put(e, OP_SPLIT, 0, 0, &splits[i]) || !emit(e, nd->a)) return false;
        e->prog[splits[i]].x = splits[i] + 1;
    }
    for (uint32_t i = 0; i < opt; i++) e->prog[splits[i]].y = e->n;
    return true;
}

/* Recursion follows the tree, whose depth the pattern's length bounds. */
static bool emit(re_emit *e, uint32_t id) {
    const re_node *nd = &e->rp->nodes[id];
    uint32_t at, jmp;
    switch (nd->type) {
    case N_EMPTY: return true;
    case N_CHAR: return put(e, OP_CHAR, nd->c, 0, NULL);
    case N_ANY: return put(e, OP_ANY, 0, 0, NULL);
    case N_BOL: return put(e, OP_BOL, 0, 0, NULL);
    case N_EOL: return put(e, OP_EOL, 0, 0, NULL);
    case N_CLASS:
        if (!put(e, OP_CLASS, 0, 0, &at)) return false;
        e->prog[at].cls = nd->cls;
        return true;
    case N_CAT: return emit(e, nd->a) && emit(e, nd->b);
    case N_ALT:
        if (!put(e, OP_SPLIT, 0, 0, &at) || !emit(e, nd->a) || !put(e, OP_JMP, 0, 0, &jmp))
            return false;
        e->prog[at].x = at + 1;
        e->prog[at].y = e->n;
        if (!emit(e, nd->b)) return false;
        e->prog[jmp].x = e->n;
        return true;
    default: return emit_rep(e, nd);
    }
}

const blobc_regex *blobc_regex_compile(const char *pat, size_t n, blobc_arena *a, char *msg,
                                       size_t cap, size_t *at) {
    re_parse rp = {pat, n, 0, a, NULL, 0, 0, NULL, 0, 0, 0, msg, cap, 0, false};
    msg[0] = 0;
    *at = 0;
    re_emit e = {&rp, NULL, 0};
    blobc_regex *re = NULL;
    uint32_t root;
    if (n > BLOBC_REGEX_MAX_PATTERN) {
        fail(&rp, 0, "the pattern is longer than 4096 bytes");
    } else if (parse_alt(&rp, &root)) {
        if (rp.i < rp.n) {
            fail(&rp, rp.i, "a ')' closes no group");
        } else if (!(e.prog = malloc(BLOBC_REGEX_MAX_PROGRAM * sizeof *e.prog))) {
            oom(&rp);
        } else if (emit(&e, root) && put(&e, OP_MATCH, 0, 0, NULL)) {
            re_inst *prog = blobc_arena_array(a, e.n, sizeof *prog);
            re = blobc_arena_alloc(a, sizeof *re);
            if (!prog || !re) {
                re = NULL;
                oom(&rp);
            } else {
                memcpy(prog, e.prog, e.n * sizeof *prog);
                re->prog = prog;
                re->n = e.n;
            }
        }
    }
    *at = rp.at;
    free(e.prog);
    free(rp.nodes);
    free(rp.rs);
    return re;
}

/* ---- the search ---- */

typedef struct re_list {
    uint32_t *pc;
    uint32_t n;
} re_list;

static bool in_class(const re_class *c, uint32_t cp) {
    bool in = false;
    for (uint32_t i = 0; i < c->n && !in; i++) in = cp >= c->r[i].lo && cp <= c->r[i].hi;
    return in != c->neg;
}

/* Adds pc and everything it reaches without reading (splits, jumps,
 * anchors that hold here) to l, each once per step (mark[pc] == gen). */
static void add(const blobc_regex *re, re_list *l, uint32_t pc, uint32_t *mark, uint32_t gen,
                uint32_t *stack, bool bol, bool eol) {
    uint32_t sp = 0;
    stack[sp++] = pc;
    while (sp) {
        pc = stack[--sp];
        if (mark[pc] == gen) continue;
        mark[pc] = gen;
        const re_inst *in = &re->prog[pc];
        switch (in->op) {
        case OP_JMP: stack[sp++] = in->x; break;
        case OP_SPLIT:
            stack[sp++] = in->y;
            stack[sp++] = in->x;
            break;
        case OP_BOL: if (bol) stack[sp++] = pc + 1; break;
        case OP_EOL: if (eol) stack[sp++] = pc + 1; break;
        default: l->pc[l->n++] = pc;
        }
    }
}

int blobc_regex_search(const blobc_regex *re, const char *s, size_t n) {
    /* Two lists, the marks, and a stack: each entry of the stack is a
     * distinct unmarked pc or its split's second way, so 2n bounds it. */
    uint32_t *mem = malloc((size_t)re->n * 6 * sizeof *mem);
    if (!mem) return -1;
    re_list cur = {mem, 0}, nxt = {mem + re->n, 0};
    uint32_t *mark = mem + 2 * (size_t)re->n, *stack = mem + 3 * (size_t)re->n;
    memset(mark, 0xff, re->n * sizeof *mark);
    uint32_t gen = 0;
    size_t i = 0;
    int found = 0;
    for (;;) {
        add(re, &cur, 0, mark, gen, stack, i == 0, i == n);
        for (uint32_t t = 0; t < cur.n && !found; t++) found = re->prog[cur.pc[t]].op == OP_MATCH;
        if (found || i == n) break;
        uint32_t cp;
        size_t len = blobc_utf8_seq((const uint8_t *)s + i, n - i, &cp);
        if (!len) len = 1, cp = (uint8_t)s[i];
        i += len;
        gen++;
        nxt.n = 0;
        for (uint32_t t = 0; t < cur.n; t++) {
            const re_inst *in = &re->prog[cur.pc[t]];
            bool ok = in->op == OP_ANY || (in->op == OP_CHAR && in->x == cp) ||
                      (in->op == OP_CLASS && in_class(in->cls, cp));
            if (ok) add(re, &nxt, cur.pc[t] + 1, mark, gen, stack, false, i == n);
        }
        re_list tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    free(mem);
    return found;
}
