/*
 * schema_internal.h - the schema object as lib/schema/ sees it, and its
 * positioned errors (schema.c, layout.c, lexer.c). Private to lib/schema/.
 */
#ifndef BLOBC_SCHEMA_INTERNAL_H
#define BLOBC_SCHEMA_INTERNAL_H

#include "blobc/schema.h"
#include "common/arena.h"
#include "common/buffer.h"
#include "common/checked.h"
#include "common/compiler.h"
#include "common/endian.h"
#include "common/err.h"

/* One schema source file (the first, then each import). */
typedef struct blobc_srcfile {
    const char *path;         /* as found: importer's directory + import path */
    const char *text;
    size_t len;
} blobc_srcfile;

struct blobc_schema {
    blobc_arena arena;        /* owns every type, field, name and the source */
    const char *filename;
    const char *text;         /* source text of file 0 (NULL for decoded schemas) */
    size_t text_len;
    blobc_srcfile *files;      /* files[pos.file] (arena); nfiles 0 when decoded */
    size_t nfiles, files_cap;
    blobc_type **named;       /* enums and structs in declaration order */
    size_t nnamed;
    size_t named_cap;
    const blobc_type *root;
    const void *names;        /* name index, built by blobc_schema_layout */
};

/* What layout.c keeps in blobc_type.internal: its walk's state in the low
 * bits, then for a struct whether a value may leave every field out (all
 * optional), then a struct's or fixed array's inline depth. */
enum {
    BLOBC_TI_FLAGS = 15,         /* layout.c's walk */
    BLOBC_TI_ALL_OPTIONAL = 16,
    BLOBC_TI_DEPTH_SHIFT = 5
};

/* Longest type, field or member name: what the type section can carry. */
#define BLOBC_MAX_NAME 1024u

/* An empty schema; NULL when out of memory. */
blobc_schema *blobc_schema_new(const char *filename);
/* blobc_schema_parse, its imports read as lo says (NULL: the defaults). */
blobc_status blobc_schema_parse_with(const char *text, size_t len, const char *filename,
                                     const blobc_schema_load_options *lo, blobc_schema **out,
                                     blobc_error *err);
/* Reads a schema file (the one loaded, or an import) as lo says. */
blobc_status blobc_schema_read(const char *path, const blobc_schema_load_options *lo,
                               uint8_t **data, size_t *len, blobc_error *err);

/* The map [key: value]: its type and its entry struct {key; value}, in
 * s->arena, not laid out (blobc_any_map_type for [string: any]); NULL
 * when out of memory. The caller interns it. */
const blobc_type *blobc_schema_new_map(blobc_schema *s, const blobc_type *key,
                                       const blobc_type *value);
/* Makes m that map (its entry in s->arena); false when out of memory. */
bool blobc_schema_init_map(blobc_schema *s, blobc_type *m, const blobc_type *key,
                           const blobc_type *value);

/* Registers a named type (allocated in s->arena). */
blobc_status blobc_schema_add_named(blobc_schema *s, blobc_type *t, blobc_error *err);

/* Computes size, align and field offsets of every named type and every
 * composite reachable from them by the C rules of docs/FORMAT.md. Fails
 * (BLOBC_EINPUT) on inline self-containment, an invalid @align, an empty
 * struct or a size over BLOBC_MAX_TYPE_SIZE; the message names the types
 * involved and, for parsed schemas, the position. */
blobc_status blobc_schema_layout(blobc_schema *s, blobc_error *err);

/* ---- the bytes behind blobc_type_hash (typehash.c hashes many types) ----
 * The hash is XXH3-64 of "BLOBCTH1" and a depth-first serialization of the
 * reachable types, in which every composite type gets a number in order of
 * discovery and a second meeting is a back reference to that number. */
typedef struct blobc_hash_node {
    const blobc_type *t;   /* the type numbered by its index in nodes */
    size_t start, end;     /* its own serialization: bytes[start, end) */
} blobc_hash_node;
typedef struct blobc_hash_ref {
    size_t pos;            /* offset of a back reference's u32 number */
    uint32_t target;
} blobc_hash_ref;
typedef struct blobc_hash_rec {
    blobc_buffer bytes;    /* everything hashed */
    blobc_hash_node *nodes;
    size_t nnodes, nodecap;
    blobc_hash_ref *refs;  /* in order of pos */
    size_t nrefs, refcap;
    bool failed;           /* out of memory: the record is incomplete */
} blobc_hash_rec;
/* blobc_type_hash, keeping the bytes and where each type's lie. */
uint64_t blobc_type_hash_rec(const blobc_type *type, blobc_hash_rec *rec);
void blobc_hash_rec_free(blobc_hash_rec *rec);

/* blobc_place for a position in one of the schema's files. */
const char *blobc_schema_place(const blobc_schema *s, blobc_pos pos, char *buf, size_t cap);
/* Sets err to "file:line:col: message" with the source line, for positions
 * in schema text (pos.file picks the file); for pos 0:0 (decoded schemas)
 * only the message. */
blobc_status blobc_schema_err(const blobc_schema *s, blobc_pos pos, blobc_error *err,
                              const char *fmt, ...) BLOBC_PRINTF(4, 5);

#endif
