/*
 * verify_checks.h - the schema's value checks judged over a blob the walk
 * has proven sound (BLOBC_VERIFY_CHECKS, `verify -s`). Private.
 */
#ifndef BLOBC_VERIFY_CHECKS_H
#define BLOBC_VERIFY_CHECKS_H

#include "blobc/verify.h"

/* Judges every value of data the walk has found sound (the schema's type
 * `root` at byte 0) by the checks of the fields holding it, as opts says
 * (assets_dir, checks). err_base is added to offsets. */
blobc_status blobc_verify_checks(const uint8_t *data, const blobc_type *root,
                                 uint64_t err_base, const blobc_verify_options *opts,
                                 blobc_error *err);

#endif
