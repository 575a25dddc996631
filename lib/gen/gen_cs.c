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
#include "gen/cs_internal.h"
#include "common/kind.h"

#include <inttypes.h>
#include <stdlib.h>

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

/* ---- emission ---- */

/* c->base = Owner_field + suffix, after which a map's or an optional's
 * helper struct is named (field "" leaves Owner alone). */
static void set_base(csgen *c, const char *owner, const char *field, const char *suffix) {
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s%s%s%s", bare(owner), *field ? "_" : "", bare(field), suffix);
    c->base = c->ok ? blobc_gencs_arena_str(c, &c->tmp) : NULL;
    c->ok = c->ok && c->base;
}

static void emit_offset(csgen *c, bool explicit_layout, uint32_t off) {
    if (explicit_layout) emit(c, "[FieldOffset(%" PRIu32 ")] ", off);
}

/* One C# field `name` of type t at `off`: typed, or as ints with a ref
 * property (needs_raw). */
static void emit_slot(csgen *c, bool ex, const char *name, const blobc_type *t, uint32_t off,
                      bool raw, blobc_nameset *local, const char *doc) {
    c->tmp.len = 0;
    if (!raw) {
        c->ok = c->ok && blobc_gencs_put_type(c, &c->tmp, t, false) && blobc_buf_putc(&c->tmp, '\0');
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
    const char *off_name = c->ok ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_length", b);
    const char *len_name = c->ok && t->kind != BLOBC_KIND_PTR ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : "";
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_%s", bare(c->owner), b);
    const char *alias = c->ok ? blobc_gencs_unique_in(c, &c->globals, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
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
            blobc_gencs_put_type(c, &c->aliases, t, true) && blobc_buf_puts(&c->aliases, ";\n");
    blobc_buffer *fields = c->out;
    c->out = &c->props;   /* the doc goes with the property */
    emit_doc(c, "    ", doc);
    c->out = fields;
    c->ok = c->ok && blobc_buf_printf(&c->props,
                                      "%s    public ref %s %s { get { fixed (int* p = &%s) "
                                      "{ return ref %s<%s>(p); } } }\n",
                                      c->indent, alias, name, off_name, as_ref(c), alias);
}

/* A field of type t (any kind) at `off`, in a struct of component comp. */
static void emit_field(csgen *c, bool ex, const char *name, const blobc_type *t, uint32_t off,
                       uint32_t comp, blobc_nameset *local, const char *doc) {
    if (t->kind != BLOBC_KIND_FIXED || blobc_gencs_math_name(c, t)) {
        emit_slot(c, ex, name, t, off, blobc_gencs_needs_raw(c, t, comp), local, doc);
        return;
    }
    const blobc_type *inner = t;
    uint32_t total = 1;
    while (inner->kind == BLOBC_KIND_FIXED && !blobc_gencs_math_name(c, inner)) {
        total *= inner->count;   /* bounded: the fixed array's size is below 2^31 */
        inner = inner->elem;
    }
    if (blobc_gencs_scalar_name(inner->kind)) {
        /* nested [[i8; 2]; 3] -> one buffer of 6, row by row */
        emit_doc(c, "    ", doc);
        emit(c, "%s    ", c->indent);
        emit_offset(c, ex, off);
        emit(c, "public fixed %s %s[%" PRIu32 "];\n", blobc_gencs_scalar_name(inner->kind), name, total);
        return;
    }
    /* one field per item: name_0, name_1, ... */
    const char *b = bare(name);
    for (uint32_t k = 0; k < t->count && c->ok; k++) {
        c->tmp.len = 0;
        c->ok = blobc_buf_printf(&c->tmp, "%s_%" PRIu32, b, k);
        const char *item = c->ok ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
        if (!item) {
            c->ok = false;
            return;
        }
        const blobc_type *e = t->elem;
        emit_slot(c, ex, item, e, off + k * e->size, blobc_gencs_needs_raw(c, e, comp), local, k ? NULL : doc);
    }
}

/* Unity's blob-safety analysis refuses a copy of a struct marked
 * [MayOnlyLiveInBlobStorage]: a copy of one that holds offsets would read
 * garbage, and an offset stored as plain ints is invisible to it. */
static void emit_struct_head(csgen *c, bool ex, bool blob_only, uint32_t size, const char *name) {
    if (blob_only && !c->standalone) emit(c, "%s[MayOnlyLiveInBlobStorage]\n", c->indent);
    if (ex) emit(c, "%s[StructLayout(LayoutKind.Explicit, Size = %" PRIu32 ")]\n", c->indent, size);
    emit(c, "%spublic unsafe struct %s\n%s{\n", c->indent, name, c->indent);
}

/* Fields first, then the ref properties of the untyped ones. */
static void emit_struct_tail(csgen *c) {
    if (c->ok && c->props.len) c->ok = blobc_buf_append(c->out, c->props.data, c->props.len);
    c->props.len = 0;
    emit(c, "%s}\n\n", c->indent);
}

/* <field>_Find on a keyed [T] field: the index of the item with a key, by
 * binary search (the blob keeps a keyed array sorted by key, and verify
 * checks it), or -1; C# 7 has no null ref to return. A string key is
 * compared as UTF-8 bytes, the order the blob keeps. Fields are reached
 * through `this.`, so that no local hides one. */
static void emit_find(csgen *c, const blobc_type *t, const char *member, uint32_t f, blobc_nameset *local) {
    const blobc_type *ft = t->fields[f].type;
    if (ft->kind != BLOBC_KIND_ARRAY || ft->elem->kind != BLOBC_KIND_STRUCT || !ft->elem->key) return;
    const blobc_type *et = ft->elem;
    const blobc_type *kt = et->fields[et->key - 1].type;
    const char *km = info_of(c, et)->members[et->key - 1];
    bool str = kt->kind == BLOBC_KIND_STRING;
    const char *in = c->indent;
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_Find", bare(member));
    const char *fn = c->ok ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
    c->tmp.len = 0;
    c->ok = fn && (str || (blobc_gencs_put_type(c, &c->tmp, kt, true) && blobc_buf_putc(&c->tmp, '\0')));
    if (!c->ok) return;
    emit(c, "\n%s    /// <summary>The index of the item of %s whose %s is key (a binary search:\n"
            "%s    /// the blob keeps %s sorted by key), or -1.</summary>\n"
            "%s    public int %s(%s key)\n%s    {\n",
         in, bare(member), bare(km), in, bare(member), in, fn, str ? "string" : (const char *)c->tmp.data, in);
    if (str) emit(c, "%s        byte[] k = global::System.Text.Encoding.UTF8.GetBytes(key);\n", in);
    emit(c, "%s        int lo = 0, hi = this.%s.Length;\n%s        while (lo < hi)\n%s        {\n"
            "%s            int mid = lo + (hi - lo) / 2;\n", in, member, in, in, in);
    if (str)
        emit(c, "%s            byte[] m = global::System.Text.Encoding.UTF8.GetBytes(this.%s[mid].%s.ToString());\n"
                "%s            int c = 0;\n"
                "%s            for (int i = 0; c == 0 && i < m.Length && i < k.Length; i++) c = m[i].CompareTo(k[i]);\n"
                "%s            if (c == 0) c = m.Length.CompareTo(k.Length);\n",
             in, member, km, in, in, in);
    else
        emit(c, "%s            %s m = this.%s[mid].%s;\n%s            int c = m < key ? -1 : key < m ? 1 : 0;\n", in,
             (const char *)c->tmp.data, member, km, in);
    emit(c, "%s            if (c < 0) lo = mid + 1;\n%s            else if (c > 0) hi = mid;\n"
            "%s            else return mid;\n%s        }\n%s        return -1;\n%s    }\n",
         in, in, in, in, in, in);
}

/* For a map field, <field>_Find: the index of the entry with a key (the
 * entry struct's Find), or -1; for an optional field, Has<Field>. */
static void emit_map_find(csgen *c, const blobc_type *ft, const char *member, blobc_nameset *local) {
    const char *in = c->indent;
    if (ft->kind == BLOBC_KIND_OPTIONAL) {
        c->tmp.len = 0;
        const char *b = bare(member);
        c->ok = c->ok && blobc_buf_printf(&c->tmp, "Has%c%s", b[0] >= 'a' && b[0] <= 'z' ? b[0] - 'a' + 'A' : b[0], b + 1);
        const char *fn = c->ok ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
        if (!(c->ok = fn != NULL)) return;
        emit(c, "\n%s    /// <summary>Whether %s holds a value (%s.value, all zero when not).</summary>\n"
                "%s    public bool %s { get { return this.%s.has != 0; } }\n", in, b, b, in, fn, member);
        return;
    }
    if (ft->kind != BLOBC_KIND_MAP) return;
    const blobc_type *kt = blobc_map_key(ft);
    bool str = kt->kind == BLOBC_KIND_STRING;
    c->tmp.len = 0;
    c->ok = c->ok && blobc_buf_printf(&c->tmp, "%s_Find", bare(member));
    const char *fn = c->ok ? blobc_gencs_unique_in(c, local, blobc_gencs_arena_str(c, &c->tmp)) : NULL;
    const char *entry = fn ? blobc_gencs_helper_for(c, ft) : NULL;
    c->tmp.len = 0;
    c->ok = entry && (str || blobc_gencs_put_type(c, &c->tmp, kt, true)) && blobc_buf_putc(&c->tmp, ' ') &&
            blobc_gencs_put_global(c, &c->tmp, entry) && blobc_buf_putc(&c->tmp, '\0');
    if (!c->ok) return;
    const char *types = (const char *)c->tmp.data;   /* "K Entry" */
    size_t klen = strcspn(types, " ");
    emit(c, "\n%s    /// <summary>The index of the entry of %s whose key is key (a binary search:\n"
            "%s    /// a map keeps its entries sorted by key), or -1.</summary>\n"
            "%s    public int %s(%.*s key) { return %s.Find(ref this.%s, key); }\n",
         in, bare(member), in, in, fn, str ? 6 : (int)klen, str ? "string" : types, types + klen + 1, member);
}

/* The standalone runtime's way in: a .blob whose root is this struct. */
static void emit_open(csgen *c, const blobc_type *t, const char *name) {
    const char *in = c->indent;
    emit(c, "\n%s    /// <summary>The layout hash a .blob whose root is %s records.</summary>\n"
            "%s    public const ulong SchemaHash = 0x%016" PRIx64 "UL;\n\n", in, bare(name), in, blobc_type_hash(t));
    emit(c, "%s    /// <summary>Opens a .blob file image whose root is %s: checks its header, copies its\n"
            "%s    /// data section; throws global::Blobc.BlobException when it is refused.</summary>\n"
            "%s    public static global::Blobc.BlobAsset<%s> Open(byte[] file) { return global::Blobc.BlobAsset<%s>.Open(file, SchemaHash, %" PRIu32 "); }\n\n",
         in, bare(name), in, in, name, name, t->size);
    emit(c, "%s    /// <summary>Open that says why it refused the file instead of throwing.</summary>\n"
            "%s    public static global::Blobc.BlobStatus TryOpen(byte[] file, out global::Blobc.BlobAsset<%s> blob) { return global::Blobc.BlobAsset<%s>.TryOpen(file, SchemaHash, %" PRIu32 ", out blob); }\n",
         in, in, name, name, t->size);
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
    c->ok = c->ok && blobc_gencs_local_names(c, &local, ti->name, BLOBC_KIND_STRUCT);
    for (uint32_t f = 0; c->ok && f < t->nfields; f++) c->ok = blobc_nameset_add(&local, ti->members[f]);
    for (uint32_t f = 0; c->ok && f < t->nfields; f++) {
        set_base(c, ti->name, ti->members[f], "");
        emit_field(c, ti->explicit_layout, ti->members[f], t->fields[f].type, t->fields[f].offset,
                   ti->comp, &local, t->fields[f].doc);
    }
    for (uint32_t f = 0; c->ok && f < t->nfields; f++) {
        set_base(c, ti->name, ti->members[f], "");
        emit_find(c, t, ti->members[f], f, &local);
        emit_map_find(c, t->fields[f].type, ti->members[f], &local);
    }
    blobc_nameset_free(&local);
    if (c->standalone) emit_open(c, t, ti->name);
    emit_struct_tail(c);
}

/* The entries of a map: key and value, and Find, a binary search by key
 * in the order the blob keeps (strings by their UTF-8 bytes, a shorter
 * prefix first; integers and enums by value, signed ones as signed). */
static void emit_entry(csgen *c, const cs_helper *h) {
    const blobc_type *e = h->type->elem, *kt = blobc_map_key(h->type), *vt = blobc_map_value(h->type);
    const char *in = c->indent;
    char sp[256];
    blobc_type_spell(h->type, sp, sizeof sp);
    emit(c, "%s// an entry of %s: size %" PRIu32 "\n", in, sp, e->size);
    emit_struct_head(c, true, blobc_gencs_holds_offsets(c, kt) || blobc_gencs_holds_offsets(c, vt), e->size, h->name);
    c->owner = h->name;
    blobc_nameset local = {0};
    c->ok = c->ok && blobc_gencs_local_names(c, &local, h->name, BLOBC_KIND_STRUCT) &&
            blobc_nameset_add(&local, "key") && blobc_nameset_add(&local, "value");
    c->base = h->base;
    emit_field(c, true, "key", kt, 0, UINT32_MAX, &local, NULL);
    set_base(c, h->base, "", "_value");
    emit_field(c, true, "value", vt, e->fields[1].offset, UINT32_MAX, &local, NULL);
    const char *fn = c->ok ? blobc_gencs_unique_in(c, &local, "Find") : NULL;
    c->tmp.len = 0;
    bool str = kt->kind == BLOBC_KIND_STRING;
    c->ok = fn && blobc_gencs_put_type(c, &c->tmp, h->type, true) && blobc_buf_putc(&c->tmp, ' ') &&
            (str || blobc_gencs_put_type(c, &c->tmp, kt, true)) && blobc_buf_putc(&c->tmp, '\0');
    blobc_nameset_free(&local);
    if (!c->ok) return;
    const char *types = (const char *)c->tmp.data;   /* "Map K" */
    const char *key_type = str ? "string" : strchr(types, ' ') + 1;
    emit(c, "\n%s    /// <summary>The index of the entry of map whose key is key, or -1: a binary search\n"
            "%s    /// (a map keeps its entries sorted by key%s).</summary>\n"
            "%s    public static int %s(ref %.*s map, %s key)\n%s    {\n",
         in, in, str ? "; strings compare as UTF-8 bytes, a shorter prefix first" : "", in, fn,
         (int)(strchr(types, ' ') - types), types, key_type, in);
    if (str)
        emit(c, "%s        byte[] k = global::System.Text.Encoding.UTF8.GetBytes(key);\n"
                "%s        byte* at = (byte*)map.GetUnsafePtr();\n", in, in);
    emit(c, "%s        int lo = 0, hi = map.Length;\n%s        while (lo < hi)\n%s        {\n"
            "%s            int mid = lo + (hi - lo) / 2;\n", in, in, in, in);
    if (str)
        emit(c, "%s            int* s = (int*)(at + mid * %" PRIu32 "L);\n"
                "%s            byte* m = (byte*)s + s[0];\n"
                "%s            int n = s[1] - 1, c = 0;\n"
                "%s            for (int i = 0; c == 0 && i < n && i < k.Length; i++) c = m[i].CompareTo(k[i]);\n"
                "%s            if (c == 0) c = n.CompareTo(k.Length);\n",
             in, e->size, in, in, in, in);
    else
        emit(c, "%s            %s m = map[mid].key;\n%s            int c = m < key ? -1 : key < m ? 1 : 0;\n", in,
             key_type, in);
    emit(c, "%s            if (c < 0) lo = mid + 1;\n%s            else if (c > 0) hi = mid;\n"
            "%s            else return mid;\n%s        }\n%s        return -1;\n%s    }\n",
         in, in, in, in, in, in);
    emit_struct_tail(c);
}

/* An optional ?T: the value at 0, then the presence byte. */
static void emit_optional(csgen *c, const cs_helper *h) {
    const blobc_type *o = h->type;
    const char *in = c->indent;
    char sp[256];
    blobc_type_spell(o, sp, sizeof sp);
    emit(c, "%s// %s: size %" PRIu32 "; the value, then a byte that says whether it is there\n", in, sp, o->size);
    emit_struct_head(c, true, blobc_gencs_holds_offsets(c, o), o->size, h->name);
    c->owner = h->name;
    blobc_nameset local = {0};
    c->ok = c->ok && blobc_gencs_local_names(c, &local, h->name, BLOBC_KIND_STRUCT) &&
            blobc_nameset_add(&local, "value") && blobc_nameset_add(&local, "has") &&
            blobc_nameset_add(&local, "HasValue");
    c->base = h->base;
    emit_field(c, true, "value", o->elem, 0, UINT32_MAX, &local, NULL);
    blobc_nameset_free(&local);
    emit(c, "%s    [FieldOffset(%" PRIu32 ")] public byte has;\n\n"
            "%s    /// <summary>Whether the value is there (when not, its bytes are all zero).</summary>\n"
            "%s    public bool HasValue { get { return has != 0; } }\n", in, blobc_optional_flag(o), in, in);
    emit_struct_tail(c);
}

/* A helper for [T; N]: always explicit, its items as one fixed buffer or
 * as fields item_0, item_1, ... */
static void emit_helper(csgen *c, const cs_helper *h) {
    if (h->type->kind == BLOBC_KIND_MAP) {
        emit_entry(c, h);
        return;
    }
    if (h->type->kind == BLOBC_KIND_OPTIONAL) {
        emit_optional(c, h);
        return;
    }
    if (h->type->kind == BLOBC_KIND_ANY) {
        blobc_gencs_emit_any(c, h->name);
        return;
    }
    c->base = h->base;
    emit(c, "%s// %s as an element: size %" PRIu32 "\n", c->indent, h->key, h->type->size);
    emit_struct_head(c, true, blobc_gencs_holds_offsets(c, h->type), h->type->size, h->name);
    c->owner = h->name;
    blobc_nameset local = {0};
    c->ok = c->ok && blobc_gencs_local_names(c, &local, h->name, BLOBC_KIND_STRUCT) && blobc_nameset_add(&local, "item");
    emit_field(c, true, "item", h->type, 0, UINT32_MAX, &local, NULL);
    blobc_nameset_free(&local);
    emit_struct_tail(c);
}

static void emit_enum(csgen *c, size_t i) {
    const blobc_type *t = blobc_schema_at(c->schema, i);
    const cs_type_info *ti = &c->info[i];
    emit_doc(c, "", t->doc);
    emit(c, "%spublic enum %s : %s\n%s{\n", c->indent, ti->name, blobc_gencs_scalar_name(t->elem->kind), c->indent);
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
    if (!c->standalone) emit(c, "%s[MayOnlyLiveInBlobStorage]\n", in);
    emit(c, "%spublic unsafe struct %s\n%s{\n", in, ti->name, in);
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
                "fixed (int* p = &%s) { return ref %s<%s>((byte*)p + %s); } } }\n",
             in, mn, ti->members[m], ti->tag_field, ti->tag_enum, ti->values[m], bare(ti->name),
             ti->offset_field, as_ref(c), mn, ti->offset_field);
    }
    if (t->by != BLOBC_UNION_BY_KEY) blobc_gencs_emit_union_tags(c, t, ti);
    emit(c, "%s}\n\n", in);
}

/* With one file per schema file: a comment naming the files whose types
 * this one uses (C# has no #include: they are compiled together), and
 * the file's stem as an identifier for the names of its helpers. */
static blobc_status split_names(csgen *c, blobc_buffer *uses) {
    size_t nfiles = blobc_schema_file_count(c->schema);
    bool *used = calloc(nfiles ? nfiles : 1, sizeof *used);
    blobc_buffer name = {0};
    blobc_status st = used ? BLOBC_OK : blobc_err_nomem(c->err);
    if (!st) blobc_gen_files_used(c->schema, used);
    const char *sep = "// Uses the types of ";
    for (size_t k = 1; !st && k < nfiles; k++) {
        if (!used[k]) continue;
        name.len = 0;
        st = blobc_gen_file_name_of(c->schema, k, ".cs", &name, c->err);
        if (!st && !blobc_buf_printf(uses, "%s%s", sep, (const char *)name.data)) st = blobc_err_nomem(c->err);
        sep = ", ";
    }
    if (!st && sep[0] == ',' && !blobc_buf_puts(uses, ": compile them with this file.\n"))
        st = blobc_err_nomem(c->err);
    name.len = 0;
    if (!st) st = blobc_gen_file_name_of(c->schema, 0, "", &name, c->err);
    if (!st) {
        char *tag = blobc_gencs_arena_str(c, &name);
        for (char *p = tag; p && *p; p++)
            if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9')) *p = '_';
        if (!(c->file_tag = tag)) st = blobc_err_nomem(c->err);
    }
    free(used);
    blobc_buffer_free(&name);
    return st;
}

static void generate(csgen *c) {
    const blobc_type *root = blobc_schema_root(c->schema);
    emit(c, "// Generated by `blobc gen cs` from ");
    c->ok = c->ok && blobc_gen_file_name(c->schema, c->out);
    emit(c, "; do not edit.\n");
    if (c->standalone)
        emit(c, "// Reads .blob files in place over blobc's C# runtime (BlobcRuntime.cs,\n"
                "// namespace Blobc): <Type>.Open(bytes). See docs/ENGINES.md.\n");
    else
        emit(c, "// Reads blobs baked with `blobc bake --format unity` in place, through\n"
                "// BlobAssetReference<T>.TryRead (Unity.Entities). See docs/UNITY.md.\n");
    if (c->ok && c->uses.len) c->ok = blobc_buf_append(c->out, c->uses.data, c->uses.len);
    if (root && info_of(c, root))
        emit(c, "// Root type: %s, schema hash 0x%016" PRIx64 ".\n", info_of(c, root)->name,
             blobc_type_hash(root));
    emit(c, "\nusing System.Runtime.InteropServices;\n");
    /* the body goes to a side buffer: the aliases it collects come first */
    blobc_buffer *file = c->out, body = {0};
    c->out = &body;
    for (size_t i = 0; i < c->ninfo; i++) {
        blobc_kind k = blobc_schema_at(c->schema, i)->kind;
        if (c->own_only && blobc_schema_at(c->schema, i)->pos.file != 0) continue;
        if (k == BLOBC_KIND_ENUM) emit_enum(c, i);
        else if (k == BLOBC_KIND_UNION) emit_union(c, i);
        else emit_struct(c, i);
    }
    for (size_t h = 0; h < c->nhelpers && c->ok; h++) {
        cs_helper copy = c->helpers[h];   /* emitting it may add helpers, and move them */
        emit_helper(c, &copy);
    }
    c->out = file;
    emit(c, c->standalone ? "using Blobc;\n" : "using Unity.Entities;\n");
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
    if (ns && !blobc_gencs_valid_namespace(ns))
        return blobc_err(err, BLOBC_EARG, "gen cs: namespace '%s' is not a C# namespace name", ns);
    csgen c;
    memset(&c, 0, sizeof c);
    c.schema = schema;
    c.out = out;
    c.err = err;
    c.ok = true;
    c.standalone = opts && opts->standalone;
    c.own_only = opts && opts->own_file_only;
    c.math = !(opts && opts->no_mathematics) && !c.standalone;
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
    if (!st && (!c.info || !blobc_typemap_build(&c.map, schema) || !blobc_gencs_assign_names(&c) ||
                !blobc_gencs_find_components(&c) || !blobc_gencs_layout_all(&c)))
        st = blobc_err_nomem(err);
    if (!st && c.own_only) st = blobc_gencs_check_split_names(&c);
    if (!st && c.own_only) st = split_names(&c, &c.uses);
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
    blobc_buffer_free(&c.uses);
    blobc_arena_free(&c.arena);
    return st;
}