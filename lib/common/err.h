/*
 * err.h - filling a blobc_error (blobc/error.h): status and message,
 * where in the input, verification codes, the caller-misuse error, and
 * the scratch object behind a NULL error pointer. Not installed.
 */
#ifndef BLOBC_ERR_H
#define BLOBC_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blobc/error.h"
#include "common/compiler.h"

/* Sets status and message (printf-style); keeps file/line/path already set. */
blobc_status blobc_err(blobc_error *e, blobc_status st, const char *fmt, ...) BLOBC_PRINTF(3, 4);
blobc_status blobc_verr(blobc_error *e, blobc_status st, const char *fmt, va_list ap);
/* Sets the text position (file may be NULL to leave it). */
void blobc_err_at(blobc_error *e, const char *file, uint32_t line, uint32_t col);
void blobc_err_file(blobc_error *e, const char *file);
void blobc_err_path(blobc_error *e, const char *path);
void blobc_err_offset(blobc_error *e, uint64_t offset);
/* A verification failure: BLOBC_EINPUT with a verify code (blobc/verify.h)
 * and the byte offset of the bad field. */
blobc_status blobc_err_verify(blobc_error *e, int code, uint64_t offset, const char *fmt, ...)
    BLOBC_PRINTF(4, 5);
/* Copies the line containing byte `pos` of text into e->source_line. */
void blobc_err_source_line(blobc_error *e, const char *text, size_t len, size_t pos);
blobc_status blobc_err_nomem(blobc_error *e);
/* How a message points at a second place (a first declaration, an
 * anchor): "file:line:col", or "line L, column C" when there is no file
 * name, so that the place can be found whichever file the message is
 * about. Returns buf. */
#define BLOBC_PLACE_BUF (BLOBC_ERROR_FILE_MAX + 48)
const char *blobc_place(char *buf, size_t cap, const char *file, uint32_t line, uint32_t col);
/* BLOBC_EARG "fn: what": the caller misused a public function. */
blobc_status blobc_err_arg(blobc_error *e, const char *fn, const char *what);

/* The error contract (blobc/error.h): a public function given a NULL
 * error pointer works with a cleared scratch object of its own instead,
 * so nothing below it tests for NULL. */
static inline blobc_error *blobc_err_or(blobc_error *err, blobc_error *scratch) {
    if (err) return err;
    memset(scratch, 0, sizeof *scratch);
    return scratch;
}

#endif
