/*
 * bake.c - blobc bake: data files in, blobs out.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* ---- bake ---- */

static const char bake_help[] =
    "Usage: blobc bake [OPTIONS] INPUT...\n"
    "Bake YAML or JSON data into a .blob.\n"
    "\n"
    "  -s, --schema SCHEMA   schema file (overrides the data's $schema)\n"
    "  -t, --type TYPE       root type (overrides $type and the schema's root)\n"
    "  -o, --output OUT      output file ('-' for stdout); with several inputs,\n"
    "                        an existing directory to write into\n"
    "      --format FMT      blob (default) or raw (the data section alone)\n"
    "      --strip           leave the embedded type description out\n"
    "      --one-thread      never parse on a second thread (by default YAML of\n"
    "                        1 MiB or more is parsed on one while the other bakes)\n"
    "      --max-errors N    report up to N errors per input, in document order\n"
    "                        (default 20; 0: no limit); a syntax error comes alone\n"
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "Without -o, INPUT's extension is replaced by .blob (.bin for --format raw).\n"
    "The input format is chosen by extension (.yaml, .yml, .json), else by content.\n"
    "A file is written to a temporary file and renamed into place on success;\n"
    "a device or FIFO is written in place; an output that is an input of the\n"
    "run is refused (blobc(1), OUTPUT FILES).\n";

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "dir/level.yaml" -> "<outdir or dir>/level.blob" */
static char *output_name(const char *input, const char *outdir, const char *ext) {
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t dirlen = outdir ? strlen(outdir) : (size_t)(base - input);
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t n = dirlen + 1 + stem + strlen(ext) + 1;
    char *out = malloc(n);
    if (!out) return NULL;
    if (outdir) {
        bool slash = dirlen && outdir[dirlen - 1] == '/';
        snprintf(out, n, "%s%s%.*s%s", outdir, slash ? "" : "/", (int)stem, base, ext);
    } else {
        snprintf(out, n, "%.*s%.*s%s", (int)dirlen, input, (int)stem, base, ext);
    }
    return out;
}


/* The errors of one input, printed as the bake hands them over. */
static void print_diag(void *ctx, const blobc_error *e) {
    ++*(size_t *)ctx;
    report(e);
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

int cmd_bake(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *output = NULL, *format = NULL, *max_errors = NULL;
    bool strip = false, one_thread = false;
    opt opts[] = {
        {"schema", 's', true, &schema, NULL},
        {"type", 't', true, &type, NULL},
        {"output", 'o', true, &output, NULL},
        {"format", 0, true, &format, NULL},
        {"strip", 0, false, NULL, &strip},
        {"one-thread", 0, false, NULL, &one_thread},
        {"max-errors", 0, true, &max_errors, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("bake", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    if (a.help) {
        fputs(bake_help, stdout);
        goto done;
    }
    blobc_bake_options bo = {0};
    bo.schema_path = schema;
    bo.type_name = type;
    bo.strip = strip;
    bo.one_thread = one_thread;
    bo.max_input = cli_max_input;
    size_t printed = 0;
    blobc_diag_sink sink = {print_diag, &printed, 20, 0};
    if (max_errors && !parse_count(max_errors, &sink.max_errors)) {
        usage_error("bake", "--max-errors needs a count (0 for no limit), got '%s'", max_errors);
        rc = EXIT_USAGE;
        goto done;
    }
    bo.diag = &sink;
    if (format && strcmp(format, "raw") == 0) bo.output = BLOBC_OUTPUT_RAW;
    else if (format && strcmp(format, "blob") != 0) {
        usage_error("bake", "unknown format '%s' (expected blob or raw)", format);
        rc = EXIT_USAGE;
        goto done;
    }
    if (a.noperands == 0) {
        usage_error("bake", "no input file");
        rc = EXIT_USAGE;
        goto done;
    }
    const char *outdir = NULL;
    if (a.noperands > 1 && output) {
        if (!is_dir(output)) {
            usage_error("bake", "with several inputs, -o must name an existing directory");
            rc = EXIT_USAGE;
            goto done;
        }
        outdir = output;
    } else if (output && is_dir(output)) {
        outdir = output;
    }
    for (int i = 0; i < a.noperands && !rc; i++) rc = add_input(a.operands[i]);
    if (!rc && schema) rc = add_input(schema);
    if (rc) goto done;
    const char *ext = bo.output == BLOBC_OUTPUT_RAW ? ".bin" : ".blob";
    for (int i = 0; i < a.noperands; i++) {
        const char *in = a.operands[i];
        char *out = (output && !outdir) ? NULL : output_name(in, outdir, ext);
        const char *outpath = out ? out : output;
        if (!outpath) {
            cli_error("out of memory");
            rc = EXIT_USAGE;
            break;
        }
        if (strcmp(in, "-") == 0 && !output) {
            usage_error("bake", "reading standard input needs -o");
            rc = EXIT_USAGE;
            free(out);
            continue;
        }
        /* Refused before baking; write_output checks again when writing.
         * With several inputs, one output must not replace another input. */
        const char *clash = strcmp(outpath, "-") != 0 ? input_of(outpath) : NULL;
        if (clash) {
            report_refusal(clash, outpath);
            rc = rc ? rc : EXIT_USAGE;
            free(out);
            continue;
        }
        blobc_buffer buf = {0};
        blobc_error err;
        blobc_error_clear(&err);
        bo.output_path = outpath;
        printed = 0;
        sink.suppressed = 0;
        blobc_status st = blobc_bake_file(in, &bo, &buf, &err);
        if (st != BLOBC_OK) {
            /* the sink printed the errors of the data; others come here */
            if (printed == 0) report(&err);
            if (sink.suppressed)
                fprintf(stderr,
                        "%s: error: too many errors; stopping here: %zu more not shown "
                        "(--max-errors 0 shows all)\n",
                        err.file[0] ? err.file : in, sink.suppressed);
            int c = exit_code(st);
            if (c > rc) rc = c;
        } else {
            int c = write_output(outpath, &buf);
            if (c > rc) rc = c;
        }
        blobc_buffer_free(&buf);
        free(out);
    }
done:
    free(a.operands);
    return rc;
}
