/*
 * dump_map.h - the --map layout listing (dump_map.c), used by dump.c; its
 * header fields, which the HTML page shows too.
 * Private to lib/read/.
 */
#ifndef BLOBC_READ_DUMP_MAP_H
#define BLOBC_READ_DUMP_MAP_H

#include "blobc/dump.h"
#include "read/source.h"
#include "read/walk.h"

/* Everything the walk `w` placed, in file order, and where it failed when
 * walk_st is not BLOBC_OK (the error in err then stays the walk's). */
blobc_status blobc_dump_map(const blobc_source *src, const blobc_walk *w, blobc_status walk_st,
                            const void *bytes, size_t len, const blobc_dump_options *opts,
                            blobc_buffer *out, blobc_error *err);

/* A header field: where, how wide, its name, and how to print it
 * (0 decimal, 1 hex, 2 text). */
typedef struct blobc_hfield {
    uint8_t at, size;
    const char *name;
    uint8_t hex;
} blobc_hfield;

/* The header's fields (docs/FORMAT.md, "Header"), or a Unity file's
 * version and BlobAssetHeader (docs/UNITY.md); *n gets their number. */
const blobc_hfield *blobc_map_header_fields(bool unity, size_t *n);

#endif
