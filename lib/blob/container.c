/*
 * container.c - the .blob container: writes the 96-byte header, the data
 * section and the type section (docs/FORMAT.md, "Header"), and opens one
 * from untrusted bytes, checking each field in the order that gives the
 * most useful error (a text file is "bad-magic", not "truncated"; a newer
 * file is "bad-version", not "header-hash").
 */
#include <stdlib.h>
#include <xxhash.h>

#include "blobc/blobfile.h"
#include "blobc/builder.h"
#include "blobc/verify.h"
#include "common/buffer.h"
#include "common/endian.h"
#include "common/err.h"

_Static_assert(BLOBC_RT_H_HEADER_HASH + 8 == BLOBC_HEADER_SIZE, "the header is 96 bytes");

static size_t align16(size_t v) { return (v + (BLOBC_SECTION_ALIGN - 1)) & ~(size_t)(BLOBC_SECTION_ALIGN - 1); }

static blobc_status check_write(size_t data_size, const blobc_type *root, blobc_error *err) {
    if (!root) return blobc_err(err, BLOBC_EINPUT, "a blob needs a root type");
    if (data_size == 0 || data_size > BLOBC_MAX_DATA_SIZE)
        return blobc_err(err, BLOBC_EINPUT,
                         "data section of %zu bytes; it must be 1 to 2 GiB - 1 bytes", data_size);
    return BLOBC_OK;
}

/* Appends the type section to `out`, which holds the header room and the
 * data section, and fills in the header. */
static blobc_status write_around(size_t data_size, const blobc_type *root,
                                 const blobc_write_options *opts, blobc_buffer *out,
                                 blobc_error *err) {
    bool strip = opts && opts->strip;
    const char *schema_name = opts ? opts->schema_name : NULL;
    size_t types_offset = 0, types_size = 0;
    uint64_t types_hash = 0;
    if (!strip) {
        types_offset = align16(out->len);
        if (!blobc_buf_zeros(out, types_offset - out->len)) return blobc_err_nomem(err);
        blobc_status st = blobc_types_encode(root, schema_name, out, err);
        if (st) return st;
        types_size = out->len - types_offset;
        types_hash = XXH3_64bits(out->data + types_offset, types_size);
    }
    uint8_t *h = out->data;
    memcpy(h + BLOBC_RT_H_MAGIC, BLOBC_MAGIC, BLOBC_MAGIC_SIZE);
    blobc_st32(h + BLOBC_RT_H_VERSION, BLOBC_FORMAT_VERSION);
    blobc_st32(h + BLOBC_RT_H_HEADER_SIZE, BLOBC_HEADER_SIZE);
    blobc_st64(h + BLOBC_RT_H_DATA_OFFSET, BLOBC_HEADER_SIZE);
    blobc_st64(h + BLOBC_RT_H_DATA_SIZE, data_size);
    blobc_st64(h + BLOBC_RT_H_DATA_HASH, XXH3_64bits(h + BLOBC_HEADER_SIZE, data_size));
    blobc_st64(h + BLOBC_RT_H_SCHEMA_HASH, blobc_type_hash(root));
    blobc_st64(h + BLOBC_RT_H_TYPES_OFFSET, types_offset);
    blobc_st64(h + BLOBC_RT_H_TYPES_SIZE, types_size);
    blobc_st64(h + BLOBC_RT_H_TYPES_HASH, types_hash);
    blobc_st32(h + BLOBC_RT_H_FLAGS, 0);
    blobc_st32(h + BLOBC_RT_H_RESERVED, 0);
    blobc_st64(h + BLOBC_RT_H_FILE_SIZE, out->len);
    blobc_st64(h + BLOBC_RT_H_HEADER_HASH, XXH3_64bits(h, BLOBC_RT_H_HEADER_HASH));
    return BLOBC_OK;
}

blobc_status blobc_blob_write(const void *data, size_t data_size, const blobc_type *root,
                              const blobc_write_options *opts, blobc_buffer *out,
                              blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    if (!data && data_size) return blobc_err_arg(err, __func__, "data_size is not 0 but data is NULL");
    blobc_status st = check_write(data_size, root, err);
    if (st) return st;
    out->len = 0;
    if (!blobc_buf_zeros(out, BLOBC_HEADER_SIZE) || !blobc_buf_append(out, data, data_size))
        return blobc_err_nomem(err);
    return write_around(data_size, root, opts, out, err);
}

blobc_status blobc_blob_write_in_place(size_t data_size, const blobc_type *root,
                                       const blobc_write_options *opts, blobc_buffer *out,
                                       blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!out) return blobc_err_arg(err, __func__, "out is NULL");
    blobc_status st = check_write(data_size, root, err);
    if (st) return st;
    if (out->len != (size_t)BLOBC_HEADER_SIZE + data_size)
        return blobc_err(err, BLOBC_EINPUT,
                         "buffer of %zu bytes does not hold a %u-byte header room and a "
                         "%zu-byte data section",
                         out->len, BLOBC_HEADER_SIZE, data_size);
    return write_around(data_size, root, opts, out, err);
}

static void read_header(const uint8_t *h, blobc_header *hd) {
    hd->version = blobc_ld32(h + BLOBC_RT_H_VERSION);
    hd->header_size = blobc_ld32(h + BLOBC_RT_H_HEADER_SIZE);
    hd->data_offset = blobc_ld64(h + BLOBC_RT_H_DATA_OFFSET);
    hd->data_size = blobc_ld64(h + BLOBC_RT_H_DATA_SIZE);
    hd->data_hash = blobc_ld64(h + BLOBC_RT_H_DATA_HASH);
    hd->schema_hash = blobc_ld64(h + BLOBC_RT_H_SCHEMA_HASH);
    hd->types_offset = blobc_ld64(h + BLOBC_RT_H_TYPES_OFFSET);
    hd->types_size = blobc_ld64(h + BLOBC_RT_H_TYPES_SIZE);
    hd->types_hash = blobc_ld64(h + BLOBC_RT_H_TYPES_HASH);
    hd->flags = blobc_ld32(h + BLOBC_RT_H_FLAGS);
    hd->file_size = blobc_ld64(h + BLOBC_RT_H_FILE_SIZE);
}

/* Everything that only needs the header: sizes, bounds, alignment; and
 * the padding before the type section when the whole file is at `whole`
 * (NULL: only the header is in b, and the padding is the caller's). */
static blobc_status check_layout(const uint8_t *b, const uint8_t *whole, size_t len,
                                 const blobc_header *hd, blobc_error *err) {
    if (hd->flags != 0)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_FLAGS, "unknown flags 0x%x", (unsigned)hd->flags);
    if (blobc_ld32(b + BLOBC_RT_H_RESERVED) != 0)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_RESERVED, "reserved header field is not zero");
    if (hd->file_size > len)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, BLOBC_RT_H_FILE_SIZE,
                    "file is %zu bytes but its header says %llu", len,
                    (unsigned long long)hd->file_size);
    if (hd->file_size < len)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_FILE_SIZE,
                    "%llu trailing bytes after the %llu bytes the header describes",
                    (unsigned long long)(len - hd->file_size), (unsigned long long)hd->file_size);
    if (hd->data_offset != BLOBC_HEADER_SIZE)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_DATA_OFFSET,
                    "data section at offset %llu; version 1 puts it right after the header, "
                    "at %u",
                    (unsigned long long)hd->data_offset, BLOBC_HEADER_SIZE);
    if (hd->data_size == 0 || hd->data_size > BLOBC_MAX_DATA_SIZE)
        return blobc_err_verify(err, BLOBC_V_DATA_SIZE, BLOBC_RT_H_DATA_SIZE,
                    "data section of %llu bytes; it must be 1 to 2 GiB - 1 bytes",
                    (unsigned long long)hd->data_size);
    uint64_t data_end = hd->data_offset + hd->data_size; /* both bounded: no overflow */
    if (data_end > len)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, BLOBC_RT_H_DATA_SIZE,
                    "data section ends at %llu, past the end of the %zu-byte file",
                    (unsigned long long)data_end, len);
    uint64_t end = data_end;
    if (hd->types_offset == 0) {
        if (hd->types_size != 0 || hd->types_hash != 0)
            return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_TYPES_SIZE,
                        "no type section, but its size or hash is set");
    } else {
        uint64_t want = align16((size_t)data_end);
        if (hd->types_offset != want)
            return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_TYPES_OFFSET,
                        "type section at offset %llu; it must follow the data section at the "
                        "next multiple of 16, %llu",
                        (unsigned long long)hd->types_offset, (unsigned long long)want);
        if (hd->types_size == 0 || want > len || hd->types_size > len - want)
            return blobc_err_verify(err, hd->types_size ? BLOBC_V_TRUNCATED : BLOBC_V_BAD_HEADER,
                        BLOBC_RT_H_TYPES_SIZE, "type section of %llu bytes at offset %llu does not fit "
                        "in the %zu-byte file",
                        (unsigned long long)hd->types_size, (unsigned long long)want, len);
        for (uint64_t i = data_end; whole && i < want; i++)
            if (whole[i])
                return blobc_err_verify(err, BLOBC_V_PADDING, i,
                            "nonzero padding byte between the data and type sections");
        end = want + hd->types_size;
    }
    if (end != hd->file_size)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_FILE_SIZE,
                    "file size %llu, but the sections end at %llu",
                    (unsigned long long)hd->file_size, (unsigned long long)end);
    return BLOBC_OK;
}

/* blobc_blob_open's checks of the header, in its order (magic, version,
 * header size, header hash with `hashes`, the layout); b holds the first
 * min(len, BLOBC_HEADER_SIZE) bytes of the len-byte file, `whole` all of
 * it or NULL. */
static blobc_status open_header(const uint8_t *b, const uint8_t *whole, size_t len, bool hashes,
                                blobc_header *hd, blobc_error *err) {
    if (len < BLOBC_MAGIC_SIZE || memcmp(b, BLOBC_MAGIC, BLOBC_MAGIC_SIZE) != 0) {
        if (len < BLOBC_MAGIC_SIZE && (len == 0 || memcmp(b, BLOBC_MAGIC, len) == 0))
            return blobc_err_verify(err, BLOBC_V_TRUNCATED, 0, "file is %zu bytes, shorter than a header",
                        len);
        return blobc_err_verify(err, BLOBC_V_BAD_MAGIC, BLOBC_RT_H_MAGIC, "not a blob file (bad magic number)");
    }
    if (len < BLOBC_RT_H_HEADER_SIZE + 4)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, 0, "file is %zu bytes, shorter than a header", len);
    uint32_t version = blobc_ld32(b + BLOBC_RT_H_VERSION);
    if (version != BLOBC_FORMAT_VERSION)
        return blobc_err_verify(err, BLOBC_V_BAD_VERSION, BLOBC_RT_H_VERSION,
                    "format version %u; this blobc reads version %u", (unsigned)version,
                    BLOBC_FORMAT_VERSION);
    uint32_t hsize = blobc_ld32(b + BLOBC_RT_H_HEADER_SIZE);
    if (hsize != BLOBC_HEADER_SIZE)
        return blobc_err_verify(err, BLOBC_V_BAD_HEADER, BLOBC_RT_H_HEADER_SIZE,
                    "header size %u; version 1 headers are %u bytes", (unsigned)hsize,
                    BLOBC_HEADER_SIZE);
    if (len < BLOBC_HEADER_SIZE)
        return blobc_err_verify(err, BLOBC_V_TRUNCATED, 0, "file is %zu bytes, shorter than its %u-byte header",
                    len, BLOBC_HEADER_SIZE);
    if (hashes) {
        uint64_t want = blobc_ld64(b + BLOBC_RT_H_HEADER_HASH), got = XXH3_64bits(b, BLOBC_RT_H_HEADER_HASH);
        if (want != got)
            return blobc_err_verify(err, BLOBC_V_HEADER_HASH, BLOBC_RT_H_HEADER_HASH,
                        "header hash is 0x%016llx, but the header hashes to 0x%016llx",
                        (unsigned long long)want, (unsigned long long)got);
    }
    read_header(b, hd);
    return check_layout(b, whole, len, hd, err);
}

blobc_status blobc_blob_check_header(const void *header, uint64_t file_size, blobc_header *hd,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!header || !hd) return blobc_err_arg(err, __func__, "header or hd is NULL");
    memset(hd, 0, sizeof *hd);
    if (file_size > SIZE_MAX) return blobc_err(err, BLOBC_EINPUT, "file of %llu bytes is too large",
                                               (unsigned long long)file_size);
    return open_header(header, NULL, (size_t)file_size, true, hd, err);
}

blobc_status blobc_blob_open(const void *bytes, size_t len, unsigned flags, blobc_blob *blob,
                             blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!blob) return blobc_err_arg(err, __func__, "blob is NULL");
    memset(blob, 0, sizeof *blob);
    if (!bytes && len) return blobc_err_arg(err, __func__, "len is not 0 but bytes is NULL");
    const uint8_t *b = bytes;
    bool hashes = !(flags & BLOBC_OPEN_NO_HASH);
    blobc_header hd;
    blobc_status st = open_header(b, b, len, hashes, &hd, err);
    if (st) return st;
    const uint8_t *data = b + hd.data_offset;
    if (hashes) {
        uint64_t got = XXH3_64bits(data, (size_t)hd.data_size);
        if (got != hd.data_hash)
            return blobc_err_verify(err, BLOBC_V_DATA_HASH, BLOBC_RT_H_DATA_HASH,
                        "data hash is 0x%016llx, but the data hashes to 0x%016llx",
                        (unsigned long long)hd.data_hash, (unsigned long long)got);
    }
    blobc_schema *types = NULL;
    const char *schema_name = NULL;
    if (hd.types_offset) {
        const uint8_t *ts = b + hd.types_offset;
        if (hashes) {
            uint64_t got = XXH3_64bits(ts, (size_t)hd.types_size);
            if (got != hd.types_hash)
                return blobc_err_verify(err, BLOBC_V_TYPES_HASH, BLOBC_RT_H_TYPES_HASH,
                            "type section hash is 0x%016llx, but the section hashes to "
                            "0x%016llx",
                            (unsigned long long)hd.types_hash, (unsigned long long)got);
        }
        st = blobc_types_decode(ts, (size_t)hd.types_size, &types, &schema_name, err);
        if (st) {
            if (err && st == BLOBC_EINPUT) {
                err->code = BLOBC_V_BAD_TYPES;
                blobc_err_offset(err, hd.types_offset + (err->has_offset ? err->offset : 0));
            }
            return st;
        }
        uint64_t got = hashes ? blobc_type_hash(blobc_schema_root(types)) : hd.schema_hash;
        if (got != hd.schema_hash) {
            blobc_schema_free(types);
            return blobc_err_verify(err, BLOBC_V_SCHEMA_HASH, BLOBC_RT_H_SCHEMA_HASH,
                        "schema hash is 0x%016llx, but the embedded types hash to 0x%016llx",
                        (unsigned long long)hd.schema_hash, (unsigned long long)got);
        }
    }
    blob->header = hd;
    blob->data = data;
    blob->data_size = (size_t)hd.data_size;
    blob->types = types;
    blob->root = types ? blobc_schema_root(types) : NULL;
    blob->schema_name = schema_name;
    return BLOBC_OK;
}

void blobc_blob_close(blobc_blob *blob) {
    if (!blob) return;
    blobc_schema_free(blob->types);
    memset(blob, 0, sizeof *blob);
}
