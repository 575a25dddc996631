/*
 * dump_map.h - the --map layout listing (dump_map.c), used by dump.c.
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

#endif
