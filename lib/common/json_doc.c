/*
 * json_doc.c - building and printing the library's JSON documents with
 * cJSON (json_doc.h). Numbers go in as raw text: cJSON would print a u64
 * through a double and a float with 17 digits, and reports and JSON
 * Schemas must show the value exactly as blobc reads and writes it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/fmt_float.h"
#include "common/json_doc.h"
#include "common/utf8.h"

cJSON *blobc_json_text(const char *s, size_t len) {
    char *z = malloc(len + 1);
    if (!z) return NULL;
    memcpy(z, s, len);
    z[len] = '\0';
    char *t = blobc_utf8_valid((const uint8_t *)z, strlen(z)) ? z : blobc_utf8_repaired(z);
    cJSON *item = t ? cJSON_CreateString(t) : NULL;
    if (t != z) free(t);
    free(z);
    return item;
}

cJSON *blobc_json_u64(uint64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return cJSON_CreateRaw(buf);
}

cJSON *blobc_json_i64(int64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return cJSON_CreateRaw(buf);
}

cJSON *blobc_json_float(double v, bool f32) {
    if (isnan(v)) return cJSON_CreateString("nan");
    if (isinf(v)) return cJSON_CreateString(v < 0 ? "-inf" : "inf");
    char buf[BLOBC_FLOAT_TEXT_MAX + 1];
    size_t n = blobc_format_float(buf, v, f32);
    buf[n] = '\0';
    return cJSON_CreateRaw(buf);
}

bool blobc_json_add(cJSON *o, const char *name, cJSON *item) {
    bool ok = item && o &&
              (name ? cJSON_AddItemToObject(o, name, item) : cJSON_AddItemToArray(o, item));
    if (!ok) cJSON_Delete(item);
    return ok;
}

cJSON *blobc_json_add_object(cJSON *o, const char *name) {
    cJSON *item = cJSON_CreateObject();
    return blobc_json_add(o, name, item) ? item : NULL;
}

cJSON *blobc_json_add_array(cJSON *o, const char *name) {
    cJSON *item = cJSON_CreateArray();
    return blobc_json_add(o, name, item) ? item : NULL;
}

blobc_status blobc_json_print(cJSON *doc, bool ok, bool pretty, blobc_buffer *out,
                              blobc_error *err) {
    char *text = ok && doc ? (pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc)) : NULL;
    cJSON_Delete(doc);
    size_t mark = out->len;
    ok = text && blobc_buf_puts(out, text) && blobc_buf_putc(out, '\n');
    cJSON_free(text);
    if (ok) return BLOBC_OK;
    out->len = mark;
    return blobc_err_nomem(err);
}
