/*
 * cnumeric.h - numbers in the "C" locale, whatever the host program set.
 * Not installed.
 *
 * strtod, strtof and printf's %g follow LC_NUMERIC, which a host program
 * may set process-wide with setlocale (a comma for a decimal point). Code
 * that calls them switches its own thread to the "C" locale around the
 * call: uselocale is per thread, so no other thread sees the change.
 */
#ifndef BLOBC_CNUMERIC_H
#define BLOBC_CNUMERIC_H

#include <locale.h>

typedef struct blobc_c_numeric {
    locale_t c, prev;
} blobc_c_numeric;
blobc_c_numeric blobc_c_numeric_begin(void);
void blobc_c_numeric_end(blobc_c_numeric l);

#endif
