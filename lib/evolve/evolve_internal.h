/*
 * evolve_internal.h - what compat.c's paired walk of two type graphs tells
 * upgrade.c. Private.
 */
#ifndef BLOBC_EVOLVE_INTERNAL_H
#define BLOBC_EVOLVE_INTERNAL_H

#include "blobc/evolve.h"

typedef struct upgrade_plan {
    bool drop;                      /* in: leave out fields the new schema lacks */
    const blobc_field **dropped;    /* out: those fields (of old structs), malloc'd */
    size_t ndropped, dcap;
} upgrade_plan;

/* Checks that values of old_root carry over to new_root by field name:
 * every old field is in the new struct (or dropped, with plan->drop),
 * every new field has a default (or is [T] or *T: empty, null), and every
 * pair of types converts. Fails (BLOBC_EINPUT) at the first refusal with
 * "PATH: why". Free plan->dropped. */
blobc_status blobc_upgrade_plan(const blobc_type *old_root, const blobc_type *new_root,
                                upgrade_plan *plan, blobc_error *err);

#endif
