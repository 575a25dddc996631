/*
 * randgen.c - random test cases for blobc, checked without blobc's readers.
 *
 * For a seed it makes a random schema, random values for its root type,
 * those values written as YAML and as JSON, and C code whose structs mirror
 * the schema as the C compiler lays them out. That code reads a raw data
 * section, follows every self-relative offset by hand and compares each
 * value bit for bit, the canonical placement of every payload, the sharing
 * of aliased payloads and the zero padding (docs/FORMAT.md). Nothing here
 * calls the library, so a mistake shared by the baker and blobc's own
 * verify/dump still shows.
 *
 *   randgen case SEED DIR         DIR/t.schema, t.yaml, t.json, info, and
 *                                 m.schema importing m-part*.schema: the
 *                                 same types split over files
 *   randgen check OUT.c SEED...   one checker program for these seeds
 *   randgen genc OUT.c SEED...    a reader of these seeds' blobs through the
 *                                 headers `blobc gen c` made (gen-SEED.h)
 *   randgen mutants SEED DIR      DIR/0 the case's schema and YAML, DIR/1...
 *                                 the schema with one element changed each,
 *                                 DIR/list naming each change (the cache key)
 *
 * The checker runs as `check SEED RAWFILE EXPAND ...` (EXPAND 1 for a JSON
 * bake, where shared payloads are copies); the reader as `reader SEED BLOB
 * ...`. Each prints "ok SEED ..." or "FAIL SEED ...: path: what".
 *
 * Everything is a function of the seed (own PRNG), so a failing seed is
 * reproduced anywhere by running the same commands.
 *
 * The schemas hold enums, structs (@align, @key), unions by key and
 * unions tagged by a field (string or integer tags, a member without a
 * tag, a default member, @open), [T], [T; N], *T, &T, maps [K: V] (string,
 * integer and enum keys; values of any type, structs, keyed arrays and
 * references included), optionals ?T (of scalars, strings, structs,
 * unions, arrays, maps, any) and any. The data has every value present,
 * absent (left out, or null) and null where the schema allows it, and
 * text in many spellings: the checker holds map entries to key order,
 * optionals to their presence byte (absent: all zero), any-values to their
 * kind word and body, a tagged union to its member's tag number. Left out,
 * and why:
 *   - ?*T, ?&T and *?T: a null pointer or reference in a present optional,
 *     an absent optional behind a pointer, read as null;
 *   - aliases of an optional's value, of an any, of a tagged union's
 *     member (its mapping holds the tag, so it is no *Member's target);
 *     an alias of a map replays it (a copy), as the bake does;
 *   - an any's float that is not finite (JSON has none, and YAML and JSON
 *     must give the same bytes), its strings are never YAML's plain null,
 *     booleans or numbers unless quoted;
 *   - a tag field named like a field of a member (the tag is no field).
 * An @open union's unknown tag appears where the union holds none: in
 * place (a field, an item, a map value), and behind *U and ?U, where it
 * is as if null (docs/SCHEMA.md).
 *
 * The pieces (randgen.h declares what they share): this file, the buffer,
 * the PRNG and the commands; randgen_model.c the random schema and
 * values; randgen_text.c the schema, YAML and JSON text; randgen_check.c
 * the checker; randgen_genc.c the gen c reader; randgen_mutants.c the
 * mutants.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randgen.h"

/* ---- output buffer ---- */

void die(const char *msg) {
    fprintf(stderr, "randgen: %s\n", msg);
    exit(2);
}

/* Everything a case allocates, freed with the case. */
static void **owned;
static size_t nowned, capowned;

void *own(void *p) {
    if (!p) die("out of memory");
    if (nowned == capowned) {
        capowned = capowned ? capowned * 2 : 1024;
        owned = realloc(owned, capowned * sizeof *owned);
        if (!owned) die("out of memory");
    }
    owned[nowned++] = p;
    return p;
}

void free_owned(void) {
    for (size_t i = 0; i < nowned; i++) free(owned[i]);
    nowned = 0;
}

void *xmalloc(size_t n) { return own(calloc(1, n ? n : 1)); }

void bput_n(buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > nc) nc *= 2;
        b->p = realloc(b->p, nc);
        if (!b->p) die("out of memory");
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void bput(buf *b, const char *s) { bput_n(b, s, strlen(s)); }

void bprintf(buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) die("format error");
    if ((size_t)n < sizeof small) {
        bput_n(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) die("out of memory");
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    bput_n(b, big, (size_t)n);
    free(big);
}

void sfmt(char *out, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

void pad(buf *b, int n) {
    for (int i = 0; i < n; i++) bput_n(b, " ", 1);
}

void write_file(const char *dir, const char *name, const buf *b) {
    char path[4096];
    sfmt(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "randgen: cannot write %s\n", path);
        exit(2);
    }
    if (b->n && fwrite(b->p, 1, b->n, f) != b->n) die("write failed");
    if (fclose(f) != 0) die("write failed");
}

/* ---- PRNG: splitmix64; one stream for the case, others for presentation ---- */

uint64_t *rng;

uint64_t rnd(void) {
    uint64_t z = (*rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
int pct(int p) { return (int)below(100) < p; }


/* ---- commands ---- */

static unsigned long long parse_seed(const char *s) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end) die("a seed is a decimal number");
    return v;
}

/* The case's YAML, on its own stream (the schema's does not move it). */
void case_yaml(unsigned long long seed, buf *yaml) {
    yaml_rng = mix(seed, 0x7a31);
    rng = &yaml_rng;
    if (pct(5)) bput(yaml, "\xef\xbb\xbf"); /* a BOM */
    write_yaml(yaml);
    crlf(yaml);
}

static void cmd_case(unsigned long long seed, const char *dir) {
    make_case(seed);
    buf schema = {0}, yaml = {0}, json = {0}, info = {0};
    uint64_t r = mix(seed, 0x5c4e3a);
    rng = &r;
    write_schema(&schema);
    crlf(&schema);
    case_yaml(seed, &yaml);
    uint64_t j = mix(seed, 0x150e);
    rng = &j;
    if (pct(5)) bput(&json, "\xef\xbb\xbf");
    write_json(&json);
    crlf(&json);
    bprintf(&info, "seed=%llu\nshared=%d\nroot=%s\nforms=", seed, nshares > 0,
            decls[root_type->decl].name);
    case_forms(&info);
    bput(&info, "\n");
    write_file(dir, "t.schema", &schema);
    uint64_t sp = mix(seed, 0x5911);
    rng = &sp;
    write_split(dir, "m.schema");
    write_file(dir, "t.yaml", &yaml);
    write_file(dir, "t.json", &json);
    write_file(dir, "info", &info);
    free(schema.p);
    free(yaml.p);
    free(json.p);
    free(info.p);
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "case") == 0) {
        cmd_case(parse_seed(argv[2]), argv[3]);
        reset();
        free(owned);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "mutants") == 0) {
        cmd_mutants(parse_seed(argv[2]), argv[3]);
        reset();
        free(owned);
        return 0;
    }
    int check = argc >= 4 && strcmp(argv[1], "check") == 0;
    if (check || (argc >= 4 && strcmp(argv[1], "genc") == 0)) {
        /* one program for all the seeds: a function per seed, a table, main */
        buf out = {0};
        bput(&out, check ? checker_prelude : reader_prelude);
        for (int i = 3; i < argc; i++) {
            make_case(parse_seed(argv[i]));
            if (check) checker_for_case(&out);
            else reader_for_case(&out);
        }
        bprintf(&out, "static const struct { unsigned long long seed; void (*fn)(%s); } cases[] = {\n",
                check ? "void" : "const void *, size_t");
        for (int i = 3; i < argc; i++)
            bprintf(&out, "    {%sULL, %s_%s},\n", argv[i], check ? "check" : "read", argv[i]);
        bput(&out, "};\n\n");
        bput(&out, check ? checker_main : reader_main);
        write_file(NULL, argv[2], &out);
        free(out.p);
        reset();
        free(owned);
        return 0;
    }
    fprintf(stderr, "usage: randgen case SEED DIR | randgen mutants SEED DIR | randgen check OUT.c SEED... | "
                    "randgen genc OUT.c SEED...\n");
    return 2;
}
