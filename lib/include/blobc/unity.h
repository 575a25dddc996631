/*
 * blobc/unity.h - Unity DOTS blob asset files: what
 * BlobAssetReference<T>.Write(writer, builder, version) writes and
 * BlobAssetReference<T>.TryRead(path, version, out blob) reads
 * (package com.unity.entities, Unity.Entities/Blobs.cs).
 *
 * The file: the int32 version, the 32-byte serialized BlobAssetHeader
 * (ValidationPtr 0, Length, Allocator.None, Hash = xxHash32 of the data,
 * Padding 0), then Length bytes of data with the root at 0. Every byte is
 * described in docs/UNITY.md. Such a file has no type description: reading
 * one needs the schema.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_UNITY_H
#define BLOBC_UNITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof(BlobAssetHeader), and the file offset of the data (int32 version + header). */
#define BLOBC_UNITY_HEADER_SIZE 32u
#define BLOBC_UNITY_DATA_OFFSET 36u

/* File offsets of the prefix's fields: the int32 version TryRead compares,
 * then the fields of BlobAssetHeader at their [FieldOffset] + 4. */
enum {
    BLOBC_UNITY_OFF_VERSION = 0,
    BLOBC_UNITY_OFF_VALIDATION_PTR = 4, /* void*, written as null */
    BLOBC_UNITY_OFF_LENGTH = 12,        /* int */
    BLOBC_UNITY_OFF_ALLOCATOR = 16,     /* Allocator (0.x) / AllocatorHandle (1.x): 4 bytes */
    BLOBC_UNITY_OFF_HASH = 20,          /* ulong, holding math.hash's uint */
    BLOBC_UNITY_OFF_PADDING = 28        /* ulong, 0 */
};

/* How the header's Length relates to the data, by Entities release. */
typedef enum blobc_unity_length {
    BLOBC_UNITY_LENGTH_ANY = 0,  /* readers: accept either rule below; writers: PADDED */
    BLOBC_UNITY_LENGTH_PADDED,   /* 0.50 and later: rounded up to 16 with zero bytes */
    BLOBC_UNITY_LENGTH_EXACT     /* 0.17 and earlier: the data's own size */
} blobc_unity_length;

typedef struct blobc_unity_options {
    int32_t version;             /* the version the loader passes to TryRead */
    bool check_version;          /* readers: refuse a file of another version */
    blobc_unity_length length;
} blobc_unity_options;

/* The decoded prefix of a Unity blob asset file. */
typedef struct blobc_unity_header {
    int32_t version;
    uint64_t validation_ptr;
    int32_t length;
    uint32_t allocator;
    uint64_t hash;
    uint64_t padding;
} blobc_unity_header;

/* Turns `out`, which holds exactly a data section of data_size bytes (root
 * at 0, as blobc_builder_finish leaves it), into the Unity file image in
 * place: version and header in front, zero padding behind when the length
 * rule asks for it. opts may be NULL (version 0, padded). */
BLOBC_API blobc_status blobc_unity_wrap(size_t data_size, const blobc_unity_options *opts,
                                        blobc_buffer *out, blobc_error *err);

/* Checks the version (when opts->check_version), every header field, the
 * Length against the file size and the length rule, and the hash. On
 * success *data and *data_size name the Length bytes of data. Errors carry
 * a verify code (blobc/verify.h) and the file offset of the bad field. */
BLOBC_API blobc_status blobc_unity_open(const void *bytes, size_t len,
                                        const blobc_unity_options *opts, blobc_unity_header *hd,
                                        const uint8_t **data, size_t *data_size, blobc_error *err);

/* True when `bytes` can only be a Unity blob asset file: at least the
 * 36-byte prefix, ValidationPtr 0, Allocator.None, Padding 0, Length > 0
 * with 36 + Length equal to the file size, and the hash matching. A .blob
 * never passes (its first 8 bytes are the magic, never a zero pointer). */
BLOBC_API bool blobc_unity_detect(const void *bytes, size_t len);

/* True when the fields a serialized header always has are there
 * (ValidationPtr 0, Allocator.None, Padding 0), whatever the rest says:
 * enough to suggest reading a file that fails otherwise as a Unity blob
 * asset. */
BLOBC_API bool blobc_unity_resembles(const void *bytes, size_t len);

#ifdef __cplusplus
}
#endif
#endif
