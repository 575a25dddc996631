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

#ifdef __cplusplus
}
#endif
#endif
