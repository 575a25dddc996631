/*
 * fileio.c - whole-file reads into 16-byte aligned memory (so a blob can
 * be read in place with aligned loads), bounded for inputs whose size is
 * not known in advance. Writes follow the output rules in output.c.
 *
 * A regular file is read as large as it is. Standard input, pipes and
 * devices are read up to a limit (the maximum input size, 1 GiB unless the
 * caller says otherwise), so `/dev/zero` ends in an error, not in all of
 * memory; a blob read that way stops at the size its header records, text
 * at its first byte that is not text and at its own limit (a schema's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/blob.h"
#include "blobc/blobfile.h"
#include "common/checked.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "platform/platform.h"

/* strerror's buffer may be shared between threads: the platform's text
 * goes into the caller's. */
const char *blobc_errno_text(int e, char *buf, size_t cap) { return blobc_os_error_text(e, buf, cap); }

blobc_status blobc_err_io(blobc_error *err, const char *what, const char *path, int e) {
    char why[128];
    blobc_errno_text(e, why, sizeof why);
    if (strcmp(path, "-") == 0) {
        blobc_err_file(err, "<stdin>");
        return blobc_err(err, BLOBC_EIO, "cannot %s standard input: %s", what, why);
    }
    blobc_err_file(err, path);
    return blobc_err(err, BLOBC_EIO, "cannot %s '%s': %s", what, path, why);
}

const char *blobc_kind_text(blobc_os_kind k) {
    switch (k) {
    case BLOBC_OS_LINK: return "it is a symbolic link, never followed";
    case BLOBC_OS_DIRECTORY: return "it is a directory";
    case BLOBC_OS_FIFO: return "it is a FIFO";
    case BLOBC_OS_SOCKET: return "it is a socket";
    case BLOBC_OS_DEVICE: return "it is a device";
    default: return "it is not a regular file";
    }
}

/* Reads from fd into a 16-byte aligned buffer until end of file or `max`
 * bytes; `hint` is the expected size (0 when unknown). *more is set when
 * the input still had bytes at `max`. `blob`: after the header, stop at
 * the file size it records (or right away when it is not a blob header). */
typedef struct reader {
    blobc_os_fd fd;
    uint64_t max;
    bool blob;
    const char *text;    /* stop at the first byte that is not text */
    uint64_t max_text;   /* text's own limit, or 0 */
    bool more;
    bool binary;
    bool text_capped;    /* `more` is past max_text */
    blobc_textscan scan;
    uint64_t bad;
    uint8_t bad_byte;
} reader;

/* How far text is read: the input limit, or text's own when lower. */
static uint64_t text_limit(reader *r) {
    r->text_capped = r->max_text && r->max_text < r->max;
    return r->text_capped ? r->max_text : r->max;
}

static int grow(void **buf, size_t n, size_t *cap) {
    size_t ncap;
    void *nb = NULL;
    if (!blobc_mul_ok(*cap, 2, &ncap) || !(nb = blobc_os_alloc16(ncap))) return ENOMEM;
    memcpy(nb, *buf, n);
    free(*buf);
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* The file size a blob header records, or 0 when the bytes are not a
 * blob header (the reader stops there; verify refuses them). */
static uint64_t blob_file_size(const uint8_t *p, size_t n) {
    if (n < BLOBC_HEADER_SIZE || memcmp(p, BLOBC_MAGIC, BLOBC_MAGIC_SIZE) != 0) return 0;
    uint64_t fs = blobc_ld64(p + BLOBC_RT_H_FILE_SIZE);
    return fs < BLOBC_HEADER_SIZE ? 0 : fs;
}

/* Blob or text: the bytes read so far are no blob header, so they and
 * the rest are text. False when they hold binary data already. */
static bool turn_to_text(reader *r, const uint8_t *buf, size_t n) {
    r->blob = false;
    if (blobc_textscan_run(&r->scan, buf, n, &r->bad, &r->bad_byte)) r->binary = true;
    return !r->binary;
}

static int read_all(reader *r, size_t hint, uint8_t **data, size_t *len) {
    size_t cap = hint ? hint + 1 : 64 * 1024, n = 0;
    bool either = r->blob && r->text; /* a blob, or else text */
    uint64_t limit = r->blob ? BLOBC_HEADER_SIZE : r->text ? text_limit(r) : r->max;
    bool header_done = !r->blob, capped = !r->blob; /* capped: limit is r->max */
    void *buf = blobc_os_alloc16(cap);
    if (!buf) return ENOMEM;
    for (;;) {
        if (n >= limit) {
            if (!header_done) {
                header_done = true;
                uint64_t fs = blob_file_size(buf, n);
                if (!fs && either) {
                    if (!turn_to_text(r, buf, n)) break;
                    limit = text_limit(r);
                    capped = true;
                    continue;
                }
                capped = fs > r->max;
                limit = !fs ? n : capped ? r->max : fs;
                continue;
            }
            if (capped) { /* Is there more? One byte tells. */
                uint8_t probe;
                size_t m = 0;
                r->more = blobc_os_read(r->fd, &probe, 1, &m) == 0 && m > 0;
            }
            break;
        }
        if (n == cap && grow(&buf, n, &cap) != 0) {
            free(buf);
            return ENOMEM;
        }
        size_t want = cap - n;
        if ((uint64_t)want > limit - n) want = (size_t)(limit - n);
        size_t got = 0;
        int e = blobc_os_read(r->fd, (uint8_t *)buf + n, want, &got);
        if (e) {
            free(buf);
            return e;
        }
        if (got == 0) break;
        if (r->text && !r->blob &&
            blobc_textscan_run(&r->scan, (uint8_t *)buf + n, got, &r->bad, &r->bad_byte)) {
            r->binary = true;
            break;
        }
        n += got;
    }
    /* a short input that ended before a blob header could: text */
    if (either && !header_done) (void)turn_to_text(r, buf, n);
    *data = buf;
    *len = n;
    return 0;
}

/* "1 GiB", "64 KiB", "1000 bytes": a size for messages; snprintf semantics. */
static size_t size_text(char *buf, size_t cap, uint64_t n) {
    static const char *const units[] = {"GiB", "MiB", "KiB"};
    for (int i = 0; i < 3; i++) {
        uint64_t u = (uint64_t)1 << (30 - 10 * i);
        if (n >= u && n % u == 0)
            return (size_t)snprintf(buf, cap, "%llu %s", (unsigned long long)(n / u), units[i]);
    }
    return (size_t)snprintf(buf, cap, "%llu bytes", (unsigned long long)n);
}

blobc_status blobc_input_too_large(blobc_error *err, const char *path, uint64_t max) {
    char size[48];
    size_text(size, sizeof size, max);
    blobc_err_file(err, strcmp(path, "-") == 0 ? "<stdin>" : path);
    return blobc_err(err, BLOBC_EIO,
                     "input is larger than the maximum input size of %s (not a regular file, so "
                     "read up to that limit; see --max-input)",
                     size);
}

blobc_status blobc_text_too_large(blobc_error *err, const char *name, const char *what,
                                  uint64_t max) {
    char size[48];
    size_text(size, sizeof size, max);
    blobc_err_file(err, name);
    return blobc_err(err, BLOBC_EINPUT, "text of more than %s; expected %s (at most %s)", size,
                     what, size);
}

/* opts->regular refused the file, without waiting on it. */
static blobc_status not_regular(blobc_error *err, const char *path, blobc_os_kind kind) {
    if (strcmp(path, "-") == 0) {
        blobc_err_file(err, "<stdin>");
        return blobc_err(err, BLOBC_EIO, "cannot read standard input: it is not a regular "
                         "file; expected a regular file");
    }
    blobc_err_file(err, path);
    return blobc_err(err, BLOBC_EIO, "cannot read '%s': %s; expected a regular file", path,
                     blobc_kind_text(kind));
}

blobc_status blobc_read_file_ex(const char *path, const blobc_read_options *opts, uint8_t **data,
                                size_t *len, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path || !data || !len) return blobc_err_arg(err, __func__, "path, data or len is NULL");
    *data = NULL;
    *len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    blobc_os_fd fd = blobc_os_stdin();
    blobc_os_kind kind = BLOBC_OS_REGULAR;
    bool only_regular = opts && opts->regular;
    int oe = is_stdin       ? 0
             : only_regular ? blobc_os_open_regular(path, &fd, &kind)
                            : blobc_os_open_read(path, &fd);
    /* Windows cannot open a directory to read it; POSIX fails the read. */
    if (oe) return blobc_err_io(err, oe == EISDIR ? "read" : "open", path, oe);
    if (kind != BLOBC_OS_REGULAR) return not_regular(err, path, kind);
    reader r = {fd,   opts && opts->max_input ? opts->max_input : BLOBC_DEFAULT_MAX_INPUT,
                opts && opts->blob, opts ? opts->text : NULL, opts ? opts->max_text : 0,
                false, false, false, {0}, 0, 0};
    size_t hint = 0;
    blobc_os_info st;
    bool regular = blobc_os_fstat(fd, &st) == 0 && st.kind == BLOBC_OS_REGULAR;
    if (only_regular && is_stdin && !regular) return not_regular(err, path, BLOBC_OS_OTHER);
    if (regular) {
        /* Bounded by its size; read all of it, even if it grew meanwhile.
         * (Blob or text: the text's own checks come after the read.) */
        r.max = UINT64_MAX;
        if (r.blob) r.text = NULL;
        r.blob = false;
        if (r.text && r.max_text && st.size > r.max_text) {
            if (!is_stdin) blobc_os_close(fd);
            return blobc_text_too_large(err, is_stdin ? "<stdin>" : path, r.text, r.max_text);
        }
        if (st.size > 0 && st.size < SIZE_MAX) hint = (size_t)st.size;
    }
    int e = read_all(&r, hint, data, len);
    if (!is_stdin) blobc_os_close(fd);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return blobc_err_io(err, "read", path, e);
    if (r.more || r.binary) {
        free(*data);
        *data = NULL;
        *len = 0;
        if (r.more && r.text_capped)
            return blobc_text_too_large(err, is_stdin ? "<stdin>" : path, r.text, r.max_text);
        if (r.more) return blobc_input_too_large(err, path, r.max);
        blobc_err_file(err, is_stdin ? "<stdin>" : path);
        return blobc_err_binary(err, r.bad, r.bad_byte, opts->text);
    }
    return BLOBC_OK;
}

blobc_status blobc_read_file(const char *path, uint8_t **data, size_t *len, blobc_error *err) {
    return blobc_read_file_ex(path, NULL, data, len, err);
}
