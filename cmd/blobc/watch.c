/*
 * watch.c - blobc watch: bake, then bake again what changes. The files a
 * job depends on (its input, its schema and the schema's imports) come
 * from the bake itself; their directories are watched (an editor's save
 * renames a new file over the old name), a burst of changes is let settle,
 * and only the jobs that depend on a changed file are baked again, through
 * the same batch (and cache) as blobc bake. With --notify, every output
 * published is announced to clients on loopback (blobc/notify.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "cli.h"
#include "platform/platform.h"

static const char watch_help[] =
    "Usage: blobc watch [OPTIONS] INPUT...\n"
    "Bake YAML or JSON data into blobs, then bake each again when it, its schema\n"
    "or a file the schema imports changes; runs until interrupted (Ctrl-C).\n"
    "\n"
    "      --notify HOST:PORT  announce every blob written to clients on this\n"
    "                        loopback address (localhost or 127.x.x.x; port 0:\n"
    "                        any free one): one line each, 'GENERATION PATH HASH'\n"
    "      --debounce MS     wait until the files have been quiet this long before\n"
    "                        baking (default 30; a burst of saves bakes once)\n"
    "      --poll MS         list the watched directories every MS milliseconds\n"
    "                        instead of asking the system for change events (for\n"
    "                        file systems that send none, such as some network mounts)\n"
    BATCH_HELP
    COMMON_HELP
    "  -h, --help            show this help\n"
    "\n"
    "Outputs are named and written as by blobc bake (-o as there). A bake that\n"
    "fails prints its errors and leaves the last good output in place. Only the\n"
    "directories of the files the bakes read are watched.\n";

/* What one job depends on: the files its last bake read. */
typedef struct deps {
    char **files;
    size_t n;
} deps;

/* More clients than a game and its tools need, and few enough that the
 * descriptors cannot run out. */
#define MAX_CLIENTS 64

typedef struct client {
    blobc_os_socket s;
} client;

typedef struct watch_run {
    bake_run r;            /* jobs, batch options, the printing of events */
    deps *deps;            /* per job */
    bool *dirty;           /* per job: to bake again */
    bool *failed;          /* per job: its last bake failed */
    bool any_dirty;
    double settle_at;      /* when the last change is old enough to bake */
    double first_change;   /* of this burst: a never-ending burst still bakes */
    unsigned debounce_ms;
    blobc_os_watch *watch;
    deps live;             /* the directories watched now (the last round's) */
    /* the notify server */
    blobc_os_socket listener;
    double listen_again;   /* not before then (no descriptor was left) */
    client *clients;
    size_t nclients;
    char **lines;          /* per job: its last line, NULL before one */
    unsigned long long *line_gen;
    unsigned long long generation;
    size_t *subset;        /* the jobs of a rebake, by their index in it */
} watch_run;

static void free_deps(deps *d) {
    for (size_t i = 0; i < d->n; i++) free(d->files[i]);
    free(d->files);
    d->files = NULL;
    d->n = 0;
}

static bool add_dep(deps *d, const char *file) {
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->files[i], file) == 0) return true;
    char **bigger = realloc(d->files, (d->n + 1) * sizeof *bigger);
    if (!bigger) return false;
    d->files = bigger;
    return (d->files[d->n] = strdup(file)) != NULL && ++d->n;
}

/* ---- the notify server ---- */

/* "localhost:7777" or "127.0.0.1:0" -> the address and port; false after a
 * usage error. Only loopback: the lines name files on this machine. */
static bool parse_notify(const char *spec, char *addr, size_t cap, unsigned *port) {
    const char *colon = strrchr(spec, ':');
    unsigned long p = 0;
    size_t hl = colon ? (size_t)(colon - spec) : 0;
    if (!colon || !cli_parse_uint(colon + 1, 65535, &p) || hl == 0 || hl >= cap) {
        usage_error("watch", "--notify needs HOST:PORT, got '%s'", spec);
        return false;
    }
    memcpy(addr, spec, hl);
    addr[hl] = '\0';
    if (strcmp(addr, "localhost") == 0) snprintf(addr, cap, "127.0.0.1");
    unsigned a, b, c, d;
    char extra;
    if (sscanf(addr, "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) != 4 || a != 127 || b > 255 ||
        c > 255 || d > 255) {
        usage_error("watch", "--notify serves on loopback only: localhost or 127.x.x.x, got '%.*s'",
                    (int)hl, spec);
        return false;
    }
    *port = (unsigned)p;
    return true;
}

static int notify_start(watch_run *w, const char *spec) {
    char addr[64];
    unsigned port;
    if (!parse_notify(spec, addr, sizeof addr, &port)) return EXIT_USAGE;
    int e = blobc_os_listen(addr, &port, &w->listener);
    if (e) {
        char buf[128];
        cli_error("--notify %s: %s", spec, blobc_os_error_text(e, buf, sizeof buf));
        return EXIT_USAGE;
    }
    fprintf(stderr, "%s watch: notifying on %s:%u\n", prog, addr, port);
    return 0;
}

/* Sends a line to a client; one that cannot take it (gone, or not reading)
 * is dropped. */
static bool send_line(client *c, const char *line) {
    if (blobc_os_send(c->s, line, strlen(line)) == 0) return true;
    blobc_os_socket_close(c->s);
    c->s = BLOBC_OS_NO_SOCKET;
    return false;
}

/* Drops the clients that hung up, reading (and dropping) what the others
 * sent: clients only read, and one that connects and goes again and again
 * must not leave its sockets behind. */
static void drop_gone(watch_run *w) {
    size_t k = 0;
    for (size_t i = 0; i < w->nclients; i++) {
        if (w->clients[i].s != BLOBC_OS_NO_SOCKET && blobc_os_recv_discard(w->clients[i].s) != 0) {
            blobc_os_socket_close(w->clients[i].s);
            w->clients[i].s = BLOBC_OS_NO_SOCKET;
        }
        if (w->clients[i].s != BLOBC_OS_NO_SOCKET) w->clients[k++] = w->clients[i];
    }
    w->nclients = k;
}

static int by_generation(const void *a, const void *b) {
    unsigned long long x = **(const unsigned long long *const *)a;
    unsigned long long y = **(const unsigned long long *const *)b;
    return (x > y) - (x < y);
}

/* A new client is told the last line of every output, oldest first. */
static void greet(watch_run *w, client *c) {
    unsigned long long **order = malloc(w->r.n * sizeof *order);
    size_t n = 0;
    for (size_t i = 0; order && i < w->r.n; i++)
        if (w->lines[i]) order[n++] = &w->line_gen[i];
    if (n) qsort(order, n, sizeof *order, by_generation);
    for (size_t i = 0; i < n && send_line(c, w->lines[order[i] - w->line_gen]); i++) {}
    free(order); /* out of memory: greeted with nothing, told what comes */
}

/* Takes the waiting clients, up to MAX_CLIENTS; past that a newcomer is
 * closed at once. A connection that cannot be taken (no descriptor left)
 * stays waiting, and the listener is left alone for a second rather than
 * asked again at once, for ever. */
static void notify_accept(watch_run *w) {
    blobc_os_socket s;
    drop_gone(w);
    int e = 0;
    for (int tries = 0; tries < 1000; tries++) {
        if ((e = blobc_os_accept(w->listener, &s)) != 0) {
            if (e == ECONNABORTED || e == EINTR) continue; /* that one went already */
            break;
        }
        client *bigger = NULL;
        if (w->nclients < MAX_CLIENTS) bigger = realloc(w->clients, (w->nclients + 1) * sizeof *bigger);
        if (!bigger) {
            blobc_os_socket_close(s);
            continue;
        }
        w->clients = bigger;
        w->clients[w->nclients] = (client){s};
        greet(w, &w->clients[w->nclients++]);
        drop_gone(w);
    }
    if (e && e != EAGAIN) w->listen_again = blobc_os_monotonic() + 1;
}

/* The job's output was written: its line ("GEN PATH HASH", the path's
 * '%' and control bytes as %XX), kept and sent. The hash is of the file
 * as it now is (read, not mapped: another program may cut it short). */
static void publish(watch_run *w, size_t job) {
    if (w->listener == BLOBC_OS_NO_SOCKET) return;
    const char *path = w->r.jobs[job].output;
    uint8_t *data;
    size_t len;
    blobc_error err;
    blobc_read_options ro = {0, false, NULL, 0, true}; /* an output that is a FIFO: never waited on */
    if (blobc_read_file_ex(path, &ro, &data, &len, &err) != BLOBC_OK) {
        report(&err);
        return;
    }
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(data, len));
    free(data);
    char *line = malloc(24 + 3 * strlen(path) + 34), *p = line;
    if (!line) return;
    p += sprintf(p, "%llu ", ++w->generation);
    for (const unsigned char *s = (const unsigned char *)path; *s; s++)
        p += *s == '%' || *s < 0x20 || *s == 0x7f ? sprintf(p, "%%%02X", *s) : sprintf(p, "%c", *s);
    *p++ = ' ';
    for (int i = 0; i < 16; i++) p += sprintf(p, "%02x", c.digest[i]);
    strcpy(p, "\n");
    free(w->lines[job]);
    w->lines[job] = line;
    w->line_gen[job] = w->generation;
    for (size_t i = 0; i < w->nclients; i++) send_line(&w->clients[i], line);
    drop_gone(w);
}

/* ---- baking ---- */

/* A file named through a symbolic link changes where the link points:
 * the file the link finally names is a dependency too (its directory is
 * watched), looked up again after every bake of the job. */
static void add_link_targets(deps *d) {
    size_t n = d->n;
    for (size_t i = 0; i < n; i++) {
        char *target;
        if (blobc_os_resolve_links(d->files[i], &target) != 0) continue;
        if (strcmp(target, d->files[i]) != 0) add_dep(d, target);
        free(target);
    }
}

/* Each event as blobc bake prints it; a job done learns its files. */
static void on_event(void *ctx, const blobc_event *ev) {
    watch_run *w = ctx;
    blobc_event e = *ev;
    e.job = w->subset[ev->job];
    bake_print_event(&w->r, &e);
    if (ev->kind == BLOBC_EVENT_DONE && ev->status == BLOBC_OK && !w->r.quiet && !w->r.verbose)
        fprintf(stderr, "%s: %s %s\n", w->r.jobs[e.job].input, ev->cached ? "cached" : "baked",
                w->r.jobs[e.job].output);
    if (ev->kind == BLOBC_EVENT_ERROR && ev->error->file[0])
        add_dep(&w->deps[e.job], ev->error->file); /* a broken import is watched too */
    if (ev->kind != BLOBC_EVENT_DONE) return;
    w->failed[e.job] = ev->status != BLOBC_OK;
    if (ev->nfiles) { /* what this bake read; else what the last one did */
        free_deps(&w->deps[e.job]);
        for (size_t i = 0; i < ev->nfiles; i++) add_dep(&w->deps[e.job], ev->files[i]);
    }
    /* and what it could not: a schema or import not made yet, a FIFO */
    for (size_t i = 0; i < ev->nunread; i++) add_dep(&w->deps[e.job], ev->unread[i]);
    add_dep(&w->deps[e.job], w->r.jobs[e.job].input);
    add_link_targets(&w->deps[e.job]);
    if (ev->status == BLOBC_OK) publish(w, e.job);
}

/* The directory a file is in, as watched ("." for none). */
static char *dir_of(const char *file) {
    size_t n = blobc_os_dir_len(file);
    if (n > 1) n--; /* "a/b" -> "a"; "/b" -> "/" */
    return n ? cli_strndup(file, n) : strdup(".");
}

static bool is_live(const watch_run *w, const char *dir) {
    for (size_t i = 0; i < w->live.n; i++)
        if (strcmp(w->live.files[i], dir) == 0) return true;
    return false;
}

/* Watches dir, or while it is not there the nearest directory above it
 * that is (on_change takes a change on the way down as one to dir). */
static void watch_dir(watch_run *w, char *dir) {
    while (dir && blobc_os_watch_add(w->watch, dir) != 0) {
        char *up = dir_of(dir);
        bool top = !up || strcmp(up, dir) == 0;
        free(dir);
        dir = top ? NULL : up;
        if (top) free(up);
    }
    if (dir) add_dep(&w->live, dir);
    free(dir);
}

/* Watches the directory of every file a job depends on (again: one that
 * was removed and made anew is watched anew). */
static void watch_deps(watch_run *w) {
    free_deps(&w->live);
    for (size_t j = 0; j < w->r.n; j++)
        for (size_t i = 0; i < w->deps[j].n; i++) watch_dir(w, dir_of(w->deps[j].files[i]));
}

/* Whether an entry `name` of the watched directory `dir` is the file f,
 * or, while f's directory is not watched (not there yet), a directory on
 * the way to it; name NULL: any entry. A watched directory's own changes
 * come from its own watch: taken from its parent too, the output written
 * into it would change the parent's listing and bake again for ever. */
static bool touches(const watch_run *w, const char *f, const char *dir, const char *name) {
    char *d = dir_of(f);
    if (!d) return true;
    size_t dl = strlen(dir);
    const char *rest = NULL; /* f's directory below dir */
    if (strcmp(d, dir) == 0) rest = "";
    else if (is_live(w, d)) rest = NULL;
    else if (strcmp(dir, ".") == 0 && !blobc_os_is_absolute(d)) rest = d;
    else if (strncmp(d, dir, dl) == 0 && d[dl] == '/') rest = d + dl + 1;
    else if (strncmp(d, dir, dl) == 0 && dl && dir[dl - 1] == '/') rest = d + dl; /* "/" */
    /* the entry: f's name, or the first directory on the way down */
    const char *entry = !rest ? NULL : *rest ? rest : f + blobc_os_dir_len(f);
    size_t n = entry ? strcspn(entry, "/") : 0;
    bool hit = entry && (!name || (strlen(name) == n && strncmp(name, entry, n) == 0));
    free(d);
    return hit;
}

/* The files no output may replace, by their identity now: an editor's
 * save gives an input a new one, and the old one may go to an output. */
static void refresh_inputs(watch_run *w) {
    free_inputs();
    for (size_t j = 0; j < w->r.n; j++)
        for (size_t i = 0; i < w->deps[j].n; i++) {
            blobc_os_info info;
            if (blobc_os_stat(w->deps[j].files[i], &info) == 0) add_input(w->deps[j].files[i]);
        }
    w->r.bo.output = cli_output_options();
}

/* Bakes the dirty jobs (all of them the first time). The directories are
 * watched before the bake too: one made since the last bake (on the way
 * to a file not there then) is watched before the bake looks in it, so a
 * file made in it meanwhile is not missed. */
static void bake_dirty(watch_run *w) {
    watch_deps(w);
    refresh_inputs(w);
    blobc_job *jobs = malloc(w->r.n * sizeof *jobs);
    if (!jobs) return;
    size_t n = 0;
    for (size_t j = 0; j < w->r.n; j++)
        if (w->dirty[j]) {
            w->subset[n] = j;
            jobs[n++] = w->r.jobs[j];
            w->dirty[j] = false;
        }
    w->any_dirty = false;
    w->r.ndone = 0;
    w->r.bo.on_event = on_event;
    w->r.bo.ctx = w;
    blobc_bake_batch(jobs, n, &w->r.bo, NULL);
    free(jobs);
    watch_deps(w);
}

/* A change in a watched directory: the jobs that depend on that entry
 * (on any entry of it when the system lost track) are baked again; a job
 * whose last bake failed, on any entry of its files' directories: its
 * files are known only up to the failure (a schema that failed on an
 * import being written names none of its imports). */
static void on_change(void *ctx, const char *dir, const char *name) {
    watch_run *w = ctx;
    bool hit = false;
    for (size_t j = 0; j < w->r.n; j++)
        for (size_t i = 0; i < w->deps[j].n && !w->dirty[j]; i++)
            if (touches(w, w->deps[j].files[i], dir, w->failed[j] ? NULL : name))
                hit = w->dirty[j] = true;
    if (!hit) return;
    double now = blobc_os_monotonic();
    if (!w->any_dirty) w->first_change = now;
    w->any_dirty = true;
    w->settle_at = now + w->debounce_ms / 1000.0;
}

/* The loop: sleep until a change or a client; bake once the change has
 * settled (or a burst has gone on for ten debounce periods). */
static int watch_loop(watch_run *w) {
    for (;;) {
        int timeout = -1;
        if (w->any_dirty) {
            double now = blobc_os_monotonic(), at = w->settle_at;
            double cap = w->first_change + 10 * w->debounce_ms / 1000.0;
            if (cap < at) at = cap;
            if (now >= at) {
                bake_dirty(w);
                continue;
            }
            timeout = (int)((at - now) * 1000) + 1;
        }
        blobc_os_socket listener = w->listener;
        double pause = w->listen_again - blobc_os_monotonic();
        if (listener != BLOBC_OS_NO_SOCKET && pause > 0) {
            listener = BLOBC_OS_NO_SOCKET;
            if (timeout < 0 || pause * 1000 < timeout) timeout = (int)(pause * 1000) + 1;
        }
        bool incoming;
        int e = blobc_os_watch_wait(w->watch, timeout, listener, &incoming, on_change, w);
        if (e && e != EINTR) {
            char buf[128];
            cli_error("watching files: %s", blobc_os_error_text(e, buf, sizeof buf));
            return EXIT_USAGE;
        }
        if (incoming) notify_accept(w);
    }
}

static bool parse_ms(const char *s, unsigned *out) {
    unsigned long v;
    if (!cli_parse_uint(s, 60000, &v)) return false;
    *out = (unsigned)v;
    return true;
}

int cmd_watch(int argc, char **argv) {
    const char *notify = NULL, *debounce = NULL, *poll = NULL;
    opt own[] = {
        {"notify", 0, true, &notify, NULL},
        {"debounce", 0, true, &debounce, NULL},
        {"poll", 0, true, &poll, NULL},
        {NULL, 0, false, NULL, NULL},
    };
    watch_run w;
    memset(&w, 0, sizeof w);
    w.listener = BLOBC_OS_NO_SOCKET;
    w.debounce_ms = 30;
    unsigned poll_ms = 0;
    int rc = bake_setup("watch", argc, argv, own, watch_help, &w.r);
    if (rc || w.r.help) goto done;
    if ((debounce && !parse_ms(debounce, &w.debounce_ms)) ||
        (poll && (!parse_ms(poll, &poll_ms) || poll_ms == 0))) {
        usage_error("watch", "--%s needs milliseconds (up to 60000), got '%s'",
                    debounce && !parse_ms(debounce, &w.debounce_ms) ? "debounce" : "poll",
                    debounce && !parse_ms(debounce, &w.debounce_ms) ? debounce : poll);
        rc = EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < w.r.n; i++)
        if (strcmp(w.r.jobs[i].input, "-") == 0 || strcmp(w.r.jobs[i].output, "-") == 0) {
            usage_error("watch", "watch reads and writes files, not standard input or output");
            rc = EXIT_USAGE;
            goto done;
        }
    /* an input that is not there is a typo, not a file to wait for */
    for (size_t i = 0; i < w.r.n; i++) {
        blobc_os_info info;
        int e = blobc_os_stat(w.r.jobs[i].input, &info);
        if (e) {
            char buf[128];
            report_msg(w.r.jobs[i].input, "cannot watch '%s': %s", w.r.jobs[i].input,
                       blobc_os_error_text(e, buf, sizeof buf));
            rc = EXIT_USAGE;
            goto done;
        }
    }
    w.deps = calloc(w.r.n, sizeof *w.deps);
    w.dirty = calloc(w.r.n, sizeof *w.dirty);
    w.failed = calloc(w.r.n, sizeof *w.failed);
    w.lines = calloc(w.r.n, sizeof *w.lines);
    w.line_gen = calloc(w.r.n, sizeof *w.line_gen);
    w.subset = calloc(w.r.n, sizeof *w.subset);
    if (!w.deps || !w.dirty || !w.failed || !w.lines || !w.line_gen || !w.subset) {
        cli_error("out of memory");
        rc = EXIT_USAGE;
        goto done;
    }
    w.r.bo.deps = true;
    w.r.bo.copy_inputs = true; /* editors rewrite files in place while they are baked */
    int e = blobc_os_watch_open(poll_ms, &w.watch);
    if (e) {
        char buf[128];
        cli_error("watching files: %s", blobc_os_error_text(e, buf, sizeof buf));
        rc = EXIT_USAGE;
        goto done;
    }
    if (notify && (rc = notify_start(&w, notify))) goto done;
    for (size_t j = 0; j < w.r.n; j++) {
        w.dirty[j] = true;
        add_dep(&w.deps[j], w.r.jobs[j].input);
    }
    bake_dirty(&w);
    rc = watch_loop(&w);
done:
    for (size_t i = 0; w.deps && i < w.r.n; i++) free_deps(&w.deps[i]);
    free_deps(&w.live);
    for (size_t i = 0; w.lines && i < w.r.n; i++) free(w.lines[i]);
    for (size_t i = 0; i < w.nclients; i++) blobc_os_socket_close(w.clients[i].s);
    free(w.clients);
    blobc_os_socket_close(w.listener);
    blobc_os_watch_close(w.watch);
    free(w.deps);
    free(w.dirty);
    free(w.failed);
    free(w.lines);
    free(w.line_gen);
    free(w.subset);
    bake_free(&w.r);
    return rc;
}
