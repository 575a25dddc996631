/*
 * source.h - a .blob or raw data section opened for reading (source.c).
 * Private to lib/read/.
 */
#ifndef BLOBC_READ_SOURCE_H
#define BLOBC_READ_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/blobfile.h"
#include "blobc/schema.h"
#include "blobc/unity.h"
#include "blobc/verify.h"
#include "common/buffer.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/quote.h"
#include "common/utf8.h"

/* What verify and dump both start from: a .blob, a raw data section or a
 * Unity blob asset file, opened, its root type resolved (from opts' schema
 * or the embedded types) and checked against the header's schema hash. */
typedef struct blobc_source {
    blobc_blob blob;            /* zeroed for raw input */
    bool is_blob;
    bool is_unity;              /* a Unity blob asset file */
    uint32_t end_align;         /* for blobc_walk.end_align */
    const uint8_t *data;
    size_t size;
    uint64_t data_offset;       /* file offset of data (0 for raw) */
    const blobc_type *root;
    const char *schema_name;    /* recorded in the blob, or NULL */
} blobc_source;

/* How the bytes given to blobc_source_open are framed. */
typedef struct blobc_source_format {
    bool raw;                           /* a data section alone */
    const blobc_unity_options *unity;   /* a Unity blob asset file */
} blobc_source_format;

/* Opens `bytes` (a .blob, a raw data section, a Unity blob asset file; a
 * Unity file is also recognised without being named, see
 * blobc_unity_detect) for walking. On failure err is set;
 * blobc_source_close is safe either way. */
blobc_status blobc_source_open(blobc_source *src, const void *bytes, size_t len,
                               blobc_source_format fmt, const blobc_schema *schema,
                               const char *type_name, unsigned flags, blobc_error *err);
void blobc_source_close(blobc_source *src);

/* The value of the scalar or enum of type t at p, for the value stream
 * (walk_stream.c) and the read API (reader.c): an enum's member name too. */
struct blobc_sval;
void blobc_sval_load(const blobc_type *t, const uint8_t *p, struct blobc_sval *v);

#endif
