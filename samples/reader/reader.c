/*
 * reader.c - reads a baked level in place through the header that
 * `blobc gen c schemas/level.schema` writes. It links nothing of blobc:
 * the generated header and the header-only runtime <blobc/blob.h> are all
 * it needs. `make reader` generates the header, bakes samples/level.yaml
 * and runs this on the result.
 *
 *   usage: reader LEVEL.blob
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"

/* Memory aligned for the blob's data section: C11's aligned_alloc, which
 * Windows' C runtime lacks (there _aligned_malloc, freed with _aligned_free). */
#ifdef _WIN32
#include <malloc.h>
#define aligned_alloc(a, n) _aligned_malloc((n), (a))
#define aligned_free _aligned_free
#else
#define aligned_free free
#endif

/* Reads a whole file into memory aligned for the blob's data section. */
static void *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = NULL;
    for (;;) {
        unsigned char *bigger = aligned_alloc(BLOBC_RT_SECTION_ALIGN, cap);
        if (!bigger) break;
        if (buf) memcpy(bigger, buf, n);
        aligned_free(buf);
        buf = bigger;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            int failed = ferror(f);
            fclose(f);
            if (failed) {
                aligned_free(buf);
                return NULL;
            }
            *len = n;
            return buf;
        }
        cap *= 2;
    }
    aligned_free(buf);
    fclose(f);
    return NULL;
}

static void print_zones(const Zone *zones, size_t n, int depth) {
    for (size_t i = 0; i < n; i++) {
        size_t nrooms, nkids;
        const uint32_t *rooms = Zone_rooms(&zones[i], &nrooms);
        const Zone *kids = Zone_children(&zones[i], &nkids);
        printf("%*szone %s: rooms", 2 + 2 * depth, "", Zone_name(&zones[i]));
        for (size_t r = 0; r < nrooms; r++) printf(" %" PRIu32, rooms[r]);
        printf("\n");
        print_zones(kids, nkids, depth + 1);
    }
}

static void print_room(const char *label, const Room *r) {
    const RoomMeta *meta = Room_meta(r);
    const char *kind = Kind_name(r->kind);
    size_t nn, ntags;
    const uint32_t *neighbors = Room_neighbors(r, &nn);
    Room_tags(r, &ntags);
    printf("  %s %" PRIu32 " \"%s\": %s, center (%g, %g, %g), radius %g, %s\n", label, r->id,
           Room_name(r), kind ? kind : "?", r->center.x, r->center.y, r->center.z, r->radius,
           r->lit ? "lit" : "dark");
    printf("    neighbors:");
    for (size_t i = 0; i < nn; i++) printf(" %" PRIu32, neighbors[i]);
    printf("\n    tags:");
    for (size_t i = 0; i < ntags; i++) printf(" \"%s\"", Room_tags_at(r, i));
    printf("\n");
    if (meta) printf("    meta: \"%s\" by %s\n", RoomMeta_note(meta), RoomMeta_author(meta));
    size_t nspawns;
    const Spawn *spawns = Room_spawns(r, &nspawns);
    for (size_t i = 0; i < nspawns; i++) {
        const char *team = Team_name(spawns[i].team);
        printf("    spawn: team %s at (%g, %g, %g) after %u ms\n", team ? team : "?", spawns[i].at.x,
               spawns[i].at.y, spawns[i].at.z, (unsigned)spawns[i].delay_ms);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: reader LEVEL.blob\n");
        return 2;
    }
    size_t len;
    void *buf = load(argv[1], &len);
    if (!buf) {
        perror(argv[1]);
        return 2;
    }
    blobc_rt_status st;
    const Level *level = Level_open(buf, len, &st);
    if (!level) {
        fprintf(stderr, "%s: %s\n", argv[1], blobc_rt_status_message(st));
        aligned_free(buf);
        return 1;
    }

    printf("level %" PRId32 " \"%s\": %g m, seed 0x%016" PRIx64 ", gravity %g\n", level->index,
           Level_name(level), level->size_m, level->seed, level->gravity);
    const Transform *o = &level->origin;
    printf("origin (%g, %g, %g), scale %g\n", o->position.x, o->position.y, o->position.z, o->scale);

    size_t nrooms;
    const Room *rooms = Level_rooms(level, &nrooms);
    for (size_t i = 0; i < nrooms; i++) print_room("room", &rooms[i]);
    const Room *boss = Level_boss(level);
    if (boss) print_room("boss", boss);

    size_t nrows;
    Level_grid(level, &nrows);
    printf("grid:");
    for (size_t i = 0; i < nrows; i++) {
        size_t ncells;
        const uint32_t *cells = Level_grid_at(level, i, &ncells);
        printf(" [");
        for (size_t c = 0; c < ncells; c++) printf(c ? " %" PRIu32 : "%" PRIu32, cells[c]);
        printf("]");
    }
    size_t npoints;
    const float(*outline)[3] = Level_outline(level, &npoints);
    printf("\noutline:");
    for (size_t i = 0; i < npoints; i++)
        printf(" (%g, %g, %g)", outline[i][0], outline[i][1], outline[i][2]);
    size_t nmarks;
    Level_landmarks(level, &nmarks);
    printf("\nlandmarks:");
    for (size_t i = 0; i < nmarks; i++) {
        const RoomMeta *m = Level_landmarks_at(level, i);
        printf(m ? " \"%s\"" : " %s", m ? RoomMeta_note(m) : "null");
    }
    printf("\n");
    size_t nzones;
    const Zone *zones = Level_zones(level, &nzones);
    print_zones(zones, nzones, 0);
    aligned_free(buf);
    return 0;
}
