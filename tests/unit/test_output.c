/*
 * test_output.c - the files the library reads and writes: the output rules
 * (temporary file and rename, devices and FIFOs in place, links followed,
 * inputs refused), bounded reads of non-regular inputs, binary input, the
 * did-you-mean every message shares, and the batch layout hash.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#ifndef _WIN32 /* the POSIX cases: modes, links, FIFOs, devices, pipes */
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "test.h"
#include "blobc/blobc.h"
#include "common/suggest.h"
#include "common/buffer.h"
#include "common/err.h"
#include "common/utf8.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/blobc-test-out-XXXXXX");
    if (!test_mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
}

static char *path_in(const char *name) {
    static char buf[8][256];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char *slurp(const char *path) {
    static char buf[4096];
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Names in dir other than the expected ones (a temporary left behind). */
static int stray_files(int expected) {
    int n = 0;
    blobc_os_dir *d;
    if (blobc_os_dir_open(dir, &d) != 0) return -1;
    while (blobc_os_dir_next(d)) n++;
    blobc_os_dir_close(d);
    return n - expected;
}

#ifndef _WIN32
TEST(replace_regular_file_keeps_mode) {
    const char *out = path_in("a.blob");
    put(out, "old");
    chmod(out, 0640);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(out, "new bytes", 9, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(out), "new bytes");
    struct stat st;
    CHECK(stat(out, &st) == 0);
    CHECK_EQ_U(st.st_mode & 07777, 0640);
    CHECK_EQ_I(stray_files(1), 0);
    unlink(out);
}
#endif

TEST(new_file) {
    const char *out = path_in("new.blob");
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(out, "x", 1, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(out), "x");
    CHECK_EQ_I(stray_files(1), 0);
    blobc_os_remove(out);
}

/* A producer of `pieces` pieces of 1000 bytes ("0123456789" repeated),
 * failing before the last when `fail` is set. It checks that the target
 * holds its old bytes (or nothing) while it writes. */
typedef struct pieces_src {
    const char *target;
    const char *old;
    int pieces, fail, calls;
    bool seen_early;
} pieces_src;

static blobc_status produce_pieces(void *ctx, bool (*emit)(void *to, const void *b, size_t n), void *to,
                                   blobc_error *err) {
    pieces_src *p = ctx;
    p->calls++;
    char piece[1000];
    for (size_t i = 0; i < sizeof piece; i++) piece[i] = (char)('0' + i % 10);
    for (int i = 0; i < p->pieces; i++) {
        if (p->fail && i == p->pieces - 1) return blobc_err(err, BLOBC_EINPUT, "made up failure at piece %d", i);
        if (!emit(to, piece, sizeof piece)) return BLOBC_EIO;
        const char *now = slurp(p->target);
        if (p->old ? !now || strcmp(now, p->old) != 0 : now != NULL) p->seen_early = true;
    }
    return BLOBC_OK;
}

TEST(write_from_producer) {
    const char *out = path_in("made.txt");
    blobc_error err;
    blobc_error_clear(&err);
    pieces_src p = {out, NULL, 50, 0, 0, false};
    CHECK_EQ_U(blobc_write_output_from(out, produce_pieces, &p, NULL, &err), BLOBC_OK);
    CHECK(!p.seen_early);
    CHECK_EQ_I(p.calls, 1);
    uint8_t *got = NULL;
    size_t len = 0;
    CHECK_EQ_U(blobc_read_file(out, &got, &len, &err), BLOBC_OK);
    CHECK_EQ_U(len, 50000);
    bool pattern = true;
    for (size_t i = 0; i < len; i++) pattern &= got[i] == (uint8_t)('0' + i % 1000 % 10);
    CHECK(pattern);
    free(got);
    CHECK_EQ_I(stray_files(1), 0);
    /* a producer that fails: the file that was there is left as it was,
     * nothing else stays, and the error is the producer's */
    put(out, "old text");
    pieces_src f = {out, "old text", 50, 1, 0, false};
    CHECK_EQ_U(blobc_write_output_from(out, produce_pieces, &f, NULL, &err), BLOBC_EINPUT);
    CHECK_STR(err.message, "made up failure at piece 49");
    CHECK(!f.seen_early);
    CHECK_STR(slurp(out), "old text");
    CHECK_EQ_I(stray_files(1), 0);
    blobc_os_remove(out);
    /* a new file that fails is never made */
    pieces_src g = {out, NULL, 3, 1, 0, false};
    CHECK_EQ_U(blobc_write_output_from(out, produce_pieces, &g, NULL, &err), BLOBC_EINPUT);
    CHECK(slurp(out) == NULL);
    CHECK_EQ_I(stray_files(0), 0);
}

#ifndef _WIN32
TEST(symlink_is_followed) {
    const char *target = path_in("target.yaml"), *link = path_in("link.yaml");
    put(target, "old");
    CHECK(symlink("target.yaml", link) == 0);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(link, "via link", 8, NULL, &err), BLOBC_OK);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_STR(slurp(target), "via link");
    CHECK_EQ_I(stray_files(2), 0);
    /* A dangling link: its target is created. */
    unlink(target);
    CHECK_EQ_U(blobc_write_output(link, "made", 4, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(target), "made");
    unlink(link);
    unlink(target);
}

TEST(fifo_written_in_place) {
    const char *fifo = path_in("pipe");
    CHECK(mkfifo(fifo, 0600) == 0);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) { /* the reader: copies the FIFO to the pipe */
        close(fds[0]);
        int in = open(fifo, O_RDONLY);
        char b[256];
        ssize_t n;
        while ((n = read(in, b, sizeof b)) > 0)
            if (write(fds[1], b, (size_t)n) != n) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    blobc_error err;
    blobc_error_clear(&err);
    blobc_status st = blobc_write_output(fifo, "through the fifo", 16, NULL, &err);
    char got[64] = {0};
    ssize_t n = read(fds[0], got, sizeof got - 1);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    CHECK_EQ_U(st, BLOBC_OK);
    CHECK_EQ_I(n, 16);
    CHECK_STR(got, "through the fifo");
    struct stat sb;
    CHECK(lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode));
    unlink(fifo);
}

TEST(device_written_in_place) {
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output("/dev/null", "gone", 4, NULL, &err), BLOBC_OK);
    struct stat sb;
    CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
    /* /dev/full: the write error is reported, nothing replaced. */
    if (stat("/dev/full", &sb) == 0) {
        CHECK_EQ_U(blobc_write_output("/dev/full", "x", 1, NULL, &err), BLOBC_EIO);
        CHECK_STR(err.message, "cannot write '/dev/full': No space left on device");
        CHECK(stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode));
    }
}

/* A write that fails (a full device): put says so, the producer stops,
 * and the error is the write's. */
TEST(producer_to_full_device) {
    if (access("/dev/full", W_OK) != 0) return;
    blobc_error err;
    blobc_error_clear(&err);
    pieces_src p = {"/dev/full", NULL, 5, 0, 0, false};
    CHECK_EQ_U(blobc_write_output_from("/dev/full", produce_pieces, &p, NULL, &err), BLOBC_EIO);
    CHECK_CONTAINS(err.message, "No space left on device");
}

TEST(inputs_are_refused) {
    const char *in = path_in("in.yaml"), *hard = path_in("hard.yaml"), *soft = path_in("soft.yaml");
    put(in, "keep me");
    CHECK(link(in, hard) == 0);
    CHECK(symlink("in.yaml", soft) == 0);
    blobc_inputs *set = blobc_inputs_new();
    CHECK(set != NULL);
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_inputs_add(set, in, &err), BLOBC_OK);
    CHECK_EQ_U(blobc_inputs_add(set, path_in("missing"), &err), BLOBC_OK);
    CHECK_STR(blobc_inputs_find(set, hard), in);
    CHECK_STR(blobc_inputs_find(set, soft), in);
    CHECK(blobc_inputs_find(set, path_in("missing")) == NULL);
    blobc_output_options o = {set, NULL, NULL, NULL, false, false};
    CHECK_EQ_U(blobc_write_output(in, "x", 1, &o, &err), BLOBC_EIO);
    CHECK_CONTAINS(err.message, "refusing to overwrite input file '");
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(soft, "x", 1, &o, &err), BLOBC_EIO);
    CHECK_CONTAINS(err.message, "(the output '");
    CHECK_STR(slurp(in), "keep me");
    blobc_inputs_free(set);
    unlink(in);
    unlink(hard);
    unlink(soft);
}

/* Many inputs: each lookup is a hash probe, and all are found. */
#endif

TEST(many_inputs) {
    blobc_inputs *set = blobc_inputs_new();
    blobc_error err;
    char name[64];
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "f%d", i);
        put(path_in(name), "x");
        CHECK_EQ_U(blobc_inputs_add(set, path_in(name), &err), BLOBC_OK);
    }
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "f%d", i);
        CHECK_STR(blobc_inputs_find(set, path_in(name)), path_in(name));
        blobc_os_remove(path_in(name));
    }
    blobc_inputs_free(set);
}

static int hook_events;
static char seen_temp[256];
static void on_temp(void *ctx, const char *p) {
    (void)ctx;
    hook_events++;
    snprintf(seen_temp, sizeof seen_temp, "%s", p);
}

TEST(hooks_pair_up) {
    const char *out = path_in("h.blob");
    put(out, "old");
    hook_events = 0;
    blobc_output_options o = {NULL, on_temp, on_temp, NULL, false, false};
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(out, "new", 3, &o, &err), BLOBC_OK);
    CHECK_EQ_I(hook_events % 2, 0); /* every temporary announced is gone again */
    CHECK_EQ_I(stray_files(1), 0);
    /* A named temporary: announced (hidden, beside the output), then gone. */
    hook_events = 0;
    o.named_temp = true;
    CHECK_EQ_U(blobc_write_output(out, "newer", 5, &o, &err), BLOBC_OK);
    CHECK_EQ_I(hook_events, 2);
    CHECK(strncmp(seen_temp, path_in(".h.blob."), strlen(path_in(".h.blob."))) == 0);
    CHECK_STR(slurp(out), "newer");
    CHECK_EQ_I(stray_files(1), 0);
    blobc_os_remove(out);
}

#ifndef _WIN32
/* True when the file system of dir can make unnamed files (O_TMPFILE). */
static bool have_tmpfile(void) {
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
    if (fd >= 0) close(fd);
    return fd >= 0;
#else
    return false;
#endif
}

TEST(outputs_by_identity) {
    CHECK(mkdir(path_in("x"), 0755) == 0);
    CHECK(symlink("x", path_in("y")) == 0);
    CHECK(symlink("a.blob", path_in("x/l.blob")) == 0);
    static const struct {
        const char *name; /* in dir; NULL: standard output */
        size_t first;     /* the earlier call it is the same as */
    } cases[] = {
        {"x/a.blob", SIZE_MAX}, {"./x/a.blob", 0},     {"x//a.blob", 0},
        {"y/a.blob", 0},        {"y/../x/a.blob", 0},  {"x/l.blob", 0},
        {"x/b.blob", SIZE_MAX}, {"new/a.blob", SIZE_MAX}, {"new/a.blob", 7},
        {"new/./a.blob", SIZE_MAX}, {NULL, SIZE_MAX},  {NULL, 10},
        {"x/-", SIZE_MAX},
    };
    blobc_outputs *set = blobc_outputs_new();
    CHECK(set != NULL);
    blobc_error err;
    blobc_error_clear(&err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t first = 99;
        const char *p = cases[i].name ? path_in(cases[i].name) : "-";
        CHECK_EQ_U(blobc_outputs_add(set, p, &first, &err), BLOBC_OK);
        if (first != cases[i].first)
            FAILF("%s: same as call %zu, want %zu", p, first, cases[i].first);
    }
    blobc_outputs_free(set);
    unlink(path_in("x/l.blob"));
    unlink(path_in("y"));
    rmdir(path_in("x"));
}

TEST(missing_directories_made) {
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(path_in("m/n/o.blob"), "deep", 4, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(path_in("m/n/o.blob")), "deep");
    /* A file where a directory must go: an error, nothing made. */
    put(path_in("f"), "file");
    CHECK_EQ_U(blobc_write_output(path_in("f/g/h.blob"), "x", 1, NULL, &err), BLOBC_EIO);
    CHECK_CONTAINS(err.message, "Not a directory");
    CHECK_STR(slurp(path_in("f")), "file");
    unlink(path_in("m/n/o.blob"));
    rmdir(path_in("m/n"));
    rmdir(path_in("m"));
    unlink(path_in("f"));
}

TEST(temporaries_of_a_killed_writer) {
    if (!have_tmpfile()) {
        printf("SKIP output.temporaries_of_a_killed_writer: no O_TMPFILE in %s\n", dir);
        return;
    }
    const char *out = path_in("r.blob"), *tmp = path_in(".r.blob.blobc-tmp");
    blobc_output_options o = {NULL, on_temp, on_temp, NULL, false, false};
    blobc_error err;
    blobc_error_clear(&err);
    /* A new file is linked under its own name: no temporary at all. */
    hook_events = 0;
    CHECK_EQ_U(blobc_write_output(out, "new", 3, &o, &err), BLOBC_OK);
    CHECK_EQ_I(hook_events, 0);
    /* A replacement passes through the fixed name. */
    CHECK_EQ_U(blobc_write_output(out, "newer", 5, &o, &err), BLOBC_OK);
    CHECK_EQ_I(hook_events, 2);
    CHECK_STR(seen_temp, tmp);
    /* A leftover nobody holds is removed by the next write. */
    put(tmp, "left by a killed writer");
    CHECK_EQ_U(blobc_write_output(out, "third", 5, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(out), "third");
    CHECK_EQ_I(stray_files(1), 0);
    /* One a live writer holds stays; the write goes through another name. */
    put(tmp, "live");
    int fd = open(tmp, O_RDONLY);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
    CHECK_EQ_U(blobc_write_output(out, "fourth", 6, NULL, &err), BLOBC_OK);
    CHECK_STR(slurp(out), "fourth");
    CHECK_STR(slurp(tmp), "live");
    CHECK_EQ_I(stray_files(2), 0);
    close(fd);
    /* Not a regular file: never touched. */
    unlink(tmp);
    CHECK(mkfifo(tmp, 0600) == 0);
    CHECK_EQ_U(blobc_write_output(out, "fifth", 5, NULL, &err), BLOBC_OK);
    struct stat sb;
    CHECK(lstat(tmp, &sb) == 0 && S_ISFIFO(sb.st_mode));
    unlink(tmp);
    unlink(out);
}

/* The depfile of output `out` with input `in`, no schema. */
static const char *depfile_of(const char *out, const char *in, blobc_status *st, blobc_error *err) {
    static blobc_buffer b;
    *st = blobc_depfile(out, in, NULL, &b, err);
    blobc_buf_putc(&b, '\0');
    return (const char *)b.data;
}

TEST(depfile_spelling) {
    static const struct {
        const char *name, *spelled;
    } ok[] = {
        {"plain.yaml", "plain.yaml"}, {"a b", "a\\ b"},     {"a\\ b", "a\\\\\\ b"},
        {"a\\\\ b", "a\\\\\\\\\\ b"}, {"a#b", "a\\#b"},     {"a$b", "a$$b"},
        {"a:b", "a\\:b"},             {":a", "\\:a"},       {"a\\b", "a\\b"},
        {" a", "\\ a"},               {"(a)", "(a)"},       {"a~b", "a~b"},
        {"a!@{}]+,.-_b", "a!@{}]+,.-_b"}, {"caf\xc3\xa9", "caf\xc3\xa9"},
    };
    blobc_error err;
    blobc_status st;
    char want[256];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *got = depfile_of("o.blob", ok[i].name, &st, &err);
        snprintf(want, sizeof want, "o.blob: %s\n", ok[i].spelled);
        if (st != BLOBC_OK || strcmp(got, want) != 0)
            FAILF("'%s': got '%s' (%s), want '%s'", ok[i].name, got, err.message, want);
    }
    static const char *const refused[] = {"~a", "a\\", "a:", "a ", "a\\#b", "a\\:b", "a\\$b",
                                          "lib(member)", "x/a(b)"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        depfile_of("o.blob", refused[i], &st, &err);
        if (st != BLOBC_EIO) FAILF("'%s' not refused", refused[i]);
        CHECK_CONTAINS(err.message, "make and ninja cannot both read such a name back");
    }
    /* Every byte in the middle of a name: spelled, or refused by name. */
    for (int c = 1; c < 256; c++) {
        char name[4] = {'a', (char)c, 'b', 0};
        bool bad = c < 0x20 || c == 0x7f || (c < 0x80 && strchr("\"&'*?;<>^`|=%[", c));
        depfile_of("o.blob", name, &st, &err);
        if (st != (bad ? BLOBC_EIO : BLOBC_OK)) FAILF("byte 0x%02x: status %d", c, (int)st);
        if (bad && !strstr(err.message, "it holds \"")) FAILF("byte 0x%02x: %s", c, err.message);
    }
    /* The output is a name too; standard input is not listed. */
    depfile_of("o|p.blob", "in.yaml", &st, &err);
    CHECK_EQ_U(st, BLOBC_EIO);
    CHECK_STR(depfile_of("o.blob", "-", &st, &err), "o.blob:\n");
}

TEST(depfile_lists_schema_files) {
    const char *base = path_in("base #1.schema"), *main_ = path_in("main.schema");
    put(base, "struct V { x: f32; }\n");
    put(main_, "import \"base #1.schema\";\nstruct P { v: V; }\nroot P;\n");
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_schema_load(main_, &s, &err), BLOBC_OK);
    blobc_buffer b = {0};
    CHECK_EQ_U(blobc_depfile("o.blob", "in.yaml", s, &b, &err), BLOBC_OK);
    blobc_buf_putc(&b, '\0');
    char want[1024];
    snprintf(want, sizeof want, "o.blob: in.yaml \\\n  %s \\\n  %s/base\\ \\#1.schema\n\n%s:\n\n%s/base\\ \\#1.schema:\n",
             main_, dir, main_, dir);
    CHECK_STR((const char *)b.data, want);
    blobc_buffer_free(&b);
    blobc_schema_free(s);
    unlink(base);
    unlink(main_);
}
#endif

TEST(directory_is_refused) {
    blobc_error err;
    blobc_error_clear(&err);
    CHECK_EQ_U(blobc_write_output(dir, "x", 1, NULL, &err), BLOBC_EIO);
    CHECK_CONTAINS(err.message, "Is a directory");
}

#ifndef _WIN32
/* A child writes /dev/zero's bytes into a pipe; the reader stops at the limit. */
static FILE *zero_pipe(void) { return popen("head -c 100000 /dev/zero", "r"); }

TEST(bounded_read) {
    FILE *p = zero_pipe();
    CHECK(p != NULL);
    char dev[64];
    snprintf(dev, sizeof dev, "/dev/fd/%d", fileno(p));
    blobc_read_options ro = {4096, false, NULL, 0, false};
    uint8_t *data = NULL;
    size_t len = 0;
    blobc_error err;
    blobc_error_clear(&err);
    blobc_status st = blobc_read_file_ex(dev, &ro, &data, &len, &err);
    pclose(p);
    CHECK_EQ_U(st, BLOBC_EIO);
    CHECK(data == NULL);
    CHECK_CONTAINS(err.message, "larger than the maximum input size of 4 KiB");
    /* As text: the first NUL ends it at once. */
    p = zero_pipe();
    snprintf(dev, sizeof dev, "/dev/fd/%d", fileno(p));
    blobc_read_options rt = {0, false, "schema text", 0, false};
    blobc_error_clear(&err);
    st = blobc_read_file_ex(dev, &rt, &data, &len, &err);
    pclose(p);
    CHECK_EQ_U(st, BLOBC_EINPUT);
    CHECK_STR(err.message, "binary data at offset 0 (byte 0x00); expected schema text");
}

TEST(blob_read_stops_at_file_size) {
    /* A blob followed by garbage, through a pipe: read up to file_size. */
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    const char *schema = "struct P { x: u32; }\nroot P;\n";
    CHECK_EQ_U(blobc_schema_parse(schema, strlen(schema), "t.schema", &s, &err), BLOBC_OK);
    blobc_bake_options bo = {0};
    bo.schema = s;
    blobc_buffer blob = {0};
    const char *doc = "x: 7\n";
    CHECK_EQ_U(blobc_bake_memory(doc, strlen(doc), "t.yaml", &bo, &blob, &err), BLOBC_OK);
    const char *file = path_in("b.blob");
    FILE *f = fopen(file, "wb");
    fwrite(blob.data, 1, blob.len, f);
    for (int i = 0; i < 1000; i++) fputs("garbage after the blob\n", f);
    fclose(f);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "cat '%s'", file);
    FILE *p = popen(cmd, "r");
    char dev[64];
    snprintf(dev, sizeof dev, "/dev/fd/%d", fileno(p));
    blobc_read_options ro = {0, true, NULL, 0, false};
    uint8_t *data = NULL;
    size_t len = 0;
    blobc_status st = blobc_read_file_ex(dev, &ro, &data, &len, &err);
    pclose(p);
    CHECK_EQ_U(st, BLOBC_OK);
    CHECK_EQ_U(len, blob.len);
    CHECK(memcmp(data, blob.data, len) == 0);
    free(data);
    blobc_buffer_free(&blob);
    blobc_schema_free(s);
    unlink(file);
}

#endif

TEST(binary_text_scan) {
    blobc_error err;
    blobc_error_clear(&err);
    CHECK(blobc_text_check("a", "key: v\n", 7, "x", &err));
    CHECK(blobc_text_check("a", "bad \xff utf-8 but no NUL", 22, "x", &err));
    CHECK(!blobc_text_check("a", "\x89PNG\r\n\x1a\n\0\0", 10, "YAML or JSON text", &err));
    CHECK_STR(err.message, "binary data at offset 0 (byte 0x89); expected YAML or JSON text");
    /* Across chunks: a UTF-8 sequence cut in two is fine, the NUL counts. */
    blobc_textscan sc = {0};
    uint64_t bad = 0;
    uint8_t byte = 0;
    CHECK(!blobc_textscan_run(&sc, (const uint8_t *)"caf\xc3", 4, &bad, &byte));
    CHECK(!blobc_textscan_run(&sc, (const uint8_t *)"\xa9 ok", 4, &bad, &byte));
    CHECK(blobc_textscan_run(&sc, (const uint8_t *)"\x01\0", 2, &bad, &byte));
    CHECK_EQ_U(bad, 8);
    CHECK_EQ_U(byte, 1);
    /* Long runs of plain text are scanned a word at a time: the first
     * non-text byte and the NUL are still found at every offset, and a
     * UTF-8 sequence or a newline inside a word still counts. */
    for (size_t at = 0; at < 40; at++) {
        char buf[64];
        memset(buf, 'a', sizeof buf);
        buf[5] = '\n';
        buf[at] = '\x01';
        buf[50] = '\0';
        blobc_textscan s2 = {0};
        CHECK(blobc_textscan_run(&s2, (const uint8_t *)buf, sizeof buf, &bad, &byte));
        CHECK_EQ_U(bad, at);
        CHECK_EQ_U(byte, 1);
        memcpy(buf + at, "\xc3\xa9", 2); /* valid UTF-8 now: the NUL is first */
        blobc_textscan s3 = {0};
        CHECK(blobc_textscan_run(&s3, (const uint8_t *)buf, sizeof buf, &bad, &byte));
        CHECK_EQ_U(bad, 50);
        blobc_textscan s4 = {0};
        CHECK(!blobc_textscan_run(&s4, (const uint8_t *)buf, 50, &bad, &byte));
    }
    /* Line ends and tabs are text, taken sixteen bytes at a time with the
     * rest: a control byte or NUL among them is still found at every
     * offset, and a file of short lines is text. */
    for (size_t at = 0; at < 48; at++) {
        char buf[64];
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = "ab\n\tc\r\n"[i % 7];
        buf[at] = '\x02';
        blobc_textscan s5 = {0};
        CHECK(!blobc_textscan_run(&s5, (const uint8_t *)buf, sizeof buf, &bad, &byte));
        buf[at + 9] = '\0';
        blobc_textscan s6 = {0};
        CHECK(blobc_textscan_run(&s6, (const uint8_t *)buf, sizeof buf, &bad, &byte));
        CHECK_EQ_U(bad, at);
        CHECK_EQ_U(byte, 2);
        buf[at] = '\n';
        blobc_textscan s7 = {0};
        CHECK(blobc_textscan_run(&s7, (const uint8_t *)buf, sizeof buf, &bad, &byte));
        CHECK_EQ_U(bad, at + 9);
        CHECK_EQ_U(byte, 0);
    }
    /* A source line never carries control bytes. */
    blobc_err_source_line(&err, "a\x1b[31mred", 9, 0);
    CHECK_STR(err.source_line, "a?[31mred");
}

static const char *suggest(const char *want, const char *const *names, size_t n, int builtins) {
    blobc_suggest sg;
    blobc_suggest_init(&sg, want, strlen(want));
    for (size_t i = 0; i < n; i++) blobc_suggest_offer(&sg, names[i]);
    if (builtins) blobc_suggest_builtin_spellings(&sg);
    return blobc_suggest_best(&sg);
}

TEST(did_you_mean) {
    static const char *const types[] = {"Slot", "Room", "bool", "i8", "u8", "i16", "u16", "i32",
                                        "u32", "i64", "u64", "f32", "f64", "string"};
    static const char *const keys[] = {"name", "radius", "neighbors"};
    static const char *const mine[] = {"Float"};
    static const struct {
        const char *want, *expect; /* expect NULL: no suggestion */
        const char *const *names;
        size_t n;
        int builtins;
    } cases[] = {
        {"float", "f32", types, 14, 1},     {"int", "i32", types, 14, 1},
        {"double", "f64", types, 14, 1},    {"uint8_t", "u8", types, 14, 1},
        {"uint32_t", "u32", types, 14, 1},  {"int64_t", "i64", types, 14, 1},
        {"boolean", "bool", types, 14, 1},  {"str", "string", types, 14, 1},
        {"String", "string", types, 14, 1}, {"std::string", "string", types, 14, 1},
        {"Rom", "Room", types, 14, 1},      {"U32", "u32", types, 14, 1},
        {"Foo", NULL, types, 14, 1},
        /* a user's type that differs in case only beats a builtin spelling */
        {"float", "Float", mine, 1, 1},
        {"nmae", "name", keys, 3, 0},       {"raduis", "radius", keys, 3, 0},
        {"neighbours", "neighbors", keys, 3, 0},
        {"float", NULL, keys, 3, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = suggest(cases[i].want, cases[i].names, cases[i].n, cases[i].builtins);
        if (cases[i].expect ? !got || strcmp(got, cases[i].expect) != 0 : got != NULL)
            FAILF("%s: got %s, want %s", cases[i].want, got ? got : "(none)",
                  cases[i].expect ? cases[i].expect : "(none)");
    }
}

/* blobc_type_hashes agrees with blobc_type_hash type by type. */
static void check_hashes(const char *text) {
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "t.schema", &s, &err) != BLOBC_OK)
        FAILF("parse: %s", err.message);
    size_t n = blobc_schema_count(s);
    const blobc_type *types[64];
    uint64_t got[64];
    for (size_t i = 0; i < n; i++) types[i] = blobc_schema_at(s, i);
    CHECK_EQ_U(blobc_type_hashes(types, n, got), BLOBC_OK);
    for (size_t i = 0; i < n; i++)
        if (got[i] != blobc_type_hash(types[i]))
            FAILF("%s: batch 0x%016" PRIx64 ", alone 0x%016" PRIx64, types[i]->name, got[i],
                  blobc_type_hash(types[i]));
    blobc_schema_free(s);
}

TEST(batch_hash_equals_single) {
    check_hashes("struct A { v: u8; b: B; }\nstruct B { w: u16; c: C; }\nstruct C { x: u32; }");
    check_hashes("struct C { x: u32; }\nstruct B { w: u16; c: C; }\nstruct A { v: u8; b: B; }");
    check_hashes("struct N { v: u8; p: *N; a: [N]; }");
    check_hashes("struct A { t: [string]; b: B; }\nstruct B { t: [string]; c: [C; 2]; }\n"
                 "struct C { t: [string]; e: E; }\nenum E : u8 { a, b = 4 }");
    check_hashes("struct A { x: *B; }\nstruct B { y: *A; z: [[f32; 3]]; }\nstruct D { a: A; b: B; }");
    check_hashes("struct P { a: Q; b: Q; }\nstruct Q { r: [R]; s: *R; }\nstruct R { v: f64; }");
    check_hashes("enum K : i16 { x = -1, y }\nstruct S { k: K; ks: [K; 4]; }");
    check_hashes("struct Circle { r: f32; }\nstruct Box { w: f32; h: f32; }\n"
                 "union Shape { Circle, Box }\nstruct Scene { main: Shape; all: [Shape]; c: Circle; }");
}

/* The structs of `text`, in declaration order. */
static size_t structs_of(const char *text, blobc_schema **s, const blobc_type **out) {
    blobc_error err;
    *s = NULL;
    if (blobc_schema_parse(text, strlen(text), "t.schema", s, &err) != BLOBC_OK) return 0;
    size_t n = 0;
    for (size_t i = 0; i < blobc_schema_count(*s); i++)
        if (blobc_schema_at(*s, i)->kind == BLOBC_KIND_STRUCT) out[n++] = blobc_schema_at(*s, i);
    return n;
}

TEST(batch_hash_same_as_reparse) {
    const char *a = "struct A { v: u8; b: B; t: [string]; }\nstruct B { w: u16; c: C; }\n"
                    "struct C { x: u32; t: [string]; }";
    const char *changed = "struct A { v: u8; b: B; t: [string]; }\nstruct B { w: u16; c: C; }\n"
                          "struct C { x: u64; t: [string]; }";
    const char *reordered = "struct C { x: u32; t: [string]; }\nstruct B { w: u16; c: C; }\n"
                            "struct A { v: u8; b: B; t: [string]; }";
    blobc_schema *sa, *sb;
    const blobc_type *ta[8], *tb[8], *tc[8];
    uint64_t h[8];
    bool same = false;
    size_t n = structs_of(a, &sa, ta);
    CHECK_EQ_U(n, 3);
    CHECK_EQ_U(structs_of(a, &sb, tb), 3);
    CHECK_EQ_U(blobc_type_hashes_same(ta, tb, n, h, &same), BLOBC_OK);
    CHECK(same);
    for (size_t i = 0; i < n; i++) CHECK_EQ_U(h[i], blobc_type_hash(ta[i]));
    blobc_schema_free(sb);
    CHECK_EQ_U(structs_of(changed, &sb, tb), 3);
    CHECK_EQ_U(blobc_type_hashes_same(ta, tb, n, h, &same), BLOBC_OK);
    CHECK(!same);
    blobc_schema_free(sb);
    /* Declared in another order: matched by position in the arrays. */
    CHECK_EQ_U(structs_of(reordered, &sb, tc), 3);
    for (size_t i = 0; i < n; i++) tb[i] = blobc_schema_find(sb, ta[i]->name);
    CHECK_EQ_U(blobc_type_hashes_same(ta, tb, n, h, &same), BLOBC_OK);
    CHECK(same);
    blobc_schema_free(sb);
    blobc_schema_free(sa);
}

/* A 300-deep chain: one batch, every hash as blobc_type_hash gives it. */
TEST(batch_hash_deep_chain) {
    blobc_buffer text = {0};
    for (int i = 0; i < 300; i++)
        blobc_buf_printf(&text, "struct S%d { v: u8; p: *S0; a: [u16]; n: S%d; }\n", i, i + 1);
    blobc_buf_printf(&text, "struct S300 { v: u8; }\n");
    blobc_schema *s = NULL;
    blobc_error err;
    CHECK_EQ_U(blobc_schema_parse((const char *)text.data, text.len, "t.schema", &s, &err), BLOBC_OK);
    blobc_buffer_free(&text);
    size_t n = blobc_schema_count(s);
    const blobc_type **types = malloc(n * sizeof *types);
    uint64_t *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; i++) types[i] = blobc_schema_at(s, i);
    CHECK_EQ_U(blobc_type_hashes(types, n, h), BLOBC_OK);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += h[i] != blobc_type_hash(types[i]);
    free(types);
    free(h);
    blobc_schema_free(s);
    CHECK_EQ_U(wrong, 0);
}

TEST_MAIN_BEGIN("output")
make_dir();
#ifndef _WIN32
RUN(replace_regular_file_keeps_mode);
RUN(symlink_is_followed);
RUN(fifo_written_in_place);
RUN(device_written_in_place);
RUN(inputs_are_refused);
RUN(producer_to_full_device);
RUN(bounded_read);
RUN(blob_read_stops_at_file_size);
#else
SKIP_TEST(replace_regular_file_keeps_mode, "permission bits (POSIX)");
SKIP_TEST(symlink_is_followed, "symbolic links (POSIX)");
SKIP_TEST(fifo_written_in_place, "FIFOs and fork (POSIX)");
SKIP_TEST(device_written_in_place, "/dev/null and /dev/full (POSIX)");
SKIP_TEST(inputs_are_refused, "hard and symbolic links (POSIX)");
SKIP_TEST(producer_to_full_device, "/dev/full (POSIX)");
SKIP_TEST(bounded_read, "a pipe read as /dev/fd/N (POSIX)");
SKIP_TEST(blob_read_stops_at_file_size, "a pipe read as /dev/fd/N (POSIX)");
#endif
RUN(new_file);
RUN(write_from_producer);
RUN(many_inputs);
RUN(hooks_pair_up);
RUN(directory_is_refused);
#ifndef _WIN32
RUN(outputs_by_identity);
RUN(missing_directories_made);
RUN(temporaries_of_a_killed_writer);
RUN(depfile_spelling);
RUN(depfile_lists_schema_files);
#else
SKIP_TEST(outputs_by_identity, "symbolic links (POSIX)");
SKIP_TEST(missing_directories_made, "permission bits (POSIX)");
SKIP_TEST(temporaries_of_a_killed_writer, "fork and the O_TMPFILE lock (POSIX)");
SKIP_TEST(depfile_spelling, "POSIX file names");
SKIP_TEST(depfile_lists_schema_files, "POSIX file names");
#endif
RUN(binary_text_scan);
RUN(did_you_mean);
RUN(batch_hash_equals_single);
RUN(batch_hash_same_as_reparse);
RUN(batch_hash_deep_chain);
blobc_os_rmdir(dir);
TEST_MAIN_END
