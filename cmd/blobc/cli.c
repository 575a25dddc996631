/*
 * cli.c - what every command of the blobc command line shares: argument
 * parsing, exit codes, and reporting library errors the way compilers do.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *prog = "blobc";

/* Where report() writes on this thread: standard error, or a batch
 * worker's message buffer so that messages come out in input order. */
static _Thread_local FILE *report_stream;

void set_report_stream(FILE *f) { report_stream = f; }

void usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s%s: ", prog, cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s%s%s --help' for more information.\n", prog, cmd ? " " : "", cmd ? cmd : "");
}

int exit_code(blobc_status st) {
    switch (st) {
    case BLOBC_OK: return 0;
    case BLOBC_EINPUT: return EXIT_INPUT;
    case BLOBC_EIO:
    case BLOBC_ENOMEM:
    case BLOBC_EARG: return EXIT_USAGE;
    default: return EXIT_USAGE;
    }
}

/* Prints a library error the way compilers do: one line naming the place,
 * then the offending source line and a caret when known. */
void report(const blobc_error *err) {
    FILE *out = report_stream ? report_stream : stderr;
    char small[2048];
    size_t n = blobc_error_format(err, small, sizeof small);
    if (n < sizeof small) {
        fprintf(out, "%s\n", small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        fprintf(out, "%s\n", small);
        return;
    }
    blobc_error_format(err, big, n + 1);
    fprintf(out, "%s\n", big);
    free(big);
}

/* ---- argument parsing ----
 * Options may come before or after operands; "--" ends options. A value
 * is given as "-s X", "-sX", "--schema X" or "--schema=X". */

static bool parse_args_inner(const char *cmd, int argc, char **argv, opt *opts, args *a) {
    a->cmd = cmd;
    a->operands = calloc((size_t)argc + 1, sizeof *a->operands);
    a->noperands = 0;
    a->help = false;
    if (!a->operands) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return false;
    }
    bool only_operands = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (only_operands || arg[0] != '-' || strcmp(arg, "-") == 0) {
            a->operands[a->noperands++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_operands = true;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            continue;
        }
        opt *o = NULL;
        const char *inline_value = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (opt *p = opts; p && p->longname; p++)
                if (strlen(p->longname) == len && strncmp(p->longname, name, len) == 0) o = p;
            if (o && eq) {
                if (!o->takes_value) {
                    usage_error(cmd, "option '--%s' takes no value", o->longname);
                    return false;
                }
                inline_value = eq + 1;
            }
        } else {
            for (opt *p = opts; p && p->longname; p++)
                if (p->shortname && p->shortname == arg[1]) o = p;
            if (o && arg[2]) {
                if (!o->takes_value) o = NULL;
                else inline_value = arg + 2;
            }
        }
        if (!o) {
            usage_error(cmd, "unknown option '%s'", arg);
            return false;
        }
        if (!o->takes_value) {
            *o->flag = true;
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= argc) {
                usage_error(cmd, "option '%s' needs a value", arg);
                return false;
            }
            inline_value = argv[++i];
        }
        *o->value = inline_value;
    }
    return true;
}

/* Parses argv into options and operands; on a usage error nothing stays allocated. */
bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a) {
    if (parse_args_inner(cmd, argc, argv, opts, a)) return true;
    free(a->operands);
    a->operands = NULL;
    return false;
}

/* ---- schema loading shared by the reading commands ---- */

int load_schema(const char *path, blobc_schema **out) {
    *out = NULL;
    if (!path) return 0;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_load(path, out, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

int read_input(const char *path, uint8_t **bytes, size_t *len) {
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_read_file(path, bytes, len, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

int load_schema_or_blob(const char *path, blobc_schema **out, bool *is_blob) {
    *out = NULL;
    *is_blob = false;
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = read_input(path, &bytes, &len);
    if (rc) return rc;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_status st;
    if (len >= BLOBC_MAGIC_SIZE && memcmp(bytes, BLOBC_MAGIC, BLOBC_MAGIC_SIZE) == 0) {
        *is_blob = true;
        blobc_blob blob;
        st = blobc_blob_open(bytes, len, 0, &blob, &err);
        if (st == BLOBC_OK && !blob.types) {
            blobc_blob_close(&blob);
            free(bytes);
            fprintf(stderr, "%s: error: the blob is stripped (no embedded type description): "
                            "pass its schema file instead\n", path);
            return EXIT_INPUT;
        }
        if (st == BLOBC_OK) {
            *out = blob.types; /* the schema outlives the blob's bytes */
            blob.types = NULL;
            blobc_blob_close(&blob);
        }
    } else {
        st = blobc_schema_parse((const char *)bytes, len, path, out, &err);
    }
    free(bytes);
    if (st != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", path);
        report(&err);
        return exit_code(st);
    }
    return 0;
}

const blobc_type *pick_type(const char *cmd, const blobc_schema *sch, const char *path,
                            const char *name) {
    const blobc_type *t = name ? blobc_schema_find(sch, name) : blobc_schema_root(sch);
    if (!t && name)
        fprintf(stderr, "%s: error: no type '%s' in the schema\n", path, name);
    else if (!t)
        fprintf(stderr, "%s: error: the schema has no root; name the type with -t\n", path);
    else if (t->kind != BLOBC_KIND_STRUCT)
        fprintf(stderr, "%s: error: '%s' is not a struct\n", path, t->name);
    return t && t->kind == BLOBC_KIND_STRUCT ? t : NULL;
}

int write_output(const char *path, const blobc_buffer *buf) {
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_write_file_atomic(path, buf->data, buf->len, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

/* "0.17" -> *before true: Entities releases before 0.50 wrote the exact
 * length. *old: before 0.3, whose header was not the 32-byte one. */
static bool release_before_050(const char *s, bool *before, bool *old) {
    char *end;
    errno = 0;
    unsigned long major = strtoul(s, &end, 10);
    if (end == s || *end != '.' || errno) return false;
    const char *m = end + 1;
    unsigned long minor = strtoul(m, &end, 10);
    if (end == m || errno || (*end && *end != '.')) return false;
    *before = major == 0 && minor < 50;
    *old = major == 0 && minor < 3;
    return true;
}

bool parse_unity(const char *cmd, const char *version, const char *length,
                 blobc_unity_options *o) {
    if (version) {
        char *end;
        errno = 0;
        long long v = strtoll(version, &end, 10);
        if (end == version || *end || errno || v < INT32_MIN || v > INT32_MAX) {
            usage_error(cmd, "--unity-version wants a 32-bit integer, got '%s'", version);
            return false;
        }
        o->version = (int32_t)v;
        o->check_version = true;
    }
    bool before = false, old = false;
    if (!length) {
        o->length = BLOBC_UNITY_LENGTH_ANY;
    } else if (strcmp(length, "padded") == 0) {
        o->length = BLOBC_UNITY_LENGTH_PADDED;
    } else if (strcmp(length, "exact") == 0) {
        o->length = BLOBC_UNITY_LENGTH_EXACT;
    } else if (!release_before_050(length, &before, &old)) {
        usage_error(cmd, "--unity-length wants padded, exact or an Entities release such as "
                         "0.17 or 1.3, got '%s'", length);
        return false;
    } else if (old) {
        usage_error(cmd, "Entities %s wrote another header (24 bytes or less); the Unity "
                         "format is the one of 0.3 and later", length);
        return false;
    } else {
        o->length = before ? BLOBC_UNITY_LENGTH_EXACT : BLOBC_UNITY_LENGTH_PADDED;
    }
    return true;
}

bool parse_read_format(const char *cmd, bool allow_raw, read_format *rf) {
    const char *f = rf->format;
    bool unity = f && strcmp(f, "unity") == 0;
    if (f && allow_raw && strcmp(f, "raw") == 0) rf->raw = true;
    else if (f && !unity && strcmp(f, "blob") != 0) {
        usage_error(cmd, "unknown format '%s' (expected blob%s or unity)", f,
                    allow_raw ? ", raw" : "");
        return false;
    }
    if (rf->raw && (rf->unity_version || rf->unity_length)) {
        usage_error(cmd, "--unity-version and --unity-length do not go with a raw data section");
        return false;
    }
    if (!parse_unity(cmd, rf->unity_version, rf->unity_length, &rf->storage)) return false;
    /* given options make the reader expect a Unity file */
    rf->unity = unity || rf->unity_version || rf->unity_length ? &rf->storage : NULL;
    return true;
}
