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
    "Bake YAML, JSON, CSV or TSV data into a .blob.\n"
    "\n"
    BATCH_HELP
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "Without -o, INPUT's extension is replaced by .blob (.bin for --format raw,\n"
    ".bytes for --format unity).\n"
    "The input format is chosen by --input, else by extension (.yaml, .yml, .json,\n"
    ".csv, .tsv), else by content (JSON or YAML).\n"
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
static int output_dir(const char *cmd, const char *output, int ninputs, const char **outdir) {
    if (!output) return 0;
    size_t n = strlen(output);
    blobc_os_info st;
    int e = blobc_os_stat(output, &st);
    bool exists = e == 0, dir = exists && st.kind == BLOBC_OS_DIRECTORY;
    if (strcmp(output, "-") == 0 || !(dir || ninputs > 1 || (n && blobc_os_dir_len(output) == n))) {
        if (ninputs == 1) return 0;
        usage_error(cmd, "with several inputs, -o names a directory, not '-'");
        return EXIT_USAGE;
    }
    if (!dir && (exists || e != ENOENT)) {
        usage_error(cmd, "-o '%s' is not a directory (with several inputs, or a name "
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


static void progress(const bake_run *r) {
    if (!r->show) return;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", r->ndone, r->n, r->current ? r->current : "");
    fflush(stderr);
}

/* The messages of the run, in input order, as the library hands them
 * over. */
void bake_print_event(void *ctx, const blobc_event *ev) {
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
        if (e->status == BLOBC_OK || cli_error_style != BLOBC_STYLE_TEXT) {
            blobc_error w = *e;
            w.status = BLOBC_OK; /* a warning, whatever it was about */
            report(&w);
        } else {
            fprintf(stderr, "%s: warning: %s\n", e->file[0] ? e->file : prog, e->message);
        }
        break;
    case BLOBC_EVENT_DONE:
        if (ev->suppressed) report_suppressed(e->file[0] ? e->file : job->input, ev->suppressed);
        if (ev->status == BLOBC_OK && r->verbose && ev->skipped)
            fprintf(stderr, "%s: baked %s (%zu key%s of @open structs or tags of @open unions not read; "
                    "--warn-unknown lists them)\n",
                    job->input, job->output, ev->skipped, ev->skipped == 1 ? "" : "s");
        else if (ev->status == BLOBC_OK && r->verbose)
            fprintf(stderr, "%s: %s %s\n", job->input, ev->cached ? "cached" : "baked", job->output);
        r->ndone++;
        r->ncached += ev->status == BLOBC_OK && ev->cached;
        r->nfailed += ev->status != BLOBC_OK;
        break;
    default: break;
    }
    progress(r);
}

/* Fills every job's output (and depfile: --depfile, or OUT.d with
 * --depfiles); 0 or an exit code. */
static int plan_outputs(bake_run *r, const char *cmd, const char *output, const char *outdir, const char *depfile,
                        bool depfiles) {
    const char *ext = r->bo.bake.output == BLOBC_OUTPUT_RAW     ? ".bin"
                      : r->bo.bake.output == BLOBC_OUTPUT_UNITY ? ".bytes"
                                                                : ".blob";
    for (size_t i = 0; i < r->n; i++) {
        blobc_job *job = &r->jobs[i];
        if (strcmp(job->input, "-") == 0 && !output) {
            usage_error(cmd, "reading standard input needs -o");
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

/* --cache-server-min or BLOBC_CACHE_SERVER_MIN (`what`): "SIZE" for
 * every format, or "yaml=SIZE", "json=SIZE" separated by commas (a format
 * not named keeps its default). False after a usage error. */
static bool parse_server_min(const char *cmd, const char *what, const char *s, blobc_cache_options *o) {
    bool ok = *s != '\0';
    for (const char *p = s; ok && *p;) {
        size_t n = strcspn(p, ",");
        char item[64];
        uint64_t v = 0;
        ok = n < sizeof item;
        if (ok) {
            memcpy(item, p, n);
            item[n] = '\0';
            const char *eq = strchr(item, '=');
            const char *size = eq ? eq + 1 : item;
            uint64_t *slot_yaml = !eq || strncmp(item, "yaml=", 5) == 0 ? &o->server_min_yaml : NULL;
            uint64_t *slot_json = !eq || strncmp(item, "json=", 5) == 0 ? &o->server_min_json : NULL;
            ok = (slot_yaml || slot_json) && (!eq || eq == item + 4) && cli_parse_size(size, &v);
            if (ok && slot_yaml) *slot_yaml = v;
            if (ok && slot_json) *slot_json = v;
        }
        p += n;
        if (ok && *p == ',') ok = *++p != '\0';
    }
    if (!ok)
        usage_error(cmd, "invalid %s '%s' (expected a size like 0, 300K, 2M for every input, "
                         "or yaml=SIZE,json=SIZE)", what, s);
    return ok;
}

/* Whether some input of the run may ask a cache server: not when each is
 * below the threshold of its format, so that a process baking small
 * inputs (one per process under ninja) never loads libcurl. */
static bool any_asks_server(const bake_run *r, const blobc_cache_options *o) {
    for (size_t i = 0; i < r->n; i++)
        if (blobc_cache_asks_server(o, r->jobs[i].input)) return true;
    return false;
}

/* Opens the cache named by --cache or BLOBC_CACHE (none when spec is NULL
 * or empty). libcurl's global state is set up here, once, on the main
 * thread before any worker starts, when some input may ask a server
 * (watch always: it bakes its inputs again as they grow). 0 or an exit
 * code. */
static int open_cache(bake_run *r, const char *cmd, const char *spec, blobc_cache_options co) {
    if (!spec || !spec[0]) return 0;
    bool http = strstr(spec, "http://") != NULL || strstr(spec, "https://") != NULL;
    if (http && strcmp(cmd, "watch") != 0 && !any_asks_server(r, &co)) {
        co.server_min_yaml = co.server_min_json = BLOBC_CACHE_SERVER_NEVER;
        http = false;
    }
    blobc_error err;
    blobc_error_clear(&err);
    if (http && blobc_http_global_init(&err) != BLOBC_OK) {
        fprintf(stderr, "%s: warning: %s; baking without the cache\n", prog, err.message);
        return 0;
    }
    r->http = http;
    if (blobc_cache_open_with(spec, &co, &r->bo.cache, &err) != BLOBC_OK) {
        /* A cache is an optimisation: without one, bake anyway. */
        fprintf(stderr, "%s: warning: %s; baking without the cache\n", prog, err.message);
        if (http) blobc_http_global_cleanup();
        r->bo.cache = NULL;
    }
    return 0;
}

static bool parse_count(const char *s, unsigned *out) {
    unsigned long v;
    if (!cli_parse_uint(s, 1000000000ul, &v)) return false;
    *out = (unsigned)v;
    return true;
}

static bool parse_jobs(const char *s, int *jobs) {
    unsigned long v;
    if (!cli_parse_uint(s, 1024, &v) || v < 1) return false;
    *jobs = (int)v;
    return true;
}
/* Every --table FIELD=FILE of the command line (parse_args keeps only
 * the last value of an option): the first's FILE is the run's one input,
 * filling r->bo.bake.table, the others go to r->tables. 0 or an exit
 * code. */
static int collect_tables(const char *cmd, int argc, char **argv, bake_run *r) {
    size_t n = 0, plain = 0;
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v = strncmp(argv[i], "--table=", 8) == 0 ? argv[i] + 8
                        : strcmp(argv[i], "--table") == 0 && i + 1 < argc ? argv[++i]
                                                                         : NULL;
        if (!v) continue;
        const char *eq = strchr(v, '=');
        if (!eq) {
            plain++;
            continue;
        }
        if (eq == v || !eq[1]) {
            usage_error(cmd, "--table '%s': expected FIELD=FILE", v);
            return EXIT_USAGE;
        }
        char *field = malloc((size_t)(eq - v) + 1);
        if (field) {
            memcpy(field, v, (size_t)(eq - v));
            field[eq - v] = '\0';
        }
        blobc_bake_table *bigger = realloc(r->tables, (n + 1) * sizeof *bigger);
        if (!field || !bigger) {
            free(field);
            if (bigger) r->tables = bigger;
            fprintf(stderr, "%s: out of memory\n", prog);
            return EXIT_USAGE;
        }
        r->tables = bigger;
        r->tables[n].field = field;
        r->tables[n++].path = eq + 1;
        r->ntables = n;
    }
    if (!n) return 0;
    if (plain) {
        usage_error(cmd, "--table FIELD and --table FIELD=FILE do not go together");
        return EXIT_USAGE;
    }
    r->first_table = r->tables[0].path;
    r->bo.bake.table = r->tables[0].field;
    r->bo.bake.tables = r->tables + 1;
    r->bo.bake.ntables = n - 1;
    return 0;
}

/* --exclude-tags dev,test: the tags, each a name. 0 or an exit code. */
static int split_tags(const char *cmd, const char *arg, bake_run *r) {
    size_t n = 1;
    for (const char *p = arg; *p; p++) n += *p == ',';
    r->exclude = strdup(arg);
    r->excluded = calloc(n, sizeof *r->excluded);
    if (!r->exclude || !r->excluded) {
        usage_error(cmd, "out of memory");
        return EXIT_USAGE;
    }
    n = 0;
    for (char *p = r->exclude, *next; p; p = next) {
        next = strchr(p, ',');
        if (next) *next++ = '\0';
        bool name = *p != '\0';
        for (const char *c = p; *c; c++)
            name &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' ||
                    (c > p && *c >= '0' && *c <= '9');
        if (!name) {
            usage_error(cmd, "--exclude-tags '%s': expected tag names separated by commas "
                        "(such as dev,test)", arg);
            return EXIT_USAGE;
        }
        r->excluded[n++] = p;
    }
    r->bo.bake.exclude_tags = r->excluded;
    r->bo.bake.nexclude_tags = n;
    return 0;
}

/* Reads the options every batch command takes (bake's, and the command's
 * own `extra` rows), and sets up the run: its jobs, their outputs, the
 * cache. 0 or an exit code; r->help after --help was shown. */
int bake_setup(const char *cmd, int argc, char **argv, const opt *extra, const char *help,
               bake_run *r) {
    const char *schema = NULL, *type = NULL, *output = NULL, *format = NULL, *jobs_arg = NULL;
    const char *input = NULL, *table = NULL;
    const char *depfile = NULL, *cache = blobc_os_getenv("BLOBC_CACHE"), *max_errors = NULL;
    const char *server_min = NULL, *server_min_env = blobc_os_getenv("BLOBC_CACHE_SERVER_MIN");
    bool strip = false, one_thread = false, quiet = false, verbose = false, no_cache = false;
    bool depfiles = false, warn_unknown = false;
    const char *unity_version = NULL, *unity_length = NULL, *assets = NULL, *exclude = NULL;
    const char *strings = NULL, *lang = NULL;
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
        {"cache-server-min", 0, true, &server_min, NULL},
        {"max-errors", 0, true, &max_errors, NULL},
        {"warn-unknown", 0, false, NULL, &warn_unknown},
        {"assets", 0, true, &assets, NULL},
        {"input", 0, true, &input, NULL},
        {"table", 0, true, &table, NULL},
        {"exclude-tags", 0, true, &exclude, NULL},
        {"strings", 0, true, &strings, NULL},
        {"lang", 0, true, &lang, NULL},
        {NULL, 0, false, NULL, NULL},
        {NULL, 0, false, NULL, NULL}, {NULL, 0, false, NULL, NULL}, {NULL, 0, false, NULL, NULL},
        {NULL, 0, false, NULL, NULL}, {NULL, 0, false, NULL, NULL}, {NULL, 0, false, NULL, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    size_t nopts = 24;
    for (size_t i = 0; extra && extra[i].longname && nopts + 1 < sizeof opts / sizeof opts[0]; i++)
        opts[nopts++] = extra[i];
    memset(r, 0, sizeof *r);
    args *a = &r->a;
    if (!parse_args(cmd, argc, argv, opts, a)) return EXIT_USAGE;
    int rc = 0, jobs = blobc_os_cores();
    if (a->help) {
        put_help(help);
        r->help = true;
        return 0;
    }
    r->bo.bake.schema_path = schema;
    r->bo.bake.type_name = type;
    r->bo.bake.strip = strip;
    r->bo.bake.one_thread = one_thread;
    r->bo.bake.warn_unknown = warn_unknown;
    r->bo.bake.assets_dir = assets;
    blobc_os_info ainfo;
    if (assets && (blobc_os_stat(assets, &ainfo) != 0 || ainfo.kind != BLOBC_OS_DIRECTORY)) {
        usage_error(cmd, "--assets '%s' is not a directory", assets);
        return EXIT_USAGE;
    }
    if (exclude && (rc = split_tags(cmd, exclude, r))) return rc;
    if (lang && !strings) {
        usage_error(cmd, "--lang %s needs --strings FILE, the table its texts come from", lang);
        return EXIT_USAGE;
    }
    r->bo.bake.strings = strings;
    r->bo.bake.lang = lang;
    r->bo.bake.max_input = cli_max_input;
    r->verbose = verbose;
    r->bo.bake.table = table;
    if ((rc = collect_tables(cmd, argc, argv, r))) return rc;
    if (r->first_table && a->noperands) {
        usage_error(cmd, "with --table FIELD=FILE the tables are the input: no INPUT too");
        return EXIT_USAGE;
    }
    if (r->first_table) {
        /* the tables' files are one input, the first standing for them */
        const char **ops = malloc(sizeof *ops);
        if (!ops) return EXIT_USAGE;
        free(a->operands);
        a->operands = ops;
        ops[0] = r->first_table;
        a->noperands = 1;
    }
    static const char *const inputs[] = {"yaml", "json", "csv", "tsv"};
    for (int i = 0; input && i < 4 && !r->bo.bake.input; i++)
        if (strcmp(input, inputs[i]) == 0) r->bo.bake.input = (blobc_input_format)(BLOBC_INPUT_YAML + i);
    if (input && !r->bo.bake.input) {
        usage_error(cmd, "unknown input format '%s' (expected yaml, json, csv or tsv)", input);
        return EXIT_USAGE;
    }
    if (format && strcmp(format, "raw") == 0) r->bo.bake.output = BLOBC_OUTPUT_RAW;
    else if (format && strcmp(format, "unity") == 0) r->bo.bake.output = BLOBC_OUTPUT_UNITY;
    else if (format && strcmp(format, "blob") != 0) {
        usage_error(cmd, "unknown format '%s' (expected blob, raw or unity)", format);
        return EXIT_USAGE;
    }
    if (r->bo.bake.output != BLOBC_OUTPUT_UNITY && (unity_version || unity_length)) {
        usage_error(cmd, "--unity-version and --unity-length go with --format unity");
        return EXIT_USAGE;
    }
    if (r->bo.bake.output == BLOBC_OUTPUT_UNITY && !unity_version) {
        usage_error(cmd, "--format unity needs --unity-version N, the version the loader "
                            "passes to BlobAssetReference<T>.TryRead");
        return EXIT_USAGE;
    }
    if (!parse_unity(cmd, unity_version, unity_length, &r->bo.bake.unity)) {
        return EXIT_USAGE;
    }
    r->bo.max_errors = 20;
    if (max_errors && !parse_count(max_errors, &r->bo.max_errors)) {
        usage_error(cmd, "--max-errors needs a count (0 for no limit), got '%s'", max_errors);
        return EXIT_USAGE;
    }
    blobc_cache_options co;
    blobc_cache_options_default(&co);
    if (server_min_env && server_min_env[0] &&
        !parse_server_min(cmd, "BLOBC_CACHE_SERVER_MIN", server_min_env, &co))
        return EXIT_USAGE;
    if (server_min && !parse_server_min(cmd, "--cache-server-min", server_min, &co)) return EXIT_USAGE;
    if (jobs_arg && !parse_jobs(jobs_arg, &jobs)) {
        usage_error(cmd, "-j needs a number from 1 to 1024, got '%s'", jobs_arg);
        return EXIT_USAGE;
    }
    if (a->noperands == 0) {
        usage_error(cmd, "no input file");
        return EXIT_USAGE;
    }
    const char *outdir = NULL;
    if ((rc = output_dir(cmd, output, a->noperands, &outdir))) return rc;
    r->n = (size_t)a->noperands;
    r->jobs = calloc(r->n, sizeof *r->jobs);
    if (!r->jobs) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < r->n; i++) r->jobs[i].input = a->operands[i];
    if (depfile && r->n > 1) {
        usage_error(cmd, "--depfile names one depfile; with several inputs, --depfiles "
                            "writes OUT.d beside every OUT");
        return EXIT_USAGE;
    }
    /* -s is read once for every input (the threads share it), and still
     * recorded by name in each blob, as a bake of one input records it. */
    if (strcmp(cmd, "watch") != 0) { /* watch reads it again when it changes */
        if ((rc = load_schema(schema, &r->loaded))) return rc;
        r->bo.bake.schema = r->loaded;
    }
    /* The jobs' inputs are not added to the run's: blobc_bake_batch keeps
     * every job's input from being written itself, and one look at each
     * is enough. */
    if ((rc = plan_outputs(r, cmd, output, outdir, depfile, depfiles))) return rc;
    if ((rc = open_cache(r, cmd, no_cache ? NULL : cache, co))) return rc;
    r->quiet = quiet;
    r->show = r->n > 1 && !quiet && blobc_os_stderr_is_terminal() && cli_error_style == BLOBC_STYLE_TEXT;
    r->bo.threads = (unsigned)jobs;
    r->bo.output = cli_output_options();
    r->bo.on_event = bake_print_event;
    r->bo.ctx = r;
    return 0;
}

void bake_free(bake_run *r) {
    if (r->bo.cache) {
        blobc_cache_close(r->bo.cache);
        if (r->http) blobc_http_global_cleanup();
    }
    blobc_schema_free(r->loaded);
    for (size_t i = 0; r->jobs && i < r->n; i++) {
        free((char *)r->jobs[i].output);
        free((char *)r->jobs[i].depfile);
    }
    free(r->jobs);
    free(r->a.operands);
    for (size_t i = 0; i < r->ntables; i++) free((char *)r->tables[i].field);
    free(r->tables);
    free(r->exclude);
    free(r->excluded);
}

/* After a batch the progress line showed, or with -v: what became of
 * its inputs and how long it took. */
static void summary(const bake_run *r, double secs) {
    if (!(r->show || (r->verbose && r->n > 1)) || !r->ndone || cli_error_style != BLOBC_STYLE_TEXT) return;
    size_t ok = r->ndone - r->nfailed;
    fprintf(stderr, "%s bake: %zu of %zu input%s baked", prog, ok, r->n, r->n == 1 ? "" : "s");
    if (r->ncached) fprintf(stderr, " (%zu from the cache)", r->ncached);
    if (r->nfailed) fprintf(stderr, ", %zu failed", r->nfailed);
    if (r->ndone < r->n) fprintf(stderr, ", %zu not baked", r->n - r->ndone);
    fprintf(stderr, ", in %.2f s\n", secs);
}

int cmd_bake(int argc, char **argv) {
    bake_run r;
    int rc = bake_setup("bake", argc, argv, NULL, bake_help, &r);
    if (!rc && !r.help) {
        double t = blobc_os_monotonic();
        rc = exit_code(blobc_bake_batch(r.jobs, r.n, &r.bo, NULL));
        if (r.show) fputs("\r\033[K", stderr);
        summary(&r, blobc_os_monotonic() - t);
    }
    bake_free(&r);
    return rc;
}
