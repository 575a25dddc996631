/*
 * batch.c - runs one function over many inputs on a pool of threads, for
 * `blobc bake` with several inputs. Each job's messages are collected in
 * its own buffer and printed in input order once the job and every job
 * before it are done, so the output of a parallel run reads like that of
 * a serial one. On a terminal a progress line (done/total and the file
 * being worked on) is kept at the bottom of standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platform/platform.h"

typedef struct slot {
    blobc_os_memstream msg; /* the job's messages */
    int rc;
    bool done;
} slot;

typedef struct pool {
    blobc_os_mutex mu;
    blobc_os_cond cv;
    batch_fn *fn;
    void *ctx;
    const char *const *names;
    slot *slots;
    size_t n;
    size_t next;       /* the next job to start */
    size_t ndone;
    const char *current;
} pool;

/* Runs job i with its messages captured in its slot. */
static void run_job(pool *p, size_t i) {
    slot *s = &p->slots[i];
    FILE *msg = blobc_os_memstream_open(&s->msg);
    set_report_stream(msg ? msg : stderr);
    int rc = p->fn(p->ctx, i, msg ? msg : stderr);
    set_report_stream(NULL);
    blobc_os_memstream_close(&s->msg);
    blobc_os_mutex_lock(&p->mu);
    s->rc = rc;
    s->done = true;
    p->ndone++;
    blobc_os_cond_broadcast(&p->cv);
    blobc_os_mutex_unlock(&p->mu);
}

/* Takes the next job to start, or returns false when none is left. */
static bool take(pool *p, size_t *i) {
    blobc_os_mutex_lock(&p->mu);
    bool any = p->next < p->n;
    if (any) {
        *i = p->next++;
        p->current = p->names[*i];
    }
    blobc_os_mutex_unlock(&p->mu);
    return any;
}

static void worker(void *arg) {
    pool *p = arg;
    size_t i;
    while (take(p, &i)) run_job(p, i);
}

static void progress(const pool *p, bool on) {
    if (!on) return;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", p->ndone, p->n, p->current ? p->current : "");
    fflush(stderr);
}

/* Prints the messages of every finished job not printed yet, in order,
 * from *printed on; called with the lock held. Returns the worst exit code. */
static int flush_done(pool *p, size_t *printed, bool show) {
    int rc = 0;
    while (*printed < p->n && p->slots[*printed].done) {
        slot *s = &p->slots[(*printed)++];
        if (s->msg.len) {
            if (show) fputs("\r\033[K", stderr);
            fwrite(s->msg.text, 1, s->msg.len, stderr);
        }
        free(s->msg.text);
        s->msg.text = NULL;
        if (s->rc > rc) rc = s->rc;
    }
    return rc;
}

int run_batch(size_t n, int jobs, bool show_progress, const char *const *names, batch_fn *fn,
              void *ctx) {
    pool p;
    memset(&p, 0, sizeof p);
    p.fn = fn;
    p.ctx = ctx;
    p.names = names;
    p.n = n;
    p.slots = calloc(n ? n : 1, sizeof *p.slots);
    if (!p.slots) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_USAGE;
    }
    blobc_os_mutex_init(&p.mu);
    blobc_os_cond_init(&p.cv);
    size_t nthreads = jobs > 1 ? (size_t)jobs : 0;
    if (nthreads > n) nthreads = n;
    blobc_os_thread *threads = nthreads ? calloc(nthreads, sizeof *threads) : NULL;
    size_t started = 0;
    while (threads && started < nthreads && blobc_os_thread_start(&threads[started], worker, &p) == 0)
        started++;
    int rc = 0, c;
    size_t printed = 0, i;
    if (started == 0) {
        /* No pool (-j 1, or threads unavailable): this thread does the work. */
        while (take(&p, &i)) {
            progress(&p, show_progress);
            run_job(&p, i);
            if ((c = flush_done(&p, &printed, show_progress)) > rc) rc = c;
        }
    } else {
        blobc_os_mutex_lock(&p.mu);
        while (printed < n) {
            if ((c = flush_done(&p, &printed, show_progress)) > rc) rc = c;
            if (printed == n) break;
            progress(&p, show_progress);
            blobc_os_cond_wait(&p.cv, &p.mu);
        }
        blobc_os_mutex_unlock(&p.mu);
        for (size_t t = 0; t < started; t++) blobc_os_thread_join(&threads[t]);
    }
    if (show_progress) fputs("\r\033[K", stderr);
    free(threads);
    free(p.slots);
    blobc_os_cond_destroy(&p.cv);
    blobc_os_mutex_destroy(&p.mu);
    return rc;
}

int online_cores(void) { return blobc_os_cores(); }
