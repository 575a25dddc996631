/*
 * batch.c - blobc_bake_batch: the jobs on a pool of threads, and their
 * messages handed to the caller in input order on the calling thread, so
 * that a parallel run reads like a serial one.
 */
#include "pipeline/pipeline_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/fileio.h"
#include "platform/platform.h"

typedef struct pool {
    blobc_os_mutex mu;
    blobc_os_cond cv;
    const blobc_job *jobs;
    const blobc_pl_prep *prep;
    const blobc_batch_options *o;
    blobc_pl_slot *slots;
    size_t n;
    size_t next;  /* the next job to start */
    size_t ndone;
} pool;

static void event(const blobc_batch_options *o, blobc_event ev) {
    if (o->on_event) o->on_event(o->ctx, &ev);
}

/* How often the calling thread looks at what the workers did, when it
 * is not woken by the end of the batch: a progress line moves twenty
 * times a second, and a worker never makes a system call to wake it.
 * (Waking it at every job cost about four futex calls an asset on a
 * batch of small ones, a fifth of all its calls.) */
#define DELIVER_MS 50

/* Takes the next job to start, or returns false when none is left. */
static bool take(pool *p, size_t *i) {
    blobc_os_mutex_lock(&p->mu);
    bool any = p->next < p->n;
    if (any) *i = p->next++;
    blobc_os_mutex_unlock(&p->mu);
    return any;
}

/* Runs job i; the last to finish wakes the calling thread. */
static void run(pool *p, size_t i) {
    blobc_pl_run_job(&p->jobs[i], &p->prep[i], p->o, &p->slots[i]);
    blobc_os_mutex_lock(&p->mu);
    p->slots[i].done = true;
    if (++p->ndone == p->n) blobc_os_cond_broadcast(&p->cv);
    blobc_os_mutex_unlock(&p->mu);
}

static void worker(void *arg) {
    pool *p = arg;
    size_t i;
    while (take(p, &i)) run(p, i);
}

/* Hands over the events of job i, which is done. */
static void deliver(const pool *p, size_t i) {
    const blobc_pl_slot *s = &p->slots[i];
    for (size_t k = 0; k < s->nmsgs; k++)
        event(p->o, (blobc_event){s->msgs[k].kind, i, &s->msgs[k].error, 0, false, 0, 0, NULL, 0,
                                  NULL, 0, 0});
    event(p->o, (blobc_event){BLOBC_EVENT_DONE, i, &s->error, s->status, s->cached, s->suppressed, 0,
                              (const char *const *)s->files, s->nfiles,
                              (const char *const *)s->unread, s->nunread, s->skipped});
}

/* Delivers what is ready: START for the jobs taken up since *started, the
 * events of the finished jobs from *shown on, in order. Called with the
 * lock held; the caller's callback runs without it. */
static void deliver_ready(pool *p, size_t *started, size_t *shown) {
    while (*started < p->next || (*shown < p->n && p->slots[*shown].done)) {
        bool start = *started < p->next;
        size_t i = start ? (*started)++ : (*shown)++;
        size_t done = p->ndone;
        blobc_os_mutex_unlock(&p->mu);
        if (start)
            event(p->o, (blobc_event){BLOBC_EVENT_START, i, NULL, 0, false, 0, done, NULL, 0, NULL, 0, 0});
        else deliver(p, i);
        blobc_os_mutex_lock(&p->mu);
    }
}

static void run_all(pool *p, unsigned threads) {
    size_t nthreads = threads > 1 ? threads : 0, started = 0, shown = 0, i;
    if (nthreads > p->n) nthreads = p->n;
    blobc_os_thread *t = nthreads ? calloc(nthreads, sizeof *t) : NULL;
    size_t running = 0;
    while (t && running < nthreads && blobc_os_thread_start(&t[running], worker, p) == 0) running++;
    if (running == 0) {
        /* no pool (one thread asked for, or none could start): this one works */
        while (take(p, &i)) {
            event(p->o,
                  (blobc_event){BLOBC_EVENT_START, i, NULL, 0, false, 0, p->ndone, NULL, 0, NULL, 0, 0});
            run(p, i);
            deliver(p, i);
        }
    } else {
        blobc_os_mutex_lock(&p->mu);
        for (;;) {
            deliver_ready(p, &started, &shown);
            if (shown == p->n) break;
            if (p->ndone < p->n) blobc_os_cond_wait_ms(&p->cv, &p->mu, DELIVER_MS);
        }
        blobc_os_mutex_unlock(&p->mu);
        for (size_t k = 0; k < running; k++) blobc_os_thread_join(&t[k]);
    }
    free(t);
}

/* The files the jobs write, numbered: 2i the output of job i, 2i + 1 its
 * depfile (NULL when it has none). */
static const char *file_of(const blobc_job *jobs, size_t k) {
    return k % 2 ? jobs[k / 2].depfile : jobs[k / 2].output;
}

/* The clash of file k with file fk, written before it. */
static void clash(const blobc_job *jobs, size_t fk, size_t k, blobc_error *e) {
    const char *a = file_of(jobs, fk), *b = file_of(jobs, k);
    bool same = strcmp(a, b) == 0;
    if (fk / 2 == k / 2)
        blobc_err(e, BLOBC_EARG, "the output and the depfile of input '%s' would both be written "
                  "to '%s'%s%s%s", jobs[k / 2].input, a, same ? "" : " (also named '",
                  same ? "" : b, same ? "" : "')");
    else
        blobc_err(e, BLOBC_EARG, "inputs '%s' and '%s' would both be written to '%s'%s%s%s",
                  jobs[fk / 2].input, jobs[k / 2].input, a, same ? "" : " (also named '",
                  same ? "" : b, same ? "" : "')");
}

/* Two files of the jobs (outputs and depfiles) that are one: a CLASH
 * event for each, and BLOBC_EARG. What each output was is kept in prep. */
static blobc_status check_clashes(const blobc_job *jobs, size_t n, const blobc_batch_options *o,
                                  blobc_pl_prep *prep, blobc_error *err) {
    blobc_outputs *seen = blobc_outputs_new();
    size_t *file = n < SIZE_MAX / 4 ? malloc((2 * n + 1) * sizeof *file) : NULL, nfiles = 0;
    blobc_status st = seen && file ? BLOBC_OK : blobc_err_nomem(err);
    for (size_t k = 0; k < 2 * n && st != BLOBC_ENOMEM; k++) {
        size_t i = k / 2, first;
        if (!file_of(jobs, k)) continue;
        blobc_error e;
        blobc_error_clear(&e);
        if (blobc_outputs_add_known(seen, file_of(jobs, k), &first, k % 2 ? NULL : &prep[i].out,
                                    &e) != BLOBC_OK) {
            *err = e;
            st = e.status;
            event(o, (blobc_event){BLOBC_EVENT_ERROR, i, &e, st, false, 0, 0, NULL, 0, NULL, 0, 0});
            break;
        }
        file[nfiles++] = k; /* the number blobc_outputs_add gave it */
        if (first == SIZE_MAX) continue;
        clash(jobs, file[first], k, &e);
        if (st == BLOBC_OK) *err = e;
        st = BLOBC_EARG;
        event(o, (blobc_event){BLOBC_EVENT_CLASH, i, &e, BLOBC_EARG, false, 0, 0, NULL, 0, NULL, 0, 0});
    }
    free(file);
    blobc_outputs_free(seen);
    return st;
}

/* The caller's inputs and every job's: the files no job may write. Each
 * job's input is looked at here once, and what it was kept in prep. */
static blobc_status every_input(const blobc_job *jobs, size_t n, const blobc_inputs *theirs,
                                blobc_pl_prep *prep, blobc_inputs **set, blobc_error *err) {
    *set = blobc_inputs_new();
    if (!*set) return blobc_err_nomem(err);
    blobc_status st = blobc_inputs_add_all(*set, theirs, err);
    for (size_t i = 0; i < n && !st; i++) {
        const char *in = jobs[i].input;
        if (strcmp(in, "-") == 0) st = blobc_inputs_add(*set, in, err);
        else if ((prep[i].in_seen = blobc_os_stat(in, &prep[i].in) == 0))
            st = blobc_inputs_add_info(*set, in, &prep[i].in, err);
        /* a missing input is reported by the job that reads it */
    }
    return st;
}

/* At most this many output directories are held open at once (each
 * costs a descriptor); the outputs of others are written by path. */
#define MAX_DIRS 64

/* The output directories held open, one for all the outputs in it. */
typedef struct dirs {
    char *path[MAX_DIRS];
    blobc_os_outdir *h[MAX_DIRS];
    size_t n;
} dirs;

/* Holds open the directory of each output seen (there or not yet there),
 * where it is a directory already; the last one found first, since a
 * batch's outputs mostly share one. Out of memory: fewer held. */
static void open_dirs(size_t n, blobc_pl_prep *prep, dirs *d) {
    size_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = prep[i].out.target;
        int f = prep[i].out.found;
        if (!t || (f && f != ENOENT)) continue;
        size_t len = blobc_os_dir_len(t);
        char *dir = malloc(len ? len + 1 : 2);
        if (!dir) continue;
        memcpy(dir, len ? t : ".", len ? len : 1);
        dir[len ? len : 1] = '\0';
        size_t k = last < d->n && strcmp(d->path[last], dir) == 0 ? last : 0;
        while (k < d->n && strcmp(d->path[k], dir) != 0) k++;
        if (k == d->n && d->n < MAX_DIRS) {
            /* one that cannot be opened (still to be made) is kept too,
             * so it is not tried again for each of its outputs */
            if (blobc_os_outdir_open(dir, &d->h[k]) != 0) d->h[k] = NULL;
            d->path[d->n++] = dir;
            dir = NULL;
        }
        free(dir);
        if (k < d->n) prep[i].dir = d->h[last = k];
    }
}

static void close_dirs(dirs *d) {
    for (size_t k = 0; k < d->n; k++) {
        blobc_os_outdir_close(d->h[k]);
        free(d->path[k]);
    }
}

static void free_prep(blobc_pl_prep *prep, size_t n) {
    for (size_t i = 0; prep && i < n; i++) free(prep[i].out.target);
    free(prep);
}

/* EIO, ENOMEM and EARG (a file, memory, a call) before EINPUT (the data). */
static int gravity(blobc_status st) { return st == BLOBC_OK ? 0 : st == BLOBC_EINPUT ? 1 : 2; }

blobc_status blobc_bake_batch(const blobc_job *jobs, size_t n, const blobc_batch_options *opts,
                              blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!opts) return blobc_err_arg(err, __func__, "opts is NULL");
    if (!jobs && n) return blobc_err_arg(err, __func__, "jobs is NULL");
    for (size_t i = 0; i < n; i++)
        if (!jobs[i].input || !jobs[i].output)
            return blobc_err_arg(err, __func__, "a job without an input or an output");
    blobc_pl_prep *prep = calloc(n ? n : 1, sizeof *prep);
    if (!prep) return blobc_err_nomem(err);
    blobc_status st = check_clashes(jobs, n, opts, prep, err);
    blobc_batch_options o = *opts;
    blobc_inputs *inputs = NULL;
    if (st || (st = every_input(jobs, n, opts->output.inputs, prep, &inputs, err))) {
        blobc_inputs_free(inputs);
        free_prep(prep, n);
        return st;
    }
    o.output.inputs = inputs;
    dirs d;
    d.n = 0;
    open_dirs(n, prep, &d);
    pool p;
    memset(&p, 0, sizeof p);
    p.jobs = jobs;
    p.prep = prep;
    p.o = &o;
    p.n = n;
    p.slots = calloc(n ? n : 1, sizeof *p.slots);
    bool mu = p.slots && blobc_os_mutex_init(&p.mu) == 0;
    bool cv = mu && blobc_os_cond_init(&p.cv) == 0;
    if (!cv) {
        if (mu) blobc_os_mutex_destroy(&p.mu);
        free(p.slots);
        close_dirs(&d);
        free_prep(prep, n);
        blobc_inputs_free(inputs);
        return blobc_err_nomem(err);
    }
    run_all(&p, o.threads);
    for (size_t i = 0; i < n; i++) {
        if (gravity(p.slots[i].status) > gravity(st)) {
            st = p.slots[i].status;
            *err = p.slots[i].error;
        }
        free(p.slots[i].msgs);
        for (size_t k = 0; k < p.slots[i].nfiles; k++) free(p.slots[i].files[k]);
        free(p.slots[i].files);
        for (size_t k = 0; k < p.slots[i].nunread; k++) free(p.slots[i].unread[k]);
        free(p.slots[i].unread);
    }
    free(p.slots);
    blobc_os_cond_destroy(&p.cv);
    blobc_os_mutex_destroy(&p.mu);
    close_dirs(&d);
    free_prep(prep, n);
    blobc_inputs_free(inputs);
    return st;
}
