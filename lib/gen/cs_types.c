/*
 * cs_types.c - how `gen cs` spells and lays out types: the struct graph's
 * cycles (a BlobArray or BlobPtr that closes one is stored as ints, since
 * Mono's compiler rejects the layout cycle, CS0523), the helper structs
 * for [T; N] elements, the C# type of each schema type, and which structs
 * need an explicit layout to sit at blobc's offsets.
 */
#include "gen/cs_internal.h"
#include "common/kind.h"

#include <inttypes.h>
#include <stdlib.h>

/* ---- the struct graph: which BlobArray/BlobPtr close a cycle ---- */

/* The named struct a field type leads to through [T], *T, [T; N], ?T
 * and a map's values. */
static const blobc_type *reached_struct(const blobc_type *t) {
    while (t && blobc_kind_is_anonymous(t->kind)) t = blobc_type_next(t);
    return t && t->kind == BLOBC_KIND_STRUCT ? t : NULL;
}

/* Tarjan's strongly connected components, iteratively (a long chain of
 * structs must not use up the C stack). Edge S -> T: a field of S leads to
 * T. A component with more than one struct, or a struct reaching itself,
 * is cyclic. */
typedef struct tarjan {
    uint32_t *index, *low, *stack, *call_node, *call_edge;
    bool *on_stack, *self;      /* self: a field of the struct leads to itself */
    uint32_t nstack, ncall, next_index, ncomp;
} tarjan;

static const blobc_type *edge_target(const csgen *c, size_t v, uint32_t e, bool *more) {
    const blobc_type *t = blobc_schema_at(c->schema, v);
    *more = t->kind == BLOBC_KIND_STRUCT && e < t->nfields;
    return *more ? reached_struct(t->fields[e].type) : NULL;
}

static void tarjan_visit(csgen *c, tarjan *tj, uint32_t root) {
    tj->call_node[0] = root;
    tj->call_edge[0] = 0;
    tj->ncall = 1;
    tj->index[root] = tj->low[root] = tj->next_index++;
    tj->stack[tj->nstack++] = root;
    tj->on_stack[root] = true;
    while (tj->ncall) {
        uint32_t v = tj->call_node[tj->ncall - 1];
        bool more;
        const blobc_type *target = edge_target(c, v, tj->call_edge[tj->ncall - 1]++, &more);
        if (more) {
            size_t w = target ? blobc_typemap_find(&c->map, target) : SIZE_MAX;
            if (w == SIZE_MAX) continue;
            if (w == v) tj->self[v] = true;
            if (tj->index[w] == UINT32_MAX) {
                tj->index[w] = tj->low[w] = tj->next_index++;
                tj->stack[tj->nstack++] = (uint32_t)w;
                tj->on_stack[w] = true;
                tj->call_node[tj->ncall] = (uint32_t)w;
                tj->call_edge[tj->ncall++] = 0;
            } else if (tj->on_stack[w] && tj->index[w] < tj->low[v]) {
                tj->low[v] = tj->index[w];
            }
            continue;
        }
        tj->ncall--;
        if (tj->ncall) {
            uint32_t u = tj->call_node[tj->ncall - 1];
            if (tj->low[v] < tj->low[u]) tj->low[u] = tj->low[v];
        }
        if (tj->low[v] != tj->index[v]) continue;
        uint32_t comp = tj->ncomp++, size = 0;
        bool self = false;
        uint32_t w;
        do {
            w = tj->stack[--tj->nstack];
            tj->on_stack[w] = false;
            self = self || tj->self[w];
            c->info[w].comp = comp;
            size++;
        } while (w != v);
        c->cyclic_comp[comp] = size > 1 || self;
    }
}

bool blobc_gencs_find_components(csgen *c) {
    size_t n = c->ninfo ? c->ninfo : 1;
    tarjan tj = {0};
    tj.index = malloc(n * sizeof *tj.index);
    tj.low = malloc(n * sizeof *tj.low);
    tj.stack = malloc(n * sizeof *tj.stack);
    tj.call_node = malloc(n * sizeof *tj.call_node);
    tj.call_edge = malloc(n * sizeof *tj.call_edge);
    tj.on_stack = calloc(n, sizeof *tj.on_stack);
    tj.self = calloc(n, sizeof *tj.self);
    c->cyclic_comp = calloc(n, sizeof *c->cyclic_comp);
    bool ok = tj.index && tj.low && tj.stack && tj.call_node && tj.call_edge && tj.on_stack &&
              tj.self && c->cyclic_comp;
    if (ok) {
        memset(tj.index, 0xff, n * sizeof *tj.index);
        for (size_t v = 0; v < c->ninfo; v++)
            if (tj.index[v] == UINT32_MAX) tarjan_visit(c, &tj, (uint32_t)v);
    }
    free(tj.index);
    free(tj.low);
    free(tj.stack);
    free(tj.call_node);
    free(tj.call_edge);
    free(tj.on_stack);
    free(tj.self);
    return ok;
}

/* Whether a BlobArray/BlobPtr of type t, inside a struct of component
 * `comp` (UINT32_MAX: inside a helper, shared by any struct), must be
 * stored untyped: its element leads to a struct that leads back. */
bool blobc_gencs_needs_raw(const csgen *c, const blobc_type *t, uint32_t comp) {
    if (t->kind != BLOBC_KIND_ARRAY && t->kind != BLOBC_KIND_PTR && t->kind != BLOBC_KIND_MAP) return false;
    const blobc_type *s = reached_struct(blobc_type_next(t));
    const cs_type_info *ti = s ? info_of(c, s) : NULL;
    if (!ti || !c->cyclic_comp[ti->comp]) return false;
    return comp == UINT32_MAX || ti->comp == comp;
}

/* The spelling a helper is named after: [[i8; 2]; 3] -> i8x2x3. */
static bool put_key(csgen *c, blobc_buffer *b, const blobc_type *t) {
    switch (t->kind) {
    case BLOBC_KIND_ENUM:
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION: return blobc_buf_puts(b, bare(info_of(c, t)->name));
    case BLOBC_KIND_STRING: return blobc_buf_puts(b, "string");
    case BLOBC_KIND_ARRAY: return blobc_buf_puts(b, "arr_") && put_key(c, b, t->elem);
    case BLOBC_KIND_PTR: return blobc_buf_puts(b, "ptr_") && put_key(c, b, t->elem);
    case BLOBC_KIND_FIXED:
        return put_key(c, b, t->elem) && blobc_buf_printf(b, "x%" PRIu32, t->count);
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_ANY: {
        const char *h = blobc_gencs_helper_for(c, t);
        return h && blobc_buf_puts(b, bare(h));
    }
    default: return blobc_buf_puts(b, blobc_kind_name(t->kind));
    }
}

/* Whether helper h is the one for t: a [T; N] by its spelling, a map by
 * its entry type and an optional by its type (the schema makes each
 * once), `any` by its kind. */
static bool same_helper(const cs_helper *h, const blobc_type *t, const char *key) {
    if (h->type->kind != t->kind) return false;
    switch (t->kind) {
    case BLOBC_KIND_FIXED: return strcmp(h->key, key) == 0;
    case BLOBC_KIND_MAP: return h->type->elem == t->elem;
    case BLOBC_KIND_OPTIONAL: return h->type == t;
    default: return true;
    }
}

/* The helper struct for a [T; N] used as an element, a map's entries, an
 * optional or `any`; made on first use. A map's and an optional's are
 * named after the field being written (c->base), as gen c names them:
 * Item_tags_entry, Item_score_opt. */
const char *blobc_gencs_helper_for(csgen *c, const blobc_type *t) {
    blobc_buffer key = {0};
    bool fixed = t->kind == BLOBC_KIND_FIXED;
    bool ok = !fixed || (put_key(c, &key, t) && blobc_buf_putc(&key, '\0'));
    const char *found = NULL;
    for (size_t i = 0; ok && !found && i < c->nhelpers; i++)
        if (same_helper(&c->helpers[i], t, (const char *)key.data)) found = c->helpers[i].name;
    if (ok && !found && c->nhelpers == c->helpers_cap) {
        size_t cap = c->helpers_cap ? c->helpers_cap * 2 : 8;
        cs_helper *h = realloc(c->helpers, cap * sizeof *h);
        if (h) {
            c->helpers = h;
            c->helpers_cap = cap;
        }
        ok = h != NULL;
    }
    if (ok && !found) {
        cs_helper *h = &c->helpers[c->nhelpers];
        h->key = fixed ? blobc_arena_strndup(&c->arena, (const char *)key.data, key.len - 1) : "";
        h->base = c->base ? c->base : "Blobc";
        key.len = 0;   /* c->tmp may hold the type being spelled */
        /* with one file per schema file, each file's helpers are its own
         * (a map's and an optional's carry the name of a type of the file) */
        const char *tag = c->file_tag ? c->file_tag : "", *sep = c->file_tag ? "_" : "";
        if (fixed) ok = h->key && blobc_buf_printf(&key, "Fixed_%s%s%s", h->key, sep, tag);
        else if (t->kind == BLOBC_KIND_MAP) ok = blobc_buf_printf(&key, "%s_entry", h->base);
        else if (t->kind == BLOBC_KIND_OPTIONAL) ok = blobc_buf_printf(&key, "%s_opt", h->base);
        else ok = blobc_buf_printf(&key, "BlobAny%s%s", sep, tag);
        h->name = ok ? blobc_gencs_unique_in(c, &c->globals, blobc_gencs_arena_str(c, &key)) : NULL;
        h->type = t;
        if ((found = h->name)) c->nhelpers++;
    }
    blobc_buffer_free(&key);
    return found;
}

/* The C# type of t, qualified with global:: when `full` (alias targets). */
bool blobc_gencs_put_type(csgen *c, blobc_buffer *b, const blobc_type *t, bool full) {
    const char *ent = !full ? "" : c->standalone ? "global::Blobc." : "global::Unity.Entities.";
    switch (t->kind) {
    case BLOBC_KIND_ENUM:
    case BLOBC_KIND_STRUCT:
    case BLOBC_KIND_UNION:
        if (full && !(blobc_buf_puts(b, "global::") &&
                      (!c->ns || (blobc_buf_puts(b, c->ns) && blobc_buf_putc(b, '.')))))
            return false;
        return blobc_buf_puts(b, info_of(c, t)->name);
    case BLOBC_KIND_STRING: return blobc_buf_printf(b, "%sBlobString", ent);
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
        return blobc_buf_printf(b, "%s%s<", ent, t->kind == BLOBC_KIND_ARRAY ? "BlobArray" : "BlobPtr") &&
               blobc_gencs_put_type(c, b, t->elem, full) && blobc_buf_putc(b, '>');
    case BLOBC_KIND_FIXED:
    case BLOBC_KIND_OPTIONAL:
    case BLOBC_KIND_ANY: {
        const char *m = blobc_gencs_math_name(c, t);
        if (m) return blobc_buf_printf(b, "%s%s%" PRIu32, full ? "global::Unity.Mathematics." : "", m, t->count);
        const char *h = blobc_gencs_helper_for(c, t);
        if (!h) return false;
        return full ? blobc_gencs_put_global(c, b, h) : blobc_buf_puts(b, h);
    }
    case BLOBC_KIND_MAP: {
        const char *h = blobc_gencs_helper_for(c, t);
        return h && blobc_buf_printf(b, "%sBlobArray<", ent) && (full ? blobc_gencs_put_global(c, b, h) : blobc_buf_puts(b, h)) &&
               blobc_buf_putc(b, '>');
    }
    default: return blobc_buf_puts(b, blobc_gencs_scalar_name(t->kind));
    }
}

bool blobc_gencs_put_global(csgen *c, blobc_buffer *b, const char *name) {
    return blobc_buf_puts(b, "global::") && (!c->ns || (blobc_buf_puts(b, c->ns) && blobc_buf_putc(b, '.'))) &&
           blobc_buf_puts(b, name);
}

/* ---- layout ---- */

/* The alignment C# gives a value of type t (its largest scalar). */
static uint32_t cs_align(const csgen *c, const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED || t->kind == BLOBC_KIND_OPTIONAL) t = t->elem;
    switch (t->kind) {
    case BLOBC_KIND_STRUCT: return info_of(c, t)->natural;
    case BLOBC_KIND_ENUM: return t->elem->size;
    case BLOBC_KIND_STRING:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_ANY:
    case BLOBC_KIND_UNION: return 4;
    default: return t->size;
    }
}

/* Whether a value of type t holds an offset (inline structs after their
 * own layout_all turn). */
bool blobc_gencs_holds_offsets(const csgen *c, const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED || t->kind == BLOBC_KIND_OPTIONAL) t = t->elem;
    switch (t->kind) {
    case BLOBC_KIND_STRING:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
    case BLOBC_KIND_MAP:
    case BLOBC_KIND_ANY:
    case BLOBC_KIND_UNION: return true;
    case BLOBC_KIND_STRUCT: return info_of(c, t)->blob_only;
    default: return false;
    }
}

static uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

/* Whether C#'s sequential layout puts every field where blobc does and
 * ends the struct at the same size; computed after every struct it
 * contains inline (the schema order does not promise that, so by
 * recursion over the named types, which blobc keeps free of inline
 * cycles, through an explicit worklist). */
static void compute_layout(csgen *c, size_t i) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    uint32_t cur = 0, nat = 1;
    bool same = true;
    for (uint32_t f = 0; f < t->nfields; f++) {
        const blobc_type *ft = t->fields[f].type;
        c->info[i].blob_only = c->info[i].blob_only || blobc_gencs_holds_offsets(c, ft);
        uint32_t a = cs_align(c, ft);
        if (a > nat) nat = a;
        if (round_up(cur, a) != t->fields[f].offset) same = false;
        cur = t->fields[f].offset + ft->size;
    }
    c->info[i].natural = nat;
    c->info[i].explicit_layout = !same || round_up(cur, nat) != t->size;
}

bool blobc_gencs_layout_all(csgen *c) {
    /* done[i]: 0 not yet, 1 on the worklist, 2 computed */
    uint8_t *done = calloc(c->ninfo ? c->ninfo : 1, 1);
    size_t *work = malloc((c->ninfo ? c->ninfo : 1) * sizeof *work);
    bool ok = done && work;
    for (size_t root = 0; ok && root < c->ninfo; root++) {
        if (done[root] || blobc_schema_at(c->schema, root)->kind != BLOBC_KIND_STRUCT) continue;
        size_t n = 0;
        work[n++] = root;
        done[root] = 1;
        while (n) {
            size_t i = work[n - 1];
            const blobc_type *t = blobc_schema_at(c->schema, i);
            bool pushed = false;
            for (uint32_t f = 0; f < t->nfields && !pushed; f++) {
                const blobc_type *ft = t->fields[f].type;
                while (ft->kind == BLOBC_KIND_FIXED || ft->kind == BLOBC_KIND_OPTIONAL) ft = ft->elem;
                size_t j = ft->kind == BLOBC_KIND_STRUCT ? blobc_typemap_find(&c->map, ft) : SIZE_MAX;
                if (j != SIZE_MAX && !done[j]) {
                    done[j] = 1;
                    work[n++] = j;
                    pushed = true;
                }
            }
            if (pushed) continue;
            compute_layout(c, i);
            done[i] = 2;
            n--;
        }
    }
    free(done);
    free(work);
    return ok;
}