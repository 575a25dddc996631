/*
 * blobc/gen.h - code generation from a schema: a C11 (and C++17) header
 * that reads baked blobs in place over the runtime in blobc/blob.h.
 */
#ifndef BLOBC_GEN_H
#define BLOBC_GEN_H

#include "error.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_gen_options {
    const char *guard;      /* include guard; derived from the schema name when NULL */
    const char *prefix;     /* prefix for generated identifiers; "" when NULL */
} blobc_gen_options;

/* Appends the generated header for every type in `schema` to `out`. */
blobc_status blobc_gen_c(const blobc_schema *schema, const blobc_gen_options *opts,
                         blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
