/*
 * arena.c - many small allocations freed all at once: blocks of 64 KiB
 * doubling up to 4 MiB, a larger request in a block of its own.
 */
#include "common/arena.h"

#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "platform/platform.h"

struct blobc_arena_block {
    blobc_arena_block *next;
    size_t pad; /* keeps the payload 16-byte aligned on 64-bit and 32-bit hosts */
    _Alignas(16) unsigned char mem[];
};

#define ARENA_BLOCK_DEFAULT (64u * 1024u)
/* Blocks double up to the size that is asked for huge pages: a large
 * schema's tree would otherwise pay a page fault per 4 KiB it fills. */
#define ARENA_BLOCK_MAX BLOBC_OS_HUGE_MIN

void blobc_arena_init(blobc_arena *a) { memset(a, 0, sizeof *a); }

void blobc_arena_free(blobc_arena *a) {
    blobc_arena_block *b = a->head;
    while (b) {
        blobc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    memset(a, 0, sizeof *a);
}

void *blobc_arena_alloc(blobc_arena *a, size_t n) {
    size_t need;
    if (n == 0) n = 1;
    if (!blobc_align_ok(n, 16, &need)) return NULL;
    if (!a->head || need > a->cap - a->used) {
        size_t grown = !a->head                      ? ARENA_BLOCK_DEFAULT
                       : a->cap >= ARENA_BLOCK_MAX / 2 ? ARENA_BLOCK_MAX
                                                       : a->cap * 2;
        size_t cap = need > grown ? need : grown;
        size_t total;
        if (!blobc_add_ok(cap, sizeof(blobc_arena_block), &total)) return NULL;
        blobc_arena_block *blk = malloc(total);
        if (!blk) return NULL;
        blobc_os_advise_huge(blk, total);
        /* A dedicated oversized block goes behind the head so the head's
         * free space is not abandoned. */
        if (a->head && need > grown) {
            blk->next = a->head->next;
            a->head->next = blk;
            memset(blk->mem, 0, need);
            return blk->mem;
        }
        blk->next = a->head;
        a->head = blk;
        a->cap = cap;
        a->used = 0;
    }
    void *p = a->head->mem + a->used;
    a->used += need;
    memset(p, 0, n);
    return p;
}

void *blobc_arena_array(blobc_arena *a, size_t count, size_t size) {
    size_t n;
    if (!blobc_mul_ok(count, size, &n)) return NULL;
    return blobc_arena_alloc(a, n);
}

char *blobc_arena_strndup(blobc_arena *a, const char *s, size_t n) {
    size_t total;
    if (!blobc_add_ok(n, 1, &total)) return NULL;
    char *p = blobc_arena_alloc(a, total);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
