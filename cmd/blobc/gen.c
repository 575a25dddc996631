/*
 * gen.c - blobc gen: code generators for readers of blobs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- gen ---- */

static const char gen_help[] =
    "Usage: blobc gen c SCHEMA [--prefix P] [-o FILE]\n"
    "       blobc gen cs SCHEMA [--namespace NS] [--no-mathematics] [-o FILE]\n"
    "       blobc gen jsonschema SCHEMA [-t TYPE] [-o FILE]\n"
    "c: a C11/C++17 header that reads blobs of SCHEMA in place.\n"
    "cs: C# structs over Unity.Entities' blob types, to read files baked with\n"
    "--format unity through BlobAssetReference<T>.TryRead.\n"
    "jsonschema: a JSON Schema (2020-12) of the YAML/JSON data, for editors.\n"
    "\n"
    "  -o, --output FILE     write to FILE instead of standard output (never\n"
    "                        SCHEMA itself; see blobc(1), OUTPUT FILES)\n"
    "      --prefix P        c: prepend P to every generated type name (a C identifier)\n"
    "      --namespace NS    cs: put the types in namespace NS\n"
    "      --no-mathematics  cs: fixed buffers instead of Unity.Mathematics'\n"
    "                        float2..4, double2..4, int2..4, uint2..4, bool2..4\n"
    "  -t, --type TYPE       jsonschema: the top-level type (default: the schema's root)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

/* The languages gen writes, in the order of the LANG_ values. */
enum { LANG_C, LANG_CS, LANG_JSONSCHEMA };
static const char *const languages[] = {"c", "cs", "jsonschema"};

int cmd_gen(int argc, char **argv) {
    const char *output = NULL, *prefix = NULL, *type = NULL, *ns = NULL;
    bool no_math = false;
    opt opts[] = {{"output", 'o', true, &output, NULL},
                  {"prefix", 0, true, &prefix, NULL},
                  {"type", 't', true, &type, NULL},
                  {"namespace", 0, true, &ns, NULL},
                  {"no-mathematics", 0, false, NULL, &no_math},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("gen", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    int lang = -1;
    if (a.help) {
        fputs(gen_help, stdout);
        goto done;
    }
    if (a.noperands != 2) {
        usage_error("gen", "expected a language and a schema: gen c SCHEMA, gen cs SCHEMA, "
                           "gen jsonschema SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < 3; i++)
        if (strcmp(a.operands[0], languages[i]) == 0) lang = i;
    if (lang < 0) {
        usage_error("gen", "unknown language '%s' (available: c, cs, jsonschema)", a.operands[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    const char *stray = prefix && lang != LANG_C            ? "--prefix applies to gen c only"
                        : type && lang != LANG_JSONSCHEMA    ? "-t applies to gen jsonschema only"
                        : (ns || no_math) && lang != LANG_CS ? "--namespace and --no-mathematics go with gen cs"
                                                             : NULL;
    if (stray) {
        usage_error("gen", "%s", stray);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = add_input(a.operands[1])) != 0) goto done;
    if ((rc = load_schema(a.operands[1], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_gen_options gopts = {NULL, prefix};
    blobc_gen_cs_options co = {ns, no_math};
    blobc_status st = lang == LANG_C    ? blobc_gen_c(sch, &gopts, &buf, &err)
                      : lang == LANG_CS ? blobc_gen_cs(sch, &co, &buf, &err)
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
