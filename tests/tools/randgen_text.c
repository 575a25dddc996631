/*
 * randgen_text.c - a case as text: the schema (whole, and split over
 * imported files), the values as YAML (anchors and aliases for shared
 * payloads, every style) and as JSON (shared payloads written out again).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

/* ---- schema text ---- */

static void fmt_int(buf *b, int k, uint64_t v) {
    if (is_signed(k)) bprintf(b, "%lld", (long long)(int64_t)v);
    else bprintf(b, "%llu", (unsigned long long)v);
}

static void spell(buf *b, const type *t) {
    switch (t->k) {
    case K_ENUM: case K_STRUCT: case K_UNION: bput(b, decls[t->decl].name); break;
    case K_STRING: bput(b, "string"); break;
    case K_ARRAY: bput(b, "["); spell(b, t->elem); bput(b, "]"); break;
    case K_FIXED: bput(b, "["); spell(b, t->elem); bprintf(b, "; %d]", t->count); break;
    case K_PTR: bput(b, "*"); spell(b, t->elem); break;
    case K_REF: bput(b, "&"); spell(b, t->elem); break;
    case K_MAP: bput(b, "["); spell(b, t->key); bput(b, ": "); spell(b, t->elem); bput(b, "]"); break;
    case K_OPT: bput(b, "?"); spell(b, t->elem); break;
    case K_ANY: bput(b, "any"); break;
    default: bput(b, kname[t->k]); break;
    }
}

/* Shortest decimal that reads back to the same float (as f32 when f32). */
static void fmt_float(char *out, size_t cap, int k, uint64_t bits, int exact) {
    double d = k == K_F32 ? (double)bits_f32((uint32_t)bits) : bits_f64(bits);
    if (exact) {
        sfmt(out, cap, "%.17g", d);
        return;
    }
    for (int p = 1; p <= 17; p++) {
        sfmt(out, cap, "%.*g", p, d);
        double back = strtod(out, NULL);
        if (k == K_F32) {
            if (f32_bits((float)back) == (uint32_t)bits && f32_bits(strtof(out, NULL)) == (uint32_t)bits)
                return;
        } else if (f64_bits(back) == bits) {
            return;
        }
    }
    sfmt(out, cap, "%.17g", d);
}

static int is_nan_bits(int k, uint64_t b) {
    return k == K_F32 ? (b & 0x7fffffffu) > 0x7f800000u
                      : (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static int is_inf_bits(int k, uint64_t b) {
    return k == K_F32 ? (b & 0x7fffffffu) == 0x7f800000u
                      : (b & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}
static int is_neg_bits(int k, uint64_t b) { return (int)(k == K_F32 ? (b >> 31) & 1 : b >> 63); }

/* A float as YAML (and schema) text. */
static void yaml_float(buf *b, int k, uint64_t bits) {
    if (is_nan_bits(k, bits)) {
        static const char *const n[] = {".nan", ".NaN", ".NAN"};
        bput(b, n[below(10) < 7 ? 0 : 1 + below(2)]);
        return;
    }
    if (is_inf_bits(k, bits)) {
        static const char *const n[] = {".inf", ".Inf", ".INF"};
        if (is_neg_bits(k, bits)) bput(b, "-");
        else if (pct(15)) bput(b, "+");
        bput(b, n[below(10) < 7 ? 0 : 1 + below(2)]);
        return;
    }
    char t[64];
    fmt_float(t, sizeof t, k, bits, pct(30));
    if (pct(15) && !strchr(t, 'e') && !strchr(t, 'n')) {
        /* digits grouped with '_' in the integer part */
        const char *s = t;
        if (*s == '-') bput_n(b, s++, 1);
        size_t nd = strspn(s, "0123456789");
        for (size_t i = 0; i < nd; i++) {
            bput_n(b, s + i, 1);
            if (i + 1 < nd && (nd - 1 - i) % 3 == 0) bput(b, "_");
        }
        bput(b, s + nd);
        return;
    }
    if (!strchr(t, 'e') && !strchr(t, '.') && pct(15)) {
        bprintf(b, pct(50) ? "%s.0" : "%s.", t); /* "5.0", "5." */
        return;
    }
    char *e = strchr(t, 'e');
    if (e && pct(15)) *e = 'E';
    if (t[0] != '-' && pct(5)) bput(b, "+");
    const char *z = t[0] == '-' ? t + 1 : t;
    if (z[0] == '0' && z[1] == '.' && pct(20)) {
        if (t[0] == '-') bput(b, "-");
        bput(b, z + 1); /* ".5" */
        return;
    }
    bput(b, t);
}

static int utf8_next(const char *s, size_t n, size_t i, uint32_t *cp);
static void yaml_int(buf *b, int k, uint64_t v);
static void yaml_string(buf *b, const char *s, size_t n, int target);

/* Which quoted-string syntax: the schema's, YAML's double quotes, JSON's. */
enum { Q_SCHEMA, Q_YAML, Q_JSON };

static int yaml_printable(uint32_t cp);

/* A double-quoted string literal, with a random choice among the escapes
 * each syntax allows for the same character. */
static void quoted(buf *b, const char *s, size_t n, int q) {
    bput(b, "\"");
    for (size_t i = 0; i < n;) {
        uint32_t c;
        int l = utf8_next(s, n, i, &c);
        i += (size_t)l;
        if (c == '"') bput(b, "\\\"");
        else if (c == '\\') bput(b, "\\\\");
        else if (c == '\n') bput(b, "\\n");
        else if (c == '\t') bput(b, q == Q_JSON || pct(50) ? "\\t" : "\t");
        else if (c == '\r') bput(b, "\\r");
        else if (q == Q_JSON && c == '/' && pct(50)) bput(b, "\\/");
        else if (q == Q_SCHEMA && (c < 0x20 || c == 0x7f)) bprintf(b, "\\u%04x", c);
        else if (q == Q_JSON && c < 0x20) bprintf(b, "\\u%04x", c);
        else if (q == Q_YAML && !yaml_printable(c)) {
            if (c < 0x100 && pct(50)) bprintf(b, "\\x%02x", c);
            else if (c < 0x10000) bprintf(b, "\\u%04x", c);
            else bprintf(b, "\\U%08x", c);
        } else if (c >= 0x80 && pct(25)) {
            if (q == Q_SCHEMA && (c > 0xffff || pct(50))) bprintf(b, "\\u{%x}", c);
            else if (c < 0x10000) bprintf(b, "\\u%04X", c);
            else if (q == Q_YAML) bprintf(b, "\\U%08X", c);
            else bprintf(b, "\\u%04x\\u%04X", 0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
        } else {
            bput_n(b, s + i - (size_t)l, (size_t)l);
        }
    }
    bput(b, "\"");
}

/* Member m's tag as a literal in syntax q: a string quoted (the
 * struct's name for a member without a tag), an integer as a number. */
static void union_tag_text(buf *b, const decl *d, int m, int q) {
    if (d->int_tags) {
        if (q == Q_JSON) fmt_int(b, K_I64, d->tagv[m]);
        else yaml_int(b, K_I64, d->tagv[m]);
        return;
    }
    const char *t = d->tags[m][0] ? d->tags[m] : decls[nenums + d->mem[m]].name;
    if (q == Q_YAML) yaml_string(b, t, strlen(t), 0);
    else quoted(b, t, strlen(t), q);
}

static void schema_default(buf *b, const field *f) {
    const val *d = f->def;
    int k = f->t->k;
    if (k == K_BOOL) bput(b, d->bits ? "true" : "false");
    else if (is_int(k)) fmt_int(b, k, d->bits);
    else if (d->ftext) bput(b, d->ftext);
    else if (k == K_F32 || k == K_F64) yaml_float(b, k, d->bits);
    else if (k == K_ENUM) {
        const decl *e = &decls[f->t->decl];
        for (int i = 0; i < e->nv; i++)
            if (e->vv[i] == d->bits) {
                bput(b, e->vn[i]);
                break;
            }
    } else if (k == K_STRING) quoted(b, d->s, d->slen, Q_SCHEMA);
}

/* One declaration, sometimes with doc comments (which change no byte). */
static void write_decl(buf *b, const decl *d) {
    if (pct(20)) bput(b, "/* a block\n   comment */\n");
    if (pct(15)) bprintf(b, "/// %s, documented.\n///\n/// A second paragraph.\n", d->name);
    if (d->is_enum) {
        bprintf(b, "enum %s : %s {", d->name, kname[d->base->k]);
        for (int i = 0; i < d->nv; i++) {
            bprintf(b, "%s%s", i ? ", " : " ", d->vn[i]);
            if (d->vexp[i]) {
                bput(b, " = ");
                yaml_int(b, d->base->k, d->vv[i]);
            }
        }
        bput(b, " }\n");
        return;
    }
    if (d->is_union) {
        bprintf(b, "%sunion %s", d->open ? "@open " : "", d->name);
        if (d->by_field) {
            bput(b, " by ");
            quoted(b, d->tagf, strlen(d->tagf), Q_SCHEMA);
        }
        if (d->dflt) {
            bput(b, " default ");
            union_tag_text(b, d, d->dflt - 1, Q_SCHEMA);
        }
        bput(b, " {");
        for (int i = 0; i < d->nm; i++) {
            bput(b, i ? ", " : " ");
            if (pct(10)) bprintf(b, "\n    /// Member %d.\n    ", i + 1);
            if (d->by_field && (d->int_tags || d->tags[i][0])) {
                union_tag_text(b, d, i, Q_SCHEMA);
                bput(b, ": ");
            }
            bput(b, decls[nenums + d->mem[i]].name);
        }
        bput(b, pct(30) ? ", }\n" : " }\n");
        return;
    }
    if (d->align_attr) bprintf(b, "@align(%d) ", d->align_attr);
    bprintf(b, "struct %s {\n", d->name);
    for (int i = 0; i < d->nf; i++) {
        const field *f = &d->f[i];
        if (pct(10)) bprintf(b, "    /// The %s field.\n", f->name);
        bprintf(b, "    %s%s: ", d->keyed && d->key == i ? "@key " : "", f->name);
        spell(b, f->t);
        if (f->def) {
            bput(b, " = ");
            schema_default(b, f);
        }
        if (f->nullable) bput(b, " = null");
        bput(b, ";");
        if (pct(10)) bput(b, " // trailing comment");
        bput(b, "\n");
    }
    bput(b, "}\n");
}

/* The same declarations spread over m.schema and 1 to 3 files it imports
 * (m-part1.schema ...), which import lower-numbered parts now and then:
 * diamonds, files imported twice, types used across files. Baked with it,
 * the data gives the same bytes as with t.schema. */
/* The name the schema's `root` declaration gives. */
static const char *root_decl_name(void) {
    return decls[root_decl_moved >= 0 ? root_decl_moved : root_type->decl].name;
}

void write_split(const char *dir, const char *main_file) {
    int nparts = 1 + (int)below(3);
    buf parts[4] = {{0}};
    bprintf(&parts[0], "// random schema split over files, seed %llu\n", cur_seed);
    for (int p = nparts; p >= 1; p--) bprintf(&parts[0], "import \"%sm-part%d.schema\";\n", pct(30) ? "./" : "", p);
    for (int p = 1; p <= nparts; p++)
        for (int q = 1; q < p; q++)
            if (pct(50)) bprintf(&parts[p], "import \"m-part%d.schema\";\n", q);
    for (int i = 0; i < ndecls; i++) write_decl(&parts[below((uint32_t)nparts + 1)], &decls[i]);
    if (has_root_decl) bprintf(&parts[0], "root %s;\n", root_decl_name());
    for (int p = 0; p <= nparts; p++) {
        char name[32];
        if (p) sfmt(name, sizeof name, "m-part%d.schema", p);
        else sfmt(name, sizeof name, "%s", main_file);
        write_file(dir, name, &parts[p]);
        free(parts[p].p);
    }
}

void schema_order(int *order) {
    for (int i = 0; i < ndecls; i++) order[i] = i;
    for (int i = ndecls - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1);
        int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
}

void write_schema(buf *b) {
    int order[MAXD];
    schema_order(order);
    bprintf(b, "// random schema, seed %llu\n", cur_seed);
    for (int oi = 0; oi < ndecls; oi++) write_decl(b, &decls[order[oi]]);
    if (has_root_decl) bprintf(b, "root %s;\n", root_decl_name());
}

/* ---- YAML ---- */

uint64_t yaml_rng;

const char *member_name(const type *t, uint64_t bits) {
    const decl *e = &decls[t->decl];
    for (int i = 0; i < e->nv; i++)
        if (e->vv[i] == bits) return e->vn[i];
    die("enum value without a member");
    return "";
}

static void yaml_int(buf *b, int k, uint64_t v) {
    int neg = is_signed(k) && (int64_t)v < 0;
    uint64_t mag = neg ? (uint64_t)0 - v : v;
    int r = (int)below(100);
    char digits[80];
    const char *prefix = "";
    if (r < 55) sfmt(digits, sizeof digits, "%llu", (unsigned long long)mag);
    else if (r < 75) {
        sfmt(digits, sizeof digits, pct(50) ? "%llx" : "%llX", (unsigned long long)mag);
        prefix = "0x";
    } else if (r < 85) {
        sfmt(digits, sizeof digits, "%llo", (unsigned long long)mag);
        prefix = "0o";
    } else if (r < 92 && mag < (UINT64_C(1) << 20)) {
        int nb = 0;
        char tmp[80];
        uint64_t m = mag;
        do {
            tmp[nb++] = (char)('0' + (m & 1));
            m >>= 1;
        } while (m);
        for (int i = 0; i < nb; i++) digits[i] = tmp[nb - 1 - i];
        digits[nb] = 0;
        prefix = "0b";
    } else {
        sfmt(digits, sizeof digits, "%llu", (unsigned long long)mag);
    }
    if (neg || (mag == 0 && pct(10))) bput(b, "-"); /* "-0" is 0 */
    else if (pct(5)) bput(b, "+");
    bput(b, prefix);
    size_t nd = strlen(digits);
    int group = pct(20) ? 1 + (int)below(4) : 0;
    for (size_t i = 0; i < nd; i++) {
        bput_n(b, digits + i, 1);
        if (group && i + 1 < nd && (nd - 1 - i) % (size_t)group == 0) bput(b, "_");
    }
}

static int utf8_next(const char *s, size_t n, size_t i, uint32_t *cp) {
    unsigned char c = (unsigned char)s[i];
    int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (i + (size_t)len > n) len = 1;
    uint32_t v = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (int j = 1; j < len; j++) v = (v << 6) | ((unsigned char)s[i + (size_t)j] & 0x3f);
    *cp = v;
    return len;
}

/* Characters YAML takes as they are in any scalar style. */
static int yaml_printable(uint32_t cp) {
    if (cp >= 0x20 && cp < 0x7f) return 1;
    if (cp < 0xa0) return 0;
    return cp != 0x2028 && cp != 0x2029 && cp != 0xfeff;
}

/* Plain text YAML reads back as the same characters. For a string field
 * every plain scalar is text, "null", "true" and "~" included. */
static int plain_ok(const char *s, size_t n) {
    if (n == 0) return 0;
    if (n == 1 && s[0] == '~') return 1;
    unsigned char c0 = (unsigned char)s[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 >= 0xc0 ||
          (c0 >= '0' && c0 <= '9')))
        return 0;
    if (s[n - 1] == ' ') return 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (cp < 0x80 && !((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
                           (cp >= '0' && cp <= '9') || cp == '_' || cp == ' ' || cp == '.'))
            return 0;
        if (cp >= 0x80 && !yaml_printable(cp)) return 0;
        i += (size_t)l;
    }
    return 1;
}

static int single_ok(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (!yaml_printable(cp)) return 0;
        i += (size_t)l;
    }
    return 1;
}

/* Whether an any's string stays a string written plain: no null, no
 * boolean, no number (the bake reads an any's plain scalars as YAML's core
 * schema does). */
static int any_plain_ok(const char *s, size_t n) {
    static const char *const words[] = {"null", "Null", "NULL", "true",  "True",
                                        "TRUE", "false", "False", "FALSE"};
    if (!plain_ok(s, n) || (s[0] >= '0' && s[0] <= '9') || (n == 1 && s[0] == '~')) return 0;
    for (size_t i = 0; i < NELEM(words); i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0) return 0;
    return 1;
}

/* target: 1 where a plain null is null (a pointer's target, a present
 * optional), 2 where any plain scalar but text is something else (an
 * any). */
static void yaml_string(buf *b, const char *s, size_t n, int target) {
    static const char *const nulls[] = {"null", "Null", "NULL", "~"};
    int is_null = 0;
    for (size_t i = 0; i < NELEM(nulls); i++)
        is_null |= strlen(nulls[i]) == n && memcmp(nulls[i], s, n) == 0;
    int plain = target == 2 ? any_plain_ok(s, n) : plain_ok(s, n) && !(target && is_null);
    int r = (int)below(100);
    if (r < 45 && plain) {
        bput_n(b, s, n);
    } else if (r < 70 && single_ok(s, n)) {
        bput(b, "'");
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\'') bput(b, "''");
            else bput_n(b, s + i, 1);
        }
        bput(b, "'");
    } else {
        quoted(b, s, n, Q_YAML);
    }
}

/* A literal block scalar keeps every line as is; only for text whose lines
 * need no escapes and do not begin with a space. */
static int literal_ok(const char *s, size_t n) {
    if (n == 0 || !memchr(s, '\n', n)) return 0;
    if (s[n - 1] == '\n') return 0;
    int at_line_start = 1;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int l = utf8_next(s, n, i, &cp);
        if (cp == '\n') {
            if (at_line_start) return 0;
            at_line_start = 1;
        } else {
            if (!yaml_printable(cp) || (at_line_start && cp == ' ')) return 0;
            at_line_start = 0;
        }
        i += (size_t)l;
    }
    return 1;
}

static void yaml_null(buf *b);

/* The i-th item of an array in the text (a keyed array's are not sorted
 * there, nor are a map's entries). */
static val *text_item(const val *v, int i) { return v->it[v->tord ? v->tord[i] : i]; }

/* An any's float: the shortest text that reads back, always with a '.'
 * or an exponent, so that it stays a float. */
static void any_float(char *out, size_t cap, uint64_t bits) {
    fmt_float(out, cap - 3, K_F64, bits, pct(30));
    if (!strpbrk(out, ".e")) strcat(out, ".0");
}

static void yaml_any_scalar(buf *b, const val *v) {
    static const char *const words[2][3] = {{"false", "False", "FALSE"}, {"true", "True", "TRUE"}};
    char t[64];
    switch (v->ak) {
    case A_NULL: yaml_null(b); break;
    case A_BOOL: bput(b, words[v->bits][pct(70) ? 0 : 1 + below(2)]); break;
    case A_INT: yaml_int(b, K_I64, v->bits); break;
    case A_UINT: yaml_int(b, K_U64, v->bits); break;
    case A_FLOAT: {
        any_float(t, sizeof t, v->bits);
        char *e = strchr(t, 'e');
        if (e && pct(15)) *e = 'E';
        bput(b, t);
        break;
    }
    default: yaml_string(b, v->s, v->slen, 2); break;
    }
}

static void yaml_scalar(buf *b, const val *v, int target) {
    const type *t = v->t;
    int k = t->k;
    if (k == K_REF) {
        /* its target's key; a string key's plain null would be no target */
        if (v->target) yaml_scalar(b, key_of(v->target), 1);
        else yaml_null(b);
    } else if (k == K_ANY) yaml_any_scalar(b, v);
    else if (k == K_BOOL) bput(b, v->bits ? "true" : "false");
    else if (is_int(k)) yaml_int(b, k, v->bits);
    else if (v->ftext) bput(b, v->ftext);
    else if (k == K_F32 || k == K_F64) yaml_float(b, k, v->bits);
    else if (k == K_ENUM) {
        const char *m = member_name(t, v->bits);
        if (pct(15)) bprintf(b, pct(50) ? "\"%s\"" : "'%s'", m);
        else bput(b, m);
    } else if (k == K_STRING) yaml_string(b, v->s, v->slen, target);
}

static const field *fld(const val *v, int i) { return &decls[v->t->decl].f[i]; }

/* Whether the text of v0 is another value's: a pointer's target, a
 * present optional's value, where null means null or absent. */
static int wrapped(const val *v0) { return v0->t->k == K_PTR || v0->t->k == K_OPT; }

/* What a node is in the text: a pointer is its target, an optional its
 * value (or null). */
static const val *node_of(const val *v) { return wrapped(v) ? (v->n ? v->it[0] : NULL) : v; }

/* The @open union tagged by a field that a null pointer or an absent
 * optional v0 stands for, NULL when it is none: such a union's unknown
 * tag is written for it now and then, which the bake takes as null. */
static const decl *open_of(const val *v0) {
    const type *e = wrapped(v0) ? v0->t->elem : NULL;
    if (!e || e->k != K_UNION) return NULL;
    const decl *d = &decls[e->decl];
    return d->open && d->by_field ? d : NULL;
}

/* Field i of struct value v left out of the text (it holds its default, an
 * empty array or map, null or absent), or written as null (omit 2), which
 * means the same. Never a node that is aliased: its anchor is needed. */
static int omitted(const val *v, int i) {
    const val *n = node_of(v->it[i]);
    return v->omit[i] == 1 && !(n && n->refs > 1);
}

static int as_null(const val *v, int i) {
    const val *n = node_of(v->it[i]);
    return v->omit[i] == 2 && !(n && n->refs > 1);
}

static int n_present(const val *v) {
    int n = 0;
    for (int i = 0; i < v->n; i++) n += !omitted(v, i);
    return n;
}

static int is_seq(const val *v) {
    return v->t->k == K_ARRAY || v->t->k == K_FIXED || (v->t->k == K_ANY && v->ak == A_LIST);
}

/* Written as a mapping with keys of its own: a map, an any's mapping. */
static int is_keyed_map(const val *v) {
    return v->t->k == K_MAP || (v->t->k == K_ANY && v->ak == A_MAP);
}

static int is_collection(const val *v) {
    return v && (v->t->k == K_STRUCT || is_seq(v) || is_keyed_map(v));
}

static int is_empty_collection(const val *v) {
    if (v->t->k == K_STRUCT) return n_present(v) == 0;
    return v->n == 0;
}

static void yaml_key(buf *b, const char *name) {
    if (pct(8)) bprintf(b, "\"%s\"", name);
    else if (pct(5)) bprintf(b, "'%s'", name);
    else bput(b, name);
}

/* A map's key as the key type reads it. */
static void yaml_map_key(buf *b, const val *k) {
    if (k->t->k == K_STRING) yaml_string(b, k->s, k->slen, 0);
    else yaml_scalar(b, k, 0);
}

static void yaml_null(buf *b) { bput(b, pct(70) ? "null" : "~"); }

/* Writes the anchor or alias of a shared payload; returns 1 for an alias. */
static int yaml_anchors;

static int yaml_anchor(buf *b, val *n, const char *sep) {
    if (n->refs < 2) return 0;
    if (n->emitted) {
        bprintf(b, "*a%d", n->anchor);
        return 1;
    }
    n->emitted = 1;
    n->anchor = yaml_anchors++;
    bprintf(b, "&a%d%s", n->anchor, sep);
    return 0;
}

const char *union_member(const val *u) {
    return decls[nenums + decls[u->t->decl].mem[u->tag - 1]].name;
}

static const decl *udecl(const val *u) { return &decls[u->t->decl]; }

/* Where the tag goes among the np keys of tagged union u's member: -1
 * nowhere (the default member's mapping may leave it out). */
static int tag_at(const val *u, int np) {
    if (!u) return -1;
    if (udecl(u)->dflt == u->tag && pct(40)) return -1;
    return (int)below((uint32_t)np + 1);
}

/* The tag field's key (quoted where a plain scalar cannot start so). */
static void yaml_tag_key(buf *b, const decl *d) {
    if (d->tagf[0] == '@') bprintf(b, "\"%s\"", d->tagf);
    else yaml_key(b, d->tagf);
}

/* A tag of d's tag field that names no member. */
static void unknown_tag(buf *b, const decl *d, int q) {
    if (!d->int_tags) {
        bput(b, q == Q_JSON ? "\"nope\"" : pct(50) ? "nope" : "'nope'");
        return;
    }
    uint64_t x = 5000;
    for (int used = 1; used;) {
        used = 0;
        for (int m = 0; m < d->nm; m++) used |= d->tagv[m] == x;
        x += used;
    }
    fmt_int(b, K_I64, x);
}

/* An @open union's mapping with a tag it lacks: the bake skips it. */
static void yaml_unknown_flow(buf *b, const decl *d) {
    bput(b, "{");
    if (pct(50)) bput(b, "left: [1, {out: x}], ");
    yaml_tag_key(b, d);
    bput(b, ": ");
    unknown_tag(b, d, Q_YAML);
    if (pct(50)) bput(b, ", also: out");
    bput(b, "}");
}

static void yaml_tag_pair(buf *b, const val *u) {
    yaml_tag_key(b, udecl(u));
    bput(b, ": ");
    union_tag_text(b, udecl(u), u->tag - 1, Q_YAML);
}

static void yaml_flow(buf *b, const val *v0);

static void yaml_field_flow(buf *b, const val *v, int i) {
    if (as_null(v, i)) yaml_null(b);
    else yaml_flow(b, v->it[i]);
}

/* A struct in flow style; tu: the tagged union whose member it is, its
 * tag the at-th key (tag_at). */
static void yaml_flow_fields(buf *b, const val *v, const val *tu, int at) {
    bput(b, "{");
    int p = 0, c = 0; /* present fields passed, keys written */
    for (int j = 0; j <= v->n; j++) {
        int i = j < v->n ? v->order[j] : -1;
        if (i >= 0 && omitted(v, i)) continue;
        if (p++ == at) {
            bput(b, !c++ ? "" : pct(80) ? ", " : ",");
            yaml_tag_pair(b, tu);
        }
        if (i < 0) break;
        bput(b, !c++ ? "" : pct(80) ? ", " : ",");
        yaml_key(b, fld(v, i)->name);
        bput(b, ": ");
        yaml_field_flow(b, v, i);
    }
    bput(b, "}");
}

/* A union: {Member: payload}, or the member's mapping holding its tag,
 * or null (or an unknown tag of an @open union) for none. */
static void yaml_union_flow(buf *b, const val *u) {
    if (yaml_anchor(b, (val *)u, " ")) return; /* a shared *U target */
    const decl *d = udecl(u);
    if (!u->n) {
        if (d->open && pct(50)) yaml_unknown_flow(b, d);
        else yaml_null(b);
        return;
    }
    if (d->by_field) {
        yaml_flow_fields(b, u->it[0], u, tag_at(u, n_present(u->it[0])));
        return;
    }
    bput(b, "{");
    yaml_key(b, union_member(u));
    bput(b, ": ");
    yaml_flow(b, u->it[0]);
    bput(b, "}");
}

static void yaml_flow(buf *b, const val *v0) {
    val *v = (val *)node_of(v0);
    if (v && v->t->k == K_UNION) {
        yaml_union_flow(b, v);
        return;
    }
    if (!v) {
        if (open_of(v0) && pct(30)) yaml_unknown_flow(b, open_of(v0));
        else yaml_null(b);
        return;
    }
    if (yaml_anchor(b, v, " ")) return;
    if (v->t->k == K_STRUCT) {
        yaml_flow_fields(b, v, NULL, -1);
    } else if (is_seq(v)) {
        bput(b, "[");
        for (int i = 0; i < v->n; i++) {
            if (i) bput(b, pct(80) ? ", " : ",");
            yaml_flow(b, text_item(v, i));
        }
        bput(b, "]");
    } else if (is_keyed_map(v)) {
        bput(b, "{");
        for (int j = 0; j < v->n; j++) {
            int i = v->tord[j];
            if (j) bput(b, pct(80) ? ", " : ",");
            yaml_map_key(b, v->keys[i]);
            bput(b, ": ");
            yaml_flow(b, v->it[i]);
        }
        bput(b, "}");
    } else {
        yaml_scalar(b, v, wrapped(v0));
    }
}

static void yaml_block(buf *b, const val *v, int indent, int skip_first_pad);
static void yaml_block_fields(buf *b, const val *v, int indent, int skip_first_pad, const val *tu,
                              int at);

static int single_ok(const char *s, size_t n);

/* The end of a line, now and then with a comment. */
static void yaml_eol(buf *b) { bput(b, pct(4) ? "  # a comment\n" : "\n"); }

/* Text a folded block scalar can hold: one line of printable characters
 * with single spaces to fold at, no space at either end. */
static int folded_ok(const char *s, size_t n) {
    return n >= 3 && s[0] != ' ' && s[n - 1] != ' ' && memchr(s, ' ', n) && single_ok(s, n);
}

static void yaml_after(buf *b, const val *v0, int indent, int after_dash);

/* A union after "key:" or "-" (yaml_after). */
static void yaml_union_after(buf *b, const val *u, int indent, int after_dash) {
    /* none: null or an empty value; a member: its single-key mapping, or
     * its own mapping holding the tag, in flow or block style */
    if (!u->n && !after_dash && pct(10)) {
        bput(b, "\n");
        return;
    }
    if (!u->n || u->refs > 1 || pct(30)) {
        /* (an anchor in block style would go to the member's key) */
        bput(b, " ");
        yaml_union_flow(b, u);
        yaml_eol(b);
        return;
    }
    if (udecl(u)->by_field) {
        int at = tag_at(u, n_present(u->it[0]));
        if (at < 0 && !n_present(u->it[0])) {
            bput(b, " {}\n");
            return;
        }
        bput(b, after_dash ? " " : "\n");
        yaml_block_fields(b, u->it[0], indent + 2, after_dash, u, at);
        return;
    }
    if (after_dash) {
        bput(b, " ");
    } else {
        bput(b, "\n");
        pad(b, indent + 2);
    }
    yaml_key(b, union_member(u));
    bput(b, ":");
    yaml_after(b, u->it[0], indent + 2, 0);
}

/* A string or an any's string as a block scalar, when it can be one. */
static int yaml_block_scalar(buf *b, const val *v, int indent) {
    if (v->t->k != K_STRING && !(v->t->k == K_ANY && v->ak == A_STRING)) return 0;
    if (literal_ok(v->s, v->slen) && pct(60)) {
        bput(b, "|-\n");
        const char *s = v->s;
        size_t n = v->slen, i = 0;
        while (i <= n) {
            const char *nl = memchr(s + i, '\n', n - i);
            size_t e = nl ? (size_t)(nl - s) : n;
            pad(b, indent + 2);
            bput_n(b, s + i, e - i);
            bput(b, "\n");
            i = e + 1;
        }
        return 1;
    }
    if (folded_ok(v->s, v->slen) && pct(40)) {
        /* ">-" folds each line break between two lines into a space */
        bput(b, ">-\n");
        pad(b, indent + 2);
        for (size_t i = 0; i < v->slen; i++) {
            if (v->s[i] == ' ' && v->s[i - 1] != ' ' && v->s[i + 1] != ' ' && pct(50)) {
                bput(b, "\n");
                pad(b, indent + 2);
            } else {
                bput_n(b, v->s + i, 1);
            }
        }
        bput(b, "\n");
        return 1;
    }
    return 0;
}

/* Writes the node after "key:" or "-" (the cursor right after the colon or
 * dash) up to and including its last newline. */
static void yaml_after(buf *b, const val *v0, int indent, int after_dash) {
    if (node_of(v0) && node_of(v0)->t->k == K_UNION) {
        /* *U, ?U: the union value (a member: a null pointer or an absent
         * optional has no union) */
        yaml_union_after(b, node_of(v0), indent, after_dash);
        return;
    }
    if (v0->t->k == K_REF) {
        if (!v0->target && !after_dash && pct(10)) {
            bput(b, "\n"); /* null */
            return;
        }
        bput(b, " ");
        yaml_scalar(b, v0, 1);
        yaml_eol(b);
        return;
    }
    val *v = (val *)node_of(v0);
    if (!v || (v->t->k == K_ANY && v->ak == A_NULL)) {
        if (!v && open_of(v0) && pct(30)) {
            bput(b, " ");
            yaml_unknown_flow(b, open_of(v0));
            yaml_eol(b);
            return;
        }
        if (!after_dash && pct(10)) {
            bput(b, "\n"); /* an empty value is null too */
            return;
        }
        bput(b, " ");
        yaml_null(b);
        bput(b, "\n");
        return;
    }
    if (v->refs > 1 && v->emitted) {
        bprintf(b, " *a%d\n", v->anchor);
        return;
    }
    /* A pointer's target, an optional's value is never written as null or
     * an empty value: that would be a null pointer, an absent optional. */
    int target = wrapped(v0);
    int empty = (v->t->k == K_ARRAY || v->t->k == K_MAP) && v->n == 0;
    if (v->refs < 2 && !after_dash && !target && pct(15) &&
        ((v->t->k == K_STRING && v->slen == 0) || empty)) {
        bput(b, "\n"); /* an empty value: the empty string, the empty array */
        return;
    }
    if (v->refs < 2 && empty && !target && pct(20)) {
        bput(b, " ");
        yaml_null(b);
        bput(b, "\n");
        return;
    }
    if (!is_collection(v)) {
        bput(b, " ");
        yaml_anchor(b, v, " ");
        if (yaml_block_scalar(b, v, indent)) return;
        yaml_scalar(b, v, target);
        yaml_eol(b);
        return;
    }
    if (is_empty_collection(v) || pct(25)) {
        bput(b, " ");
        yaml_flow(b, v);
        yaml_eol(b);
        return;
    }
    if (v->refs > 1) {
        bput(b, " ");
        yaml_anchor(b, v, "");
        bput(b, "\n");
        yaml_block(b, v, indent + 2, 0);
        return;
    }
    if (after_dash && pct(50)) {
        bput(b, " ");
        yaml_block(b, v, indent + 2, 1);
        return;
    }
    if (!after_dash && is_seq(v) && pct(40)) {
        bput(b, "\n");
        yaml_block(b, v, indent, 0); /* a sequence may sit at its key's indent */
        return;
    }
    bput(b, "\n");
    yaml_block(b, v, indent + 2, 0);
}

static void yaml_field_after(buf *b, const val *v, int i, int indent) {
    if (!as_null(v, i)) {
        yaml_after(b, v->it[i], indent, 0);
        return;
    }
    bput(b, " ");
    yaml_null(b);
    bput(b, "\n");
}

static void yaml_block_fields(buf *b, const val *v, int indent, int skip_first_pad, const val *tu,
                              int at) {
    int c = 0;
    for (int j = 0; j <= v->n; j++) {
        int i = j < v->n ? v->order[j] : -1;
        if (i >= 0 && omitted(v, i)) continue;
        if (c++ == at) {
            if (!skip_first_pad) pad(b, indent);
            skip_first_pad = 0;
            yaml_tag_pair(b, tu);
            yaml_eol(b);
        }
        if (i < 0) break;
        if (!skip_first_pad && pct(3)) {
            pad(b, indent);
            bput(b, "# a comment line\n");
        }
        if (!skip_first_pad) pad(b, indent);
        skip_first_pad = 0;
        yaml_key(b, fld(v, i)->name);
        bput(b, ":");
        yaml_field_after(b, v, i, indent);
    }
}

static void yaml_block(buf *b, const val *v, int indent, int skip_first_pad) {
    if (v->t->k == K_STRUCT) {
        yaml_block_fields(b, v, indent, skip_first_pad, NULL, -1);
    } else if (is_keyed_map(v)) {
        for (int j = 0; j < v->n; j++) {
            int i = v->tord[j];
            if (!skip_first_pad) pad(b, indent);
            skip_first_pad = 0;
            yaml_map_key(b, v->keys[i]);
            bput(b, ":");
            yaml_after(b, v->it[i], indent, 0);
        }
    } else {
        for (int i = 0; i < v->n; i++) {
            if (!skip_first_pad) pad(b, indent);
            skip_first_pad = 0;
            bput(b, "-");
            yaml_after(b, text_item(v, i), indent, 1);
        }
    }
}

static void clear_emitted(val *v) {
    v->emitted = 0;
    yaml_anchors = 0;
    if (v->t->k == K_STRING) return;
    for (int i = 0; i < v->n; i++) clear_emitted(v->it[i]);
}

void write_yaml(buf *b) {
    clear_emitted(root);
    const char *rn = decls[root_type->decl].name;
    if (pct(20)) bput(b, "# random data\n");
    if (pct(15)) bput(b, "---\n");
    if (pct(15)) {
        bput(b, "{$schema: t.schema");
        if (!has_root_decl) bprintf(b, ", $type: %s", rn);
        for (int j = 0; j < root->n; j++) {
            int i = root->order[j];
            if (omitted(root, i)) continue;
            bput(b, ", ");
            yaml_key(b, fld(root, i)->name);
            bput(b, ": ");
            yaml_field_flow(b, root, i);
        }
        bput(b, "}\n");
        return;
    }
    /* YAML is streamed: the meta keys come before the first data key */
    int tfirst = !has_root_decl && pct(30);
    if (tfirst) bprintf(b, "$type: \"%s\"\n", rn);
    bput(b, pct(20) ? "\"$schema\": t.schema\n" : pct(20) ? "$schema: 't.schema'\n" : "$schema: t.schema\n");
    if (!has_root_decl && !tfirst) bprintf(b, "$type: %s\n", rn);
    if (n_present(root)) yaml_block(b, root, 0, 0);
    if (pct(10)) bput(b, "...\n");
}

/* Line breaks as CRLF, now and then; no scalar holds a raw line break
 * except block scalars, whose line breaks read back as LF anyway. */
void crlf(buf *b) {
    if (!pct(10)) return;
    buf o = {0};
    for (size_t i = 0; i < b->n; i++) bput(&o, b->p[i] == '\n' ? "\r\n" : (char[2]){b->p[i], 0});
    free(b->p);
    *b = o;
}

/* ---- JSON (every shared payload written out again) ---- */

/* A JSON number or true/false: a string field takes it as its text. */
static int json_bare_ok(const char *s, size_t n) {
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0)) return 1;
    size_t i = 0, d;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0') i++;
    else {
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d || s[i - d] == '0') return 0;
    }
    if (i < n && s[i] == '.') {
        i++;
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) d++;
        if (!d) return 0;
    }
    return i == n;
}

static void json_val(buf *b, const val *v0, int indent, int pretty);

/* Before the next member or item of an object or array. */
static void json_sep(buf *b, int *first, int indent, int pretty) {
    bput(b, *first ? "" : ",");
    *first = 0;
    if (pretty) {
        bput(b, "\n");
        pad(b, indent + 2);
    }
}

static void json_end(buf *b, int first, int indent, int pretty, const char *close) {
    if (pretty && !first) {
        bput(b, "\n");
        pad(b, indent);
    }
    bput(b, close);
}

static void json_key(buf *b, const char *s, size_t n, int pretty) {
    quoted(b, s, n, Q_JSON);
    bput(b, pretty ? ": " : ":");
}

/* A struct's object; tu: the tagged union whose member it is (its tag a
 * member of the object too, tag_at). */
static void json_fields(buf *b, const val *v, const val *tu, int indent, int pretty) {
    int at = tag_at(tu, n_present(v)), p = 0, first = 1;
    bput(b, "{");
    for (int j = 0; j <= v->n; j++) {
        int i = j < v->n ? v->order[j] : -1;
        if (i >= 0 && omitted(v, i)) continue;
        if (p++ == at) {
            json_sep(b, &first, indent, pretty);
            json_key(b, udecl(tu)->tagf, strlen(udecl(tu)->tagf), pretty);
            union_tag_text(b, udecl(tu), tu->tag - 1, Q_JSON);
        }
        if (i < 0) break;
        json_sep(b, &first, indent, pretty);
        json_key(b, fld(v, i)->name, strlen(fld(v, i)->name), pretty);
        if (as_null(v, i)) bput(b, "null");
        else json_val(b, v->it[i], indent + 2, pretty);
    }
    json_end(b, first, indent, pretty, "}");
}

static void json_unknown(buf *b, const decl *d, int pretty) {
    bput(b, "{");
    if (pct(50)) bput(b, "\"left\": [1, {\"out\": null}], ");
    json_key(b, d->tagf, strlen(d->tagf), pretty);
    unknown_tag(b, d, Q_JSON);
    bput(b, "}");
}

/* A map's key: JSON keys are strings, an integer key its digits. */
static void json_map_key(buf *b, const val *k, int pretty) {
    if (k->t->k == K_STRING) {
        json_key(b, k->s, k->slen, pretty);
        return;
    }
    if (k->t->k == K_ENUM) bprintf(b, "\"%s\"", member_name(k->t, k->bits));
    else {
        bput(b, "\"");
        fmt_int(b, k->t->k, k->bits);
        bput(b, "\"");
    }
    bput(b, pretty ? ": " : ":");
}

static void json_any_scalar(buf *b, const val *v) {
    char t[64];
    switch (v->ak) {
    case A_NULL: bput(b, "null"); break;
    case A_BOOL: bput(b, v->bits ? "true" : "false"); break;
    case A_INT: fmt_int(b, K_I64, v->bits); break;
    case A_UINT: fmt_int(b, K_U64, v->bits); break;
    case A_FLOAT: any_float(t, sizeof t, v->bits); bput(b, t); break;
    default: quoted(b, v->s, v->slen, Q_JSON); break;
    }
}

static void json_val(buf *b, const val *v0, int indent, int pretty) {
    const val *v = node_of(v0);
    if (!v) {
        if (open_of(v0) && pct(30)) json_unknown(b, open_of(v0), pretty);
        else bput(b, "null");
        return;
    }
    int k = v->t->k;
    if (k == K_UNION) {
        const decl *d = udecl(v);
        if (!v->n) {
            if (d->open && pct(50)) json_unknown(b, d, pretty);
            else bput(b, "null");
            return;
        }
        if (d->by_field) {
            json_fields(b, v->it[0], v, indent, pretty);
            return;
        }
        const char *m = union_member(v);
        bput(b, "{");
        json_key(b, m, strlen(m), pretty);
        json_val(b, v->it[0], indent + 2, pretty);
        bput(b, "}");
        return;
    }
    if (k == K_REF) {
        if (v->target) json_val(b, key_of(v->target), indent, pretty);
        else bput(b, "null");
        return;
    }
    if (k == K_STRUCT) {
        json_fields(b, v, NULL, indent, pretty);
        return;
    }
    if (is_seq(v) || is_keyed_map(v)) {
        int first = 1, map = is_keyed_map(v);
        bput(b, map ? "{" : "[");
        for (int j = 0; j < v->n; j++) {
            int i = v->tord ? v->tord[j] : j;
            json_sep(b, &first, indent, pretty);
            if (map) json_map_key(b, v->keys[i], pretty);
            json_val(b, v->it[i], indent + 2, pretty);
        }
        json_end(b, first, indent, pretty, map ? "}" : "]");
        return;
    }
    if (k == K_ANY) json_any_scalar(b, v);
    else if (k == K_BOOL) bput(b, v->bits ? "true" : "false");
    else if (is_int(k)) {
        if (v->bits == 0 && pct(10)) bput(b, "-"); /* JSON's "-0" is 0 */
        fmt_int(b, k, v->bits);
    } else if (k == K_ENUM) bprintf(b, "\"%s\"", member_name(v->t, v->bits));
    else if (k == K_STRING) {
        if (json_bare_ok(v->s, v->slen) && pct(50)) bput_n(b, v->s, v->slen);
        else quoted(b, v->s, v->slen, Q_JSON);
    } else if (v->ftext) {
        bput(b, v->ftext);
    } else {
        if (is_nan_bits(k, v->bits)) bput(b, "\"nan\"");
        else if (is_inf_bits(k, v->bits)) bput(b, is_neg_bits(k, v->bits) ? "\"-inf\"" : "\"inf\"");
        else {
            char t[64];
            fmt_float(t, sizeof t, k, v->bits, pct(40));
            char *e = strchr(t, 'e');
            if (e && pct(15)) *e = 'E';
            bput(b, t);
        }
    }
}

void write_json(buf *b) {
    int pretty = pct(60);
    buf meta = {0};
    bput(&meta, "\"$schema\": \"t.schema\"");
    if (!has_root_decl) bprintf(&meta, ",%s\"$type\": \"%s\"", pretty ? "\n  " : " ", decls[root_type->decl].name);
    if (!n_present(root)) {
        bprintf(b, "{%s%s%s}\n", pretty ? "\n  " : "", meta.p, pretty ? "\n" : "");
        free(meta.p);
        return;
    }
    /* the meta keys go first or last in the root object (JSON allows both) */
    buf inner = {0};
    json_val(&inner, root, 0, pretty);
    if (pct(70)) {
        bprintf(b, "{%s%s,", pretty ? "\n  " : "", meta.p);
        bput(b, inner.p + 1);
    } else {
        size_t close = inner.n - 1;
        while (close > 0 && inner.p[close] != '}') close--;
        bput_n(b, inner.p, close);
        bprintf(b, ",%s%s%s}", pretty ? "\n  " : "", meta.p, pretty ? "\n" : "");
    }
    bput(b, "\n");
    free(inner.p);
    free(meta.p);
}
