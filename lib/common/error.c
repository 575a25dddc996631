/*
 * error.c - filling a blobc_error, and the public functions of
 * blobc/error.h that read one back.
 */
#include "common/err.h"

#include <stdbool.h>
#include <stdio.h>

#include "common/buffer.h"

static void copy_str(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void blobc_error_clear(blobc_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

const char *blobc_status_name(blobc_status st) {
    switch (st) {
    case BLOBC_OK: return "ok";
    case BLOBC_EINPUT: return "invalid input";
    case BLOBC_EIO: return "I/O error";
    case BLOBC_ENOMEM: return "out of memory";
    case BLOBC_EARG: return "invalid argument";
    }
    return "unknown status";
}

blobc_status blobc_verr(blobc_error *e, blobc_status st, const char *fmt, va_list ap) {
    if (e) {
        e->status = st;
        vsnprintf(e->message, sizeof e->message, fmt, ap);
    }
    return st;
}

blobc_status blobc_err(blobc_error *e, blobc_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(e, st, fmt, ap);
    va_end(ap);
    return st;
}

blobc_status blobc_err_nomem(blobc_error *e) { return blobc_err(e, BLOBC_ENOMEM, "out of memory"); }
const char *blobc_place(char *buf, size_t cap, const char *file, uint32_t line, uint32_t col) {
    if (file && file[0]) snprintf(buf, cap, "%s:%u:%u", file, (unsigned)line, (unsigned)col);
    else snprintf(buf, cap, "line %u, column %u", (unsigned)line, (unsigned)col);
    return buf;
}

blobc_status blobc_err_arg(blobc_error *e, const char *fn, const char *what) {
    blobc_error_clear(e); /* no place in any input to name */
    return blobc_err(e, BLOBC_EARG, "%s: %s", fn, what);
}

void blobc_err_at(blobc_error *e, const char *file, uint32_t line, uint32_t col) {
    if (!e) return;
    if (file) copy_str(e->file, sizeof e->file, file);
    e->line = line;
    e->column = col;
}

void blobc_err_file(blobc_error *e, const char *file) {
    if (e && file) copy_str(e->file, sizeof e->file, file);
}

void blobc_err_path(blobc_error *e, const char *path) {
    if (e && path) copy_str(e->path, sizeof e->path, path);
}

void blobc_err_offset(blobc_error *e, uint64_t offset) {
    if (!e) return;
    e->has_offset = 1;
    e->offset = offset;
}

blobc_status blobc_err_verify(blobc_error *e, int code, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    blobc_verr(e, BLOBC_EINPUT, fmt, ap);
    va_end(ap);
    if (e) e->code = code;
    blobc_err_offset(e, offset);
    return BLOBC_EINPUT;
}

void blobc_err_source_line(blobc_error *e, const char *text, size_t len, size_t pos) {
    if (!e || !text) return;
    if (pos > len) pos = len;
    size_t start = pos, end = pos;
    while (start > 0 && text[start - 1] != '\n') start--;
    while (end < len && text[end] != '\n' && text[end] != '\r') end++;
    size_t n = end - start;
    if (n >= sizeof e->source_line) n = sizeof e->source_line - 1;
    memcpy(e->source_line, text + start, n);
    e->source_line[n] = '\0';
    /* Tabs would misplace the caret; show them as spaces. Control bytes
     * are never echoed to a terminal: each becomes a '?'. */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)e->source_line[i];
        if (c == '\t') e->source_line[i] = ' ';
        else if (c < 0x20 || c == 0x7f) e->source_line[i] = '?';
    }
}

size_t blobc_error_format(const blobc_error *err, char *buf, size_t cap) {
    if (!err) {
        if (buf && cap) buf[0] = '\0';
        return 0;
    }
    blobc_buffer b = {0};
    const char *file = err->file[0] ? err->file : NULL;
    bool ok = true;
    if (file) blobc_emit(&b, &ok, "%s", file);
    if (err->line) {
        blobc_emit(&b, &ok, ":%u:%u", (unsigned)err->line, (unsigned)err->column);
        if (err->path[0]) blobc_emit(&b, &ok, ": %s", err->path);
    } else if (err->has_offset) {
        blobc_emit(&b, &ok, "%soffset 0x%llx", file ? ": " : "", (unsigned long long)err->offset);
        if (err->path[0]) blobc_emit(&b, &ok, " (%s)", err->path);
    } else if (err->path[0]) {
        blobc_emit(&b, &ok, "%s%s", file ? ": " : "", err->path);
    }
    blobc_emit(&b, &ok, "%s%s: %s", b.len ? ": " : "",
               err->status == BLOBC_OK ? "warning" : "error", err->message);
    if (err->source_line[0]) {
        blobc_emit(&b, &ok, "\n    %s\n    ", err->source_line);
        for (uint32_t i = 1; ok && i < err->column && i < BLOBC_ERROR_LINE_MAX; i++)
            blobc_emit_bytes(&b, &ok, " ", 1);
        blobc_emit_bytes(&b, &ok, "^", 1);
    }
    size_t n = ok ? b.len : 0;
    if (cap) {
        size_t c = n < cap ? n : cap - 1;
        if (c) memcpy(buf, b.data, c);
        buf[c] = '\0';
    }
    blobc_buffer_free(&b);
    return n;
}
