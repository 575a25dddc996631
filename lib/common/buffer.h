/*
 * buffer.h - text and bytes appended to a blobc_buffer (blobc/error.h),
 * which grows and never truncates; growable arrays. Not installed.
 */
#ifndef BLOBC_BUFFER_H
#define BLOBC_BUFFER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "blobc/error.h"
#include "common/compiler.h"

/* Makes room for `need` elements of `elem` bytes in the malloc'ed array
 * *p of *cap elements, doubling; false (nothing changed) when out of
 * memory or the size would overflow. */
bool blobc_grow(void **p, size_t *cap, size_t need, size_t elem);

/* Makes room for `extra` more bytes; false when out of memory or overflow. */
bool blobc_buf_reserve(blobc_buffer *b, size_t extra);
bool blobc_buf_append(blobc_buffer *b, const void *p, size_t n);
bool blobc_buf_putc(blobc_buffer *b, char c);
bool blobc_buf_puts(blobc_buffer *b, const char *s);
bool blobc_buf_printf(blobc_buffer *b, const char *fmt, ...) BLOBC_PRINTF(2, 3);
/* Appends n zero bytes. */
bool blobc_buf_zeros(blobc_buffer *b, size_t n);

/* The one text emitter: appends to out while *ok, and a failed append
 * clears *ok, so that a writer checks once at the end (and then reports
 * out of memory) instead of after every append. */
void blobc_emit(blobc_buffer *out, bool *ok, const char *fmt, ...) BLOBC_PRINTF(3, 4);
void blobc_vemit(blobc_buffer *out, bool *ok, const char *fmt, va_list ap) BLOBC_PRINTF(3, 0);
void blobc_emit_bytes(blobc_buffer *out, bool *ok, const void *p, size_t n);

#endif
