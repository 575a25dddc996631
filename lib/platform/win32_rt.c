/*
 * win32_rt.c - threads, dynamic loading, numbers whatever the locale, and
 * the command line's process (UTF-16 arguments, binary standard streams,
 * the console's colours and control events) on Windows (platform.h).
 */
#ifdef _WIN32
#include <windows.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <locale.h>
#include <process.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"
#include "platform/win32.h"

/* ---- threads: slim reader/writer locks and condition variables ---- */

_Static_assert(sizeof(SRWLOCK) <= sizeof(blobc_os_mutex), "mutex storage");
_Static_assert(sizeof(CONDITION_VARIABLE) <= sizeof(blobc_os_cond), "condition storage");

#define MU(m) ((SRWLOCK *)(void *)(m)->opaque)
#define CV(c) ((CONDITION_VARIABLE *)(void *)(c)->opaque)

int blobc_os_mutex_init(blobc_os_mutex *m) {
    InitializeSRWLock(MU(m));
    return 0;
}
void blobc_os_mutex_destroy(blobc_os_mutex *m) { (void)m; }
void blobc_os_mutex_lock(blobc_os_mutex *m) { AcquireSRWLockExclusive(MU(m)); }
void blobc_os_mutex_unlock(blobc_os_mutex *m) { ReleaseSRWLockExclusive(MU(m)); }
int blobc_os_cond_init(blobc_os_cond *c) {
    InitializeConditionVariable(CV(c));
    return 0;
}
void blobc_os_cond_destroy(blobc_os_cond *c) { (void)c; }
void blobc_os_cond_wait(blobc_os_cond *c, blobc_os_mutex *m) {
    SleepConditionVariableSRW(CV(c), MU(m), INFINITE, 0);
}
void blobc_os_cond_wait_ms(blobc_os_cond *c, blobc_os_mutex *m, unsigned ms) {
    SleepConditionVariableSRW(CV(c), MU(m), ms, 0);
}
void blobc_os_cond_signal(blobc_os_cond *c) { WakeConditionVariable(CV(c)); }
void blobc_os_cond_broadcast(blobc_os_cond *c) { WakeAllConditionVariable(CV(c)); }

typedef struct start {
    HANDLE h;
    void (*fn)(void *);
    void *arg;
} start;

/* _beginthreadex, not CreateThread: the C runtime sets up its per-thread
 * state (errno, strtok) for the new thread. */
static unsigned __stdcall trampoline(void *p) {
    start *s = p;
    s->fn(s->arg);
    return 0;
}

int blobc_os_thread_start(blobc_os_thread *t, void (*fn)(void *), void *arg) {
    start *s = malloc(sizeof *s);
    if (!s) return ENOMEM;
    s->fn = fn;
    s->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 0, trampoline, s, 0, NULL);
    if (!h) {
        free(s);
        return EAGAIN;
    }
    s->h = (HANDLE)h;
    t->impl = s;
    return 0;
}

void blobc_os_thread_join(blobc_os_thread *t) {
    start *s = t->impl;
    WaitForSingleObject(s->h, INFINITE);
    CloseHandle(s->h);
    free(s);
    t->impl = NULL;
}

int blobc_os_cores(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* ---- dynamic loading ---- */

/* The name MSYS2's and curl's own Windows builds give libcurl's ABI 4. */
const char blobc_os_curl_lib[] = "libcurl-4.dll";

void *blobc_os_lib_open(const char *name, bool loaded_only) {
    wchar_t *w = blobc_win_wide(name);
    if (!w) return NULL;
    HMODULE h = NULL;
    if (loaded_only) {
        if (!GetModuleHandleExW(0, w, &h)) h = NULL; /* takes a reference */
    } else {
        /* The application's directory and System32 only, never the
         * current directory: no DLL planted next to the inputs loads. */
        h = LoadLibraryExW(w, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    }
    free(w);
    return (void *)h;
}

blobc_os_fn blobc_os_lib_sym(void *lib, const char *name) {
    FARPROC p = GetProcAddress((HMODULE)lib, name);
    blobc_os_fn fn = NULL;
    if (p) memcpy(&fn, &p, sizeof fn);
    return fn;
}

void blobc_os_lib_close(void *lib) { FreeLibrary((HMODULE)lib); }

/* ---- numbers whatever the locale ----
 * Windows has no uselocale. The C runtime's conversions (mingw-w64's
 * C99 ones) use the decimal point of the process's locale, so "." is
 * swapped for it on the way in and back on the way out. The locale is
 * only read; a host that calls setlocale while another thread converts
 * races with the C runtime itself, as it would on any platform. */

static const char *radix(void) {
    const struct lconv *lc = localeconv();
    return lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point : ".";
}

int blobc_os_fmt_g(char *buf, size_t cap, int prec, double v) {
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    const char *dp = radix();
    char *at = strcmp(dp, ".") != 0 ? strstr(tmp, dp) : NULL;
    if (at) {
        size_t dl = strlen(dp);
        *at = '.';
        memmove(at + 1, at + dl, strlen(at + dl) + 1);
        n -= (int)dl - 1;
    }
    snprintf(buf, cap, "%s", tmp);
    return n;
}

/* Parses s with "." as the decimal point: a copy with the locale's point
 * in its place (and the locale's own point made unparsable), then the end
 * mapped back onto s. */
static double parse(const char *s, char **end, bool f32) {
    const char *dp = radix();
    if (strcmp(dp, ".") == 0) return f32 ? strtof(s, end) : strtod(s, end);
    size_t n = strlen(s), dl = strlen(dp), dots = 0;
    for (size_t i = 0; i < n; i++) dots += s[i] == '.';
    char small[128], *copy = n + dots * dl < sizeof small ? small : malloc(n + dots * dl + 1);
    if (!copy) {
        if (end) *end = (char *)s;
        return 0;
    }
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            memcpy(copy + j, dp, dl);
            j += dl;
        } else {
            copy[j++] = strchr(dp, s[i]) ? '\x01' : s[i];
        }
    }
    copy[j] = '\0';
    char *cend;
    double v = f32 ? strtof(copy, &cend) : strtod(copy, &cend);
    if (end) {
        size_t used = (size_t)(cend - copy), i = 0;
        for (j = 0; j < used; i++) j += s[i] == '.' ? dl : 1;
        *end = (char *)s + i;
    }
    if (copy != small) free(copy);
    return v;
}

double blobc_os_strtod(const char *s, char **end) { return parse(s, end, false); }
float blobc_os_strtof(const char *s, char **end) { return (float)parse(s, end, true); }

/* ---- the command line's process ---- */

/* The C runtime's own wide arguments, split by the rules that split the
 * narrow argv: CommandLineToArgvW would load shell32.dll (and with it
 * user32 and gdi32) into every start of blobc for this one call. */
typedef struct { int newmode; } blobc_win_startupinfo;
extern int __cdecl __wgetmainargs(int *argc, wchar_t ***argv, wchar_t ***env, int glob,
                                  blobc_win_startupinfo *si);

void blobc_os_cli_start(int *argc, char ***argv) {
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    int n = 0;
    wchar_t **w = NULL, **env = NULL;
    blobc_win_startupinfo si = {0};
    if (__wgetmainargs(&n, &w, &env, 0, &si) != 0 || !w || n < 0) return;
    char **u = calloc((size_t)n + 1, sizeof *u);
    for (int i = 0; u && i < n; i++)
        if (!(u[i] = blobc_win_utf8(w[i]))) u = NULL; /* keep the C runtime's */
    if (!u) return;
    *argc = n;
    *argv = u; /* kept for the process's life */
}

bool blobc_os_stderr_is_terminal(void) {
    DWORD mode;
    return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

bool blobc_os_stderr_colours(void) {
    HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
    DWORD mode;
    if (!GetConsoleMode(h, &mode)) return false;
    if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return true;
    /* Consoles before Windows 10 cannot show escape sequences: no colour. */
    return SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

/* Values converted once and kept: the command line reads a few. */
const char *blobc_os_getenv(const char *name) {
    static struct { char name[32]; char *value; } seen[8];
    static size_t nseen;
    for (size_t i = 0; i < nseen; i++)
        if (strcmp(seen[i].name, name) == 0) return seen[i].value;
    wchar_t *w = blobc_win_wide(name);
    const wchar_t *v = w ? _wgetenv(w) : NULL;
    char *u = v ? blobc_win_utf8(v) : NULL;
    free(w);
    if (nseen < sizeof seen / sizeof seen[0] && strlen(name) < sizeof seen[0].name) {
        snprintf(seen[nseen].name, sizeof seen[0].name, "%s", name);
        seen[nseen++].value = u;
    }
    return u;
}

static void (*on_interrupt)(void);

/* Runs on a thread of its own; FALSE lets the default handler end the
 * process, which closes the temporary files' handles and so completes
 * their deletion. */
static BOOL WINAPI on_console_event(DWORD event) {
    (void)event;
    if (on_interrupt) on_interrupt();
    return FALSE;
}

void blobc_os_on_interrupt(void (*cleanup)(void)) {
    on_interrupt = cleanup;
    SetConsoleCtrlHandler(on_console_event, TRUE);
}

void blobc_os_interrupts_block(void) {}
void blobc_os_interrupts_unblock(void) {}
void blobc_os_yield(void) { SwitchToThread(); }
void blobc_os_sleep_ms(unsigned ms) { Sleep(ms); }

void blobc_os_wait_forever(void) {
    for (;;) Sleep(INFINITE);
}

void blobc_os_remove_now(const char *path) {
    static wchar_t w[32768];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, w, 32768) > 0) DeleteFileW(w);
}

#endif
