/*
 * pipeline_internal.h - what the batch (batch.c) and one job (job.c)
 * share: the slot where a job keeps its messages until they are handed
 * to the caller in input order.
 */
#ifndef BLOBC_PIPELINE_INTERNAL_H
#define BLOBC_PIPELINE_INTERNAL_H

#include "blobc/pipeline.h"
#include "common/fileio.h"
#include "platform/platform.h"

typedef struct blobc_pl_msg {
    blobc_event_kind kind; /* ERROR or WARNING */
    blobc_error error;
} blobc_pl_msg;

typedef struct blobc_pl_slot {
    blobc_pl_msg *msgs;
    size_t nmsgs, cap;
    blobc_status status;
    blobc_error error;     /* the failure behind status */
    bool cached;
    size_t suppressed;
    size_t skipped;        /* keys of @open structs not read */
    bool done;
    char **files;          /* with opts->deps: what the job read */
    size_t nfiles;
    char **unread;         /* what it could not read, each once */
    size_t nunread;
} blobc_pl_slot;

/* What the batch learned of a job's files before any job ran, so that
 * the job need not look at them again: its input, and its output as the
 * clash check saw it, with the output's directory held open. */
typedef struct blobc_pl_prep {
    bool in_seen;         /* in is what the input was */
    blobc_os_info in;
    blobc_out_known out;  /* out.target NULL: not known */
    blobc_os_outdir *dir; /* NULL: none held */
} blobc_pl_prep;

/* Runs one job into its slot (status, cached, messages); any thread. */
void blobc_pl_run_job(const blobc_job *job, const blobc_pl_prep *prep, const blobc_batch_options *o,
                      blobc_pl_slot *s);

#endif
