/*
 * blobc/builder.h - the blob builder: assemble a relocatable image.
 *
 * The model is Unity's BlobBuilder. Construct the root, allocate payloads
 * (array items, string bytes, pointer targets) while filling it, and record
 * every offset field as a link from (allocation, byte offset) to a target
 * allocation. blobc_builder_finish lays all reachable allocations out in
 * one contiguous image and writes each link as a self-relative i32.
 *
 * A union value is filled the same way: its u32 tag written in place and
 * its offset field, at BLOBC_UNION_REF, linked to the member's allocation
 * (docs/FORMAT.md, "Unions"; the tag 0 with no link is none).
 *
 * Placement is canonical, independent of the order allocations were made:
 * the root sits at offset 0, and every other allocation is placed when a
 * depth-first walk from the root first reaches it, visiting an allocation's
 * links in increasing byte offset, each at the next multiple of its
 * alignment. Gaps are zero. So the same value graph always yields the same
 * bytes, whatever order the input listed its keys in, and an allocation
 * linked from several places (a shared payload) is stored once.
 *
 * Memory: fixed allocations never move. "Open" allocations (arrays whose
 * length is not known until their last item) may move while they grow,
 * until closed, so callers address bytes by (ref, offset) and re-fetch
 * pointers with blobc_builder_ptr after growing.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BUILDER_H
#define BLOBC_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blob.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blobc_builder blobc_builder;

/* A handle to one allocation. The root is always ref 0. */
typedef uint32_t blobc_ref;

/* Largest data section: offsets are i32, so 2 GiB - 1. */
#define BLOBC_MAX_DATA_SIZE BLOBC_RT_MAX_DATA_SIZE

/* NULL when out of memory. */
BLOBC_API blobc_builder *blobc_builder_new(void);
BLOBC_API void blobc_builder_free(blobc_builder *b);

/* Experimental. A builder for a caller whose calls come in the canonical
 * order (above): each allocation, after the root, linked once from an
 * allocation made before it, at a higher byte offset than that one's
 * earlier links, before anything is linked to an allocation made before
 * it; so a reader that fills a document's values in the order a
 * depth-first walk of the blob meets them, and links each payload when it
 * is complete. Such a builder writes every payload straight into its
 * place in the image, keeps no record of allocations or links, and
 * finish has nothing to lay out. Differences from the ordinary builder:
 * a pointer it gives is valid only until the next call on it;
 * blobc_builder_finish_at must be given `prefix` (a multiple of 16), and
 * `size_hint` (the expected image size, 0 when unknown) sizes its first
 * buffer. The first call out of that order (or any use of references or
 * of sorting) fails with BLOBC_EARG and blobc_builder_out_of_order
 * becomes true: start over with blobc_builder_new, which takes any order.
 * NULL when out of memory. */
BLOBC_API blobc_builder *blobc_builder_new_in_order(size_t prefix, size_t size_hint);
/* Whether an in-order builder failed because the calls left that order. */
BLOBC_API bool blobc_builder_out_of_order(const blobc_builder *b);

/* Allocates the zeroed root (must be the first allocation; ref 0). */
BLOBC_API blobc_status blobc_builder_root(blobc_builder *b, uint32_t size, uint32_t align, void **mem);

/* Allocates `size` zeroed bytes aligned to `align` (a power of two <= 16).
 * size must be > 0. The memory stays put until the builder is freed. */
BLOBC_API blobc_status blobc_builder_alloc(blobc_builder *b, size_t size, uint32_t align,
                                           blobc_ref *ref, void **mem);

/* Opens a growable allocation (initially empty). */
BLOBC_API blobc_status blobc_builder_open(blobc_builder *b, uint32_t align, blobc_ref *ref);

/* Appends `add` zeroed bytes to an open allocation and returns a pointer to
 * them (NULL when out of memory or over the size limit). Earlier pointers
 * into this allocation are invalidated. */
BLOBC_API void *blobc_builder_grow(blobc_builder *b, blobc_ref ref, size_t add);

/* Fixes an open allocation's size. A closed allocation of size 0 must not
 * be linked (an empty array is stored as offset 0, length 0). */
BLOBC_API blobc_status blobc_builder_close(blobc_builder *b, blobc_ref ref);

/* Current address and size of an allocation. */
BLOBC_API void *blobc_builder_ptr(const blobc_builder *b, blobc_ref ref);
BLOBC_API size_t blobc_builder_size(const blobc_builder *b, blobc_ref ref);

/* Records that the i32 at byte `at` of allocation `loc` is a self-relative
 * offset to the start of allocation `target`. */
BLOBC_API blobc_status blobc_builder_link(blobc_builder *b, blobc_ref loc, uint32_t at, blobc_ref target);

/* ---- references: offsets into the middle of an allocation ----
 *
 * A reference (&T in a schema) is stored like a *T but leads to one item
 * of an array that the value graph places anyway; it places nothing
 * itself, so it may point forward or form cycles. Its target is usually
 * known only at the end of a document: record it pending, resolve later. */

/* Records that the i32 at byte `at` of allocation `loc` is a reference
 * whose target is given later by blobc_builder_resolve(*id, ...). */
BLOBC_API blobc_status blobc_builder_link_pending(blobc_builder *b, blobc_ref loc, uint32_t at,
                                                  uint32_t *id);
/* Sets a pending reference's target: byte `toff` of allocation `target`,
 * which must be placed (reached by ordinary links) when the builder
 * finishes. */
BLOBC_API blobc_status blobc_builder_resolve(blobc_builder *b, uint32_t id, blobc_ref target,
                                             uint32_t toff);

/* ---- sorting the items of an open allocation ---- */

/* For an open allocation holding n items of `item_size` bytes: the target
 * of the link at byte `at` of each item (a string's bytes, say), recorded
 * while it was open, into targets[i]; UINT32_MAX where there is none. */
BLOBC_API blobc_status blobc_builder_item_targets(blobc_builder *b, blobc_ref ref,
                                                  uint32_t item_size, uint32_t at, size_t n,
                                                  blobc_ref *targets);
/* Reorders the n items of an open allocation: item i becomes the old item
 * perm[i] (a permutation of 0..n-1). Links and pending references recorded
 * in it while it was open move with their items. */
BLOBC_API blobc_status blobc_builder_permute(blobc_builder *b, blobc_ref ref, uint32_t item_size,
                                             size_t n, const uint32_t *perm);

/* A call that misuses the builder (an alignment that is not a power of
 * two <= 16, a size of 0, an allocation before the root, a link to an
 * allocation that does not exist, any use after finish, a NULL builder)
 * fails with BLOBC_EARG; a data section past BLOBC_MAX_DATA_SIZE or too
 * many allocations with BLOBC_EINPUT; memory with BLOBC_ENOMEM.
 *
 * The first failure of any call on this builder, with its message (e.g.
 * "data section would be at least N bytes; ..." when an allocation or a
 * grow passes the limit, which blobc_builder_grow can only signal by NULL).
 * A failed builder stays failed: later calls return the same status, and
 * blobc_builder_finish reports that first error. BLOBC_OK when none. */
BLOBC_API blobc_status blobc_builder_status(const blobc_builder *b, blobc_error *err);

/* Lays out and writes the image into `out` (replacing its contents). Fails
 * with BLOBC_EINPUT if the image would exceed BLOBC_MAX_DATA_SIZE. The
 * image's address in `out` is 16-byte aligned. The builder may be freed
 * afterwards; it cannot be reused. */
BLOBC_API blobc_status blobc_builder_finish(blobc_builder *b, blobc_buffer *out, blobc_error *err);

/* Like blobc_builder_finish, but the image starts at byte `prefix` of
 * out->data (prefix a multiple of 16; the bytes before the image are zero)
 * and out->cap is at least out->len + `suffix`, so a caller can write a
 * header in front of the image and append up to `suffix` bytes after it
 * without copying it again. out->len is prefix + the image size. */
BLOBC_API blobc_status blobc_builder_finish_at(blobc_builder *b, blobc_buffer *out, size_t prefix,
                                               size_t suffix, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
