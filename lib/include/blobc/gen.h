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
    const char *guard;      /* include guard; BLOBC_GEN_<FILE STEM>_H when NULL */
    const char *prefix;     /* prepended to every type name (and so to the
                               names derived from it); none when NULL */
} blobc_gen_options;

/* Appends the generated header for every named type in `schema` to `out`
 * (opts may be NULL). The schema may be parsed or decoded from a blob.
 * Fails with BLOBC_EARG for a guard or prefix that is not a C identifier,
 * BLOBC_ENOMEM when out of memory; on failure `out` is left as it was.
 * The output and its naming rules are described in docs/CODEGEN.md. */
BLOBC_API blobc_status blobc_gen_c(const blobc_schema *schema, const blobc_gen_options *opts,
                                   blobc_buffer *out, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
