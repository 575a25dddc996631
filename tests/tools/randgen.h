/*
 * randgen.h - what the pieces of tests/tools/randgen share: the output
 * buffer, the PRNG, the model of a case (types, declarations, values)
 * and each piece's entry points. randgen.c describes the tool.
 */
#ifndef RANDGEN_H
#define RANDGEN_H

#include <stdint.h>
#include <stddef.h>

#ifdef __MINGW32__
#define FMT_PRINTF gnu_printf
#else
#define FMT_PRINTF printf
#endif

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- output buffer, memory (randgen.c) ---- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

void die(const char *msg);
/* Everything a case allocates is listed and freed with the case. */
void *own(void *p);
void free_owned(void);
void *xmalloc(size_t n);
void bput_n(buf *b, const char *s, size_t n);
void bput(buf *b, const char *s);
void bprintf(buf *b, const char *fmt, ...) __attribute__((format(FMT_PRINTF, 2, 3)));
/* snprintf for names and paths; a cut-off path only shortens a message. */
void sfmt(char *out, size_t cap, const char *fmt, ...) __attribute__((format(FMT_PRINTF, 3, 4)));
void pad(buf *b, int n);
void write_file(const char *dir, const char *name, const buf *b);

/* ---- PRNG: splitmix64; one stream for the case, others for presentation ---- */

extern uint64_t *rng;
uint64_t rnd(void);
uint32_t below(uint32_t n);
int pct(int p);
/* A stream's start for a seed and a salt. */
uint64_t mix(unsigned long long seed, uint64_t salt);

/* ---- types ---- */

enum {
    K_BOOL = 1, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F32, K_F64,
    K_ENUM, K_STRUCT, K_STRING, K_ARRAY, K_FIXED, K_PTR, K_UNION, K_REF,
    K_MAP, K_OPT, K_ANY
};

/* What an any holds (its kind word, docs/FORMAT.md "Free-form values"). */
enum { A_NULL, A_BOOL, A_INT, A_UINT, A_FLOAT, A_STRING, A_LIST, A_MAP };

/* the scalar kinds' schema names and C types, by kind */
extern const char *const kname[];
extern const char *const kctype[];

typedef struct type type;
struct type {
    int k;
    int id;
    type *elem;  /* ARRAY FIXED PTR OPT: element; ENUM: base; REF: the keyed
                  * struct; MAP: the value */
    type *key;   /* MAP: the key (an integer, an enum or string) */
    int count;   /* FIXED */
    int decl;    /* ENUM STRUCT UNION: index into decls */
};

typedef struct val val;

typedef struct field {
    char name[24];
    type *t;
    val *def; /* default, or NULL */
    int nullable; /* a union or reference field declared `= null` */
} field;

#define MAXF 24
#define MAXV 8
#define MAXD 16
#define MAXT 600

typedef struct decl {
    int is_enum;
    int is_union;
    /* union: member structs (indexes for struct_type), in tag order */
    int nm;
    int mem[MAXD];
    /* a union tagged by a field (by_field): the field, each member's tag
     * (string tags: "" for a member written without one, which its
     * struct's name tags; int_tags: tagv), the default member (1 + its
     * index, 0 none) and @open */
    int by_field, int_tags, dflt, open;
    char tagf[16];
    char tags[MAXD][16];
    uint64_t tagv[MAXD];
    char name[24];
    type *t;
    /* struct */
    int nf;
    field f[MAXF];
    int align_attr;
    uint32_t size, align;
    int laid;
    int keyed;  /* a struct with a @key (chosen before any struct is made) */
    int key;    /* its key field */
    int reach;  /* its values may hold a keyed array */
    /* enum */
    type *base;
    int nv;
    char vn[MAXV][24];
    uint64_t vv[MAXV];
    int vexp[MAXV];
} decl;

struct val {
    type *t;
    uint64_t bits;     /* scalars: two's complement sign-extended, float bits */
    char *s;           /* string bytes */
    char *ftext;       /* a float's literal when it must be written so */
    size_t slen;
    int n;             /* struct: fields; FIXED/ARRAY: items; MAP: entries;
                        * PTR, UNION, OPT: 0 null/none/absent, 1;
                        * ANY: a list's items, a mapping's entries */
    int tag;           /* UNION: 0 none, else the member's tag (it[0] its struct) */
    val **it;          /* MAP: the entries' values (sorted by key) */
    val **keys;        /* MAP and an ANY mapping: the entries' keys */
    int ak;            /* ANY: A_* */
    int refs;          /* references to this payload (sharing when > 1) */
    int share;         /* share id, -1 when not shared */
    int xsize;         /* nodes when every share is expanded */
    int *order;        /* struct: key order for the text forms */
    unsigned char *omit;
    int emitted;       /* YAML: anchor already written */
    int anchor;        /* YAML: its anchor's number once written */
    val *target;       /* REF: the item it names (NULL: null) */
    int pending;       /* REF: to be given a target */
    int karr, kidx;    /* an item of a keyed array: the array's number, its
                        * place in it (sorted); a keyed array: its number */
    int *tord;         /* a keyed array, a map, an ANY mapping: its items
                        * or entries in the text's order */
};

/* the case's model (randgen_model.c) */
extern type types[MAXT];
extern int ntypes;
extern decl decls[MAXD];
extern int ndecls, nenums, nstructs, nunions;
extern int sharing;       /* this seed makes shared payloads */
extern int nshares;
extern int has_root_decl; /* schema says `root X;` (else the data says $type) */
extern int root_decl_moved; /* a mutant's `root` names this decl instead (-1: none) */
extern unsigned long long cur_seed;
extern val *root;
extern type *root_type;

/* ---- the model (randgen_model.c) ---- */

type *intern(int k, type *elem, int count, int d);
type *map_type(type *key, type *value);
type *sc(int k);
int is_int(int k);
int is_signed(int k);
uint32_t ksize(int k);
type *struct_type(int i);
uint64_t kmax(int k);
uint64_t kmin(int k);
uint64_t gen_int(int k);
uint32_t f32_bits(float f);
uint64_t f64_bits(double f);
float bits_f32(uint32_t b);
double bits_f64(uint64_t b);
val *gen_scalar(type *t, int for_default);
val *copy_scalar(const val *d);
int same_scalar(const val *a, const val *b);
val *gen(type *t, int depth, int pooled);
val *key_of(const val *item);
int key_cmp(const val *a, const val *b);
int field_name_used(const decl *d, const char *n);
void pick_type_name(char *out, const char *const *words, size_t nw);
extern const char *const field_words[50];
extern const char *const struct_words[16];
extern const char *const enum_words[8];
extern const char *const union_words[6];
extern const char *const member_words[26];
void reset(void);
void make_case(unsigned long long seed);
/* The forms the case's schema uses, as words ("map opt any tagged open"). */
void case_forms(buf *b);

/* ---- text: the schema, YAML and JSON (randgen_text.c) ---- */

extern uint64_t yaml_rng;
/* The order of the declarations in t.schema, drawn first from its stream
 * (mix(seed, 0x5c4e3a)). */
void schema_order(int *order);
void write_schema(buf *b);
void write_split(const char *dir, const char *main_file);
void write_yaml(buf *b);
void write_json(buf *b);
void crlf(buf *b);
const char *member_name(const type *t, uint64_t bits);
const char *union_member(const val *u);

/* ---- the checker program (randgen_check.c) ---- */

extern int vcount;
extern const char checker_prelude[];
extern const char checker_main[];
void checker_for_case(buf *b);
void c_string_lit(buf *b, const char *s, size_t n);

/* ---- the reader through `blobc gen c` headers (randgen_genc.c) ---- */

extern const char reader_prelude[];
extern const char reader_main[];
void reader_for_case(buf *b);

/* ---- mutants (randgen_mutants.c), and the case's YAML they share ---- */

void case_yaml(unsigned long long seed, buf *yaml);
void cmd_mutants(unsigned long long seed, const char *dir);

#endif
