/*
 * dump.c - blobc dump: a blob printed as YAML, JSON or a layout map.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- dump ---- */

static const char dump_help[] =
    "Usage: blobc dump [OPTIONS] BLOB\n"
    "Print a blob as YAML (default), JSON, or a byte-level layout map.\n"
    "The blob is verified first; a blob that fails is not printed (a --map\n"
    "shows it as far as it is sound and marks the failure).\n"
    "\n"
    "  -s, --schema SCHEMA   schema for stripped blobs and raw data sections\n"
    "  -t, --type TYPE       root type in SCHEMA (default: its root)\n"
    "      --format FMT      blob (default), raw (a data section alone, = --raw)\n"
    "                        or unity (a Unity blob asset file); raw and unity\n"
    "                        need -s. A Unity file is also recognised unnamed.\n"
    "      --raw             BLOB is a raw data section (needs -s)\n"
    "      --unity-version N refuse a Unity file of another version\n"
    "      --unity-length R  padded, exact, or a release (default: either)\n"
    "      --json            print JSON instead of YAML\n"
    "      --map             print the layout: offset, size, bytes, value, path\n"
    "  -o, --output FILE     write to FILE instead of standard output (never\n"
    "                        BLOB itself; see blobc(1), OUTPUT FILES)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

int cmd_dump(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *output = NULL;
    bool json = false, map = false, raw = false;
    read_format rf = {0};
    opt opts[] = {
        READ_FORMAT_OPTS(rf),
        {"schema", 's', true, &schema, NULL}, {"type", 't', true, &type, NULL},
        {"output", 'o', true, &output, NULL}, {"json", 0, false, NULL, &json},
        {"map", 0, false, NULL, &map},        {"raw", 0, false, NULL, &raw},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("dump", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    uint8_t *bytes = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        fputs(dump_help, stdout);
        goto done;
    }
    if (a.noperands != 1) {
        usage_error("dump", a.noperands ? "expected one blob, got %d" : "no blob given",
                    a.noperands);
        rc = EXIT_USAGE;
        goto done;
    }
    if (json && map) {
        usage_error("dump", "--json and --map are exclusive");
        rc = EXIT_USAGE;
        goto done;
    }
    rf.raw = raw;
    if (!parse_read_format("dump", true, &rf)) {
        rc = EXIT_USAGE;
        goto done;
    }
    raw = rf.raw;
    if ((raw || rf.unity) && !schema) {
        usage_error("dump", "%s needs -s SCHEMA", raw ? "a raw data section" : "a Unity file");
        rc = EXIT_USAGE;
        goto done;
    }
    if (type && !schema) {
        usage_error("dump", "-t needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = add_input(a.operands[0])) != 0 || (schema && (rc = add_input(schema)) != 0))
        goto done;
    if ((rc = load_schema(schema, &sch)) != 0) goto done;
    size_t len = 0;
    /* A blob from a pipe stops at its recorded size (not --raw: no header). */
    if ((rc = read_blob_input(a.operands[0], !raw, &bytes, &len)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_dump_options dopt = {0};
    dopt.format = json ? BLOBC_DUMP_JSON : map ? BLOBC_DUMP_MAP : BLOBC_DUMP_YAML;
    dopt.schema = sch;
    dopt.type_name = type;
    dopt.schema_name = schema;
    dopt.raw = raw;
    dopt.unity = rf.unity;
    blobc_status st = blobc_dump(bytes, len, &dopt, &buf, &err);
    if (st != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", a.operands[0]);
        /* A map is printed even for a bad blob, up to the failure. */
        if (map && buf.len) write_stdout(buf.data, buf.len);
        report(&err);
        rc = exit_code(st);
        goto done;
    }
    /* A failed write to standard output is found when main closes it. */
    if (output) rc = write_output(output, &buf);
    else write_stdout(buf.data, buf.len);
done:
    blobc_buffer_free(&buf);
    free(bytes);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
