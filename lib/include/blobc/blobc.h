/*
 * blobc/blobc.h - the whole blobc library: schemas, the blob builder,
 * baking YAML/JSON, the .blob container, verification, dump and code
 * generation. Link with -lblobc (pkg-config blobc).
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BLOBC_H
#define BLOBC_BLOBC_H

#include "bake.h"
#include "blobfile.h"
#include "builder.h"
#include "dump.h"
#include "error.h"
#include "evolve.h"
#include "gen.h"
#include "read.h"
#include "schema.h"
#include "unity.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, "MAJOR.MINOR.PATCH". */
BLOBC_API const char *blobc_version(void);

/* Did-you-mean, by the rule every message of the library uses: of the n
 * names, the one `word` (len bytes) was most likely meant to be (a
 * difference in case, or a typo within a few edits), or NULL. */
BLOBC_API const char *blobc_closest_name(const char *word, size_t len, const char *const *names,
                                         size_t n);

#ifdef __cplusplus
}
#endif
#endif
