/*
 * lookup.cpp - reads the game-data sample through the header `blobc gen
 * cpp game.schema` writes, as lookup.c does through gen c's (the same
 * output): Vector<T>::find over every kind of key (found and not found),
 * references followed as const T *, a dialogue cycle walked round.
 * Compiled by tests/cli/gamedata.sh, in the global namespace or, with
 * -DGAME_NS, in namespace game.
 *
 *   usage: lookup GAME.blob
 */
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "game.hpp"

#ifdef GAME_NS
using namespace game;
#endif

static const char *item_name(const Item *it) { return it ? it->name().data() : "(none)"; }

int main(int argc, char **argv) {
    alignas(BLOBC_RT_SECTION_ALIGN) static unsigned char buf[1 << 16];
    std::FILE *f = argc == 2 ? std::fopen(argv[1], "rb") : nullptr;
    std::size_t n = f ? std::fread(buf, 1, sizeof buf, f) : 0;
    if (f) std::fclose(f);
    const Game *g = n < sizeof buf ? Game::open(buf, n) : nullptr;
    if (!g) {
        std::fprintf(stderr, "usage: lookup GAME.blob (a valid one)\n");
        return 2;
    }
    /* integer keys, in two arrays of one key space */
    for (std::uint32_t id : {1u, 3u, 4u, 5u, 7u, 11u, 12u})
        std::printf("item %u: items %s, more_items %s\n", static_cast<unsigned>(id),
                    item_name(g->items().find(id)), item_name(g->more_items().find(id)));
    const Item *shield = g->items().find(5);
    std::printf("shield defense %d weight %.1f\n", static_cast<int>(shield->stats().defense()),
                static_cast<double>(shield->stats().weight()));
    /* string keys; references round the cycle start -> ask -> start */
    const Node *node = g->dialogue().find("start");
    for (int step = 0; step < 4 && node; step++, node = node->next())
        std::printf("node %s: %s\n", node->name().data(), node->text().data());
    std::printf("find \"star\": %s\n", g->dialogue().find("star") ? "found" : "not found");
    std::printf("find \"bye\": %s\n", g->dialogue().find(std::string_view("bye")) ? "found" : "not found");
    const Node *start = g->dialogue().find("start");
    std::size_t i = 0;
    for (const Node *c : start->choices()) std::printf("choice %zu: %s\n", i++, c->name().data());
    /* enum keys */
    std::printf("rule potion: stack %u\n", static_cast<unsigned>(g->rules().find(Kind::potion)->stack()));
    /* signed keys; a null reference */
    for (std::int32_t depth : {-2, -1, 0, 2}) {
        const Floor *fl = g->floors().find(depth);
        std::printf("floor %d: %s, boss %s\n", static_cast<int>(depth), fl ? "found" : "not found",
                    fl ? item_name(fl->boss()) : "-");
    }
    /* lists of references */
    for (const Loot &l : g->loot()) {
        std::printf("loot %s: best %s, drops", l.name().data(), item_name(l.best()));
        for (const Item *d : l.drops()) std::printf(" %s", item_name(d));
        std::printf("\n");
    }
    return 0;
}
