/*
 * gen_level.c - writes the benchmark level: N rooms as compact JSON or as
 * block YAML (flow style for the small parts). The output is a pure
 * function of (format, N): a fixed-seed generator, exact binary fractions
 * for every float (so f32 holds them exactly and every tool reads the same
 * bits), and words that no YAML resolver mistakes for a bool or a null.
 *
 * The JSON is accepted unchanged by blobc (bench/level.schema), flatc
 * (bench/level.fbs) and capnp convert (bench/level.capnp), so all three
 * parse the very same bytes.
 *
 *     gen_level json|yaml ROOMS OUT
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* splitmix64: tiny, fast, and the same sequence everywhere. */
static uint64_t rng(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return (uint32_t)(rng() % n); }

static const char *const adjectives[] = {
    "Sunken", "Ashen", "Silent", "Golden", "Broken", "Frozen", "Hidden", "Crimson",
    "Hollow", "Ancient", "Gilded", "Misty", "Shattered", "Verdant", "Iron", "Amber",
};
static const char *const places[] = {
    "Hall", "Crypt", "Armory", "Chapel", "Library", "Gallery", "Vault", "Cellar",
    "Tower", "Bridge", "Garden", "Forge", "Kitchen", "Stairwell", "Barracks", "Throne",
};
static const char *const wings[] = {"North", "South", "East", "West", "Upper", "Lower", "Inner", "Outer"};
static const char *const kinds[] = {"floor", "wall", "door", "stairs"};
static const char *const tags[] = {
    "lit", "dark", "wet", "loot", "spawn", "quiet", "large", "small",
    "secret", "boss", "trap", "locked", "hub", "exit", "cold", "echo",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* k / 2^shift printed exactly, with at least one decimal ("-12.5", "3.0"). */
static void put_fraction(FILE *f, int32_t k, unsigned shift) {
    uint32_t mag = (uint32_t)(k < 0 ? -(int64_t)k : k);
    uint32_t whole = mag >> shift;
    uint64_t frac = mag & ((1u << shift) - 1);
    char digits[32];
    int n = 0;
    /* Each binary fraction bit yields exactly one more decimal digit. */
    do {
        frac *= 10;
        digits[n++] = (char)('0' + (frac >> shift));
        frac &= (1u << shift) - 1;
    } while (frac != 0 && n < (int)sizeof digits - 1);
    digits[n] = '\0';
    fprintf(f, "%s%" PRIu32 ".%s", k < 0 ? "-" : "", whole, digits);
}

typedef struct room {
    uint32_t adjective, place, wing, number;
    uint32_t kind;
    int32_t center[3];   /* thirty-seconds */
    int32_t radius;      /* quarters */
    int lit;
    uint32_t nneighbors, neighbors[6];
    uint32_t ntags, tags[3];
} room;

static void make_room(room *r, uint32_t rooms) {
    r->adjective = below(COUNT(adjectives));
    r->place = below(COUNT(places));
    r->wing = below(COUNT(wings));
    r->number = below(100000);
    r->kind = below(COUNT(kinds));
    for (int i = 0; i < 3; i++) r->center[i] = (int32_t)below(320001) - 160000;
    r->radius = 1 + (int32_t)below(200);
    r->lit = below(4) != 0;
    r->nneighbors = below(7);
    for (uint32_t i = 0; i < r->nneighbors; i++) r->neighbors[i] = below(rooms);
    r->ntags = below(4);
    for (uint32_t i = 0; i < r->ntags; i++) r->tags[i] = below(COUNT(tags));
}

/* The punctuation of one output format; one writer serves both. */
typedef struct style {
    const char *open, *close;         /* around a room */
    const char *field_sep;            /* between a room's fields */
    const char *key_open, *key_close; /* around a key, including the colon */
    const char *item_sep;             /* between items of [] and {} */
    const char *quote;                /* around a string value */
} style;

static const style json_style = {"{", "}", ",", "\"", "\":", ",", "\""};
static const style yaml_style = {"  - ", "\n", "\n    ", "", ": ", ", ", ""};

static void put_key(FILE *f, const style *s, const char *sep, const char *key) {
    fprintf(f, "%s%s%s%s", sep, s->key_open, key, s->key_close);
}

static void put_room(FILE *f, const style *s, const room *r) {
    fputs(s->open, f);
    put_key(f, s, "", "name");
    fprintf(f, "%s%s %s %s %" PRIu32 "%s", s->quote, adjectives[r->adjective], places[r->place],
            wings[r->wing], r->number, s->quote);
    put_key(f, s, s->field_sep, "kind");
    fprintf(f, "%s%s%s", s->quote, kinds[r->kind], s->quote);
    put_key(f, s, s->field_sep, "center");
    fputc('{', f);
    static const char *const axis[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        put_key(f, s, i ? s->item_sep : "", axis[i]);
        put_fraction(f, r->center[i], 5);
    }
    fputc('}', f);
    put_key(f, s, s->field_sep, "radius");
    put_fraction(f, r->radius, 2);
    put_key(f, s, s->field_sep, "lit");
    fputs(r->lit ? "true" : "false", f);
    put_key(f, s, s->field_sep, "neighbors");
    fputc('[', f);
    for (uint32_t i = 0; i < r->nneighbors; i++)
        fprintf(f, "%s%" PRIu32, i ? s->item_sep : "", r->neighbors[i]);
    fputc(']', f);
    put_key(f, s, s->field_sep, "tags");
    fputc('[', f);
    for (uint32_t i = 0; i < r->ntags; i++)
        fprintf(f, "%s%s%s%s", i ? s->item_sep : "", s->quote, tags[r->tags[i]], s->quote);
    fputc(']', f);
    fputs(s->close, f);
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "json") != 0 && strcmp(argv[1], "yaml") != 0)) {
        fprintf(stderr, "usage: gen_level json|yaml ROOMS OUT\n");
        return 2;
    }
    int yaml = strcmp(argv[1], "yaml") == 0;
    char *end;
    errno = 0;
    unsigned long n = strtoul(argv[2], &end, 10);
    if (errno || *end || n == 0 || n > 10000000) {
        fprintf(stderr, "gen_level: ROOMS must be 1..10000000, not '%s'\n", argv[2]);
        return 2;
    }
    FILE *f = fopen(argv[3], "wb");
    if (!f) {
        fprintf(stderr, "gen_level: %s: %s\n", argv[3], strerror(errno));
        return 2;
    }
    static char iobuf[1 << 20];
    setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    uint32_t rooms = (uint32_t)n;
    if (yaml)
        fprintf(f, "# blobc benchmark level, %" PRIu32 " rooms (bench/gen_level.c)\n"
                   "name: Bench level\nrooms:\n", rooms);
    else
        fputs("{\"name\":\"Bench level\",\"rooms\":[", f);
    for (uint32_t i = 0; i < rooms; i++) {
        room r;
        make_room(&r, rooms);
        if (i && !yaml) fputc(',', f);
        put_room(f, yaml ? &yaml_style : &json_style, &r);
    }
    if (!yaml) fputs("]}\n", f);
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "gen_level: %s: write failed\n", argv[3]);
        remove(argv[3]);
        return 2;
    }
    return 0;
}
