/*
 * job.c - one job of a batch: the output refused when it is an input,
 * the bake (through the cache when there is one), the depfile, the
 * writes. Its messages go to its slot, never straight to the caller.
 */
#include "pipeline/pipeline_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/hashtab.h"
#include "platform/platform.h"

/* Keeps a message of the job; one that cannot be kept makes the job's
 * status BLOBC_ENOMEM. */
static void blobc_pl_keep(blobc_pl_slot *s, blobc_event_kind kind, const blobc_error *e) {
    if (!blobc_grow((void **)&s->msgs, &s->cap, s->nmsgs + 1, sizeof *s->msgs)) {
        s->status = BLOBC_ENOMEM;
        return;
    }
    s->msgs[s->nmsgs].kind = kind;
    s->msgs[s->nmsgs++].error = *e;
}

/* A file the job could not read, kept once (a plan that failed on it is
 * followed by a bake that fails on it again). */
static void keep_unread(void *ctx, const char *path) {
    blobc_pl_slot *s = ctx;
    for (size_t i = 0; i < s->nunread; i++)
        if (strcmp(s->unread[i], path) == 0) return;
    char **bigger = realloc(s->unread, (s->nunread + 1) * sizeof *bigger);
    if (bigger) s->unread = bigger;
    if (!bigger || !(s->unread[s->nunread] = strdup(path))) {
        s->status = BLOBC_ENOMEM;
        return;
    }
    s->nunread++;
}

static void keep_error(void *ctx, const blobc_error *e) { blobc_pl_keep(ctx, BLOBC_EVENT_ERROR, e); }
static void keep_warning(void *ctx, const blobc_error *w) { blobc_pl_keep(ctx, BLOBC_EVENT_WARNING, w); }

/* What the job's bake came to: the output in buf, or on a cache hit in
 * the entry, where it lies (not copied). */
/* The files the bake's @path checks found, each once, for the depfile:
 * NUL-terminated names one after another in text, where each starts in at. */
typedef struct assets {
    blobc_buffer text;
    size_t *at;
    size_t n, cap;
    blobc_hashtab seen;
    bool nomem;
} assets;

typedef struct baked {
    blobc_buffer buf;
    blobc_cache_entry hit;
    blobc_bake_plan plan;
    bool planned;
    assets files;
} baked;

static void keep_asset(void *ctx, const char *path) {
    assets *a = ctx;
    size_t len = strlen(path);
    uint64_t h = blobc_hash_bytes(path, len);
    blobc_hprobe pr;
    for (uint32_t i = blobc_hashtab_first(&a->seen, h, &pr); i; i = blobc_hashtab_next(&a->seen, &pr))
        if (strcmp((const char *)a->text.data + a->at[i - 1], path) == 0) return;
    size_t start = a->text.len;
    if (a->n >= UINT32_MAX - 1 || !blobc_grow((void **)&a->at, &a->cap, a->n + 1, sizeof *a->at) ||
        !blobc_buf_append(&a->text, path, len + 1) || !blobc_hashtab_add(&a->seen, h, (uint32_t)a->n + 1)) {
        a->nomem = true;
        return;
    }
    a->at[a->n++] = start;
}

static void assets_free(assets *a) {
    blobc_buffer_free(&a->text);
    free(a->at);
    blobc_hashtab_free(&a->seen);
}

static void warn_if(blobc_pl_slot *s, const blobc_error *w) {
    if (w->status != BLOBC_OK) blobc_pl_keep(s, BLOBC_EVENT_WARNING, w);
}

/* The planned bake: from the cache when it holds the output, else baked
 * (and then stored there). */
static blobc_status bake_planned(const blobc_batch_options *o, const char *text, size_t len,
                                 const char *name, blobc_bake_options *bo, baked *b,
                                 blobc_pl_slot *s, bool look, blobc_error *err) {
    blobc_error w;
    bool cache = o->cache && !b->plan.checks_files;
    if (cache && look) {
        blobc_cache_get_file(o->cache, &b->plan, len, bo, &b->hit, &s->cached, &w);
        warn_if(s, &w);
        if (s->cached) return BLOBC_OK;
    }
    bo->schema = b->plan.schema;
    blobc_status st = blobc_bake_memory(text, len, name, bo, &b->buf, err);
    if (st == BLOBC_OK && cache) {
        blobc_cache_put(o->cache, &b->plan, len, b->buf.data, b->buf.len, &w);
        warn_if(s, &w);
    }
    return st;
}

/* The input's text: mapped, or with copy_inputs read into memory, and
 * then only from a regular file (standard input aside). */
static blobc_status read_input(const blobc_batch_options *o, const char *in, blobc_file_view *v,
                               blobc_error *err) {
    if (!o->copy_inputs) return blobc_file_map(in, v, err);
    memset(v, 0, sizeof *v);
    uint8_t *data;
    size_t len;
    blobc_read_options ro = {o->bake.max_input, false, NULL, 0, strcmp(in, "-") != 0};
    blobc_status st = blobc_read_file_ex(in, &ro, &data, &len, err);
    if (st == BLOBC_OK) *v = (blobc_file_view){data, len, false};
    return st;
}

/* With a depfile or a cache the input is read whole and planned first:
 * the plan names the schema files and gives the cache key. A plan that
 * fails is followed by a plain bake, which reports the error in full. */
static blobc_status bake_with_plan(const blobc_batch_options *o, const blobc_job *job,
                                   blobc_bake_options *bo, baked *b, blobc_pl_slot *s, bool look,
                                   blobc_error *err) {
    const char *in = job->input;
    blobc_file_view v;
    /* A mapped input is planned from its file (blobc_bake_plan_file): on
     * a hit its pages are then never touched past the meta keys. */
    blobc_os_info info;
    bool from_file = !o->copy_inputs && strcmp(in, "-") != 0 && blobc_os_stat(in, &info) == 0 &&
                     (job->depfile || o->deps || blobc_cache_asks(o->cache, BLOBC_INPUT_YAML, info.size) ||
                      blobc_cache_asks(o->cache, BLOBC_INPUT_JSON, info.size));
    blobc_status st = from_file ? blobc_bake_plan_file(in, bo, &b->plan, &v, err)
                                : read_input(o, in, &v, err);
    bool planned = from_file && st == BLOBC_OK;
    if (from_file && v.data) st = BLOBC_OK; /* a plan that failed: the bake says why */
    if (st && st != BLOBC_ENOMEM && strcmp(in, "-") != 0) keep_unread(s, in);
    if (st) return st;
    const char *text = (const char *)v.data, *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
    /* An input no store of the cache is asked for (a small one, with
     * only a server) needs no key: without a depfile, no plan either. */
    blobc_input_format fmt = bo->input ? bo->input : blobc_input_format_of(text, v.len, name);
    bool plan = job->depfile || o->deps || blobc_cache_asks(o->cache, fmt, v.len);
    if (planned && !plan) blobc_bake_plan_free(&b->plan);
    if (plan && (planned ||
                 (!from_file && blobc_bake_plan_memory(text, v.len, name, bo, &b->plan, err) == BLOBC_OK))) {
        b->planned = true;
        st = bake_planned(o, text, v.len, name, bo, b, s, look, err);
    } else {
        st = blobc_bake_memory(text, v.len, name, bo, &b->buf, err);
    }
    blobc_file_unmap(&v);
    return st;
}

/* The files a job reads besides its schema's: its input, a table bake's
 * other tables, the string table; into names (room for 2 + ntables) when
 * not NULL. Their count. */
static size_t job_inputs(const blobc_job *job, const blobc_bake_options *bo, const char **names) {
    size_t n = 0;
    if (names) names[n] = job->input;
    n++;
    for (size_t i = 0; i < bo->ntables; i++, n++)
        if (names) names[n] = bo->tables[i].path;
    if (bo->strings && names) names[n] = bo->strings;
    return n + (bo->strings != NULL);
}

/* With opts->deps: the job's inputs and the schema's files, kept for the
 * DONE event (the plan is gone by then). */
static void keep_files(const blobc_job *job, const blobc_bake_options *bo, const baked *b,
                       blobc_pl_slot *s) {
    size_t inputs = job_inputs(job, bo, NULL);
    size_t n = inputs + blobc_schema_file_count(b->plan.schema);
    const char **in = malloc(inputs * sizeof *in);
    if (!in || !(s->files = calloc(n, sizeof *s->files))) {
        free(in);
        s->status = BLOBC_ENOMEM;
        return;
    }
    job_inputs(job, bo, in);
    for (size_t i = 0; i < n; i++) {
        const char *f = i < inputs ? in[i] : blobc_schema_file(b->plan.schema, i - inputs);
        if (!(s->files[s->nfiles++] = strdup(f))) s->status = BLOBC_ENOMEM;
    }
    free(in);
}

/* Inputs up to this size that the batch saw as regular files are read
 * whole with one open, one read and one close: mapping one costs an
 * fstat, mmap and munmap more, and saves no copy worth having there. */
#define SMALL_INPUT (64 * 1024)

/* The small input's text (16-byte aligned; free() it), or false: read it
 * the usual way, which also says what went wrong. */
static bool read_small(const char *path, const blobc_pl_prep *prep, bool regular, uint8_t **data,
                       size_t *len) {
    if (!prep->in_seen || prep->in.kind != BLOBC_OS_REGULAR || prep->in.size > SMALL_INPUT)
        return false;
    blobc_os_fd fd = BLOBC_OS_NO_FD;
    blobc_os_kind kind = BLOBC_OS_REGULAR;
    /* `regular`: never waiting on what took the file's place meanwhile */
    if ((regular ? blobc_os_open_regular(path, &fd, &kind) : blobc_os_open_read(path, &fd)) != 0)
        return false;
    if (fd == BLOBC_OS_NO_FD) return false;
    /* One byte more than the size seen is asked for, and exactly the
     * size must come: then the file ended there (POSIX reads a regular
     * file short only at its end, or when a signal cuts the read), and
     * no second read is needed to see the end. Any other count (the
     * file grew or shrank meanwhile, a signal) leaves it to the usual
     * way, which reads to the end. */
    size_t cap = (size_t)prep->in.size + 1, got = 0;
    uint8_t *buf = blobc_os_alloc16(cap);
    bool ok = buf && blobc_os_read(fd, buf, cap, &got) == 0 && got == cap - 1;
    blobc_os_close(fd);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *len = got;
    return true;
}

/* The bake without a plan: from memory when the input is small, else
 * from the file. */
static blobc_status bake_input(const blobc_job *job, const blobc_pl_prep *prep,
                               const blobc_bake_options *bo, blobc_buffer *out, blobc_error *err) {
    uint8_t *text;
    size_t len;
    if (strcmp(job->input, "-") == 0 || !read_small(job->input, prep, bo->regular_files, &text, &len))
        return blobc_bake_file(job->input, bo, out, err);
    blobc_status st = blobc_bake_memory((const char *)text, len, job->input, bo, out, err);
    free(text);
    return st;
}

/* The depfile's rule: the job's inputs, then the schema's files and the
 * files @path checks found. */
static blobc_status make_depfile(const blobc_job *job, const blobc_batch_options *o, const baked *b,
                                 blobc_buffer *dep, blobc_error *err) {
    const assets *a = &b->files;
    if (a->nomem) return blobc_err_nomem(err);
    size_t n = job_inputs(job, &o->bake, NULL);
    const char **names = malloc((n + a->n) * sizeof *names);
    if (!names) return blobc_err_nomem(err);
    job_inputs(job, &o->bake, names);
    for (size_t i = 0; i < a->n; i++) names[n + i] = (const char *)a->text.data + a->at[i];
    blobc_status st = blobc_depfile_inputs(job->output, names, n, b->plan.schema, names + n, a->n, dep, err);
    free(names);
    return st;
}

/* The depfile's text, then the output, then the depfile: a depfile that
 * cannot be made stops the output too (a build tool would take the output
 * for up to date). */
static blobc_status write_all(const blobc_job *job, const blobc_pl_prep *prep,
                              const blobc_batch_options *o, const baked *b, bool cached, bool *rejected,
                              blobc_error *err) {
    blobc_buffer dep = {0};
    blobc_status st = BLOBC_OK;
    if (job->depfile && b->planned && (st = make_depfile(job, o, b, &dep, err)) != BLOBC_OK)
        blobc_err_file(err, job->depfile);
    if (!st && cached)
        st = blobc_cache_entry_write(&b->hit, job->output, &o->output, rejected, err);
    else if (!st)
        st = blobc_write_output_known(job->output, &prep->out, prep->dir, b->buf.data, b->buf.len,
                                      &o->output, err);
    if (!st && job->depfile) st = blobc_write_output(job->depfile, dep.data, dep.len, &o->output, err);
    blobc_buffer_free(&dep);
    return st;
}

/* The input the job's output is, as the batch saw the output; NULL if
 * none. */
static const char *output_is_input(const blobc_job *job, const blobc_pl_prep *prep,
                                   const blobc_inputs *inputs) {
    if (!prep->out.target || (prep->out.found && prep->out.found != ENOENT))
        return blobc_inputs_find(inputs, job->output);
    return prep->out.found ? NULL : blobc_inputs_find_info(inputs, &prep->out.info);
}

void blobc_pl_run_job(const blobc_job *job, const blobc_pl_prep *prep, const blobc_batch_options *o,
                      blobc_pl_slot *s) {
    blobc_error err;
    blobc_error_clear(&err);
    const char *refused = job->output, *in_name = output_is_input(job, prep, o->output.inputs);
    if (!in_name && job->depfile)
        in_name = blobc_inputs_find(o->output.inputs, refused = job->depfile);
    if (in_name) {
        s->status = blobc_err_refuse_input(&err, in_name, refused);
        blobc_pl_keep(s, BLOBC_EVENT_ERROR, &err);
        s->error = err;
        return;
    }
    blobc_bake_options bo = o->bake;
    bo.output_path = job->output;
    bo.regular_files |= o->copy_inputs;
    bo.unread = keep_unread;
    bo.unread_ctx = s;
    size_t kept = s->nmsgs;
    blobc_diag_sink sink = {keep_error, s, o->max_errors, 0, keep_warning, 0};
    bo.diag = &sink;
    baked b;
    memset(&b, 0, sizeof b);
    if (job->depfile) {
        bo.asset = keep_asset;
        bo.asset_ctx = &b.files;
    }
    bool read_whole = o->cache || job->depfile || o->deps || o->copy_inputs;
    blobc_status st = read_whole ? bake_with_plan(o, job, &bo, &b, s, true, &err)
                                 : bake_input(job, prep, &bo, &b.buf, &err);
    bool rejected = false;
    if (st == BLOBC_OK) st = write_all(job, prep, o, &b, s->cached, &rejected, &err);
    if (rejected) {
        /* The hit proved bad as it was copied out (nothing was written):
         * a warning, and the bake a miss would have run, which replaces
         * the entry. */
        blobc_pl_keep(s, BLOBC_EVENT_WARNING, &err);
        blobc_error_clear(&err);
        blobc_cache_entry_free(&b.hit);
        blobc_bake_plan_free(&b.plan);
        assets_free(&b.files);
        memset(&b, 0, sizeof b);
        s->cached = false;
        st = bake_with_plan(o, job, &bo, &b, s, false, &err);
        if (st == BLOBC_OK) st = write_all(job, prep, o, &b, false, &rejected, &err);
    }
    if (o->deps && b.planned) keep_files(job, &bo, &b, s);
    /* the sink kept the errors of the data; any other comes here */
    bool delivered = false;
    for (size_t i = kept; i < s->nmsgs; i++) delivered |= s->msgs[i].kind == BLOBC_EVENT_ERROR;
    if (st != BLOBC_OK && !delivered) blobc_pl_keep(s, BLOBC_EVENT_ERROR, &err);
    s->suppressed = sink.suppressed;
    s->skipped = sink.skipped;
    if (s->status == BLOBC_OK) s->status = st;
    s->error = err;
    if (s->cached) blobc_cache_entry_free(&b.hit);
    else blobc_buffer_free(&b.buf);
    blobc_bake_plan_free(&b.plan);
    assets_free(&b.files);
}
