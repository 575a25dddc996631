// Reads a baked sample level through the header of `blobc gen cpp
// schemas/level.schema --namespace game` and prints every value as JSON,
// which tests/cli/gen_cpp.sh compares with `blobc dump --json`.
//   read_level FILE blob|raw|verified   print the level
//   read_level FILE refuse              expect the open to fail; print why
// Built with -fno-exceptions -fno-rtti: nothing here may need either.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>
#include <type_traits>

#include "level.hpp"

namespace {

// The API's types, checked at compile time.
static_assert(std::is_same_v<decltype(std::declval<const game::Level &>().name()), std::string_view>);
static_assert(std::is_same_v<decltype(std::declval<const game::Level &>().boss()), const game::Room *>);
static_assert(std::is_same_v<decltype(std::declval<const game::Room &>().kind()), game::Kind>);
static_assert(std::is_same_v<decltype(std::declval<const game::Room &>().lit()), bool>);
static_assert(std::is_same_v<decltype(std::declval<const game::Room &>().tags()[0]), std::string_view>);
static_assert(std::is_same_v<decltype(std::declval<const game::Level &>().rooms()[0]), const game::Room &>);
static_assert(std::is_same_v<decltype(std::declval<const game::Level &>().landmarks()[0]),
                             const game::RoomMeta *>);
static_assert(std::is_same_v<std::iterator_traits<blobc::Vector<game::Room>::iterator>::iterator_category,
                             std::random_access_iterator_tag>);
static_assert(game::Level::schema_hash != 0);
static_assert(blobc::Fixed<float, 4>::size() == 4);
static_assert(std::string_view(to_string(game::Kind::door)) == "door");  // constexpr to_string
static_assert(to_string(static_cast<game::Kind>(200)) == nullptr);
static_assert(!std::is_copy_constructible_v<game::Room>);  // holds offsets: never copied
static_assert(std::is_trivially_copyable_v<game::Vec3>);   // plain numbers: copies are fine

void str(std::string_view s) {
    std::putchar('"');
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') std::printf("\\%c", c);
        else if (u < 0x20) std::printf("\\u%04x", u);
        else std::putchar(c);
    }
    std::putchar('"');
}
// Non-finite numbers as dump --json writes them: "nan", "inf", "-inf".
bool nonfinite(double v) {
    if (v == v && v - v == 0) return false;
    std::printf(v != v ? "\"nan\"" : v > 0 ? "\"inf\"" : "\"-inf\"");
    return true;
}
void num(double v) {
    if (!nonfinite(v)) std::printf("%.17g", v);
}
void num(float v) {
    if (!nonfinite(static_cast<double>(v))) std::printf("%.9g", static_cast<double>(v));
}
void num(long long v) { std::printf("%lld", v); }
void num(unsigned long long v) { std::printf("%llu", v); }
void key(const char *k) { std::printf("\"%s\": ", k); }

// Any range of the API (a [T] or a [T; N]): range-for over its items.
template <typename Range, typename F>
void list(const Range &r, F each) {
    std::putchar('[');
    bool first = true;
    for (auto &&item : r) {
        if (!first) std::printf(", ");
        first = false;
        each(item);
    }
    std::putchar(']');
}

void vec3(const game::Vec3 &v) {
    std::printf("{");
    key("x"), num(v.x()), std::printf(", ");
    key("y"), num(v.y()), std::printf(", ");
    key("z"), num(v.z()), std::printf("}");
}

void meta(const game::RoomMeta *m) {
    if (!m) {
        std::printf("null");
        return;
    }
    std::printf("{");
    key("note"), str(m->note()), std::printf(", ");
    key("author"), str(m->author()), std::printf("}");
}

void room(const game::Room &r) {
    std::printf("{");
    key("id"), num(static_cast<unsigned long long>(r.id())), std::printf(", ");
    key("name"), str(r.name()), std::printf(", ");
    key("kind"), str(to_string(r.kind())), std::printf(", ");
    key("center"), vec3(r.center()), std::printf(", ");
    key("radius"), num(r.radius()), std::printf(", ");
    key("weights"), list(r.weights(), [](float w) { num(w); }), std::printf(", ");
    key("neighbors"), list(r.neighbors(), [](uint32_t n) { num(static_cast<unsigned long long>(n)); });
    std::printf(", ");
    key("tags"), list(r.tags(), [](std::string_view t) { str(t); }), std::printf(", ");
    key("meta"), meta(r.meta()), std::printf(", ");
    key("lit"), std::printf(r.lit() ? "true" : "false"), std::printf(", ");
    key("spawns"), list(r.spawns(), [](const game::Spawn &s) {
        std::printf("{");
        key("team"), str(to_string(s.team())), std::printf(", ");
        key("at"), vec3(s.at()), std::printf(", ");
        key("delay_ms"), num(static_cast<unsigned long long>(s.delay_ms())), std::printf("}");
    });
    std::printf("}");
}

void zone(const game::Zone &z) {
    std::printf("{");
    key("name"), str(z.name()), std::printf(", ");
    key("rooms"), list(z.rooms(), [](uint32_t n) { num(static_cast<unsigned long long>(n)); });
    std::printf(", ");
    key("children"), list(z.children(), [](const game::Zone &c) { zone(c); }), std::printf("}");
}

void level(const game::Level &l) {
    std::printf("{");
    key("index"), num(static_cast<long long>(l.index())), std::printf(", ");
    key("name"), str(l.name()), std::printf(", ");
    key("size_m"), num(l.size_m()), std::printf(", ");
    key("seed"), num(static_cast<unsigned long long>(l.seed())), std::printf(", ");
    key("min_height"), num(static_cast<long long>(l.min_height())), std::printf(", ");
    key("gravity"), num(l.gravity()), std::printf(", ");
    key("version"), num(static_cast<long long>(l.version())), std::printf(", ");
    key("flags"), num(static_cast<unsigned long long>(l.flags())), std::printf(", ");
    const game::Transform &o = l.origin();
    key("origin"), std::printf("{"), key("position"), vec3(o.position()), std::printf(", ");
    key("rotation"), list(o.rotation(), [](float f) { num(f); }), std::printf(", ");
    key("scale"), num(o.scale()), std::printf("}, ");
    key("rooms"), list(l.rooms(), [](const game::Room &r) { room(r); }), std::printf(", ");
    key("boss"), l.boss() ? room(*l.boss()) : static_cast<void>(std::printf("null")), std::printf(", ");
    key("grid"), list(l.grid(), [](const blobc::Vector<uint32_t> &row) {
        list(row, [](uint32_t v) { num(static_cast<unsigned long long>(v)); });
    });
    std::printf(", ");
    key("outline"), list(l.outline(), [](const blobc::Fixed<float, 3> &p) { list(p, [](float f) { num(f); }); });
    std::printf(", ");
    key("landmarks"), list(l.landmarks(), [](const game::RoomMeta *m) { meta(m); }), std::printf(", ");
    key("zones"), list(l.zones(), [](const game::Zone &z) { zone(z); }), std::printf("}\n");
}

// Indexing, iterator arithmetic and sizes agree with range-for.
bool ranges_agree(const game::Level &l) {
    const auto &rooms = l.rooms();
    size_t n = 0;
    for (const game::Room &r : rooms) {
        if (&r != &rooms[n]) return false;
        n++;
    }
    auto b = rooms.begin(), e = rooms.end();
    if (n != rooms.size() || static_cast<size_t>(e - b) != n || std::distance(b, e) != static_cast<long>(n))
        return false;
    if (n > 1 && (&b[1] != &rooms[1] || &*(e - 1) != &rooms.back() || !(b < e))) return false;
    return l.origin().rotation().size() == 4 && rooms.empty() == (n == 0);
}

alignas(16) unsigned char buf[1 << 20];

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    FILE *f = std::fopen(argv[1], "rb");
    if (!f) return 2;
    size_t len = std::fread(buf, 1, sizeof buf, f);
    std::fclose(f);
    const char *mode = argv[2];
    blobc_rt_status why = BLOBC_RT_OK;
    const game::Level *l = nullptr;
    if (std::strcmp(mode, "raw") == 0) {
        l = game::Level::open_raw(buf, len, &why);
    } else if (std::strcmp(mode, "verified") == 0) {
        blobc_error err;
        l = game::Level::open_verified(buf, len, &err);
        if (!l) std::printf("refused: %s\n", err.message);
    } else {
        l = game::Level::open(buf, len, &why);
        if (!l && why != BLOBC_RT_OK) std::printf("refused: %s\n", blobc_rt_status_message(why));
        if (game::Level::open(buf, len) != l) return 3;  // the same without a reason
    }
    if (std::strcmp(mode, "refuse") == 0) return l ? 1 : 0;
    if (!l) return 1;
    if (!ranges_agree(*l)) {
        std::printf("ranges disagree\n");
        return 1;
    }
    level(*l);
    return 0;
}
