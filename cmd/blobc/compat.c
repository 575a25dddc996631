/*
 * compat.c - blobc compat: do blobs of OLD read correctly with NEW, and
 * does blobc upgrade carry them over unchanged?
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char compat_help[] =
    "Usage: blobc compat OLD NEW [-t TYPE]\n"
    "Tell whether blobs baked with OLD read correctly through code generated\n"
    "from NEW, and 'blobc upgrade' carries them over with every value: exit 0\n"
    "when so, 1 with one line per change.\n"
    "OLD and NEW are schema files or blobs (their embedded type description).\n"
    "\n"
    "  -t, --type TYPE       the type to compare (default: each side's root;\n"
    "                        for a blob, always its root)\n"
    "  -q, --quiet           print nothing, only set the exit status\n"
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "Lines are \"PATH: change\"; types renamed at the same layout are printed\n"
    "as \"note: PATH: ...\" and do not fail. A field, enum member or union\n"
    "member of another name is a removal (and an addition): values carry over\n"
    "by name. See docs/SCHEMA.md.\n";

int cmd_compat(int argc, char **argv) {
    const char *type = NULL;
    bool quiet = false;
    opt opts[] = {{"type", 't', true, &type, NULL},
                  {"quiet", 'q', false, NULL, &quiet},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("compat", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch[2] = {NULL, NULL};
    const blobc_type *root[2] = {NULL, NULL};
    blobc_buffer buf = {0};
    if (a.help) {
        put_help(compat_help);
        goto done;
    }
    if (a.noperands != 2) {
        usage_error("compat", "expected two operands: compat OLD NEW");
        rc = EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < 2; i++) {
        bool is_blob;
        if ((rc = load_schema_or_blob(a.operands[i], &sch[i], &is_blob)) != 0) goto done;
        root[i] = pick_type("compat", sch[i], a.operands[i], is_blob ? NULL : type);
        if (!root[i]) {
            rc = EXIT_INPUT;
            goto done;
        }
    }
    blobc_error err;
    blobc_error_clear(&err);
    blobc_compat_result res;
    if (blobc_compat(root[0], root[1], sch[1], &buf, &res, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    if (!quiet) {
        if (buf.len) fwrite(buf.data, 1, buf.len, stdout);
        if (res.changes)
            printf("incompatible: %zu change%s\n", res.changes, res.changes == 1 ? "" : "s");
        else
            printf("compatible%s\n", res.notes ? " (the layout is the same; see the notes)" : "");
    }
    rc = res.changes ? EXIT_INPUT : 0;
done:
    blobc_buffer_free(&buf);
    blobc_schema_free(sch[0]);
    blobc_schema_free(sch[1]);
    free(a.operands);
    return rc;
}
