/*
 * main.c - the blobc command line. It parses arguments, calls the library
 * and reports: every command is a thin layer over lib/, so an engine's own
 * tools can do the same by linking libblobc.
 *
 * Exit codes: 0 success, 1 invalid input or failed verification, 2 usage
 * or I/O error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blobc/blobc.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static const char *prog = "blobc";

static void usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s%s: ", prog, cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s%s%s --help' for more information.\n", prog, cmd ? " " : "", cmd ? cmd : "");
}

static int exit_code(blobc_status st) {
    switch (st) {
    case BLOBC_OK: return 0;
    case BLOBC_EINPUT: return EXIT_INPUT;
    default: return EXIT_USAGE;
    }
}

/* Prints a library error the way compilers do: one line naming the place,
 * then the offending source line and a caret when known. */
static void report(const blobc_error *err) {
    char small[2048];
    size_t n = blobc_error_format(err, small, sizeof small);
    if (n < sizeof small) {
        fprintf(stderr, "%s\n", small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        fprintf(stderr, "%s\n", small);
        return;
    }
    blobc_error_format(err, big, n + 1);
    fprintf(stderr, "%s\n", big);
    free(big);
}

/* ---- argument parsing ----
 * Options may come before or after operands; "--" ends options. A value
 * is given as "-s X", "-sX", "--schema X" or "--schema=X". */

typedef struct opt {
    const char *longname;
    char shortname;
    bool takes_value;
    const char **value; /* for options with a value */
    bool *flag;         /* for switches */
} opt;

typedef struct args {
    const char *cmd;
    const char **operands;
    int noperands;
    bool help;
} args;

static bool parse_args_inner(const char *cmd, int argc, char **argv, opt *opts, args *a) {
    a->cmd = cmd;
    a->operands = calloc((size_t)argc + 1, sizeof *a->operands);
    a->noperands = 0;
    a->help = false;
    if (!a->operands) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return false;
    }
    bool only_operands = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (only_operands || arg[0] != '-' || strcmp(arg, "-") == 0) {
            a->operands[a->noperands++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_operands = true;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            continue;
        }
        opt *o = NULL;
        const char *inline_value = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (opt *p = opts; p && p->longname; p++)
                if (strlen(p->longname) == len && strncmp(p->longname, name, len) == 0) o = p;
            if (o && eq) {
                if (!o->takes_value) {
                    usage_error(cmd, "option '--%s' takes no value", o->longname);
                    return false;
                }
                inline_value = eq + 1;
            }
        } else {
            for (opt *p = opts; p && p->longname; p++)
                if (p->shortname && p->shortname == arg[1]) o = p;
            if (o && arg[2]) {
                if (!o->takes_value) o = NULL;
                else inline_value = arg + 2;
            }
        }
        if (!o) {
            usage_error(cmd, "unknown option '%s'", arg);
            return false;
        }
        if (!o->takes_value) {
            *o->flag = true;
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= argc) {
                usage_error(cmd, "option '%s' needs a value", arg);
                return false;
            }
            inline_value = argv[++i];
        }
        *o->value = inline_value;
    }
    return true;
}

/* Parses argv into options and operands; on a usage error nothing stays allocated. */
static bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a) {
    if (parse_args_inner(cmd, argc, argv, opts, a)) return true;
    free(a->operands);
    a->operands = NULL;
    return false;
}

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
    "  -h, --help            show this help\n"
    "\n"
    "Without -o, INPUT's extension is replaced by .blob (.bin for --format raw).\n"
    "The input format is chosen by extension (.yaml, .yml, .json), else by content.\n"
    "Output is written to a temporary file and renamed into place on success.\n";

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (strcmp(a, b) == 0) return true;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

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

static int write_output(const char *path, const blobc_buffer *buf) {
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_write_file_atomic(path, buf->data, buf->len, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

static int cmd_bake(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *output = NULL, *format = NULL;
    bool strip = false, one_thread = false;
    opt opts[] = {
        {"schema", 's', true, &schema, NULL},
        {"type", 't', true, &type, NULL},
        {"output", 'o', true, &output, NULL},
        {"format", 0, true, &format, NULL},
        {"strip", 0, false, NULL, &strip},
        {"one-thread", 0, false, NULL, &one_thread},
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
    const char *ext = bo.output == BLOBC_OUTPUT_RAW ? ".bin" : ".blob";
    for (int i = 0; i < a.noperands; i++) {
        const char *in = a.operands[i];
        char *out = (output && !outdir) ? NULL : output_name(in, outdir, ext);
        const char *outpath = out ? out : output;
        if (!outpath) {
            fprintf(stderr, "%s: out of memory\n", prog);
            rc = EXIT_USAGE;
            break;
        }
        if (strcmp(in, "-") == 0 && !output) {
            usage_error("bake", "reading standard input needs -o");
            rc = EXIT_USAGE;
            free(out);
            continue;
        }
        /* The library refuses to write over this input or its schema; with
         * several inputs, one output must not replace another input either. */
        bool clash = false;
        for (int j = 0; j < a.noperands && strcmp(outpath, "-") != 0; j++)
            if (same_file(outpath, a.operands[j])) clash = true;
        if (clash) {
            fprintf(stderr, "%s: error: refusing to overwrite input file '%s'\n", in, outpath);
            rc = rc ? rc : EXIT_USAGE;
            free(out);
            continue;
        }
        blobc_buffer buf = {0};
        blobc_error err;
        blobc_error_clear(&err);
        bo.output_path = outpath;
        blobc_status st = blobc_bake_file(in, &bo, &buf, &err);
        if (st != BLOBC_OK) {
            report(&err);
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

/* ---- schema loading shared by the reading commands ---- */

static int load_schema(const char *path, blobc_schema **out) {
    *out = NULL;
    if (!path) return 0;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_load(path, out, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

/* ---- dump ---- */

static const char dump_help[] =
    "Usage: blobc dump [OPTIONS] BLOB\n"
    "Print a blob as YAML (default), JSON, or a byte-level layout map.\n"
    "The blob is verified first; a blob that fails is not printed (a --map\n"
    "shows it as far as it is sound and marks the failure).\n"
    "\n"
    "  -s, --schema SCHEMA   schema for stripped blobs and raw data sections\n"
    "  -t, --type TYPE       root type in SCHEMA (default: its root)\n"
    "      --raw             BLOB is a raw data section (needs -s)\n"
    "      --json            print JSON instead of YAML\n"
    "      --map             print the layout: offset, size, bytes, value, path\n"
    "  -o, --output FILE     write to FILE instead of standard output\n"
    "  -h, --help            show this help\n";

static int cmd_dump(int argc, char **argv) {
    const char *schema = NULL, *type = NULL, *output = NULL;
    bool json = false, map = false, raw = false;
    opt opts[] = {
        {"schema", 's', true, &schema, NULL}, {"type", 't', true, &type, NULL},
        {"output", 'o', true, &output, NULL}, {"json", 0, false, NULL, &json},
        {"map", 0, false, NULL, &map},        {"raw", 0, false, NULL, &raw},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("dump", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    uint8_t *bytes = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        fputs(dump_help, stdout);
        goto done;
    }
    if (a.noperands != 1) {
        usage_error("dump", a.noperands ? "expected one blob, got %d" : "no blob given",
                    a.noperands);
        rc = EXIT_USAGE;
        goto done;
    }
    if (json && map) {
        usage_error("dump", "--json and --map are exclusive");
        rc = EXIT_USAGE;
        goto done;
    }
    if (raw && !schema) {
        usage_error("dump", "--raw needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if (type && !schema) {
        usage_error("dump", "-t needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(schema, &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    size_t len = 0;
    if (blobc_read_file(a.operands[0], &bytes, &len, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    blobc_dump_options dopt = {0};
    dopt.format = json ? BLOBC_DUMP_JSON : map ? BLOBC_DUMP_MAP : BLOBC_DUMP_YAML;
    dopt.schema = sch;
    dopt.type_name = type;
    dopt.schema_name = schema;
    dopt.raw = raw;
    blobc_status st = blobc_dump(bytes, len, &dopt, &buf, &err);
    if (st != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", a.operands[0]);
        /* A map is printed even for a bad blob, up to the failure. */
        if (map && buf.len) fwrite(buf.data, 1, buf.len, stdout);
        report(&err);
        rc = exit_code(st);
        goto done;
    }
    if (output) {
        rc = write_output(output, &buf);
    } else if (fwrite(buf.data, 1, buf.len, stdout) != buf.len || fflush(stdout) != 0) {
        fprintf(stderr, "%s: cannot write standard output: %s\n", prog, strerror(errno));
        rc = EXIT_USAGE;
    }
done:
    blobc_buffer_free(&buf);
    free(bytes);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}

/* ---- verify ---- */

static const char verify_help[] =
    "Usage: blobc verify [OPTIONS] BLOB...\n"
    "Check blobs completely: header, hashes, type description, and every\n"
    "offset, length, string, bool, enum and padding byte of the data.\n"
    "Exit 0 only if every blob passes.\n"
    "\n"
    "  -s, --schema SCHEMA   also require the layout of SCHEMA's root type\n"
    "                        (needed for stripped blobs)\n"
    "  -t, --type TYPE       type in SCHEMA to compare with (default: its root)\n"
    "      --json            one JSON object per blob on standard output\n"
    "  -q, --quiet           print nothing for blobs that pass\n"
    "  -h, --help            show this help\n";

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

static int cmd_verify(int argc, char **argv) {
    const char *schema = NULL, *type = NULL;
    bool json = false, quiet = false;
    opt opts[] = {
        {"schema", 's', true, &schema, NULL}, {"type", 't', true, &type, NULL},
        {"json", 0, false, NULL, &json},      {"quiet", 'q', false, NULL, &quiet},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("verify", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    if (a.help) {
        fputs(verify_help, stdout);
        goto done;
    }
    if (a.noperands == 0) {
        usage_error("verify", "no blob given");
        rc = EXIT_USAGE;
        goto done;
    }
    if (type && !schema) {
        usage_error("verify", "-t needs -s SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(schema, &sch)) != 0) goto done;
    blobc_verify_options vo = {0};
    vo.schema = sch;
    vo.type_name = type;
    for (int i = 0; i < a.noperands; i++) {
        const char *path = a.operands[i];
        blobc_error err;
        blobc_error_clear(&err);
        blobc_status st = blobc_verify_file(path, &vo, &err);
        if (st != BLOBC_OK && !err.file[0]) snprintf(err.file, sizeof err.file, "%s", path);
        if (json) {
            printf("{\"file\":");
            json_string(stdout, path);
            printf(",\"ok\":%s,\"errors\":[", st == BLOBC_OK ? "true" : "false");
            if (st != BLOBC_OK) {
                printf("{\"code\":");
                json_string(stdout, err.code ? blobc_verify_code_name(err.code)
                                             : (st == BLOBC_EINPUT ? "invalid" : "io"));
                if (err.has_offset) printf(",\"offset\":%llu", (unsigned long long)err.offset);
                else printf(",\"offset\":null");
                printf(",\"path\":");
                json_string(stdout, err.path);
                printf(",\"message\":");
                json_string(stdout, err.message);
                printf("}");
            }
            printf("]}\n");
        } else if (st == BLOBC_OK) {
            if (!quiet) printf("%s: ok\n", path);
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
        int c = exit_code(st);
        if (c > rc) rc = c;
    }
    fflush(stdout);
done:
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}

/* ---- check ---- */

static const char check_help[] =
    "Usage: blobc check SCHEMA\n"
    "Parse and lint a schema; print each type's size, alignment and layout.\n";

static int cmd_check(int argc, char **argv) {
    args a;
    if (!parse_args("check", argc, argv, NULL, &a)) return EXIT_USAGE;
    int rc = 0;
    blobc_schema *sch = NULL;
    blobc_buffer buf = {0};
    if (a.help) {
        fputs(check_help, stdout);
        goto done;
    }
    if (a.noperands != 1) {
        usage_error("check", a.noperands ? "expected one schema" : "no schema given");
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(a.operands[0], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_report(sch, &buf, &err) != BLOBC_OK) {
        report(&err);
        rc = exit_code(err.status);
        goto done;
    }
    fwrite(buf.data, 1, buf.len, stdout);
done:
    blobc_buffer_free(&buf);
    blobc_schema_free(sch);
    free(a.operands);
    return rc;
}

/* ---- gen ---- */

static const char gen_help[] =
    "Usage: blobc gen c SCHEMA [-o FILE]\n"
    "Generate a C11/C++17 header that reads blobs of SCHEMA in place.\n"
    "\n"
    "  -o, --output FILE     write to FILE instead of standard output\n"
    "  -h, --help            show this help\n";

static int cmd_gen(int argc, char **argv) {
    const char *output = NULL;
    opt opts[] = {{"output", 'o', true, &output, NULL}, {NULL, 0, false, NULL, NULL}};
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
        usage_error("gen", "expected a language and a schema: gen c SCHEMA");
        rc = EXIT_USAGE;
        goto done;
    }
    if (strcmp(a.operands[0], "c") != 0) {
        usage_error("gen", "unknown language '%s' (available: c)", a.operands[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = load_schema(a.operands[1], &sch)) != 0) goto done;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_gen_c(sch, NULL, &buf, &err) != BLOBC_OK) {
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

/* ---- main ---- */

static const char main_help[] =
    "Usage: blobc COMMAND [OPTIONS] [ARGS]\n"
    "Bake YAML/JSON data into relocatable .blob images, and read them back.\n"
    "\n"
    "Commands:\n"
    "  bake     bake data files into blobs\n"
    "  dump     print a blob as YAML, JSON, or a layout map\n"
    "  verify   check blobs completely (a CI gate)\n"
    "  check    parse a schema and print its layout\n"
    "  gen c    generate a C header that reads blobs in place\n"
    "\n"
    "Options:\n"
    "  -h, --help      show this help ('blobc COMMAND --help' for a command)\n"
    "  -V, --version   show the version\n"
    "\n"
    "Exit status: 0 success, 1 invalid input or failed verification,\n"
    "2 usage or I/O error. See blobc(1).\n";

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("blobc %s (blob format %u)\n", blobc_version(), (unsigned)BLOBC_FORMAT_VERSION);
        return 0;
    }
    if (strcmp(cmd, "bake") == 0) return cmd_bake(argc - 2, argv + 2);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc - 2, argv + 2);
    if (strcmp(cmd, "verify") == 0) return cmd_verify(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
    if (strcmp(cmd, "gen") == 0) return cmd_gen(argc - 2, argv + 2);
    usage_error(NULL, "unknown command '%s'", cmd);
    return EXIT_USAGE;
}
