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
    "Usage: blobc gen c SCHEMA [-o FILE]\n"
    "       blobc gen cs SCHEMA [-o FILE] [--namespace NS] [--no-mathematics]\n"
    "Generate code that reads blobs of SCHEMA in place: a C11/C++17 header (c),\n"
    "or C# structs over Unity.Entities' blob types (cs) for files baked with\n"
    "--format unity and loaded with BlobAssetReference<T>.TryRead.\n"
    "\n"
    "  -o, --output FILE     write to FILE instead of standard output\n"
    "      --namespace NS    cs: put the types in namespace NS\n"
    "      --no-mathematics  cs: fixed buffers instead of Unity.Mathematics'\n"
    "                        float2..4, double2..4, int2..4, uint2..4, bool2..4\n"
    "  -h, --help            show this help\n";

int cmd_gen(int argc, char **argv) {
    const char *output = NULL, *ns = NULL;
    bool no_math = false;
    opt opts[] = {{"output", 'o', true, &output, NULL},
                  {"namespace", 0, true, &ns, NULL},
                  {"no-mathematics", 0, false, NULL, &no_math},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("gen", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        fputs(gen_help, stdout);
        goto done;
    }
    if (a.noperands != 2) {
        usage_error("gen", "expected a language and a schema: gen c SCHEMA or gen cs SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    bool cs = strcmp(a.operands[0], "cs") == 0;
    if (!cs && strcmp(a.operands[0], "c") != 0) {
        usage_error("gen", "unknown language '%s' (available: c, cs)", a.operands[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    if (!cs && (ns || no_math)) {
        usage_error("gen", "--namespace and --no-mathematics go with gen cs");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(a.operands[1], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_gen_cs_options co = {ns, no_math};
    blobc_status st = cs ? blobc_gen_cs(sch, &co, &buf, &err) : blobc_gen_c(sch, NULL, &buf, &err);
    if (st != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    if (output) rc = write_output(output, &buf);
    else fwrite(buf.data, 1, buf.len, stdout);
done:
    blobc_buffer_free(&buf);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
