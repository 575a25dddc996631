/*
 * blobc/blob.h - the header-only runtime that reads baked blobs in place.
 *
 * This is all a program needs to read a .blob (or a raw data section)
 * through a header made by `blobc gen c`: the offset-field types, inline
 * resolvers for self-relative offsets, and a header parser. It depends on
 * nothing but <stddef.h> and <stdint.h>, compiles as C11 and C++17, and
 * never allocates.
 *
 * It is the TRUSTED fast path: blobc_rt_open checks the header (magic,
 * version, section bounds, alignment, schema hash) but does not walk the
 * data. Files the program did not bake itself must be verified first with
 * the library's blobc_verify_blob (<blobc/verify.h>, link libblobc), which
 * generated headers wrap as <Type>_open_checked when BLOBC_WITH_LIBRARY is
 * defined (through blobc_rt_open_checked, a library function declared in
 * <blobc/blobfile.h>). See docs/CODEGEN.md.
 *
 * Every name here starts with blobc_rt_ / BLOBC_RT_ so that it can be
 * included together with the library's headers (<blobc/blobc.h>).
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BLOB_H
#define BLOBC_BLOB_H

#include <stddef.h>
#include <stdint.h>

/* Blobs are little-endian and read in place, so the host must be too. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "blobc/blob.h: blobs are little-endian; this target is not"
#endif
#endif

#ifdef __cplusplus
#define BLOBC_RT_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define BLOBC_RT_ALIGNOF(type) alignof(type)
#define BLOBC_RT_ALIGNAS(n) alignas(n)
#define BLOBC_RT_CAST(type, expr) static_cast<type>(expr)
#define BLOBC_RT_CAST_ROWS(type, expr) static_cast<type>(expr)
#define BLOBC_RT_ADDR(ptr) reinterpret_cast<uintptr_t>(ptr)
#define BLOBC_RT_NULL nullptr
#else
#define BLOBC_RT_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define BLOBC_RT_ALIGNOF(type) _Alignof(type)
#define BLOBC_RT_ALIGNAS(n) _Alignas(n)
#define BLOBC_RT_CAST(type, expr) ((type)(expr))
/* To a pointer to an array of const elements (`const float (*)[3]`). Before
 * C23 such an array type is not itself const, so a direct cast from
 * `const void *` counts as dropping const (-Wcast-qual); going through the
 * address keeps that warning away without dropping anything. */
#define BLOBC_RT_CAST_ROWS(type, expr) ((type)BLOBC_RT_ADDR(expr))
#define BLOBC_RT_ADDR(ptr) ((uintptr_t)(ptr))
#define BLOBC_RT_NULL NULL
#endif

/* The container format this runtime reads (docs/FORMAT.md, "Header"). */
#define BLOBC_RT_FORMAT_VERSION 1u
#define BLOBC_RT_HEADER_SIZE 96u
#define BLOBC_RT_SECTION_ALIGN 16u
/* Offsets are i32, so no data section is larger than this. */
#define BLOBC_RT_MAX_DATA_SIZE 0x7fffffffu
/* Pass as the expected schema hash to accept any layout. */
#define BLOBC_RT_ANY_SCHEMA UINT64_C(0)
/* The first bytes of every .blob. */
#define BLOBC_RT_MAGIC "\x89" "BLOBC\r\n"
#define BLOBC_RT_MAGIC_SIZE 8u

/* Byte offsets of the header fields (docs/FORMAT.md, "Header"): the one
 * definition, used by this runtime and by the library that writes and
 * verifies the container. */
enum {
    BLOBC_RT_H_MAGIC = 0,
    BLOBC_RT_H_VERSION = 8,
    BLOBC_RT_H_HEADER_SIZE = 12,
    BLOBC_RT_H_DATA_OFFSET = 16,
    BLOBC_RT_H_DATA_SIZE = 24,
    BLOBC_RT_H_DATA_HASH = 32,
    BLOBC_RT_H_SCHEMA_HASH = 40,
    BLOBC_RT_H_TYPES_OFFSET = 48,
    BLOBC_RT_H_TYPES_SIZE = 56,
    BLOBC_RT_H_TYPES_HASH = 64,
    BLOBC_RT_H_FLAGS = 72,
    BLOBC_RT_H_RESERVED = 76,
    BLOBC_RT_H_FILE_SIZE = 80,
    BLOBC_RT_H_HEADER_HASH = 88
};

/* `[T]`: the items are `length` consecutive T at `offset` bytes from the
 * address of `offset`; offset 0 means empty. */
typedef struct blobc_rt_array {
    int32_t offset;
    int32_t length;
} blobc_rt_array;

/* `string`: UTF-8 bytes and a NUL at `offset`; `length` counts the NUL. */
typedef struct blobc_rt_str {
    int32_t offset;
    int32_t length;
} blobc_rt_str;

/* `*T`: one T at `offset` bytes from the address of `offset`; 0 is null. */
typedef struct blobc_rt_ptr {
    int32_t offset;
} blobc_rt_ptr;

/* `bool` is one byte holding 0 or 1. It is read as a byte, not as C's
 * _Bool, so that an unverified blob with another value is not undefined
 * behaviour. */
typedef uint8_t blobc_rt_bool;

BLOBC_RT_STATIC_ASSERT(sizeof(blobc_rt_array) == 8 && BLOBC_RT_ALIGNOF(blobc_rt_array) == 4,
                       "blobc_rt_array must be {i32, i32}");
BLOBC_RT_STATIC_ASSERT(sizeof(blobc_rt_str) == 8 && BLOBC_RT_ALIGNOF(blobc_rt_str) == 4,
                       "blobc_rt_str must be {i32, i32}");
BLOBC_RT_STATIC_ASSERT(sizeof(blobc_rt_ptr) == 4 && BLOBC_RT_ALIGNOF(blobc_rt_ptr) == 4,
                       "blobc_rt_ptr must be {i32}");
BLOBC_RT_STATIC_ASSERT(sizeof(float) == 4 && sizeof(double) == 8,
                       "blobs need IEEE-754 binary32 and binary64");

/* The address `offset` bytes from the offset field at `field`, or NULL for 0. */
static inline const void *blobc_rt_resolve(const int32_t *field) {
    return *field ? BLOBC_RT_CAST(const void *, BLOBC_RT_CAST(const char *, BLOBC_RT_CAST(const void *, field)) + *field)
                  : BLOBC_RT_NULL;
}

/* The first item of a [T] (NULL when empty); *len (if len is not NULL)
 * receives the item count. */
static inline const void *blobc_rt_array_data(const blobc_rt_array *a, size_t *len) {
    if (len) *len = a->offset && a->length > 0 ? BLOBC_RT_CAST(size_t, a->length) : 0;
    return blobc_rt_resolve(&a->offset);
}

static inline size_t blobc_rt_array_len(const blobc_rt_array *a) {
    return a->offset && a->length > 0 ? BLOBC_RT_CAST(size_t, a->length) : 0;
}

/* The string's bytes, NUL-terminated. A valid blob never has a null
 * string; "" stands in for one so that callers need no NULL check. */
static inline const char *blobc_rt_str_cstr(const blobc_rt_str *s) {
    const void *p = blobc_rt_resolve(&s->offset);
    return p ? BLOBC_RT_CAST(const char *, p) : "";
}

/* The string's length in bytes, without the NUL. */
static inline size_t blobc_rt_str_len(const blobc_rt_str *s) {
    return s->offset && s->length > 0 ? BLOBC_RT_CAST(size_t, s->length) - 1 : 0;
}

/* The order of string keys (a keyed array's, docs/FORMAT.md): the
 * string's bytes against key[0..len), unsigned, a prefix first. <0, 0, >0. */
static inline int blobc_rt_str_cmp(const blobc_rt_str *s, const char *key, size_t len) {
    const char *a = blobc_rt_str_cstr(s);
    size_t n = blobc_rt_str_len(s), i;
    for (i = 0; i < n && i < len; i++) {
        unsigned char x = BLOBC_RT_CAST(unsigned char, a[i]), y = BLOBC_RT_CAST(unsigned char, key[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return n < len ? -1 : n > len ? 1 : 0;
}

/* The target of a *T, or NULL. */
static inline const void *blobc_rt_ptr_get(const blobc_rt_ptr *p) {
    return blobc_rt_resolve(&p->offset);
}

/* Why a blob was refused. The values are the library's verify codes for
 * the same problems (blobc_verify_code in <blobc/verify.h>). */
typedef enum blobc_rt_status {
    BLOBC_RT_OK = 0,
    BLOBC_RT_TRUNCATED = 1,    /* shorter than the header or its sections */
    BLOBC_RT_BAD_MAGIC = 2,    /* not a .blob */
    BLOBC_RT_BAD_VERSION = 3,  /* a format version this runtime does not know */
    BLOBC_RT_BAD_HEADER = 4,   /* header fields inconsistent */
    BLOBC_RT_SCHEMA_HASH = 9,  /* baked for a different layout */
    BLOBC_RT_MISALIGNED = 12,  /* the data section is not 16-byte aligned in memory */
    BLOBC_RT_DATA_SIZE = 23,   /* data smaller than the root, or over 2 GiB - 1 */
    BLOBC_RT_BAD_ARGUMENT = 100 /* a NULL buffer or out-parameter */
} blobc_rt_status;

static inline const char *blobc_rt_status_message(blobc_rt_status st) {
    switch (st) {
    case BLOBC_RT_OK: return "ok";
    case BLOBC_RT_TRUNCATED: return "file is shorter than its header says";
    case BLOBC_RT_BAD_MAGIC: return "not a blob file (bad magic number)";
    case BLOBC_RT_BAD_VERSION: return "unsupported blob format version";
    case BLOBC_RT_BAD_HEADER: return "inconsistent blob header";
    case BLOBC_RT_SCHEMA_HASH: return "blob was baked for a different schema layout";
    case BLOBC_RT_MISALIGNED: return "blob data is not 16-byte aligned in memory";
    case BLOBC_RT_DATA_SIZE: return "blob data is smaller than its root type or too large";
    case BLOBC_RT_BAD_ARGUMENT: return "null buffer or argument";
    }
    return "unknown blob status";
}

/* A blob's data section, as found by blobc_rt_open. */
typedef struct blobc_rt_view {
    const void *data;       /* the data section: the root struct at byte 0 */
    size_t size;            /* its size in bytes */
    uint32_t version;       /* format version */
    uint64_t data_hash;     /* XXH3-64 of the data section, as recorded */
    uint64_t schema_hash;   /* layout hash of the root type, as recorded */
} blobc_rt_view;

static inline uint32_t blobc_rt_le32(const unsigned char *p) {
    return BLOBC_RT_CAST(uint32_t, p[0]) | BLOBC_RT_CAST(uint32_t, p[1]) << 8 |
           BLOBC_RT_CAST(uint32_t, p[2]) << 16 | BLOBC_RT_CAST(uint32_t, p[3]) << 24;
}

static inline uint64_t blobc_rt_le64(const unsigned char *p) {
    return BLOBC_RT_CAST(uint64_t, blobc_rt_le32(p)) | BLOBC_RT_CAST(uint64_t, blobc_rt_le32(p + 4)) << 32;
}

/* Checks a raw data section (`bake --format raw`, or one taken out of a
 * .blob) for what reading it in place needs: 16-byte alignment, at least
 * root_size bytes, at most BLOBC_RT_MAX_DATA_SIZE. */
static inline blobc_rt_status blobc_rt_open_raw(const void *data, size_t len, size_t root_size,
                                                blobc_rt_view *out) {
    if (!data || !out) return BLOBC_RT_BAD_ARGUMENT;
    if (BLOBC_RT_ADDR(data) % BLOBC_RT_SECTION_ALIGN != 0) return BLOBC_RT_MISALIGNED;
    if (len < root_size || len > BLOBC_RT_MAX_DATA_SIZE) return BLOBC_RT_DATA_SIZE;
    out->data = data;
    out->size = len;
    out->version = 0;
    out->data_hash = 0;
    out->schema_hash = 0;
    return BLOBC_RT_OK;
}


/* Parses the header of a .blob file image of `len` bytes at `buf` and
 * finds its data section. Checks the magic number, the format version,
 * the header fields (sizes, flags, the data section right after the
 * header and inside the file), the data's 16-byte alignment in memory,
 * that it holds at least root_size bytes, and (unless
 * expected_schema_hash is BLOBC_RT_ANY_SCHEMA) that the blob was baked
 * for that layout. Bytes after the file's recorded size are ignored, so a
 * blob may sit inside a larger buffer. The hashes of the header and the
 * data are not checked and the data is not walked: this is for files the
 * program trusts; see blobc_verify_blob for the others. */
static inline blobc_rt_status blobc_rt_open(const void *buf, size_t len,
                                            uint64_t expected_schema_hash, size_t root_size,
                                            blobc_rt_view *out) {
    static const char magic[] = BLOBC_RT_MAGIC;
    const unsigned char *p = BLOBC_RT_CAST(const unsigned char *, buf);
    uint64_t data_offset, data_size, file_size, schema_hash;
    size_t i;
    if (!buf || !out) return BLOBC_RT_BAD_ARGUMENT;
    for (i = 0; i < BLOBC_RT_MAGIC_SIZE; i++) {
        if (i == len) return BLOBC_RT_TRUNCATED;
        if (p[i] != BLOBC_RT_CAST(unsigned char, magic[i])) return BLOBC_RT_BAD_MAGIC;
    }
    if (len < BLOBC_RT_H_HEADER_SIZE + 4) return BLOBC_RT_TRUNCATED;
    if (blobc_rt_le32(p + BLOBC_RT_H_VERSION) != BLOBC_RT_FORMAT_VERSION) return BLOBC_RT_BAD_VERSION;
    if (blobc_rt_le32(p + BLOBC_RT_H_HEADER_SIZE) != BLOBC_RT_HEADER_SIZE) return BLOBC_RT_BAD_HEADER;
    if (len < BLOBC_RT_HEADER_SIZE) return BLOBC_RT_TRUNCATED;
    if (blobc_rt_le32(p + BLOBC_RT_H_FLAGS) != 0 || blobc_rt_le32(p + BLOBC_RT_H_RESERVED) != 0)
        return BLOBC_RT_BAD_HEADER;
    data_offset = blobc_rt_le64(p + BLOBC_RT_H_DATA_OFFSET);
    data_size = blobc_rt_le64(p + BLOBC_RT_H_DATA_SIZE);
    file_size = blobc_rt_le64(p + BLOBC_RT_H_FILE_SIZE);
    schema_hash = blobc_rt_le64(p + BLOBC_RT_H_SCHEMA_HASH);
    if (file_size > len) return BLOBC_RT_TRUNCATED;
    if (data_offset != BLOBC_RT_HEADER_SIZE) return BLOBC_RT_BAD_HEADER;
    if (data_size == 0 || data_size > BLOBC_RT_MAX_DATA_SIZE) return BLOBC_RT_DATA_SIZE;
    if (file_size < data_offset || data_size > file_size - data_offset) return BLOBC_RT_TRUNCATED;
    if (expected_schema_hash != BLOBC_RT_ANY_SCHEMA && schema_hash != expected_schema_hash)
        return BLOBC_RT_SCHEMA_HASH;
    if (BLOBC_RT_ADDR(p + data_offset) % BLOBC_RT_SECTION_ALIGN != 0) return BLOBC_RT_MISALIGNED;
    if (data_size < root_size) return BLOBC_RT_DATA_SIZE;
    out->data = p + data_offset;
    out->size = BLOBC_RT_CAST(size_t, data_size);
    out->version = BLOBC_RT_FORMAT_VERSION;
    out->data_hash = blobc_rt_le64(p + BLOBC_RT_H_DATA_HASH);
    out->schema_hash = schema_hash;
    return BLOBC_RT_OK;
}

/* ---- maps ---- */

/* A map `[K: V]` is stored as a [T] of its entries {key; value}, sorted by
 * key without repeats (docs/FORMAT.md, "Maps"), so one binary search
 * finds a key. These take the entry size from the generated code and read
 * the key at the start of each entry, which keeps the search in one place
 * for every map type. */

/* The entry whose string key is key[0..len), or NULL. */
static inline const void *blobc_rt_map_find_str(const blobc_rt_array *m, size_t entry_size,
                                                const char *key, size_t len) {
    size_t lo = 0, hi;
    const char *a = BLOBC_RT_CAST(const char *, blobc_rt_array_data(m, &hi));
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *e = a + mid * entry_size;
        int c = blobc_rt_str_cmp(BLOBC_RT_CAST(const blobc_rt_str *, BLOBC_RT_CAST(const void *, e)), key, len);
        if (c < 0) lo = mid + 1;
        else if (c > 0) hi = mid;
        else return e;
    }
    return BLOBC_RT_NULL;
}

/* An integer key of key_size bytes (1, 2, 4 or 8) at p, as the bits of a
 * u64, sign-extended when is_signed. Read byte by byte, so any entry
 * layout will do. */
static inline uint64_t blobc_rt_key_bits(const void *p, size_t key_size, int is_signed) {
    const unsigned char *b = BLOBC_RT_CAST(const unsigned char *, p);
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < key_size; i++) v |= BLOBC_RT_CAST(uint64_t, b[i]) << (8 * i);
    if (is_signed && key_size < 8 && (v >> (8 * key_size - 1)) & 1u)
        v |= ~UINT64_C(0) << (8 * key_size);
    return v;
}

/* The entry whose integer key (key_size bytes, signed or not: the two
 * orders differ) equals key's bits, or NULL. */
static inline const void *blobc_rt_map_find_int(const blobc_rt_array *m, size_t entry_size,
                                                size_t key_size, int is_signed, uint64_t key) {
    size_t lo = 0, hi;
    const char *a = BLOBC_RT_CAST(const char *, blobc_rt_array_data(m, &hi));
    uint64_t flip = is_signed ? UINT64_C(1) << 63 : 0;  /* signed order as unsigned */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *e = a + mid * entry_size;
        uint64_t k = blobc_rt_key_bits(e, key_size, is_signed) ^ flip;
        if (k < (key ^ flip)) lo = mid + 1;
        else if (k > (key ^ flip)) hi = mid;
        else return e;
    }
    return BLOBC_RT_NULL;
}

/* ---- any ---- */

/* A free-form value (`any`, docs/FORMAT.md, "Free-form values"): a kind,
 * then 8 bytes: a bool, an i64, a u64 (only values of 2^63 and up), an
 * f64, or a string, a list [any] or a mapping [string: any] stored like
 * those types. */
#define BLOBC_RT_ANY_NULL 0u
#define BLOBC_RT_ANY_BOOL 1u
#define BLOBC_RT_ANY_INT 2u
#define BLOBC_RT_ANY_UINT 3u
#define BLOBC_RT_ANY_FLOAT 4u
#define BLOBC_RT_ANY_STRING 5u
#define BLOBC_RT_ANY_LIST 6u
#define BLOBC_RT_ANY_MAP 7u

typedef struct blobc_rt_any {
    uint32_t kind;            /* BLOBC_RT_ANY_* */
    union {
        blobc_rt_str str;     /* STRING */
        blobc_rt_array items; /* LIST: any; MAP: blobc_rt_any_entry, sorted by key */
        unsigned char bytes[8]; /* BOOL (byte 0), INT, UINT, FLOAT: little-endian */
    } body;
} blobc_rt_any;

/* An entry of an any-mapping. */
typedef struct blobc_rt_any_entry {
    blobc_rt_str key;
    blobc_rt_any value;
} blobc_rt_any_entry;

BLOBC_RT_STATIC_ASSERT(sizeof(blobc_rt_any) == 12 && BLOBC_RT_ALIGNOF(blobc_rt_any) == 4,
                       "blobc_rt_any must be {u32, 8 bytes}");
BLOBC_RT_STATIC_ASSERT(sizeof(blobc_rt_any_entry) == 20, "blobc_rt_any_entry must be {string, any}");

static inline uint32_t blobc_rt_any_kind(const blobc_rt_any *a) { return a->kind; }

/* 1 for a true bool, 0 for false and for anything that is no bool. */
static inline int blobc_rt_any_as_bool(const blobc_rt_any *a) {
    return a->kind == BLOBC_RT_ANY_BOOL && a->body.bytes[0] != 0;
}

/* The 8 bytes as the bits of a u64 (the body is only 4-byte aligned). */
static inline uint64_t blobc_rt_any_bits(const blobc_rt_any *a) { return blobc_rt_le64(a->body.bytes); }

/* An INT; 0 for anything else (a UINT does not fit an i64). */
static inline int64_t blobc_rt_any_as_i64(const blobc_rt_any *a) {
    uint64_t b = blobc_rt_any_bits(a);
    if (a->kind != BLOBC_RT_ANY_INT) return 0;
    /* two's complement without the implementation-defined conversion */
    return b >> 63 ? -BLOBC_RT_CAST(int64_t, ~b) - 1 : BLOBC_RT_CAST(int64_t, b);
}

/* A UINT or a non-negative INT; 0 for anything else. */
static inline uint64_t blobc_rt_any_as_u64(const blobc_rt_any *a) {
    uint64_t b = blobc_rt_any_bits(a);
    if (a->kind == BLOBC_RT_ANY_UINT || (a->kind == BLOBC_RT_ANY_INT && !(b >> 63))) return b;
    return 0;
}

/* A FLOAT, or an INT or UINT converted; 0 for anything else. */
static inline double blobc_rt_any_as_f64(const blobc_rt_any *a) {
    double d = 0;
    unsigned char *q = BLOBC_RT_CAST(unsigned char *, BLOBC_RT_CAST(void *, &d));
    size_t i;
    if (a->kind == BLOBC_RT_ANY_INT) return BLOBC_RT_CAST(double, blobc_rt_any_as_i64(a));
    if (a->kind == BLOBC_RT_ANY_UINT) return BLOBC_RT_CAST(double, blobc_rt_any_bits(a));
    if (a->kind != BLOBC_RT_ANY_FLOAT) return 0;
    for (i = 0; i < 8; i++) q[i] = a->body.bytes[i];   /* the bits, as memcpy would */
    return d;
}

/* A STRING's bytes (NUL-terminated) and, when len is not NULL, its
 * length; NULL for anything else. */
static inline const char *blobc_rt_any_as_string(const blobc_rt_any *a, size_t *len) {
    if (a->kind != BLOBC_RT_ANY_STRING) {
        if (len) *len = 0;
        return BLOBC_RT_NULL;
    }
    if (len) *len = blobc_rt_str_len(&a->body.str);
    return blobc_rt_str_cstr(&a->body.str);
}

/* A LIST's length; 0 for anything else. */
static inline size_t blobc_rt_any_list_count(const blobc_rt_any *a) {
    return a->kind == BLOBC_RT_ANY_LIST ? blobc_rt_array_len(&a->body.items) : 0;
}

/* Item i of a LIST, or NULL (past the end, or no list). */
static inline const blobc_rt_any *blobc_rt_any_list_item(const blobc_rt_any *a, size_t i) {
    size_t n;
    const blobc_rt_any *v;
    if (a->kind != BLOBC_RT_ANY_LIST) return BLOBC_RT_NULL;
    v = BLOBC_RT_CAST(const blobc_rt_any *, blobc_rt_array_data(&a->body.items, &n));
    return i < n ? &v[i] : BLOBC_RT_NULL;
}

/* A MAP's entry count; 0 for anything else. */
static inline size_t blobc_rt_any_map_count(const blobc_rt_any *a) {
    return a->kind == BLOBC_RT_ANY_MAP ? blobc_rt_array_len(&a->body.items) : 0;
}

/* Entry i of a MAP (in key order), or NULL. */
static inline const blobc_rt_any_entry *blobc_rt_any_map_entry(const blobc_rt_any *a, size_t i) {
    size_t n;
    const blobc_rt_any_entry *e;
    if (a->kind != BLOBC_RT_ANY_MAP) return BLOBC_RT_NULL;
    e = BLOBC_RT_CAST(const blobc_rt_any_entry *, blobc_rt_array_data(&a->body.items, &n));
    return i < n ? &e[i] : BLOBC_RT_NULL;
}

/* Key i of a MAP (NUL-terminated; its length in *len when len is not
 * NULL), or NULL. */
static inline const char *blobc_rt_any_map_key(const blobc_rt_any *a, size_t i, size_t *len) {
    const blobc_rt_any_entry *e = blobc_rt_any_map_entry(a, i);
    if (len) *len = e ? blobc_rt_str_len(&e->key) : 0;
    return e ? blobc_rt_str_cstr(&e->key) : BLOBC_RT_NULL;
}

/* Value i of a MAP, or NULL. */
static inline const blobc_rt_any *blobc_rt_any_map_value(const blobc_rt_any *a, size_t i) {
    const blobc_rt_any_entry *e = blobc_rt_any_map_entry(a, i);
    return e ? &e->value : BLOBC_RT_NULL;
}

/* The value of a MAP under key[0..len), by binary search, or NULL. */
static inline const blobc_rt_any *blobc_rt_any_map_find(const blobc_rt_any *a, const char *key, size_t len) {
    const blobc_rt_any_entry *e;
    if (a->kind != BLOBC_RT_ANY_MAP) return BLOBC_RT_NULL;
    e = BLOBC_RT_CAST(const blobc_rt_any_entry *,
                      blobc_rt_map_find_str(&a->body.items, sizeof(blobc_rt_any_entry), key, len));
    return e ? &e->value : BLOBC_RT_NULL;
}

#endif
