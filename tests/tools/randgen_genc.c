/*
 * randgen_genc.c - a reader of each case's blob through the header
 * `blobc gen c` made for its schema (docs/CODEGEN.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

/* ---- the reader over `blobc gen c` output ----
 * The same values, read through the generated header (docs/CODEGEN.md):
 * members for inline values, <Struct>_<field> for fields holding offsets
 * (indexed through fixed-array levels), <Struct>_<field>_at for the items
 * of a [T] whose items hold offsets, <Enum>_name and the member macros, and
 * the runtime's blobc_rt_* functions below the level accessors resolve.
 * The program compiles as C11 and as C++17. */

static int is_ref(int k) {
    return k == K_STRING || k == K_ARRAY || k == K_PTR || k == K_REF || k == K_MAP;
}

/* The names gen c gives the structs of map entries and of optionals
 * (docs/CODEGEN.md, "Maps, optionals and any"): <Struct>_<field>_entry
 * and <Struct>_<field>_opt after the first field, in declaration order,
 * whose chain of element types holds the type, a map's value adding
 * _value; a name taken already gets underscores. */
static char anon[MAXT][96];

static int anon_taken(const char *name) {
    for (int i = 0; i < ntypes; i++)
        if (strcmp(anon[i], name) == 0) return 1;
    return 0;
}

static void name_anon(void) {
    int order[MAXD];
    uint64_t r = mix(cur_seed, 0x5c4e3a), *save = rng;
    rng = &r;
    schema_order(order);
    rng = save;
    memset(anon, 0, sizeof anon);
    for (int oi = 0; oi < ndecls; oi++) {
        const decl *d = &decls[order[oi]];
        for (int f = 0; f < d->nf && !d->is_enum && !d->is_union; f++) {
            char cur[96];
            sfmt(cur, sizeof cur, "%s_%s", d->name, d->f[f].name);
            for (const type *c = d->f[f].t; c && c->k >= K_ARRAY && c->k != K_UNION && c->k != K_ANY;
                 c = c->elem) {
                if ((c->k == K_MAP || c->k == K_OPT) && !anon[c->id][0]) {
                    char name[96];
                    sfmt(name, sizeof name, "%s%s", cur, c->k == K_MAP ? "_entry" : "_opt");
                    while (anon_taken(name) && strlen(name) + 1 < sizeof name) strcat(name, "_");
                    memcpy(anon[c->id], name, sizeof name);
                }
                if (c->k == K_MAP && strlen(cur) + 7 < sizeof cur) strcat(cur, "_value");
            }
        }
    }
}

static const type *strip_fixed(const type *t) {
    while (t->k == K_FIXED) t = t->elem;
    return t;
}

/* The header's name for a type that is not a fixed array. */
static void hdr_base(buf *b, const type *t) {
    switch (t->k) {
    case K_BOOL: bput(b, "blobc_rt_bool"); break;
    case K_ENUM: case K_STRUCT: case K_UNION: bput(b, decls[t->decl].name); break;
    case K_STRING: bput(b, "blobc_rt_str"); break;
    case K_ARRAY: bput(b, "blobc_rt_array"); break;
    case K_PTR: case K_REF: bput(b, "blobc_rt_ptr"); break;
    case K_MAP: bput(b, "blobc_rt_array"); break; /* of its entries */
    case K_OPT: bput(b, anon[t->id]); break;
    case K_ANY: bput(b, "blobc_rt_any"); break;
    default: bput(b, kctype[t->k]); break;
    }
}

/* "const T *name" or, for a fixed array, "const T (*name)[N]..." */
static void hdr_ptr_decl(buf *b, const type *t, const char *name) {
    bput(b, "const ");
    hdr_base(b, strip_fixed(t));
    if (t->k == K_FIXED) {
        bprintf(b, " (*%s)", name);
        for (; t->k == K_FIXED; t = t->elem) bprintf(b, "[%d]", t->count);
    } else {
        bprintf(b, " *%s", name);
    }
}

/* "const E *name" for the items of a [T] (T) or of a map (its entries). */
static void hdr_items_decl(buf *b, const type *t, const char *name) {
    if (t->k == K_MAP) bprintf(b, "const %s *%s", anon[t->id], name);
    else hdr_ptr_decl(b, t->elem, name);
}

static void rd_lvalue(buf *b, const val *v, const char *lv, const char *path, int ind);

/* A key as an argument of <S>_<f>_find: the key type's value, or a string
 * and its length. */
static void rd_key_arg(buf *b, const val *k) {
    int base = k->t->k == K_ENUM ? k->t->elem->k : k->t->k;
    if (base == K_STRING) {
        c_string_lit(b, k->s, k->slen);
        bprintf(b, ", %zu", k->slen);
        return;
    }
    bput(b, "RD_CAST(");
    hdr_base(b, k->t);
    if (is_signed(base) && k->bits == UINT64_C(1) << 63) bput(b, ", -INT64_C(9223372036854775807) - 1)");
    else if (is_signed(base)) bprintf(b, ", INT64_C(%lld))", (long long)k->bits);
    else bprintf(b, ", UINT64_C(%llu))", (unsigned long long)k->bits);
}

/* The item q (a const T *) a reference leads to has the target's key. */
static void rd_key(buf *b, const val *tg, const char *q, const char *path, int ind) {
    const decl *d = &decls[tg->t->decl];
    const val *k = key_of(tg);
    const char *f = d->f[d->key].name;
    pad(b, ind);
    if (k->t->k == K_STRING) {
        bprintf(b, "rd_str(%s_%s(%s), ", d->name, f, q);
        c_string_lit(b, k->s, k->slen);
        bprintf(b, ", %zu, \"%s\");\n", k->slen, path);
    } else {
        bprintf(b, "RD_BITS(%s->%s, UINT64_C(0x%llx), \"%s\");\n", q, f, (unsigned long long)k->bits, path);
    }
}

/* Key i of a map, or of keyed array v's item i. */
static const val *key_at(const val *v, int i) { return v->t->k == K_MAP ? v->keys[i] : key_of(v->it[i]); }

/* A key that no item of keyed array (or entry of map) v has (NULL when
 * every key an enum allows is taken). */
static const val *missing_key(const val *v) {
    const val *k0 = key_at(v, 0);
    val *k = copy_scalar(k0);
    static const char *const strs[] = {"", "a", "b", "zz", "hello", "0", "Z"};
    for (int c = 0; c < 16; c++) {
        if (k->t->k == K_STRING) {
            if (c >= (int)NELEM(strs)) break;
            k->s = (char *)strs[c];
            k->slen = strlen(strs[c]);
        } else if (k->t->k == K_ENUM) {
            const decl *e = &decls[k->t->decl];
            if (c >= e->nv) break;
            k->bits = e->vv[c];
        } else {
            k->bits = (uint64_t)c;
        }
        int taken = 0;
        for (int i = 0; i < v->n; i++) taken |= key_cmp(key_at(v, i), k) == 0;
        if (!taken) return k;
    }
    return NULL;
}

/* The binary search of a keyed [T] or a map field f (accessor fn) finds
 * each item, and nothing for a key no item has; a map's entries are also
 * counted and indexed (<f>_count, <f>_at). */
static void rd_find(buf *b, const val *v, const char *fn, const char *p, const char *path, int ind) {
    int n = ++vcount, map = v->t->k == K_MAP;
    char name[32];
    sfmt(name, sizeof name, "q%d", n);
    pad(b, ind);
    bprintf(b, "{ size_t n%d = 0; ", n);
    hdr_items_decl(b, v->t, name);
    bprintf(b, " = %s(%s, &n%d);\n", fn, p, n);
    pad(b, ind + 2);
    bprintf(b, "if (n%d == %d) {\n", n, v->n);
    if (map) {
        pad(b, ind + 4);
        bprintf(b, "rd_u(%s_count(%s), %d, \"%s\");\n", fn, p, v->n, path);
        pad(b, ind + 4);
        bprintf(b, "if (%s_at(%s, %d) != RD_NULL) bad(\"%s\", \"an entry past the end\");\n", fn, p, v->n, path);
    }
    for (int i = 0; i < v->n; i++) {
        pad(b, ind + 4);
        bprintf(b, "if (%s_find(%s, ", fn, p);
        rd_key_arg(b, key_at(v, i));
        bprintf(b, ") != &q%d[%d]) bad(\"%s[%d]\", \"find does not give this item\");\n", n, i, path, i);
        if (!map) continue;
        pad(b, ind + 4);
        bprintf(b, "if (%s_at(%s, %d) != &q%d[%d]) bad(\"%s[%d]\", \"at does not give this entry\");\n",
                fn, p, i, n, i, path, i);
    }
    const val *mk = v->n ? missing_key(v) : NULL;
    if (mk || !v->n) {
        pad(b, ind + 4);
        bprintf(b, "if (%s_find(%s, ", fn, p);
        if (mk) rd_key_arg(b, mk);
        else if (map) rd_key_arg(b, gen_scalar(v->t->key, 0));
        else rd_key_arg(b, gen_scalar(decls[v->t->elem->decl].f[decls[v->t->elem->decl].key].t, 0));
        bprintf(b, ") != RD_NULL) bad(\"%s\", \"find gives an item for a key none has\");\n", path);
    }
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bprintf(b, "(void)q%d; }\n", n);
}

/* Checks the resolved view of a string (the text), a [T] (the items; the
 * call is pre + "&count" + post) or a *T (the target). */
static void rd_view(buf *b, const val *v, const char *pre, const char *post, const char *path,
                    int ind) {
    const type *t = v->t;
    pad(b, ind);
    if (t->k == K_STRING) {
        bprintf(b, "rd_str(%s%s, ", pre, post);
        c_string_lit(b, v->s, v->slen);
        bprintf(b, ", %zu, \"%s\");\n", v->slen, path);
        return;
    }
    int n = ++vcount;
    char name[32], lv[64], p2[600];
    sfmt(name, sizeof name, "q%d", n);
    bput(b, "{ ");
    if (t->k == K_ARRAY || t->k == K_MAP) {
        bprintf(b, "size_t n%d = 0; ", n);
        hdr_items_decl(b, t, name);
        bprintf(b, " = %s&n%d%s;\n", pre, n, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_len(q%d != RD_NULL, n%d, %d, \"%s\")) {\n", n, n, v->n, path);
        for (int i = 0; i < v->n; i++) {
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            sfmt(lv, sizeof lv, t->k == K_MAP ? "q%d[%d].key" : "q%d[%d]", n, i);
            if (t->k == K_MAP) rd_lvalue(b, v->keys[i], lv, p2, ind + 4);
            sfmt(lv, sizeof lv, t->k == K_MAP ? "q%d[%d].value" : "q%d[%d]", n, i);
            rd_lvalue(b, v->it[i], lv, p2, ind + 4);
        }
    } else if (t->k == K_REF) {
        /* the item it leads to, by its key (not walked: references may
         * form cycles) */
        hdr_ptr_decl(b, t->elem, name);
        bprintf(b, " = %s%s;\n", pre, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, v->target != NULL, path);
        if (v->target) rd_key(b, v->target, name, path, ind + 4);
    } else {
        const val *tg = v->n ? v->it[0] : NULL;
        hdr_ptr_decl(b, t->elem, name);
        bprintf(b, " = %s%s;\n", pre, post);
        pad(b, ind + 2);
        bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, tg != NULL, path);
        if (tg) {
            sfmt(lv, sizeof lv, "(*q%d)", n);
            sfmt(p2, sizeof p2, "(*%s)", path);
            rd_lvalue(b, tg, lv, p2, ind + 4);
        }
    }
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bput(b, "}\n");
}

static void rd_opt(buf *b, const val *v, const char *has, const char *fn, const char *args,
                   const char *path, int ind);

/* The views of value v of type t reached through accessor `fn` with the
 * arguments `args` so far, one index per fixed-array level; an optional
 * through `has` and fn (rd_opt); top: fn is a field's accessor. */
static void rd_accessor(buf *b, const val *v, const char *fn, const char *has, const char *args,
                        const char *path, int ind, int top) {
    char a2[700], p2[600], pre[800];
    if (v->t->k == K_FIXED) {
        for (int i = 0; i < v->n; i++) {
            sfmt(a2, sizeof a2, "%s, %d", args, i);
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            rd_accessor(b, v->it[i], fn, has, a2, p2, ind, top);
        }
        return;
    }
    if (v->t->k == K_OPT) {
        rd_opt(b, v, has, fn, args, path, ind);
        return;
    }
    int list = v->t->k == K_ARRAY || v->t->k == K_MAP;
    sfmt(pre, sizeof pre, "%s(%s%s", fn, args, list ? ", " : "");
    rd_view(b, v, pre, ")", path, ind);
    /* a map field's entries by index and key (an item accessor has none) */
    if (top && v->t->k == K_MAP) rd_find(b, v, fn, args, path, ind);
}

/* An optional field through <S>_has_<f> and <S>_<f>: a scalar's value (0
 * when absent), a string's text, a [T]'s or a map's items (NULL and 0
 * when absent), anything else a pointer (NULL when absent). */
static void rd_opt(buf *b, const val *v, const char *has, const char *fn, const char *args,
                   const char *path, int ind) {
    char call[800];
    const type *e = v->t->elem;
    const val *c = v->n ? v->it[0] : NULL;
    pad(b, ind);
    bprintf(b, "rd_u(RD_CAST(size_t, %s(%s)), %d, \"%s\");\n", has, args, v->n, path);
    int list = e->k == K_ARRAY || e->k == K_MAP;
    if (c && (e->k == K_STRING || list)) {
        sfmt(call, sizeof call, "%s(%s%s", fn, args, list ? ", " : "");
        rd_view(b, c, call, ")", path, ind);
        return;
    }
    if (!list && e->k != K_STRING && e->k > K_F64 && e->k != K_ENUM) {
        /* read as a pointer to the value, NULL when absent */
        sfmt(call, sizeof call, "%s(%s", fn, args);
        rd_view(b, v, call, ")", path, ind);
        return;
    }
    pad(b, ind);
    if (e->k == K_STRING) {
        bprintf(b, "if (%s(%s) != RD_NULL) bad(\"%s\", \"a string for an absent optional\");\n", fn, args, path);
    } else if (list) {
        bprintf(b, "{ size_t n = 1; if (%s(%s, &n) != RD_NULL || n != 0) bad(\"%s\", \"items for an absent optional\"); }\n",
                fn, args, path);
    } else {
        bput(b, "{ ");
        hdr_base(b, e);
        bprintf(b, " x = %s(%s); RD_BITS(x, UINT64_C(0x%llx), \"%s\"); }\n", fn, args,
                c ? (unsigned long long)c->bits : 0ull, path);
    }
}

/* An any through the runtime's blobc_rt_any_* functions (expr: a const
 * blobc_rt_any *): its kind and value, a list's items, a mapping's keys,
 * values and look-ups. */
static void rd_any(buf *b, const val *v, const char *expr, const char *path, int ind) {
    static const char *const num[] = {"", "", "int64_t x = blobc_rt_any_as_i64", "uint64_t x = blobc_rt_any_as_u64",
                                      "double x = blobc_rt_any_as_f64"};
    int n = ++vcount, in = ind + 4;
    char e2[200];
    pad(b, ind);
    bprintf(b, "{ const blobc_rt_any *a%d = %s;\n", n, expr);
    pad(b, ind + 2);
    bprintf(b, "if (!a%d || blobc_rt_any_kind(a%d) != %du) { bad(\"%s\", \"any kind differs\"); } else {\n",
            n, n, v->ak, path);
    pad(b, in);
    switch (v->ak) {
    case A_NULL: bput(b, "/* null */\n"); break;
    case A_BOOL:
        bprintf(b, "rd_u(RD_CAST(size_t, blobc_rt_any_as_bool(a%d)), %d, \"%s\");\n", n, (int)v->bits, path);
        break;
    case A_INT: case A_UINT: case A_FLOAT:
        bprintf(b, "{ %s(a%d); RD_BITS(x, UINT64_C(0x%llx), \"%s\"); }\n", num[v->ak], n,
                (unsigned long long)v->bits, path);
        break;
    case A_STRING:
        bprintf(b, "{ size_t l = 0; rd_str(blobc_rt_any_as_string(a%d, &l), ", n);
        c_string_lit(b, v->s, v->slen);
        bprintf(b, ", %zu, \"%s\"); rd_u(l, %zu, \"%s\"); }\n", v->slen, path, v->slen, path);
        break;
    default: {
        int map = v->ak == A_MAP;
        bprintf(b, "rd_u(blobc_rt_any_%s_count(a%d), %d, \"%s\");\n", map ? "map" : "list", n, v->n, path);
        for (int i = 0; i < v->n; i++) {
            char p2[600];
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            if (map) {
                const val *k = v->keys[i];
                pad(b, in);
                bprintf(b, "{ size_t l = 0; rd_str(blobc_rt_any_map_key(a%d, %d, &l), ", n, i);
                c_string_lit(b, k->s, k->slen);
                bprintf(b, ", %zu, \"%s\"); rd_u(l, %zu, \"%s\"); }\n", k->slen, p2, k->slen, p2);
                pad(b, in);
                bprintf(b, "if (blobc_rt_any_map_find(a%d, ", n);
                c_string_lit(b, k->s, k->slen);
                bprintf(b, ", %zu) != blobc_rt_any_map_value(a%d, %d)) bad(\"%s\", \"find does not give this entry\");\n",
                        k->slen, n, i, p2);
            }
            sfmt(e2, sizeof e2, "blobc_rt_any_%s(a%d, %d)", map ? "map_value" : "list_item", n, i);
            rd_any(b, v->it[i], e2, p2, in);
        }
        break;
    }
    }
    pad(b, ind + 2);
    bput(b, "}\n");
    pad(b, ind);
    bput(b, "}\n");
}

/* The fields of struct value v through the pointer expression p. */
static void rd_fields(buf *b, const val *v, const char *p, const char *path, int ind) {
    const decl *d = &decls[v->t->decl];
    char lv[700], p2[600], fn[80];
    for (int i = 0; i < d->nf; i++) {
        const field *f = &d->f[i];
        const val *fv = v->it[i];
        sfmt(p2, sizeof p2, "%s.%s", path, f->name);
        sfmt(fn, sizeof fn, "%s_%s", d->name, f->name);
        if (strip_fixed(f->t)->k == K_OPT) {
            char has[100];
            sfmt(has, sizeof has, "%s_has_%s", d->name, f->name);
            rd_accessor(b, fv, fn, has, p, p2, ind, 1);
            continue;
        }
        if (!is_ref(strip_fixed(f->t)->k)) {
            sfmt(lv, sizeof lv, "(%s)->%s", p, f->name);
            rd_lvalue(b, fv, lv, p2, ind);
            continue;
        }
        const type *item = f->t->k == K_ARRAY ? f->t->elem : NULL;
        if (!item || !is_ref(strip_fixed(item)->k)) {
            rd_accessor(b, fv, fn, NULL, p, p2, ind, 1);
            if (item && item->k == K_STRUCT && decls[item->decl].keyed) rd_find(b, fv, fn, p, p2, ind);
            continue;
        }
        /* a [T] whose items hold offsets: the count from the plain accessor,
         * each item from the item accessor */
        int n = ++vcount;
        pad(b, ind);
        bprintf(b, "{ size_t n%d = 0; ", n);
        char name[32], fn_at[100], args[800], p3[600];
        sfmt(name, sizeof name, "q%d", n);
        hdr_ptr_decl(b, item, name);
        bprintf(b, " = %s(%s, &n%d);\n", fn, p, n);
        pad(b, ind + 2);
        bprintf(b, "if (rd_len(q%d != RD_NULL, n%d, %d, \"%s\")) {\n", n, n, fv->n, p2);
        sfmt(fn_at, sizeof fn_at, "%s_at", fn);
        for (int j = 0; j < fv->n; j++) {
            sfmt(args, sizeof args, "%s, %d", p, j);
            sfmt(p3, sizeof p3, "%s[%d]", p2, j);
            rd_accessor(b, fv->it[j], fn_at, NULL, args, p3, ind + 4, 0);
        }
        pad(b, ind + 2);
        bput(b, "}\n");
        pad(b, ind);
        bput(b, "}\n");
    }
}

static void rd_lvalue(buf *b, const val *v, const char *lv, const char *path, int ind) {
    const type *t = v->t;
    char l2[700], p2[600];
    buf c = {0};
    switch (t->k) {
    case K_STRUCT:
        sfmt(l2, sizeof l2, "&%s", lv);
        rd_fields(b, v, l2, path, ind);
        return;
    case K_FIXED:
        for (int i = 0; i < v->n; i++) {
            sfmt(l2, sizeof l2, "%s[%d]", lv, i);
            sfmt(p2, sizeof p2, "%s[%d]", path, i);
            rd_lvalue(b, v->it[i], l2, p2, ind);
        }
        return;
    case K_STRING:
        sfmt(l2, sizeof l2, "blobc_rt_str_cstr(&%s", lv);
        rd_view(b, v, l2, ")", path, ind);
        pad(b, ind);
        bprintf(b, "rd_u(blobc_rt_str_len(&%s), %zu, \"%s\");\n", lv, v->slen, path);
        return;
    case K_OPT:
        pad(b, ind);
        bprintf(b, "RD_BITS((%s).has, %d, \"%s\");\n", lv, v->n, path);
        sfmt(l2, sizeof l2, "(%s).value", lv);
        if (v->n) rd_lvalue(b, v->it[0], l2, path, ind);
        return;
    case K_ANY:
        sfmt(l2, sizeof l2, "&(%s)", lv);
        rd_any(b, v, l2, path, ind);
        return;
    case K_MAP:
        bprintf(&c, "RD_CAST(const %s *, blobc_rt_array_data(&%s, ", anon[t->id], lv);
        rd_view(b, v, c.p, "))", path, ind);
        free(c.p);
        return;
    case K_ARRAY:
    case K_PTR:
    case K_REF:
        bput(&c, "RD_CAST(");
        hdr_ptr_decl(&c, t->elem, "");
        if (t->k == K_ARRAY) {
            bprintf(&c, ", blobc_rt_array_data(&%s, ", lv);
            rd_view(b, v, c.p, "))", path, ind);
        } else {
            bprintf(&c, ", blobc_rt_ptr_get(&%s)", lv);
            rd_view(b, v, c.p, ")", path, ind);
        }
        free(c.p);
        return;
    case K_UNION: {
        /* the tag through <U>_tag, and every member's <U>_as_<M>: the
         * struct for the one held, NULL for the others */
        const decl *u = &decls[t->decl];
        pad(b, ind);
        bprintf(b, "{ uint32_t tg = %s_tag(&%s); RD_BITS(tg, ", u->name, lv);
        if (v->tag) bprintf(b, "%s_%s", u->name, union_member(v));
        else bprintf(b, "%s_NONE", u->name);
        bprintf(b, ", \"%s\"); }\n", path);
        for (int m = 0; m < u->nm; m++) {
            const char *mn = decls[nenums + u->mem[m]].name;
            int held = v->tag == m + 1;
            int n = ++vcount;
            pad(b, ind);
            bprintf(b, "{ const %s *q%d = %s_as_%s(&%s);\n", mn, n, u->name, mn, lv);
            pad(b, ind + 2);
            sfmt(p2, sizeof p2, "%s.%s", path, mn);
            bprintf(b, "if (rd_ptr(q%d != RD_NULL, %d, \"%s\")) {\n", n, held, p2);
            if (held) {
                sfmt(l2, sizeof l2, "(*q%d)", n);
                rd_lvalue(b, v->it[0], l2, p2, ind + 4);
            }
            pad(b, ind + 2);
            bput(b, "}\n");
            pad(b, ind);
            bput(b, "}\n");
        }
        return;
    }
    case K_ENUM: {
        const decl *e = &decls[t->decl];
        const char *m = member_name(t, v->bits);
        pad(b, ind);
        bprintf(b, "rd_name(%s_name(%s), \"%s\", \"%s\");\n", e->name, lv, m, path);
        pad(b, ind);
        bprintf(b, "RD_BITS(%s, %s_%s, \"%s\");\n", lv, e->name, m, path);
        return;
    }
    default: {
        uint64_t want = v->bits;
        uint32_t sz = ksize(t->k);
        if (sz < 8) want &= (UINT64_C(1) << (8 * sz)) - 1;
        pad(b, ind);
        bprintf(b, "RD_BITS(%s, UINT64_C(0x%llx), \"%s\");\n", lv, (unsigned long long)want, path);
        return;
    }
    }
}

const char reader_prelude[] =
    "/* Generated by tests/tools/randgen: reads random cases through the\n"
    " * headers `blobc gen c` made for them. C11 and C++17. */\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    "#ifdef __cplusplus\n"
    "#define RD_CAST(T, e) static_cast<T>(e)\n"
    "#define RD_NULL nullptr\n"
    "#else\n"
    "#define RD_CAST(T, e) ((T)(e))\n"
    "#define RD_NULL NULL\n"
    "#endif\n"
    "/* 16-byte aligned memory: Windows' C runtime has no aligned_alloc. */\n"
    "#ifdef _WIN32\n#include <malloc.h>\n"
    "#define RD_ALLOC16(n) _aligned_malloc((n), 16)\n#define RD_FREE16 _aligned_free\n"
    "#else\n#define RD_ALLOC16(n) aligned_alloc(16, (n))\n#define RD_FREE16 free\n#endif\n"
    "static int g_fail;\n"
    "static unsigned long long g_seed;\n"
    "static inline void bad(const char *path, const char *what) {\n"
    "    if (g_fail++) return;\n"
    "    printf(\"FAIL %llu: %s: %s\\n\", g_seed, path, what);\n"
    "}\n"
    "static inline void rd_bits(const void *p, size_t n, uint64_t want, const char *path) {\n"
    "    uint64_t got = 0;\n"
    "    char msg[96];\n"
    "    memcpy(&got, p, n);\n"
    "    if (n < 8) want &= (UINT64_C(1) << (8 * n)) - 1;\n"
    "    snprintf(msg, sizeof msg, \"got 0x%llx, want 0x%llx\", (unsigned long long)got, (unsigned long long)want);\n"
    "    if (got != want) bad(path, msg);\n"
    "}\n"
    "#define RD_BITS(lv, want, path) rd_bits(&(lv), sizeof(lv), (uint64_t)(want), path)\n"
    "static inline void rd_str(const char *got, const char *want, size_t n, const char *path) {\n"
    "    if (!got) bad(path, \"NULL string\");\n"
    "    else if (memcmp(got, want, n + 1) != 0) bad(path, \"string differs\");\n"
    "}\n"
    "static inline void rd_u(size_t got, size_t want, const char *path) {\n"
    "    if (got != want) bad(path, \"length differs\");\n"
    "}\n"
    "static inline void rd_name(const char *got, const char *want, const char *path) {\n"
    "    if (!got || strcmp(got, want) != 0) bad(path, \"enum name differs\");\n"
    "}\n"
    "static inline int rd_len(int nonnull, size_t n, size_t want, const char *path) {\n"
    "    if (n != want) { bad(path, \"item count differs\"); return 0; }\n"
    "    if (nonnull != (want != 0)) { bad(path, want ? \"NULL items\" : \"items for an empty array\"); return 0; }\n"
    "    return nonnull;\n"
    "}\n"
    "static inline int rd_ptr(int nonnull, int want, const char *path) {\n"
    "    if (nonnull != want) bad(path, want ? \"NULL target\" : \"target for a null pointer\");\n"
    "    return nonnull && want;\n"
    "}\n\n";

/* A union tagged by a field: the macros of its tag field, its members'
 * tags and its default member. */
static void rd_tag_macros(buf *b, const decl *u) {
    pad(b, 4);
    bprintf(b, "rd_name(%s_TAG_FIELD, ", u->name);
    c_string_lit(b, u->tagf, strlen(u->tagf));
    bprintf(b, ", \"%s\");\n", u->name);
    for (int m = 0; m < u->nm; m++) {
        const char *mn = decls[nenums + u->mem[m]].name;
        pad(b, 4);
        if (u->int_tags) {
            bprintf(b, "{ int64_t x = %s_%s_TAG; RD_BITS(x, UINT64_C(0x%llx), \"%s.%s\"); }\n", u->name, mn,
                    (unsigned long long)u->tagv[m], u->name, mn);
            continue;
        }
        const char *tg = u->tags[m][0] ? u->tags[m] : mn;
        bprintf(b, "rd_name(%s_%s_TAG, ", u->name, mn);
        c_string_lit(b, tg, strlen(tg));
        bprintf(b, ", \"%s.%s\");\n", u->name, mn);
    }
    if (u->dflt) {
        pad(b, 4);
        bprintf(b, "{ uint32_t x = %s_DEFAULT; RD_BITS(x, %d, \"%s\"); }\n", u->name, u->dflt, u->name);
    }
}

void reader_for_case(buf *b) {
    vcount = 0;
    name_anon();
    const char *rn = decls[root_type->decl].name;
    bprintf(b, "#include \"gen-%llu.h\"\n", cur_seed);
    bprintf(b, "static void read_%llu(const void *buf, size_t len) {\n", cur_seed);
    bprintf(b, "    blobc_rt_status st;\n    const %s *r = %s_open(buf, len, &st);\n", rn, rn);
    bput(b, "    if (!r) { bad(\"(open)\", blobc_rt_status_message(st)); return; }\n");
    /* built with the library: the checked open verifies the whole blob */
    bprintf(b, "#ifdef BLOBC_WITH_LIBRARY\n    { blobc_error e; if (!%s_open_checked(buf, len, &e)) bad(\"(open_checked)\", e.message); }\n#endif\n", rn);
    rd_fields(b, root, "r", rn, 4);
    for (int i = 0; i < ndecls; i++)
        if (decls[i].is_union && decls[i].by_field) rd_tag_macros(b, &decls[i]);
    bput(b, "}\n\n");
}

const char reader_main[] =
    "int main(int argc, char **argv) {\n"
    "    int rc = 0;\n"
    "    /* arguments: SEED BLOB, repeated */\n"
    "    for (int a = 1; a + 1 < argc; a += 2) {\n"
    "        g_seed = strtoull(argv[a], RD_NULL, 10);\n"
    "        g_fail = 0;\n"
    "        FILE *f = fopen(argv[a + 1], \"rb\");\n"
    "        if (!f) { printf(\"FAIL %llu: cannot open %s\\n\", g_seed, argv[a + 1]); rc = 1; continue; }\n"
    "        fseek(f, 0, SEEK_END);\n"
    "        long sz = ftell(f);\n"
    "        fseek(f, 0, SEEK_SET);\n"
    "        void *mem = RD_ALLOC16((RD_CAST(size_t, sz) + 16) / 16 * 16);\n"
    "        if (!mem || fread(mem, 1, RD_CAST(size_t, sz), f) != RD_CAST(size_t, sz)) { printf(\"FAIL %llu: read error\\n\", g_seed); rc = 1; fclose(f); continue; }\n"
    "        fclose(f);\n"
    "        int found = 0;\n"
    "        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)\n"
    "            if (cases[i].seed == g_seed) { found = 1; cases[i].fn(mem, RD_CAST(size_t, sz)); }\n"
    "        if (!found) bad(\"(case)\", \"no such seed in this reader\");\n"
    "        if (!g_fail) printf(\"ok %llu\\n\", g_seed);\n"
    "        rc |= g_fail != 0;\n"
    "        RD_FREE16(mem);\n"
    "    }\n"
    "    return rc;\n"
    "}\n";
