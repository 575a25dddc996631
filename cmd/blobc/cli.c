/*
 * cli.c - what every command of the blobc command line shares: argument
 * parsing and the options of every command (--color, --max-input), exit
 * codes, reporting library errors the way compilers do (in gcc's colours
 * on a terminal), the run's inputs that no output may replace, writing
 * outputs, and removing a named temporary file when a signal ends the run.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platform/platform.h"

const char *prog = "blobc";

char *cli_strndup(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---- options of every command ---- */

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;
static color_mode color = COLOR_AUTO;
uint64_t cli_max_input = BLOBC_DEFAULT_MAX_INPUT;
/* --error-format: how report() writes; SARIF keeps every error for one
 * log at the end (report_finish). */
blobc_error_style cli_error_style = BLOBC_STYLE_TEXT;
static blobc_error *sarif_errors;
static size_t sarif_n, sarif_cap;

/* auto: only when stderr is a terminal, NO_COLOR is unset or empty, and
 * the terminal is not "dumb" (as gcc and the no-color.org convention);
 * CLICOLOR_FORCE set and not 0 colours where stderr is no terminal (a
 * build tool's pipe, as ninja's), unless NO_COLOR says not to. */
static bool use_color(void) {
    if (color != COLOR_AUTO) return color == COLOR_ALWAYS;
    const char *no = blobc_os_getenv("NO_COLOR"), *term = blobc_os_getenv("TERM");
    const char *force = blobc_os_getenv("CLICOLOR_FORCE");
    if (no && no[0]) return false;
    if (force && force[0] && strcmp(force, "0") != 0) return true;
    if (term && strcmp(term, "dumb") == 0) return false;
    return blobc_os_stderr_colours();
}

/* "20" -> 20: decimal digits only (no sign, space or base prefix, which
 * strtoul would take), at most max. */
bool cli_parse_uint(const char *s, unsigned long max, unsigned long *out) {
    if (!s || !*s) return false;
    unsigned long v = 0;
    for (const char *p = s; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9 || v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* "1048576", "64K", "512M", "1G" (binary multiples; "KiB" etc. too). */
bool cli_parse_size(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return false;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && strcmp(end, "iB") == 0) end += 2;
    else if (shift && (*end == 'B' || *end == 'b')) end++;
    if (*end || v > (UINT64_MAX >> shift)) return false;
    *out = (uint64_t)v << shift;
    return true;
}

/* Handles --color[=WHEN] and --max-input SIZE; 1 when `arg` was one of
 * them (*i moved past a separate value), 0 when not, -1 on a usage error. */
static int common_option(const char *cmd, const char *arg, int *i, int argc, char **argv) {
    if (strcmp(arg, "--color") == 0 || strcmp(arg, "--colour") == 0) {
        color = COLOR_ALWAYS;
        return 1;
    }
    if (strncmp(arg, "--color=", 8) == 0 || strncmp(arg, "--colour=", 9) == 0) {
        const char *v = strchr(arg, '=') + 1;
        if (strcmp(v, "auto") == 0) color = COLOR_AUTO;
        else if (strcmp(v, "always") == 0) color = COLOR_ALWAYS;
        else if (strcmp(v, "never") == 0) color = COLOR_NEVER;
        else {
            usage_error(cmd, "invalid --color '%s' (expected auto, always or never)", v);
            return -1;
        }
        return 1;
    }
    if (strncmp(arg, "--error-format", 14) == 0 && (arg[14] == '=' || arg[14] == '\0')) {
        const char *f = arg[14] == '=' ? arg + 15 : *i + 1 < argc ? argv[++*i] : NULL;
        static const char *const names[] = {"text", "json", "github", "sarif"};
        for (int k = 0; f && k < 4; k++)
            if (strcmp(f, names[k]) == 0) return cli_error_style = (blobc_error_style)k, 1;
        usage_error(cmd, "invalid --error-format '%s' (expected text, json, github or sarif)",
                    f ? f : "");
        return -1;
    }
    const char *v = NULL;
    if (strncmp(arg, "--max-input=", 12) == 0) {
        v = arg + 12;
    } else if (strcmp(arg, "--max-input") == 0) {
        if (*i + 1 >= argc) {
            usage_error(cmd, "option '--max-input' needs a value");
            return -1;
        }
        v = argv[++*i];
    } else {
        return 0;
    }
    if (!cli_parse_size(v, &cli_max_input) || cli_max_input == 0) {
        usage_error(cmd, "invalid --max-input '%s' (expected a size like 1048576, 64K, 512M, 1G)", v);
        return -1;
    }
    return 1;
}

void usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s%s: ", prog, cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s%s%s --help' for more information.\n", prog, cmd ? " " : "", cmd ? cmd : "");
}

int exit_code(blobc_status st) {
    switch (st) {
    case BLOBC_OK: return 0;
    case BLOBC_EINPUT: return EXIT_INPUT;
    case BLOBC_EIO:
    case BLOBC_ENOMEM:
    case BLOBC_EARG: return EXIT_USAGE;
    default: return EXIT_USAGE;
    }
}

/* ---- reporting ---- */

/* gcc's colours (GCC_COLORS defaults): the place bold, "error:" bold red,
 * "warning:" bold magenta, the caret and a suggested fix bold green. */
#define C_LOCUS "\033[01m\033[K"
#define C_ERROR "\033[01;31m\033[K"
#define C_WARNING "\033[01;35m\033[K"
#define C_FIXIT "\033[01;32m\033[K"
#define C_END "\033[m\033[K"

/* The message with the name after "did you mean" in the fix-it colour. */
static void put_message(FILE *out, const char *m) {
    const char *dym = strstr(m, "did you mean ");
    const char *q = dym ? dym + 13 : NULL;
    const char *close = q && (*q == '\'' || *q == '"') ? strchr(q + 1, *q) : NULL;
    if (!close) {
        fputs(m, out);
        return;
    }
    fprintf(out, "%.*s" C_FIXIT "%.*s" C_END "%s", (int)(q - m), m, (int)(close + 1 - q), q,
            close + 1);
}

/* Colours one formatted error: "<place>: error: <message>", then the
 * source line and the caret line. `message` finds the severity word in
 * the first line (a file name could contain "error: " too). */
static void put_colored(FILE *out, const char *text, const char *message) {
    const char *nl = strchr(text, '\n');
    size_t first = nl ? (size_t)(nl - text) : strlen(text);
    const char *sev = NULL, *word = NULL;
    size_t mlen = strlen(message);
    for (const char *p = text; p < text + first && !sev; p++) {
        for (int w = 0; w < 2 && !sev; w++) {
            const char *cand = w ? "warning: " : "error: ";
            size_t cl = strlen(cand);
            if (strncmp(p, cand, cl) == 0 && (p == text || p[-1] == ' ') &&
                strncmp(p + cl, message, mlen < 32 ? mlen : 32) == 0) {
                sev = p;
                word = cand;
            }
        }
    }
    if (!sev) {
        fprintf(out, "%s\n", text);
        return;
    }
    size_t wl = strlen(word) - 1; /* without the space */
    if (sev > text) {
        /* the place without its trailing ": " goes bold, like gcc */
        fprintf(out, C_LOCUS "%.*s" C_END " ", (int)(sev - text - 1), text);
    }
    fprintf(out, "%s%.*s" C_END " ", word[0] == 'e' ? C_ERROR : C_WARNING, (int)wl, sev);
    char *msg = cli_strndup(sev + wl + 1, first - (size_t)(sev + wl + 1 - text));
    if (msg) put_message(out, msg);
    else fprintf(out, "%.*s", (int)(first - (size_t)(sev + wl + 1 - text)), sev + wl + 1);
    free(msg);
    fputc('\n', out);
    if (!nl) return;
    /* Source line as is; in the caret line, the caret in green. */
    const char *caret_line = strrchr(nl + 1, '\n');
    if (!caret_line) {
        fprintf(out, "%s\n", nl + 1);
        return;
    }
    fprintf(out, "%.*s\n", (int)(caret_line - nl - 1), nl + 1);
    const char *c = caret_line + 1;
    size_t sp = strspn(c, " ");
    fprintf(out, "%.*s" C_FIXIT "%s" C_END "\n", (int)sp, c, c + sp);
}

/* Prints a library error the way compilers do: one line naming the place,
 * then the offending source line and a caret when known. */
void report(const blobc_error *err) {
    FILE *out = stderr;
    if (cli_error_style == BLOBC_STYLE_SARIF) {
        if (sarif_n == sarif_cap) {
            size_t cap = sarif_cap ? 2 * sarif_cap : 16;
            blobc_error *more = realloc(sarif_errors, cap * sizeof *more);
            if (!more) return;
            sarif_errors = more;
            sarif_cap = cap;
        }
        sarif_errors[sarif_n++] = *err;
        return;
    }
    if (cli_error_style != BLOBC_STYLE_TEXT) {
        blobc_buffer b = {0};
        if (blobc_error_annotate(err, cli_error_style, prog, &b, NULL) == BLOBC_OK)
            fwrite(b.data, 1, b.len, out);
        blobc_buffer_free(&b);
        return;
    }
    char small[2048];
    char *text = small;
    size_t n = blobc_error_format(err, small, sizeof small);
    if (n >= sizeof small && (text = malloc(n + 1)) != NULL) blobc_error_format(err, text, n + 1);
    if (!text) text = small;
    if (use_color()) put_colored(out, text, err->message);
    else fprintf(out, "%s\n", text);
    if (text != small) free(text);
}

void report_finish(void) {
    if (cli_error_style != BLOBC_STYLE_SARIF) return;
    blobc_buffer b = {0};
    if (blobc_sarif_log(sarif_errors, sarif_n, prog, &b, NULL) == BLOBC_OK) fwrite(b.data, 1, b.len, stderr);
    blobc_buffer_free(&b);
    free(sarif_errors);
    sarif_errors = NULL;
    sarif_n = sarif_cap = 0;
}

void report_suppressed(const char *file, size_t n) {
    if (cli_error_style != BLOBC_STYLE_TEXT) {
        report_msg(file, "too many errors; stopping here: %zu more not shown (--max-errors 0 shows all)", n);
        return;
    }
    fprintf(stderr, "%s: error: too many errors; stopping here: %zu more not shown (--max-errors 0 shows all)\n",
            file, n);
}

/* "<file>: error: <message>", through report() (so in colour when on). */
void report_msg(const char *file, const char *fmt, ...) {
    blobc_error err;
    blobc_error_clear(&err);
    err.status = BLOBC_EINPUT;
    snprintf(err.file, sizeof err.file, "%s", file);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.message, sizeof err.message, fmt, ap);
    va_end(ap);
    report(&err);
}

/* An error of the command line itself: "blobc: error: ...". */
void cli_error(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (cli_error_style != BLOBC_STYLE_TEXT) {
        report_msg(prog, "%s", msg);
        return;
    }
    if (use_color()) fprintf(stderr, C_LOCUS "%s:" C_END " " C_ERROR "error:" C_END " %s\n", prog, msg);
    else fprintf(stderr, "%s: error: %s\n", prog, msg);
}

/* The errno of the first failed write to standard output. */
static int stdout_errno;

void note_stdout(void) {
    if (!stdout_errno && ferror(stdout)) stdout_errno = errno ? errno : EIO;
}

void put_help(const char *text) {
    errno = 0;
    fputs(text, stdout);
    note_stdout(); /* a help longer than the buffer fails inside fputs: its errno, now */
}

void write_stdout(const void *data, size_t len) {
    errno = 0;
    if (fwrite(data, 1, len, stdout) != len) note_stdout();
}

/* Standard output is checked at the end of the run: a failed write or
 * close (a full disk, /dev/full, a closed pipe) is an I/O error. */
int finish_stdout(int rc) {
    int e = stdout_errno;
    errno = 0;
    if (fflush(stdout) != 0 && !e) e = errno ? errno : EIO;
    if (!e && ferror(stdout)) e = EIO;
    if (fclose(stdout) != 0 && !e) e = errno ? errno : EIO;
    if (!e) return rc;
    cli_error("cannot write standard output: %s", strerror(e));
    return EXIT_USAGE;
}

/* ---- argument parsing ----
 * Options may come before or after operands; "--" ends options. A value
 * is given as "-s X", "-sX", "--schema X" or "--schema=X". */

/* "unknown option '--exlcude-tags'; did you mean '--exclude-tags'?": the
 * command's long options and every command's, by the library's rule. */
static void unknown_option(const char *cmd, const char *arg, const opt *opts) {
    const char *names[64] = {"help", "color", "max-input", "error-format"};
    size_t n = 4;
    for (const opt *p = opts; p && p->longname && n < 64; p++) names[n++] = p->longname;
    const char *name = arg[1] == '-' ? arg + 2 : NULL, *eq = name ? strchr(name, '=') : NULL;
    const char *best = name ? blobc_closest_name(name, eq ? (size_t)(eq - name) : strlen(name), names, n) : NULL;
    if (best) usage_error(cmd, "unknown option '%s'; did you mean '--%s'?", arg, best);
    else usage_error(cmd, "unknown option '%s'", arg);
}

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
        int common = common_option(cmd, arg, &i, argc, argv);
        if (common < 0) return false;
        if (common) continue;
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
            unknown_option(cmd, arg, opts);
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
bool parse_args(const char *cmd, int argc, char **argv, opt *opts, args *a) {
    if (parse_args_inner(cmd, argc, argv, opts, a)) return true;
    free(a->operands);
    a->operands = NULL;
    return false;
}

/* ---- schema loading shared by the reading commands ---- */

int load_schema(const char *path, blobc_schema **out) {
    *out = NULL;
    if (!path) return 0;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_load_limited(path, cli_max_input, out, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    /* every file read, the imported ones too, is an input no output replaces */
    int rc = 0;
    for (size_t i = 0; i < blobc_schema_file_count(*out) && !rc; i++)
        rc = add_input(blobc_schema_file(*out, i));
    return rc;
}

int read_blob_input(const char *path, bool blob, uint8_t **bytes, size_t *len) {
    blobc_error err;
    blobc_error_clear(&err);
    blobc_read_options ro = {cli_max_input, blob, NULL, 0, false};
    if (blobc_read_file_ex(path, &ro, bytes, len, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

int load_schema_or_blob(const char *path, blobc_schema **out, bool *is_blob) {
    *out = NULL;
    *is_blob = false;
    uint8_t *bytes = NULL;
    size_t len = 0;
    blobc_error err;
    blobc_error_clear(&err);
    /* From a pipe or a device: a blob up to its recorded size, or else
     * schema text up to the first binary byte and a schema's size. */
    blobc_read_options ro = {cli_max_input, true, "schema text or a blob", BLOBC_MAX_SCHEMA_SIZE, false};
    if (blobc_read_file_ex(path, &ro, &bytes, &len, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    blobc_error_clear(&err);
    blobc_status st;
    if (len >= BLOBC_MAGIC_SIZE && memcmp(bytes, BLOBC_MAGIC, BLOBC_MAGIC_SIZE) == 0) {
        *is_blob = true;
        blobc_blob blob;
        st = blobc_blob_open(bytes, len, 0, &blob, &err);
        if (st == BLOBC_OK && !blob.types) {
            blobc_blob_close(&blob);
            free(bytes);
            report_msg(path, "the blob is stripped (no embedded type description): "
                             "pass its schema file instead");
            return EXIT_INPUT;
        }
        if (st == BLOBC_OK) {
            *out = blob.types; /* the schema outlives the blob's bytes */
            blob.types = NULL;
            blobc_blob_close(&blob);
        }
    } else {
        st = blobc_schema_parse((const char *)bytes, len, path, out, &err);
    }
    free(bytes);
    if (st != BLOBC_OK) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", path);
        report(&err);
        return exit_code(st);
    }
    return 0;
}

const blobc_type *pick_type(const char *cmd, const blobc_schema *sch, const char *path,
                            const char *name) {
    const blobc_type *t = name ? blobc_schema_find(sch, name) : blobc_schema_root(sch);
    if (!t && name)
        report_msg(path, "no type '%s' in the schema", name);
    else if (!t)
        report_msg(path, "the schema has no root; name the type with -t");
    else if (t->kind != BLOBC_KIND_STRUCT)
        report_msg(path, "'%s' is not a struct", t->name);
    return t && t->kind == BLOBC_KIND_STRUCT ? t : NULL;
}

/* ---- inputs and outputs ---- */

static blobc_inputs *run_inputs;

int add_input(const char *path) {
    blobc_error err;
    blobc_error_clear(&err);
    if (!run_inputs && !(run_inputs = blobc_inputs_new())) {
        cli_error("out of memory");
        return EXIT_USAGE;
    }
    if (blobc_inputs_add(run_inputs, path, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

void free_inputs(void) {
    blobc_inputs_free(run_inputs);
    run_inputs = NULL;
}

/* Named temporary files of the output rules, for the signal handler. A
 * thread about to have one (on_temp_created) blocks the fatal signals, so
 * that the handler never runs on it meanwhile, and registers the name; it
 * unregisters and unblocks once the temporary is gone (on_temp_gone). The
 * handler, on another thread, marks the run as dying, waits a bounded time
 * for every registered temporary to be gone (with O_TMPFILE that is two
 * system calls away), removes whatever is left and ends the process. A
 * thread that registers once the handler has started never goes on, so
 * its temporary never appears: registering, then reading `dying`, against
 * the handler's setting `dying`, then reading the slots, means one of the
 * two sees the other.
 *
 * Only the main thread unblocks the signals again when its temporary is
 * gone: a batch's worker threads keep them blocked from their first
 * temporary to their end, which saves two system calls an output, and
 * the handler runs on the main thread (waiting for the batch, its
 * signals open) or on any other thread that has not blocked them. */
#define TEMP_SLOTS 1100 /* more than the threads of bake -j 1024 */
static _Atomic(char *) temp_slot[TEMP_SLOTS];
static atomic_int dying;
static _Thread_local int my_slot = -1; /* -1: none registered */
static _Thread_local bool main_thread; /* set by install_signal_handlers */
static _Thread_local bool blocked;     /* this thread holds the signals off */

static void on_temp_created(void *ctx, const char *path) {
    (void)ctx;
    if (!blocked) blobc_os_interrupts_block();
    blocked = true;
    my_slot = -1;
    char *copy = strdup(path);
    /* Out of memory: the temporary goes unregistered, as it always did
     * where a signal could not be caught. */
    for (int i = 0; copy; i = (i + 1) % TEMP_SLOTS) {
        char *expect = NULL;
        if (atomic_compare_exchange_strong(&temp_slot[i], &expect, copy)) {
            my_slot = i;
            break;
        }
        if (i == TEMP_SLOTS - 1) blobc_os_yield();
    }
    if (!atomic_load(&dying)) return;
    if (my_slot >= 0) free(atomic_exchange(&temp_slot[my_slot], NULL));
    blobc_os_wait_forever(); /* the process is ending; the signals stay blocked here */
}

static void on_temp_gone(void *ctx, const char *path) {
    (void)ctx;
    (void)path;
    /* The handler may have taken the slot (and removed the file) after
     * its wait ran out; then it owns the copy. */
    if (my_slot >= 0) free(atomic_exchange(&temp_slot[my_slot], NULL));
    my_slot = -1;
    if (!main_thread) return;
    blobc_os_interrupts_unblock();
    blocked = false;
}

static bool temps_live(void) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_slot[i])) return true;
    return false;
}

/* The platform then ends the process as the signal or console event would
 * have. */
static void on_interrupt(void) {
    atomic_store(&dying, 1);
    for (int waited = 0; waited < 2000 && temps_live(); waited++) blobc_os_sleep_ms(1);
    for (int i = 0; i < TEMP_SLOTS; i++) {
        char *left = atomic_exchange(&temp_slot[i], NULL);
        if (left) blobc_os_remove_now(left);
    }
}

void install_signal_handlers(void) {
    main_thread = true;
    blobc_os_on_interrupt(on_interrupt);
}

/* BLOBC_COPY=plain: outputs copied from a file (cache hits) are read and
 * written, never copied by the kernel: for a file system whose copy
 * offload misbehaves, and to test that way on any. */
blobc_output_options cli_output_options(void) {
    const char *copy = blobc_os_getenv("BLOBC_COPY");
    bool plain = copy && strcmp(copy, "plain") == 0;
    return (blobc_output_options){run_inputs, on_temp_created, on_temp_gone, NULL, false, plain};
}

int write_output(const char *path, const blobc_buffer *buf) {
    blobc_error err;
    blobc_error_clear(&err);
    blobc_output_options o = cli_output_options();
    if (blobc_write_output(path, buf->data, buf->len, &o, &err) != BLOBC_OK) {
        report(&err);
        return exit_code(err.status);
    }
    return 0;
}

/* "0.17" -> *before true: Entities releases before 0.50 wrote the exact
 * length. *old: before 0.3, whose header was not the 32-byte one. */
static bool release_before_050(const char *s, bool *before, bool *old) {
    char *end;
    errno = 0;
    unsigned long major = strtoul(s, &end, 10);
    if (end == s || *end != '.' || errno) return false;
    const char *m = end + 1;
    unsigned long minor = strtoul(m, &end, 10);
    if (end == m || errno || (*end && *end != '.')) return false;
    *before = major == 0 && minor < 50;
    *old = major == 0 && minor < 3;
    return true;
}

bool parse_unity(const char *cmd, const char *version, const char *length,
                 blobc_unity_options *o) {
    if (version) {
        char *end;
        errno = 0;
        long long v = strtoll(version, &end, 10);
        if (end == version || *end || errno || v < INT32_MIN || v > INT32_MAX) {
            usage_error(cmd, "--unity-version wants a 32-bit integer, got '%s'", version);
            return false;
        }
        o->version = (int32_t)v;
        o->check_version = true;
    }
    bool before = false, old = false;
    if (!length) {
        o->length = BLOBC_UNITY_LENGTH_ANY;
    } else if (strcmp(length, "padded") == 0) {
        o->length = BLOBC_UNITY_LENGTH_PADDED;
    } else if (strcmp(length, "exact") == 0) {
        o->length = BLOBC_UNITY_LENGTH_EXACT;
    } else if (!release_before_050(length, &before, &old)) {
        usage_error(cmd, "--unity-length wants padded, exact or an Entities release such as "
                         "0.17 or 1.3, got '%s'", length);
        return false;
    } else if (old) {
        usage_error(cmd, "Entities %s wrote another header (24 bytes or less); the Unity "
                         "format is the one of 0.3 and later", length);
        return false;
    } else {
        o->length = before ? BLOBC_UNITY_LENGTH_EXACT : BLOBC_UNITY_LENGTH_PADDED;
    }
    return true;
}

bool parse_read_format(const char *cmd, bool allow_raw, read_format *rf) {
    const char *f = rf->format;
    bool unity = f && strcmp(f, "unity") == 0;
    if (f && allow_raw && strcmp(f, "raw") == 0) rf->raw = true;
    else if (f && !unity && strcmp(f, "blob") != 0) {
        usage_error(cmd, "unknown format '%s' (expected blob%s or unity)", f,
                    allow_raw ? ", raw" : "");
        return false;
    }
    if (rf->raw && (rf->unity_version || rf->unity_length)) {
        usage_error(cmd, "--unity-version and --unity-length do not go with a raw data section");
        return false;
    }
    if (!parse_unity(cmd, rf->unity_version, rf->unity_length, &rf->storage)) return false;
    /* given options make the reader expect a Unity file */
    rf->unity = unity || rf->unity_version || rf->unity_length ? &rf->storage : NULL;
    return true;
}
