/*
 * check.c - blobc check: parse a schema and print its layout.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- check ---- */

static const char check_help[] =
    "Usage: blobc check SCHEMA\n"
    "Parse and lint a schema; print each type's size, alignment and layout.\n"
    "\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

int cmd_check(int argc, char **argv) {
    args a;
    if (!parse_args("check", argc, argv, NULL, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        put_help(check_help);
        goto done;
    }
    if (a.noperands != 1) {
        usage_error("check", a.noperands ? "expected one schema" : "no schema given");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(a.operands[0], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_report(sch, &buf, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    write_stdout(buf.data, buf.len);
done:
    blobc_buffer_free(&buf);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
