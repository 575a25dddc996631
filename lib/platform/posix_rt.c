/*
 * posix_rt.c - threads, dynamic loading, numbers in the "C" locale, and
 * the command line's process (terminal, signals) on POSIX systems
 * (platform.h).
 */
#ifndef _WIN32
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include <dlfcn.h>
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/platform.h"

/* ---- threads ---- */

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(blobc_os_mutex), "mutex storage");
_Static_assert(sizeof(pthread_cond_t) <= sizeof(blobc_os_cond), "condition storage");
_Static_assert(_Alignof(pthread_mutex_t) <= 8 && _Alignof(pthread_cond_t) <= 8, "alignment");

#define MU(m) ((pthread_mutex_t *)(void *)(m)->opaque)
#define CV(c) ((pthread_cond_t *)(void *)(c)->opaque)

int blobc_os_mutex_init(blobc_os_mutex *m) { return pthread_mutex_init(MU(m), NULL); }
void blobc_os_mutex_destroy(blobc_os_mutex *m) { pthread_mutex_destroy(MU(m)); }
void blobc_os_mutex_lock(blobc_os_mutex *m) { pthread_mutex_lock(MU(m)); }
void blobc_os_mutex_unlock(blobc_os_mutex *m) { pthread_mutex_unlock(MU(m)); }
int blobc_os_cond_init(blobc_os_cond *c) { return pthread_cond_init(CV(c), NULL); }
void blobc_os_cond_destroy(blobc_os_cond *c) { pthread_cond_destroy(CV(c)); }
void blobc_os_cond_wait(blobc_os_cond *c, blobc_os_mutex *m) { pthread_cond_wait(CV(c), MU(m)); }
/* CLOCK_REALTIME, the condition's default clock everywhere: a clock set
 * meanwhile makes one wait longer or shorter, never wrong. */
void blobc_os_cond_wait_ms(blobc_os_cond *c, blobc_os_mutex *m, unsigned ms) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long ns = ts.tv_nsec + (long)(ms % 1000) * 1000000L;
    ts.tv_sec += (time_t)(ms / 1000) + ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    pthread_cond_timedwait(CV(c), MU(m), &ts);
}
void blobc_os_cond_signal(blobc_os_cond *c) { pthread_cond_signal(CV(c)); }
void blobc_os_cond_broadcast(blobc_os_cond *c) { pthread_cond_broadcast(CV(c)); }

typedef struct start {
    pthread_t id;
    void (*fn)(void *);
    void *arg;
} start;

static void *trampoline(void *p) {
    start *s = p;
    s->fn(s->arg);
    return NULL;
}

int blobc_os_thread_start(blobc_os_thread *t, void (*fn)(void *), void *arg) {
    start *s = malloc(sizeof *s);
    if (!s) return ENOMEM;
    s->fn = fn;
    s->arg = arg;
    int e = pthread_create(&s->id, NULL, trampoline, s);
    if (e) {
        free(s);
        return e;
    }
    t->impl = s;
    return 0;
}

void blobc_os_thread_join(blobc_os_thread *t) {
    start *s = t->impl;
    pthread_join(s->id, NULL);
    free(s);
    t->impl = NULL;
}

int blobc_os_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* ---- dynamic loading ---- */

#ifdef __APPLE__
const char blobc_os_curl_lib[] = "libcurl.4.dylib";
#else
const char blobc_os_curl_lib[] = "libcurl.so.4";
#endif

void *blobc_os_lib_open(const char *name, bool loaded_only) {
    int flags = RTLD_NOW | RTLD_LOCAL;
#ifdef RTLD_NOLOAD
    if (loaded_only) flags |= RTLD_NOLOAD;
#else
    if (loaded_only) return NULL;
#endif
    return dlopen(name, flags);
}

blobc_os_fn blobc_os_lib_sym(void *lib, const char *name) {
    blobc_os_fn fn;
    /* POSIX lets a data pointer hold a function's address from dlsym. */
    void *p = dlsym(lib, name);
    memcpy(&fn, &p, sizeof fn);
    return p ? fn : NULL;
}

void blobc_os_lib_close(void *lib) { dlclose(lib); }

/* ---- numbers in the "C" locale ----
 * uselocale is per thread: the calling thread switches to a "C" locale
 * made once and back, and no other thread sees the change. */

static locale_t c_locale;
static pthread_once_t c_once = PTHREAD_ONCE_INIT;
static void make_c_locale(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

static locale_t enter_c(void) {
    pthread_once(&c_once, make_c_locale);
    return c_locale ? uselocale(c_locale) : (locale_t)0;
}
static void leave_c(locale_t prev) {
    if (c_locale) uselocale(prev);
}

double blobc_os_strtod(const char *s, char **end) {
    locale_t prev = enter_c();
    double v = strtod(s, end);
    leave_c(prev);
    return v;
}

float blobc_os_strtof(const char *s, char **end) {
    locale_t prev = enter_c();
    float v = strtof(s, end);
    leave_c(prev);
    return v;
}

int blobc_os_fmt_g(char *buf, size_t cap, int prec, double v) {
    locale_t prev = enter_c();
    int n = snprintf(buf, cap, "%.*g", prec, v);
    leave_c(prev);
    return n;
}

/* ---- the command line's process ---- */

void blobc_os_cli_start(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
}

bool blobc_os_stderr_is_terminal(void) { return isatty(STDERR_FILENO) == 1; }
bool blobc_os_stderr_colours(void) { return blobc_os_stderr_is_terminal(); }
const char *blobc_os_getenv(const char *name) { return getenv(name); }

static void (*on_interrupt)(void);
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};

static void fatal_set(sigset_t *set) {
    sigemptyset(set);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaddset(set, fatal_signals[i]);
}

static void on_fatal_signal(int sig) {
    if (on_interrupt) on_interrupt();
    signal(sig, SIG_DFL);
    raise(sig);
}

void blobc_os_on_interrupt(void (*cleanup)(void)) {
    on_interrupt = cleanup;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        fatal_set(&sa.sa_mask);
        struct sigaction old;
        /* A signal ignored by whoever started us stays ignored. */
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

void blobc_os_remove_now(const char *path) { unlink(path); }

static _Thread_local sigset_t saved_mask;

void blobc_os_interrupts_block(void) {
    sigset_t block;
    fatal_set(&block);
    pthread_sigmask(SIG_BLOCK, &block, &saved_mask);
}

void blobc_os_interrupts_unblock(void) { pthread_sigmask(SIG_SETMASK, &saved_mask, NULL); }

void blobc_os_yield(void) { sched_yield(); }

void blobc_os_sleep_ms(unsigned ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void blobc_os_wait_forever(void) {
    for (;;) pause();
}

#endif
