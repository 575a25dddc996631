/*
 * unity.c - the Unity DOTS blob asset file (blobc/unity.h): the one place
 * that knows its byte layout. Facts from com.unity.entities' published
 * source, Unity.Entities/Blobs.cs (BlobAssetHeader, BlobAssetReference<T>.
 * Write and TryRead, BlobAssetSerializeExtensions) and BlobBuilder.cs
 * (CreateBlobAssetReference); docs/UNITY.md cites them.
 */
#include <stdlib.h>
#include <xxhash.h>

#include "blobc/blobfile.h"
#include "blobc/unity.h"
#include "blobc/verify.h"
#include "common/buffer.h"
#include "common/endian.h"
#include "common/err.h"

_Static_assert(BLOBC_UNITY_OFF_PADDING + 8 == BLOBC_UNITY_DATA_OFFSET, "version + BlobAssetHeader");
_Static_assert(BLOBC_UNITY_DATA_OFFSET - 4 == BLOBC_UNITY_HEADER_SIZE, "header size");

/* Unity.Collections.Allocator.None (Invalid is 0); as an AllocatorHandle
 * it is Index 1, Version 0: the same four bytes. */
#define ALLOCATOR_NONE 1u
/* CreateBlobAssetReference pads the last chunk to this (0.50 and later). */
#define LENGTH_ALIGN 16u

/* math.hash(ptr, n) of Unity.Mathematics is xxHash32 with seed 0. */
static uint64_t unity_hash(const uint8_t *data, size_t n) { return XXH32(data, n, 0); }

blobc_status blobc_unity_wrap(size_t data_size, const blobc_unity_options *opts,
                              blobc_buffer *out, blobc_error *err) {
    static const blobc_unity_options none;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    if (!opts) opts = &none;
    if (opts->length > BLOBC_UNITY_LENGTH_EXACT)
        return blobc_err_arg(err, __func__, "opts->length is not a blobc_unity_length");
    if (out->len != data_size || data_size == 0)
        return blobc_err(err, BLOBC_EINPUT, "buffer of %zu bytes does not hold a %zu-byte data "
                                            "section", out->len, data_size);
    size_t length = data_size;
    if (opts->length != BLOBC_UNITY_LENGTH_EXACT)
        length = (data_size + (LENGTH_ALIGN - 1)) & ~(size_t)(LENGTH_ALIGN - 1);
    if (data_size > INT32_MAX || length > INT32_MAX)
        return blobc_err(err, BLOBC_EINPUT,
                         "data of %zu bytes: a Unity blob asset's Length is an int, at most "
                         "%d bytes", length, INT32_MAX);
    if (!blobc_buf_zeros(out, BLOBC_UNITY_DATA_OFFSET + (length - data_size)))
        return blobc_err_nomem(err);
    uint8_t *b = out->data;
    memmove(b + BLOBC_UNITY_DATA_OFFSET, b, data_size);
    memset(b, 0, BLOBC_UNITY_DATA_OFFSET);
    memset(b + BLOBC_UNITY_DATA_OFFSET + data_size, 0, length - data_size);
    blobc_st32(b + BLOBC_UNITY_OFF_VERSION, (uint32_t)opts->version);
    blobc_st32(b + BLOBC_UNITY_OFF_LENGTH, (uint32_t)length);
    blobc_st32(b + BLOBC_UNITY_OFF_ALLOCATOR, ALLOCATOR_NONE);
    blobc_st64(b + BLOBC_UNITY_OFF_HASH, unity_hash(b + BLOBC_UNITY_DATA_OFFSET, length));
    return BLOBC_OK;
}

static void read_header(const uint8_t *b, blobc_unity_header *hd) {
    hd->version = (int32_t)blobc_ld32(b + BLOBC_UNITY_OFF_VERSION);
    hd->validation_ptr = blobc_ld64(b + BLOBC_UNITY_OFF_VALIDATION_PTR);
    hd->length = (int32_t)blobc_ld32(b + BLOBC_UNITY_OFF_LENGTH);
    hd->allocator = blobc_ld32(b + BLOBC_UNITY_OFF_ALLOCATOR);
    hd->hash = blobc_ld64(b + BLOBC_UNITY_OFF_HASH);
    hd->padding = blobc_ld64(b + BLOBC_UNITY_OFF_PADDING);
}

/* The header fields a serialized asset always has, then the length. */
static blobc_status check_fields(const blobc_unity_header *hd, size_t len,
                                 blobc_unity_length rule, blobc_error *err) {
    if (hd->validation_ptr != 0)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_VALIDATION_PTR,
                    "ValidationPtr is 0x%llx; a serialized blob asset has null there",
                    (unsigned long long)hd->validation_ptr);
    if (hd->allocator != ALLOCATOR_NONE)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_ALLOCATOR,
                    "Allocator is %u; a serialized blob asset has Allocator.None (%u)",
                    (unsigned)hd->allocator, ALLOCATOR_NONE);
    if (hd->padding != 0)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_PADDING, "the header's Padding is not zero");
    if (hd->hash >> 32)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_HASH,
                    "Hash 0x%016llx has upper bits set; math.hash gives 32 bits",
                    (unsigned long long)hd->hash);
    if (hd->length <= 0)
        return blobc_err_verify(err, BLOBC_V_DATA_SIZE, BLOBC_UNITY_OFF_LENGTH, "Length is %d; it must be at least 1",
                    (int)hd->length);
    size_t have = len - BLOBC_UNITY_DATA_OFFSET;
    if ((size_t)hd->length > have)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, BLOBC_UNITY_OFF_LENGTH,
                    "Length is %d, but only %zu bytes follow the header", (int)hd->length, have);
    if ((size_t)hd->length < have)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_LENGTH,
                    "%zu trailing bytes after the %d bytes of data the header's Length gives",
                    have - (size_t)hd->length, (int)hd->length);
    if (rule == BLOBC_UNITY_LENGTH_PADDED && hd->length % LENGTH_ALIGN != 0)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_UNITY_OFF_LENGTH,
                    "Length %d is not a multiple of %u, as Entities 0.50 and later write it",
                    (int)hd->length, LENGTH_ALIGN);
    return BLOBC_OK;
}

blobc_status blobc_unity_open(const void *bytes, size_t len, const blobc_unity_options *opts,
                              blobc_unity_header *hd, const uint8_t **data, size_t *data_size,
                              blobc_error *err) {
    static const blobc_unity_options none;
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!hd || !data || !data_size) return blobc_err_arg(err, __func__, "hd, data or data_size is NULL");
    if (!bytes && len) return blobc_err_arg(err, __func__, "len is not 0 but bytes is NULL");
    if (!opts) opts = &none;
    if (opts->length > BLOBC_UNITY_LENGTH_EXACT)
        return blobc_err_arg(err, __func__, "opts->length is not a blobc_unity_length");
    const uint8_t *b = bytes;
    memset(hd, 0, sizeof *hd);
    if (len < BLOBC_UNITY_DATA_OFFSET)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, 0,
                    "file is %zu bytes, shorter than the %u bytes of version and blob asset "
                    "header", len, BLOBC_UNITY_DATA_OFFSET);
    read_header(b, hd);
    if (opts->check_version && hd->version != opts->version)
        return blobc_err_verify(err, BLOBC_V_BAD_VERSION, BLOBC_UNITY_OFF_VERSION,
                    "version %d; TryRead with version %d refuses it", (int)hd->version,
                    (int)opts->version);
    blobc_status st = check_fields(hd, len, opts->length, err);
    if (st) return st;
    const uint8_t *d = b + BLOBC_UNITY_DATA_OFFSET;
    uint64_t got = unity_hash(d, (size_t)hd->length);
    if (got != hd->hash)
        return blobc_err_verify(err, BLOBC_V_DATA_HASH, BLOBC_UNITY_OFF_HASH,
                    "Hash is 0x%08llx, but the data hashes to 0x%08llx (xxHash32, seed 0)",
                    (unsigned long long)hd->hash, (unsigned long long)got);
    *data = d;
    *data_size = (size_t)hd->length;
    return BLOBC_OK;
}

bool blobc_unity_resembles(const void *bytes, size_t len) {
    blobc_unity_header hd;
    if (!bytes || len < BLOBC_UNITY_DATA_OFFSET) return false;
    read_header(bytes, &hd);
    return hd.validation_ptr == 0 && hd.allocator == ALLOCATOR_NONE && hd.padding == 0;
}

bool blobc_unity_detect(const void *bytes, size_t len) {
    blobc_unity_header hd;
    const uint8_t *data;
    size_t size;
    return bytes && blobc_unity_open(bytes, len, NULL, &hd, &data, &size, NULL) == BLOBC_OK;
}
