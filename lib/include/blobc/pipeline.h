/*
 * blobc/pipeline.h - what a tool does around a bake, in one call: many
 * inputs baked on worker threads, each through a cache when there is one,
 * every output and its make/ninja depfile written by the output rules
 * (blobc/blobfile.h), and every message handed to the caller in input
 * order, on the calling thread.
 *
 * Stability: experimental: the names, fields and events may still change
 * between minor releases.
 */
#ifndef BLOBC_PIPELINE_H
#define BLOBC_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "api.h"
#include "bake.h"
#include "blobfile.h"
#include "cache.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One input and what is written for it. */
typedef struct blobc_job {
    const char *input;   /* a data file; "-" for standard input */
    const char *output;  /* the blob; "-" for standard output */
    const char *depfile; /* a make/ninja depfile for the output, or NULL */
} blobc_job;

typedef enum blobc_event_kind {
    BLOBC_EVENT_CLASH,   /* two jobs would write one file (error: which); nothing is baked */
    BLOBC_EVENT_START,   /* a job is taken up (for a progress line) */
    BLOBC_EVENT_ERROR,   /* an error of the job; with max_errors, several */
    BLOBC_EVENT_WARNING, /* the cache failed the job, which baked without it;
                          * or (status BLOBC_OK, with its place) the data
                          * uses a name the schema renamed (@was) */
    BLOBC_EVENT_DONE     /* the job is over: status, cached, suppressed */
} blobc_event_kind;

typedef struct blobc_event {
    blobc_event_kind kind;
    size_t job;               /* index into the jobs */
    const blobc_error *error; /* CLASH, ERROR, WARNING */
    blobc_status status;      /* DONE: BLOBC_OK when the output (and depfile) are written */
    bool cached;              /* DONE: the output came from the cache */
    size_t suppressed;        /* DONE: errors past max_errors, only counted */
    size_t done;              /* START: jobs over so far */
    /* DONE, with opts->deps: the files the job read (its input, then its
     * schema and every file the schema imports), valid during the call;
     * none when the bake stopped before its schema was known. */
    const char *const *files;
    size_t nfiles;
    /* DONE: the files the job tried to read and could not (not there
     * yet, not a regular file, unreadable, not text): its input, the
     * schema -s or $schema names, a file the schema imports, each once;
     * valid during the call. What a program that watches the files waits
     * for: making one may make the job succeed. */
    const char *const *unread;
    size_t nunread;
    size_t skipped; /* DONE: keys of @open structs the bake did not read
                     * (0 for an output from the cache) */
} blobc_event;

typedef struct blobc_batch_options {
    blobc_bake_options bake;     /* every job's (output_path and diag are set per job) */
    blobc_cache *cache;          /* NULL: no cache */
    blobc_output_options output; /* how files are written; output.inputs are never written */
    unsigned max_errors;         /* errors reported per job; 0: no limit */
    unsigned threads;            /* worker threads; 0 or 1: the calling thread alone */
    bool deps;                   /* DONE events name the files each job read
                                    (every job is planned first, as with a cache) */
    bool copy_inputs;            /* inputs are read into memory, never mapped: another
                                    program may rewrite one in place while it is baked
                                    (a mapped file cut short ends the process with
                                    SIGBUS), as an editor does to blobc watch's. And
                                    every file a job reads by name (its input, its
                                    schema, the schema's imports) must be a regular
                                    file (bake.regular_files): a FIFO or device put in
                                    a file's place fails that job, "expected a regular
                                    file", never waited on */
    /* Every event, on the calling thread: a job's ERROR, WARNING and DONE
     * events after every event of the jobs before it; START as jobs are
     * taken up. May be NULL. */
    void (*on_event)(void *ctx, const blobc_event *ev);
    void *ctx;
} blobc_batch_options;

/* Runs the jobs. First, two files the jobs write (outputs and depfiles)
 * that are one file under any spelling are refused (a CLASH event for
 * each, BLOBC_EARG, nothing baked). Then each
 * job: an output or depfile that is the input of any job, or one of
 * output.inputs, is refused before the bake (an output by what was at
 * its name when the batch began, each file looked at once; a depfile
 * looked at again when written);
 * the input is baked, or taken from the cache (and a fresh bake stored
 * there); the depfile is made before anything is
 * written (a name make or ninja could not read back fails the job); the
 * output is written, then the depfile. A failed job leaves its files
 * untouched, and the others still run. Returns BLOBC_OK when every job
 * succeeded; else the gravest status of a job (BLOBC_EIO, BLOBC_ENOMEM
 * and BLOBC_EARG before BLOBC_EINPUT), with err describing the first
 * failure of that status. */
BLOBC_API blobc_status blobc_bake_batch(const blobc_job *jobs, size_t n,
                                        const blobc_batch_options *opts, blobc_error *err);

#ifdef __cplusplus
}
#endif
#endif
