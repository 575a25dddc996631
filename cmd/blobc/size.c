/*
 * size.c - blobc size: where a blob's bytes go (a dump format of its own
 * command: dump.c runs it).
 */
#include <stdlib.h>

#include "cli.h"

static const char size_help[] =
    "Usage: blobc size [OPTIONS] BLOB\n"
    "Show where a blob's bytes go: by what they are (header, type section,\n"
    "values, offsets, string bytes, padding, alignment), by the type of the\n"
    "payload they are in, and by field path (rooms[].tags); each table sums\n"
    "to the file's size. A payload shared by several fields counts once,\n"
    "under the first field that refers to it, with its references. The blob\n"
    "is verified first.\n"
    "\n"
    "  -s, --schema SCHEMA   schema for stripped blobs and raw data sections\n"
    "  -t, --type TYPE       root type in SCHEMA (default: its root)\n"
    "      --format FMT      blob (default), raw (a data section alone) or\n"
    "                        unity (a Unity blob asset file); raw and unity\n"
    "                        need -s. A Unity file is also recognised unnamed.\n"
    "      --unity-version N refuse a Unity file of another version\n"
    "      --unity-length R  padded, exact, or a release (default: either)\n"
    "      --depth N         field steps a path row goes down to (1-64,\n"
    "                        default 3); deeper bytes count in their row\n"
    "      --json            print JSON instead of tables\n"
    "  -o, --output FILE     write to FILE instead of standard output (never\n"
    "                        BLOB itself; see blobc(1), OUTPUT FILES)\n"
    COMMON_HELP
    "  -h, --help            show this help\n";

int cmd_size(int argc, char **argv) {
    dump_req q = {.cmd = "size", .size = true};
    opt opts[] = {
        READ_FORMAT_OPTS(q.rf),
        {"schema", 's', true, &q.schema, NULL}, {"type", 't', true, &q.type, NULL},
        {"output", 'o', true, &q.output, NULL}, {"json", 0, false, NULL, &q.json},
        {"depth", 0, true, &q.depth, NULL},     {NULL, 0, false, NULL, NULL},
    };
    return run_dump(&q, opts, size_help, argc, argv);
}
