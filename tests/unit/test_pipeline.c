/*
 * test_pipeline.c - blobc_bake_batch: many inputs on worker threads,
 * through a directory cache, with depfiles; every event in input order on
 * the calling thread; clashes and inputs refused before anything is
 * baked or written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blobc/blobc.h"
#include "blobc/cache.h"
#include "blobc/pipeline.h"
#include "test.h"

#define NJOBS 12

/* Set on the thread that calls blobc_bake_batch, and on no other: the
 * events must all arrive there (no pthreads: the test runs on Windows). */
static _Thread_local int on_caller;

typedef struct seen {
    int wrong_thread;
    int out_of_order;   /* an event of a job before the previous job's DONE */
    size_t next_done;   /* the job whose DONE comes next */
    size_t starts, errors, warnings, clashes, cached;
    blobc_status status[NJOBS];
    char first_error[BLOBC_ERROR_MSG_MAX];
} seen;

static void on_event(void *ctx, const blobc_event *ev) {
    seen *s = ctx;
    if (!on_caller) s->wrong_thread++;
    switch (ev->kind) {
    case BLOBC_EVENT_START: s->starts++; return;
    case BLOBC_EVENT_CLASH:
        s->clashes++;
        snprintf(s->first_error, sizeof s->first_error, "%s", ev->error->message);
        return;
    case BLOBC_EVENT_ERROR:
        if (!s->errors++) snprintf(s->first_error, sizeof s->first_error, "%s", ev->error->message);
        break;
    case BLOBC_EVENT_WARNING: s->warnings++; break;
    case BLOBC_EVENT_DONE:
        s->status[ev->job] = ev->status;
        s->cached += ev->cached;
        break;
    }
    if (ev->job != s->next_done) s->out_of_order++;
    if (ev->kind == BLOBC_EVENT_DONE) s->next_done++;
}

static char dir[] = "/tmp/blobc-pipeline-test.XXXXXX";

static void put_file(const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char *path_of(const char *fmt, int i) {
    char name[64], *p = malloc(256);
    snprintf(name, sizeof name, fmt, i);
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static char *slurp(const char *path, size_t *len) {
    uint8_t *data = NULL;
    blobc_error err;
    if (blobc_read_file(path, &data, len, &err) != BLOBC_OK) return NULL;
    return (char *)data;
}

/* Runs the batch of NJOBS inputs (job 5 bad data when bad) and checks
 * what every run must hold. */
static blobc_status run(blobc_cache *cache, bool bad, seen *s, blobc_error *err) {
    blobc_job jobs[NJOBS];
    for (int i = 0; i < NJOBS; i++) {
        char text[128];
        snprintf(text, sizeof text, "$schema: t.schema\nx: %d\nname: n%d\ntags: [a, b]\n",
                 bad && i == 5 ? -1 : i, i);
        char name[32];
        snprintf(name, sizeof name, "in%d.yaml", i);
        put_file(name, text);
        jobs[i] = (blobc_job){path_of("in%d.yaml", i), path_of("out/o%d.blob", i),
                              path_of("out/o%d.blob.d", i)};
    }
    memset(s, 0, sizeof *s);
    on_caller = 1;
    blobc_batch_options o;
    memset(&o, 0, sizeof o);
    o.cache = cache;
    o.threads = 4;
    o.on_event = on_event;
    o.ctx = s;
    blobc_status st = blobc_bake_batch(jobs, NJOBS, &o, err);
    for (int i = 0; i < NJOBS; i++) {
        free((char *)jobs[i].input);
        free((char *)jobs[i].output);
        free((char *)jobs[i].depfile);
    }
    return st;
}

TEST(batch_in_order_cached_with_depfiles) {
    CHECK(test_mkdtemp(dir) != NULL);
    put_file("t.schema", "struct P { x: u32; name: string; tags: [string]; }\nroot P;\n");
    blobc_cache *cache = NULL;
    blobc_error err;
    char cdir[300];
    snprintf(cdir, sizeof cdir, "%s/cache", dir);
    CHECK_EQ_I(blobc_cache_open(cdir, &cache, &err), BLOBC_OK);
    seen s;
    CHECK_EQ_I(run(cache, false, &s, &err), BLOBC_OK);
    CHECK_EQ_I(s.wrong_thread, 0);
    CHECK_EQ_I(s.out_of_order, 0);
    CHECK_EQ_U(s.next_done, NJOBS);
    CHECK_EQ_U(s.starts, NJOBS);
    CHECK_EQ_U(s.errors + s.warnings + s.cached, 0);
    /* every output is what a bake of its own gives; the depfile names it,
     * its input and the schema */
    for (int i = 0; i < NJOBS; i++) {
        char *in = path_of("in%d.yaml", i), *out = path_of("out/o%d.blob", i);
        char *dep = path_of("out/o%d.blob.d", i);
        size_t len, dlen;
        char *got = slurp(out, &len), *deptext = slurp(dep, &dlen);
        blobc_buffer want = {0};
        CHECK_EQ_I(blobc_bake_file(in, NULL, &want, &err), BLOBC_OK);
        CHECK(got && len == want.len && memcmp(got, want.data, len) == 0);
        CHECK(deptext && strncmp(deptext, out, strlen(out)) == 0);
        CHECK(deptext && strstr(deptext, in) && strstr(deptext, "t.schema"));
        blobc_buffer_free(&want);
        free(got);
        free(deptext);
        free(in);
        free(out);
        free(dep);
    }
    /* again: every output from the cache, in order still */
    CHECK_EQ_I(run(cache, false, &s, &err), BLOBC_OK);
    CHECK_EQ_U(s.cached, NJOBS);
    CHECK_EQ_I(s.out_of_order, 0);
    uint64_t hits, misses;
    blobc_cache_counts(cache, &hits, &misses);
    CHECK_EQ_U(hits, NJOBS);
    CHECK_EQ_U(misses, NJOBS);
    /* a bad input fails alone, with its error before its DONE; the others
     * are written */
    CHECK_EQ_I(run(cache, true, &s, &err), BLOBC_EINPUT);
    CHECK_EQ_I(s.out_of_order, 0);
    CHECK_EQ_U(s.errors, 1);
    CHECK_CONTAINS(s.first_error, "-1");
    CHECK_EQ_I(s.status[5], BLOBC_EINPUT);
    CHECK_EQ_I(s.status[4], BLOBC_OK);
    CHECK_EQ_I(s.status[6], BLOBC_OK);
    CHECK_CONTAINS(err.file, "in5.yaml");
    blobc_cache_close(cache);
}

/* Two jobs writing one file under two spellings: refused, nothing written
 * (outputs and depfiles alike). */
TEST(clash_refused_before_baking) {
    char *in = path_of("in%d.yaml", 0), *out = path_of("clash%d.blob", 0);
    char other[300];
    snprintf(other, sizeof other, "%s/./clash0.blob", dir);
    blobc_job jobs[2] = {{in, out, NULL}, {in, other, NULL}};
    seen s;
    memset(&s, 0, sizeof s);
    on_caller = 1;
    blobc_batch_options o;
    memset(&o, 0, sizeof o);
    o.on_event = on_event;
    o.ctx = &s;
    blobc_error err;
    CHECK_EQ_I(blobc_bake_batch(jobs, 2, &o, &err), BLOBC_EARG);
    CHECK_EQ_U(s.clashes, 1);
    CHECK_EQ_U(s.starts, 0);
    CHECK_CONTAINS(s.first_error, "would both be written to");
    CHECK_CONTAINS(s.first_error, "(also named");
    struct stat st;
    CHECK(stat(out, &st) != 0);
    /* a depfile is written too: one that is its own job's output, or
     * another job's, clashes the same way */
    blobc_job own[1] = {{in, out, other}}, cross[2] = {{in, out, NULL}, {in, "x.blob", other}};
    for (int c = 0; c < 2; c++) {
        memset(&s, 0, sizeof s);
        on_caller = 1;
        CHECK_EQ_I(blobc_bake_batch(c ? cross : own, c ? 2 : 1, &o, &err), BLOBC_EARG);
        CHECK_EQ_U(s.clashes, 1);
        CHECK_EQ_U(s.starts, 0);
        CHECK_CONTAINS(s.first_error, c ? "inputs '" : "the output and the depfile of input '");
        CHECK(stat(out, &st) != 0);
    }
    free(in);
    free(out);
}

/* With opts.deps, DONE names what the job read: the input, the schema and
 * its import, in that order; a job that failed before its schema was known
 * names nothing. And every DONE names the files the job could not read:
 * the schema $schema names, an import, the input itself, each once. */
#define FSEEN 4
typedef struct files_seen {
    char names[FSEEN][4][256];
    size_t n[FSEEN];
    char unread[FSEEN][2][256];
    size_t nunread[FSEEN];
} files_seen;

static void keep_files(void *ctx, const blobc_event *ev) {
    files_seen *f = ctx;
    if (ev->kind != BLOBC_EVENT_DONE) return;
    f->n[ev->job] = ev->nfiles;
    for (size_t i = 0; i < ev->nfiles && i < 4; i++)
        snprintf(f->names[ev->job][i], 256, "%s", ev->files[i]);
    f->nunread[ev->job] = ev->nunread;
    for (size_t i = 0; i < ev->nunread && i < 2; i++)
        snprintf(f->unread[ev->job][i], 256, "%s", ev->unread[i]);
}

TEST(done_names_the_files_read) {
    put_file("base.schema", "struct Q { y: u32; }\n");
    put_file("m.schema", "import \"base.schema\";\nstruct M { q: Q; }\nroot M;\n");
    put_file("g.schema", "import \"gone.schema\";\nstruct G { q: Q; }\nroot G;\n");
    put_file("d.yaml", "$schema: m.schema\nq: {y: 1}\n");
    put_file("e.yaml", "$schema: none.schema\nq: {y: 1}\n");
    put_file("h.yaml", "$schema: g.schema\nq: {y: 1}\n");
    char *in = path_of("d.yaml%.0d", 0), *bad = path_of("e.yaml%.0d", 0);
    char *imp = path_of("h.yaml%.0d", 0), *gone = path_of("gone.yaml%.0d", 0);
    char *out = path_of("d.blob%.0d", 0), *out2 = path_of("e.blob%.0d", 0);
    char *out3 = path_of("h.blob%.0d", 0), *out4 = path_of("gone.blob%.0d", 0);
    blobc_job jobs[FSEEN] = {{in, out, NULL}, {bad, out2, NULL}, {imp, out3, NULL}, {gone, out4, NULL}};
    for (int deps = 1; deps >= 0; deps--) {
        files_seen f;
        memset(&f, 0, sizeof f);
        blobc_batch_options o;
        memset(&o, 0, sizeof o);
        o.deps = deps;
        o.threads = 2;
        o.on_event = keep_files;
        o.ctx = &f;
        blobc_error err;
        CHECK(blobc_bake_batch(jobs, FSEEN, &o, &err) != BLOBC_OK); /* the last three fail */
        CHECK_EQ_U(f.n[0], deps ? 3 : 0);
        if (deps) {
            CHECK_STR(f.names[0][0], in);
            CHECK_CONTAINS(f.names[0][1], "m.schema");
            CHECK_CONTAINS(f.names[0][2], "base.schema");
        }
        CHECK_EQ_U(f.nunread[0], 0);
        CHECK_EQ_U(f.n[1], 0);
        CHECK_EQ_U(f.nunread[1], 1);
        char want[300];
        snprintf(want, sizeof want, "%s/none.schema", dir);
        CHECK_STR(f.unread[1][0], want);
        CHECK_EQ_U(f.nunread[2], 1);
        snprintf(want, sizeof want, "%s/gone.schema", dir);
        CHECK_STR(f.unread[2][0], want);
        CHECK_EQ_U(f.nunread[3], 1);
        CHECK_STR(f.unread[3][0], gone);
    }
    free(in);
    free(bad);
    free(imp);
    free(gone);
    free(out);
    free(out2);
    free(out3);
    free(out4);
}

#ifndef _WIN32
/* With copy_inputs (blobc watch), a FIFO in the place of an input or of
 * an import fails its job at once (a blocked open would hang the run: the
 * alarm ends the test then), and the other job is baked. */
TEST(copy_inputs_refuse_fifos) {
    put_file("f.schema", "import \"fifo.schema\";\nstruct F { y: u32; }\nroot F;\n");
    put_file("ok.yaml", "$schema: t.schema\nx: 1\nname: n\ntags: []\n");
    put_file("g.yaml", "$schema: f.schema\ny: 1\n");
    char *fifo = path_of("fifo.yaml%.0d", 0), *fifo_schema = path_of("fifo.schema%.0d", 0);
    CHECK(mkfifo(fifo, 0600) == 0 && mkfifo(fifo_schema, 0600) == 0);
    char *ok = path_of("ok.yaml%.0d", 0), *g = path_of("g.yaml%.0d", 0);
    char *o1 = path_of("f1.blob%.0d", 0), *o2 = path_of("f2.blob%.0d", 0), *o3 = path_of("f3.blob%.0d", 0);
    blobc_job jobs[3] = {{fifo, o1, NULL}, {ok, o2, NULL}, {g, o3, NULL}};
    seen s;
    memset(&s, 0, sizeof s);
    on_caller = 1;
    blobc_batch_options o;
    memset(&o, 0, sizeof o);
    o.copy_inputs = true;
    o.on_event = on_event;
    o.ctx = &s;
    blobc_error err;
    alarm(30);
    CHECK_EQ_I(blobc_bake_batch(jobs, 3, &o, &err), BLOBC_EIO);
    alarm(0);
    CHECK_EQ_I(s.status[0], BLOBC_EIO);
    CHECK_EQ_I(s.status[1], BLOBC_OK);
    CHECK_EQ_I(s.status[2], BLOBC_EIO);
    char want[400];
    snprintf(want, sizeof want, "cannot read '%s': it is a FIFO; expected a regular file", fifo);
    CHECK_STR(s.first_error, want);
    CHECK_CONTAINS(err.message, "cannot read '");
    /* the schema's import, read by the bake */
    memset(&s, 0, sizeof s);
    alarm(30);
    CHECK_EQ_I(blobc_bake_batch(&jobs[2], 1, &o, &err), BLOBC_EIO);
    alarm(0);
    CHECK_CONTAINS(s.first_error, "fifo.schema': it is a FIFO; expected a regular file");
    unlink(fifo);
    unlink(fifo_schema);
    free(fifo);
    free(fifo_schema);
    free(ok);
    free(g);
    free(o1);
    free(o2);
    free(o3);
}
#endif

/* An output that is one of the run's inputs is refused before the bake. */
TEST(input_never_written) {
    char *in = path_of("in%d.yaml", 1), *schema = path_of("t.schema%.0d", 0);
    blobc_inputs *inputs = blobc_inputs_new();
    blobc_error err;
    CHECK_EQ_I(blobc_inputs_add(inputs, in, &err), BLOBC_OK);
    CHECK_EQ_I(blobc_inputs_add(inputs, schema, &err), BLOBC_OK);
    size_t before;
    char *text = slurp(schema, &before);
    blobc_job jobs[1] = {{in, schema, NULL}};
    seen s;
    memset(&s, 0, sizeof s);
    on_caller = 1;
    blobc_batch_options o;
    memset(&o, 0, sizeof o);
    o.output.inputs = inputs;
    o.on_event = on_event;
    o.ctx = &s;
    CHECK_EQ_I(blobc_bake_batch(jobs, 1, &o, &err), BLOBC_EIO);
    CHECK_CONTAINS(s.first_error, "refusing to overwrite input file");
    size_t after;
    char *again = slurp(schema, &after);
    CHECK(text && again && before == after && memcmp(text, again, after) == 0);
    free(text);
    free(again);
    blobc_inputs_free(inputs);
    /* Without output.inputs too: the jobs' own inputs are never written,
     * whether the job bakes from the file or (with a depfile) from its
     * text in memory, its own input or another job's. */
    char *in2 = path_of("in%d.yaml", 2), *dep = path_of("in%d.d", 1);
    size_t len1, len2;
    char *text1 = slurp(in, &len1), *text2 = slurp(in2, &len2);
    blobc_job own[2] = {{in, in, dep}, {in, in, NULL}};
    o.output.inputs = NULL;
    for (size_t j = 0; j < 2; j++) {
        memset(&s, 0, sizeof s);
        on_caller = 1;
        CHECK_EQ_I(blobc_bake_batch(&own[j], 1, &o, &err), BLOBC_EIO);
        CHECK_CONTAINS(s.first_error, "refusing to overwrite input file");
    }
    /* another job's input: that job is refused, the other is written */
    blobc_job two[2] = {{in, path_of("x%d.blob", 1), NULL}, {in2, in, dep}};
    memset(&s, 0, sizeof s);
    on_caller = 1;
    CHECK_EQ_I(blobc_bake_batch(two, 2, &o, &err), BLOBC_EIO);
    CHECK_EQ_I(s.status[0], BLOBC_OK);
    CHECK_EQ_I(s.status[1], BLOBC_EIO);
    CHECK_CONTAINS(s.first_error, "refusing to overwrite input file");
    size_t now1, now2;
    char *again1 = slurp(in, &now1), *again2 = slurp(in2, &now2);
    CHECK(text1 && again1 && len1 == now1 && memcmp(text1, again1, now1) == 0);
    CHECK(text2 && again2 && len2 == now2 && memcmp(text2, again2, now2) == 0);
    struct stat sd;
    CHECK(stat(dep, &sd) != 0 && stat(two[0].output, &sd) == 0);
    free(text1);
    free(text2);
    free(again1);
    free(again2);
    free((char *)two[0].output);
    free(in2);
    free(dep);
    free(in);
    free(schema);
    /* and the error contract: NULL err, NULL opts */
    CHECK_EQ_I(blobc_bake_batch(jobs, 1, NULL, NULL), BLOBC_EARG);
    CHECK_EQ_I(blobc_bake_batch(NULL, 1, &o, &err), BLOBC_EARG);
    CHECK_CONTAINS(err.message, "blobc_bake_batch: ");
    test_rm_rf(dir);
}

TEST_MAIN_BEGIN("pipeline")
RUN(batch_in_order_cached_with_depfiles);
RUN(clash_refused_before_baking);
RUN(done_names_the_files_read);
#ifndef _WIN32
RUN(copy_inputs_refuse_fifos);
#endif
RUN(input_never_written);
TEST_MAIN_END
