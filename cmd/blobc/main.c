/*
 * main.c - the blobc command line: dispatches to one file per command.
 * Every command is a thin layer over lib/, so an engine's own tools can do
 * the same by linking libblobc.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "platform/platform.h"

/* ---- main ---- */

/* The commands: what dispatch runs, what --help lists and what an unknown
 * command's error names, from this one table. A command with subcommands
 * has a row per subcommand (its help line names both words). */
static int run_completion(int argc, char **argv);

static const struct command {
    const char *name, *sub, *what;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"bake", NULL, "bake data files into blobs", cmd_bake},
    {"watch", NULL, "bake, then bake again what changes (and tell a running game)", cmd_watch},
    {"dump", NULL, "print a blob as YAML, JSON, or a layout map", cmd_dump},
    {"size", NULL, "show where a blob's bytes go, by type and by field path", cmd_size},
    {"verify", NULL, "check blobs completely (a CI gate)", cmd_verify},
    {"check", NULL, "parse a schema and print its layout", cmd_check},
    {"gen", "c", "generate a C header that reads blobs in place", cmd_gen},
    {"gen", "cpp", "generate C++17 classes that read blobs in place", cmd_gen},
    {"gen", "cs", "generate C# for Unity DOTS that reads --format unity files", cmd_gen},
    {"gen", "jsonschema", "generate a JSON Schema of the data, for editors", cmd_gen},
    {"compat", NULL, "tell whether blobs of one schema read correctly with another", cmd_compat},
    {"upgrade", NULL, "carry a blob over to a new version of its schema", cmd_upgrade},
    {"cache", "stats", "show a directory cache of baked outputs", cmd_cache},
    {"cache", "prune", "trim a directory cache of baked outputs", cmd_cache},
    {"completion", NULL, "print a completion script for bash, zsh or fish", run_completion},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *out) {
    fputs("Usage: blobc COMMAND [OPTIONS] [ARGS]\n"
          "Bake YAML/JSON data into relocatable .blob images, and read them back.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s%s", commands[i].name, commands[i].sub ? " " : "",
                 commands[i].sub ? commands[i].sub : "");
        fprintf(out, "  %-16s %s\n", name, commands[i].what);
    }
    fputs("\n"
          "Options:\n"
          "  -h, --help      show this help (also 'blobc help'; 'blobc COMMAND --help'\n"
          "                  for a command)\n"
          "  -V, --version   show the version\n"
          "\n"
          "Every command also takes --color[=auto|always|never], --max-input SIZE and\n"
          "--error-format text|json|github|sarif.\n"
          "\n"
          "Exit status: 0 success, 1 invalid input or failed verification,\n"
          "2 usage or I/O error. See blobc(1).\n",
          out);
}

/* "bake, dump, ..., cache" (sep ", "): each command once. */
static void command_names(char *buf, size_t cap, const char *sep) {
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NCOMMANDS && n < cap; i++)
        if (i == 0 || strcmp(commands[i].name, commands[i - 1].name) != 0)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? sep : "", commands[i].name);
}

/* The commands and their subcommands, from the table, for the scripts. */
static int run_completion(int argc, char **argv) {
    char names[256], subs[4][128];
    const char *sub_rows[4];
    size_t nsubs = 0;
    command_names(names, sizeof names, " ");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (!commands[i].sub) continue;
        if (i == 0 || !commands[i - 1].sub || strcmp(commands[i].name, commands[i - 1].name) != 0) {
            if (nsubs == 4) break;
            snprintf(subs[nsubs], sizeof subs[nsubs], "%s", commands[i].name);
            sub_rows[nsubs] = subs[nsubs];
            nsubs++;
        }
        size_t n = strlen(subs[nsubs - 1]);
        snprintf(subs[nsubs - 1] + n, sizeof subs[nsubs - 1] - n, " %s", commands[i].sub);
    }
    return cmd_completion(argc, argv, names, sub_rows, nsubs);
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("blobc %s (blob format %u)\n", blobc_version(), (unsigned)BLOBC_FORMAT_VERSION);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
    char names[256];
    command_names(names, sizeof names, ", ");
    usage_error(NULL, "unknown command '%s' (commands: %s)", cmd, names);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    blobc_os_cli_start(&argc, &argv);
    install_signal_handlers();
    int rc = dispatch(argc, argv);
    report_finish();
    free_inputs();
    return finish_stdout(rc);
}
