/*
 * inorder.h - the builder's in-order mode (inorder.c), behind the calls
 * of blobc/builder.h when blobc_builder_new_in_order made the builder.
 * Private to lib/blob/.
 *
 * Every call returns IO_OK, IO_NOMEM, or IO_OUT_OF_ORDER when the calls
 * so far no longer describe the canonical layout (builder.c then fails
 * the builder with a message and the caller starts over with an ordinary
 * builder).
 */
#ifndef BLOBC_BLOB_INORDER_H
#define BLOBC_BLOB_INORDER_H

#include <stddef.h>
#include <stdint.h>

#include "blobc/builder.h"

typedef enum io_status { IO_OK = 0, IO_NOMEM, IO_OUT_OF_ORDER } io_status;

typedef struct io_builder io_builder;

/* What blobc_builder_ptr asks most: the allocation asked for last. */
typedef struct io_last {
    uint32_t ref;   /* UINT32_MAX when none */
    uint8_t *mem;
} io_last;

/* `last` is kept up to date while the builder lives (the caller's fast
 * way to blobc_builder_ptr). */
io_builder *io_new(size_t prefix, size_t hint, io_last *last);
void io_free(io_builder *s);

io_status io_alloc(io_builder *s, size_t size, uint32_t align, blobc_ref *ref, void **mem);
io_status io_open(io_builder *s, uint32_t align, blobc_ref *ref);
void *io_grow(io_builder *s, blobc_ref ref, size_t add, io_status *st);
io_status io_close(io_builder *s, blobc_ref ref);
io_status io_link(io_builder *s, blobc_ref loc, uint32_t at, blobc_ref target);
void *io_ptr(io_builder *s, blobc_ref ref);
size_t io_size(io_builder *s, blobc_ref ref);
/* The image, the prefix's bytes zero before it and room for `suffix`
 * bytes after it, moved into out. */
io_status io_finish(io_builder *s, size_t prefix, size_t suffix, blobc_buffer *out);

#endif
