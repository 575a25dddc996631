/*
 * util.h - the ground floor's small helpers in one include, for the files
 * that have not yet moved to the header of each helper they use. New code
 * includes those headers instead. Not installed.
 */
#ifndef BLOBC_UTIL_H
#define BLOBC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/quote.h"
#include "common/utf8.h"

#endif
