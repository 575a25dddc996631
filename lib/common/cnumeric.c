/*
 * cnumeric.c - the calling thread switched to the "C" locale for numbers
 * around a call of strtod, strtof or printf's %g (cnumeric.h).
 */
#include "common/cnumeric.h"

blobc_c_numeric blobc_c_numeric_begin(void) {
    blobc_c_numeric l = {(locale_t)0, (locale_t)0};
    l.c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (l.c) l.prev = uselocale(l.c);
    return l;
}

void blobc_c_numeric_end(blobc_c_numeric l) {
    if (!l.c) return;
    uselocale(l.prev);
    freelocale(l.c);
}
