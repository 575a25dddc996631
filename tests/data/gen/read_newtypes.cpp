// Reads the blob read_newtypes.c built through the classes of `blobc gen
// cpp` and prints what it prints (tests/data/gen/newtypes.out). Exit 1
// when a lookup answers wrong.
//
//   read_newtypes_cpp NEWTYPES.blob
#include <cstdio>
#include <string>
#include <vector>

#include "newtypes.hpp"

static int failures;

static void check(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "wrong: %s\n", what);
        failures++;
    }
}

static std::string s(std::string_view v) { return std::string(v); }

static void print_any(const blobc::Any &a) {
    switch (a.kind()) {
    case blobc::Any::Kind::null: std::printf("null"); break;
    case blobc::Any::Kind::boolean: std::printf(a.as_bool() ? "true" : "false"); break;
    case blobc::Any::Kind::integer: std::printf("%lld", static_cast<long long>(a.as_i64())); break;
    case blobc::Any::Kind::uinteger: std::printf("%llu", static_cast<unsigned long long>(a.as_u64())); break;
    case blobc::Any::Kind::number: std::printf("%g", a.as_f64()); break;
    case blobc::Any::Kind::string: std::printf("\"%s\"", s(a.as_string()).c_str()); break;
    case blobc::Any::Kind::list:
        std::printf("[");
        for (std::size_t i = 0; i < a.size(); i++) {
            std::printf(i ? ", " : "");
            print_any(*a.at(i));
        }
        std::printf("]");
        break;
    case blobc::Any::Kind::map:
        std::printf("{");
        for (std::size_t i = 0; i < a.size(); i++) {
            std::printf("%s\"%s\": ", i ? ", " : "", s(a.key(i)).c_str());
            print_any(*a.value(i));
        }
        std::printf("}");
        break;
    }
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    std::FILE *f = std::fopen(argv[1], "rb");
    if (!f) return 2;
    std::vector<unsigned char> bytes;
    int ch;
    while ((ch = std::fgetc(f)) != EOF) bytes.push_back(static_cast<unsigned char>(ch));
    std::fclose(f);
    // the data section must be 16-byte aligned in memory
    std::vector<std::max_align_t> room(bytes.size() / sizeof(std::max_align_t) + 2);
    unsigned char *buf = reinterpret_cast<unsigned char *>(room.data());
    std::copy(bytes.begin(), bytes.end(), buf);
    blobc_rt_status st;
    const Root *root = Root::open(buf, bytes.size(), &st);
    if (!root) {
        std::fprintf(stderr, "open: %s\n", blobc_rt_status_message(st));
        return 1;
    }
    const Item &it = root->items()[0];
    std::printf("item id %u name %s\n", it.id(), s(it.name()).c_str());
    std::printf("tags");
    for (const auto &e : it.tags()) std::printf(" %s=%d", s(e.key()).c_str(), e.value());
    std::printf("\n");
    check(it.tags().at(3) == nullptr && it.tags().find("ab")->value() == 20 && !it.tags().find("abc") &&
              !it.tags().contains("") && it.tags().contains("b"),
          "tags find");
    std::printf("by_num");
    for (const auto &e : it.by_num()) std::printf(" %lld=%s", static_cast<long long>(e.key()), s(e.value()).c_str());
    std::printf("\n");
    check(it.by_num().find(-5) && it.by_num().find(int64_t(1) << 40) && !it.by_num().find(0), "by_num find");
    check(it.by_color().find(Color::blue)->value().x() == -3 && !it.by_color().find(Color::green), "by_color find");
    std::printf("by_color");
    for (const auto &e : it.by_color())
        std::printf(" %s=(%d,%d)", to_string(e.key()), e.value().x(), e.value().y());
    std::printf("\n");
    check(it.by_level().find(Level::low)->value() == 1 && it.by_level().find(Level::high)->value() == 2, "by_level");
    check(it.small().find(-1) && it.small().find(5) && !it.small().find(4) && it.small().size() == 3, "small");
    std::printf("score %s %g\n", it.score().has_value() ? "present" : "absent", double(it.score().value()));
    std::printf("label %s %s\n", it.label() ? "present" : "absent", it.label().get() ? "?" : "NULL");
    std::printf("at %d %d\n", it.at().get()->x(), it.at().get()->y());
    std::printf("shape side %g\n", double(it.shape().get()->as_Square()->side()));
    std::printf("extra ");
    print_any(it.extra());
    std::printf("\n");
    check(it.extra().find("k") && it.extra().find("k")->size() == 6 && !it.extra().find("j"), "extra find");
    const auto &sized = it.sized().find(2)->value();
    std::printf("sized 2=[%u,%u] of %zu\n", unsigned(sized[0]), unsigned(sized[1]), sized.size());
    std::printf("nested x.q=%d\n", it.nested().find("x")->value().find("q")->value());
    std::printf("maybe n=%s p=%d\n", it.maybe().find("n")->value().has_value() ? "present" : "absent",
                it.maybe().find("p")->value().value());
    const auto &om = it.opt_map().value();
    std::printf("opt_map %s %zu %s=%g\n", it.opt_map() ? "present" : "absent", om.size(), s(om[0].key()).c_str(),
                om[0].value());
    std::printf("opt_list %zu [%u]\n", it.opt_list().value().size(), unsigned(it.opt_list().value()[0]));
    std::printf("opt_ptr %d %d\n", it.opt_ptr().value()->x(), it.opt_ptr().value()->y());
    std::printf("opt_any %s\n", it.opt_any().get() ? "present" : "absent");
    const auto &fx = it.opt_fixed().value();
    std::printf("opt_fixed %d %d %d\n", fx[0], fx[1], fx[2]);
    std::printf("opt_in_fixed %s %u\n", it.opt_in_fixed()[0].has_value() ? "present" : "absent",
                unsigned(it.opt_in_fixed()[1].value()));
    std::printf("map_in_fixed %zu:%u %zu\n", it.map_in_fixed()[0].size(), it.map_in_fixed()[0].find(1)->value(),
                it.map_in_fixed()[1].size());
    const auto &lm = it.list_of_maps()[0];
    std::printf("list_of_maps %zu %s=%u\n", lm.size(), s(lm[0].key()).c_str(), unsigned(lm[0].value()));
    const auto &lo = it.list_of_opts();
    std::printf("list_of_opts %zu %lld %s\n", lo.size(), static_cast<long long>(lo[0].value()),
                lo[1].has_value() ? "present" : "absent");
    const Num &num = root->nums()[0];
    check(num.as_Circle() == nullptr, "num as circle");
    std::printf("num tag %u side %g kind %lld\n", unsigned(num.tag()), double(num.as_Square()->side()),
                static_cast<long long>(Num::tag_of(Num::Tag::Square_)));
    std::printf("tagged %s r %g\n", s(Tagged::tag_of(Tagged::Tag::Circle_)).c_str(),
                double(root->tagged()[0].as_Circle()->r()));
    const Shape &sh = root->shapes()[0];
    std::printf("shape %s=%s r %g default %u\n", s(Shape::tag_field).c_str(), s(Shape::tag_of(sh.tag())).c_str(),
                double(sh.as_Circle()->r()), unsigned(Shape::default_member));
    std::printf("anys ");
    print_any(root->anys()[0]);
    std::printf(" ");
    print_any(root->anys()[1]);
    std::printf("\nlookup one ");
    print_any(root->lookup().find("one")->value().data());
    std::printf("\n");
    check(root->docs() == nullptr, "docs null");
    return failures ? 1 : 0;
}
