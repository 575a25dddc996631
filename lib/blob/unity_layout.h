/*
 * unity_layout.h - file offsets of the fields of a Unity blob asset file
 * (blobc/unity.h): the int32 version TryRead compares, then the fields of
 * BlobAssetHeader at their [FieldOffset] + 4. Private; used by unity.c,
 * which reads and writes them, and by dump's layout map, which lists them.
 */
#ifndef BLOBC_UNITY_LAYOUT_H
#define BLOBC_UNITY_LAYOUT_H

#include "blobc/unity.h"

enum {
    BLOBC_U_VERSION = 0,
    BLOBC_U_VALIDATION_PTR = 4, /* void*, written as null */
    BLOBC_U_LENGTH = 12,        /* int */
    BLOBC_U_ALLOCATOR = 16,     /* Allocator (0.x) / AllocatorHandle (1.x): 4 bytes */
    BLOBC_U_HASH = 20,          /* ulong, holding math.hash's uint */
    BLOBC_U_PADDING = 28        /* ulong, 0 */
};

_Static_assert(BLOBC_U_PADDING + 8 == BLOBC_UNITY_DATA_OFFSET, "version + BlobAssetHeader");
_Static_assert(BLOBC_UNITY_DATA_OFFSET - 4 == BLOBC_UNITY_HEADER_SIZE, "header size");

/* True when the fields a serialized header always has are there
 * (ValidationPtr 0, Allocator.None, Padding 0), whatever the rest says:
 * enough to suggest --format unity for a file that fails otherwise. */
bool blobc_unity_resembles(const void *bytes, size_t len);

#endif
