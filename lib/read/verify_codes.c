/*
 * verify_codes.c - the stable names of the verification codes, as printed
 * by `blobc verify` and in its --json output. Scripts match on these, so
 * a name never changes once released; new codes get new names.
 */
#include "blobc/verify.h"

const char *blobc_verify_code_name(int code) {
    static const char *const names[] = {
        [BLOBC_V_OK] = "ok",
        [BLOBC_V_TRUNCATED] = "truncated",
        [BLOBC_V_BAD_MAGIC] = "bad-magic",
        [BLOBC_V_BAD_VERSION] = "bad-version",
        [BLOBC_V_BAD_HEADER] = "bad-header",
        [BLOBC_V_HEADER_HASH] = "header-hash",
        [BLOBC_V_DATA_HASH] = "data-hash",
        [BLOBC_V_TYPES_HASH] = "types-hash",
        [BLOBC_V_BAD_TYPES] = "bad-types",
        [BLOBC_V_SCHEMA_HASH] = "schema-hash",
        [BLOBC_V_NO_TYPES] = "no-types",
        [BLOBC_V_OFFSET_RANGE] = "offset-range",
        [BLOBC_V_MISALIGNED] = "misaligned",
        [BLOBC_V_LENGTH] = "length",
        [BLOBC_V_NULL_LENGTH] = "null-length",
        [BLOBC_V_STRING_NUL] = "string-nul",
        [BLOBC_V_UTF8] = "utf8",
        [BLOBC_V_BOOL] = "bool",
        [BLOBC_V_ENUM] = "enum",
        [BLOBC_V_PADDING] = "padding",
        [BLOBC_V_CYCLE] = "cycle",
        [BLOBC_V_OVERLAP] = "overlap",
        [BLOBC_V_LAYOUT] = "layout",
        [BLOBC_V_DATA_SIZE] = "data-size",
        [BLOBC_V_BUDGET] = "budget",
        [BLOBC_V_NAN] = "nan",
        [BLOBC_V_UNION] = "union",
        [BLOBC_V_KEY_ORDER] = "key-order",
        [BLOBC_V_REF] = "ref",
        [BLOBC_V_OPTIONAL] = "optional",
        [BLOBC_V_ANY] = "any",
        [BLOBC_V_CHECK] = "value-check",
    };
    if (code < 0 || (size_t)code >= sizeof names / sizeof names[0] || !names[code])
        return "unknown";
    return names[code];
}
