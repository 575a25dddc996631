/*
 * fileio.h - what the file readers (fileio.c, filemap.c) and the output
 * rules (output.c) share with the rest of the library: I/O errors with
 * the system's text, input size limits, and whether an output would
 * replace a given file. Not installed.
 */
#ifndef BLOBC_FILEIO_H
#define BLOBC_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blobc/blobfile.h"
#include "blobc/error.h"
#include "platform/platform.h"

/* BLOBC_EIO "cannot <what> '<path>': <errno text>", file set to path
 * ("-" is standard input). */
blobc_status blobc_err_io(blobc_error *err, const char *what, const char *path, int e);
/* strerror_r into buf (thread-safe); "error N" when it has no text. */
const char *blobc_errno_text(int e, char *buf, size_t cap);
/* What a file that is not a regular file is, for messages: "it is a FIFO". */
const char *blobc_kind_text(blobc_os_kind k);
/* The error for a non-regular input that went past the maximum input size. */
blobc_status blobc_input_too_large(blobc_error *err, const char *path, uint64_t max);
/* The error for text (`what`: "schema text") longer than its own limit. */
blobc_status blobc_text_too_large(blobc_error *err, const char *name, const char *what,
                                  uint64_t max);
/* The rule that an output never replaces an input, for every caller
 * (the output rules, the bake, the batch); in output.c. True when writing
 * `output` would replace the file `path`: the same name, or the same
 * existing file under another. */
bool blobc_writes_over(const char *output, const char *path);
/* The refusal, BLOBC_EIO, file set to output: the input as given, and the
 * output's name too when it is spelled otherwise. */
blobc_status blobc_err_refuse_input(blobc_error *err, const char *input, const char *output);
/* blobc_write_output of len bytes of the open regular file fd from
 * offset at (a cache entry left in its file): the kernel copies them
 * where it can (platform.h, blobc_os_copy), else they are read and
 * written in pieces; never whole in memory. check (NULL: none) reads the
 * new file back before it is given its name and fails the write with a
 * nonzero errno value (ECANCELED: its own reasons, in check_ctx); not
 * run for a device or FIFO, refused for standard output. seen (NULL:
 * none) is shown each piece a plain copy wrote (blobc_os_copy). */
blobc_status blobc_write_output_copy(const char *path, blobc_os_fd fd, uint64_t at, uint64_t len,
                                     int (*check)(void *ctx, blobc_os_fd written),
                                     void (*seen)(void *ctx, uint64_t at, const void *p, size_t n),
                                     void *check_ctx, const blobc_output_options *opts,
                                     blobc_error *err);
/* blobc_file_map_ex that, when it maps the file, leaves the descriptor
 * it mapped open in *keep (the caller closes it), so that the very file
 * mapped can also be read in pieces; BLOBC_OS_NO_FD when it read it. */
blobc_status blobc_file_map_keep(const char *path, const blobc_read_options *opts,
                                 blobc_file_view *view, blobc_os_fd *keep, blobc_error *err);
/* Adds every file of src to dst. */
blobc_status blobc_inputs_add_all(blobc_inputs *dst, const blobc_inputs *src, blobc_error *err);

/* ---- a batch's files, each looked at once (lib/pipeline; in output.c) ---- */

/* The input `path`, which the caller looked at (info). */
blobc_status blobc_inputs_add_info(blobc_inputs *set, const char *path, const blobc_os_info *info,
                                   blobc_error *err);
/* The input that is the file info describes, as given; NULL if none. */
const char *blobc_inputs_find_info(const blobc_inputs *set, const blobc_os_info *info);
/* An output as its clash check saw it: the file it names after links
 * (target, malloc'd; NULL when not known), and what was there then
 * (found 0 and info, else the errno of looking: ENOENT for nothing). */
typedef struct blobc_out_known {
    char *target;
    int found;
    blobc_os_info info;
} blobc_out_known;
/* blobc_outputs_add, telling the caller what it saw (known may be NULL). */
blobc_status blobc_outputs_add_known(blobc_outputs *set, const char *path, size_t *first,
                                     blobc_out_known *known, blobc_error *err);
/* blobc_write_output of an output seen so (known), through dir, its
 * directory held open: no second look at it, nor at the directory. The
 * path rechecks when either is missing. */
blobc_status blobc_write_output_known(const char *path, const blobc_out_known *known,
                                      blobc_os_outdir *dir, const void *data, size_t len,
                                      const blobc_output_options *opts, blobc_error *err);

#endif
