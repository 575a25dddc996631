/*
 * gen_cs.c - `blobc gen cs`: C# structs that read blobs of a schema in
 * place through Unity.Entities' blob types (BlobArray<T>, BlobPtr<T>,
 * BlobString), for files baked with `bake --format unity` and loaded with
 * BlobAssetReference<T>.TryRead. docs/UNITY.md has the mapping table.
 *
 * Every C# field sits at blobc's offset: a struct whose layout C#'s
 * sequential rules would not reproduce (an @align, or padding C would not
 * add) gets [StructLayout(LayoutKind.Explicit, Size = N)] and a
 * [FieldOffset] on every field. A BlobArray<T> or BlobPtr<T> whose T leads
 * back to the struct holding it (Mono's compiler rejects that as a layout
 * cycle, CS0523) is stored as plain ints and read through a property that
 * returns a ref to the typed view at the same address.
 */
#include "blobc/gen.h"

#include "common/arena.h"
#include "common/buffer.h"
#include "common/err.h"
#include "gen/gen_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

/* C#'s keywords, contextual ones included (`await` is one inside an
 * expression, `value__` names an enum's storage): such a schema name is
 * written @name, which C# reads as the plain identifier everywhere. */
static const char *const cs_keywords[] = {
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked",
    "class", "const", "continue", "decimal", "default", "delegate", "do", "double", "else",
    "enum", "event", "explicit", "extern", "false", "finally", "fixed", "float", "for",
    "foreach", "goto", "if", "implicit", "in", "int", "interface", "internal", "is", "lock",
    "long", "namespace", "new", "null", "object", "operator", "out", "override", "params",
    "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed", "short",
    "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true",
    "try", "typeof", "uint", "ulong", "unchecked", "unsafe", "ushort", "using", "virtual",
    "void", "volatile", "while",
    /* contextual */
    "add", "alias", "and", "args", "ascending", "async", "await", "by", "descending", "dynamic",
    "equals", "file", "from", "get", "global", "group", "init", "into", "join", "let", "managed",
    "nameof", "nint", "not", "notnull", "nuint", "on", "or", "orderby", "partial", "record",
    "remove", "required", "scoped", "select", "set", "unmanaged", "value", "var", "when", "where",
    "with", "yield",
    /* undocumented, but reserved by every compiler */
    "__arglist", "__makeref", "__reftype", "__refvalue",
};

/* Members every struct inherits from object (and ValueType): a field of
 * that name would hide one (CS0108/CS0114), so it gets a `_` behind, as
 * does a field `UnmanagedType` (see local_names). */
static const char *const object_members[] = {
    "Equals", "Finalize", "GetHashCode", "GetType", "MemberwiseClone", "ReferenceEquals", "ToString",
};

/* Names the output uses from Unity and the base library: a schema type
 * of the same name gets a `_` behind. */
static const char *const used_names[] = {
    "BlobArray", "BlobPtr", "BlobString", "BlobAssetReference", "UnsafeUtility", "Unity",
    "System", "StructLayout", "LayoutKind", "FieldOffset", "MarshalAs", "UnmanagedType",
    /* an attribute [X] is also looked up as XAttribute */
    "StructLayoutAttribute", "FieldOffsetAttribute", "MarshalAsAttribute", "MayOnlyLiveInBlobStorage",
    "MayOnlyLiveInBlobStorageAttribute",
};

/* Unity.Mathematics vector types ([T; 2..4] of these elements). */
static const struct {
    blobc_kind kind;
    const char *name;
} math_elems[] = {
    {BLOBC_KIND_F32, "float"}, {BLOBC_KIND_F64, "double"}, {BLOBC_KIND_I32, "int"},
    {BLOBC_KIND_U32, "uint"},  {BLOBC_KIND_BOOL, "bool"},
};

static bool is_keyword(const char *s) {
    for (size_t i = 0; i < sizeof cs_keywords / sizeof cs_keywords[0]; i++)
        if (strcmp(s, cs_keywords[i]) == 0) return true;
    return false;
}

typedef struct cs_type_info {
    const char *name;           /* C# name, '@' included */
    const char **members;       /* struct: per field; union: per member, its As property */
    const char **values;        /* enum: per value; union: per member, its Tag */
    const char *tag_enum, *tag_field, *offset_field; /* union: Tag, tag, offset */
    uint32_t natural;           /* struct: the alignment C# gives it */
    uint32_t comp;              /* struct: strongly connected component */
    bool explicit_layout;
    bool blob_only;             /* struct: holds offsets, valid only in blob storage */
} cs_type_info;

/* A struct the output adds for a [T; N] that is itself an element. */
typedef struct cs_helper {
    const char *key;            /* the spelling it is made for */
    const char *name;
    const blobc_type *type;
} cs_helper;

typedef struct csgen {
    const blobc_schema *schema;
    blobc_buffer *out;
    blobc_error *err;
    bool ok;
    bool math;
    const char *ns;
    const char *indent;         /* "" or "    " inside a namespace */
    const char *owner;          /* the struct being written */
    blobc_arena arena;
    blobc_buffer tmp, props, aliases;
    blobc_nameset globals;
    blobc_typemap map;
    cs_type_info *info;
    size_t ninfo;
    bool *cyclic_comp;          /* per component: it has a cycle */
    cs_helper *helpers;
    size_t nhelpers, helpers_cap;
} csgen;

#define emit(x, ...) blobc_emit((x)->out, &(x)->ok, __VA_ARGS__)

/* Names from outside are written in full from global::, so that no
 * schema name (a field `UnsafeUtility`, a namespace `Game.System`) can
 * stand in their way. */
#define AS_REF "global::Unity.Collections.LowLevel.Unsafe.UnsafeUtility.AsRef"

/* A schema doc comment as an XML doc comment, `extra` deeper than the
 * current indent; blobc_gen_doc_line keeps each line inside it. */
static void emit_doc(csgen *c, const char *extra, const char *doc) {
    if (!doc || !*doc) return;
    bool multi = strchr(doc, '\n') != NULL;
    emit(c, "%s%s/// <summary>%s", c->indent, extra, multi ? "\n" : "");
    for (const char *p = doc; *p;) {
        size_t n = strcspn(p, "\n");
        if (multi) emit(c, "%s%s///%s", c->indent, extra, n ? " " : "");
        if (c->ok) c->ok = blobc_gen_doc_line(c->out, p, n, BLOBC_GEN_DOC_CS);
        if (multi) emit(c, "\n");
        p += n;
        if (*p) p++;
    }
    if (multi) emit(c, "%s%s/// </summary>\n", c->indent, extra);
    else emit(c, "</summary>\n");
}

static cs_type_info *info_of(const csgen *c, const blobc_type *t) {
    size_t i = blobc_typemap_find(&c->map, t);
    return i == SIZE_MAX ? NULL : &c->info[i];
}

/* ---- names ---- */

static char *arena_str(csgen *c, const blobc_buffer *b) {
    return blobc_arena_strndup(&c->arena, (const char *)b->data, b->len);
}

static const char *unique_in(csgen *c, blobc_nameset *set, const char *base) {
    return blobc_nameset_unique(set, NULL, &c->arena, base);
}

/* A schema identifier as C# writes it: @ in front of a keyword. */
static const char *escaped(csgen *c, const char *s) {
    if (!is_keyword(s)) return s;
    size_t n = strlen(s);
    char *r = blobc_arena_alloc(&c->arena, n + 2);
    if (!r) return NULL;
    r[0] = '@';
    memcpy(r + 1, s, n + 1);
    return r;
}

/* The name without its @, to build other names from. */
static const char *bare(const char *s) { return s[0] == '@' ? s + 1 : s; }

/* A type's own names start from its name (CS0542) and what it inherits:
 * an enum's `value__` (CS0076), a struct's object members (CS0108). */
static bool local_names(blobc_nameset *local, const char *type_name, blobc_kind kind) {
    if (!blobc_nameset_add(local, type_name)) return false;
    if (kind == BLOBC_KIND_ENUM) return strcmp(type_name, "value__") == 0 || blobc_nameset_add(local, "value__");
    for (size_t k = 0; k < sizeof object_members / sizeof object_members[0]; k++)
        if (!blobc_nameset_has(local, object_members[k]) && !blobc_nameset_add(local, object_members[k]))
            return false;
    /* [MarshalAs(UnmanagedType.U1)] on a bool field looks the name up in the struct */
    return blobc_nameset_has(local, "UnmanagedType") || blobc_nameset_add(local, "UnmanagedType");
}

/* `base` (a C# name, @ kept) with `prefix` in front of its bare form,
 * unique in `set`. */
static const char *unique_with(csgen *c, blobc_nameset *set, const char *prefix, const char *base) {
    c->tmp.len = 0;
    if (!blobc_buf_printf(&c->tmp, "%s%s", prefix, *prefix ? bare(base) : base)) return NULL;
    return unique_in(c, set, arena_str(c, &c->tmp));
}

/* The names inside named type i: a struct's fields; an enum's values; a
 * union's Tag enum, tag and offset fields and As properties, and the
 * Tag's values. */
static bool member_names(csgen *c, size_t i, blobc_nameset *local) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    cs_type_info *ti = &c->info[i];
    if (t->kind == BLOBC_KIND_ENUM) {
        if (!(ti->values = blobc_arena_array(&c->arena, t->nvalues ? t->nvalues : 1, sizeof(char *))))
            return false;
        for (uint32_t v = 0; v < t->nvalues; v++)
            if (!(ti->values[v] = unique_in(c, local, escaped(c, t->values[v].name)))) return false;
        return true;
    }
    uint32_t n = t->nfields ? t->nfields : 1;
    if (!(ti->members = blobc_arena_array(&c->arena, n, sizeof(char *)))) return false;
    if (t->kind == BLOBC_KIND_STRUCT) {
        for (uint32_t f = 0; f < t->nfields; f++)
            if (!(ti->members[f] = unique_in(c, local, escaped(c, t->fields[f].name)))) return false;
        return true;
    }
    /* the member types are named inside the union: nothing there may
     * hide one (a member struct `Tag` would make the enum Tag_) */
    for (uint32_t m = 0; m < t->nfields; m++) {
        const char *mn = info_of(c, t->fields[m].type->elem)->name;
        if (!blobc_nameset_has(local, mn) && !blobc_nameset_add(local, mn)) return false;
    }
    if (!(ti->values = blobc_arena_array(&c->arena, n, sizeof(char *))) ||
        !(ti->tag_enum = unique_in(c, local, "Tag")) || !(ti->tag_field = unique_in(c, local, "tag")) ||
        !(ti->offset_field = unique_in(c, local, "offset")))
        return false;
    blobc_nameset tags = {0};
    bool ok = blobc_nameset_add(&tags, ti->tag_enum) && blobc_nameset_add(&tags, "value__") &&
              blobc_nameset_add(&tags, "None");
    for (uint32_t m = 0; ok && m < t->nfields; m++) {
        const char *mn = info_of(c, t->fields[m].type->elem)->name;
        ok = (ti->members[m] = unique_with(c, local, "As", mn)) && (ti->values[m] = unique_in(c, &tags, mn));
    }
    blobc_nameset_free(&tags);
    return ok;
}

static bool assign_names(csgen *c) {
    for (size_t i = 0; i < sizeof used_names / sizeof used_names[0]; i++)
        if (!blobc_nameset_add(&c->globals, used_names[i])) return false;
    for (size_t i = 0; c->math && i < sizeof math_elems / sizeof math_elems[0]; i++)
        for (int n = 2; n <= 4; n++) {
            c->tmp.len = 0;
            if (!blobc_buf_printf(&c->tmp, "%s%d", math_elems[i].name, n)) return false;
            char *s = arena_str(c, &c->tmp);
            if (!s || !blobc_nameset_add(&c->globals, s)) return false;
        }
    for (size_t i = 0; i < c->ninfo; i++)
        if (!(c->info[i].name = unique_in(c, &c->globals, escaped(c, blobc_schema_at(c->schema, i)->name))))
            return false;
    for (size_t i = 0; i < c->ninfo; i++) {
        /* C# forbids a member named like its type (CS0542) */
        blobc_nameset local = {0};
        bool ok = local_names(&local, c->info[i].name, blobc_schema_at(c->schema, i)->kind) &&
                  member_names(c, i, &local);
        blobc_nameset_free(&local);
        if (!ok) return false;
    }
    return true;
}

/* ---- the struct graph: which BlobArray/BlobPtr close a cycle ---- */

/* The named struct a field type leads to through [T], *T and [T; N]. */
static const blobc_type *reached_struct(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_PTR || t->kind == BLOBC_KIND_FIXED)
        t = t->elem;
    return t->kind == BLOBC_KIND_STRUCT ? t : NULL;
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

static bool find_components(csgen *c) {
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
static bool needs_raw(const csgen *c, const blobc_type *t, uint32_t comp) {
    if (t->kind != BLOBC_KIND_ARRAY && t->kind != BLOBC_KIND_PTR) return false;
    const blobc_type *s = reached_struct(t->elem);
    const cs_type_info *ti = s ? info_of(c, s) : NULL;
    if (!ti || !c->cyclic_comp[ti->comp]) return false;
    return comp == UINT32_MAX || ti->comp == comp;
}

/* ---- C# spelling of types ---- */

static const char *scalar_name(blobc_kind k) {
    switch (k) {
    case BLOBC_KIND_BOOL: return "bool";
    case BLOBC_KIND_I8: return "sbyte";
    case BLOBC_KIND_U8: return "byte";
    case BLOBC_KIND_I16: return "short";
    case BLOBC_KIND_U16: return "ushort";
    case BLOBC_KIND_I32: return "int";
    case BLOBC_KIND_U32: return "uint";
    case BLOBC_KIND_I64: return "long";
    case BLOBC_KIND_U64: return "ulong";
    case BLOBC_KIND_F32: return "float";
    case BLOBC_KIND_F64: return "double";
    default: return NULL;
    }
}

/* "float" for a [f32; 2..4] that maps to float2..float4, else NULL. */
static const char *math_name(const csgen *c, const blobc_type *t) {
    if (!c->math || t->kind != BLOBC_KIND_FIXED || t->count < 2 || t->count > 4) return NULL;
    for (size_t i = 0; i < sizeof math_elems / sizeof math_elems[0]; i++)
        if (t->elem->kind == math_elems[i].kind) return math_elems[i].name;
    return NULL;
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
    default: return blobc_buf_puts(b, blobc_kind_name(t->kind));
    }
}

/* The helper struct for a [T; N] used as an element; made on first use. */
static const char *helper_for(csgen *c, const blobc_type *t) {
    blobc_buffer key = {0};
    bool ok = put_key(c, &key, t) && blobc_buf_putc(&key, '\0');
    const char *found = NULL;
    for (size_t i = 0; ok && !found && i < c->nhelpers; i++)
        if (strcmp(c->helpers[i].key, (const char *)key.data) == 0) found = c->helpers[i].name;
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
        h->key = blobc_arena_strndup(&c->arena, (const char *)key.data, key.len - 1);
        key.len = 0;   /* c->tmp may hold the type being spelled */
        ok = h->key && blobc_buf_printf(&key, "Fixed_%s", h->key);
        h->name = ok ? unique_in(c, &c->globals, arena_str(c, &key)) : NULL;
        h->type = t;
        if ((found = h->name)) c->nhelpers++;
    }
    blobc_buffer_free(&key);
    return found;
}

/* The C# type of t, qualified with global:: when `full` (alias targets). */
static bool put_type(csgen *c, blobc_buffer *b, const blobc_type *t, bool full) {
    const char *ent = full ? "global::Unity.Entities." : "";
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
               put_type(c, b, t->elem, full) && blobc_buf_putc(b, '>');
    case BLOBC_KIND_FIXED: {
        const char *m = math_name(c, t);
        if (m) return blobc_buf_printf(b, "%s%s%" PRIu32, full ? "global::Unity.Mathematics." : "", m, t->count);
        const char *h = helper_for(c, t);
        if (!h) return false;
        if (full && !(blobc_buf_puts(b, "global::") &&
                      (!c->ns || (blobc_buf_puts(b, c->ns) && blobc_buf_putc(b, '.')))))
            return false;
        return blobc_buf_puts(b, h);
    }
    default: return blobc_buf_puts(b, scalar_name(t->kind));
    }
}

/* ---- layout ---- */

/* The alignment C# gives a value of type t (its largest scalar). */
static uint32_t cs_align(const csgen *c, const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED) t = t->elem;
    switch (t->kind) {
    case BLOBC_KIND_STRUCT: return info_of(c, t)->natural;
    case BLOBC_KIND_ENUM: return t->elem->size;
    case BLOBC_KIND_STRING:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
    case BLOBC_KIND_UNION: return 4;
    default: return t->size;
    }
}

/* Whether a value of type t holds an offset (inline structs after their
 * own layout_all turn). */
static bool holds_offsets(const csgen *c, const blobc_type *t) {
    while (t->kind == BLOBC_KIND_FIXED) t = t->elem;
    switch (t->kind) {
    case BLOBC_KIND_STRING:
    case BLOBC_KIND_ARRAY:
    case BLOBC_KIND_PTR:
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
        c->info[i].blob_only = c->info[i].blob_only || holds_offsets(c, ft);
        uint32_t a = cs_align(c, ft);
        if (a > nat) nat = a;
        if (round_up(cur, a) != t->fields[f].offset) same = false;
        cur = t->fields[f].offset + ft->size;
    }
    c->info[i].natural = nat;
    c->info[i].explicit_layout = !same || round_up(cur, nat) != t->size;
}

static bool layout_all(csgen *c) {
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
                while (ft->kind == BLOBC_KIND_FIXED) ft = ft->elem;
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

/* ---- emission ---- */

static void emit_offset(csgen *c, bool explicit_layout, uint32_t off) {
    if (explicit_layout) emit(c, "[FieldOffset(%" PRIu32 ")] ", off);
}

/* One C# field `name` of type t at `off`: typed, or as ints with a ref
 * property (needs_raw). */
static void emit_slot(csgen *c, bool ex, const char *name, const blobc_type *t, uint32_t off,
                      bool raw, blobc_nameset *local, const char *doc) {
    c->tmp.len = 0;
    if (!raw) {
        c->ok = c->ok && put_type(c, &c->tmp, t, false) && blobc_buf_putc(&c->tmp, '\0');
        if (!c->ok) return;
        emit_doc(c, "    ", doc);
        emit(c, "%s    ", c->indent);
        emit_offset(c, ex, off);
        if (t->kind == BLOBC_KIND_BOOL) emit(c, "[MarshalAs(UnmanagedType.U1)] ");
        emit(c, "public %s %s;\n", (const char *)c->tmp.data, name);
        return;
    }
    /* int fields at the offsets, an alias for the typed view (Mono's
     * parser takes `ref` only before a non-generic type name), and the
     * property */
    const char *b = bare(name);
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_offset", b);
    const char *off_name = c->ok ? unique_in(c, local, arena_str(c, &c->tmp)) : NULL;
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_length", b);
    const char *len_name = c->ok && t->kind == BLOBC_KIND_ARRAY ? unique_in(c, local, arena_str(c, &c->tmp)) : "";
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_%s", bare(c->owner), b);
    const char *alias = c->ok ? unique_in(c, &c->globals, arena_str(c, &c->tmp)) : NULL;
    if (!off_name || !len_name || !alias) {
        c->ok = false;
        return;
    }
    emit(c, "%s    ", c->indent);
    emit_offset(c, ex, off);
    emit(c, "internal int %s;\n", off_name);
    if (*len_name) {
        emit(c, "%s    ", c->indent);
        emit_offset(c, ex, off + 4);
        emit(c, "internal int %s;\n", len_name);
    }
    c->ok = c->ok && blobc_buf_printf(&c->aliases, "%susing %s = ", c->indent, alias) &&
            put_type(c, &c->aliases, t, true) && blobc_buf_puts(&c->aliases, ";\n");
    blobc_buffer *fields = c->out;
    c->out = &c->props;   /* the doc goes with the property */
    emit_doc(c, "    ", doc);
    c->out = fields;
    c->ok = c->ok && blobc_buf_printf(&c->props,
                                      "%s    public ref %s %s { get { fixed (int* p = &%s) "
                                      "{ return ref " AS_REF "<%s>(p); } } }\n",
                                      c->indent, alias, name, off_name, alias);
}

/* A field of type t (any kind) at `off`, in a struct of component comp. */
static void emit_field(csgen *c, bool ex, const char *name, const blobc_type *t, uint32_t off,
                       uint32_t comp, blobc_nameset *local, const char *doc) {
    if (t->kind != BLOBC_KIND_FIXED || math_name(c, t)) {
        emit_slot(c, ex, name, t, off, needs_raw(c, t, comp), local, doc);
        return;
    }
    const blobc_type *inner = t;
    uint32_t total = 1;
    while (inner->kind == BLOBC_KIND_FIXED && !math_name(c, inner)) {
        total *= inner->count;   /* bounded: the fixed array's size is below 2^31 */
        inner = inner->elem;
    }
    if (scalar_name(inner->kind)) {
        /* nested [[i8; 2]; 3] -> one buffer of 6, row by row */
        emit_doc(c, "    ", doc);
        emit(c, "%s    ", c->indent);
        emit_offset(c, ex, off);
        emit(c, "public fixed %s %s[%" PRIu32 "];\n", scalar_name(inner->kind), name, total);
        return;
    }
    /* one field per item: name_0, name_1, ... */
    const char *b = bare(name);
    for (uint32_t k = 0; k < t->count && c->ok; k++) {
        c->tmp.len = 0;
        c->ok = blobc_buf_printf(&c->tmp, "%s_%" PRIu32, b, k);
        const char *item = c->ok ? unique_in(c, local, arena_str(c, &c->tmp)) : NULL;
        if (!item) {
            c->ok = false;
            return;
        }
        const blobc_type *e = t->elem;
        emit_slot(c, ex, item, e, off + k * e->size, needs_raw(c, e, comp), local, k ? NULL : doc);
    }
}

/* Unity's blob-safety analysis refuses a copy of a struct marked
 * [MayOnlyLiveInBlobStorage]: a copy of one that holds offsets would read
 * garbage, and an offset stored as plain ints is invisible to it. */
static void emit_struct_head(csgen *c, bool ex, bool blob_only, uint32_t size, const char *name) {
    if (blob_only) emit(c, "%s[MayOnlyLiveInBlobStorage]\n", c->indent);
    if (ex) emit(c, "%s[StructLayout(LayoutKind.Explicit, Size = %" PRIu32 ")]\n", c->indent, size);
    emit(c, "%spublic unsafe struct %s\n%s{\n", c->indent, name, c->indent);
}

/* Fields first, then the ref properties of the untyped ones. */
static void emit_struct_tail(csgen *c) {
    if (c->ok && c->props.len) c->ok = blobc_buf_append(c->out, c->props.data, c->props.len);
    c->props.len = 0;
    emit(c, "%s}\n\n", c->indent);
}

static void emit_struct(csgen *c, size_t i) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    const cs_type_info *ti = &c->info[i];
    emit(c, "%s// struct %s: size %" PRIu32 ", alignment %" PRIu32 "%s\n", c->indent, t->name,
         t->size, t->align, ti->explicit_layout ? "; explicit: C#'s sequential layout differs" : "");
    emit_doc(c, "", t->doc);
    emit_struct_head(c, ti->explicit_layout, ti->blob_only, t->size, ti->name);
    c->owner = ti->name;
    blobc_nameset local = {0};
    c->ok = c->ok && local_names(&local, ti->name, BLOBC_KIND_STRUCT);
    for (uint32_t f = 0; c->ok && f < t->nfields; f++) c->ok = blobc_nameset_add(&local, ti->members[f]);
    for (uint32_t f = 0; c->ok && f < t->nfields; f++)
        emit_field(c, ti->explicit_layout, ti->members[f], t->fields[f].type, t->fields[f].offset,
                   ti->comp, &local, t->fields[f].doc);
    blobc_nameset_free(&local);
    emit_struct_tail(c);
}

/* A helper for [T; N]: always explicit, its items as one fixed buffer or
 * as fields item_0, item_1, ... */
static void emit_helper(csgen *c, const cs_helper *h) {
    emit(c, "%s// %s as an element: size %" PRIu32 "\n", c->indent, h->key, h->type->size);
    emit_struct_head(c, true, holds_offsets(c, h->type), h->type->size, h->name);
    c->owner = h->name;
    blobc_nameset local = {0};
    c->ok = c->ok && local_names(&local, h->name, BLOBC_KIND_STRUCT) && blobc_nameset_add(&local, "item");
    emit_field(c, true, "item", h->type, 0, UINT32_MAX, &local, NULL);
    blobc_nameset_free(&local);
    emit_struct_tail(c);
}

static void emit_enum(csgen *c, size_t i) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    const cs_type_info *ti = &c->info[i];
    emit_doc(c, "", t->doc);
    emit(c, "%spublic enum %s : %s\n%s{\n", c->indent, ti->name, scalar_name(t->elem->kind), c->indent);
    bool is_signed = blobc_kind_is_signed(t->elem->kind);
    for (uint32_t v = 0; v < t->nvalues; v++) {
        uint64_t bits = t->values[v].value;
        emit_doc(c, "    ", t->values[v].doc);
        emit(c, "%s    %s = ", c->indent, ti->values[v]);
        if (is_signed) emit(c, "%" PRId64 ",\n", (int64_t)bits);
        else emit(c, "%" PRIu64 ",\n", bits);
    }
    emit(c, "%s}\n\n", c->indent);
}

/* A union: its tag as a nested enum (None, then the members), the
 * member's offset, and a ref property per member that checks the tag. */
static void emit_union(csgen *c, size_t i) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    const cs_type_info *ti = &c->info[i];
    const char *in = c->indent;
    emit(c, "%s// union %s: size %" PRIu32 ", alignment %" PRIu32 "; tag 0 holds no member\n", in,
         t->name, t->size, t->align);
    emit_doc(c, "", t->doc);
    emit(c, "%s[MayOnlyLiveInBlobStorage]\n%spublic unsafe struct %s\n%s{\n", in, in, ti->name, in);
    emit(c, "%s    public enum %s : uint\n%s    {\n%s        None = 0,\n", in, ti->tag_enum, in, in);
    for (uint32_t m = 0; m < t->nfields; m++) {
        emit_doc(c, "        ", t->fields[m].doc);
        emit(c, "%s        %s = %" PRIu32 ",\n", in, ti->values[m], m + 1);
    }
    emit(c, "%s    }\n\n%s    public %s %s;\n%s    internal int %s;\n", in, in, ti->tag_enum, ti->tag_field, in,
         ti->offset_field);
    for (uint32_t m = 0; m < t->nfields; m++) {
        const char *mn = info_of(c, t->fields[m].type->elem)->name;
        emit_doc(c, "    ", t->fields[m].doc);
        emit(c, "%s    public ref %s %s { get { if (%s != %s.%s) throw new global::System.InvalidOperationException(\"%s holds another member\"); "
                "fixed (int* p = &%s) { return ref " AS_REF "<%s>((byte*)p + %s); } } }\n",
             in, mn, ti->members[m], ti->tag_field, ti->tag_enum, ti->values[m], bare(ti->name),
             ti->offset_field, mn, ti->offset_field);
    }
    emit(c, "%s}\n\n", in);
}

static bool valid_namespace(const char *ns) {
    char part[256];
    for (const char *p = ns;;) {
        size_t n = strcspn(p, ".");
        if (n == 0 || n >= sizeof part) return false;
        memcpy(part, p, n);
        part[n] = '\0';
        if (!blobc_gen_is_identifier(part) || is_keyword(part)) return false;
        if (!p[n]) return true;
        p += n + 1;
    }
}

static void generate(csgen *c) {
    const blobc_type *root = blobc_schema_root(c->schema);
    emit(c, "// Generated by `blobc gen cs` from ");
    c->ok = c->ok && blobc_gen_file_name(c->schema, c->out);
    emit(c, "; do not edit.\n"
            "// Reads blobs baked with `blobc bake --format unity` in place, through\n"
            "// BlobAssetReference<T>.TryRead (Unity.Entities). See docs/UNITY.md.\n");
    if (root && info_of(c, root))
        emit(c, "// Root type: %s, schema hash 0x%016" PRIx64 ".\n", info_of(c, root)->name,
             blobc_type_hash(root));
    emit(c, "\nusing System.Runtime.InteropServices;\n");
    /* the body goes to a side buffer: the aliases it collects come first */
    blobc_buffer *file = c->out, body = {0};
    c->out = &body;
    for (size_t i = 0; i < c->ninfo; i++) {
        blobc_kind k = blobc_schema_at(c->schema, i)->kind;
        if (k == BLOBC_KIND_ENUM) emit_enum(c, i);
        else if (k == BLOBC_KIND_UNION) emit_union(c, i);
        else emit_struct(c, i);
    }
    for (size_t h = 0; h < c->nhelpers && c->ok; h++) emit_helper(c, &c->helpers[h]);
    c->out = file;
    emit(c, "using Unity.Entities;\n");
    if (c->math) emit(c, "using Unity.Mathematics;\n");
    emit(c, "\n");
    if (c->ns) emit(c, "namespace %s\n{\n", c->ns);
    if (c->ok && c->aliases.len)
        c->ok = blobc_buf_append(c->out, c->aliases.data, c->aliases.len) && blobc_buf_putc(c->out, '\n');
    /* no blank line before the namespace's closing brace */
    size_t len = body.len;
    if (c->ns && len >= 2) len--;
    if (c->ok) c->ok = blobc_buf_append(c->out, body.data, len);
    if (c->ns) emit(c, "}\n");
    blobc_buffer_free(&body);
}

blobc_status blobc_gen_cs(const blobc_schema *schema, const blobc_gen_cs_options *opts,
                          blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!schema || !out) return blobc_err_arg(err, __func__, "schema or out is NULL");
    const char *ns = opts && opts->namespace_name && *opts->namespace_name ? opts->namespace_name : NULL;
    if (ns && !valid_namespace(ns))
        return blobc_err(err, BLOBC_EARG, "gen cs: namespace '%s' is not a C# namespace name", ns);
    csgen c;
    memset(&c, 0, sizeof c);
    c.schema = schema;
    c.out = out;
    c.err = err;
    c.ok = true;
    c.math = !(opts && opts->no_mathematics);
    c.ns = ns;
    c.indent = ns ? "    " : "";
    blobc_arena_init(&c.arena);
    size_t start = out->len;
    c.ninfo = blobc_schema_count(schema);
    c.info = calloc(c.ninfo ? c.ninfo : 1, sizeof *c.info);
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; c.info && i < c.ninfo; i++) {
        const blobc_type *t = blobc_schema_at(schema, i);
        if (!t || !t->name ||
            (t->kind != BLOBC_KIND_ENUM && t->kind != BLOBC_KIND_STRUCT && t->kind != BLOBC_KIND_UNION))
            st = blobc_err(err, BLOBC_EINPUT,
                           "gen cs: named type %zu is not an enum, a struct or a union", i);
    }
    if (!st && (!c.info || !blobc_typemap_build(&c.map, schema) || !assign_names(&c) ||
                !find_components(&c) || !layout_all(&c)))
        st = blobc_err_nomem(err);
    if (!st) {
        generate(&c);
        if (!c.ok) st = blobc_err_nomem(err);
    }
    if (st) out->len = start;   /* all or nothing */
    free(c.info);
    free(c.cyclic_comp);
    free(c.helpers);
    blobc_typemap_free(&c.map);
    blobc_nameset_free(&c.globals);
    blobc_buffer_free(&c.tmp);
    blobc_buffer_free(&c.props);
    blobc_buffer_free(&c.aliases);
    blobc_arena_free(&c.arena);
    return st;
}
