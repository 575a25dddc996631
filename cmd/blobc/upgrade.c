/*
 * upgrade.c - blobc upgrade: carry a blob over to a new schema.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char upgrade_help[] =
    "Usage: blobc upgrade OLD.blob -s NEW.schema -o NEW.blob [-t TYPE] [--from OLD.schema]\n"
    "                     [--drop] [--strip]\n"
    "Carry a blob over to a new version of its schema, by field name: the blob\n"
    "that baking OLD.blob's data with NEW.schema gives.\n"
    "\n"
    "  -s, --schema SCHEMA   the new schema (required)\n"
    "  -o, --output OUT      the new blob (required; '-' for stdout)\n"
    "  -t, --type TYPE       the type in the new schema (default: its root)\n"
    "      --from SCHEMA     the old schema, for a stripped OLD.blob\n"
    "      --drop            leave out fields the new schema does not have\n"
    "      --strip           leave the embedded type description out\n"
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "New fields take their defaults; integers and floats convert to wider or\n"
    "narrower types when every value fits; enums convert by member name.\n"
    "OUT may not be OLD.blob or a schema (write elsewhere, then rename).\n";

int cmd_upgrade(int argc, char **argv) {
    const char *schema = NULL, *output = NULL, *type = NULL, *from = NULL;
    bool drop = false, strip = false;
    opt opts[] = {{"schema", 's', true, &schema, NULL}, {"output", 'o', true, &output, NULL},
                  {"type", 't', true, &type, NULL},     {"from", 0, true, &from, NULL},
                  {"drop", 0, false, NULL, &drop},      {"strip", 0, false, NULL, &strip},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("upgrade", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL, *old = NULL;
    uint8_t *bytes = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        put_help(upgrade_help);
        goto done;
    }
    if (a.noperands != 1 || !schema || !output) {
        usage_error("upgrade", a.noperands != 1 ? "expected one blob: upgrade OLD.blob -s NEW.schema -o NEW.blob"
                               : !schema        ? "the new schema is required (-s NEW.schema)"
                                                : "the output is required (-o NEW.blob)");
        rc = EXIT_USAGE;
        goto done;
    }
    /* Never written over: the old blob and both schemas (blobc(1), OUTPUT FILES). */
    if ((rc = add_input(a.operands[0])) != 0 || (rc = add_input(schema)) != 0 ||
        (from && (rc = add_input(from)) != 0))
        goto done;
    if ((rc = load_schema(schema, &sch)) != 0 || (rc = load_schema(from, &old)) != 0) goto done;
    size_t len = 0;
    if ((rc = read_blob_input(a.operands[0], true, &bytes, &len)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_upgrade_options uo = {sch, type, old, NULL, drop, strip};
    if (blobc_upgrade(bytes, len, &uo, &buf, &err) != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", a.operands[0]);
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    rc = write_output(output, &buf);
done:
    blobc_buffer_free(&buf);
    free(bytes);
    blobc_schema_free(sch);
    blobc_schema_free(old);
    free(a.operands);
    return rc;
}
