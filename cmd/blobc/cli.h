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

#include "blobc/blobc.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

extern const char *prog;

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

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void usage_error(const char *cmd, const char *fmt, ...);
int exit_code(blobc_status st);
/* Prints a library error: one line naming the place, then the source line and a caret. */
void report(const blobc_error *err);
/* Parses argv into options and operands; on a usage error nothing stays allocated. */
bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a);
/* Loads the schema at path (none when path is NULL); 0 or an exit code. */
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

/* Writes buf to path through the library's output rules; 0 or an exit code. */
int write_output(const char *path, const blobc_buffer *buf);

int cmd_bake(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
