/*
 * verify.c - blobc verify: the CI gate over whole blobs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platform/platform.h"

/* ---- verify ---- */

static const char verify_help[] =
    "Usage: blobc verify [OPTIONS] BLOB...\n"
    "Check blobs completely: header, hashes, type description, and every\n"
    "offset, length, string, bool, enum and padding byte of the data.\n"
    "Exit 0 only if every blob passes.\n"
    "\n"
    "  -s, --schema SCHEMA   also require the layout of SCHEMA's root type\n"
    "                        (needed for stripped blobs), and judge every value\n"
    "                        by SCHEMA's value checks (@range, @len, @match,\n"
    "                        @unique; @path with --assets), as a bake would\n"
    "      --assets DIR      @path names files under DIR (as bake --assets);\n"
    "                        without it @path is not judged\n"
    "      --max-errors N    list at most N failing values per blob (default 20,\n"
    "                        0: all)\n"
    "  -t, --type TYPE       type in SCHEMA to compare with (default: its root)\n"
    "      --format FMT      blob (default) or unity: a Unity blob asset file\n"
    "                        (needs -s; also recognised without --format)\n"
    "      --unity-version N refuse a Unity file of another version\n"
    "      --unity-length R  padded, exact, or a release (default: either)\n"
    "      --json            one JSON object per blob on standard output\n"
    "  -q, --quiet           print nothing for blobs that pass\n"
    "      --against SRC     bake SRC afresh and require BLOB (one) to equal it\n"
    "                        byte for byte; the first differing value is named\n"
    "                        by its path (a CI check for stale committed blobs;\n"
    "                        -s and -t then apply to the bake)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

/* The blob being verified, and (--json) the values that fail its checks. */
typedef struct check_run {
    const char *path;
    bool json;
    blobc_error *failed;
    size_t nfailed, cap;
} check_run;

/* A value that fails a value check: printed as the bake says it (the
 * blob, the value's path, the message; its offset left out), or kept for
 * the blob's JSON line. */
static void on_check(void *ctx, const blobc_error *e) {
    check_run *r = ctx;
    if (r->json) {
        if (r->nfailed == r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 8;
            blobc_error *more = realloc(r->failed, cap * sizeof *more);
            if (!more) return; /* the line then lists those kept */
            r->failed = more;
            r->cap = cap;
        }
        r->failed[r->nfailed++] = *e;
        return;
    }
    blobc_error shown = *e;
    snprintf(shown.file, sizeof shown.file, "%s", r->path);
    shown.has_offset = false;
    report(&shown);
}

/* The blob's JSON line: every failing value when its checks failed. */
static void print_json(const char *path, const blobc_error *err, const check_run *r) {
    blobc_buffer line = {0};
    blobc_error jerr;
    blobc_status st = err->code == BLOBC_V_CHECK && r->nfailed
                          ? blobc_verify_report_json_errors(path, r->failed, r->nfailed, &line, &jerr)
                          : blobc_verify_report_json(path, err, &line, &jerr);
    if (st == BLOBC_OK) fwrite(line.data, 1, line.len, stdout);
    else report(&jerr);
    blobc_buffer_free(&line);
}

/* The options a value check needs, or an exit code. */
static int check_options(const char *assets, const char *max_errors, unsigned *max) {
    blobc_os_info info;
    unsigned long n = 20;
    if (assets && (blobc_os_stat(assets, &info) != 0 || info.kind != BLOBC_OS_DIRECTORY)) {
        usage_error("verify", "--assets '%s' is not a directory", assets);
        return EXIT_USAGE;
    }
    if (max_errors && !cli_parse_uint(max_errors, 1000000000ul, &n)) {
        usage_error("verify", "--max-errors needs a count (0 for no limit), got '%s'", max_errors);
        return EXIT_USAGE;
    }
    *max = (unsigned)n;
    return 0;
}

int cmd_verify(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *against = NULL, *assets = NULL, *max_errors = NULL;
    bool json = false, quiet = false;
    check_run cr = {NULL, false, NULL, 0, 0};
    read_format rf = {0};
    opt opts[] = {
        READ_FORMAT_OPTS(rf),
        {"schema", 's', true, &schema, NULL}, {"type", 't', true, &type, NULL},
        {"json", 0, false, NULL, &json},      {"quiet", 'q', false, NULL, &quiet},
        {"against", 0, true, &against, NULL}, {"assets", 0, true, &assets, NULL},
        {"max-errors", 0, true, &max_errors, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("verify", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    if (a.help) {
        put_help(verify_help);
        goto done;
    }
    if (a.noperands == 0) {
        usage_error("verify", "no blob given");
        rc = EXIT_USAGE;
        goto done;
    }
    if (against) {
        if (a.noperands != 1) {
            usage_error("verify", "--against compares one blob");
            rc = EXIT_USAGE;
        } else {
            rc = verify_against(against, a.operands[0], schema, type);
            if (!rc && !quiet) printf("%s: ok, up to date with %s\n", a.operands[0], against);
        }
        goto done;
    }
    if ((type || assets) && !schema) {
        usage_error("verify", "%s needs -s SCHEMA", type ? "-t" : "--assets");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!parse_read_format("verify", false, &rf)) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (rf.unity && !schema) {
        usage_error("verify", "a Unity file needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    cr.json = json;
    blobc_check_sink sink = {on_check, &cr, 0, 0};
    if ((rc = check_options(assets, max_errors, &sink.max_errors)) != 0) goto done;
    if ((rc = load_schema(schema, &sch)) != 0) goto done;
    blobc_verify_options vo = {0};
    vo.flags = BLOBC_VERIFY_CHECKS;
    vo.assets_dir = assets;
    vo.checks = &sink;
    vo.schema = sch;
    vo.type_name = type;
    vo.unity = rf.unity;
    vo.max_input = cli_max_input;
    for (int i = 0; i < a.noperands; i++) {
        const char *path = a.operands[i];
        blobc_error err;
        blobc_error_clear(&err);
        cr.path = path;
        cr.nfailed = 0;
        sink.suppressed = 0;
        blobc_status st = blobc_verify_file(path, &vo, &err);
        if (st != BLOBC_OK && !err.file[0]) snprintf(err.file, sizeof err.file, "%s", path);
        err.status = st;
        if (json) {
            print_json(path, &err, &cr);
        } else if (st == BLOBC_OK) {
            if (!quiet) printf("%s: ok\n", path);
        } else if (err.code == BLOBC_V_CHECK) {
            /* every failing value is printed already */
            if (sink.suppressed) report_suppressed(path, sink.suppressed);
        } else {
            if (err.code) {
                /* Prefix the stable code so scripts can grep for it. */
                const char *name = blobc_verify_code_name(err.code);
                size_t nl = strlen(name), ml = strlen(err.message);
                if (nl + 2 + ml >= sizeof err.message) ml = sizeof err.message - nl - 3;
                memmove(err.message + nl + 2, err.message, ml);
                memcpy(err.message, name, nl);
                memcpy(err.message + nl, ": ", 2);
                err.message[nl + 2 + ml] = '\0';
            }
            report(&err);
        }
        note_stdout();
        int c = exit_code(st);
        if (c > rc) rc = c;
    }
done:
    free(cr.failed);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}
