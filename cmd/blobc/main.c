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
    "  gen jsonschema  generate a JSON Schema of the data, for editors\n"
    "  compat   tell whether blobs of one schema read correctly with another\n"
    "  upgrade  carry a blob over to a new version of its schema\n"
    "  cache    show or trim a directory cache of baked outputs\n"
    "\n"
    "Options:\n"
    "  -h, --help      show this help ('blobc COMMAND --help' for a command)\n"
    "  -V, --version   show the version\n"
    "\n"
    "Every command also takes --color[=auto|always|never] and --max-input SIZE.\n"
    "\n"
    "Exit status: 0 success, 1 invalid input or failed verification,\n"
    "2 usage or I/O error. See blobc(1).\n";

static int dispatch(int argc, char **argv) {
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
    if (strcmp(cmd, "compat") == 0) return cmd_compat(argc - 2, argv + 2);
    if (strcmp(cmd, "upgrade") == 0) return cmd_upgrade(argc - 2, argv + 2);
    if (strcmp(cmd, "cache") == 0) return cmd_cache(argc - 2, argv + 2);
    usage_error(NULL, "unknown command '%s'", cmd);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    blobc_os_cli_start(&argc, &argv);
    install_signal_handlers();
    int rc = dispatch(argc, argv);
    free_inputs();
    return finish_stdout(rc);
}
