/*
 * c_names.c - the names `blobc gen c` gives: C identifier rules, keyword
 * and reserved-prefix escaping, and collision suffixes (docs/CODEGEN.md,
 * "Names").
 */
#include "gen/c_internal.h"
#include "common/kind.h"

#include <stdarg.h>
#include <stdlib.h>

/* ---- identifier rules ---- */

/* Words a schema identifier must not be spelled as in the output: C11/C17/
 * C23 and C++20 keywords and alternative tokens, the names the headers the
 * output includes define (<stddef.h>, <stdint.h>, and with
 * BLOBC_WITH_LIBRARY <stdbool.h>), macros GCC predefines outside strict
 * ISO modes, and common object-like macros of the C library. */
static const char *const reserved_words[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "atomic_cancel", "atomic_commit",
    "atomic_noexcept", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const", "const_cast", "consteval", "constexpr", "constinit", "continue",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
    "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "reflexpr", "register", "reinterpret_cast",
    "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "synchronized", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "typeof", "typeof_unqual", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    /* <stddef.h>, <stdint.h>, C++ */
    "NULL", "offsetof", "size_t", "ptrdiff_t", "max_align_t", "nullptr_t", "intptr_t",
    "uintptr_t", "intmax_t", "uintmax_t", "std",
    /* GCC's predefined non-reserved macros (-std=gnu11 and the like) */
    "linux", "unix", "i386",
    /* object-like macros of the C library a reading program is likely to
     * include next to the header, and the one function it always has */
    "errno", "stdin", "stdout", "stderr", "EOF", "BUFSIZ", "EXIT_SUCCESS", "EXIT_FAILURE",
    "CHAR_BIT", "HUGE_VAL", "INFINITY", "NAN", "complex", "imaginary", "I", "noreturn",
    "SEEK_SET", "SEEK_CUR", "SEEK_END", "EDOM", "ERANGE", "EILSEQ", "NDEBUG", "CLOCKS_PER_SEC",
    "main",
};

static bool is_reserved_word(const char *s) {
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
        if (s[0] == reserved_words[i][0] && strcmp(s, reserved_words[i]) == 0) return true;
    return false;
}

static bool starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* int8_t, uint_least16_t, int_fast64_t, ... */
static bool is_stdint_type(const char *s) {
    if (*s == 'u') s++;
    if (!starts_with(s, "int")) return false;
    s += 3;
    if (starts_with(s, "_least")) s += 6;
    else if (starts_with(s, "_fast")) s += 5;
    if (!(*s >= '0' && *s <= '9')) return false;
    while (*s >= '0' && *s <= '9') s++;
    return strcmp(s, "_t") == 0;
}

/* INT8_MAX, SIZE_MAX, UINT64_C, PTRDIFF_MIN, ...: stdint.h's macros are
 * all upper case and end in _MAX, _MIN or _C. */
static bool is_stdint_macro(const char *s) {
    for (const char *p = s; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    return ends_with(s, "_MAX") || ends_with(s, "_MIN") || ends_with(s, "_C");
}

/* ---- naming ---- */

/* Applies the escaping rules to a candidate in g->tmp (NUL-terminated):
 * reserved prefixes get an `x` in front (no suffix can take a name out of
 * a reserved prefix), keywords and standard names a `_` behind. Returns an
 * arena copy, or NULL when out of memory. */
static char *escaped(gen *g, const char *s) {
    if (s) s = blobc_gen_ident(&g->arena, s);
    if (!s) return NULL;
    bool front = s[0] == '_' || starts_with(s, "blobc_") || starts_with(s, "BLOBC_");
    bool back = is_reserved_word(s) || is_stdint_type(s) || is_stdint_macro(s);
    size_t n = strlen(s);
    char *r = blobc_arena_alloc(&g->arena, n + 3);
    if (!r) return NULL;
    size_t k = 0;
    if (front) r[k++] = 'x';
    memcpy(r + k, s, n);
    k += n;
    if (back) r[k++] = '_';
    r[k] = '\0';
    return r;
}

bool blobc_genc_is_escaped(const char *s) {
    return s[0] == '_' || starts_with(s, "blobc_") || starts_with(s, "BLOBC_") || is_reserved_word(s) ||
           is_stdint_type(s) || is_stdint_macro(s);
}

/* Makes `base` unique in `set` by appending underscores, then adds it. */
static const char *unique_in(gen *g, nameset *set, const nameset *also, char *base) {
    return blobc_nameset_unique(set, also, &g->arena, base);
}

/* Ends the list of parts of global_name. */
#define END ((const char *)NULL)

/* A file-scope name: the parts (NULL-terminated) joined, escaped and
 * made unique. */
static const char *global_name(gen *g, const char *first, ...) {
    g->tmp.len = 0;
    bool ok = true;
    va_list ap;
    va_start(ap, first);
    for (const char *part = first; part && ok; part = va_arg(ap, const char *))
        ok = blobc_buf_puts(&g->tmp, part);
    va_end(ap);
    if (!ok || !blobc_buf_putc(&g->tmp, '\0')) return NULL;
    return unique_in(g, &g->globals, NULL, escaped(g, (const char *)g->tmp.data));
}

/* A type's name: its prefix and name, escaped, kept clear of `kept_off`
 * (names its own kind of type declares inside itself, or NULL), then
 * made unique. Before the last step it is the name every header of a
 * schema split one per file must give it, whichever file's header is
 * generated. (A suffix for uniqueness depends on the other names the
 * output holds, and so on the file.) */
static blobc_status type_name(gen *g, type_info *ti, const char *prefix, const nameset *kept_off) {
    g->tmp.len = 0;
    if (!blobc_buf_puts(&g->tmp, prefix) || !blobc_buf_puts(&g->tmp, ti->type->name) ||
        !blobc_buf_putc(&g->tmp, '\0'))
        return nomem(g);
    const char *plain = escaped(g, (const char *)g->tmp.data);
    if (plain && kept_off) {
        nameset none = {0};
        plain = blobc_nameset_unique(&none, kept_off, &g->arena, plain);
        blobc_nameset_free(&none);
    }
    if (!plain || !(ti->cname = blobc_nameset_unique(&g->globals, NULL, &g->arena, plain))) return nomem(g);
    if (!g->own_only) return BLOBC_OK;
    if (strcmp(plain, ti->cname) != 0)
        return blobc_err(g->err, BLOBC_EINPUT,
                         "%s: type %s would be named %s, as %s is taken; with one file per schema file "
                         "every type needs its own name (rename one of them)",
                         g->lang, ti->type->name, ti->cname, plain);
    return BLOBC_OK;
}

/* A map's entry struct <S>_<f>_entry and an optional <S>_<f>_opt, after
 * the first field that holds it; a map's value adds _value. */
static blobc_status name_anon(gen *g) {
    blobc_buffer cur = {0};
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++) {
        const blobc_type *t = g->info[i].type;
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        for (uint32_t f = 0; f < t->nfields && st == BLOBC_OK; f++) {
            cur.len = 0;
            if (!blobc_buf_printf(&cur, "%s_%s", g->info[i].cname, t->fields[f].name) ||
                !blobc_buf_putc(&cur, '\0')) {
                st = nomem(g);
                break;
            }
            for (const blobc_type *c = t->fields[f].type; c && st == BLOBC_OK;
                 c = blobc_kind_is_anonymous(c->kind) ? blobc_type_next(c) : NULL) {
                type_info *ai = needs_anon_type(c->kind) ? blobc_genc_info_of(g, anon_key(c)) : NULL;
                bool map = c->kind == BLOBC_KIND_MAP;
                if (ai && ai >= g->info + g->ninfo && !ai->cname) {
                    nameset local = {0};
                    ai->members = blobc_arena_array(&g->arena, 2, sizeof *ai->members);
                    if (!ai->members ||
                        !(ai->cname = global_name(g, (const char *)cur.data, map ? "_entry" : "_opt", END)) ||
                        !(ai->members[0] = unique_in(g, &local, &g->globals, escaped(g, map ? "key" : "value"))) ||
                        !(ai->members[1] = unique_in(g, &local, &g->globals, escaped(g, map ? "value" : "has"))))
                        st = nomem(g);
                    blobc_nameset_free(&local);
                }
                if (map && st == BLOBC_OK) {
                    cur.len--;
                    if (!blobc_buf_puts(&cur, "_value") || !blobc_buf_putc(&cur, '\0')) st = nomem(g);
                }
            }
        }
    }
    blobc_buffer_free(&cur);
    return st;
}

static const char **name_array(gen *g, uint32_t n) {
    return blobc_arena_array(&g->arena, n ? n : 1, sizeof(const char *));
}

/* The function holding the schema text is named after the guard
 * (blobc_gen_level_h_schema_text), so that two generated headers in one
 * program do not define it twice. Not escaped: from the default guard it
 * starts with blobc_, which no escaped schema name does. */
static const char *text_fn_name(gen *g) {
    g->tmp.len = 0;
    for (const char *p = g->guard; *p; p++)
        if (!blobc_buf_putc(&g->tmp, *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p)) return NULL;
    if (!blobc_buf_puts(&g->tmp, "_schema_text") || !blobc_buf_putc(&g->tmp, '\0')) return NULL;
    char *name = blobc_arena_strndup(&g->arena, (const char *)g->tmp.data, g->tmp.len - 1);
    return unique_in(g, &g->globals, NULL, name);
}

/* Gives every output identifier its name. Order decides who keeps the
 * plain spelling on a collision: the guard, then type names, then each
 * type's fixed API (open functions, hash macro, enum name function), then
 * enum members and field accessors, in declaration order. Member names
 * live in their struct's scope but must not equal any file-scope name
 * (macros would expand inside the struct; C++ rejects a member that
 * changes the meaning of a type name used in the class). */
blobc_status blobc_genc_assign_names(gen *g) {
    if (!blobc_nameset_add(&g->globals, g->guard)) return nomem(g);
    blobc_status st = BLOBC_OK;
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++) st = type_name(g, &g->info[i], g->prefix, NULL);
    if (st != BLOBC_OK) return st;
    if (!(g->text_fn = text_fn_name(g))) return nomem(g);
    for (size_t i = 0; i < g->ninfo; i++) {
        type_info *ti = &g->info[i];
        const char *c = ti->cname;
        if (ti->type->kind == BLOBC_KIND_ENUM) {
            if (!(ti->name_fn = global_name(g, c, "_name", END))) return nomem(g);
        } else if (ti->type->kind == BLOBC_KIND_UNION) {
            if (!(ti->tag_fn = global_name(g, c, "_tag", END))) return nomem(g);
        } else if (!(ti->hash_macro = global_name(g, c, "_SCHEMA_HASH", END)) ||
                   !(ti->open_fn = global_name(g, c, "_open", END)) ||
                   !(ti->open_raw_fn = global_name(g, c, "_open_raw", END)) ||
                   !(ti->open_checked_fn = global_name(g, c, "_open_checked", END))) {
            return nomem(g);
        }
    }
    for (size_t i = 0; i < g->ninfo; i++) {
        type_info *ti = &g->info[i];
        const blobc_type *t = ti->type;
        if (t->kind == BLOBC_KIND_ENUM) {
            if (!(ti->values = name_array(g, t->nvalues))) return nomem(g);
            for (uint32_t v = 0; v < t->nvalues; v++)
                if (!(ti->values[v] = global_name(g, ti->cname, "_", t->values[v].name, END)))
                    return nomem(g);
            continue;
        }
        if (t->kind == BLOBC_KIND_UNION) {
            bool tagged = t->by != BLOBC_UNION_BY_KEY;
            if (!(ti->values = name_array(g, t->nfields + 1)) ||
                !(ti->acc = name_array(g, t->nfields)) || !(ti->tags = name_array(g, t->nfields)) ||
                !(ti->values[0] = global_name(g, ti->cname, "_NONE", END)))
                return nomem(g);
            for (uint32_t m = 0; m < t->nfields; m++)
                if (!(ti->values[m + 1] = global_name(g, ti->cname, "_", t->fields[m].name, END)) ||
                    !(ti->acc[m] = global_name(g, ti->cname, "_as_", t->fields[m].name, END)) ||
                    (tagged && !(ti->tags[m] = global_name(g, ti->cname, "_", t->fields[m].name, "_TAG", END))))
                    return nomem(g);
            if ((t->by == BLOBC_UNION_BY_FIELD &&
                 !(ti->tag_field_macro = global_name(g, ti->cname, "_TAG_FIELD", END))) ||
                (tagged && t->default_member &&
                 !(ti->default_macro = global_name(g, ti->cname, "_DEFAULT", END))))
                return nomem(g);
            continue;
        }
        if (!(ti->acc = name_array(g, t->nfields)) || !(ti->acc_at = name_array(g, t->nfields)) ||
            !(ti->acc_find = name_array(g, t->nfields)) || !(ti->acc_count = name_array(g, t->nfields)) ||
            !(ti->acc_has = name_array(g, t->nfields)) || !(ti->members = name_array(g, t->nfields)))
            return nomem(g);
        for (uint32_t f = 0; f < t->nfields; f++) {
            const blobc_type *ft = t->fields[f].type;
            const char *fname = t->fields[f].name;
            if (wants_accessor(ft) &&
                !(ti->acc[f] = global_name(g, ti->cname, "_", fname, END)))
                return nomem(g);
            if (wants_item_accessor(ft) &&
                !(ti->acc_at[f] = global_name(g, ti->cname, "_", fname, "_at", END)))
                return nomem(g);
            if (ft->kind == BLOBC_KIND_ARRAY && ft->elem->kind == BLOBC_KIND_STRUCT &&
                ft->elem->key &&
                !(ti->acc_find[f] = global_name(g, ti->cname, "_", fname, "_find", END)))
                return nomem(g);
            /* a map: its entries (acc), their count, entry i and a lookup */
            if (strip_fixed(ft)->kind == BLOBC_KIND_MAP &&
                (!(ti->acc_count[f] = global_name(g, ti->cname, "_", fname, "_count", END)) ||
                 !(ti->acc_at[f] = global_name(g, ti->cname, "_", fname, "_at", END)) ||
                 !(ti->acc_find[f] = global_name(g, ti->cname, "_", fname, "_find", END))))
                return nomem(g);
            /* an optional: whether it is there, and its value */
            if (strip_fixed(ft)->kind == BLOBC_KIND_OPTIONAL &&
                (!(ti->acc_has[f] = global_name(g, ti->cname, "_has_", fname, END)) ||
                 !(ti->acc[f] = global_name(g, ti->cname, "_", fname, END))))
                return nomem(g);
        }
    }
    /* file-scope too, so before the member names that keep off them */
    st = name_anon(g);
    if (st != BLOBC_OK) return st;
    for (size_t i = 0; i < g->ninfo; i++) {
        type_info *ti = &g->info[i];
        const blobc_type *t = ti->type;
        if (t->kind == BLOBC_KIND_UNION) {
            static const char *const parts[2] = {"tag", "ref"};
            if (!(ti->members = name_array(g, 2))) return nomem(g);
            nameset local = {0};
            for (int k = 0; k < 2; k++)
                ti->members[k] = unique_in(g, &local, &g->globals,
                                           blobc_arena_strndup(&g->arena, parts[k], 3));
            blobc_nameset_free(&local);
            if (!ti->members[0] || !ti->members[1]) return nomem(g);
            continue;
        }
        if (t->kind != BLOBC_KIND_STRUCT) continue;
        nameset local = {0};
        for (uint32_t f = 0; f < t->nfields; f++) {
            ti->members[f] = unique_in(g, &local, &g->globals, escaped(g, t->fields[f].name));
            if (!ti->members[f]) {
                blobc_nameset_free(&local);
                return nomem(g);
            }
        }
        blobc_nameset_free(&local);
    }
    return BLOBC_OK;
}

/* ---- C++ ---- */

/* Namespace-scope names of gen cpp besides the types: the enums' to_string
 * overloads, the runtime's namespace (a class `blobc` at global scope
 * would hide it), and the typedefs glibc's <sys/types.h> puts in the
 * global namespace, which every C++ standard library header pulls in (g++
 * always defines _GNU_SOURCE). */
static const char *const cpp_globals[] = {
    "to_string", "blobc", "uint", "ulong", "ushort", "u_char", "u_short", "u_int", "u_long",
    "ssize_t", "off_t", "pid_t", "time_t", "clock_t", "mode_t", "dev_t", "ino_t", "uid_t", "gid_t",
    "key_t", "id_t", "fd_set",
};
/* What every struct's class declares itself. */
static const char *const cpp_struct_api[] = {"open", "open_raw", "open_verified", "schema_hash"};

/* `a` and `b` joined and escaped, in the arena. */
static char *cpp_joined(gen *g, const char *a, const char *b) {
    g->tmp.len = 0;
    if (!blobc_buf_puts(&g->tmp, a) || !blobc_buf_puts(&g->tmp, b) || !blobc_buf_putc(&g->tmp, '\0'))
        return NULL;
    return escaped(g, (const char *)g->tmp.data);
}

/* One class's or enum's member names: unique within it and never its own
 * name (a C++ member may not be named like its class). Enumerators also
 * keep clear of the file-scope names (g++ -Wshadow); member functions need
 * not, since the output spells every type qualified. */
static blobc_status cpp_member_names(gen *g, type_info *ti) {
    const blobc_type *t = ti->type;
    nameset local = {0}, tags = {0};
    bool ok = blobc_nameset_add(&local, ti->cname);
    if (t->kind == BLOBC_KIND_ENUM) {
        ok = ok && (ti->values = name_array(g, t->nvalues));
        for (uint32_t v = 0; ok && v < t->nvalues; v++)
            ok = (ti->values[v] = unique_in(g, &local, &g->globals, escaped(g, t->values[v].name)));
    } else if (t->kind == BLOBC_KIND_UNION) {
        ok = ok && (ti->members = name_array(g, 2)) && (ti->values = name_array(g, t->nfields + 1)) &&
             (ti->acc = name_array(g, t->nfields)) &&
             (ti->members[0] = blobc_nameset_unique(&local, NULL, &g->arena, "tag")) &&
             (ti->members[1] = blobc_nameset_unique(&local, NULL, &g->arena, "Tag")) &&
             blobc_nameset_add(&tags, ti->members[1]) &&
             (ti->values[0] = blobc_nameset_unique(&tags, NULL, &g->arena, "NONE"));
        for (uint32_t m = 0; ok && m < t->nfields; m++)
            ok = (ti->values[m + 1] = unique_in(g, &tags, &g->globals, escaped(g, t->fields[m].name))) &&
                 (ti->acc[m] = unique_in(g, &local, NULL, cpp_joined(g, "as_", t->fields[m].name)));
        /* a tagged union's tag constants */
        if (ok && t->by != BLOBC_UNION_BY_KEY)
            ok = (ti->name_fn = blobc_nameset_unique(&local, NULL, &g->arena, "tag_of")) &&
                 (t->by != BLOBC_UNION_BY_FIELD ||
                  (ti->tag_field_macro = blobc_nameset_unique(&local, NULL, &g->arena, "tag_field"))) &&
                 (!t->default_member ||
                  (ti->default_macro = blobc_nameset_unique(&local, NULL, &g->arena, "default_member")));
    } else {
        for (size_t k = 0; ok && k < sizeof cpp_struct_api / sizeof cpp_struct_api[0]; k++)
            ok = blobc_nameset_unique(&local, NULL, &g->arena, cpp_struct_api[k]) != NULL;
        ok = ok && (ti->acc = name_array(g, t->nfields));
        for (uint32_t f = 0; ok && f < t->nfields; f++)
            ok = (ti->acc[f] = unique_in(g, &local, NULL, escaped(g, t->fields[f].name)));
    }
    blobc_nameset_free(&local);
    blobc_nameset_free(&tags);
    return ok ? BLOBC_OK : nomem(g);
}

blobc_status blobc_gencpp_assign_names(gen *g) {
    if (!blobc_nameset_add(&g->globals, g->guard)) return nomem(g);
    for (size_t k = 0; k < sizeof cpp_globals / sizeof cpp_globals[0]; k++)
        if (!blobc_nameset_has(&g->globals, cpp_globals[k]) && !blobc_nameset_add(&g->globals, cpp_globals[k]))
            return nomem(g);
    /* a class may not declare a member named like itself */
    nameset api = {0};
    blobc_status st = BLOBC_OK;
    for (size_t k = 0; k < sizeof cpp_struct_api / sizeof cpp_struct_api[0] && st == BLOBC_OK; k++)
        if (!blobc_nameset_add(&api, cpp_struct_api[k])) st = nomem(g);
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++)
        st = type_name(g, &g->info[i], "", g->info[i].type->kind == BLOBC_KIND_STRUCT ? &api : NULL);
    blobc_nameset_free(&api);
    if (st != BLOBC_OK) return st;
    if (!(g->text_fn = text_fn_name(g))) return nomem(g);
    for (size_t i = 0; i < g->ninfo && st == BLOBC_OK; i++) st = cpp_member_names(g, &g->info[i]);
    return st;
}
