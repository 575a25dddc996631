/*
 * dump.c - blobc dump: a blob printed as YAML, JSON or a layout map; the
 * run size.c shares (the same reading of a blob, another format).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- dump ---- */

static const char dump_help[] =
    "Usage: blobc dump [OPTIONS] BLOB\n"
    "Print a blob as YAML (default), JSON, a byte-level layout map, or an\n"
    "HTML page to explore it in a browser.\n"
    "The blob is verified first; a blob that fails is not printed (a --map\n"
    "shows it as far as it is sound and marks the failure).\n"
    "\n"
    "  -s, --schema SCHEMA   schema for stripped blobs and raw data sections\n"
    "  -t, --type TYPE       root type in SCHEMA (default: its root)\n"
    "      --format FMT      blob (default), raw (a data section alone, = --raw)\n"
    "                        or unity (a Unity blob asset file); raw and unity\n"
    "                        need -s. A Unity file is also recognised unnamed.\n"
    "      --raw             BLOB is a raw data section (needs -s)\n"
    "      --unity-version N refuse a Unity file of another version\n"
    "      --unity-length R  padded, exact, or a release (default: either)\n"
    "      --json            print JSON instead of YAML\n"
    "      --map             print the layout: offset, size, bytes, value, path\n"
    "      --html            write one self-contained HTML page: the blob as a\n"
    "                        coloured byte map with its structure (hover for\n"
    "                        path and value, click an offset to jump to its\n"
    "                        target) and a treemap of where the bytes go\n"
    "  -o, --output FILE     write to FILE instead of standard output (never\n"
    "                        BLOB itself; see blobc(1), OUTPUT FILES)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

/* Text to standard output goes out as it is made, in pieces. */
static void to_stdout(void *ctx, const void *bytes, size_t len) {
    (void)ctx;
    write_stdout(bytes, len);
}

/* A YAML or JSON dump to a file, made as the file is written: its text is
 * never whole in memory, and a failure leaves no file. */
typedef struct to_file {
    const uint8_t *bytes;
    size_t len;
    blobc_dump_options opts;
    bool (*put)(void *to, const void *bytes, size_t len);
    void *to;
} to_file;

static void piece(void *ctx, const void *bytes, size_t len) {
    to_file *f = ctx;
    f->put(f->to, bytes, len); /* a failed write is the output rules' to report */
}

static blobc_status produce_dump(void *ctx, bool (*put)(void *to, const void *bytes, size_t len),
                                 void *to, blobc_error *err) {
    to_file *f = ctx;
    f->put = put;
    f->to = to;
    f->opts.write = piece;
    f->opts.write_ctx = f;
    blobc_buffer rest = {0}; /* holds a piece at a time */
    blobc_status st = blobc_dump(f->bytes, f->len, &f->opts, &rest, err);
    blobc_buffer_free(&rest);
    return st;
}

/* The checks both commands share; 0 or an exit code. */
static int check_req(dump_req *q, args *a, blobc_dump_options *d) {
    if (a->noperands != 1) {
        usage_error(q->cmd, a->noperands ? "expected one blob, got %d" : "no blob given", a->noperands);
        return EXIT_USAGE;
    }
    if (q->json + q->map + q->html > 1) {
        usage_error(q->cmd, "--json, --map and --html are exclusive");
        return EXIT_USAGE;
    }
    if (q->depth) {
        unsigned long v;
        if (!cli_parse_uint(q->depth, BLOBC_SIZE_DEPTH_MAX, &v) || v < 1) {
            usage_error(q->cmd, "--depth wants a number of field steps from 1 to %d, got '%s'",
                        BLOBC_SIZE_DEPTH_MAX, q->depth);
            return EXIT_USAGE;
        }
        d->size_depth = (uint32_t)v;
    }
    q->rf.raw = q->raw;
    if (!parse_read_format(q->cmd, true, &q->rf)) return EXIT_USAGE;
    q->raw = q->rf.raw;
    if ((q->raw || q->rf.unity) && !q->schema) {
        usage_error(q->cmd, "%s needs -s SCHEMA", q->raw ? "a raw data section" : "a Unity file");
        return EXIT_USAGE;
    }
    if (q->type && !q->schema) {
        usage_error(q->cmd, "-t needs -s SCHEMA");
        return EXIT_USAGE;
    }
    d->format = q->size ? (q->json ? BLOBC_DUMP_SIZE_JSON : BLOBC_DUMP_SIZE)
                : q->json ? BLOBC_DUMP_JSON : q->map ? BLOBC_DUMP_MAP
                : q->html ? BLOBC_DUMP_HTML : BLOBC_DUMP_YAML;
    d->type_name = q->type;
    d->schema_name = q->schema;
    d->raw = q->raw;
    d->unity = q->rf.unity;
    /* a file is written whole, so that it appears complete or not at all */
    if (!q->output && !q->html && !q->size) d->write = to_stdout;
    return 0;
}

int run_dump(dump_req *q, opt *opts, const char *help, int argc, char **argv) {
    args a;
    if (!parse_args(q->cmd, argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    uint8_t *bytes = NULL;
    blobc_buffer buf = {0};
    blobc_dump_options dopt = {0};
    if (a.help) {
        put_help(help);
        goto done;
    }
    if ((rc = check_req(q, &a, &dopt)) != 0) goto done;
    if ((rc = add_input(a.operands[0])) != 0 || (q->schema && (rc = add_input(q->schema)) != 0))
        goto done;
    if ((rc = load_schema(q->schema, &sch)) != 0) goto done;
    size_t len = 0;
    /* A blob from a pipe stops at its recorded size (not --raw: no header). */
    if ((rc = read_blob_input(a.operands[0], !q->raw, &bytes, &len)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    dopt.schema = sch;
    if (q->output && (dopt.format == BLOBC_DUMP_YAML || dopt.format == BLOBC_DUMP_JSON)) {
        to_file f = {bytes, len, dopt, NULL, NULL};
        blobc_output_options o = cli_output_options();
        if (blobc_write_output_from(q->output, produce_dump, &f, &o, &err) != BLOBC_OK) {
            if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", a.operands[0]);
            report(&err);
            rc = exit_code(err.status);
        }
        goto done;
    }
    blobc_status st = blobc_dump(bytes, len, &dopt, &buf, &err);
    if (st != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", a.operands[0]);
        /* A map is printed even for a bad blob, up to the failure. */
        if (q->map && buf.len) write_stdout(buf.data, buf.len);
        report(&err);
        rc = exit_code(st);
        goto done;
    }
    /* A failed write to standard output is found when main closes it. */
    if (q->output) rc = write_output(q->output, &buf);
    else write_stdout(buf.data, buf.len);
done:
    blobc_buffer_free(&buf);
    free(bytes);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}

int cmd_dump(int argc, char **argv) {
    dump_req q = {.cmd = "dump"};
    opt opts[] = {
        READ_FORMAT_OPTS(q.rf),
        {"schema", 's', true, &q.schema, NULL}, {"type", 't', true, &q.type, NULL},
        {"output", 'o', true, &q.output, NULL}, {"json", 0, false, NULL, &q.json},
        {"map", 0, false, NULL, &q.map},        {"raw", 0, false, NULL, &q.raw},
        {"html", 0, false, NULL, &q.html},      {NULL, 0, false, NULL, NULL},
    };
    return run_dump(&q, opts, dump_help, argc, argv);
}
