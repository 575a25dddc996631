/*
 * verify.c - blobc verify: the CI gate over whole blobs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- verify ---- */

static const char verify_help[] =
    "Usage: blobc verify [OPTIONS] BLOB...\n"
    "Check blobs completely: header, hashes, type description, and every\n"
    "offset, length, string, bool, enum and padding byte of the data.\n"
    "Exit 0 only if every blob passes.\n"
    "\n"
    "  -s, --schema SCHEMA   also require the layout of SCHEMA's root type\n"
    "                        (needed for stripped blobs)\n"
    "  -t, --type TYPE       type in SCHEMA to compare with (default: its root)\n"
    "      --format FMT      blob (default) or unity: a Unity blob asset file\n"
    "                        (needs -s; also recognised without --format)\n"
    "      --unity-version N refuse a Unity file of another version\n"
    "      --unity-length R  padded, exact, or a release (default: either)\n"
    "      --json            one JSON object per blob on standard output\n"
    "  -q, --quiet           print nothing for blobs that pass\n"
    "      --against SRC     bake SRC afresh and require BLOB (one) to equal it\n"
    "                        byte for byte; the first differing value is named\n"
    "                        by its path (a CI check for stale committed blobs;\n"
    "                        -s and -t then apply to the bake)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

int cmd_verify(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *against = NULL;
    bool json = false, quiet = false;
    read_format rf = {0};
    opt opts[] = {
        READ_FORMAT_OPTS(rf),
        {"schema", 's', true, &schema, NULL}, {"type", 't', true, &type, NULL},
        {"json", 0, false, NULL, &json},      {"quiet", 'q', false, NULL, &quiet},
        {"against", 0, true, &against, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("verify", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    if (a.help) {
        fputs(verify_help, stdout);
        goto done;
    }
    if (a.noperands == 0) {
        usage_error("verify", "no blob given");
        rc = EXIT_USAGE;
        goto done;
    }
    if (against) {
        if (a.noperands != 1) {
            usage_error("verify", "--against compares one blob");
            rc = EXIT_USAGE;
        } else {
            rc = verify_against(against, a.operands[0], schema, type);
            if (!rc && !quiet) printf("%s: ok, up to date with %s\n", a.operands[0], against);
        }
        goto done;
    }
    if (type && !schema) {
        usage_error("verify", "-t needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!parse_read_format("verify", false, &rf)) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (rf.unity && !schema) {
        usage_error("verify", "a Unity file needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(schema, &sch)) != 0) goto done;
    blobc_verify_options vo = {0};
    vo.schema = sch;
    vo.type_name = type;
    vo.unity = rf.unity;
    vo.max_input = cli_max_input;
    for (int i = 0; i < a.noperands; i++) {
        const char *path = a.operands[i];
        blobc_error err;
        blobc_error_clear(&err);
        blobc_status st = blobc_verify_file(path, &vo, &err);
        if (st != BLOBC_OK && !err.file[0]) snprintf(err.file, sizeof err.file, "%s", path);
        if (json) {
            printf("{\"file\":");
            json_string(stdout, path);
            printf(",\"ok\":%s,\"errors\":[", st == BLOBC_OK ? "true" : "false");
            if (st != BLOBC_OK) {
                printf("{\"code\":");
                json_string(stdout, err.code ? blobc_verify_code_name(err.code)
                                             : (st == BLOBC_EINPUT ? "invalid" : "io"));
                if (err.has_offset) printf(",\"offset\":%llu", (unsigned long long)err.offset);
                else printf(",\"offset\":null");
                printf(",\"path\":");
                json_string(stdout, err.path);
                printf(",\"message\":");
                json_string(stdout, err.message);
                printf("}");
            }
            printf("]}\n");
        } else if (st == BLOBC_OK) {
            if (!quiet) printf("%s: ok\n", path);
        } else {
            if (err.code) {
                /* Prefix the stable code so scripts can grep for it. */
                const char *name = blobc_verify_code_name(err.code);
                size_t nl = strlen(name), ml = strlen(err.message);
                if (nl + 2 + ml >= sizeof err.message) ml = sizeof err.message - nl - 3;
                memmove(err.message + nl + 2, err.message, ml);
                memcpy(err.message, name, nl);
                memcpy(err.message + nl, ": ", 2);
                err.message[nl + 2 + ml] = '\0';
            }
            report(&err);
        }
        note_stdout();
        int c = exit_code(st);
        if (c > rc) rc = c;
    }
done:
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
