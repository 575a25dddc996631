/*
 * gen.c - blobc gen: code generators for readers of blobs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platform/platform.h"

/* ---- gen ---- */

/* gen's help, a row for each language it applies to (C, P: cpp, S: cs,
 * J: jsonschema): `gen --help` shows every row, `gen LANG --help` the
 * page of LANG. */
enum { H_C = 1, H_P = 2, H_S = 4, H_J = 8, H_ALL = 15, H_CODE = 7 };
static const struct help_row {
    int langs;
    const char *text;
} gen_help[] = {
    {H_C, "Usage: blobc gen c SCHEMA [--prefix P] [-o FILE|DIR/] [--depfile FILE]\n"},
    {H_P, "       blobc gen cpp SCHEMA [--namespace NS] [-o FILE|DIR/] [--depfile FILE]\n"},
    {H_S, "       blobc gen cs SCHEMA [--namespace NS] [--no-mathematics] [--runtime R]\n"
          "                           [-o FILE|DIR/] [--depfile FILE]\n"},
    {H_J, "       blobc gen jsonschema SCHEMA [-t TYPE] [-o FILE]\n"},
    {H_C, "c: a C11/C++17 header that reads blobs of SCHEMA in place.\n"},
    {H_P, "cpp: a C++17 header of classes with accessors over the same bytes.\n"},
    {H_S, "cs: C# structs over Unity.Entities' blob types, to read files baked with\n"
          "--format unity through BlobAssetReference<T>.TryRead; or with --runtime\n"
          "standalone over blobc's C# runtime (BlobcRuntime.cs), to read .blob files\n"
          "from any .NET or Mono program.\n"},
    {H_J, "jsonschema: a JSON Schema (2020-12) of the YAML/JSON data, for editors.\n"},
    {H_CODE, "c, cpp, cs: a schema that imports others gets one file per schema file,\n"
             "each named after its file (common.schema: common.h, common.cs), all in\n"
             "the directory of -o; a header includes the headers of the files it uses,\n"
             "a C# file is compiled with the files it uses.\n"},
    {H_ALL, "\n"
            "  -o, --output FILE     write to FILE instead of standard output (never\n"
            "                        SCHEMA itself; see blobc(1), OUTPUT FILES)\n"},
    {H_CODE, "                        an existing directory or a name ending in '/':\n"
             "                        the directory to write into\n"},
    {H_CODE, "      --depfile FILE    a make/ninja depfile: the output and the schema\n"
             "                        files it was made from\n"},
    {H_C, "      --prefix P        c: prepend P to every generated type name (a C identifier)\n"},
    {H_P | H_S, "      --namespace NS    cpp, cs: put the types in namespace NS (cpp: A::B, cs: A.B)\n"},
    {H_S, "      --no-mathematics  cs: fixed buffers instead of Unity.Mathematics'\n"
          "                        float2..4, double2..4, int2..4, uint2..4, bool2..4\n"
          "      --runtime R       cs: unity (the default: Unity.Entities' blob types)\n"
          "                        or standalone (blobc's BlobcRuntime.cs, no Unity\n"
          "                        packages; fixed buffers for vectors)\n"},
    {H_J, "  -t, --type TYPE       jsonschema: the top-level type (default: the schema's root)\n"},
    {H_ALL, COMMON_HELP "  -h, --help            show this help (gen LANG --help: LANG's alone)\n"},
};

/* The help of the languages in mask, with the usage lines of one
 * language starting "Usage:". */
static void put_gen_help(int mask) {
    bool first = true;
    for (size_t i = 0; i < sizeof gen_help / sizeof gen_help[0]; i++) {
        if (!(gen_help[i].langs & mask)) continue;
        const char *t = gen_help[i].text;
        if (first && strncmp(t, "       ", 7) == 0) {
            put_help("Usage:");
            t += 6;
        }
        first = false;
        put_help(t);
    }
}

/* The languages gen writes, in the order of the LANG_ values. */
enum { LANG_C, LANG_CPP, LANG_CS, LANG_JSONSCHEMA, NLANG };
static const char *const languages[NLANG] = {"c", "cpp", "cs", "jsonschema"};

typedef struct gen_req {
    int lang;
    const char *prefix, *type, *ns;
    bool no_math, standalone;
} gen_req;

static blobc_status generate(const gen_req *r, const blobc_schema *sch, bool own_file_only,
                             blobc_buffer *buf, blobc_error *err) {
    blobc_gen_options gopts = {NULL, r->prefix, own_file_only};
    blobc_gen_cs_options co = {r->ns, r->no_math, own_file_only, r->standalone};
    blobc_gen_cpp_options po = {r->ns, NULL, own_file_only};
    return r->lang == LANG_C     ? blobc_gen_c(sch, &gopts, buf, err)
           : r->lang == LANG_CPP ? blobc_gen_cpp(sch, &po, buf, err)
           : r->lang == LANG_CS  ? blobc_gen_cs(sch, &co, buf, err)
                                 : blobc_gen_jsonschema(sch, r->type, buf, err);
}

/* dir (may be "") joined with name. */
static char *join(const char *dir, size_t dirlen, const char *name) {
    size_t n = dirlen + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%.*s%s%s", (int)dirlen, dir, dirlen && dir[dirlen - 1] != '/' ? "/" : "", name);
    return p;
}

/* The file name gen writes for schema file k (level.h); 0 or an exit code. */
static int file_name(const blobc_schema *sch, size_t k, const char *ext, blobc_buffer *name) {
    blobc_error err;
    blobc_error_clear(&err);
    name->len = 0;
    if (blobc_gen_file_name_of(sch, k, ext, name, &err) == BLOBC_OK) return 0;
    report(&err);
    return exit_code(err.status);
}

/* Generates and writes the header of one imported schema file, loaded
 * from that file alone, into dir; 0 or an exit code. */
static int write_imported(const gen_req *r, const char *path, const char *out) {
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    int rc = load_schema(path, &sch);
    if (rc == 0) {
        blobc_error err;
        blobc_error_clear(&err);
        if (generate(r, sch, true, &buf, &err) != BLOBC_OK) {
            report(&err);
            rc = exit_code(err.status);
        } else {
            rc = write_output(out, &buf);
        }
    }
    blobc_buffer_free(&buf);
    blobc_schema_free(sch);
    return rc;
}

/* The headers of the imported files, beside `main` and named by
 * file_name; two files that would share a name are refused first. */
static int write_imports(const gen_req *r, const blobc_schema *sch, const char *main, const char *ext) {
    size_t nfiles = blobc_schema_file_count(sch);
    const char *base = strrchr(main, '/');
    size_t dirlen = base ? (size_t)(base - main) + 1 : 0;
    char **names = calloc(nfiles, sizeof *names);
    blobc_buffer name = {0};
    int rc = names ? 0 : EXIT_USAGE;
    for (size_t k = 1; k < nfiles && rc == 0; k++) {
        if ((rc = file_name(sch, k, ext, &name)) != 0) break;
        if (!(names[k] = join(main, dirlen, (const char *)name.data))) rc = EXIT_USAGE;
        for (size_t j = 0; j < k && rc == 0; j++)
            if (strcmp(names[k], j ? names[j] : main) == 0) {
                fprintf(stderr, "blobc gen: %s and %s would both be written to %s\n",
                        blobc_schema_file(sch, j), blobc_schema_file(sch, k), names[k]);
                rc = 1;
            }
    }
    for (size_t k = 1; k < nfiles && rc == 0; k++)
        rc = write_imported(r, blobc_schema_file(sch, k), names[k]);
    for (size_t k = 0; names && k < nfiles; k++) free(names[k]);
    free(names);
    blobc_buffer_free(&name);
    return rc;
}

/* Whether -o names a directory: one that exists, or a name ending in a
 * separator ('/', and '\\' on Windows). */
static bool names_dir(const char *output) {
    blobc_os_info st;
    size_t n = strlen(output);
    return (n && blobc_os_dir_len(output) == n) ||
           (blobc_os_stat(output, &st) == 0 && st.kind == BLOBC_OS_DIRECTORY);
}

static int write_depfile(const char *depfile, const char *main, const blobc_schema *sch) {
    blobc_buffer dep = {0};
    blobc_error err;
    blobc_error_clear(&err);
    int rc = 0;
    if (blobc_depfile(main, NULL, sch, &dep, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
    } else {
        rc = write_output(depfile, &dep);
    }
    blobc_buffer_free(&dep);
    return rc;
}

/* gen c, gen cpp and gen cs: one file, or one per schema file
 * (docs/CODEGEN.md, "One header per schema file"). */
static int write_headers(const gen_req *r, const blobc_schema *sch, const char *output, const char *depfile) {
    const char *ext = r->lang == LANG_C ? ".h" : r->lang == LANG_CPP ? ".hpp" : ".cs";
    bool split = blobc_schema_file_count(sch) > 1;
    if (split && !output) {
        usage_error("gen", "the schema imports other schema files: gen %s writes one file per schema file; "
                           "give -o FILE or -o DIR/ to say where", languages[r->lang]);
        return EXIT_USAGE;
    }
    if (depfile && !output) {
        usage_error("gen", "--depfile needs -o");
        return EXIT_USAGE;
    }
    blobc_buffer buf = {0}, name = {0};
    char *main = NULL;
    int rc = 0;
    if (output && names_dir(output)) {
        if ((rc = file_name(sch, 0, ext, &name)) == 0 &&
            !(main = join(output, strlen(output), (const char *)name.data)))
            rc = EXIT_USAGE;
    } else if (output && !(main = strdup(output))) {
        rc = EXIT_USAGE;
    }
    blobc_error err;
    blobc_error_clear(&err);
    if (rc == 0 && generate(r, sch, split, &buf, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
    }
    if (rc == 0 && split) rc = write_imports(r, sch, main, ext);
    if (rc == 0 && main) rc = write_output(main, &buf);
    else if (rc == 0) write_stdout(buf.data, buf.len);
    if (rc == 0 && depfile) rc = write_depfile(depfile, main, sch);
    free(main);
    blobc_buffer_free(&buf);
    blobc_buffer_free(&name);
    return rc;
}

int cmd_gen(int argc, char **argv) {
    const char *output = NULL, *prefix = NULL, *type = NULL, *ns = NULL, *depfile = NULL, *runtime = NULL;
    bool no_math = false;
    opt opts[] = {{"output", 'o', true, &output, NULL},
                  {"prefix", 0, true, &prefix, NULL},
                  {"type", 't', true, &type, NULL},
                  {"namespace", 0, true, &ns, NULL},
                  {"depfile", 0, true, &depfile, NULL},
                  {"runtime", 0, true, &runtime, NULL},
                  {"no-mathematics", 0, false, NULL, &no_math},
                  {NULL, 0, false, NULL, NULL}};
    args a;
    if (!parse_args("gen", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    int lang = -1;
    if (a.help) {
        int mask = H_ALL;
        for (int i = 0; a.noperands && i < NLANG; i++)
            if (strcmp(a.operands[0], languages[i]) == 0) mask = 1 << i;
        put_gen_help(mask);
        goto done;
    }
    if (a.noperands != 2) {
        usage_error("gen", "expected a language and a schema: gen c SCHEMA, gen cpp SCHEMA, "
                           "gen cs SCHEMA, gen jsonschema SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < NLANG; i++)
        if (strcmp(a.operands[0], languages[i]) == 0) lang = i;
    if (lang < 0) {
        usage_error("gen", "unknown language '%s' (available: c, cpp, cs, jsonschema)", a.operands[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    bool header = lang == LANG_C || lang == LANG_CPP || lang == LANG_CS;
    const char *stray = prefix && lang != LANG_C                   ? "--prefix applies to gen c only"
                        : type && lang != LANG_JSONSCHEMA           ? "-t applies to gen jsonschema only"
                        : no_math && lang != LANG_CS                ? "--no-mathematics applies to gen cs only"
                        : ns && lang != LANG_CS && lang != LANG_CPP ? "--namespace applies to gen cpp and gen cs"
                        : depfile && !header                        ? "--depfile applies to gen c, cpp and cs"
                        : runtime && lang != LANG_CS                ? "--runtime applies to gen cs only"
                                                                    : NULL;
    if (stray) {
        usage_error("gen", "%s", stray);
        rc = EXIT_USAGE;
        goto done;
    }
    if (runtime && strcmp(runtime, "unity") != 0 && strcmp(runtime, "standalone") != 0) {
        usage_error("gen", "--runtime wants unity or standalone, got '%s'", runtime);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = add_input(a.operands[1])) != 0) goto done;
    if ((rc = load_schema(a.operands[1], &sch)) != 0) goto done;
    gen_req req = {lang, prefix, type, ns, no_math, runtime && strcmp(runtime, "standalone") == 0};
    if (header) {
        rc = write_headers(&req, sch, output, depfile);
        goto done;
    }
    blobc_error err;
    blobc_error_clear(&err);
    if (generate(&req, sch, false, &buf, &err) != BLOBC_OK) {
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
