/*
 * arena.h - many small allocations freed all at once. Not installed.
 */
#ifndef BLOBC_ARENA_H
#define BLOBC_ARENA_H

#include <stddef.h>

typedef struct blobc_arena_block blobc_arena_block;
typedef struct blobc_arena {
    blobc_arena_block *head;
    size_t used;    /* bytes used in head */
    size_t cap;     /* capacity of head */
} blobc_arena;

void blobc_arena_init(blobc_arena *a);
void blobc_arena_free(blobc_arena *a);
/* Zeroed, aligned to 16. NULL when out of memory or n overflows. */
void *blobc_arena_alloc(blobc_arena *a, size_t n);
/* Zeroed array of count elements of size each; NULL on overflow. */
void *blobc_arena_array(blobc_arena *a, size_t count, size_t size);
/* NUL-terminated copy of n bytes. */
char *blobc_arena_strndup(blobc_arena *a, const char *s, size_t n);

#endif
