/*
 * sort.h - the library's one sort of many records by an integer: a
 * stable LSD radix sort, for the large sorts a bake makes (keyed arrays
 * of integer keys, a builder's links by offset), where qsort's call per
 * comparison costs more than the rest of the work. Private to the library.
 */
#ifndef BLOBC_SORT_H
#define BLOBC_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct blobc_sort_rec {
    uint64_t key;
    uint32_t idx; /* the caller's */
} blobc_sort_rec;

/* Sorts v[0..n) by key, unsigned; records with equal keys keep their
 * order. False (v unchanged) when out of memory. */
bool blobc_sort_by_key(blobc_sort_rec *v, size_t n);

#endif
