/*
 * output.c - the output rules every command that writes a file follows,
 * and the set of a run's inputs that an output must never replace.
 *
 *  - A regular file, or a path that does not exist yet, is written to a
 *    temporary file in the same directory and given its name only when
 *    every byte was written: other processes see the old file or the
 *    whole new one (blobc_os_replace: an unnamed O_TMPFILE file on Linux,
 *    so a killed process leaves nothing visible; elsewhere a hidden named
 *    temporary, announced through the caller's hooks so that a signal or
 *    console handler can remove it).
 *  - A character device, FIFO or socket is written in place, never
 *    replaced (`-o /dev/null` stays a device, a FIFO keeps its reader).
 *  - A symbolic link is followed: its target is written, the link stays.
 *  - An output that is one of the run's inputs (same device and inode,
 *    through any link) is refused before anything is written.
 *
 * The file is not fsync'ed: outputs are build artifacts that can be
 * regenerated, and the rename already makes the write atomic with respect
 * to every other process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "blobc/blobfile.h"
#include "common/util.h"
#include "platform/platform.h"

/* ---- the inputs of a run: file identity -> name, open addressing ---- */

typedef struct input_slot {
    uint64_t dev, ino;
    char *name; /* NULL: empty slot */
} input_slot;

struct blobc_inputs {
    input_slot *slots;
    size_t cap, count; /* cap is a power of two, at most half full */
};

static size_t slot_of(const blobc_inputs *s, uint64_t dev, uint64_t ino) {
    uint64_t x = (dev * 0x9E3779B97F4A7C15ull) ^ (ino * 0xC2B2AE3D27D4EB4Full);
    size_t i = (size_t)(x ^ (x >> 29)) & (s->cap - 1);
    while (s->slots[i].name && (s->slots[i].dev != dev || s->slots[i].ino != ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

static bool inputs_grow(blobc_inputs *s) {
    size_t ncap = s->cap ? s->cap * 2 : 16;
    if (ncap > SIZE_MAX / sizeof(input_slot)) return false;
    blobc_inputs grown = {calloc(ncap, sizeof(input_slot)), ncap, s->count};
    if (!grown.slots) return false;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].name) grown.slots[slot_of(&grown, s->slots[i].dev, s->slots[i].ino)] = s->slots[i];
    free(s->slots);
    *s = grown;
    return true;
}

blobc_inputs *blobc_inputs_new(void) { return calloc(1, sizeof(blobc_inputs)); }

void blobc_inputs_free(blobc_inputs *s) {
    if (!s) return;
    for (size_t i = 0; i < s->cap; i++) free(s->slots[i].name);
    free(s->slots);
    free(s);
}

blobc_status blobc_inputs_add(blobc_inputs *s, const char *path, blobc_error *err) {
    blobc_os_info st;
    bool is_stdin = strcmp(path, "-") == 0;
    /* A missing input is reported by whoever reads it. */
    if ((is_stdin ? blobc_os_fstat(blobc_os_stdin(), &st) : blobc_os_stat(path, &st)) != 0)
        return BLOBC_OK;
    if ((s->count + 1) * 2 > s->cap && !inputs_grow(s)) return blobc_err_nomem(err);
    size_t i = slot_of(s, st.dev, st.ino);
    if (s->slots[i].name) return BLOBC_OK; /* the first name given is kept */
    size_t n = strlen(path);
    char *name = malloc(n + 1);
    if (!name) return blobc_err_nomem(err);
    memcpy(name, path, n + 1);
    s->slots[i] = (input_slot){st.dev, st.ino, name};
    s->count++;
    return BLOBC_OK;
}

static const char *inputs_find_stat(const blobc_inputs *s, const blobc_os_info *st) {
    if (!s || !s->count) return NULL;
    return s->slots[slot_of(s, st->dev, st->ino)].name;
}

const char *blobc_inputs_find(const blobc_inputs *s, const char *path) {
    blobc_os_info st;
    if (!s || strcmp(path, "-") == 0 || blobc_os_stat(path, &st) != 0) return NULL;
    return inputs_find_stat(s, &st);
}

/* ---- writing ---- */

static blobc_status out_error(blobc_error *err, const char *what, const char *path, int e) {
    return blobc_err_io(err, what, path, e);
}

static blobc_status write_stdout(const void *data, size_t len, blobc_error *err) {
    int e = blobc_os_write_stdout(data, len);
    if (!e) return BLOBC_OK;
    char why[128];
    blobc_err_file(err, "<stdout>");
    return blobc_err(err, BLOBC_EIO, "cannot write to standard output: %s",
                     blobc_errno_text(e, why, sizeof why));
}

/* Writes over an existing regular file or a new name, atomically. */
static blobc_status replace(const char *path, const char *target, const void *data, size_t len,
                            const blobc_os_info *old, const blobc_output_options *opts,
                            blobc_error *err) {
    blobc_os_temp_hooks hooks = {opts ? opts->temp_created : NULL, opts ? opts->temp_gone : NULL,
                                 opts ? opts->hook_ctx : NULL};
    const char *stage = "replace";
    int e = blobc_os_replace(target, data, len, old, opts && opts->named_temp, &hooks, &stage);
    if (e == ENOMEM) return blobc_err_nomem(err);
    return e ? out_error(err, stage, path, e) : BLOBC_OK;
}

blobc_status blobc_write_output(const char *path, const void *data, size_t len,
                                const blobc_output_options *opts, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    if (strcmp(path, "-") == 0) return write_stdout(data, len, err);
    char *target = NULL;
    int e = blobc_os_resolve_links(path, &target);
    if (e == ENOMEM) return blobc_err_nomem(err);
    if (e) return out_error(err, "open", path, e);
    blobc_status st = BLOBC_OK;
    blobc_os_info sb;
    bool exists = blobc_os_stat(target, &sb) == 0;
    const char *in = exists && opts ? inputs_find_stat(opts->inputs, &sb) : NULL;
    if (in) {
        blobc_err_file(err, path);
        if (strcmp(in, path) == 0)
            st = blobc_err(err, BLOBC_EIO, "refusing to overwrite input file '%s'", in);
        else
            st = blobc_err(err, BLOBC_EIO,
                           "refusing to overwrite input file '%s' (the output '%s' is the same file)",
                           strcmp(in, "-") == 0 ? "<stdin>" : in, path);
    } else if (exists && sb.kind == BLOBC_OS_DIRECTORY) {
        st = out_error(err, "replace", path, EISDIR);
    } else if (exists && sb.kind == BLOBC_OS_OTHER) {
        /* Devices, FIFOs and sockets are written where they are. */
        const char *stage = "open";
        e = blobc_os_write_in_place(target, data, len, &stage);
        if (e) st = out_error(err, stage, path, e);
    } else {
        st = replace(path, target, data, len, exists ? &sb : NULL, opts, err);
    }
    free(target);
    return st;
}

blobc_status blobc_write_file_atomic(const char *path, const void *data, size_t len,
                                     blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!path) return blobc_err_arg(err, __func__, "path is NULL");
    if (!data && len) return blobc_err_arg(err, __func__, "len is not 0 but data is NULL");
    return blobc_write_output(path, data, len, NULL, err);
}
