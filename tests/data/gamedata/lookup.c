/*
 * lookup.c - reads the game-data sample through the header `blobc gen c
 * game.schema` writes: lookups by key (found and not found) over every
 * kind of key, references followed to their items, a dialogue cycle
 * walked round. Compiled as C11 and as C++17 by tests/cli/gamedata.sh.
 *
 *   usage: lookup GAME.blob
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

static const Game *open_game(const char *path, void **mem) {
    FILE *f = fopen(path, "rb");
    if (!f) return BLOBC_RT_NULL;
    size_t cap = 1 << 16;
    unsigned char *buf = BLOBC_RT_CAST(unsigned char *, aligned_alloc(BLOBC_RT_SECTION_ALIGN, cap));
    size_t n = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    *mem = buf;
    blobc_rt_status st;
    return buf && n < cap ? Game_open(buf, n, &st) : BLOBC_RT_NULL;
}

static const char *item_name(const Item *it) { return it ? Item_name(it) : "(none)"; }

int main(int argc, char **argv) {
    void *mem = BLOBC_RT_NULL;
    const Game *g = argc == 2 ? open_game(argv[1], &mem) : BLOBC_RT_NULL;
    if (!g) {
        fprintf(stderr, "usage: lookup GAME.blob (a valid one)\n");
        return 2;
    }
    /* integer keys, in two arrays of one key space */
    const uint32_t ids[] = {1, 3, 4, 5, 7, 11, 12};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const Item *a = Game_items_find(g, ids[i]), *b = Game_more_items_find(g, ids[i]);
        printf("item %u: items %s, more_items %s\n", BLOBC_RT_CAST(unsigned, ids[i]), item_name(a), item_name(b));
    }
    const Item *shield = Game_items_find(g, 5);
    printf("shield defense %d weight %.1f\n", BLOBC_RT_CAST(int, shield->stats.defense), BLOBC_RT_CAST(double, shield->stats.weight));
    /* string keys; references round the cycle start -> ask -> start */
    const Node *n = Game_dialogue_find(g, "start", 5);
    for (int step = 0; step < 4 && n; step++, n = Node_next(n)) printf("node %s: %s\n", Node_name(n), Node_text(n));
    printf("find \"star\": %s\n", Game_dialogue_find(g, "star", 4) ? "found" : "not found");
    printf("find \"bye\": %s\n", Game_dialogue_find(g, "bye", 3) ? "found" : "not found");
    const Node *start = Game_dialogue_find(g, "start", 5);
    size_t nc = 0;
    Node_choices(start, &nc);
    for (size_t i = 0; i < nc; i++) printf("choice %zu: %s\n", i, Node_name(Node_choices_at(start, i)));
    /* enum keys */
    const Rule *r = Game_rules_find(g, Kind_potion);
    printf("rule potion: stack %u\n", BLOBC_RT_CAST(unsigned, r->stack));
    /* signed keys; a null reference */
    const int32_t depths[] = {-2, -1, 0, 2};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        const Floor *f = Game_floors_find(g, depths[i]);
        printf("floor %d: %s, boss %s\n", BLOBC_RT_CAST(int, depths[i]), f ? "found" : "not found",
               f ? item_name(Floor_boss(f)) : "-");
    }
    /* lists of references */
    size_t nl = 0;
    const Loot *loot = Game_loot(g, &nl);
    for (size_t i = 0; i < nl; i++) {
        size_t nd = 0;
        Loot_drops(&loot[i], &nd);
        printf("loot %s: best %s, drops", Loot_name(&loot[i]), item_name(Loot_best(&loot[i])));
        for (size_t d = 0; d < nd; d++) printf(" %s", item_name(Loot_drops_at(&loot[i], d)));
        printf("\n");
    }
    free(mem);
    return 0;
}
