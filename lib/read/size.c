/*
 * size.c - `blobc size`: where a blob's bytes go, by what they are
 * (header, values, offsets, strings, padding...), by the type of the
 * payload they are in, and by field path (`rooms[].tags`), each table
 * summing to the file's size exactly.
 *
 * It reads the layout listing (listing.c), which puts every data byte in
 * exactly one part. A path is a node of a tree: a field step is a child
 * node, written after the item steps that lead to it (`rooms[].tags`:
 * all items of a sequence are one row), padding the child " (padding)".
 * An item step stays in its node: `rooms` holds the offset and its items'
 * own bytes. Below `depth` field steps a step stays in its node, so a row
 * holds everything beneath it. A payload
 * (string bytes, [T] items, *T target) counts under the path of its first
 * reference, once however often it is shared; its row says how many
 * shared payloads it holds and how many references reach them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/hashtab.h"
#include "common/json_doc.h"
#include "blobc/dump.h"
#include "read/listing.h"

#define SIZE_DEPTH_DEFAULT 3
#define MAX_ITEMS 64 /* "[]" shown at most per step */

typedef struct snode {
    const char *name; /* the step: a field name or " (padding)"; NULL for the root */
    uint32_t parent;  /* node index */
    uint32_t depth;   /* field steps from the root */
    uint32_t items;   /* item steps from the parent to this field ("[]" each) */
    uint64_t bytes;
    uint64_t shared_bytes, refs;
    uint32_t shared;  /* shared payloads first reached here */
} snode;

/* What the bytes are: the first table. */
enum { K_HEADER, K_TYPES, K_VALUES, K_OFFSETS, K_STRINGS, K_PADDING, K_ALIGN, K_COUNT };
static const char *const kind_names[K_COUNT] = {
    "header", "type section", "values", "offsets and tags", "string bytes",
    "padding in structs", "alignment"};

typedef struct sizer {
    const blobc_walk *w;
    uint32_t depth;       /* field steps a row goes down to */
    snode *nodes;
    size_t nnodes, nodes_cap;
    blobc_hashtab byname; /* (parent, name) -> node index + 1 */
    uint32_t *stack;      /* per depth below the payload: its node, and item steps below it */
    size_t stack_cap;
    uint32_t *pnode;      /* per payload: the node of its first reference, item steps (x2) */
    uint32_t *refs;       /* per payload: references to it */
    uint32_t align_node;  /* gaps and tails */
    uint64_t kinds[K_COUNT];
    bool ok;
} sizer;

static uint32_t new_node(sizer *s, uint32_t parent, const char *name, uint32_t depth, uint32_t items) {
    if (!blobc_grow((void **)&s->nodes, &s->nodes_cap, s->nnodes + 1, sizeof *s->nodes) ||
        s->nnodes >= UINT32_MAX - 1) {
        s->ok = false;
        return 0;
    }
    s->nodes[s->nnodes] = (snode){name, parent, depth, items, 0, 0, 0, 0};
    return (uint32_t)s->nnodes++;
}

static uint64_t node_hash(uint32_t parent, const char *name) {
    return blobc_hash_bytes(name, strlen(name)) ^ blobc_hash_u64(parent);
}

/* The child `name` of node `parent` after `items` item steps, made on
 * first use; the parent itself below the depth asked for. */
static uint32_t child(sizer *s, uint32_t parent, const char *name, uint32_t items) {
    if (s->nodes[parent].depth >= s->depth || !s->ok) return parent;
    uint64_t h = node_hash(parent, name) ^ items;
    blobc_hprobe pr;
    for (uint32_t k = blobc_hashtab_first(&s->byname, h, &pr); k; k = blobc_hashtab_next(&s->byname, &pr)) {
        const snode *n = &s->nodes[k - 1];
        if (n->parent == parent && n->items == items && !strcmp(n->name, name)) return k - 1;
    }
    uint32_t id = new_node(s, parent, name, s->nodes[parent].depth + 1, items);
    if (s->ok && !blobc_hashtab_add(&s->byname, h, id + 1)) s->ok = false;
    return s->ok ? id : parent;
}

static bool on_payload(void *ctx, size_t k) {
    sizer *s = ctx;
    s->stack[0] = k && s->pnode[2 * k] ? s->pnode[2 * k] - 1 : 0;
    s->stack[1] = k ? s->pnode[2 * k + 1] : 0;
    return s->ok;
}

static bool on_step(void *ctx, uint32_t depth, const char *name, uint32_t index) {
    sizer *s = ctx;
    (void)index;
    size_t d = 2 * (size_t)depth;
    if (!blobc_grow((void **)&s->stack, &s->stack_cap, d + 4, sizeof *s->stack)) return false;
    uint32_t node = s->stack[d], items = s->stack[d + 1];
    if (name) {
        s->stack[d + 2] = child(s, node, name, items);
        s->stack[d + 3] = s->stack[d + 2] == node ? items : 0;
    } else {
        s->stack[d + 2] = node;
        s->stack[d + 3] = items < MAX_ITEMS ? items + 1 : items;
    }
    return s->ok;
}

static bool on_part(void *ctx, const blobc_lpart *e) {
    sizer *s = ctx;
    uint32_t node = s->stack[2 * (size_t)e->depth], items = s->stack[2 * (size_t)e->depth + 1];
    if (e->kind == BLOBC_L_OFFSET && e->payload != SIZE_MAX) {
        if (e->first) {
            s->pnode[2 * e->payload] = node + 1;
            s->pnode[2 * e->payload + 1] = items;
        }
        if (!e->prepass) s->refs[e->payload]++;
    }
    if (e->prepass) return s->ok;
    int kind;
    switch (e->kind) {
    case BLOBC_L_SCALAR: kind = K_VALUES; break;
    case BLOBC_L_OFFSET:
    case BLOBC_L_TAG:
    case BLOBC_L_UOFFSET:
    case BLOBC_L_PRESENCE: /* like a tag: which value there is */
    case BLOBC_L_ANYKIND: kind = K_OFFSETS; break;
    case BLOBC_L_ABSENT:
    case BLOBC_L_UNUSED:
        kind = K_PADDING;
        node = child(s, node, " (padding)", items);
        break;
    case BLOBC_L_STRING: kind = K_STRINGS; break;
    case BLOBC_L_PADDING:
        kind = K_PADDING;
        node = child(s, node, " (padding)", items);
        break;
    case BLOBC_L_GAP:
    case BLOBC_L_TAIL:
        kind = K_ALIGN;
        node = s->align_node;
        break;
    default: return s->ok; /* heads: their parts carry the bytes */
    }
    s->kinds[kind] += e->size;
    s->nodes[node].bytes += e->size;
    return s->ok;
}

/* ---- the tables ---- */

typedef struct srow {
    const char *name; /* NULL: a path, `node` */
    uint32_t node;
    uint64_t order;   /* among rows of equal bytes */
    uint64_t bytes, payloads, items;
} srow;

static int by_bytes(const void *a, const void *b) {
    const srow *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A node's path: its steps from the root, fields joined by ".", each
 * after its item steps. */
static void put_path(blobc_buffer *b, bool *ok, const sizer *s, uint32_t node) {
    uint32_t chain[BLOBC_SIZE_DEPTH_MAX + 1];
    size_t n = 0;
    for (uint32_t i = node; s->nodes[i].name && n <= BLOBC_SIZE_DEPTH_MAX; i = s->nodes[i].parent) chain[n++] = i;
    while (n--) {
        const snode *x = &s->nodes[chain[n]];
        bool top = !s->nodes[x->parent].name;
        for (uint32_t i = 0; i < x->items; i++) blobc_emit_bytes(b, ok, "[]", 2);
        if (x->name[0] != ' ' && !top) blobc_emit_bytes(b, ok, ".", 1);
        const char *name = top && !x->items && x->name[0] == ' ' ? x->name + 1 : x->name;
        blobc_emit_bytes(b, ok, name, strlen(name));
    }
}

static void put_pct(blobc_buffer *b, bool *ok, uint64_t part, uint64_t total) {
    uint64_t pm = total ? (part * 1000 + total / 2) / total : 0;
    blobc_emit(b, ok, "%5" PRIu64 ".%" PRIu64 "%%", pm / 10, pm % 10);
}

/* One row as a JSON object in array a: name (or path), then numbers. */
static void json_row(cJSON *a, bool *ok, const sizer *s, const srow *r, const char *key, bool counts) {
    cJSON *o = blobc_json_add_object(a, NULL);
    bool good = o != NULL;
    if (r->name) {
        good = good && blobc_json_add(o, key, blobc_json_text(r->name, strlen(r->name)));
    } else {
        blobc_buffer p = {0};
        put_path(&p, ok, s, r->node);
        good = good && blobc_json_add(o, key, blobc_json_text(p.data ? (const char *)p.data : "", p.len));
        blobc_buffer_free(&p);
    }
    good = good && blobc_json_add(o, "bytes", blobc_json_u64(r->bytes));
    if (counts)
        good = good && blobc_json_add(o, "payloads", blobc_json_u64(r->payloads)) &&
               blobc_json_add(o, "items", blobc_json_u64(r->items));
    const snode *n = r->name ? NULL : &s->nodes[r->node];
    if (n && n->shared)
        good = good && blobc_json_add(o, "shared_payloads", blobc_json_u64(n->shared)) &&
               blobc_json_add(o, "shared_bytes", blobc_json_u64(n->shared_bytes)) &&
               blobc_json_add(o, "references", blobc_json_u64(n->refs));
    if (!good) *ok = false;
}

/* One row of the text report: numbers, then name (or path). */
static void text_row(blobc_buffer *b, bool *ok, const sizer *s, const srow *r, uint64_t total, bool counts) {
    blobc_emit(b, ok, "%10" PRIu64 " ", r->bytes);
    put_pct(b, ok, r->bytes, total);
    if (counts && r->payloads) blobc_emit(b, ok, " %9" PRIu64 " %10" PRIu64, r->payloads, r->items);
    else if (counts) blobc_emit_bytes(b, ok, "                     ", 21);
    blobc_emit_bytes(b, ok, "  ", 2);
    if (r->name) blobc_emit_bytes(b, ok, r->name, strlen(r->name));
    else put_path(b, ok, s, r->node);
    const snode *n = r->name ? NULL : &s->nodes[r->node];
    if (n && n->shared)
        blobc_emit(b, ok, "  (%" PRIu32 " shared payload%s, %" PRIu64 " bytes, %" PRIu64 " references)",
                   n->shared, n->shared == 1 ? "" : "s", n->shared_bytes, n->refs);
    blobc_emit_bytes(b, ok, "\n", 1);
}

/* A table, largest rows first: into the text report b, or (doc not NULL)
 * as doc's array "<key>s". */
static void put_table(blobc_buffer *b, cJSON *doc, bool *ok, const sizer *s, srow *rows, size_t n,
                      uint64_t total, const char *key, const char *title, bool counts) {
    qsort(rows, n, sizeof *rows, by_bytes);
    char name[16];
    snprintf(name, sizeof name, "%ss", key);
    cJSON *a = doc ? blobc_json_add_array(doc, name) : NULL;
    if (doc && !a) *ok = false;
    if (!doc) blobc_emit(b, ok, "\n     bytes       %%%s  %s\n", counts ? "  payloads      items" : "", title);
    for (size_t i = 0; i < n && *ok; i++) {
        if (!rows[i].bytes) continue;
        if (doc) json_row(a, ok, s, &rows[i], key, counts);
        else text_row(b, ok, s, &rows[i], total, counts);
    }
    if (!doc) blobc_emit(b, ok, "%10" PRIu64 "   100.0%%%s  total\n", total, counts ? "                    " : "");
}

/* Bytes of the file outside the data: header, type section, and what
 * lies between the sections. */
static void container_bytes(sizer *s, const blobc_source *src, size_t len) {
    uint64_t header = 0, types = 0;
    if (src->is_unity) header = BLOBC_UNITY_DATA_OFFSET;
    else if (src->is_blob) {
        header = BLOBC_HEADER_SIZE;
        types = src->blob.header.types_size;
    }
    /* an opened container's sections lie inside the file, apart */
    uint64_t inside = header + types + src->size, rest = len > inside ? len - inside : 0;
    s->kinds[K_HEADER] = header;
    s->kinds[K_TYPES] = types;
    s->kinds[K_ALIGN] += rest;
    s->nodes[s->align_node].bytes += rest;
}

static void shared_counts(sizer *s) {
    for (size_t k = 0; k < s->w->ntab; k++) {
        blobc_wpayload pv = blobc_walk_payload(s->w, k);
        if (!(pv.flags & BLOBC_WP_SHARED)) continue;
        uint32_t esz;
        blobc_walk_tid_type(s->w, pv.tid, &esz);
        snode *n = &s->nodes[k && s->pnode[2 * k] ? s->pnode[2 * k] - 1 : 0];
        n->shared++;
        n->shared_bytes += (uint64_t)pv.count * esz;
        n->refs += s->refs[k];
    }
}

/* The report as text, or (doc not NULL) as doc's members. */
static void put_report(sizer *s, const blobc_source *src, size_t len, cJSON *doc, blobc_buffer *b) {
    bool *ok = &s->ok;
    char root[128];
    blobc_type_spell(src->root, root, sizeof root);
    srow kinds[K_COUNT];
    for (int i = 0; i < K_COUNT; i++) kinds[i] = (srow){kind_names[i], 0, (uint64_t)i, s->kinds[i], 0, 0};
    if (doc) {
        if (!blobc_json_add(doc, "file_size", blobc_json_u64(len)) ||
            !blobc_json_add(doc, "root", blobc_json_text(root, strlen(root))) ||
            !blobc_json_add(doc, "depth", blobc_json_u64(s->depth)))
            *ok = false;
    } else {
        blobc_emit(b, ok, "%zu bytes, root %s\n", len, root);
    }
    put_table(b, doc, ok, s, kinds, K_COUNT, len, "kind", "what", false);

    /* by the payloads' types (tids), and the container's parts */
    size_t ntid = s->w->ninfos, nt = ntid + 3;
    srow *rows = calloc(nt > s->nnodes + 2 ? nt : s->nnodes + 2, sizeof *rows);
    if (!rows) {
        *ok = false;
        return;
    }
    char(*names)[128] = calloc(ntid ? ntid : 1, sizeof *names);
    if (!names) *ok = false;
    for (size_t k = 0; k < s->w->ntab && names; k++) {
        blobc_wpayload pv = blobc_walk_payload(s->w, k);
        uint32_t esz;
        const blobc_type *t = blobc_walk_tid_type(s->w, pv.tid, &esz);
        srow *r = &rows[pv.tid];
        if (!r->name) {
            if (t) blobc_walk_spell_items(t, names[pv.tid], sizeof names[pv.tid]);
            else snprintf(names[pv.tid], sizeof names[pv.tid], "string bytes");
            *r = (srow){names[pv.tid], 0, 3 + (uint64_t)pv.tid, 0, 0, 0};
        }
        r->bytes += (uint64_t)pv.count * esz;
        r->payloads++;
        r->items += pv.count;
    }
    rows[ntid] = (srow){"(header)", 0, 0, s->kinds[K_HEADER], 0, 0};
    rows[ntid + 1] = (srow){"(type section)", 0, 1, s->kinds[K_TYPES], 0, 0};
    rows[ntid + 2] = (srow){"(alignment)", 0, 2, s->kinds[K_ALIGN], 0, 0};
    if (names) put_table(b, doc, ok, s, rows, nt, len, "type", "type", true);
    free(names);

    size_t nr = 0;
    rows[nr++] = (srow){"(header)", 0, 0, s->kinds[K_HEADER], 0, 0};
    rows[nr++] = (srow){"(type section)", 0, 1, s->kinds[K_TYPES], 0, 0};
    for (size_t i = 0; i < s->nnodes; i++)
        if (s->nodes[i].bytes || s->nodes[i].shared)
            rows[nr++] = (srow){NULL, (uint32_t)i, 2 + (uint64_t)i, s->nodes[i].bytes, 0, 0};
    char title[64];
    snprintf(title, sizeof title, "path (depth %" PRIu32 ")", s->depth);
    put_table(b, doc, ok, s, rows, nr, len, "path", title, false);
    free(rows);
}

blobc_status blobc_size_report(const blobc_source *src, const blobc_walk *w, size_t len,
                               uint32_t depth, bool json, blobc_buffer *out, blobc_error *err) {
    sizer s;
    memset(&s, 0, sizeof s);
    s.ok = true;
    s.w = w;
    s.depth = !depth ? SIZE_DEPTH_DEFAULT : depth < BLOBC_SIZE_DEPTH_MAX ? depth : BLOBC_SIZE_DEPTH_MAX;
    blobc_hashtab_init(&s.byname, NULL);
    size_t start = out->len;
    new_node(&s, 0, NULL, 0, 0);
    s.align_node = new_node(&s, 0, "(alignment)", 1, 0);
    static const blobc_layout_ops ops = {on_payload, on_step, on_part};
    s.pnode = calloc(2 * (w->ntab + 1), sizeof *s.pnode);
    s.refs = calloc(w->ntab + 1, sizeof *s.refs);
    if (!s.pnode || !s.refs || !blobc_grow((void **)&s.stack, &s.stack_cap, 4, sizeof *s.stack) ||
        !blobc_layout_list(w, src->data, src->size, false, &ops, &s))
        s.ok = false;
    cJSON *doc = json && s.ok ? cJSON_CreateObject() : NULL;
    if (json && !doc) s.ok = false;
    if (s.ok) {
        container_bytes(&s, src, len);
        shared_counts(&s);
        put_report(&s, src, len, doc, out);
    }
    if (doc) s.ok = blobc_json_print(doc, s.ok, true, out, err) == BLOBC_OK;
    free(s.pnode);
    free(s.refs);
    free(s.stack);
    free(s.nodes);
    blobc_hashtab_free(&s.byname);
    if (s.ok) return BLOBC_OK;
    out->len = start;
    return blobc_err_nomem(err);
}
