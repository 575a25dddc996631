/*
 * win32.c - files, mapping, directories and atomic replacement on Windows
 * (platform.h), through the wide-character Win32 API: UTF-8 paths are
 * converted to UTF-16, so any file name works, and both separators do.
 *
 * An output is written to a hidden temporary file in its directory and
 * moved over the target with MoveFileExW(REPLACE_EXISTING | WRITE_THROUGH),
 * which NTFS does in one step. The temporary is opened with FILE_SHARE_
 * DELETE so that the console handler can delete it while it is still open
 * (Ctrl-C). A target another process holds open without sharing delete (a
 * game that loaded it) cannot be replaced: after a short retry, for virus
 * scanners that hold files for a moment, that is EBUSY and the old file
 * stays as it was.
 */
#ifdef _WIN32
#include <windows.h>
#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "platform/platform.h"
#include "platform/win32.h"

/* ---- UTF-8 and UTF-16, errors ---- */

/* Windows takes a "\\?\" path literally: no "/" separators, no "." or
 * ".." steps. Paths blobc joins itself (an input's directory and its
 * "$schema: ../x.schema") would then name nothing, so such a path is
 * put in the form Windows would have given it: in place, never longer. */
static void tidy_long_form(char *p) {
    char *at = p + 4, *out = at;
    for (char *c = at; *c; c++)
        if (*c == '/') *c = '\\';
    while (*at) {
        size_t n = strcspn(at, "\\");
        bool dot = n == 1 && at[0] == '.', up = n == 2 && at[0] == '.' && at[1] == '.';
        if (up) {
            /* one step up, never above the drive */
            char *back = out > p + 4 ? out - 1 : out;
            while (back > p + 4 && back[-1] != '\\') back--;
            if (out > back && !memchr(back, ':', (size_t)(out - back))) out = back;
        } else if (!dot) {
            memmove(out, at, n);
            out += n;
            if (at[n]) *out++ = '\\';
        }
        at += n + (at[n] != '\0');
    }
    *out = '\0';
}

wchar_t *blobc_win_wide(const char *s) {
    char *tidy = NULL;
    if (strncmp(s, "\\\\?\\", 4) == 0 && (tidy = strdup(s)) != NULL) {
        tidy_long_form(tidy);
        s = tidy;
    }
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n) <= 0) {
        free(w);
        w = NULL;
    }
    free(tidy);
    return w;
}

char *blobc_win_utf8(const wchar_t *w) {
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) <= 0) {
        free(s);
        return NULL;
    }
    return s;
}

int blobc_win_errno(unsigned long e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH: case ERROR_BAD_NET_NAME: case ERROR_INVALID_NAME:
    case ERROR_BAD_PATHNAME: return ENOENT;
    case ERROR_ACCESS_DENIED: case ERROR_CANNOT_MAKE: return EACCES;
    case ERROR_SHARING_VIOLATION: case ERROR_LOCK_VIOLATION: case ERROR_USER_MAPPED_FILE: return EBUSY;
    case ERROR_ALREADY_EXISTS: case ERROR_FILE_EXISTS: return EEXIST;
    case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_BROKEN_PIPE: case ERROR_NO_DATA: return EPIPE;
    case ERROR_WRITE_PROTECT: return EROFS;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    case ERROR_TOO_MANY_OPEN_FILES: return EMFILE;
    case ERROR_DIR_NOT_EMPTY: return ENOTEMPTY;
    case ERROR_INVALID_PARAMETER: return EINVAL;
    default: return EIO;
    }
}

static int last_errno(void) { return blobc_win_errno(GetLastError()); }

/* last_errno for a call on path: a path that a file stands in the way of
 * (a file where a directory of the path should be) is ENOTDIR, as POSIX
 * says, not "not found". */
static int path_errno(const char *path) {
    DWORD e = GetLastError();
    int r = blobc_win_errno(e);
    size_t n = e == ERROR_PATH_NOT_FOUND ? blobc_os_dir_len(path) : 0;
    char *p = n > 1 ? malloc(n) : NULL;
    while (p && n > 1) {
        memcpy(p, path, n - 1); /* the parent, without its separator */
        p[n - 1] = '\0';
        wchar_t *w = blobc_win_wide(p);
        DWORD a = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
        free(w);
        if (a != INVALID_FILE_ATTRIBUTES) {
            if (!(a & FILE_ATTRIBUTE_DIRECTORY)) r = ENOTDIR;
            break;
        }
        n = blobc_os_dir_len(p);
    }
    free(p);
    return r;
}

/* The words glibc uses, so that messages read the same on every platform
 * (the C runtime's differ), and a plain one for a file in use. */
const char *blobc_os_error_text(int e, char *buf, size_t cap) {
    static const struct { int e; const char *text; } words[] = {
        {ENOENT, "No such file or directory"}, {EACCES, "Permission denied"},
        {EEXIST, "File exists"}, {EISDIR, "Is a directory"}, {ENOTDIR, "Not a directory"},
        {ENOSPC, "No space left on device"}, {ENOMEM, "Cannot allocate memory"},
        {EINVAL, "Invalid argument"}, {EPIPE, "Broken pipe"}, {EROFS, "Read-only file system"},
        {ENAMETOOLONG, "File name too long"}, {EXDEV, "Invalid cross-device link"},
        {EMFILE, "Too many open files"}, {ENOTEMPTY, "Directory not empty"},
        {EIO, "Input/output error"}, {ELOOP, "Too many levels of symbolic links"},
        {EBUSY, "the file is open in another process"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i].e == e) {
            snprintf(buf, cap, "%s", words[i].text);
            return buf;
        }
    if (strerror_s(buf, cap, e) != 0 || !buf[0]) snprintf(buf, cap, "error %d", e);
    return buf;
}

/* ---- files ---- */

static HANDLE open_w(const char *path, DWORD access, DWORD disposition, DWORD flags) {
    wchar_t *w = blobc_win_wide(path);
    if (!w) {
        SetLastError(ERROR_INVALID_NAME);
        return INVALID_HANDLE_VALUE;
    }
    HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, disposition, flags, NULL);
    free(w);
    return h;
}

static int64_t unix_time(FILETIME ft) {
    uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (int64_t)(t / 10000000u) - 11644473600ll;
}

int blobc_os_fstat(blobc_os_fd fd, blobc_os_info *info) {
    HANDLE h = (HANDLE)fd;
    memset(info, 0, sizeof *info);
    DWORD type = GetFileType(h);
    if (type != FILE_TYPE_DISK) {
        if (type == FILE_TYPE_UNKNOWN && GetLastError() != NO_ERROR) return last_errno();
        info->kind = BLOBC_OS_OTHER; /* console, pipe, NUL */
        info->ino = (uint64_t)(uintptr_t)h;
        info->dev = UINT64_MAX;
        return 0;
    }
    BY_HANDLE_FILE_INFORMATION bi;
    if (!GetFileInformationByHandle(h, &bi)) return last_errno();
    info->kind = bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? BLOBC_OS_DIRECTORY : BLOBC_OS_REGULAR;
    info->size = ((uint64_t)bi.nFileSizeHigh << 32) | bi.nFileSizeLow;
    info->dev = bi.dwVolumeSerialNumber;
    info->ino = ((uint64_t)bi.nFileIndexHigh << 32) | bi.nFileIndexLow;
    info->mtime = unix_time(bi.ftLastWriteTime);
    info->mtime_nsec = (int32_t)(((((uint64_t)bi.ftLastWriteTime.dwHighDateTime << 32) |
                                   bi.ftLastWriteTime.dwLowDateTime) % 10000000u) * 100u);
    info->atime = unix_time(bi.ftLastAccessTime);
    return 0;
}

int blobc_os_stat(const char *path, blobc_os_info *info) {
    /* No access asked: attributes only, so a file locked by another
     * process still answers; BACKUP_SEMANTICS opens directories too. */
    HANDLE h = open_w(path, 0, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS);
    if (h == INVALID_HANDLE_VALUE) return path_errno(path);
    int e = blobc_os_fstat((blobc_os_fd)h, info);
    CloseHandle(h);
    return e;
}

int blobc_os_fstat_stream(FILE *f, blobc_os_info *info) {
    intptr_t h = _get_osfhandle(_fileno(f));
    return h == -1 ? EBADF : blobc_os_fstat((blobc_os_fd)h, info);
}

blobc_os_fd blobc_os_stdin(void) { return (blobc_os_fd)GetStdHandle(STD_INPUT_HANDLE); }

int blobc_os_open_read(const char *path, blobc_os_fd *fd) {
    HANDLE h = open_w(path, GENERIC_READ, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL);
    if (h == INVALID_HANDLE_VALUE) {
        int e = path_errno(path);
        blobc_os_info info;
        /* A directory cannot be opened for reading: say so, as POSIX does. */
        if (e == EACCES && blobc_os_stat(path, &info) == 0 && info.kind == BLOBC_OS_DIRECTORY)
            e = EISDIR;
        return e;
    }
    *fd = (blobc_os_fd)h;
    return 0;
}

/* Opening a pipe's name does not wait for its server on Windows: what
 * is opened is only looked at. */
int blobc_os_open_regular(const char *path, blobc_os_fd *fd, blobc_os_kind *kind) {
    blobc_os_info info;
    *fd = BLOBC_OS_NO_FD;
    int e = blobc_os_open_read(path, fd);
    if (!e) e = blobc_os_fstat(*fd, &info);
    if (!e) *kind = info.kind;
    if (e || info.kind != BLOBC_OS_REGULAR) {
        if (*fd != BLOBC_OS_NO_FD) CloseHandle((HANDLE)*fd);
        *fd = BLOBC_OS_NO_FD;
    }
    return e;
}

int blobc_os_read(blobc_os_fd fd, void *buf, size_t n, size_t *got) {
    DWORD m = 0, want = n > 0x40000000u ? 0x40000000u : (DWORD)n;
    if (!ReadFile((HANDLE)fd, buf, want, &m, NULL)) {
        DWORD e = GetLastError();
        /* The writing end of a pipe closed: end of file. */
        if (e != ERROR_BROKEN_PIPE && e != ERROR_HANDLE_EOF) return blobc_win_errno(e);
        m = 0;
    }
    *got = m;
    return 0;
}

int blobc_os_close(blobc_os_fd fd) { return CloseHandle((HANDLE)fd) ? 0 : last_errno(); }

int blobc_os_read_at(blobc_os_fd fd, void *buf, size_t n, uint64_t at, size_t *got) {
    *got = 0;
    while (*got < n) {
        uint64_t off = at + *got;
        OVERLAPPED o = {0};
        o.Offset = (DWORD)off;
        o.OffsetHigh = (DWORD)(off >> 32);
        DWORD m = 0, want = n - *got > 0x40000000u ? 0x40000000u : (DWORD)(n - *got);
        if (!ReadFile((HANDLE)fd, (uint8_t *)buf + *got, want, &m, &o)) {
            DWORD e = GetLastError();
            return e == ERROR_HANDLE_EOF ? 0 : blobc_win_errno(e);
        }
        if (m == 0) break;
        *got += m;
    }
    return 0;
}

static int write_all(HANDLE h, const uint8_t *p, size_t n) {
    while (n) {
        DWORD w = 0, want = n > 0x40000000u ? 0x40000000u : (DWORD)n;
        if (!WriteFile(h, p, want, &w, NULL)) return last_errno();
        p += w;
        n -= w;
    }
    return 0;
}

int blobc_os_write_stdout(const void *data, size_t len) {
    fflush(stdout);
    return write_all(GetStdHandle(STD_OUTPUT_HANDLE), data, len);
}

static int put_handle(void *to, const void *p, size_t n) { return write_all(*(HANDLE *)to, p, n); }

/* A copy (c->copy) is always the plain one here: produce reads and writes
 * it in pieces. */
static int write_content(HANDLE h, const blobc_os_content *c) {
    int e = c->produce ? c->produce(c->ctx, put_handle, &h) : write_all(h, c->data, c->len);
    if (!e && c->copy && c->copy->check) e = c->copy->check(c->copy->check_ctx, (blobc_os_fd)h);
    return e;
}

FILE *blobc_os_fopen(const char *path, const char *mode) {
    wchar_t *w = blobc_win_wide(path), *m = blobc_win_wide(mode);
    FILE *f = w && m ? _wfopen(w, m) : NULL;
    if (!w || !m) errno = ENOENT;
    free(w);
    free(m);
    return f;
}

int blobc_os_mkdir(const char *path) {
    wchar_t *w = blobc_win_wide(path);
    if (!w) return ENOENT;
    int e = CreateDirectoryW(w, NULL) ? 0 : path_errno(path);
    free(w);
    return e;
}

int blobc_os_remove(const char *path) {
    wchar_t *w = blobc_win_wide(path);
    if (!w) return ENOENT;
    int e = DeleteFileW(w) ? 0 : last_errno();
    free(w);
    return e;
}

int blobc_os_rmdir(const char *path) {
    wchar_t *w = blobc_win_wide(path);
    if (!w) return ENOENT;
    int e = RemoveDirectoryW(w) ? 0 : last_errno();
    free(w);
    return e;
}

size_t blobc_os_dir_len(const char *path) {
    size_t keep = path[0] && path[1] == ':' ? 2 : 0;
    for (size_t i = 0; path[i]; i++)
        if (path[i] == '/' || path[i] == '\\') keep = i + 1;
    return keep;
}

bool blobc_os_is_absolute(const char *path) {
    if (path[0] == '/' || path[0] == '\\') return true;
    return path[0] && path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

/* ---- memory ---- */

/* The 64-bit C runtime's malloc returns 16-byte aligned memory. */
_Static_assert(sizeof(void *) == 8, "64-bit Windows only");
void *blobc_os_alloc16(size_t n) { return malloc(n ? n : 1); }

const void *blobc_os_map_file(blobc_os_fd fd, size_t len) {
    HANDLE m = CreateFileMappingW((HANDLE)fd, NULL, PAGE_READONLY, 0, 0, NULL);
    if (!m) return NULL;
    const void *p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, len);
    CloseHandle(m); /* the view keeps the mapping */
    return p;
}

void blobc_os_unmap_file(const void *p, size_t len) {
    (void)len;
    UnmapViewOfFile(p);
}

/* Large pages on Windows need a privilege and are never swapped: none. */
void blobc_os_advise_huge(void *p, size_t len) {
    (void)p;
    (void)len;
}

void *blobc_os_map_zero(size_t len) {
    return VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void blobc_os_unmap_zero(void *p, size_t len) {
    (void)len;
    VirtualFree(p, 0, MEM_RELEASE);
}

/* ---- directories ---- */

struct blobc_os_dir {
    HANDLE h;
    WIN32_FIND_DATAW fd;
    bool first;
    char *name;
};

/* A listing of what the wide `pattern` ("dir\\*") matches. */
static int dir_open_w(const wchar_t *pattern, blobc_os_dir **out) {
    blobc_os_dir *d = calloc(1, sizeof *d);
    if (!d) return ENOMEM;
    d->h = FindFirstFileW(pattern, &d->fd);
    if (d->h == INVALID_HANDLE_VALUE) {
        int e = last_errno();
        free(d);
        return e;
    }
    d->first = true;
    *out = d;
    return 0;
}

int blobc_os_dir_open(const char *path, blobc_os_dir **out) {
    size_t n = strlen(path);
    char *pattern = malloc(n + 3);
    if (!pattern) return ENOMEM;
    snprintf(pattern, n + 3, "%s%s*", path, n && strchr("/\\", path[n - 1]) ? "" : "/");
    wchar_t *w = blobc_win_wide(pattern);
    free(pattern);
    int e = w ? dir_open_w(w, out) : ENOMEM;
    free(w);
    return e;
}

const char *blobc_os_dir_next(blobc_os_dir *d) {
    for (;;) {
        if (!d->first && !FindNextFileW(d->h, &d->fd)) return NULL;
        d->first = false;
        const wchar_t *n = d->fd.cFileName;
        if (wcscmp(n, L".") == 0 || wcscmp(n, L"..") == 0) continue;
        free(d->name);
        if ((d->name = blobc_win_utf8(n))) return d->name;
    }
}

void blobc_os_dir_close(blobc_os_dir *d) {
    if (!d) return;
    FindClose(d->h);
    free(d->name);
    free(d);
}

/* ---- atomic replacement ---- */

/* The final path of an open file ("\\?\C:\..."), malloc'd; NULL when
 * the file system cannot say. */
static wchar_t *final_path(HANDLE h) {
    DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, 0);
    wchar_t *w = n ? malloc((n + 1) * sizeof *w) : NULL;
    if (w && !GetFinalPathNameByHandleW(h, w, n + 1, 0)) {
        free(w);
        w = NULL;
    }
    return w;
}

/* Whether the final path names the same place as `given` does spelt out
 * in full (so no link was on the way). */
static bool same_place(const wchar_t *final, const char *given) {
    wchar_t *w = blobc_win_wide(given), full[MAX_PATH * 4];
    DWORD n = w ? GetFullPathNameW(w, MAX_PATH * 4, full, NULL) : 0;
    free(w);
    if (!n || n >= MAX_PATH * 4) return false;
    if (wcsncmp(final, L"\\\\?\\UNC\\", 8) == 0)
        return full[0] == '\\' && _wcsicmp(final + 7, full + 1) == 0;
    if (wcsncmp(final, L"\\\\?\\", 4) == 0) final += 4;
    return _wcsicmp(final, full) == 0;
}

/* MoveFileExW would replace a symbolic link or junction itself: the file
 * it finally names is asked of the file system (a "\\?\" path, which the
 * wide API takes at any length). A path with no link on the way, or that
 * names nothing yet, is kept as given. */
int blobc_os_resolve_links(const char *path, char **target) {
    HANDLE h = open_w(path, 0, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS);
    wchar_t *w = h != INVALID_HANDLE_VALUE ? final_path(h) : NULL;
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    char *u = w && !same_place(w, path) ? blobc_win_utf8(w) : NULL;
    free(w);
    if (u) {
        *target = u;
        return 0;
    }
    return (*target = _strdup(path)) ? 0 : ENOMEM;
}

static void hook(const blobc_os_temp_hooks *h, bool created, const char *tmp) {
    if (!h) return;
    void (*fn)(void *, const char *) = created ? h->created : h->gone;
    if (fn) fn(h->ctx, tmp);
}

/* "dir\.name.XXXXXX": next to the target, so the move stays on its volume. */
static char *temp_name(const char *target, unsigned attempt) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t dirlen = blobc_os_dir_len(target), total = strlen(target) + 9;
    char *tmp = malloc(total);
    if (!tmp) return NULL;
    uint64_t x = (blobc_os_unique() ^ (uint64_t)(uintptr_t)tmp) + attempt * 0x9E3779B97F4A7C15ull;
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36) suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    snprintf(tmp, total, "%.*s.%s.%s", (int)dirlen, target, target + dirlen, suffix);
    return tmp;
}

/* Creates a new hidden temporary beside target; the hooks hear of each
 * name before it can appear and of a name not taken after. */
static HANDLE create_temp(const char *target, char **name, const blobc_os_temp_hooks *hooks) {
    HANDLE h = INVALID_HANDLE_VALUE;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        if (!(*name = temp_name(target, attempt))) {
            SetLastError(ERROR_NOT_ENOUGH_MEMORY);
            return h;
        }
        hook(hooks, true, *name);
        /* readable too: a copy's check reads back what was written */
        h = open_w(*name, GENERIC_READ | GENERIC_WRITE, CREATE_NEW, FILE_ATTRIBUTE_NORMAL);
        if (h != INVALID_HANDLE_VALUE) return h;
        DWORD e = GetLastError();
        hook(hooks, false, *name);
        free(*name);
        *name = NULL;
        SetLastError(e);
        if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) break;
    }
    return h;
}

/* Moves tmp over target. A target held open elsewhere fails with a
 * sharing or access error: a few tries over about a fifth of a second
 * (a scanner lets go), then EBUSY when the target is really in use. */
static int move_over(const char *tmp, const char *target) {
    wchar_t *wt = blobc_win_wide(tmp), *wd = blobc_win_wide(target);
    int e = 0;
    for (int attempt = 0; wt && wd; attempt++) {
        if (MoveFileExW(wt, wd, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) break;
        DWORD w = GetLastError();
        e = blobc_win_errno(w);
        if (w != ERROR_ACCESS_DENIED && w != ERROR_SHARING_VIOLATION) break;
        HANDLE h = CreateFileW(wd, DELETE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                               NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
        if (h != INVALID_HANDLE_VALUE) {
            CloseHandle(h);
            break; /* not in use: a real permission problem */
        }
        if (GetLastError() != ERROR_SHARING_VIOLATION) break;
        e = EBUSY;
        if (attempt == 9) break;
        Sleep(20);
    }
    if (!wt || !wd) e = ENOMEM;
    free(wt);
    free(wd);
    return e;
}

/* Whether the file at path holds exactly data: then a replacement that the
 * file's being in use prevented has nothing to change (a cache entry that
 * another thread maps, written again by a writer that raced it). */
static bool holds(const char *path, const uint8_t *data, size_t len) {
    HANDLE h = open_w(path, GENERIC_READ, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL);
    if (h == INVALID_HANDLE_VALUE) return false;
    LARGE_INTEGER size;
    bool same = GetFileSizeEx(h, &size) && (uint64_t)size.QuadPart == len;
    uint8_t buf[65536];
    for (size_t at = 0; same && at < len;) {
        DWORD want = len - at < sizeof buf ? (DWORD)(len - at) : (DWORD)sizeof buf, got = 0;
        same = ReadFile(h, buf, want, &got, NULL) && got == want && memcmp(buf, data + at, got) == 0;
        at += got;
    }
    CloseHandle(h);
    return same;
}

int blobc_os_replace(const char *target, const blobc_os_content *content, const blobc_os_info *old,
                     bool named_temp, const blobc_os_temp_hooks *hooks, const char **stage) {
    (void)old;
    (void)named_temp;
    char *tmp = NULL;
    *stage = "create";
    HANDLE h = create_temp(target, &tmp, hooks);
    if (h == INVALID_HANDLE_VALUE) return path_errno(target);
    *stage = "write";
    int e = write_content(h, content);
    if (!CloseHandle(h) && !e) e = last_errno();
    bool moved = false;
    if (!e) {
        *stage = "replace";
        e = move_over(tmp, target);
        moved = !e;
        /* a reader holds the target open: done if it holds these bytes */
        if (e == EBUSY && !content->produce && holds(target, content->data, content->len)) e = 0;
    }
    if (!moved) blobc_os_remove(tmp);
    hook(hooks, false, tmp);
    free(tmp);
    return e;
}

int blobc_os_write_in_place(const char *path, const blobc_os_content *content, const char **stage) {
    *stage = "open";
    HANDLE h = open_w(path, GENERIC_WRITE, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL);
    if (h == INVALID_HANDLE_VALUE) return last_errno();
    *stage = "write";
    int e = write_content(h, content);
    if (!CloseHandle(h) && !e) e = last_errno();
    return e;
}

/* Win32 creates no file relative to a directory handle, and a file's
 * permissions come from the folder's inherited ACL: a directory of many
 * replacements is only its name checked once, and each replacement goes
 * by path as blobc_os_replace does. */
struct blobc_os_outdir {
    int unused;
};

int blobc_os_outdir_open(const char *dir, blobc_os_outdir **d) {
    blobc_os_info info;
    int e = blobc_os_stat(dir, &info);
    if (!e && info.kind != BLOBC_OS_DIRECTORY) e = ENOTDIR;
    if (e) return e;
    return (*d = calloc(1, sizeof **d)) ? 0 : ENOMEM;
}

void blobc_os_outdir_close(blobc_os_outdir *d) { free(d); }

int blobc_os_replace_in(blobc_os_outdir *d, const char *target, const blobc_os_content *content,
                        const blobc_os_info *old, bool named_temp, const blobc_os_temp_hooks *hooks,
                        const char **stage) {
    (void)d;
    return blobc_os_replace(target, content, old, named_temp, hooks, stage);
}

int blobc_os_resolve_links_info(const char *path, char **target, blobc_os_info *info, int *found) {
    int e = blobc_os_resolve_links(path, target);
    if (!e) *found = blobc_os_stat(*target, info);
    return e;
}

/* ---- a directory other users write ----
 * Win32 has no handle-relative open, so a tree keeps its directory's full
 * path and its handle, and a name below it is opened by path, with
 * FILE_FLAG_OPEN_REPARSE_POINT: a symbolic link, junction or any other
 * reparse point is opened itself, never followed, and refused. What the
 * path runs through cannot change meanwhile: the handles of the root and
 * of each subdirectory in use are held without FILE_SHARE_DELETE, which
 * keeps anyone from renaming or removing those directories (or a folder
 * above them) while they are open. Files are opened sharing read, write
 * and delete, so other users' bakes and prunes go on. */

struct blobc_os_tree {
    HANDLE h;
    wchar_t *path; /* full, without a trailing separator */
};

#define TREE_SHARE (FILE_SHARE_READ | FILE_SHARE_WRITE)
#define FILE_SHARE_ALL (FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
#define NO_FOLLOW (FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)

/* "<tree>\<name>", malloc'd; NULL when out of memory or not UTF-8. */
static wchar_t *tree_path(const blobc_os_tree *t, const char *name) {
    wchar_t *w = blobc_win_wide(name);
    size_t a = wcslen(t->path), b = w ? wcslen(w) : 0;
    wchar_t *p = w ? malloc((a + b + 2) * sizeof *p) : NULL;
    if (p) {
        memcpy(p, t->path, a * sizeof *p);
        p[a] = L'\\';
        memcpy(p + a + 1, w, (b + 1) * sizeof *p);
    }
    free(w);
    return p;
}

/* What the open handle h is, a reparse point told apart. */
static int handle_info(HANDLE h, blobc_os_info *info) {
    int e = blobc_os_fstat((blobc_os_fd)h, info);
    if (e) return e;
    if (info->kind == BLOBC_OS_OTHER) info->kind = BLOBC_OS_DEVICE;
    FILE_ATTRIBUTE_TAG_INFO tag;
    if (GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof tag)) {
        if (tag.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) info->kind = BLOBC_OS_LINK;
    } else {
        BY_HANDLE_FILE_INFORMATION bi;
        if (GetFileInformationByHandle(h, &bi) && (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
            info->kind = BLOBC_OS_LINK;
    }
    return 0;
}

/* Opens `name` of t itself (never what it links to): the handle, or
 * INVALID_HANDLE_VALUE with *e set. */
static HANDLE tree_open_name(const blobc_os_tree *t, const char *name, DWORD access, DWORD share,
                             int *e) {
    wchar_t *p = tree_path(t, name);
    HANDLE h = p ? CreateFileW(p, access, share, NULL, OPEN_EXISTING, NO_FOLLOW, NULL)
                 : INVALID_HANDLE_VALUE;
    *e = h != INVALID_HANDLE_VALUE ? 0 : p ? last_errno() : ENOMEM;
    free(p);
    return h;
}

static int tree_new(HANDLE h, wchar_t *path, blobc_os_tree **t) {
    if (!path || !(*t = malloc(sizeof **t))) {
        CloseHandle(h);
        free(path);
        return ENOMEM;
    }
    (*t)->h = h;
    (*t)->path = path;
    size_t n = wcslen(path);
    while (n > 3 && (path[n - 1] == L'\\' || path[n - 1] == L'/')) path[--n] = L'\0';
    return 0;
}

/* The full path of the open directory h, links resolved (the one the
 * handle holds in place), or else the given path made full. */
static wchar_t *full_path(HANDLE h, const wchar_t *given) {
    wchar_t *full = final_path(h);
    DWORD n = full ? 0 : GetFullPathNameW(given, 0, NULL, NULL);
    if (n && (full = malloc((n + 1) * sizeof *full)) && !GetFullPathNameW(given, n + 1, full, NULL)) {
        free(full);
        full = NULL;
    }
    return full;
}

int blobc_os_tree_open(const char *path, blobc_os_tree **t) {
    wchar_t *w = blobc_win_wide(path);
    if (!w) return ENOENT;
    /* Held without FILE_SHARE_DELETE: the root stays where it is while
     * the tree is open. */
    HANDLE h = CreateFileW(w, FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES, TREE_SHARE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    blobc_os_info info = {0};
    int e = h == INVALID_HANDLE_VALUE ? path_errno(path) : blobc_os_fstat((blobc_os_fd)h, &info);
    if (!e && info.kind != BLOBC_OS_DIRECTORY) e = ENOTDIR;
    if (e) {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
        free(w);
        return e;
    }
    wchar_t *full = full_path(h, w);
    free(w);
    return tree_new(h, full, t);
}

/* Opens the subdirectory p (a full path) of a tree, pinned: 0, ENOENT,
 * ELOOP for a reparse point, ENOTDIR for anything else. */
static int open_sub_w(const wchar_t *p, HANDLE *out) {
    HANDLE h = CreateFileW(p, FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES, TREE_SHARE, NULL,
                           OPEN_EXISTING, NO_FOLLOW, NULL);
    if (h == INVALID_HANDLE_VALUE) return last_errno();
    blobc_os_info info;
    int e = handle_info(h, &info);
    if (!e && info.kind != BLOBC_OS_DIRECTORY) e = info.kind == BLOBC_OS_LINK ? ELOOP : ENOTDIR;
    if (e) CloseHandle(h);
    else *out = h;
    return e;
}

int blobc_os_tree_sub(const blobc_os_tree *t, const char *name, bool create, blobc_os_tree **sub) {
    wchar_t *p = tree_path(t, name);
    if (!p) return ENOMEM;
    HANDLE h;
    int e = open_sub_w(p, &h);
    if (e == ENOENT && create) {
        e = CreateDirectoryW(p, NULL) || GetLastError() == ERROR_ALREADY_EXISTS ? 0 : last_errno();
        if (!e) e = open_sub_w(p, &h);
    }
    if (e) {
        free(p);
        return e;
    }
    return tree_new(h, p, sub);
}

void blobc_os_tree_close(blobc_os_tree *t) {
    if (!t) return;
    CloseHandle(t->h);
    free(t->path);
    free(t);
}

int blobc_os_tree_stat(const blobc_os_tree *t, const char *name, blobc_os_info *info) {
    int e;
    HANDLE h = tree_open_name(t, name, FILE_READ_ATTRIBUTES, FILE_SHARE_ALL, &e);
    if (e) return e;
    e = handle_info(h, info);
    CloseHandle(h);
    return e;
}

/* The file opened is the file judged: no window between the two. */
int blobc_os_tree_read(const blobc_os_tree *t, const char *name, blobc_os_fd *fd,
                       blobc_os_info *info) {
    int e;
    *fd = BLOBC_OS_NO_FD;
    HANDLE h = tree_open_name(t, name, GENERIC_READ | FILE_READ_ATTRIBUTES, FILE_SHARE_ALL, &e);
    if (e == EACCES) { /* a directory, or a file this user may not read */
        blobc_os_info seen;
        if (blobc_os_tree_stat(t, name, &seen) == 0 && seen.kind != BLOBC_OS_REGULAR) {
            *info = seen;
            return 0;
        }
    }
    if (e) return e;
    e = handle_info(h, info);
    if (!e && info->kind == BLOBC_OS_REGULAR) {
        *fd = (blobc_os_fd)h;
        return 0;
    }
    CloseHandle(h);
    return e;
}

/* A second handle with the right to set times: the first was opened for
 * reading only, and another user's entry may not be ours to touch. */
/* Who may write a file is in its access list, which is not read here:
 * every entry is treated as one another user may have written. */
bool blobc_os_tree_private(const blobc_os_tree *t) {
    (void)t;
    return false;
}

bool blobc_os_fd_private(blobc_os_fd fd) {
    (void)fd;
    return false;
}

void blobc_os_touch_fd(blobc_os_fd fd) {
    HANDLE h = ReOpenFile((HANDLE)fd, FILE_WRITE_ATTRIBUTES, FILE_SHARE_ALL, 0);
    if (h == INVALID_HANDLE_VALUE) return;
    FILETIME now;
    GetSystemTimeAsFileTime(&now);
    (void)SetFileTime(h, NULL, &now, &now);
    CloseHandle(h);
}

/* Whether `name` of t is held open by someone: it cannot be had alone. */
static bool in_use(const blobc_os_tree *t, const char *name) {
    int e;
    HANDLE h = tree_open_name(t, name, FILE_READ_ATTRIBUTES, 0, &e);
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    return e == EBUSY;
}

int blobc_os_tree_write(const blobc_os_tree *t, char *tmp, size_t n, const char *name,
                        const void *data, size_t len) {
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    char *suffix = tmp + strlen(tmp) - n;
    HANDLE h = INVALID_HANDLE_VALUE;
    wchar_t *p = NULL;
    int e = EEXIST;
    for (unsigned attempt = 0; e == EEXIST && attempt < 100; attempt++) {
        uint64_t x = (blobc_os_unique() ^ (uint64_t)(uintptr_t)tmp) * 0x9E3779B97F4A7C15ull + attempt;
        for (size_t i = 0; i < n; i++, x /= 36) suffix[i] = digits[x % 36];
        free(p);
        if (!(p = tree_path(t, tmp))) return ENOMEM;
        /* CREATE_NEW: whatever has the name, a link included, is left be. */
        h = CreateFileW(p, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        e = h != INVALID_HANDLE_VALUE ? 0 : last_errno();
    }
    if (!e) {
        e = write_all(h, data, len);
        if (!CloseHandle(h) && !e) e = last_errno();
    }
    wchar_t *to = e ? NULL : tree_path(t, name);
    if (!e && !to) e = ENOMEM;
    /* MoveFileExW replaces the name itself, a link there included. A file
     * that another process or thread is reading cannot be replaced: tried
     * again for about a fifth of a second, as readers are quick. */
    for (int attempt = 0; !e && !MoveFileExW(p, to, MOVEFILE_REPLACE_EXISTING); attempt++) {
        DWORD w = GetLastError();
        if ((w != ERROR_ACCESS_DENIED && w != ERROR_SHARING_VIOLATION) || attempt == 10)
            e = w == ERROR_ACCESS_DENIED && in_use(t, name) ? EBUSY : blobc_win_errno(w);
        else
            Sleep(20);
    }
    if (e && h != INVALID_HANDLE_VALUE) DeleteFileW(p);
    free(to);
    free(p);
    return e;
}

/* Deleted through the handle that was checked: the file judged regular is
 * the file removed. The handle is exclusive, so that of two processes
 * removing one file only one succeeds (the counts of stats/ are added by
 * whoever removed their file), as with unlink; a file another process
 * has open is tried again for about a fifth of a second, then EBUSY. */
int blobc_os_tree_remove(const blobc_os_tree *t, const char *name) {
    int e = EBUSY;
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int attempt = 0; e == EBUSY && attempt < 10; attempt++) {
        if (attempt) Sleep(20);
        h = tree_open_name(t, name, DELETE | FILE_READ_ATTRIBUTES, 0, &e);
    }
    if (e) return e;
    blobc_os_info info;
    e = handle_info(h, &info);
    if (!e && info.kind != BLOBC_OS_REGULAR) e = ENOENT;
    FILE_DISPOSITION_INFO del = {TRUE};
    if (!e && !SetFileInformationByHandle(h, FileDispositionInfo, &del, sizeof del)) e = last_errno();
    CloseHandle(h);
    return e;
}

int blobc_os_tree_writable(const blobc_os_tree *t) {
    (void)t;
    return 0;
}

int blobc_os_tree_list(const blobc_os_tree *t, blobc_os_dir **d) {
    wchar_t *p = tree_path(t, "*");
    int e = p ? dir_open_w(p, d) : ENOMEM;
    free(p);
    return e;
}

/* ---- time ---- */

int64_t blobc_os_now(void) {
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    return unix_time(ft);
}

double blobc_os_monotonic(void) {
    LARGE_INTEGER c, f;
    QueryPerformanceCounter(&c);
    QueryPerformanceFrequency(&f);
    return (double)c.QuadPart / (double)f.QuadPart;
}

uint64_t blobc_os_unique(void) {
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    return (uint64_t)c.QuadPart ^ ((uint64_t)ft.dwLowDateTime << 24) ^
           ((uint64_t)GetCurrentProcessId() << 20);
}
#endif
