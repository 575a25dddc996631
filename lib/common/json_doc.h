/*
 * json_doc.h - the JSON documents the library writes off the bake's hot
 * path (the verify and size reports, JSON Schemas), built as cJSON trees:
 * integers kept exact (cJSON holds numbers as doubles, so they go in as
 * their decimal text), any bytes made valid UTF-8, printed into a
 * blobc_buffer. Not installed.
 */
#ifndef BLOBC_JSON_DOC_H
#define BLOBC_JSON_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "blobc/error.h"
#include "common/buffer.h"

/* Items; NULL when out of memory. Text may hold any bytes: a byte that is
 * not part of valid UTF-8 becomes U+FFFD. A number's text is exact: an
 * integer in decimal, a float in its shortest round-trip form (f32: as
 * the f32 it is), NaN and the infinities as the strings "nan", "inf" and
 * "-inf" (AUTHORING.md's JSON spellings). */
cJSON *blobc_json_text(const char *s, size_t len);
cJSON *blobc_json_u64(uint64_t v);
cJSON *blobc_json_i64(int64_t v);
cJSON *blobc_json_float(double v, bool f32);

/* Adds item to object o under name, or to array o when name is NULL. False
 * (and item freed) when item is NULL or out of memory. */
bool blobc_json_add(cJSON *o, const char *name, cJSON *item);
/* Adds a new object or array under name (NULL: to an array); NULL when out
 * of memory. */
cJSON *blobc_json_add_object(cJSON *o, const char *name);
cJSON *blobc_json_add_array(cJSON *o, const char *name);

/* Appends doc as text and a newline to out, and frees doc. pretty: one
 * member per line, indented with tabs (cJSON's layout); else all on one
 * line. ok false (a build step ran out of memory) or a failed print
 * leaves out as it was and reports out of memory. */
blobc_status blobc_json_print(cJSON *doc, bool ok, bool pretty, blobc_buffer *out,
                              blobc_error *err);

#endif
