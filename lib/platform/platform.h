/*
 * platform/platform.h - every call blobc makes into the operating system,
 * behind one interface: posix.c and posix_rt.c implement it for Linux and
 * other POSIX systems, win32.c and win32_rt.c for Windows. No other file
 * of lib/ or cmd/ includes an operating-system header
 * (tests/cli/architecture.sh checks it); docs/PORTABILITY.md says what each
 * implementation uses.
 *
 * Conventions: paths are UTF-8 (Windows converts them to UTF-16 and calls
 * the wide-character API, so any file name works); "/" and, on Windows,
 * "\" both separate. Functions that can fail return 0 or an errno value
 * (Windows errors are translated to the nearest one), never -1 with a
 * global errno, so callers on any thread get their own answer.
 */
#ifndef BLOBC_PLATFORM_H
#define BLOBC_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors ---- */

/* The text of an errno value (thread-safe), the same words on every
 * platform for the errors blobc reports; "error N" when it has none. */
const char *blobc_os_error_text(int e, char *buf, size_t cap);

/* ---- files ---- */

/* A file descriptor (POSIX) or handle (Windows). */
typedef intptr_t blobc_os_fd;
#define BLOBC_OS_NO_FD ((blobc_os_fd)-1)

typedef enum blobc_os_kind {
    BLOBC_OS_REGULAR = 1,
    BLOBC_OS_DIRECTORY,
    BLOBC_OS_OTHER, /* device, FIFO, socket, console */
    /* Told apart only by blobc_os_tree_stat, which does not follow links: */
    BLOBC_OS_LINK,  /* a symbolic link; on Windows any reparse point (junction...) */
    BLOBC_OS_FIFO,
    BLOBC_OS_SOCKET,
    BLOBC_OS_DEVICE
} blobc_os_kind;

/* What blobc needs to know of a file. (dev, ino) identify it: device and
 * inode numbers, or on Windows the volume serial number and file index,
 * so two names of one file (links, "a/../b", another case) compare equal. */
typedef struct blobc_os_info {
    blobc_os_kind kind;
    uint64_t size;
    uint64_t dev, ino;
    int64_t mtime;  /* last modification, seconds since 1970 */
    int32_t mtime_nsec; /* and nanoseconds past it (0 where not kept) */
    int64_t atime;  /* last access (where the file system keeps it) */
    unsigned mode;  /* permission bits, kept by a replacement (0 on Windows) */
} blobc_os_info;

/* Follows symbolic links. ENOENT when nothing is there. */
int blobc_os_stat(const char *path, blobc_os_info *info);
int blobc_os_fstat(blobc_os_fd fd, blobc_os_info *info);
int blobc_os_fstat_stream(FILE *f, blobc_os_info *info);
static inline bool blobc_os_same_file(const blobc_os_info *a, const blobc_os_info *b) {
    return a->dev == b->dev && a->ino == b->ino;
}

blobc_os_fd blobc_os_stdin(void);
int blobc_os_open_read(const char *path, blobc_os_fd *fd);
/* Opens path for reading only when it is a regular file, never waiting
 * (a FIFO opens at once, writer or not): 0 and a descriptor; 0 and
 * BLOBC_OS_NO_FD when it is something else, *kind saying what
 * (BLOBC_OS_FIFO, BLOBC_OS_SOCKET, BLOBC_OS_DEVICE; on Windows
 * BLOBC_OS_OTHER for pipes and consoles); EISDIR for a directory, as
 * blobc_os_open_read's read says. */
int blobc_os_open_regular(const char *path, blobc_os_fd *fd, blobc_os_kind *kind);
/* Reads up to n bytes (*got 0 at end of file); retries interrupted calls. */
int blobc_os_read(blobc_os_fd fd, void *buf, size_t n, size_t *got);
int blobc_os_close(blobc_os_fd fd);
/* Reads up to n bytes from offset `at` of a regular file, fewer only at
 * its end or on an error: *got says how many. */
int blobc_os_read_at(blobc_os_fd fd, void *buf, size_t n, uint64_t at, size_t *got);
/* Writes all of it to standard output (binary: no newline translation). */
int blobc_os_write_stdout(const void *data, size_t len);
/* fopen with a UTF-8 path; NULL with errno set. */
FILE *blobc_os_fopen(const char *path, const char *mode);

/* 0, or an errno value: EEXIST when the directory is already there. */
int blobc_os_mkdir(const char *path);
int blobc_os_remove(const char *path);
int blobc_os_rmdir(const char *path);
/* The directory part of path with its separator ("dir/"), or "" when it
 * has none: the length to keep. Both separators count on Windows, and
 * so does the colon of a drive ("C:x"). */
size_t blobc_os_dir_len(const char *path);
/* "/x"; on Windows also "\\x", "C:\\x", "C:/x" and "\\\\server\\x". */
bool blobc_os_is_absolute(const char *path);

/* ---- whole files in memory ---- */

/* 16-byte aligned memory that free() releases (blobs are read with
 * aligned loads). */
void *blobc_os_alloc16(size_t n);

/* Maps len bytes of the regular file fd for reading; NULL when it cannot
 * (the caller reads it instead). */
const void *blobc_os_map_file(blobc_os_fd fd, size_t len);
void blobc_os_unmap_file(const void *p, size_t len);
/* Zeroed, page-backed memory of which only the pages touched are ever
 * paid for (large huge-paged tables on Linux); NULL when it cannot. */
void *blobc_os_map_zero(size_t len);
void blobc_os_unmap_zero(void *p, size_t len);
/* Asks that the large block [p, p + len) of the caller's own memory be
 * backed by huge pages where the system offers them (Linux's transparent
 * huge pages): one fault per 2 MiB instead of one per page. A hint: the
 * memory works the same without it. Nothing for a block smaller than
 * BLOBC_OS_HUGE_MIN, the size from which the library's growing buffers,
 * arrays and arena blocks are worth the advice. */
#define BLOBC_OS_HUGE_MIN ((size_t)4 * 1024 * 1024)
void blobc_os_advise_huge(void *p, size_t len);

/* ---- directories ---- */

typedef struct blobc_os_dir blobc_os_dir;
int blobc_os_dir_open(const char *path, blobc_os_dir **d);
/* The next entry's name ("." and ".." skipped); NULL at the end. */
const char *blobc_os_dir_next(blobc_os_dir *d);
void blobc_os_dir_close(blobc_os_dir *d);

/* ---- a directory other users write (the cache directory, lib/cache) ----
 * A tree is a directory opened once; everything below it is reached from
 * it one name at a time, and never through a symbolic link (on Windows:
 * any reparse point), so what others plant in a shared directory cannot
 * lead blobc outside it. A name is one file name, no separator. A tree
 * may be used by many threads at once. */

typedef struct blobc_os_tree blobc_os_tree;
/* The directory the user named, links followed (theirs to choose). */
int blobc_os_tree_open(const char *path, blobc_os_tree **t);
/* The subdirectory `name`, created first when `create`: ENOENT when it is
 * not there, ELOOP when it is a link, ENOTDIR when it is something else. */
int blobc_os_tree_sub(const blobc_os_tree *t, const char *name, bool create, blobc_os_tree **sub);
void blobc_os_tree_close(blobc_os_tree *t); /* NULL: nothing */
/* What `name` is, the link itself when it is one. */
int blobc_os_tree_stat(const blobc_os_tree *t, const char *name, blobc_os_info *info);
/* Opens `name` for reading when it is a regular file (never waiting on a
 * FIFO, never through a link), with its info: 0 and a descriptor; 0 and
 * BLOBC_OS_NO_FD when it is something else (info->kind says what);
 * ENOENT when nothing is there; EAGAIN when it changed while opened. */
int blobc_os_tree_read(const blobc_os_tree *t, const char *name, blobc_os_fd *fd,
                       blobc_os_info *info);
/* Whether only this user (or the administrator) can change the tree's
 * entries, or the open file: owned by the effective user or root, and
 * writable by neither group nor others. Never on Windows, whose access
 * lists this does not read. */
bool blobc_os_tree_private(const blobc_os_tree *t);
bool blobc_os_fd_private(blobc_os_fd fd);
/* Marks the open file as used now (best effort: it may be another's). */
void blobc_os_touch_fd(blobc_os_fd fd);
/* Writes data to a new file `tmp` (its last n characters replaced by a
 * fresh suffix until the name is new; nothing there is ever opened) and
 * renames it over `name`, so readers see the old file or the whole new
 * one: 0 or an errno value; the temporary is gone either way. EBUSY
 * (Windows) when `name` cannot be replaced because others have it open. */
int blobc_os_tree_write(const blobc_os_tree *t, char *tmp, size_t n, const char *name,
                        const void *data, size_t len);
/* Removes `name` when it is a regular file: ENOENT when it is not there
 * or not one (so nothing else is ever removed). */
int blobc_os_tree_remove(const blobc_os_tree *t, const char *name);
/* 0 when this process may create and remove files in the tree, else why
 * not (Windows: 0, and removals say it when they fail). */
int blobc_os_tree_writable(const blobc_os_tree *t);
/* Lists the tree's names (read them with blobc_os_dir_next). */
int blobc_os_tree_list(const blobc_os_tree *t, blobc_os_dir **d);

/* ---- replacing a file atomically (the output rules, common/output.c) ---- */

/* Called when a named temporary file appears and when it is gone, so a
 * signal or console handler can remove what is left. */
typedef struct blobc_os_temp_hooks {
    void (*created)(void *ctx, const char *path);
    void (*gone)(void *ctx, const char *path);
    void *ctx;
} blobc_os_temp_hooks;

/* The file `path` finally names after following symbolic links (a new
 * string the caller frees): the file a replacement must replace. */
int blobc_os_resolve_links(const char *path, char **target);
/* What a written file is to hold: len bytes at data, or, when produce is
 * set, what produce hands to put piece by piece (a text made as it is
 * written, never whole in memory). produce returns 0, the first error put
 * returned, or a code of its own (ECANCELED: it failed, and says why
 * elsewhere). It may be called again when a way of writing fails before
 * anything is in place, and hands over the whole content each time. */
typedef struct blobc_os_copy blobc_os_copy;
typedef struct blobc_os_content {
    const void *data;
    size_t len;
    int (*produce)(void *ctx, int (*put)(void *to, const void *p, size_t n), void *to);
    void *ctx;
    /* When set, the content is this range of an open file and produce
     * writes it with reads and writes: Linux first asks the kernel to copy
     * it file to file (copy_file_range), which keeps the bytes out of the
     * process, and falls back to produce where the file systems cannot. */
    const blobc_os_copy *copy;
} blobc_os_content;
struct blobc_os_copy {
    blobc_os_fd fd;  /* a regular file open for reading */
    uint64_t at, len;
    bool plain;      /* never the kernel's copy: produce only */
    /* Called with the written file (readable) before it is given its
     * name; nonzero fails the write, so nothing is published. NULL: none.
     * Only for a new file: never for a device, FIFO or standard output. */
    int (*check)(void *ctx, blobc_os_fd written);
    /* Shown each piece the plain copy writes (at: its offset in the
     * range), before check: a check can then hash what went out instead
     * of reading the file back. NULL: none. */
    void (*seen)(void *ctx, uint64_t at, const void *p, size_t n);
    void *check_ctx;
};

/* Writes content to a new file in target's directory and then gives it
 * target's name in one step, so every other process sees the old file or
 * the whole new one. `old` is the file being replaced (its permissions
 * are kept), NULL when there is none. Linux writes an unnamed file
 * (O_TMPFILE) and links it in unless named_temp; otherwise a hidden
 * ".name.XXXXXX" is written and renamed (MoveFileExW on Windows, write
 * through). EBUSY when another process holds the target open so that it
 * cannot be replaced (Windows); the old file is then left as it was. */
/* On failure *stage says which step failed, for the message: "create",
 * "write" or "replace" (and "open" for blobc_os_write_in_place). */
int blobc_os_replace(const char *target, const blobc_os_content *content, const blobc_os_info *old,
                     bool named_temp, const blobc_os_temp_hooks *hooks, const char **stage);
/* Writes content to an existing device, FIFO or console in place. */
int blobc_os_write_in_place(const char *path, const blobc_os_content *content, const char **stage);

/* ---- many replacements in one directory (a batch's outputs) ----
 * The directory is opened once, and each replacement in it goes through
 * that handle instead of looking the directory up again; the permissions
 * a new file gets from the umask are learned from the files made, so a
 * replaced file's are set at creation, without a call of their own, once
 * known to survive it. Any number of threads may use one at once. */
typedef struct blobc_os_outdir blobc_os_outdir;
int blobc_os_outdir_open(const char *dir, blobc_os_outdir **d);
void blobc_os_outdir_close(blobc_os_outdir *d); /* NULL: nothing */
/* blobc_os_replace of `target`, a file of the directory d is. */
int blobc_os_replace_in(blobc_os_outdir *d, const char *target, const blobc_os_content *content,
                        const blobc_os_info *old, bool named_temp, const blobc_os_temp_hooks *hooks,
                        const char **stage);
/* blobc_os_resolve_links, and what the target is: *found 0 and info, or
 * the errno of looking (ENOENT when nothing is there). One look for a
 * path that is no link. */
int blobc_os_resolve_links_info(const char *path, char **target, blobc_os_info *info, int *found);

/* ---- threads ---- */

/* Storage for a mutex and a condition variable, sized for every
 * implementation (each checks its own fits). */
typedef struct blobc_os_mutex {
    _Alignas(8) unsigned char opaque[64];
} blobc_os_mutex;
typedef struct blobc_os_cond {
    _Alignas(8) unsigned char opaque[64];
} blobc_os_cond;
typedef struct blobc_os_thread {
    void *impl;
} blobc_os_thread;

int blobc_os_mutex_init(blobc_os_mutex *m);
void blobc_os_mutex_destroy(blobc_os_mutex *m);
void blobc_os_mutex_lock(blobc_os_mutex *m);
void blobc_os_mutex_unlock(blobc_os_mutex *m);
int blobc_os_cond_init(blobc_os_cond *c);
void blobc_os_cond_destroy(blobc_os_cond *c);
void blobc_os_cond_wait(blobc_os_cond *c, blobc_os_mutex *m);
/* The same, returning after ms milliseconds at the latest (a signal may
 * still come first, or none). */
void blobc_os_cond_wait_ms(blobc_os_cond *c, blobc_os_mutex *m, unsigned ms);
void blobc_os_cond_signal(blobc_os_cond *c);
void blobc_os_cond_broadcast(blobc_os_cond *c);
/* Starts fn(arg) on a new thread; 0 or an errno value. */
int blobc_os_thread_start(blobc_os_thread *t, void (*fn)(void *arg), void *arg);
void blobc_os_thread_join(blobc_os_thread *t);
/* The number of online processor cores (at least 1). */
int blobc_os_cores(void);

/* ---- dynamic loading ---- */

/* The file name of libcurl's ABI 4 here: libcurl.so.4, libcurl-4.dll. */
extern const char blobc_os_curl_lib[];
typedef void (*blobc_os_fn)(void);
/* NULL when the library cannot be loaded. `loaded_only`: only when the
 * process has it loaded already (a new reference either way). */
void *blobc_os_lib_open(const char *name, bool loaded_only);
blobc_os_fn blobc_os_lib_sym(void *lib, const char *name);
void blobc_os_lib_close(void *lib);

/* ---- numbers, whatever the process's locale ---- */

/* strtod, strtof and snprintf "%.*g" with "." as the decimal point even
 * when the program blobc runs in set another locale (a comma) with
 * setlocale; thread-safe. */
double blobc_os_strtod(const char *s, char **end);
float blobc_os_strtof(const char *s, char **end);
int blobc_os_fmt_g(char *buf, size_t cap, int prec, double v);

/* ---- time ---- */

/* Seconds since 1970. */
int64_t blobc_os_now(void);
/* Seconds on a clock that only moves forward (intervals). */
double blobc_os_monotonic(void);
/* A value unlikely to repeat: the clock's nanoseconds and the process id,
 * mixed (names of temporary files). */
uint64_t blobc_os_unique(void);

/* ---- watching directories; a loopback server (blobc watch) ---- */

/* A socket: a descriptor (POSIX) or a SOCKET (Windows). */
typedef intptr_t blobc_os_socket;
#define BLOBC_OS_NO_SOCKET ((blobc_os_socket)-1)

/* Listens for TCP connections on the IPv4 address (dotted, "127.0.0.1")
 * and *port (0: any free one; *port is then set to it). The socket does
 * not block: blobc_os_accept answers EAGAIN when no one is waiting. */
int blobc_os_listen(const char *ipv4, unsigned *port, blobc_os_socket *s);
/* Takes a waiting connection (non-blocking, no delay for small writes). */
int blobc_os_accept(blobc_os_socket listener, blobc_os_socket *c);
/* Sends all of data, or fails: EAGAIN when the peer reads too slowly to
 * take it now (part of it may be sent), EPIPE when it is gone. Never
 * raises SIGPIPE. */
int blobc_os_send(blobc_os_socket s, const void *data, size_t len);
/* Reads and drops what the peer sent (up to 64 KiB a call), without
 * blocking: 0 while the connection is open, else an errno value (EPIPE
 * when the peer closed it). */
int blobc_os_recv_discard(blobc_os_socket s);
void blobc_os_socket_close(blobc_os_socket s);

/* A watcher of directories' entries (not deeper): inotify on Linux,
 * ReadDirectoryChangesW on Windows. With poll_ms (or on other systems,
 * every 250 ms) the directories are listed instead every poll_ms and each
 * entry's size, modification time and identity compared with the last
 * listing: for file systems that send no events (some network mounts). */
typedef struct blobc_os_watch blobc_os_watch;
int blobc_os_watch_open(unsigned poll_ms, blobc_os_watch **w);
/* Watches dir; one watched already (under this spelling) is looked at
 * again, so a directory removed and made again is watched anew. */
int blobc_os_watch_add(blobc_os_watch *w, const char *dir);
/* A change: an entry of dir (spelled as given to blobc_os_watch_add) was
 * created, written, renamed in or out, removed or its attributes changed;
 * name NULL when changes were lost (too many at once), or dir itself was
 * removed or renamed away (it is no longer watched): any entry may have
 * changed. */
typedef void (*blobc_os_watch_fn)(void *ctx, const char *dir, const char *name);
/* Sleeps until a watched directory changes or a connection waits on
 * listener (BLOBC_OS_NO_SOCKET: none), at most timeout_ms (negative: no
 * limit); then reports the changes seen through fn, and sets *incoming
 * when a connection waits. 0 (a timeout too) or an errno value; EINTR
 * when a signal cut the wait short. */
int blobc_os_watch_wait(blobc_os_watch *w, int timeout_ms, blobc_os_socket listener, bool *incoming,
                        blobc_os_watch_fn fn, void *ctx);
void blobc_os_watch_close(blobc_os_watch *w);

/* ---- the command line's process (cmd/blobc) ---- */

/* Called first by main: on Windows reads the arguments as UTF-16 and
 * replaces argv with their UTF-8 (kept for the process's life), and puts
 * standard input and output in binary mode. Nothing on POSIX. */
void blobc_os_cli_start(int *argc, char ***argv);
/* Whether standard error is a terminal (a console on Windows) that shows
 * colours: on Windows the console's virtual-terminal mode is switched on. */
bool blobc_os_stderr_colours(void);
bool blobc_os_stderr_is_terminal(void);
/* The environment variable as UTF-8; NULL when unset. Do not free. */
const char *blobc_os_getenv(const char *name);
/* Calls cleanup when the process is ended from outside (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ; Ctrl-C, Ctrl-Break and console close
 * on Windows), then ends it as the event would have. A signal the parent
 * ignored stays ignored. cleanup may only call blobc_os_remove_now. */
void blobc_os_on_interrupt(void (*cleanup)(void));
/* Removes a file from within cleanup (async-signal-safe on POSIX). */
void blobc_os_remove_now(const char *path);
/* While a thread holds a named temporary: the interrupt handler never runs
 * on it (POSIX blocks those signals on the thread; Windows runs its handler
 * on a thread of its own, so there is nothing to do). Not nested. */
void blobc_os_interrupts_block(void);
void blobc_os_interrupts_unblock(void);
/* Lets other threads run; sleeps; waits for the process to end. */
void blobc_os_yield(void);
void blobc_os_sleep_ms(unsigned ms);
_Noreturn void blobc_os_wait_forever(void);

#endif
