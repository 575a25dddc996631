/*
 * blobc/schema.h - the schema model: types, fields, enums and their layout.
 *
 * A schema is parsed from text (the *.schema language) or decoded from the
 * type description embedded in a .blob. Either way the result is a graph of
 * immutable blobc_type nodes with sizes, alignments and field offsets already
 * computed by the C layout rules (see docs/FORMAT.md). Everything a schema
 * owns goes away with blobc_schema_free.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_SCHEMA_H
#define BLOBC_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum blobc_kind {
    BLOBC_KIND_BOOL = 1,
    BLOBC_KIND_I8,
    BLOBC_KIND_U8,
    BLOBC_KIND_I16,
    BLOBC_KIND_U16,
    BLOBC_KIND_I32,
    BLOBC_KIND_U32,
    BLOBC_KIND_I64,
    BLOBC_KIND_U64,
    BLOBC_KIND_F32,
    BLOBC_KIND_F64,
    BLOBC_KIND_ENUM,    /* named enum over an integer base */
    BLOBC_KIND_STRUCT,  /* named struct, stored inline */
    BLOBC_KIND_STRING,  /* {i32 offset, i32 length}, UTF-8 + NUL out of line */
    BLOBC_KIND_ARRAY,   /* [T]: {i32 offset, i32 length} out of line */
    BLOBC_KIND_FIXED,   /* [T; N]: N consecutive T inline */
    BLOBC_KIND_PTR,     /* *T: {i32 offset}, 0 = null; also &T (see blobc_type.ref) */
    BLOBC_KIND_UNION,   /* named union of structs: {u32 tag, i32 offset}, tag 0 = none */
    /* 19 and 20 are no kinds: the type section's codes of &T and of a
     * struct with a @key. The kinds after them are numbered as their
     * type-section codes. */
    BLOBC_KIND_MAP = 21,  /* [K: V]: the bytes of [E], E = {key: K; value: V}, sorted by key */
    BLOBC_KIND_OPTIONAL,  /* ?T: T's bytes, then a presence byte (0 absent, 1 present) */
    BLOBC_KIND_ANY        /* any: a free-form value, {u32 kind; 8 bytes} (BLOBC_ANY_*) */
} blobc_kind;

#define BLOBC_KIND_COUNT 23

/* A union value (docs/FORMAT.md, "Unions"): a u32 tag (0 = none, i = the
 * i-th member in declaration order) at byte 0, then at byte
 * BLOBC_UNION_REF the member's payload as a *T offset (0 exactly when the
 * tag is 0). */
#define BLOBC_UNION_SIZE 8u
#define BLOBC_UNION_ALIGN 4u
#define BLOBC_UNION_REF 4u

/* An `any` value (docs/FORMAT.md, "Free-form values"): 12 bytes, aligned
 * to 4. A u32 kind at byte 0, then 8 bytes at BLOBC_ANY_BODY: a bool as
 * u32 0 or 1; an integer as i64 (BLOBC_ANY_UINT only for values of 2^63
 * and up); a float as f64 bits; a string as a `string`, a list as an
 * `[any]`, a mapping as a `[string: any]` (its entries sorted by key). */
#define BLOBC_ANY_SIZE 12u
#define BLOBC_ANY_ALIGN 4u
#define BLOBC_ANY_BODY 4u
typedef enum blobc_any_kind {
    BLOBC_ANY_NULL = 0,
    BLOBC_ANY_BOOL,
    BLOBC_ANY_INT,
    BLOBC_ANY_UINT,
    BLOBC_ANY_FLOAT,
    BLOBC_ANY_STRING,
    BLOBC_ANY_LIST,
    BLOBC_ANY_MAP
} blobc_any_kind;
#define BLOBC_ANY_KIND_COUNT 8u
/* How deep lists and mappings nest inside one `any` value. */
#define BLOBC_MAX_ANY_DEPTH 256u

/* Struct flags (blobc_type.flags). */
#define BLOBC_STRUCT_OPEN 1u    /* @open: data may hold keys it does not name */
#define BLOBC_STRUCT_STREAM 2u  /* @stream: its one [T] field takes a YAML stream's documents */
#define BLOBC_STRUCT_ENTRY 4u   /* the entry {key, value} of a map (no name, not declared) */

/* Field flags (blobc_field.flags). */
#define BLOBC_FIELD_ANCHOR 1u   /* @anchor: takes the YAML anchor of its node when not given */
#define BLOBC_FIELD_TEXT 2u     /* declared `text` (or [text], [text; N], ?text): its strings
                                   are keys of a string table, which bake --lang translates;
                                   a string in blobs (not kept there) */

/* How a union's data says which member it holds (blobc_type.by). */
typedef enum blobc_union_by {
    BLOBC_UNION_BY_KEY = 0,   /* a one-key mapping {Member: {...}} */
    BLOBC_UNION_BY_FIELD,     /* a field of the member's own mapping (blobc_type.tag_field) */
    BLOBC_UNION_BY_TAG        /* the YAML tag of the node (`!circle {...}`) */
} blobc_union_by;

/* Largest @align value and largest [T; N] count the language accepts. */
#define BLOBC_MAX_ALIGN 16u
/* The most tags a struct's @tags declares, and an item's $tags holds. */
#define BLOBC_MAX_TAGS 64u
#define BLOBC_MAX_FIXED_COUNT 0x7fffffffu
/* Largest struct or fixed-array size; keeps every inline size in 31 bits. */
#define BLOBC_MAX_TYPE_SIZE 0x7fffffffu

/* The deepest nesting of mappings and sequences (objects and arrays) a
 * YAML bake reads, and so the deepest a type may nest inline: a struct
 * holding a struct or a fixed array, each one level. A type nested deeper
 * could not be written as text, and every walk over a type's fields stays
 * within a stack known in advance. */
#define BLOBC_MAX_NESTING 10000u

typedef struct blobc_type blobc_type;

/* 1-based line and column in the schema source; 0:0 for decoded schemas.
 * `file` indexes blobc_schema_file(): 0 is the file given to the parser,
 * imported files follow in the order they were first read. */
typedef struct blobc_pos {
    uint32_t line;
    uint32_t column;
    uint32_t file;
} blobc_pos;

/* An enum member. value holds the two's complement bits of the member's
 * value, sign-extended to 64 bits for signed bases. */
typedef struct blobc_enum_value {
    const char *name;
    uint64_t value;
    blobc_pos pos;
    const char *doc;        /* `///` lines before it, joined by '\n'; NULL if none */
    const char *was;        /* @was(old): the name it had before, or NULL */
} blobc_enum_value;

/* A field default (`name: T = value`). Only scalar, bool, enum, string,
 * union and reference fields may have one (a reference's, like a union's,
 * only `null`). For integers and enums `bits` holds the
 * value as above; for floats `f` holds it (already rounded to f32 for f32
 * fields); for bool `bits` is 0 or 1; for strings `str`/`str_len` (UTF-8,
 * no NUL). A union field's only default is `null` (present, all zero):
 * the field may be absent or null, and then holds no member. */
typedef struct blobc_default {
    bool present;
    uint64_t bits;
    double f;
    const char *str;
    size_t str_len;
} blobc_default;

/* A value check on a field (docs/SCHEMA.md, "Value checks"): data its
 * type takes but a bake refuses. On a field of a list, fixed array or
 * optional, @range, @match and @path apply to each number or string in it
 * (one level down); @len and @unique to the field's own value. */
typedef enum blobc_check_kind {
    BLOBC_CHECK_RANGE = 1, /* @range(lo, hi): lo <= number <= hi; a bound may be left out */
    BLOBC_CHECK_LEN,       /* @len(n), @len(min, max): a string's characters, a list's or map's items */
    BLOBC_CHECK_MATCH,     /* @match("re"): a string the POSIX extended pattern matches */
    BLOBC_CHECK_PATH,      /* @path("dir/", ".ext"): a string naming a file under the assets root */
    BLOBC_CHECK_UNIQUE     /* @unique: a list's items all differ */
} blobc_check_kind;

typedef struct blobc_check {
    blobc_check_kind kind;
    blobc_pos pos;          /* its '@' */
    const char *text;       /* as blobc writes it back: "@range(0, 100)" */
    bool has_lo, has_hi;    /* RANGE: which bounds are given */
    uint64_t lo, hi;        /* RANGE on an integer: the bounds' bits (as blobc_default.bits) */
    double lo_f, hi_f;      /* RANGE on a float */
    uint64_t min, max;      /* LEN: inclusive */
    const char *arg;        /* MATCH: the pattern; PATH: the directory prefix ("" for none) */
    const char *ext;        /* PATH: the ending a name must have, or NULL */
    const void *impl;       /* reserved for the library (MATCH: the compiled pattern) */
} blobc_check;

typedef struct blobc_field {
    const char *name;
    const blobc_type *type;
    uint32_t offset;        /* from the start of the enclosing struct */
    blobc_default def;
    blobc_pos pos;
    const char *doc;        /* `///` lines before it, joined by '\n'; NULL if none */
    const char *was;        /* @was(old): the name it had before, or NULL */
    const char *sep;        /* @sep("|"): the one character a CSV cell splits its
                               items or entries by, or NULL (not kept in blobs) */
    uint32_t flags;         /* BLOBC_FIELD_* */
    const char *tag;        /* a union member's string tag (BY_FIELD, BY_TAG), else NULL */
    uint64_t tag_value;     /* a union member's integer tag (BY_FIELD with int_tags): i64 bits */
    const blobc_check *checks; /* its value checks, in the order written */
    uint32_t nchecks;
} blobc_field;

struct blobc_type {
    blobc_kind kind;
    uint32_t size;
    uint32_t align;
    const char *name;       /* ENUM, STRUCT, UNION: declared name; scalars
                               and string: their keyword; others: NULL */
    const blobc_type *elem; /* ARRAY, FIXED, PTR, OPTIONAL: element type;
                               ENUM: its base (a scalar integer type);
                               MAP: its entry struct {key: K; value: V}
                               (blobc_map_key, blobc_map_value) */
    uint32_t count;         /* FIXED: N */
    uint32_t nfields;       /* STRUCT; UNION: its members, in declaration
                               order (tag i is fields[i - 1]), each named
                               after its struct, of type *Struct at
                               offset BLOBC_UNION_REF */
    const blobc_field *fields;
    uint32_t nvalues;       /* ENUM, in declaration order */
    const blobc_enum_value *values;
    uint32_t align_attr;    /* STRUCT: N of @align(N), 0 when absent */
    blobc_pos pos;          /* where declared (named types) */
    const char *doc;        /* ENUM, STRUCT: `///` lines before the declaration,
                               joined by '\n' (no trailing newline); NULL if none.
                               Doc comments are not stored in blobs. */
    uint32_t internal;      /* reserved for the library (layout state) */
    const void *lookup;     /* reserved for the library: name and value
                               indexes built by layout; leave NULL */
    uint32_t key;           /* STRUCT: 1 + the index of its @key field (an
                               integer, enum or string), 0 when it has none */
    bool ref;               /* PTR: a reference &T, stored as *T, whose target
                               is an element of a keyed [T] of the same blob
                               (T has a key); written as the key in data */
    uint32_t flags;         /* STRUCT: BLOBC_STRUCT_* */
    blobc_union_by by;      /* UNION: how data names the member */
    const char *tag_field;  /* UNION BY_FIELD: the name of the field holding the tag */
    bool int_tags;          /* UNION BY_FIELD: the tags are integers (tag_value) */
    uint32_t default_member; /* UNION BY_FIELD: 1 + the member data without the
                               tag field holds, 0 when such data is an error */
    const char *const *tags; /* STRUCT: @tags(a, b), the tags its items may carry
                               in data ($tags), or NULL (not kept in blobs) */
    uint32_t ntags;
};

/* A map's key and value types. */
static inline const blobc_type *blobc_map_key(const blobc_type *map) {
    return map->elem->fields[0].type;
}
static inline const blobc_type *blobc_map_value(const blobc_type *map) {
    return map->elem->fields[1].type;
}
/* Where an optional's presence byte is. */
static inline uint32_t blobc_optional_flag(const blobc_type *opt) { return opt->elem->size; }

typedef struct blobc_schema blobc_schema;

/* Parses schema text. `filename` names the text in error messages, and its
 * directory is where `import "x.schema";` paths are looked up (the current
 * directory when it has none). On error *out is NULL and err holds
 * "file:line:col" plus the offending line. Text, and each file it imports,
 * of more than BLOBC_MAX_SCHEMA_SIZE bytes is refused. */
BLOBC_API blobc_status blobc_schema_parse(const char *text, size_t len, const char *filename,
                                          blobc_schema **out, blobc_error *err);

/* The largest schema file, each import too (the biggest real schemas
 * are well under a megabyte): a longer text, or a device or pipe that
 * goes on past it, is refused without being read further. */
#define BLOBC_MAX_SCHEMA_SIZE ((uint64_t)16 << 20)

/* Reads and parses a schema file. */
BLOBC_API blobc_status blobc_schema_load(const char *path, blobc_schema **out, blobc_error *err);
/* The same, reading a non-regular file (a pipe, a device) up to max_input
 * bytes (0: BLOBC_DEFAULT_MAX_INPUT in <blobc/blobfile.h>). */
BLOBC_API blobc_status blobc_schema_load_limited(const char *path, uint64_t max_input,
                                                 blobc_schema **out, blobc_error *err);

/* How blobc_schema_load_ex reads the schema file and every file it imports. */
typedef struct blobc_schema_load_options {
    uint64_t max_input;  /* a non-regular file is read up to this many bytes
                            (0: BLOBC_DEFAULT_MAX_INPUT) */
    bool regular;        /* only regular files are read: a FIFO, device or
                            socket is refused without being waited on
                            (blobc_read_options' `regular`) */
    /* Told of each file that could not be read (the one loaded, an
     * import), as it was to be opened; NULL: not told. */
    void (*unread)(void *ctx, const char *path);
    void *unread_ctx;
} blobc_schema_load_options;

/* blobc_schema_load with options (NULL: the defaults). */
BLOBC_API blobc_status blobc_schema_load_ex(const char *path, const blobc_schema_load_options *opts,
                                            blobc_schema **out, blobc_error *err);

BLOBC_API void blobc_schema_free(blobc_schema *schema);

/* The files the schema was read from: 0 is the one given to the parser,
 * then every imported file once, in the order first read. Decoded schemas
 * have one (""). For dependency lists (make, ninja: bake --depfile). */
BLOBC_API size_t blobc_schema_file_count(const blobc_schema *schema);
BLOBC_API const char *blobc_schema_file(const blobc_schema *schema, size_t i);

/* The file name the schema was parsed from ("" for decoded schemas). */
BLOBC_API const char *blobc_schema_filename(const blobc_schema *schema);

/* The files the schema was read from: 0 is the one given to the parser,
 * then every imported file once, in the order first read, each named as
 * found (the importing file's directory joined with the import path).
 * Decoded schemas have one (""). For dependency lists (make, ninja). */
BLOBC_API size_t blobc_schema_file_count(const blobc_schema *schema);
BLOBC_API const char *blobc_schema_file(const blobc_schema *schema, size_t i);

/* The `root` declaration's type, or NULL when the schema has none. */
BLOBC_API const blobc_type *blobc_schema_root(const blobc_schema *schema);

/* A named (enum, struct or union) type by name, or NULL. */
BLOBC_API const blobc_type *blobc_schema_find(const blobc_schema *schema, const char *name);

/* Named types in declaration order. */
BLOBC_API size_t blobc_schema_count(const blobc_schema *schema);
BLOBC_API const blobc_type *blobc_schema_at(const blobc_schema *schema, size_t i);

/* The shared singleton for a scalar kind (BOOL..F64) or STRING; NULL otherwise. */
BLOBC_API const blobc_type *blobc_builtin_type(blobc_kind kind);

/* The schema keyword of a scalar/string kind ("u32", "string"), or a
 * descriptive word for composite kinds ("struct", "array", ...). */
BLOBC_API const char *blobc_kind_name(blobc_kind kind);

/* True for BOOL..F64. */
BLOBC_API bool blobc_kind_is_scalar(blobc_kind kind);
BLOBC_API bool blobc_kind_is_integer(blobc_kind kind);   /* I8..U64 */
BLOBC_API bool blobc_kind_is_signed(blobc_kind kind);    /* I8, I16, I32, I64 */

/* The 64-bit layout hash of a type ("schema hash", SPEC §4): covers every
 * reachable type's kind, size, alignment, field offsets, fixed counts,
 * enum values and union members (in order), but no names. Stable across
 * machines and releases of the same format version. */
BLOBC_API uint64_t blobc_type_hash(const blobc_type *type);
/* blobc_type_hash of each of n types, into hashes[0..n). Faster than one
 * call per type when they contain one another (a type's bytes are taken
 * from a serialization that contains them): a chain of nested structs
 * costs one serialization, not one per struct. BLOBC_ENOMEM when memory
 * ran out (hashes then incomplete). */
BLOBC_API blobc_status blobc_type_hashes(const blobc_type *const *types, size_t n,
                                         uint64_t *hashes);
/* blobc_type_hashes of a[0..n), and *same: whether each b[i] has the hash
 * of a[i]. When b is laid out like a (a re-parse of a's schema text), the
 * answer costs no more hashing than a's own. */
BLOBC_API blobc_status blobc_type_hashes_same(const blobc_type *const *a, const blobc_type *const *b,
                                              size_t n, uint64_t *hashes, bool *same);

/* Writes the type the way a schema spells it ("[u32]", "*Room",
 * "[[f32; 3]]") into buf; returns the length needed (snprintf semantics). */
BLOBC_API size_t blobc_type_spell(const blobc_type *type, char *buf, size_t cap);

/* Finds the enum member with the given value, or NULL. */
BLOBC_API const blobc_enum_value *blobc_enum_find_value(const blobc_type *enum_type, uint64_t bits);

/* Finds a struct field or a union member by name (len bytes, need not be
 * NUL-terminated), or NULL. */
BLOBC_API const blobc_field *blobc_struct_find_field(const blobc_type *st, const char *name,
                                                     size_t len);

/* Whether data may leave the field out (docs/SCHEMA.md, "Defaults"): it
 * has a default, it is a [T] or a map (empty), a *T (null), a ?T
 * (absent), an any (null), or a struct whose every field may be left
 * out (it then holds their defaults). Data may write such a field as
 * `null`, which means the same as leaving it out. */
BLOBC_API bool blobc_field_optional(const blobc_field *field);

/* Whether a struct field may hold nothing: a union (no member) or a
 * reference &T (null) declared `= null`. Anywhere else a union holds a
 * member and a reference leads to an item, as bake writes them, and
 * verify holds blobs to it (docs/FORMAT.md). */
BLOBC_API bool blobc_field_may_be_none(const blobc_field *field);

/* Finds an enum member by name (len bytes, need not be NUL-terminated), or NULL. */
BLOBC_API const blobc_enum_value *blobc_enum_find_name(const blobc_type *enum_type, const char *name,
                                                       size_t len);

/* Appends what `blobc check` prints to `out`: every named type with its
 * size and alignment, struct fields with offsets, sizes and padding, enum
 * members, the root and its schema hash, then lint warnings
 * ("file:line:col: warning: ...") and a summary line. See docs/SCHEMA.md. */
BLOBC_API blobc_status blobc_schema_report(const blobc_schema *schema, blobc_buffer *out, blobc_error *err);

/* Number of lint warnings blobc_schema_report would print. */
BLOBC_API size_t blobc_schema_warning_count(const blobc_schema *schema);

#ifdef __cplusplus
}
#endif
#endif
