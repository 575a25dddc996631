/*
 * walk_fixture.h - test data for verify and dump: a level schema that
 * uses every kind of field, and images of it made directly with the blob
 * builder (no front end involved), so the walker is tested against the
 * builder's canonical layout alone.
 */
#ifndef BLOBC_WALK_FIXTURE_H
#define BLOBC_WALK_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobc/blobc.h"
#include "common/buffer.h"
#include "common/endian.h"

static const char fx_schema_text[] =
    "enum Kind : u8 { floor, wall, door = 5, stairs }\n"
    "enum Temp : i16 { cold = -40, mild = 20, hot = 300 }\n"
    "struct Vec3 { x: f32; y: f32; z: f32; }\n"
    "struct RoomMeta { note: string; depth: f64; }\n"
    "struct Room {\n"
    "    id: u32;\n"
    "    name: string;\n"
    "    kind: Kind = floor;\n"
    "    center: Vec3;\n"
    "    radius: f32 = 1.0;\n"
    "    weights: [f32; 4];\n"
    "    neighbors: [u32];\n"
    "    tags: [string];\n"
    "    meta: *RoomMeta;\n"
    "    lit: bool;\n"
    "    temp: Temp = mild;\n"
    "}\n"
    "struct Level { index: i32; name: string; size_m: f32; rooms: [Room]; big: u64; }\n"
    "root Level;\n";

static inline blobc_schema *fx_schema_parse(const char *text) {
    blobc_schema *s = NULL;
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_schema_parse(text, strlen(text), "fixture.schema", &s, &err) != BLOBC_OK) {
        char buf[2048];
        blobc_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "fixture schema does not parse: %s\n", buf);
        abort();
    }
    return s;
}

static inline const blobc_type *fx_type(const blobc_schema *s, const char *name) {
    const blobc_type *t = blobc_schema_find(s, name);
    if (!t) {
        fprintf(stderr, "fixture: no type %s\n", name);
        abort();
    }
    return t;
}

/* Offset of field `name` in struct t. */
static inline uint32_t fx_off(const blobc_type *t, const char *name) {
    const blobc_field *f = blobc_struct_find_field(t, name, strlen(name));
    if (!f) {
        fprintf(stderr, "fixture: no field %s\n", name);
        abort();
    }
    return f->offset;
}

/* A string payload linked from (loc, at); writes its length at at + 4. */
static inline blobc_ref fx_str(blobc_builder *b, blobc_ref loc, uint32_t at, const char *s) {
    size_t n = strlen(s) + 1;
    blobc_ref r = 0;
    void *mem = NULL;
    if (blobc_builder_alloc(b, n, 1, &r, &mem) != BLOBC_OK) abort();
    memcpy(mem, s, n);
    if (blobc_builder_link(b, loc, at, r) != BLOBC_OK) abort();
    blobc_st32((uint8_t *)blobc_builder_ptr(b, loc) + at + 4, (uint32_t)n);
    return r;
}

/* Links (loc, at) to an existing string payload of n bytes (sharing). */
static inline void fx_str_share(blobc_builder *b, blobc_ref loc, uint32_t at, blobc_ref r, uint32_t n) {
    if (blobc_builder_link(b, loc, at, r) != BLOBC_OK) abort();
    blobc_st32((uint8_t *)blobc_builder_ptr(b, loc) + at + 4, n);
}

/* A [T] payload of n items of esize bytes, linked from (loc, at). */
static inline blobc_ref fx_arr(blobc_builder *b, blobc_ref loc, uint32_t at, uint32_t n, uint32_t esize,
                        uint32_t align) {
    blobc_ref r = 0;
    void *mem = NULL;
    if (blobc_builder_alloc(b, (size_t)n * esize, align, &r, &mem) != BLOBC_OK) abort();
    if (blobc_builder_link(b, loc, at, r) != BLOBC_OK) abort();
    blobc_st32((uint8_t *)blobc_builder_ptr(b, loc) + at + 4, n);
    return r;
}

/* A *T target of size bytes, linked from (loc, at). */
static inline blobc_ref fx_ptr(blobc_builder *b, blobc_ref loc, uint32_t at, uint32_t size,
                        uint32_t align) {
    blobc_ref r = 0;
    void *mem = NULL;
    if (blobc_builder_alloc(b, size, align, &r, &mem) != BLOBC_OK) abort();
    if (blobc_builder_link(b, loc, at, r) != BLOBC_OK) abort();
    return r;
}

static inline uint8_t *fx_mem(blobc_builder *b, blobc_ref r) { return blobc_builder_ptr(b, r); }

static inline void fx_f32(uint8_t *p, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    blobc_st32(p, u);
}

static inline void fx_f64(uint8_t *p, double f) {
    uint64_t u;
    memcpy(&u, &f, 8);
    blobc_st64(p, u);
}

static inline void fx_finish(blobc_builder *b, blobc_buffer *out) {
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_builder_finish(b, out, &err) != BLOBC_OK) {
        fprintf(stderr, "fixture: finish failed: %s\n", err.message);
        abort();
    }
    blobc_builder_free(b);
}

/* A level of n rooms, a pure function of n. Room i has i % 3 neighbors,
 * tags "lit"/"dark" (one shared "hub" string across every room with
 * i % 4 == 0), a meta every third room, and non-ASCII names now and then. */
static inline void fx_level(const blobc_schema *s, uint32_t nrooms, blobc_buffer *out) {
    const blobc_type *lv = fx_type(s, "Level"), *room = fx_type(s, "Room");
    const blobc_type *meta = fx_type(s, "RoomMeta");
    blobc_builder *b = blobc_builder_new();
    uint8_t *root;
    if (!b || blobc_builder_root(b, lv->size, lv->align, (void **)&root) != BLOBC_OK) abort();
    blobc_st32(root + fx_off(lv, "index"), (uint32_t)-7);
    fx_f32(root + fx_off(lv, "size_m"), 12.5f);
    blobc_st64(root + fx_off(lv, "big"), 0xfedcba9876543210ull);
    fx_str(b, 0, fx_off(lv, "name"), "Castle \"Keep\"");
    blobc_ref hub = UINT32_MAX;
    if (nrooms) {
        blobc_ref rooms = fx_arr(b, 0, fx_off(lv, "rooms"), nrooms, room->size, room->align);
        for (uint32_t i = 0; i < nrooms; i++) {
            uint32_t at = i * room->size;
            uint8_t *r = fx_mem(b, rooms) + at;
            blobc_st32(r + fx_off(room, "id"), i + 1);
            r[fx_off(room, "kind")] = (uint8_t)(i % 2 ? 5 : 1);
            uint32_t c = fx_off(room, "center");
            fx_f32(r + c, (float)i * 0.5f);
            fx_f32(r + c + 4, -1.25f);
            fx_f32(r + c + 8, 0.1f);
            fx_f32(r + fx_off(room, "radius"), 1.0f + (float)(i % 5));
            for (int k = 0; k < 4; k++) fx_f32(r + fx_off(room, "weights") + 4 * k, (float)k / 3.0f);
            r[fx_off(room, "lit")] = (uint8_t)(i % 2);
            blobc_st16(r + fx_off(room, "temp"), (uint16_t)(i % 3 == 0 ? -40 : 300));
            char name[64];
            snprintf(name, sizeof name, i % 7 == 3 ? "Salle %u \xc3\xa9t\xc3\xa9" : "Room %u", i);
            fx_str(b, rooms, at + fx_off(room, "name"), name);
            uint32_t nn = i % 3;
            if (nn) {
                blobc_ref ne = fx_arr(b, rooms, at + fx_off(room, "neighbors"), nn, 4, 4);
                for (uint32_t k = 0; k < nn; k++) blobc_st32(fx_mem(b, ne) + 4 * k, (i + k + 1) % nrooms);
            }
            blobc_ref tg = fx_arr(b, rooms, at + fx_off(room, "tags"), 2, 8, 4);
            fx_str(b, tg, 0, i % 2 ? "lit" : "dark");
            if (i % 4 == 0) {
                if (hub == UINT32_MAX) hub = fx_str(b, tg, 8, "hub");
                else fx_str_share(b, tg, 8, hub, 4);
            } else {
                fx_str(b, tg, 8, "plain");
            }
            if (i % 3 == 2) {
                blobc_ref m = fx_ptr(b, rooms, at + fx_off(room, "meta"), meta->size, meta->align);
                fx_f64(fx_mem(b, m) + fx_off(meta, "depth"), -(double)i / 8.0);
                fx_str(b, m, fx_off(meta, "note"), "note\twith\ttabs");
            }
        }
    }
    fx_finish(b, out);
}

/* Wraps a data image into a .blob (with types unless strip). */
static inline void fx_blob(const void *data, size_t n, const blobc_type *root, bool strip,
                    blobc_buffer *out) {
    blobc_write_options o = {strip, "fixture.schema"};
    blobc_error err;
    blobc_error_clear(&err);
    if (blobc_blob_write(data, n, root, &o, out, &err) != BLOBC_OK) {
        fprintf(stderr, "fixture: blob write failed: %s\n", err.message);
        abort();
    }
}

/* fx_level wrapped into a .blob. */
static inline void fx_level_blob(const blobc_schema *s, uint32_t nrooms, bool strip,
                                 blobc_buffer *out) {
    blobc_buffer img = {0};
    fx_level(s, nrooms, &img);
    fx_blob(img.data, img.len, blobc_schema_find(s, "Level"), strip, out);
    blobc_buffer_free(&img);
}

/* A verification's status and error. */
typedef struct outcome {
    blobc_status st;
    blobc_error err;
} outcome;

static inline outcome verify_as(const uint8_t *d, size_t n, const blobc_type *root) {
    outcome o;
    blobc_error_clear(&o.err);
    o.st = blobc_verify_data(d, n, root, &o.err);
    return o;
}

/* The verification failed with this code, at this offset and path (the
 * test's CHECK macros must be in scope). */
#define CHECK_FAILS(o, code_, off_, path_)                                                  \
    do {                                                                                    \
        CHECK_EQ_I((o).st, BLOBC_EINPUT);                                                   \
        if ((o).err.code != (code_))                                                        \
            FAILF("code %s, want %s (%s)", blobc_verify_code_name((o).err.code),            \
                  blobc_verify_code_name(code_), (o).err.message);                          \
        CHECK_EQ_I((o).err.has_offset, 1);                                                  \
        CHECK_EQ_U((o).err.offset, (off_));                                                 \
        CHECK_STR((o).err.path, (path_));                                                   \
    } while (0)

#endif
