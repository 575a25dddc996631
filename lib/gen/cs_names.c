/*
 * cs_names.c - the names `gen cs` gives: C#'s keywords escaped with @,
 * the names Unity and the base library take, a type's members unique
 * inside it, namespaces, and the C# spelling of scalars.
 */
#include "gen/cs_internal.h"

#include <inttypes.h>

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

/* What the standalone runtime's structs declare besides their fields. */
#define STANDALONE_MEMBERS "SchemaHash", "Open", "TryOpen"

/* Names the output uses from Unity, blobc's C# runtime and the base
 * library: a schema type of the same name gets a `_` behind (whichever
 * runtime, so that a type has one name in both). */
static const char *const used_names[] = {
    "BlobArray", "BlobPtr", "BlobString", "BlobAssetReference", "UnsafeUtility", "Unity",
    "System", "StructLayout", "LayoutKind", "FieldOffset", "MarshalAs", "UnmanagedType",
    /* an attribute [X] is also looked up as XAttribute */
    "StructLayoutAttribute", "FieldOffsetAttribute", "MarshalAsAttribute", "MayOnlyLiveInBlobStorage",
    "MayOnlyLiveInBlobStorageAttribute",
    "Blobc", "BlobAsset", "BlobStatus", "BlobMemory", "BlobException",
    /* no struct may be named like its members (CS0542) */
    STANDALONE_MEMBERS,
};

static const char *const standalone_members[] = {STANDALONE_MEMBERS};

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

/* ---- names ---- */

char *blobc_gencs_arena_str(csgen *c, const blobc_buffer *b) {
    return blobc_arena_strndup(&c->arena, (const char *)b->data, b->len);
}

const char *blobc_gencs_unique_in(csgen *c, blobc_nameset *set, const char *base) {
    return blobc_nameset_unique(set, NULL, &c->arena, base);
}

/* A schema identifier as C# writes it: @ in front of a keyword. */
static const char *escaped(csgen *c, const char *s) {
    if (s) s = blobc_gen_ident(&c->arena, s);
    if (!s || !is_keyword(s)) return s;
    size_t n = strlen(s);
    char *r = blobc_arena_alloc(&c->arena, n + 2);
    if (!r) return NULL;
    r[0] = '@';
    memcpy(r + 1, s, n + 1);
    return r;
}


/* A type's own names start from its name (CS0542) and what it inherits:
 * an enum's `value__` (CS0076), a struct's object members (CS0108). */
bool blobc_gencs_local_names(const csgen *c, blobc_nameset *local, const char *type_name, blobc_kind kind) {
    if (!blobc_nameset_add(local, type_name)) return false;
    if (kind == BLOBC_KIND_ENUM) return strcmp(type_name, "value__") == 0 || blobc_nameset_add(local, "value__");
    for (size_t k = 0; k < sizeof object_members / sizeof object_members[0]; k++)
        if (!blobc_nameset_has(local, object_members[k]) && !blobc_nameset_add(local, object_members[k]))
            return false;
    for (size_t k = 0; c->standalone && kind == BLOBC_KIND_STRUCT && k < sizeof standalone_members / sizeof standalone_members[0]; k++)
        if (!blobc_nameset_has(local, standalone_members[k]) && !blobc_nameset_add(local, standalone_members[k]))
            return false;
    /* [MarshalAs(UnmanagedType.U1)] on a bool field looks the name up in the struct */
    return blobc_nameset_has(local, "UnmanagedType") || blobc_nameset_add(local, "UnmanagedType");
}

/* `base` (a C# name, @ kept) with `prefix` in front of its bare form,
 * unique in `set`. */
static const char *unique_with(csgen *c, blobc_nameset *set, const char *prefix, const char *base) {
    c->tmp.len = 0;
    if (!blobc_buf_printf(&c->tmp, "%s%s", prefix, *prefix ? bare(base) : base)) return NULL;
    return blobc_gencs_unique_in(c, set, blobc_gencs_arena_str(c, &c->tmp));
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
            if (!(ti->values[v] = blobc_gencs_unique_in(c, local, escaped(c, t->values[v].name)))) return false;
        return true;
    }
    uint32_t n = t->nfields ? t->nfields : 1;
    if (!(ti->members = blobc_arena_array(&c->arena, n, sizeof(char *)))) return false;
    if (t->kind == BLOBC_KIND_STRUCT) {
        for (uint32_t f = 0; f < t->nfields; f++)
            if (!(ti->members[f] = blobc_gencs_unique_in(c, local, escaped(c, t->fields[f].name)))) return false;
        return true;
    }
    /* the member types are named inside the union: nothing there may
     * hide one (a member struct `Tag` would make the enum Tag_) */
    for (uint32_t m = 0; m < t->nfields; m++) {
        const char *mn = info_of(c, t->fields[m].type->elem)->name;
        if (!blobc_nameset_has(local, mn) && !blobc_nameset_add(local, mn)) return false;
    }
    if (!(ti->values = blobc_arena_array(&c->arena, n, sizeof(char *))) ||
        !(ti->tag_enum = blobc_gencs_unique_in(c, local, "Tag")) || !(ti->tag_field = blobc_gencs_unique_in(c, local, "tag")) ||
        !(ti->offset_field = blobc_gencs_unique_in(c, local, "offset")))
        return false;
    blobc_nameset tags = {0};
    bool ok = blobc_nameset_add(&tags, ti->tag_enum) && blobc_nameset_add(&tags, "value__") &&
              blobc_nameset_add(&tags, "None");
    for (uint32_t m = 0; ok && m < t->nfields; m++) {
        const char *mn = info_of(c, t->fields[m].type->elem)->name;
        ok = (ti->members[m] = unique_with(c, local, "As", mn)) && (ti->values[m] = blobc_gencs_unique_in(c, &tags, mn));
    }
    blobc_nameset_free(&tags);
    /* a union tagged by a field or a YAML tag says the tags (cs_kinds.c) */
    if (ok && t->by != BLOBC_UNION_BY_KEY)
        ok = (ti->tag_of = blobc_gencs_unique_in(c, local, "TagOf")) &&
             (ti->tag_field_const = blobc_gencs_unique_in(c, local, "TagField")) &&
             (ti->default_const = blobc_gencs_unique_in(c, local, "DefaultMember"));
    return ok;
}

bool blobc_gencs_assign_names(csgen *c) {
    for (size_t i = 0; i < sizeof used_names / sizeof used_names[0]; i++)
        if (!blobc_nameset_add(&c->globals, used_names[i])) return false;
    for (size_t i = 0; c->math && i < sizeof math_elems / sizeof math_elems[0]; i++)
        for (int n = 2; n <= 4; n++) {
            c->tmp.len = 0;
            if (!blobc_buf_printf(&c->tmp, "%s%d", math_elems[i].name, n)) return false;
            char *s = blobc_gencs_arena_str(c, &c->tmp);
            if (!s || !blobc_nameset_add(&c->globals, s)) return false;
        }
    for (size_t i = 0; i < c->ninfo; i++)
        if (!(c->info[i].name = blobc_gencs_unique_in(c, &c->globals, escaped(c, blobc_schema_at(c->schema, i)->name))))
            return false;
    for (size_t i = 0; i < c->ninfo; i++) {
        /* C# forbids a member named like its type (CS0542) */
        blobc_nameset local = {0};
        bool ok = blobc_gencs_local_names(c, &local, c->info[i].name, blobc_schema_at(c->schema, i)->kind) &&
                  member_names(c, i, &local);
        blobc_nameset_free(&local);
        if (!ok) return false;
    }
    return true;
}

/* Whether the name `gen cs` gives a type depends on the other types: it
 * is not the first spelling of its escaped name that neither a keyword
 * nor a name the output uses takes. With one file per schema file, each
 * file must give a type the name the others give it. */
static bool is_reserved(const csgen *c, const char *s) {
    for (size_t i = 0; i < sizeof used_names / sizeof used_names[0]; i++)
        if (strcmp(s, used_names[i]) == 0) return true;
    for (size_t i = 0; c->math && i < sizeof math_elems / sizeof math_elems[0]; i++) {
        size_t n = strlen(math_elems[i].name);
        if (strncmp(s, math_elems[i].name, n) == 0 && s[n] >= '2' && s[n] <= '4' && !s[n + 1]) return true;
    }
    return false;
}

blobc_status blobc_gencs_check_split_names(csgen *c) {
    blobc_buffer plain = {0};
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; i < c->ninfo && st == BLOBC_OK; i++) {
        const char *name = blobc_schema_at(c->schema, i)->name;
        plain.len = 0;
        if (!blobc_buf_puts(&plain, is_keyword(name) ? "@" : "") || !blobc_buf_puts(&plain, name) ||
            !blobc_buf_putc(&plain, '\0')) {
            st = blobc_err_nomem(c->err);
            break;
        }
        while (st == BLOBC_OK && is_reserved(c, (const char *)plain.data)) {
            plain.len--;
            if (!blobc_buf_puts(&plain, "_") || !blobc_buf_putc(&plain, '\0')) st = blobc_err_nomem(c->err);
        }
        if (st == BLOBC_OK && strcmp((const char *)plain.data, c->info[i].name) != 0)
            st = blobc_err(c->err, BLOBC_EINPUT,
                           "gen cs: type %s would be named %s, as %s is taken; with one file per schema "
                           "file every type needs its own name (rename one of them)",
                           name, c->info[i].name, (const char *)plain.data);
    }
    blobc_buffer_free(&plain);
    return st;
}

bool blobc_gencs_valid_namespace(const char *ns) {
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

/* ---- C# spelling of types ---- */

const char *blobc_gencs_scalar_name(blobc_kind k) {
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
const char *blobc_gencs_math_name(const csgen *c, const blobc_type *t) {
    if (!c->math || t->kind != BLOBC_KIND_FIXED || t->count < 2 || t->count > 4) return NULL;
    for (size_t i = 0; i < sizeof math_elems / sizeof math_elems[0]; i++)
        if (t->elem->kind == math_elems[i].kind) return math_elems[i].name;
    return NULL;
}