/*
 * bake.c - blobc bake: data files in, blobs out.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "blobc/cache.h"
#include "cli.h"
#include "platform/platform.h"

/* ---- bake ---- */

static const char bake_help[] =
    "Usage: blobc bake [OPTIONS] INPUT...\n"
    "Bake YAML or JSON data into a .blob.\n"
    "\n"
    "  -s, --schema SCHEMA   schema file (overrides the data's $schema)\n"
    "  -t, --type TYPE       root type (overrides $type and the schema's root)\n"
    "  -o, --output OUT      output file ('-' for stdout), or the directory to\n"
    "                        write into: one that exists, a name ending in '/',\n"
    "                        or any name with several inputs\n"
    "      --format FMT      blob (default), raw (the data section alone), or\n"
    "                        unity (what BlobAssetReference<T>.TryRead loads)\n"
    "      --unity-version N the int32 version the loader passes to TryRead\n"
    "                        (required with --format unity)\n"
    "      --unity-length R  padded (default: Entities 0.50 and later), exact\n"
    "                        (0.17 and earlier), or a release number (0.17, 1.3)\n"
    "      --strip           leave the embedded type description out\n"
    "      --one-thread      never parse on a second thread (by default YAML of\n"
    "                        1 MiB or more is parsed on one while the other bakes)\n"
    "  -j, --jobs N          bake N inputs at a time (default: the number of cores)\n"
    "  -q, --quiet           no progress line\n"
    "  -v, --verbose         name each output as it is written, and say\n"
    "                        'cached' when it came from the cache\n"
    "      --depfile FILE    write a make/ninja depfile for the output: the\n"
    "                        input and every schema file read (one input)\n"
    "      --depfiles        with several inputs: OUT.d beside every OUT\n"
    "      --cache DIR|URL   take outputs from, and put them into, a cache: a\n"
    "                        directory or an HTTP server, or 'DIR URL' to ask a\n"
    "                        local directory first (default: $BLOBC_CACHE); a\n"
    "                        server's user name and password: in ~/.netrc\n"
    "      --no-cache        do not use a cache, whatever BLOBC_CACHE says\n"
    "      --max-errors N    report up to N errors per input, in document order\n"
    "                        (default 20; 0: no limit); a syntax error comes alone\n"
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "Without -o, INPUT's extension is replaced by .blob (.bin for --format raw,\n"
    ".bytes for --format unity).\n"
    "The input format is chosen by extension (.yaml, .yml, .json), else by content.\n"
    "A file is written to a temporary file and renamed into place on success\n"
    "(missing directories above it are made);\n"
    "a device or FIFO is written in place; an output that is an input of the\n"
    "run is refused (blobc(1), OUTPUT FILES).\n"
    "With several inputs, every input is baked (failures are reported in input\n"
    "order and the others still written; exit 1 if any failed), and inputs that\n"
    "would be written to the same file (under any spelling) are refused before\n"
    "anything is baked.\n"
    "On a terminal, a progress line shows how many inputs are done.\n";

/* Whether -o names a directory to write into: one that exists, a name
 * ending in '/', or any name with several inputs (a directory that does
 * not exist yet is made by the first write). 0 or an exit code. */
static int output_dir(const char *output, int ninputs, const char **outdir) {
    if (!output) return 0;
    size_t n = strlen(output);
    blobc_os_info st;
    int e = blobc_os_stat(output, &st);
    bool exists = e == 0, dir = exists && st.kind == BLOBC_OS_DIRECTORY;
    if (strcmp(output, "-") == 0 || !(dir || ninputs > 1 || (n && blobc_os_dir_len(output) == n))) {
        if (ninputs == 1) return 0;
        usage_error("bake", "with several inputs, -o names a directory, not '-'");
        return EXIT_USAGE;
    }
    if (!dir && (exists || e != ENOENT)) {
        usage_error("bake", "-o '%s' is not a directory (with several inputs, or a name "
                            "ending in '/', -o names the directory to write into)", output);
        return EXIT_USAGE;
    }
    *outdir = output;
    return 0;
}

/* "dir/level.yaml" -> "<outdir or dir>/level.blob" */
static char *output_name(const char *input, const char *outdir, const char *ext) {
    const char *base = input + blobc_os_dir_len(input);
    size_t dirlen = outdir ? strlen(outdir) : (size_t)(base - input);
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t n = dirlen + 1 + stem + strlen(ext) + 1;
    char *out = malloc(n);
    if (!out) return NULL;
    if (outdir) {
        bool slash = dirlen && blobc_os_dir_len(outdir) == dirlen;
        snprintf(out, n, "%s%s%.*s%s", outdir, slash ? "" : "/", (int)stem, base, ext);
    } else {
        snprintf(out, n, "%.*s%.*s%s", (int)dirlen, input, (int)stem, base, ext);
    }
    return out;
}



/* ---- one input ---- */

typedef struct bake_run {
    blobc_bake_options bo;   /* shared; output_path is set per input */
    const char *const *inputs;
    char **outputs;          /* per input, malloc'd */
    bool *over_input;        /* per input: its output is one of the inputs */
    size_t n;
    bool verbose;
    const char *depfile;     /* one input: its depfile */
    bool depfiles;           /* OUT.d beside every OUT */
    blobc_cache *cache;
    unsigned max_errors;     /* per input (--max-errors) */
} bake_run;

/* The errors of one input, printed as the bake hands them over (to the
 * input's own messages in a batch: report() writes there). */
static void print_diag(void *ctx, const blobc_error *e) {
    ++*(size_t *)ctx;
    report(e);
}

/* A warning of one input (a renamed name the data still uses). */
static void print_warning(void *ctx, const blobc_error *w) {
    (void)ctx;
    report(w);
}

/* "20" -> 20; false for anything but a decimal number that fits. */
static bool parse_count(const char *s, unsigned *out) {
    if (!*s) return false;
    unsigned long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > 1000000000ul) return false;
    }
    *out = (unsigned)v;
    return true;
}

/* The depfile of one output into dep (its path: --depfile, or OUT.d);
 * 0 or an exit code after reporting a name make or ninja cannot read. */
static int make_depfile(const bake_run *r, const char *out, const char *in,
                        const blobc_schema *schema, char **dep, blobc_buffer *text) {
    *dep = r->depfile ? strdup(r->depfile) : malloc(strlen(out) + 3);
    if (!*dep) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_USAGE;
    }
    if (!r->depfile) sprintf(*dep, "%s.d", out);
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_depfile(out, in, schema, text, &err) == BLOBC_OK) return 0;
    snprintf(err.file, sizeof err.file, "%s", *dep);
    report(&err);
    return exit_code(err.status);
}

static void warn(FILE *msg, const blobc_error *w) {
    fprintf(msg, "%s: warning: %s\n", w->file[0] ? w->file : prog, w->message);
}

/* What one input came to: the output in buf (baked, or on a hit viewing
 * the cache entry where it lies, which is then not copied). */
typedef struct result {
    blobc_buffer buf;
    blobc_cache_entry hit;
    bool cached;
    bool planned;
    blobc_bake_plan plan;
} result;

static void result_free(result *res) {
    if (res->cached) blobc_cache_entry_free(&res->hit);
    else blobc_buffer_free(&res->buf);
    blobc_bake_plan_free(&res->plan);
}

/* Bakes the text with its plan: from the cache when it holds the output,
 * else by baking (and then storing the result). */
static blobc_status bake_planned(bake_run *r, const char *text, size_t len, const char *name,
                                 blobc_bake_options *bo, result *res, blobc_error *err,
                                 FILE *msg) {
    blobc_error w;
    const blobc_bake_plan *plan = &res->plan;
    blobc_buffer *buf = &res->buf;
    if (r->cache) {
        blobc_cache_get(r->cache, plan, bo, &res->hit, &res->cached, &w);
        if (w.status != BLOBC_OK) warn(msg, &w);
        if (res->cached) {
            *buf = (blobc_buffer){(uint8_t *)res->hit.data, res->hit.len, res->hit.len};
            return BLOBC_OK;
        }
    }
    bo->schema = plan->schema;
    blobc_status st = blobc_bake_memory(text, len, name, bo, buf, err);
    if (st == BLOBC_OK && r->cache) {
        blobc_cache_put(r->cache, plan, buf->data, buf->len, &w);
        if (w.status != BLOBC_OK) warn(msg, &w);
    }
    return st;
}

/* With a depfile or a cache, the input is read whole and planned first:
 * the plan names the schema files and gives the cache key. A plan that
 * fails is followed by a plain bake, which reports the error in full. */
static blobc_status bake_with_plan(bake_run *r, const char *in, blobc_bake_options *bo,
                                   result *res, blobc_error *err, FILE *msg) {
    blobc_file_view v;
    blobc_status st = blobc_file_map(in, &v, err);
    if (st) return st;
    const uint8_t *text = v.data;
    size_t len = v.len;
    const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
    if (blobc_bake_plan_memory((const char *)text, len, name, bo, &res->plan, err) == BLOBC_OK) {
        res->planned = true;
        st = bake_planned(r, (const char *)text, len, name, bo, res, err, msg);
    } else {
        st = blobc_bake_memory((const char *)text, len, name, bo, &res->buf, err);
    }
    blobc_file_unmap(&v);
    return st;
}

static int bake_one(void *ctx, size_t i, FILE *msg) {
    bake_run *r = ctx;
    const char *in = r->inputs[i], *out = r->outputs[i];
    if (r->over_input[i]) {
        fprintf(msg, "%s: error: refusing to overwrite input file '%s'\n", in, out);
        return EXIT_USAGE;
    }
    blobc_bake_options bo = r->bo;
    bo.output_path = out;
    size_t printed = 0;
    blobc_diag_sink sink = {print_diag, &printed, r->max_errors, 0, print_warning};
    bo.diag = &sink;
    result res;
    memset(&res, 0, sizeof res);
    blobc_error err;
    blobc_error_clear(&err);
    blobc_status st = r->cache || r->depfile || r->depfiles
                          ? bake_with_plan(r, in, &bo, &res, &err, msg)
                          : blobc_bake_file(in, &bo, &res.buf, &err);
    int rc = 0;
    char *dep = NULL;
    blobc_buffer deptext = {0};
    if (st != BLOBC_OK) {
        /* the sink printed the errors of the data; others come here */
        if (printed == 0) report(&err);
        if (sink.suppressed)
            fprintf(msg,
                    "%s: error: too many errors; stopping here: %zu more not shown "
                    "(--max-errors 0 shows all)\n",
                    err.file[0] ? err.file : in, sink.suppressed);
        rc = exit_code(st);
    } else {
        /* A depfile that cannot be written stops the output too: a build
         * tool would take the output for up to date. */
        if (res.planned && (r->depfile || r->depfiles))
            rc = make_depfile(r, out, in, res.plan.schema, &dep, &deptext);
        if (!rc) rc = write_output(out, &res.buf);
        if (!rc && r->verbose)
            fprintf(msg, "%s: %s %s\n", in, res.cached ? "cached" : "baked", out);
        if (!rc && dep) rc = write_output(dep, &deptext);
    }
    free(dep);
    blobc_buffer_free(&deptext);
    result_free(&res);
    return rc;
}

/* ---- the checks made before anything is baked ---- */

/* Marks every output that is one of the run's inputs (the data files and
 * the files of the -s schema, through any name), and refuses the batch
 * when two inputs would be written to one file, however the two outputs
 * are spelled ("x/a.blob", "./x/a.blob", a path through a link): only the
 * last blob would be left. Returns 0, or an exit code after printing
 * every clash. */
static int check_outputs(bake_run *r) {
    blobc_outputs *seen = blobc_outputs_new();
    if (!seen) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_USAGE;
    }
    int rc = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *out = r->outputs[i];
        size_t first;
        blobc_error err;
        blobc_error_clear(&err);
        r->over_input[i] = input_of(out) != NULL;
        if (blobc_outputs_add(seen, out, &first, &err) != BLOBC_OK) {
            report(&err);
            rc = exit_code(err.status);
            break;
        }
        if (first == SIZE_MAX) continue;
        fprintf(stderr, "%s bake: error: inputs '%s' and '%s' would both be written to '%s'",
                prog, r->inputs[first], r->inputs[i], r->outputs[first]);
        if (strcmp(r->outputs[first], out) != 0) fprintf(stderr, " (also named '%s')", out);
        fputc('\n', stderr);
        rc = EXIT_USAGE;
    }
    blobc_outputs_free(seen);
    return rc;
}

/* Fills r->outputs; 0 or an exit code. */
static int plan_outputs(bake_run *r, const char *output, const char *outdir) {
    const char *ext = r->bo.output == BLOBC_OUTPUT_RAW     ? ".bin"
                      : r->bo.output == BLOBC_OUTPUT_UNITY ? ".bytes"
                                                           : ".blob";
    for (size_t i = 0; i < r->n; i++) {
        const char *in = r->inputs[i];
        if (strcmp(in, "-") == 0 && !output) {
            usage_error("bake", "reading standard input needs -o");
            return EXIT_USAGE;
        }
        r->outputs[i] = (output && !outdir) ? strdup(output) : output_name(in, outdir, ext);
        if (!r->outputs[i]) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return EXIT_USAGE;
        }
    }
    return check_outputs(r);
}

/* Opens the cache named by --cache or BLOBC_CACHE (none when spec is NULL
 * or empty). libcurl's global state is set up here, once, on the main
 * thread before any worker starts. 0 or an exit code. */
static bool http;

static int open_cache(bake_run *r, const char *spec) {
    if (!spec || !spec[0]) return 0;
    http = strstr(spec, "http://") != NULL || strstr(spec, "https://") != NULL;
    if (http && blobc_http_global_init(NULL) != BLOBC_OK) {
        fprintf(stderr, "%s: warning: cannot set up HTTP (libcurl.so.4); baking without the cache\n",
                prog);
        return 0;
    }
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_cache_open(spec, &r->cache, &err) != BLOBC_OK) {
        /* A cache is an optimisation: without one, bake anyway. */
        fprintf(stderr, "%s: warning: %s; baking without the cache\n", prog, err.message);
        if (http) blobc_http_global_cleanup();
        r->cache = NULL;
    }
    return 0;
}

static bool parse_jobs(const char *s, int *jobs) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 1024) return false;
    *jobs = (int)v;
    return true;
}

int cmd_bake(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *output = NULL, *format = NULL, *jobs_arg = NULL;
    const char *depfile = NULL, *cache = blobc_os_getenv("BLOBC_CACHE"), *max_errors = NULL;
    bool strip = false, one_thread = false, quiet = false, verbose = false, no_cache = false;
    bool depfiles = false;
    const char *unity_version = NULL, *unity_length = NULL;
    opt opts[] = {
        {"schema", 's', true, &schema, NULL},
        {"type", 't', true, &type, NULL},
        {"output", 'o', true, &output, NULL},
        {"format", 0, true, &format, NULL},
        {"jobs", 'j', true, &jobs_arg, NULL},
        {"strip", 0, false, NULL, &strip},
        {"one-thread", 0, false, NULL, &one_thread},
        {"unity-version", 0, true, &unity_version, NULL},
        {"unity-length", 0, true, &unity_length, NULL},
        {"quiet", 'q', false, NULL, &quiet},
        {"verbose", 'v', false, NULL, &verbose},
        {"depfile", 0, true, &depfile, NULL},
        {"depfiles", 0, false, NULL, &depfiles},
        {"cache", 0, true, &cache, NULL},
        {"no-cache", 0, false, NULL, &no_cache},
        {"max-errors", 0, true, &max_errors, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("bake", argc, argv, opts, &a)) return EXIT_USAGE;
    bake_run r;
    memset(&r, 0, sizeof r);
    blobc_schema *loaded = NULL;
    int rc = 0, jobs = online_cores();
    if (a.help) {
        fputs(bake_help, stdout);
        goto done;
    }
    r.bo.schema_path = schema;
    r.bo.type_name = type;
    r.bo.strip = strip;
    r.bo.one_thread = one_thread;
    r.bo.max_input = cli_max_input;
    r.verbose = verbose;
    if (format && strcmp(format, "raw") == 0) r.bo.output = BLOBC_OUTPUT_RAW;
    else if (format && strcmp(format, "unity") == 0) r.bo.output = BLOBC_OUTPUT_UNITY;
    else if (format && strcmp(format, "blob") != 0) {
        usage_error("bake", "unknown format '%s' (expected blob, raw or unity)", format);
        rc = EXIT_USAGE;
        goto done;
    }
    if (r.bo.output != BLOBC_OUTPUT_UNITY && (unity_version || unity_length)) {
        usage_error("bake", "--unity-version and --unity-length go with --format unity");
        rc = EXIT_USAGE;
        goto done;
    }
    if (r.bo.output == BLOBC_OUTPUT_UNITY && !unity_version) {
        usage_error("bake", "--format unity needs --unity-version N, the version the loader "
                            "passes to BlobAssetReference<T>.TryRead");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!parse_unity("bake", unity_version, unity_length, &r.bo.unity)) {
        rc = EXIT_USAGE;
        goto done;
    }
    r.max_errors = 20;
    if (max_errors && !parse_count(max_errors, &r.max_errors)) {
        usage_error("bake", "--max-errors needs a count (0 for no limit), got '%s'", max_errors);
        rc = EXIT_USAGE;
        goto done;
    }
    if (jobs_arg && !parse_jobs(jobs_arg, &jobs)) {
        usage_error("bake", "-j needs a number from 1 to 1024, got '%s'", jobs_arg);
        rc = EXIT_USAGE;
        goto done;
    }
    if (a.noperands == 0) {
        usage_error("bake", "no input file");
        rc = EXIT_USAGE;
        goto done;
    }
    const char *outdir = NULL;
    if ((rc = output_dir(output, a.noperands, &outdir))) goto done;
    r.n = (size_t)a.noperands;
    r.inputs = a.operands;
    r.outputs = calloc(r.n, sizeof *r.outputs);
    r.over_input = calloc(r.n, sizeof *r.over_input);
    if (!r.outputs || !r.over_input) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = EXIT_USAGE;
        goto done;
    }
    if (depfile && r.n > 1) {
        usage_error("bake", "--depfile names one depfile; with several inputs, --depfiles "
                            "writes OUT.d beside every OUT");
        rc = EXIT_USAGE;
        goto done;
    }
    r.depfile = depfile;
    r.depfiles = depfiles;
    /* -s is read once for every input (the threads share it), and still
     * recorded by name in each blob, as a bake of one input records it. */
    if ((rc = load_schema(schema, &loaded))) goto done;
    r.bo.schema = loaded;
    for (size_t i = 0; i < r.n && !rc; i++) rc = add_input(r.inputs[i]);
    for (size_t i = 0; loaded && i < blobc_schema_file_count(loaded) && !rc; i++)
        rc = add_input(blobc_schema_file(loaded, i));
    if (rc) goto done;
    if ((rc = plan_outputs(&r, output, outdir))) goto done;
    if ((rc = open_cache(&r, no_cache ? NULL : cache))) goto done;
    bool show = r.n > 1 && !quiet && blobc_os_stderr_is_terminal();
    rc = run_batch(r.n, jobs, show, r.inputs, bake_one, &r);
    if (r.cache) {
        blobc_cache_close(r.cache);
        if (http) blobc_http_global_cleanup();
    }
done:
    blobc_schema_free(loaded);
    for (size_t i = 0; r.outputs && i < r.n; i++) free(r.outputs[i]);
    free(r.outputs);
    free(r.over_input);
    free(a.operands);
    return rc;
}
