/*
 * Builds a blob of newtypes.schema with the builder (so that the test
 * does not depend on bake reading these types), writes it to argv[2],
 * then reads every value back through the header `blobc gen c` made and
 * prints one line per value: tests/data/gen/newtypes.out, which the C++,
 * C# and Python readers print too. Exit 1 when a lookup or a bound check
 * answers wrong.
 *
 *   read_newtypes SCHEMA OUT.blob
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blobc/blobc.h>
#include <blobc/builder.h>

#include "newtypes.h"

static blobc_builder *B;
static int failures;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "wrong: %s\n", what);
        failures++;
    }
}

static void *must(blobc_status st, void *p) {
    if (st != BLOBC_OK) {
        blobc_error err;
        blobc_builder_status(B, &err);
        fprintf(stderr, "builder: %s\n", err.message);
        exit(2);
    }
    return p;
}

static void put32(void *mem, size_t at, uint32_t v) { memcpy((char *)mem + at, &v, 4); }

/* n bytes aligned to align, linked from byte `at` of loc. */
static void *payload(blobc_ref loc, uint32_t at, size_t n, uint32_t align, blobc_ref *ref) {
    void *mem = NULL;
    must(blobc_builder_alloc_linked(B, loc, at, n, align, ref, &mem), NULL);
    return mem;
}

/* A string field at byte `at` of loc. */
static void str(blobc_ref loc, uint32_t at, const char *s) {
    blobc_ref r;
    size_t n = strlen(s) + 1;
    memcpy(payload(loc, at, n, 1, &r), s, n);
    put32(blobc_builder_ptr(B, loc), at + 4, (uint32_t)n);
}

/* A [T] or map field of n items of `size` bytes; the items' memory. */
static void *list(blobc_ref loc, uint32_t at, size_t n, size_t size, uint32_t align, blobc_ref *ref) {
    void *mem = payload(loc, at, n * size, align, ref);
    put32(blobc_builder_ptr(B, loc), at + 4, (uint32_t)n);
    return mem;
}

/* An any at byte `at` of loc holding a scalar: kind and 8 bytes. */
static void any_scalar(blobc_ref loc, uint32_t at, uint32_t kind, const void *bits, size_t n) {
    char *p = blobc_builder_ptr(B, loc);
    put32(p, at, kind);
    memcpy(p + at + 4, bits, n);
}

#define OFF(T, m) ((uint32_t)offsetof(T, m))
#define AT(base, T, m) ((uint32_t)(base) + OFF(T, m))

static void build_item(blobc_ref ir, uint32_t io) {
    Item *it = (Item *)((char *)blobc_builder_ptr(B, ir) + io);
    blobc_ref r, r2, r3;
    it->id = 42;
    str(ir, AT(io, Item, name), "first");
    /* tags: sorted bytewise, a prefix first */
    {
        static const char *const k[] = {"a", "ab", "b"};
        list(ir, AT(io, Item, tags), 3, sizeof(Item_tags_entry), 4, &r);
        for (uint32_t i = 0; i < 3; i++) {
            str(r, i * (uint32_t)sizeof(Item_tags_entry), k[i]);
            ((Item_tags_entry *)blobc_builder_ptr(B, r))[i].value = (int32_t)(i + 1) * 10;
        }
    }
    {
        static const int64_t k[] = {-5, 3, (int64_t)1 << 40};
        Item_by_num_entry *e = list(ir, AT(io, Item, by_num), 3, sizeof *e, 8, &r);
        for (uint32_t i = 0; i < 3; i++) e[i].key = k[i];
        str(r, OFF(Item_by_num_entry, value), "minus five");
        str(r, (uint32_t)sizeof *e + OFF(Item_by_num_entry, value), "three");
        str(r, 2 * (uint32_t)sizeof *e + OFF(Item_by_num_entry, value), "big");
    }
    {
        Item_by_color_entry *e = list(ir, AT(io, Item, by_color), 2, sizeof *e, 4, &r);
        e[0].key = Color_red, e[0].value.x = 1, e[0].value.y = 2;
        e[1].key = Color_blue, e[1].value.x = -3, e[1].value.y = 4;
    }
    {
        Item_by_level_entry *e = list(ir, AT(io, Item, by_level), 2, sizeof *e, 2, &r);
        e[0].key = Level_low, e[0].value = 1;
        e[1].key = Level_high, e[1].value = 2;
    }
    {
        Item_small_entry *e = list(ir, AT(io, Item, small), 3, sizeof *e, 1, &r);
        e[0].key = -1, e[0].value = 1;
        e[1].key = 0, e[1].value = 0;
        e[2].key = 5, e[2].value = 1;
    }
    it = (Item *)((char *)blobc_builder_ptr(B, ir) + io);
    it->score.value = 2.5f, it->score.has = 1;
    it->at.value.x = 7, it->at.value.y = 8, it->at.has = 1;
    it->shape.has = 1, it->shape.value.tag = Shape_Square;
    ((Square *)payload(ir, AT(io, Item, shape) + OFF(Shape, ref), sizeof(Square), 4, &r))->side = 3.0f;
    /* extra: {"k": [-1, "s", true, 2.5, null, 2^63 + 1]} */
    {
        char *p = blobc_builder_ptr(B, ir);
        put32(p, AT(io, Item, extra), BLOBC_RT_ANY_MAP);
        blobc_rt_any_entry *e = list(ir, AT(io, Item, extra) + 4, 1, sizeof *e, 4, &r);
        e->value.kind = BLOBC_RT_ANY_LIST;
        str(r, 0, "k");
        list(r, OFF(blobc_rt_any_entry, value) + 4, 6, sizeof(blobc_rt_any), 4, &r2);
        int64_t m1 = -1;
        uint32_t yes = 1;
        double f = 2.5;
        uint64_t big = ((uint64_t)1 << 63) + 1;
        any_scalar(r2, 0, BLOBC_RT_ANY_INT, &m1, 8);
        put32(blobc_builder_ptr(B, r2), 12, BLOBC_RT_ANY_STRING);
        str(r2, 16, "s");
        any_scalar(r2, 24, BLOBC_RT_ANY_BOOL, &yes, 4);
        any_scalar(r2, 36, BLOBC_RT_ANY_FLOAT, &f, 8);
        any_scalar(r2, 60, BLOBC_RT_ANY_UINT, &big, 8);
    }
    {
        Item_sized_entry *e = list(ir, AT(io, Item, sized), 1, sizeof *e, 4, &r);
        e->key = 2;
        uint8_t *b = list(r, OFF(Item_sized_entry, value), 2, 1, 1, &r2);
        b[0] = 1, b[1] = 2;
    }
    {
        list(ir, AT(io, Item, nested), 1, sizeof(Item_nested_entry), 4, &r);
        str(r, 0, "x");
        list(r, OFF(Item_nested_entry, value), 1, sizeof(Item_tags_entry), 4, &r2);
        str(r2, 0, "q");
        ((Item_tags_entry *)blobc_builder_ptr(B, r2))->value = 1;
    }
    {
        list(ir, AT(io, Item, maybe), 2, sizeof(Item_maybe_entry), 4, &r);
        str(r, 0, "n");
        str(r, (uint32_t)sizeof(Item_maybe_entry), "p");
        Item_maybe_entry *e = blobc_builder_ptr(B, r);
        e[1].value.value = 9, e[1].value.has = 1;
    }
    {
        ((Item *)((char *)blobc_builder_ptr(B, ir) + io))->opt_map.has = 1;
        list(ir, AT(io, Item, opt_map), 1, sizeof(Item_opt_map_entry), 8, &r);
        str(r, 0, "pi");
        ((Item_opt_map_entry *)blobc_builder_ptr(B, r))->value = 3.25;
    }
    *(uint8_t *)list(ir, AT(io, Item, opt_list), 1, 1, 1, &r) = 7;
    Point *pt = payload(ir, AT(io, Item, opt_ptr), sizeof(Point), 4, &r3);
    pt->x = 5, pt->y = 6;
    it = (Item *)((char *)blobc_builder_ptr(B, ir) + io);
    it->opt_list.has = 1;
    it->opt_ptr.has = 1;
    it->opt_fixed.has = 1, it->opt_fixed.value[0] = 1, it->opt_fixed.value[1] = -2, it->opt_fixed.value[2] = 3;
    it->opt_in_fixed[1].has = 1, it->opt_in_fixed[1].value = 4;
    {
        Item_map_in_fixed_entry *e = list(ir, AT(io, Item, map_in_fixed), 1, sizeof *e, 4, &r);
        e->key = 1, e->value = 10;
    }
    {
        blobc_rt_array *m = list(ir, AT(io, Item, list_of_maps), 1, sizeof *m, 4, &r);
        (void)m;
        list(r, 0, 1, sizeof(Item_list_of_maps_entry), 4, &r2);
        str(r2, 0, "z");
        ((Item_list_of_maps_entry *)blobc_builder_ptr(B, r2))->value = 1;
    }
    {
        Item_list_of_opts_opt *o = list(ir, AT(io, Item, list_of_opts), 2, sizeof *o, 8, &r);
        o[0].value = 5, o[0].has = 1;
    }
}

static void build(blobc_buffer *data) {
    void *root;
    blobc_ref r, r2;
    B = blobc_builder_new();
    if (!B) exit(2);
    must(blobc_builder_root(B, sizeof(Root), 4, &root), NULL);
    list(0, OFF(Root, items), 1, sizeof(Item), BLOBC_RT_ALIGNOF(Item), &r);
    build_item(r, 0);
    Num *n = list(0, OFF(Root, nums), 1, sizeof(Num), 4, &r);
    n->tag = Num_Square;
    ((Square *)payload(r, OFF(Num, ref), sizeof(Square), 4, &r2))->side = 1.5f;
    Tagged *tg = list(0, OFF(Root, tagged), 1, sizeof(Tagged), 4, &r);
    tg->tag = Tagged_Circle;
    ((Circle *)payload(r, OFF(Tagged, ref), sizeof(Circle), 4, &r2))->r = 0.5f;
    Shape *s = list(0, OFF(Root, shapes), 1, sizeof(Shape), 4, &r);
    s->tag = Shape_Circle;
    ((Circle *)payload(r, OFF(Shape, ref), sizeof(Circle), 4, &r2))->r = 2.0f;
    list(0, OFF(Root, anys), 2, sizeof(blobc_rt_any), 4, &r);
    int64_t m7 = -7;
    any_scalar(r, 0, BLOBC_RT_ANY_INT, &m7, 8);
    put32(blobc_builder_ptr(B, r), 12, BLOBC_RT_ANY_STRING);
    str(r, 16, "hi");
    list(0, OFF(Root, lookup), 1, sizeof(Root_lookup_entry), 4, &r);
    str(r, 0, "one");
    uint64_t top = UINT64_MAX;
    any_scalar(r, OFF(Root_lookup_entry, value), BLOBC_RT_ANY_UINT, &top, 8);
    blobc_error err;
    if (blobc_builder_finish(B, data, &err) != BLOBC_OK) {
        fprintf(stderr, "finish: %s\n", err.message);
        exit(2);
    }
    blobc_builder_free(B);
}

static void print_any(const blobc_rt_any *a) {
    size_t n;
    switch (blobc_rt_any_kind(a)) {
    case BLOBC_RT_ANY_NULL: printf("null"); break;
    case BLOBC_RT_ANY_BOOL: printf(blobc_rt_any_as_bool(a) ? "true" : "false"); break;
    case BLOBC_RT_ANY_INT: printf("%lld", (long long)blobc_rt_any_as_i64(a)); break;
    case BLOBC_RT_ANY_UINT: printf("%llu", (unsigned long long)blobc_rt_any_as_u64(a)); break;
    case BLOBC_RT_ANY_FLOAT: printf("%g", blobc_rt_any_as_f64(a)); break;
    case BLOBC_RT_ANY_STRING: printf("\"%s\"", blobc_rt_any_as_string(a, &n)); break;
    case BLOBC_RT_ANY_LIST:
        printf("[");
        for (size_t i = 0; i < blobc_rt_any_list_count(a); i++) {
            printf(i ? ", " : "");
            print_any(blobc_rt_any_list_item(a, i));
        }
        printf("]");
        break;
    case BLOBC_RT_ANY_MAP:
        printf("{");
        for (size_t i = 0; i < blobc_rt_any_map_count(a); i++) {
            printf("%s\"%s\": ", i ? ", " : "", blobc_rt_any_map_key(a, i, &n));
            print_any(blobc_rt_any_map_value(a, i));
        }
        printf("}");
        break;
    }
}

static void read_back(const Root *root) {
    size_t n;
    const Item *it = Root_items(root, &n);
    check(n == 1, "items");
    printf("item id %u name %s\n", it->id, Item_name(it));
    printf("tags");
    for (size_t i = 0; i < Item_tags_count(it); i++)
        printf(" %s=%d", blobc_rt_str_cstr(&Item_tags_at(it, i)->key), Item_tags_at(it, i)->value);
    printf("\n");
    check(Item_tags_at(it, 3) == NULL, "tags_at past the end");
    check(Item_tags_find(it, "ab", 2) && Item_tags_find(it, "ab", 2)->value == 20, "tags find ab");
    check(Item_tags_find(it, "a", 1)->value == 10 && Item_tags_find(it, "b", 1)->value == 30, "tags find a b");
    check(!Item_tags_find(it, "abc", 3) && !Item_tags_find(it, "", 0) && !Item_tags_find(it, "c", 1), "tags absent");
    printf("by_num");
    for (size_t i = 0; i < Item_by_num_count(it); i++)
        printf(" %lld=%s", (long long)Item_by_num_at(it, i)->key, blobc_rt_str_cstr(&Item_by_num_at(it, i)->value));
    printf("\n");
    check(Item_by_num_find(it, -5) && Item_by_num_find(it, (int64_t)1 << 40) && !Item_by_num_find(it, 0) &&
              !Item_by_num_find(it, -6), "by_num find");
    const Item_by_color_entry *c = Item_by_color_find(it, Color_blue);
    check(c && c->value.x == -3 && !Item_by_color_find(it, Color_green), "by_color find");
    printf("by_color");
    for (size_t i = 0; i < Item_by_color_count(it); i++)
        printf(" %s=(%d,%d)", Color_name(Item_by_color_at(it, i)->key), Item_by_color_at(it, i)->value.x,
               Item_by_color_at(it, i)->value.y);
    printf("\n");
    check(Item_by_level_find(it, Level_low) && Item_by_level_find(it, Level_low)->value == 1 &&
              Item_by_level_find(it, Level_high)->value == 2 && !Item_by_level_find(it, 0), "by_level find");
    check(Item_small_find(it, -1) && Item_small_find(it, 5) && !Item_small_find(it, 4) && Item_small_count(it) == 3,
          "small find");
    printf("score %s %g\n", Item_has_score(it) ? "present" : "absent", Item_score(it));
    printf("label %s %s\n", Item_has_label(it) ? "present" : "absent", Item_label(it) ? Item_label(it) : "NULL");
    printf("at %d %d\n", Item_at(it)->x, Item_at(it)->y);
    printf("shape side %g\n", Shape_as_Square(Item_shape(it))->side);
    printf("extra ");
    print_any(&it->extra);
    printf("\n");
    const blobc_rt_any *k = blobc_rt_any_map_find(&it->extra, "k", 1);
    check(k && blobc_rt_any_list_count(k) == 6 && !blobc_rt_any_map_find(&it->extra, "j", 1) &&
              blobc_rt_any_list_item(k, 6) == NULL && blobc_rt_any_as_f64(blobc_rt_any_list_item(k, 0)) == -1.0,
          "extra find");
    const uint8_t *bytes = Item_sized_find(it, 2) ? blobc_rt_array_data(&Item_sized_find(it, 2)->value, &n) : NULL;
    printf("sized 2=[%u,%u] of %zu\n", bytes ? bytes[0] : 0, bytes ? bytes[1] : 0, n);
    const Item_nested_entry *ne = Item_nested_find(it, "x", 1);
    const Item_tags_entry *inner = ne ? blobc_rt_map_find_str(&ne->value, sizeof(Item_tags_entry), "q", 1) : NULL;
    printf("nested x.q=%d\n", inner ? inner->value : -1);
    printf("maybe n=%s p=%d\n", Item_maybe_find(it, "n", 1)->value.has ? "present" : "absent",
           Item_maybe_find(it, "p", 1)->value.value);
    const Item_opt_map_entry *om = Item_opt_map(it, &n);
    printf("opt_map %s %zu %s=%g\n", Item_has_opt_map(it) ? "present" : "absent", n, blobc_rt_str_cstr(&om->key),
           om->value);
    const uint8_t *ol = Item_opt_list(it, &n);
    printf("opt_list %zu [%u]\n", n, ol[0]);
    printf("opt_ptr %d %d\n", Item_opt_ptr(it)->x, Item_opt_ptr(it)->y);
    printf("opt_any %s\n", Item_has_opt_any(it) || Item_opt_any(it) ? "present" : "absent");
    printf("opt_fixed %d %d %d\n", (*Item_opt_fixed(it))[0], (*Item_opt_fixed(it))[1], (*Item_opt_fixed(it))[2]);
    printf("opt_in_fixed %s %u\n", Item_has_opt_in_fixed(it, 0) ? "present" : "absent", Item_opt_in_fixed(it, 1));
    printf("map_in_fixed %zu:%u %zu\n", Item_map_in_fixed_count(it, 0), Item_map_in_fixed_find(it, 0, 1)->value,
           Item_map_in_fixed_count(it, 1));
    check(!Item_map_in_fixed_find(it, 1, 1), "map_in_fixed empty");
    const Item_list_of_maps_entry *lm = Item_list_of_maps_at(it, 0, &n);
    printf("list_of_maps %zu %s=%u\n", n, blobc_rt_str_cstr(&lm->key), lm->value);
    const Item_list_of_opts_opt *lo = Item_list_of_opts(it, &n);
    printf("list_of_opts %zu %lld %s\n", n, (long long)lo[0].value, lo[1].has ? "present" : "absent");

    const Num *num = Root_nums(root, &n);
    check(Num_as_Circle(num) == NULL, "num as circle");
    printf("num tag %u side %g kind %lld\n", Num_tag(num), Num_as_Square(num)->side, (long long)Num_Square_TAG);
    printf("tagged %s r %g\n", Tagged_Circle_TAG, Tagged_as_Circle(Root_tagged(root, &n))->r);
    const Shape *sh = Root_shapes(root, &n);
    printf("shape %s=%s r %g default %u\n", Shape_TAG_FIELD, Shape_Circle_TAG, Shape_as_Circle(sh)->r, Shape_DEFAULT);
    const blobc_rt_any *anys = Root_anys(root, &n);
    printf("anys ");
    print_any(&anys[0]);
    printf(" ");
    print_any(&anys[1]);
    printf("\n");
    const Root_lookup_entry *le = Root_lookup_find(root, "one", 3);
    printf("lookup one ");
    print_any(&le->value.data);
    printf("\n");
    check(Root_docs(root) == NULL, "docs null");
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    blobc_buffer data = {0}, file = {0};
    build(&data);
    blobc_schema *schema;
    blobc_error err;
    if (blobc_schema_load(argv[1], &schema, &err) != BLOBC_OK ||
        blobc_blob_write(data.data, data.len, blobc_schema_root(schema), NULL, &file, &err) != BLOBC_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(file.data, 1, file.len, f) != file.len || fclose(f) != 0) return 2;
    blobc_rt_status st;
    const Root *raw = Root_open_raw(data.data, data.len, &st);
    const Root *root = Root_open(file.data, file.len, &st);
    check(raw && root, "open");
    if (!root) return 1;
    read_back(root);
    blobc_buffer_free(&data);
    blobc_buffer_free(&file);
    blobc_schema_free(schema);
    return failures ? 1 : 0;
}
