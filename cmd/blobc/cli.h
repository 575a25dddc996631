/*
 * cli.h - shared by the command files of the blobc command line: each
 * command is one file with one entry point, and main.c dispatches to it.
 *
 * Exit codes: 0 success, 1 invalid input or failed verification, 2 usage
 * or I/O error.
 */
#ifndef BLOBC_CLI_H
#define BLOBC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "blobc/blobc.h"
#include "blobc/pipeline.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

extern const char *prog;
/* --error-format (every command): how report() writes errors. */
extern blobc_error_style cli_error_style;
/* Writes what report() kept for the end (a SARIF log); main calls it. */
void report_finish(void);
/* blobc completion SHELL: the commands ("bake watch ..."), and a row per
 * command with subcommands ("gen c cpp cs jsonschema"). */
int cmd_completion(int argc, char **argv, const char *commands, const char *const *subs, size_t nsubs);

/* The first n bytes of s as a new string (strndup, which not every C
 * library has); NULL when out of memory. */
char *cli_strndup(const char *s, size_t n);

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

/* printf-like: checked by gcc and clang (C99 printf on MinGW too). */
#if defined(__MINGW32__)
#define CLI_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

CLI_PRINTF(2, 3)
void usage_error(const char *cmd, const char *fmt, ...);
/* "<file>: error: <message>" the way report() prints library errors. */
CLI_PRINTF(2, 3)
void report_msg(const char *file, const char *fmt, ...);
/* "blobc: error: ..." for errors of the command line itself. */
CLI_PRINTF(1, 2)
void cli_error(const char *fmt, ...);
/* Writes to standard output, remembering the first error for finish_stdout. */
void write_stdout(const void *data, size_t len);
/* After printf to standard output: remembers the error if it failed. */
/* A command's --help on standard output (its write error kept). */
void put_help(const char *text);
void note_stdout(void);
/* Flushes and closes standard output; a failure makes the exit code 2. */
int finish_stdout(int rc);
int exit_code(blobc_status st);
/* Prints a library error: one line naming the place, then the source line and a caret. */
void report(const blobc_error *err);
/* "<file>: error: too many errors; stopping here: N more not shown ..."
 * after the --max-errors errors of one input. */
void report_suppressed(const char *file, size_t n);
/* Parses argv into options and operands; on a usage error nothing stays allocated. */
bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a);
/* Loads the schema at path (none when path is NULL); each of its files,
 * the imported ones too, becomes an input no output may replace. 0 or an
 * exit code. */
int load_schema(const char *path, blobc_schema **out);

/* --unity-version and --unity-length (either may be NULL) into *o: the
 * version as a decimal int32, the length rule as "padded", "exact", or an
 * Entities release ("0.17", "1.3": before 0.50 exact, from it padded).
 * False after a usage error. */
bool parse_unity(const char *cmd, const char *version, const char *length,
                 blobc_unity_options *o);

/* The input framing of the reading commands: --format FMT (blob, raw
 * when allowed, unity), --unity-version, --unity-length. `unity` points
 * to `storage` for --format unity or when a --unity-* option is given,
 * else it is NULL and the library recognises a Unity file by content. */
typedef struct read_format {
    const char *format, *unity_version, *unity_length;
    bool raw;
    blobc_unity_options storage;
    const blobc_unity_options *unity;
} read_format;
bool parse_read_format(const char *cmd, bool allow_raw, read_format *rf);
/* The option table rows of read_format, for the commands that read blobs. */
#define READ_FORMAT_OPTS(rf)                                                  \
    {"format", 0, true, &(rf).format, NULL},                                  \
        {"unity-version", 0, true, &(rf).unity_version, NULL},                \
        {"unity-length", 0, true, &(rf).unity_length, NULL}
/* "1048576", "64K", "512M", "1G", "0" -> bytes (K, M, G, T: binary
 * multiples, "KiB" or "KB" too); false for anything else. */
bool cli_parse_size(const char *s, uint64_t *out);
/* A count, port or time: decimal digits only, at most max. */
bool cli_parse_uint(const char *s, unsigned long max, unsigned long *out);
/* --max-input (every command that reads): the limit for inputs that are
 * not regular files. */
extern uint64_t cli_max_input;
/* Text shared by every command's --help. */
#define COMMON_HELP \
    "      --max-input SIZE  read at most SIZE bytes from an input that is not\n" \
    "                        a regular file (K, M, G suffixes; default 1G)\n" \
    "      --color[=WHEN]    colour errors: auto (default; only on a terminal,\n" \
    "                        not with NO_COLOR set), always, never\n" \
    "      --error-format F  errors as text (default), json (a line each),\n" \
    "                        github (Actions annotations) or sarif (a log)\n"

/* Reads a whole input file (malloc'd, the caller frees) up to --max-input;
 * 0 or an exit code after reporting why not. A .blob (when `blob`) from a
 * pipe is read up to the file size its header records, or the header
 * alone when it is not a blob. */
int read_blob_input(const char *path, bool blob, uint8_t **bytes, size_t *len);
/* Loads a schema file, or the type description embedded in a .blob (told
 * apart by the blob magic; *is_blob says which). A stripped blob is an
 * error (exit 1) saying to pass its schema. 0 or an exit code. */
int load_schema_or_blob(const char *path, blobc_schema **out, bool *is_blob);
/* The type `name` of sch (NULL: its root), which must be a struct; NULL
 * after printing why. */
const blobc_type *pick_type(const char *cmd, const blobc_schema *sch, const char *path,
                            const char *name);

/* The run's inputs: no output may replace one of them. */
int add_input(const char *path);             /* 0 or an exit code */
void free_inputs(void);

/* Removes a named temporary output file when a signal ends the run. */
void install_signal_handlers(void);
/* Writes buf to path through the library's output rules (refusing the
 * run's inputs); 0 or an exit code. */
int write_output(const char *path, const blobc_buffer *buf);
/* How the command writes files: the run's inputs refused, named
 * temporaries removed by a signal. */
blobc_output_options cli_output_options(void);

/* blobc verify --against (against.c): 0 when BLOB equals a fresh bake of
 * SRC, else an exit code after naming the first difference. */
int verify_against(const char *src, const char *blob, const char *schema, const char *type);

/* ---- a batch bake (bake.c), which watch.c runs again and again ---- */
typedef struct bake_run {
    blobc_batch_options bo;  /* bo.bake is shared by every input */
    blobc_job *jobs;         /* per input; output and depfile malloc'd */
    size_t n;
    bool verbose, quiet;
    bool show;               /* the progress line */
    size_t ndone;            /* inputs over, for the progress line */
    size_t ncached, nfailed; /* of them: from the cache, failed (the summary) */
    const char *current;     /* the input last taken up */
    blobc_schema *loaded;    /* -s, read once (not by watch) */
    bool http;               /* a server may be asked: libcurl was set up */
    bool help;               /* --help was shown */
    blobc_bake_table *tables; /* every --table FIELD=FILE; the first is the input */
    size_t ntables;
    const char *first_table; /* the first one's FILE: the one input */
    char *exclude;           /* --exclude-tags' copy, cut at its commas */
    const char **excluded;   /* the tags in it */
    args a;
} bake_run;
/* Reads bake's options and the command's `extra` rows (NULL-terminated,
 * or NULL), and sets up the run: jobs, outputs, the cache. 0 or an exit
 * code; bake_free in every case. */
int bake_setup(const char *cmd, int argc, char **argv, const opt *extra, const char *help,
               bake_run *r);
void bake_free(bake_run *r);
/* An event of the batch as blobc bake prints it (ctx: the bake_run). */
void bake_print_event(void *ctx, const blobc_event *ev);
/* bake's options, in every batch command's --help. */
#define BATCH_HELP \
    "  -s, --schema SCHEMA   schema file (overrides the data's $schema)\n" \
    "  -t, --type TYPE       root type (overrides $type and the schema's root)\n" \
    "  -o, --output OUT      output file ('-' for stdout), or the directory to\n" \
    "                        write into: one that exists, a name ending in '/',\n" \
    "                        or any name with several inputs\n" \
    "      --format FMT      blob (default), raw (the data section alone), or\n" \
    "                        unity (what BlobAssetReference<T>.TryRead loads)\n" \
    "      --unity-version N the int32 version the loader passes to TryRead\n" \
    "                        (required with --format unity)\n" \
    "      --unity-length R  padded (default: Entities 0.50 and later), exact\n" \
    "                        (0.17 and earlier), or a release number (0.17, 1.3)\n" \
    "      --input FMT       read every input as yaml, json, csv or tsv\n" \
    "                        (default: by extension, else by content)\n" \
    "      --table FIELD     CSV and TSV: the root's list the rows fill\n" \
    "                        (default: its only list of structs)\n" \
    "      --table FIELD=FILE  several tables of one root, in place of INPUT:\n" \
    "                        FILE's rows fill FIELD (give one for each)\n" \
    "      --strip           leave the embedded type description out\n" \
    "      --warn-unknown    warn of each key an @open struct skips\n" \
    "      --assets DIR      the root @path checks look under (default: the\n" \
    "                        current directory)\n" \
    "      --exclude-tags T,U  leave out the items whose $tags hold T or U\n" \
    "      --strings FILE    the string table (CSV or TSV) of the schema's text\n" \
    "                        fields: every key must be in it\n" \
    "      --lang LANG       bake each text as the table's LANG column\n" \
    "      --one-thread      never parse on a second thread (by default YAML of\n" \
    "                        1 MiB or more is parsed on one while the other bakes)\n" \
    "  -j, --jobs N          bake N inputs at a time (default: the number of cores)\n" \
    "  -q, --quiet           no progress line\n" \
    "  -v, --verbose         name each output as it is written, and say\n" \
    "                        'cached' when it came from the cache; then a summary\n" \
    "      --depfile FILE    write a make/ninja depfile for the output: the\n" \
    "                        input and every schema file read (one input)\n" \
    "      --depfiles        with several inputs: OUT.d beside every OUT\n" \
    "      --cache DIR|URL   take outputs from, and put them into, a cache: a\n" \
    "                        directory or an HTTP server, or 'DIR URL' to ask a\n" \
    "                        local directory first (default: $BLOBC_CACHE); a\n" \
    "                        server's user name and password: in ~/.netrc\n" \
    "      --cache-server-min SIZE|yaml=SIZE,json=SIZE\n" \
    "                        ask a cache server only for inputs of SIZE bytes\n" \
    "                        or more (K, M suffixes; 0: all); smaller ones are\n" \
    "                        baked, a local cache directory still used\n" \
    "                        (default: $BLOBC_CACHE_SERVER_MIN, else\n" \
    "                        yaml=256K,json=2M)\n" \
    "      --no-cache        do not use a cache, whatever BLOBC_CACHE says\n" \
    "      --max-errors N    report up to N errors per input, in document order\n" \
    "                        (default 20; 0: no limit); a syntax error comes alone\n"

int cmd_bake(int argc, char **argv);
int cmd_watch(int argc, char **argv);
/* What `dump` and `size` were asked (dump.c runs both). */
typedef struct dump_req {
    const char *cmd, *schema, *type, *output, *depth;
    bool json, map, html, raw, size;
    read_format rf;
} dump_req;
int run_dump(dump_req *q, opt *opts, const char *help, int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_size(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_compat(int argc, char **argv);
int cmd_upgrade(int argc, char **argv);
int cmd_cache(int argc, char **argv);

#endif
