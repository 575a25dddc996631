/*
 * randgen_mutants.c - the case's schema with one element changed, for
 * the cache key (tests/cli/cache_key.sh).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

#include "platform/platform.h" /* mkdir on every platform */

/* ---- mutants: the case's schema with one element changed ----
 * For the cache key (tests/cli/cache_key.sh): whenever a fresh bake's
 * bytes or exit status change, the key must change, so a cached bake must
 * always equal a fresh one. A mutant is the case's model after one edit,
 * written with the same presentation streams; the neutral kinds change
 * only what no bake sees (a comment, the order of declarations, a type
 * nothing uses), and their bakes must hit the unedited schema's entry. */

typedef struct mutation {
    const char *kind;
    int d, f; /* the declaration, and its field or member (-1: none) */
} mutation;

#define MAXMUT 24   /* mutants per seed */
#define MAXDEFMUT 12 /* of them, changes of defaults */
#define MAXCAND 512

static mutation cand[MAXCAND];
static int ncand;

static void add_cand(const char *kind, int d, int f) {
    if (ncand < MAXCAND) cand[ncand++] = (mutation){kind, d, f};
}

static const char *default_change(int k) {
    if (k == K_BOOL) return "default-bool";
    if (is_int(k)) return "default-int";
    if (k == K_F32) return "default-f32";
    if (k == K_F64) return "default-f64";
    if (k == K_ENUM) return "default-enum";
    return "default-string";
}

static void list_struct_mutations(int d) {
    const decl *dc = &decls[d];
    add_cand("align-changed", d, -1);
    for (int f = 0; f < dc->nf; f++) {
        const field *fl = &dc->f[f];
        int k = fl->t->k;
        if (fl->def) {
            if (k != K_ENUM || decls[fl->t->decl].nv > 1) add_cand(default_change(k), d, f);
            add_cand("default-removed", d, f);
        } else if (k <= K_F64 || k == K_ENUM || k == K_STRING) {
            add_cand("default-added", d, f);
        }
        if (k == K_UNION || k == K_REF) add_cand(fl->nullable ? "null-removed" : "null-added", d, f);
        add_cand("field-renamed", d, f);
        if (k <= K_F64 && !fl->def) add_cand("field-type", d, f);
        if (f + 1 < dc->nf) add_cand("fields-swapped", d, f);
        if (k == K_MAP) add_cand("map-key-type", d, f);
        if (k == K_MAP && fl->t->elem->k <= K_F64) add_cand("map-value-type", d, f);
        if (k == K_OPT) add_cand("optional-removed", d, f);
        else if (k != K_PTR && k != K_REF && !(dc->keyed && dc->key == f)) add_cand("optional-added", d, f);
    }
}

/* The forms of a union tagged by a field: a member's tag, the tag field,
 * the default member, @open. */
static void list_union_mutations(int d) {
    const decl *dc = &decls[d];
    if (!dc->by_field) return;
    for (int m = 0; m < dc->nm; m++) add_cand("union-tag-changed", d, m);
    add_cand("tag-field-renamed", d, -1);
    add_cand("union-default-changed", d, -1);
    add_cand("union-open-toggled", d, -1);
}

/* Every edit this model allows, into cand. */
static void list_mutations(void) {
    ncand = 0;
    add_cand("neutral-comment", -1, -1);
    add_cand("neutral-order", -1, -1);
    if (ndecls < MAXD) add_cand("neutral-unused-type", -1, -1);
    if (has_root_decl && nstructs > 1) add_cand("root-changed", -1, -1);
    for (int d = 0; d < ndecls; d++) {
        const decl *dc = &decls[d];
        add_cand("type-renamed", d, -1);
        if (dc->is_enum) {
            add_cand("base-changed", d, -1);
            for (int v = 0; v < dc->nv; v++) {
                add_cand("member-renamed", d, v);
                add_cand("value-changed", d, v);
            }
        } else if (dc->is_union) {
            if (dc->nm > 1) add_cand("members-swapped", d, 0);
            list_union_mutations(d);
        } else {
            list_struct_mutations(d);
        }
    }
}

/* 0: neutral; 1: a default (of a field or a union's null); 2: the rest. */
static int mutation_class(const mutation *m) {
    if (strncmp(m->kind, "neutral-", 8) == 0) return 0;
    if (strcmp(m->kind, "default-added") == 0) return 2; /* no value to change yet */
    if (strncmp(m->kind, "default-", 8) == 0 || strncmp(m->kind, "null-", 5) == 0) return 1;
    return 2;
}

/* Up to MAXMUT of the candidates: every neutral kind, then up to MAXDEFMUT
 * changes of defaults, then others, each group in a random order. */
static int select_mutations(mutation *out) {
    for (int i = ncand - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1);
        mutation x = cand[i];
        cand[i] = cand[j];
        cand[j] = x;
    }
    int n = 0, ndef = 0;
    for (int cls = 0; cls < 3; cls++)
        for (int i = 0; i < ncand && n < MAXMUT; i++) {
            if (mutation_class(&cand[i]) != cls || (cls == 1 && ndef == MAXDEFMUT)) continue;
            out[n++] = cand[i];
            ndef += cls == 1;
        }
    return n;
}

static int fits_base(int k, uint64_t v) {
    if (is_signed(k)) return (int64_t)v >= (int64_t)kmin(k) && (int64_t)v <= (int64_t)kmax(k);
    return v <= kmax(k);
}

static void rename_type(decl *d) {
    char old[24];
    memcpy(old, d->name, sizeof old);
    const char *const *words = d->is_enum ? enum_words : d->is_union ? union_words : struct_words;
    size_t nw = d->is_enum ? NELEM(enum_words) : d->is_union ? NELEM(union_words) : NELEM(struct_words);
    for (int tries = 0; tries < 100 && strcmp(d->name, old) == 0; tries++)
        pick_type_name(d->name, words, nw);
}

static void rename_field(decl *d, field *f) {
    char n[24];
    for (int tries = 0; tries < 100; tries++) {
        sfmt(n, sizeof n, "%s%u", field_words[below(NELEM(field_words))], 10 + below(90));
        if (!field_name_used(d, n)) break;
    }
    memcpy(f->name, n, sizeof n);
}

static void rename_member(decl *d, int v) {
    char n[24];
    for (int tries = 0; tries < 100; tries++) {
        sfmt(n, sizeof n, "%s%u", member_words[below(NELEM(member_words))], below(10));
        int dup = 0;
        for (int j = 0; j < d->nv; j++) dup |= strcmp(d->vn[j], n) == 0;
        if (!dup) break;
    }
    memcpy(d->vn[v], n, sizeof n);
}

/* A new value for member v; every member spelled out (the same values), so
 * that no implicit value after it moves, and defaults that named it follow. */
static void change_value(decl *d, int v) {
    int k = d->base->k;
    uint64_t old = d->vv[v], nv = old;
    for (int tries = 0; tries < 100; tries++) {
        uint64_t x = gen_int(k);
        int dup = 0;
        for (int j = 0; j < d->nv; j++) dup |= d->vv[j] == x;
        if (!dup) {
            nv = x;
            break;
        }
    }
    for (int j = 0; j < d->nv; j++) d->vexp[j] = 1;
    d->vv[v] = nv;
    for (int i = 0; i < ndecls; i++)
        for (int f = 0; f < decls[i].nf; f++) {
            field *fl = &decls[i].f[f];
            if (fl->t == d->t && fl->def && fl->def->bits == old) fl->def->bits = nv;
        }
}

static void change_base(decl *d) {
    static const int bases[] = {K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};
    int ok[8], n = 0;
    for (int i = 0; i < 8; i++) {
        int fit = bases[i] != d->base->k;
        for (int v = 0; v < d->nv; v++) fit &= fits_base(bases[i], d->vv[v]);
        if (fit) ok[n++] = bases[i];
    }
    if (n == 0) return;
    d->base = sc(ok[below((uint32_t)n)]);
    d->t->elem = d->base;
}

static void change_default(field *f) {
    val *old = f->def;
    if (f->t->k == K_ENUM) {
        const decl *e = &decls[f->t->decl];
        int i = (int)below((uint32_t)e->nv);
        if (e->vv[i] == old->bits) i = (i + 1) % e->nv;
        f->def = copy_scalar(old);
        f->def->bits = e->vv[i];
        return;
    }
    for (int tries = 0; tries < 100 && same_scalar(f->def, old); tries++) f->def = gen_scalar(f->t, 1);
}

static void add_unused_type(void) {
    decl *d = &decls[ndecls];
    memset(d, 0, sizeof *d);
    sfmt(d->name, sizeof d->name, "Unused_%llu", cur_seed);
    d->t = intern(K_STRUCT, NULL, 0, ndecls);
    d->nf = 1;
    sfmt(d->f[0].name, sizeof d->f[0].name, "x");
    d->f[0].t = sc(K_U8);
    ndecls++;
}

/* Another key type for map type t: string, an integer or an enum. */
static type *other_key(const type *t) {
    static const int keys[] = {K_STRING, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64};
    type *k;
    do k = nenums && pct(20) ? decls[below((uint32_t)nenums)].t : sc(keys[below(NELEM(keys))]);
    while (k == t->key);
    return map_type(k, t->elem);
}

static void change_tag(decl *d, int m) {
    static const char *const words[] = {"circle2", "box2", "Mesh", "zz", "a b"};
    if (d->int_tags) {
        d->tagv[m] += 1 + below(100);
        for (int j = 0; j < d->nm; j++)
            if (j != m && d->tagv[j] == d->tagv[m]) d->tagv[m] += 1000;
        return;
    }
    sfmt(d->tags[m], sizeof d->tags[m], "%s", words[below(NELEM(words))]);
}

static void apply_union_mutation(const mutation *m, decl *d) {
    const char *k = m->kind;
    if (strcmp(k, "union-tag-changed") == 0) change_tag(d, m->f);
    else if (strcmp(k, "tag-field-renamed") == 0) sfmt(d->tagf, sizeof d->tagf, "%s2", d->tagf);
    else if (strcmp(k, "union-default-changed") == 0) d->dflt = (d->dflt + 1) % (d->nm + 1);
    else if (strcmp(k, "union-open-toggled") == 0) d->open = !d->open;
}

static void apply_struct_mutation(const mutation *m, decl *d) {
    field *f = m->f >= 0 ? &d->f[m->f] : NULL;
    const char *k = m->kind;
    if (strcmp(k, "align-changed") == 0) d->align_attr = d->align_attr ? 0 : 16;
    else if (strcmp(k, "default-removed") == 0) f->def = NULL;
    else if (strcmp(k, "default-added") == 0) f->def = gen_scalar(f->t, 1);
    else if (strncmp(k, "default-", 8) == 0) change_default(f);
    else if (strcmp(k, "null-removed") == 0) f->nullable = 0;
    else if (strcmp(k, "null-added") == 0) f->nullable = 1;
    else if (strcmp(k, "field-renamed") == 0) rename_field(d, f);
    else if (strcmp(k, "field-type") == 0) f->t = sc(1 + (int)((f->t->k + below(10)) % 11));
    else if (strcmp(k, "map-key-type") == 0) f->t = other_key(f->t);
    else if (strcmp(k, "map-value-type") == 0)
        f->t = map_type(f->t->key, sc(1 + (int)((f->t->elem->k + below(10)) % 11)));
    else if (strcmp(k, "optional-removed") == 0) f->t = f->t->elem;
    else if (strcmp(k, "optional-added") == 0) {
        /* (?T takes no default, nor `= null`) */
        f->t = intern(K_OPT, f->t, 0, -1);
        f->def = NULL;
        f->nullable = 0;
    }
    else if (strcmp(k, "fields-swapped") == 0) {
        field x = d->f[m->f];
        d->f[m->f] = d->f[m->f + 1];
        d->f[m->f + 1] = x;
        if (d->keyed && (d->key == m->f || d->key == m->f + 1)) d->key = 2 * m->f + 1 - d->key;
    }
}

static void apply_mutation(const mutation *m) {
    decl *d = m->d >= 0 ? &decls[m->d] : NULL;
    const char *k = m->kind;
    if (strcmp(k, "neutral-unused-type") == 0) add_unused_type();
    else if (strcmp(k, "root-changed") == 0)
        root_decl_moved = nenums + (int)((root_type->decl - nenums + 1 + below((uint32_t)nstructs - 1)) %
                                         (uint32_t)nstructs);
    else if (strcmp(k, "type-renamed") == 0) rename_type(d);
    else if (strcmp(k, "member-renamed") == 0) rename_member(d, m->f);
    else if (strcmp(k, "value-changed") == 0) change_value(d, m->f);
    else if (strcmp(k, "base-changed") == 0) change_base(d);
    else if (strcmp(k, "members-swapped") == 0) {
        int x = d->mem[0];
        d->mem[0] = d->mem[1];
        d->mem[1] = x;
    } else if (d && d->is_union) apply_union_mutation(m, d);
    else if (d) apply_struct_mutation(m, d);
}

/* The data in each bake's own file: b blob, s --strip, r raw, u and x
 * unity (two versions and length rules); imp/i: a blob through imports. */
static const char *const mutant_inputs[] = {"b", "s", "r", "u", "x"};

/* DIR/IDX: the schema (t.schema; imp/t.schema importing its parts) with
 * mutation m (none when NULL) and the case's YAML under every input name. */
static void write_mutant(unsigned long long seed, const mutation *m, int idx, const char *dir,
                         const buf *yaml) {
    make_case(seed);
    uint64_t mr = mix(seed, 0x3017u + (uint64_t)idx);
    rng = &mr;
    if (m) apply_mutation(m);
    int reorder = m && strcmp(m->kind, "neutral-order") == 0;
    char d[4096], imp[4200], name[16];
    sfmt(d, sizeof d, "%s/%d", dir, idx);
    sfmt(imp, sizeof imp, "%s/imp", d);
    if (blobc_os_mkdir(d) != 0 || blobc_os_mkdir(imp) != 0) die("cannot create a mutant's directory");
    buf schema = {0};
    if (m && strcmp(m->kind, "neutral-comment") == 0) bput(&schema, "// an added comment\n");
    uint64_t r = mix(seed, 0x5c4e3a + (uint64_t)reorder);
    rng = &r;
    write_schema(&schema);
    write_file(d, "t.schema", &schema);
    free(schema.p);
    uint64_t sp = mix(seed, 0x5911 + (uint64_t)reorder);
    rng = &sp;
    write_split(imp, "t.schema");
    for (size_t i = 0; i < NELEM(mutant_inputs); i++) {
        sfmt(name, sizeof name, "%s-c.yaml", mutant_inputs[i]);
        write_file(d, name, yaml);
        sfmt(name, sizeof name, "%s-f.yaml", mutant_inputs[i]);
        write_file(d, name, yaml);
    }
    write_file(imp, "i-c.yaml", yaml);
    write_file(imp, "i-f.yaml", yaml);
}

/* DIR/0 the case as it is, DIR/1... its mutants, DIR/list "IDX KIND". */
void cmd_mutants(unsigned long long seed, const char *dir) {
    make_case(seed);
    buf yaml = {0}, list = {0};
    case_yaml(seed, &yaml);
    list_mutations();
    uint64_t sr = mix(seed, 0x6a7e);
    rng = &sr;
    mutation sel[MAXMUT];
    int n = select_mutations(sel);
    write_mutant(seed, NULL, 0, dir, &yaml);
    bput(&list, "0 none\n");
    for (int i = 0; i < n; i++) {
        write_mutant(seed, &sel[i], i + 1, dir, &yaml);
        bprintf(&list, "%d %s\n", i + 1, sel[i].kind);
    }
    write_file(dir, "list", &list);
    free(yaml.p);
    free(list.p);
}
