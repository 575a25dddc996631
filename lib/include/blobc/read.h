/*
 * blobc/read.h - reading any blob through the types it carries, without
 * generated code: open the bytes (verified), take the root value, and go
 * from value to value by field name or index, array item, union member
 * and pointer target; read scalars as numbers, booleans, strings or text.
 *
 * EXPERIMENTAL: this interface may still change (names, the value
 * struct) before it is declared stable. It is meant for tools and
 * bindings of other languages (a ctypes module needs only these
 * functions, an opaque handle and the small value struct below).
 *
 * Values are small structs passed by value; navigating allocates nothing
 * and never fails loudly: asking a value for something it does not have
 * (a field a struct lacks, an item past the end, the target of a null
 * pointer) gives the empty value, whose kind is 0, and every function
 * given the empty value gives an empty answer. A reader is read-only once
 * opened: any number of threads may navigate it at once.
 *
 * Stability: experimental: the navigation calls may still change.
 */
#ifndef BLOBC_READ_H
#define BLOBC_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "schema.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_reader blobc_reader;

/* A value inside a reader's blob: its type and where its bytes are.
 * reader is NULL for the empty value. */
typedef struct blobc_value {
    const blobc_reader *reader;
    const blobc_type *type;
    uint64_t offset;            /* in the data section */
} blobc_value;

/* Opens a .blob image (or a Unity blob asset file, opts->unity) for
 * reading, verified first as blobc_verify_blob does (opts may be NULL; a
 * stripped blob needs opts->schema). The reader reads `bytes` in place:
 * keep them, and opts->schema, alive and unchanged until blobc_reader_free. */
BLOBC_API blobc_status blobc_reader_open(const void *bytes, size_t len,
                                         const blobc_verify_options *opts, blobc_reader **out,
                                         blobc_error *err);
BLOBC_API void blobc_reader_free(blobc_reader *r);

/* The root struct. */
BLOBC_API blobc_value blobc_reader_root(const blobc_reader *r);

/* The value's kind (BLOBC_KIND_*), 0 for the empty value. */
BLOBC_API blobc_kind blobc_value_kind(blobc_value v);

/* ---- structs and unions ---- */

/* A struct's fields; a union's: 1 when it holds a member, else 0. */
BLOBC_API uint32_t blobc_value_field_count(blobc_value v);
/* The name of field i (a union: its member's), NULL past the end. */
BLOBC_API const char *blobc_value_field_name(blobc_value v, uint32_t i);
/* Field i (a union: its member's struct). */
BLOBC_API blobc_value blobc_value_field_at(blobc_value v, uint32_t i);
/* The field of that name (a union: its member's struct, if it holds that
 * member). */
BLOBC_API blobc_value blobc_value_field(blobc_value v, const char *name);

/* The member a union holds: its name, or NULL when it holds none. */
BLOBC_API const char *blobc_value_union_tag(blobc_value v);
/* ... and its struct (the empty value when none). */
BLOBC_API blobc_value blobc_value_union_member(blobc_value v);

/* ---- sequences and pointers ---- */

/* Items of a [T] or [T; N]; bytes of a string (no NUL); 0 for others. */
BLOBC_API uint32_t blobc_value_length(blobc_value v);
/* Item i of a [T] or [T; N]. */
BLOBC_API blobc_value blobc_value_item(blobc_value v, uint32_t i);
/* The target of a *T, or of a reference &T (the item it names); the
 * empty value when it is null. */
BLOBC_API blobc_value blobc_value_deref(blobc_value v);
/* The key of a struct with a @key field (that field); of a reference &T,
 * its target's key (what `blobc dump` writes for it); the empty value
 * otherwise (a *T too, and a null reference). */
BLOBC_API blobc_value blobc_value_key(blobc_value v);
/* Whether a *T, [T] or string is null/empty, or a union holds no member. */
BLOBC_API bool blobc_value_is_null(blobc_value v);

/* ---- scalars ---- */

/* An enum's member name (NULL when not an enum). */
BLOBC_API const char *blobc_value_enum_name(blobc_value v);
/* An integer, bool or enum (its value) that fits int64_t / uint64_t. */
BLOBC_API bool blobc_value_int(blobc_value v, int64_t *out);
BLOBC_API bool blobc_value_uint(blobc_value v, uint64_t *out);
/* An f32 (exactly widened) or f64. */
BLOBC_API bool blobc_value_float(blobc_value v, double *out);
BLOBC_API bool blobc_value_bool(blobc_value v, bool *out);
/* A string's bytes, in the blob (valid UTF-8, NUL-terminated, len without
 * the NUL). */
BLOBC_API bool blobc_value_string(blobc_value v, const char **s, size_t *len);
/* A scalar, enum or string as text, as `blobc dump` writes it (numbers,
 * shortest round-trip floats, ".nan"/".inf", true/false, the enum member's
 * name, a string's bytes unquoted) into buf, NUL-terminated when cap > 0;
 * returns the length of the whole text (snprintf semantics), 0 for other
 * kinds. */
BLOBC_API size_t blobc_value_text(blobc_value v, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
