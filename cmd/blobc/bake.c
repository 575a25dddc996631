/*
 * bake.c - blobc bake: data files in, blobs out.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "blobc/cache.h"
#include "blobc/pipeline.h"
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



/* ---- the run ---- */

typedef struct bake_run {
    blobc_batch_options bo;  /* bo.bake is shared by every input */
    blobc_job *jobs;         /* per input; output and depfile malloc'd */
    size_t n;
    bool verbose;
    bool show;               /* the progress line */
    size_t ndone;            /* inputs over, for the progress line */
    const char *current;     /* the input last taken up */
} bake_run;

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

static void progress(const bake_run *r) {
    if (!r->show) return;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", r->ndone, r->n, r->current ? r->current : "");
    fflush(stderr);
}

/* The messages of the run, in input order, as the library hands them
 * over. */
static void print_event(void *ctx, const blobc_event *ev) {
    bake_run *r = ctx;
    const blobc_job *job = &r->jobs[ev->job];
    const blobc_error *e = ev->error;
    if (ev->kind == BLOBC_EVENT_START) {
        r->current = job->input;
        progress(r);
        return;
    }
    if (r->show) fputs("\r\033[K", stderr);
    switch (ev->kind) {
    case BLOBC_EVENT_CLASH: fprintf(stderr, "%s bake: error: %s\n", prog, e->message); break;
    case BLOBC_EVENT_ERROR: report(e); break;
    case BLOBC_EVENT_WARNING:
        /* the data's (a renamed name: status OK) with its place and line */
        if (e->status == BLOBC_OK) report(e);
        else fprintf(stderr, "%s: warning: %s\n", e->file[0] ? e->file : prog, e->message);
        break;
    case BLOBC_EVENT_DONE:
        if (ev->suppressed)
            fprintf(stderr,
                    "%s: error: too many errors; stopping here: %zu more not shown "
                    "(--max-errors 0 shows all)\n",
                    e->file[0] ? e->file : job->input, ev->suppressed);
        if (ev->status == BLOBC_OK && r->verbose)
            fprintf(stderr, "%s: %s %s\n", job->input, ev->cached ? "cached" : "baked", job->output);
        r->ndone++;
        break;
    default: break;
    }
    progress(r);
}

/* Fills every job's output (and depfile: --depfile, or OUT.d with
 * --depfiles); 0 or an exit code. */
static int plan_outputs(bake_run *r, const char *output, const char *outdir, const char *depfile,
                        bool depfiles) {
    const char *ext = r->bo.bake.output == BLOBC_OUTPUT_RAW     ? ".bin"
                      : r->bo.bake.output == BLOBC_OUTPUT_UNITY ? ".bytes"
                                                                : ".blob";
    for (size_t i = 0; i < r->n; i++) {
        blobc_job *job = &r->jobs[i];
        if (strcmp(job->input, "-") == 0 && !output) {
            usage_error("bake", "reading standard input needs -o");
            return EXIT_USAGE;
        }
        char *out = (output && !outdir) ? strdup(output) : output_name(job->input, outdir, ext);
        char *dep = depfile ? strdup(depfile) : depfiles && out ? malloc(strlen(out) + 3) : NULL;
        job->output = out;
        job->depfile = dep;
        if (!out || ((depfile || depfiles) && !dep)) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return EXIT_USAGE;
        }
        if (depfiles && !depfile) sprintf(dep, "%s.d", out);
    }
    return 0;
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
    if (blobc_cache_open(spec, &r->bo.cache, &err) != BLOBC_OK) {
        /* A cache is an optimisation: without one, bake anyway. */
        fprintf(stderr, "%s: warning: %s; baking without the cache\n", prog, err.message);
        if (http) blobc_http_global_cleanup();
        r->bo.cache = NULL;
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
    int rc = 0, jobs = blobc_os_cores();
    if (a.help) {
        fputs(bake_help, stdout);
        goto done;
    }
    r.bo.bake.schema_path = schema;
    r.bo.bake.type_name = type;
    r.bo.bake.strip = strip;
    r.bo.bake.one_thread = one_thread;
    r.bo.bake.max_input = cli_max_input;
    r.verbose = verbose;
    if (format && strcmp(format, "raw") == 0) r.bo.bake.output = BLOBC_OUTPUT_RAW;
    else if (format && strcmp(format, "unity") == 0) r.bo.bake.output = BLOBC_OUTPUT_UNITY;
    else if (format && strcmp(format, "blob") != 0) {
        usage_error("bake", "unknown format '%s' (expected blob, raw or unity)", format);
        rc = EXIT_USAGE;
        goto done;
    }
    if (r.bo.bake.output != BLOBC_OUTPUT_UNITY && (unity_version || unity_length)) {
        usage_error("bake", "--unity-version and --unity-length go with --format unity");
        rc = EXIT_USAGE;
        goto done;
    }
    if (r.bo.bake.output == BLOBC_OUTPUT_UNITY && !unity_version) {
        usage_error("bake", "--format unity needs --unity-version N, the version the loader "
                            "passes to BlobAssetReference<T>.TryRead");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!parse_unity("bake", unity_version, unity_length, &r.bo.bake.unity)) {
        rc = EXIT_USAGE;
        goto done;
    }
    r.bo.max_errors = 20;
    if (max_errors && !parse_count(max_errors, &r.bo.max_errors)) {
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
    r.jobs = calloc(r.n, sizeof *r.jobs);
    if (!r.jobs) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < r.n; i++) r.jobs[i].input = a.operands[i];
    if (depfile && r.n > 1) {
        usage_error("bake", "--depfile names one depfile; with several inputs, --depfiles "
                            "writes OUT.d beside every OUT");
        rc = EXIT_USAGE;
        goto done;
    }
    /* -s is read once for every input (the threads share it), and still
     * recorded by name in each blob, as a bake of one input records it. */
    if ((rc = load_schema(schema, &loaded))) goto done;
    r.bo.bake.schema = loaded;
    for (size_t i = 0; i < r.n && !rc; i++) rc = add_input(r.jobs[i].input);
    for (size_t i = 0; loaded && i < blobc_schema_file_count(loaded) && !rc; i++)
        rc = add_input(blobc_schema_file(loaded, i));
    if (rc) goto done;
    if ((rc = plan_outputs(&r, output, outdir, depfile, depfiles))) goto done;
    if ((rc = open_cache(&r, no_cache ? NULL : cache))) goto done;
    r.show = r.n > 1 && !quiet && blobc_os_stderr_is_terminal();
    r.bo.threads = (unsigned)jobs;
    r.bo.output = cli_output_options();
    r.bo.on_event = print_event;
    r.bo.ctx = &r;
    rc = exit_code(blobc_bake_batch(r.jobs, r.n, &r.bo, NULL));
    if (r.show) fputs("\r\033[K", stderr);
    if (r.bo.cache) {
        blobc_cache_close(r.bo.cache);
        if (http) blobc_http_global_cleanup();
    }
done:
    blobc_schema_free(loaded);
    for (size_t i = 0; r.jobs && i < r.n; i++) {
        free((char *)r.jobs[i].output);
        free((char *)r.jobs[i].depfile);
    }
    free(r.jobs);
    free(a.operands);
    return rc;
}
