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
/* "<input>: error: refusing to overwrite input file '<output>'". */
void report_refusal(const char *input, const char *output);
/* "blobc: error: ..." for errors of the command line itself. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
void cli_error(const char *fmt, ...);
/* Writes to standard output, remembering the first error for finish_stdout. */
void write_stdout(const void *data, size_t len);
/* After printf to standard output: remembers the error if it failed. */
void note_stdout(void);
/* Flushes and closes standard output; a failure makes the exit code 2. */
int finish_stdout(int rc);
int exit_code(blobc_status st);
/* Prints a library error: one line naming the place, then the source line and a caret. */
void report(const blobc_error *err);
/* Parses argv into options and operands; on a usage error nothing stays allocated. */
bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a);
/* Loads the schema at path (none when path is NULL); 0 or an exit code. */
int load_schema(const char *path, blobc_schema **out);

/* --max-input (every command that reads): the limit for inputs that are
 * not regular files. */
extern uint64_t cli_max_input;
/* Text shared by every command's --help. */
#define COMMON_HELP \
    "      --max-input SIZE  read at most SIZE bytes from an input that is not\n" \
    "                        a regular file (K, M, G suffixes; default 1G)\n" \
    "      --color[=WHEN]    colour errors: auto (default; only on a terminal,\n" \
    "                        not with NO_COLOR set), always, never\n"

/* The run's inputs: no output may replace one of them. */
int add_input(const char *path);             /* 0 or an exit code */
const char *input_of(const char *path);      /* the input `path` is, or NULL */
void free_inputs(void);

/* Removes a named temporary output file when a signal ends the run. */
void install_signal_handlers(void);
/* Writes buf to path through the library's output rules (refusing the
 * run's inputs); 0 or an exit code. */
int write_output(const char *path, const blobc_buffer *buf);

int cmd_bake(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
