/*
 * version.c - the library's version (blobc/blobc.h), set by the build.
 */
#include "blobc/blobc.h"

#ifndef BLOBC_VERSION
#define BLOBC_VERSION "0.0.0"
#endif

const char *blobc_version(void) { return BLOBC_VERSION; }
