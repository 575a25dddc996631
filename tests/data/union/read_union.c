/*
 * read_union.c - reads every value of tests/data/union/scene.yaml, baked,
 * through the header `blobc gen c tests/data/union/shapes.schema` writes
 * (shapes.h): the tags, each member through its accessor (and NULL from
 * every other accessor), none where the data has no member, a shared
 * member payload, and a union behind *Shape and inside [Shape]. Compiles
 * as C11 and as C++17.
 *
 *   read_union FILE [copied]
 *
 * With `copied` the shared payload is expected as copies (a JSON bake,
 * which cannot share). Prints one line per failed comparison and "ok N values" at the end;
 * exits 0 only if everything matched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"

static int checks, failures;

static void check(int ok, const char *what, int line) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL line %d: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)

static unsigned char *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return BLOBC_RT_NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return BLOBC_RT_NULL;
    }
    long size = ftell(f);
    rewind(f);
    size_t cap = (BLOBC_RT_CAST(size_t, size > 0 ? size : 0) + 15) / 16 * 16 + 16;
    unsigned char *buf = BLOBC_RT_CAST(unsigned char *, aligned_alloc(16, cap));
    if (buf && fread(buf, 1, BLOBC_RT_CAST(size_t, size), f) != BLOBC_RT_CAST(size_t, size)) {
        free(buf);
        buf = BLOBC_RT_NULL;
    }
    fclose(f);
    *len = BLOBC_RT_CAST(size_t, size);
    return buf;
}

/* A Shape holding a Box of w x h: the tag, the accessor, no other member. */
static const Box *check_box(const Shape *s, float w, float h) {
    const Box *b = Shape_as_Box(s);
    CHECK(Shape_tag(s) == Shape_Box);
    CHECK(b != BLOBC_RT_NULL);
    CHECK(Shape_as_Circle(s) == BLOBC_RT_NULL);
    CHECK(Shape_as_Group(s) == BLOBC_RT_NULL);
    if (b) CHECK(b->w == w && b->h == h);
    return b;
}

static void check_circle(const Shape *s, float r) {
    const Circle *c = Shape_as_Circle(s);
    CHECK(Shape_tag(s) == Shape_Circle);
    CHECK(c != BLOBC_RT_NULL);
    CHECK(Shape_as_Box(s) == BLOBC_RT_NULL);
    if (c) CHECK(c->r == r);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: read_union FILE [copied]\n");
        return 2;
    }
    int shared = argc == 2;
    size_t len = 0;
    unsigned char *data = load(argv[1], &len);
    if (!data) {
        printf("FAIL: cannot read %s\n", argv[1]);
        return 1;
    }
    blobc_rt_status st;
    const Scene *sc = Scene_open(data, len, &st);
    if (!sc) {
        printf("FAIL: open: %s\n", blobc_rt_status_message(st));
        free(data);
        return 1;
    }
    check_circle(&sc->main_, 1.5f);
    /* extra: absent, so no member */
    CHECK(Shape_tag(&sc->extra) == Shape_NONE);
    CHECK(Shape_as_Circle(&sc->extra) == BLOBC_RT_NULL);
    CHECK(Shape_as_Box(&sc->extra) == BLOBC_RT_NULL);
    CHECK(Shape_as_Group(&sc->extra) == BLOBC_RT_NULL);

    size_t n = 0;
    const Shape *shapes = Scene_shapes(sc, &n);
    CHECK(n == 3);
    if (n == 3) {
        const Box *b0 = check_box(&shapes[0], 2.0f, 3.0f);
        const Group *g = Shape_as_Group(&shapes[1]);
        CHECK(Shape_tag(&shapes[1]) == Shape_Group);
        CHECK(g != BLOBC_RT_NULL);
        if (g) {
            CHECK(strcmp(Group_name(g), "pair") == 0);
            size_t gn = 0;
            const Shape *items = Group_items(g, &gn);
            CHECK(gn == 2);
            if (gn == 2) {
                check_circle(&items[0], 0.25f);
                /* the alias *b: one payload, shared */
                CHECK((check_box(&items[1], 2.0f, 3.0f) == b0) == shared);
            }
        }
        CHECK((check_box(&shapes[2], 2.0f, 3.0f) == b0) == shared);
    }
    check_circle(&sc->pair[0], 1.0f);
    check_box(&sc->pair[1], 4.0f, 5.0f);
    const Shape *maybe = Scene_maybe(sc);
    CHECK(maybe != BLOBC_RT_NULL);
    if (maybe) check_box(maybe, 6.0f, 7.0f);
    const Spot *spot = Light_as_Spot(&sc->light);
    CHECK(Light_tag(&sc->light) == Light_Spot);
    CHECK(Light_as_Circle(&sc->light) == BLOBC_RT_NULL);
    CHECK(spot != BLOBC_RT_NULL);
    if (spot) CHECK(spot->angle == 0.5);
    CHECK(sc->count == 3);

    free(data);
    if (failures) return 1;
    printf("ok %d values\n", checks);
    return 0;
}
