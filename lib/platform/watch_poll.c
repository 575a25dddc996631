/*
 * watch_poll.c - the polling watcher (watch_poll.h): each directory's
 * entries, sorted by name, compared with the listing before. Written on
 * the platform layer's own directory and stat calls, so it is the same on
 * every system.
 */
#include "platform/watch_poll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    char *name;
    blobc_os_info info;
} entry;

typedef struct listing {
    char *dir;
    entry *e;
    size_t n;
} listing;

struct blobc_poll {
    listing *dirs;
    size_t n;
};

static int by_name(const void *a, const void *b) {
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

static void free_entries(entry *e, size_t n) {
    for (size_t i = 0; i < n; i++) free(e[i].name);
    free(e);
}

static int add_entry(const char *dir, const char *name, entry **e, size_t *n, size_t *cap) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        entry *bigger = realloc(*e, c * sizeof *bigger);
        if (!bigger) return ENOMEM;
        *e = bigger;
        *cap = c;
    }
    size_t dl = strlen(dir), nl = strlen(name);
    char *path = malloc(dl + nl + 2);
    char *copy = malloc(nl + 1);
    if (!path || !copy) {
        free(path);
        free(copy);
        return ENOMEM;
    }
    snprintf(path, dl + nl + 2, "%s/%s", dir, name);
    memcpy(copy, name, nl + 1);
    entry *x = &(*e)[(*n)++];
    x->name = copy;
    /* An entry gone between the listing and the stat counts as empty. */
    if (blobc_os_stat(path, &x->info) != 0) memset(&x->info, 0, sizeof x->info);
    free(path);
    return 0;
}

/* The entries of dir, sorted; a directory that cannot be read has none. */
static int list(const char *dir, entry **out, size_t *nout) {
    entry *e = NULL;
    size_t n = 0, cap = 0;
    blobc_os_dir *d;
    if (blobc_os_dir_open(dir, &d) == 0) {
        const char *name;
        int err = 0;
        while (!err && (name = blobc_os_dir_next(d))) err = add_entry(dir, name, &e, &n, &cap);
        blobc_os_dir_close(d);
        if (err) {
            free_entries(e, n);
            return err;
        }
    }
    if (n) qsort(e, n, sizeof *e, by_name);
    *out = e;
    *nout = n;
    return 0;
}

int blobc_poll_open(blobc_poll **p) {
    *p = calloc(1, sizeof **p);
    return *p ? 0 : ENOMEM;
}

int blobc_poll_add(blobc_poll *p, const char *dir) {
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->dirs[i].dir, dir) == 0) return 0;
    listing *bigger = realloc(p->dirs, (p->n + 1) * sizeof *bigger);
    if (!bigger) return ENOMEM;
    p->dirs = bigger;
    listing *l = &p->dirs[p->n];
    size_t len = strlen(dir);
    if (!(l->dir = malloc(len + 1))) return ENOMEM;
    memcpy(l->dir, dir, len + 1);
    int e = list(dir, &l->e, &l->n);
    if (e) {
        free(l->dir);
        return e;
    }
    p->n++;
    return 0;
}

static bool same(const blobc_os_info *a, const blobc_os_info *b) {
    return a->kind == b->kind && a->size == b->size && a->mtime == b->mtime &&
           a->mtime_nsec == b->mtime_nsec && blobc_os_same_file(a, b);
}

/* Walks the old and the new listing side by side (both sorted). */
static int diff(const listing *old, const entry *e, size_t n, blobc_os_watch_fn fn, void *ctx) {
    size_t i = 0, j = 0;
    int changes = 0;
    while (i < old->n || j < n) {
        int c = i == old->n ? 1 : j == n ? -1 : strcmp(old->e[i].name, e[j].name);
        const char *name = c <= 0 ? old->e[i].name : e[j].name;
        if (c != 0 || !same(&old->e[i].info, &e[j].info)) {
            fn(ctx, old->dir, name);
            changes++;
        }
        i += c <= 0;
        j += c >= 0;
    }
    return changes;
}

int blobc_poll_scan(blobc_poll *p, blobc_os_watch_fn fn, void *ctx) {
    int changes = 0;
    for (size_t k = 0; k < p->n; k++) {
        entry *e;
        size_t n;
        if (list(p->dirs[k].dir, &e, &n) != 0) return -1;
        changes += diff(&p->dirs[k], e, n, fn, ctx);
        free_entries(p->dirs[k].e, p->dirs[k].n);
        p->dirs[k].e = e;
        p->dirs[k].n = n;
    }
    return changes;
}

void blobc_poll_close(blobc_poll *p) {
    if (!p) return;
    for (size_t k = 0; k < p->n; k++) {
        free_entries(p->dirs[k].e, p->dirs[k].n);
        free(p->dirs[k].dir);
    }
    free(p->dirs);
    free(p);
}
