/*
 * cache.c - blobc cache: look at and trim a directory cache of baked
 * outputs (bake --cache DIR). An HTTP cache is its server's to manage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/cache.h"
#include "cli.h"
#include "platform/platform.h"

static const char cache_help[] =
    "Usage: blobc cache stats [DIR]\n"
    "       blobc cache prune --max-size SIZE [DIR]\n"
    "Show or trim a directory cache of baked outputs (blobc bake --cache DIR).\n"
    "\n"
    "  stats                 entries, their bytes, and the hits and misses of\n"
    "                        every bake that used the cache\n"
    "  prune                 remove the least recently used entries until the\n"
    "                        rest take at most SIZE (bytes, or with K, M, G:\n"
    "                        KiB, MiB, GiB)\n"
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "DIR defaults to $BLOBC_CACHE.\n";

int cmd_cache(int argc, char **argv) {
    const char *max_size = NULL;
    opt opts[] = {
        {"max-size", 0, true, &max_size, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    args a;
    if (!parse_args("cache", argc, argv, opts, &a)) return EXIT_USAGE;
    int rc = 0;
    const char *sub = a.noperands > 0 ? a.operands[0] : NULL;
    const char *dir = a.noperands > 1 ? a.operands[1] : blobc_os_getenv("BLOBC_CACHE");
    blobc_error err;
    blobc_error_clear(&err);
    if (a.help) {
        put_help(cache_help);
    } else if (!sub) {
        usage_error("cache", "no subcommand (expected stats or prune)");
        rc = EXIT_USAGE;
    } else if (strcmp(sub, "stats") != 0 && strcmp(sub, "prune") != 0) {
        usage_error("cache", "unknown subcommand '%s' (expected stats or prune)", sub);
        rc = EXIT_USAGE;
    } else if (a.noperands > 2) {
        usage_error("cache", "too many operands");
        rc = EXIT_USAGE;
    } else if (!dir || !dir[0] || strstr(dir, "://")) {
        usage_error("cache", "name a cache directory (or set BLOBC_CACHE to one)");
        rc = EXIT_USAGE;
    } else if (strcmp(sub, "stats") == 0) {
        blobc_cache_stats s;
        if (blobc_cache_dir_stats(dir, &s, &err) != BLOBC_OK) {
            report(&err);
            rc = exit_code(err.status);
        } else {
            printf("entries: %llu\nbytes: %llu\nhits: %llu\nmisses: %llu\n",
                   (unsigned long long)s.entries, (unsigned long long)s.bytes,
                   (unsigned long long)s.hits, (unsigned long long)s.misses);
            if (fflush(stdout) != 0) rc = EXIT_USAGE;
        }
    } else {
        uint64_t max;
        uint64_t removed = 0;
        if (!max_size || !cli_parse_size(max_size, &max)) {
            usage_error("cache", "prune needs --max-size SIZE (bytes, or with K, M, G)");
            rc = EXIT_USAGE;
        } else if (blobc_cache_dir_prune(dir, max, &removed, &err) != BLOBC_OK) {
            report(&err);
            rc = exit_code(err.status);
        } else {
            printf("removed %llu entries\n", (unsigned long long)removed);
        }
    }
    free(a.operands);
    return rc;
}
