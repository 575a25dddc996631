/*
 * annotate.c - errors as CI systems read them (docs/PIPELINE.md,
 * "Errors for CI"): one JSON object a line, GitHub Actions workflow
 * commands (`::error file=...,line=...::...`, which annotate the lines of
 * a pull request), and a SARIF 2.1.0 log (code scanning). The same fields
 * as the text form: file, line, column, byte offset, path, message, and a
 * verify code's name.
 */
#include <stdio.h>
#include <string.h>

#include "blobc/blobc.h"
#include "blobc/verify.h"
#include "common/err.h"
#include "common/json_doc.h"

static const char *severity(const blobc_error *e) { return e->status == BLOBC_OK ? "warning" : "error"; }

/* The message with the path in front, as the text form reads. */
static void full_message(const blobc_error *e, char *buf, size_t cap) {
    snprintf(buf, cap, "%s%s%s", e->path, e->path[0] ? ": " : "", e->message);
}

/* ---- JSON lines ---- */

static blobc_status json_line(const blobc_error *e, const char *tool, blobc_buffer *out,
                              blobc_error *err) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o && blobc_json_add(o, "tool", blobc_json_text(tool, strlen(tool))) &&
              blobc_json_add(o, "severity", blobc_json_text(severity(e), strlen(severity(e)))) &&
              blobc_json_add(o, "file", blobc_json_text(e->file, strlen(e->file)));
    if (ok && e->line) ok = blobc_json_add(o, "line", blobc_json_u64(e->line));
    if (ok && e->column) ok = blobc_json_add(o, "column", blobc_json_u64(e->column));
    if (ok && e->has_offset) ok = blobc_json_add(o, "offset", blobc_json_u64(e->offset));
    if (ok && e->path[0]) ok = blobc_json_add(o, "path", blobc_json_text(e->path, strlen(e->path)));
    if (ok && e->code) {
        const char *c = blobc_verify_code_name(e->code);
        ok = blobc_json_add(o, "code", blobc_json_text(c, strlen(c)));
    }
    if (ok) ok = blobc_json_add(o, "message", blobc_json_text(e->message, strlen(e->message)));
    return blobc_json_print(o, ok, false, out, err);
}

/* ---- GitHub workflow commands ---- */

/* A command's text: %, CR and LF escaped; in a property also ':' and ','. */
static void put_escaped(blobc_buffer *out, const char *s, bool property, bool *ok) {
    for (; *s; s++) {
        const char *esc = *s == '%' ? "%25" : *s == '\r' ? "%0D" : *s == '\n' ? "%0A"
                        : property && *s == ':' ? "%3A" : property && *s == ',' ? "%2C" : NULL;
        *ok &= esc ? blobc_buf_puts(out, esc) : blobc_buf_putc(out, *s);
    }
}

static blobc_status github_line(const blobc_error *e, const char *tool, blobc_buffer *out,
                                blobc_error *err) {
    char msg[BLOBC_ERROR_PATH_MAX + BLOBC_ERROR_MSG_MAX + 4], num[32];
    full_message(e, msg, sizeof msg);
    bool ok = blobc_buf_puts(out, "::") && blobc_buf_puts(out, severity(e)) && blobc_buf_puts(out, " ");
    const char *sep = "";
    if (e->file[0]) {
        ok &= blobc_buf_puts(out, "file=");
        put_escaped(out, e->file, true, &ok);
        sep = ",";
    }
    if (e->line) {
        snprintf(num, sizeof num, "%sline=%u", sep, (unsigned)e->line);
        ok &= blobc_buf_puts(out, num);
        sep = ",";
    }
    if (e->column) {
        snprintf(num, sizeof num, ",col=%u", (unsigned)e->column);
        ok &= blobc_buf_puts(out, num);
    }
    ok &= blobc_buf_puts(out, *sep ? ",title=" : "title=");
    put_escaped(out, tool, true, &ok);
    ok &= blobc_buf_puts(out, "::");
    put_escaped(out, msg, false, &ok);
    ok &= blobc_buf_putc(out, '\n');
    return ok ? BLOBC_OK : blobc_err_nomem(err);
}

blobc_status blobc_error_annotate(const blobc_error *e, blobc_error_style style, const char *tool,
                                  blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!e || !out) return blobc_err_arg(err, "blobc_error_annotate", "e or out is NULL");
    if (!tool) tool = "blobc";
    if (style == BLOBC_STYLE_JSON) return json_line(e, tool, out, err);
    if (style == BLOBC_STYLE_GITHUB) return github_line(e, tool, out, err);
    if (style != BLOBC_STYLE_TEXT) return blobc_err_arg(err, "blobc_error_annotate", "style is not one of one line an error");
    size_t n = blobc_error_format(e, NULL, 0);
    if (!blobc_buf_reserve(out, n + 2)) return blobc_err_nomem(err);
    blobc_error_format(e, (char *)out->data + out->len, n + 1);
    out->len += n;
    return blobc_buf_putc(out, '\n') ? BLOBC_OK : blobc_err_nomem(err);
}

/* ---- SARIF ---- */

/* A file name as a SARIF artifact URI (a relative reference, or file:
 * for an absolute path): '/' between names, and every byte outside
 * RFC 3986's unreserved set and '/' percent-encoded. */
static cJSON *artifact_uri(const char *file) {
    char uri[3 * BLOBC_ERROR_FILE_MAX + 16];
    size_t o = 0;
    bool abs = file[0] == '/' || (file[0] && file[1] == ':');
    if (abs) o += (size_t)snprintf(uri, sizeof uri, "file://%s", file[0] == '/' ? "" : "/");
    for (const unsigned char *p = (const unsigned char *)file; *p && o + 4 < sizeof uri; p++) {
        unsigned char c = *p == '\\' ? '/' : *p;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || (abs && c == ':' && p == (const unsigned char *)file + 1);
        o += keep ? (size_t)snprintf(uri + o, sizeof uri - o, "%c", c)
                  : (size_t)snprintf(uri + o, sizeof uri - o, "%%%02X", c);
    }
    return blobc_json_text(uri, o);
}

static bool sarif_result(cJSON *results, const blobc_error *e) {
    char msg[BLOBC_ERROR_PATH_MAX + BLOBC_ERROR_MSG_MAX + 4];
    full_message(e, msg, sizeof msg);
    cJSON *r = blobc_json_add_object(results, NULL);
    bool ok = r != NULL;
    if (ok && e->code) {
        const char *c = blobc_verify_code_name(e->code);
        ok = blobc_json_add(r, "ruleId", blobc_json_text(c, strlen(c)));
    }
    ok = ok && blobc_json_add(r, "level", blobc_json_text(severity(e), strlen(severity(e))));
    cJSON *m = ok ? blobc_json_add_object(r, "message") : NULL;
    ok = m && blobc_json_add(m, "text", blobc_json_text(msg, strlen(msg)));
    if (!ok || !e->file[0]) return ok;
    cJSON *loc = blobc_json_add_object(blobc_json_add_array(r, "locations"), NULL);
    cJSON *phys = loc ? blobc_json_add_object(loc, "physicalLocation") : NULL;
    cJSON *art = phys ? blobc_json_add_object(phys, "artifactLocation") : NULL;
    ok = art && blobc_json_add(art, "uri", artifact_uri(e->file));
    if (ok && (e->line || e->has_offset)) {
        cJSON *reg = blobc_json_add_object(phys, "region");
        ok = reg != NULL;
        if (ok && e->line) ok = blobc_json_add(reg, "startLine", blobc_json_u64(e->line));
        if (ok && e->line && e->column) ok = blobc_json_add(reg, "startColumn", blobc_json_u64(e->column));
        if (ok && !e->line && e->has_offset) ok = blobc_json_add(reg, "byteOffset", blobc_json_u64(e->offset));
    }
    return ok;
}

blobc_status blobc_sarif_log(const blobc_error *errs, size_t n, const char *tool,
                             blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if ((n && !errs) || !out) return blobc_err_arg(err, "blobc_sarif_log", "errs or out is NULL");
    if (!tool) tool = "blobc";
    cJSON *doc = cJSON_CreateObject();
    static const char schema[] = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
    bool ok = doc && blobc_json_add(doc, "$schema", blobc_json_text(schema, sizeof schema - 1)) &&
              blobc_json_add(doc, "version", blobc_json_text("2.1.0", 5));
    cJSON *run = ok ? blobc_json_add_object(blobc_json_add_array(doc, "runs"), NULL) : NULL;
    cJSON *tl = run ? blobc_json_add_object(run, "tool") : NULL;
    cJSON *drv = tl ? blobc_json_add_object(tl, "driver") : NULL;
    ok = drv && blobc_json_add(drv, "name", blobc_json_text(tool, strlen(tool))) &&
         blobc_json_add(drv, "version", blobc_json_text(blobc_version(), strlen(blobc_version())));
    cJSON *results = ok ? blobc_json_add_array(run, "results") : NULL;
    ok = results != NULL;
    for (size_t i = 0; ok && i < n; i++) ok = sarif_result(results, &errs[i]);
    return blobc_json_print(doc, ok, true, out, err);
}
