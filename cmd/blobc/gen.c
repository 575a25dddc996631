/*
 * gen.c - blobc gen: code generators for readers of blobs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* ---- gen ---- */

static const char gen_help[] =
    "Usage: blobc gen c SCHEMA [--prefix P] [-o FILE]\n"
    "       blobc gen jsonschema SCHEMA [-t TYPE] [-o FILE]\n"
    "c: a C11/C++17 header that reads blobs of SCHEMA in place.\n"
    "jsonschema: a JSON Schema (2020-12) of the YAML/JSON data, for editors.\n"
    "\n"
    "  -o, --output FILE     write to FILE instead of standard output (never\n"
    "                        SCHEMA itself; see blobc(1), OUTPUT FILES)\n"
    "      --prefix P        c: prepend P to every generated type name (a C identifier)\n"
    "  -t, --type TYPE       jsonschema: the top-level type (default: the schema's root)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

int cmd_gen(int argc, char **argv) {
    const char *output = NULL, *prefix = NULL, *type = NULL;
    opt opts[] = {{"output", 'o', true, &output, NULL},
                  {"prefix", 0, true, &prefix, NULL},
                  {"type", 't', true, &type, NULL},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("gen", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    bool c = false;
    if (a.help) {
        fputs(gen_help, stdout);
        goto done;
    }
    if (a.noperands != 2) {
        usage_error("gen", "expected a language and a schema: gen c SCHEMA, gen jsonschema SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    c = strcmp(a.operands[0], "c") == 0;
    if (!c && strcmp(a.operands[0], "jsonschema") != 0) {
        usage_error("gen", "unknown language '%s' (available: c, jsonschema)", a.operands[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((c && type) || (!c && prefix)) {
        usage_error("gen", "%s applies to gen %s only", c ? "-t" : "--prefix", c ? "jsonschema" : "c");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = add_input(a.operands[1])) != 0) goto done;
    if ((rc = load_schema(a.operands[1], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_gen_options gopts = {NULL, prefix};
    blobc_status st = c ? blobc_gen_c(sch, &gopts, &buf, &err)
                        : blobc_gen_jsonschema(sch, type, &buf, &err);
    if (st != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    if (output) rc = write_output(output, &buf);
    else write_stdout(buf.data, buf.len);
done:
    blobc_buffer_free(&buf);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
