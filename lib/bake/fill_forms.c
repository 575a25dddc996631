/*
 * fill_forms.c - the shapes real data files use, on the fill stack: maps
 * ([K: V], a mapping with any keys, filled as an array of entries that is
 * sorted by key when it ends), optionals (?T: a presence byte after the
 * value), free-form values (any: a kind word and a body), and unions
 * tagged by a field of the member's own mapping or by the node's YAML tag.
 * The rules are in docs/SCHEMA.md; the bytes in docs/FORMAT.md.
 *
 * The fill stack's entry points for mappings and sequences are here: they
 * reach the container a slot holds through these forms, then open the
 * plain struct, union or array frame fill.c keeps.
 */
#include "bake/bake_internal.h"

#include <stdio.h>
#include <string.h>

#include "common/kind.h"
#include "common/scalar.h"
#include "common/suggest.h"

/* A list or mapping opened inside an any: refused past the depth verify
 * holds blobs to (the any-boxes on top of the stack are its parents). */
static blobc_status any_depth(bk *k, const bk_pos *pos) {
    uint32_t d = 1;
    for (uint32_t i = k->depth; i > 0 && blobc_is_builtin(k->fr[i - 1].type); i--) d++;
    if (d <= BLOBC_MAX_ANY_DEPTH) return BLOBC_OK;
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                   "an any value nests lists and mappings more than %u deep", BLOBC_MAX_ANY_DEPTH);
}

/* The slot a mapping (is_map) or a sequence fills, reached from s through
 * ?T (marked present), any (marked a map or a list) and *T (allocated). */
static blobc_status bk_unwrap(bk *k, bk_slot *s, bool is_map, const bk_pos *pos) {
    for (;;) {
        const blobc_type *t = s->type;
        if (t->kind == BLOBC_KIND_OPTIONAL) {
            bk_ptr(k, s)[blobc_optional_flag(t)] = 1;
            s->type = t->elem;
        } else if (t->kind == BLOBC_KIND_ANY) {
            blobc_status st = any_depth(k, pos);
            if (st) return st;
            blobc_st32(bk_ptr(k, s), is_map ? BLOBC_ANY_MAP : BLOBC_ANY_LIST);
            s->type = is_map ? blobc_any_map_type() : blobc_any_list_type();
            s->off += BLOBC_ANY_BODY;
        } else if (t->kind == BLOBC_KIND_PTR && !t->ref) {
            blobc_status st = bk_deref(k, s, pos, NULL);
            if (st) return st;
        } else {
            return BLOBC_OK;
        }
    }
}

/* ---- maps ---- */

static blobc_status bk_push_map(bk *k, const bk_slot *s, const bk_pos *pos) {
    bk_frame *f;
    blobc_status st = bk_push_frame(k, pos, &f);
    if (st) return st;
    f->kind = BK_MAP;
    f->type = s->type;
    f->at = *s;
    f->known = UINT32_MAX;
    return bk_keyed_begin(k, f);
}

/* A key of a map's mapping: a new entry holding the key, whose value
 * slot comes back. The key is read as the key type reads a scalar: a
 * JSON key "12" is the integer 12 of a [u32: V]. */
static blobc_status bk_map_key(bk *k, bk_frame *f, const char *key, size_t len, const bk_pos *pos,
                               bk_slot *out) {
    bk_slot e;
    blobc_status st = bk_item(k, pos, &e);
    if (st) return st;
    const blobc_field *kf = &e.type->fields[0], *vf = &e.type->fields[1];
    bk_slot ks = {kf->type, e.ref, e.off + kf->offset};
    bk_scalar v;
    memset(&v, 0, sizeof v);
    v.s = key;
    v.n = len;
    v.tok = kf->type->kind == BLOBC_KIND_STRING ? BK_TOK_QUOTED : BK_TOK_PLAIN;
    v.check_utf8 = k->json;
    k->raw_key = key;
    k->raw_key_len = len;
    st = bk_store(k, &ks, &v, pos, NULL);
    k->raw_key = NULL;
    if (st) {
        bk_keyed_item_bad(k);
        return st;
    }
    bk_slot vs = {vf->type, e.ref, e.off + vf->offset};
    f->value = vs;
    *out = vs;
    return BLOBC_OK;
}

/* ---- tagged unions ---- */


blobc_status bk_ahead_over(bk *k, const bk_pos *pos, uint64_t limit) {
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                   "looking ahead for the tags of nested tagged unions passes %llu %s (%u times "
                   "the input, plus %llu): write each tag field first",
                   (unsigned long long)limit, k->json ? "bytes" : "events", BK_AHEAD_FACTOR,
                   (unsigned long long)BK_AHEAD_FLOOR);
}

/* The tag's value as a message shows it. */
static void tag_word(const bk_scalar *tag, char *q, size_t cap) {
    if (tag->tok == BK_TOK_JNULL && tag->n != 4) snprintf(q, cap, "a mapping or a sequence");
    else bk_quote(q, cap, tag->s, tag->n);
}

/* The member whose tag the scalar names, or an error at tpos. */
static blobc_status tag_member(bk *k, const blobc_type *u, const bk_scalar *tag,
                               const bk_pos *tpos, const blobc_field **out) {
    if (u->int_tags) {
        uint64_t bits;
        char msg[160];
        bool num = tag->tok == BK_TOK_JNUMBER || tag->tok == BK_TOK_PLAIN;
        blobc_syntax syn = tag->tok == BK_TOK_JNUMBER ? BLOBC_SYNTAX_JSON : BLOBC_SYNTAX_YAML;
        if (!num || !blobc_parse_int(tag->s, tag->n, BLOBC_KIND_I64, syn, &bits, msg, sizeof msg)) {
            char q[200];
            tag_word(tag, q, sizeof q);
            return bk_fail(k, BLOBC_EINPUT, tpos, BK_AT_VALUE, NULL, 0,
                           "the tag \"%s\" of union %s is an integer, got %s", u->tag_field,
                           u->name, q);
        }
        for (uint32_t i = 0; i < u->nfields; i++)
            if (u->fields[i].tag_value == bits) return *out = &u->fields[i], BLOBC_OK;
        return bk_unknown_tag(k, u, tag->s, tag->n, tpos);
    }
    if (tag->tok != BK_TOK_JSTRING && tag->tok != BK_TOK_QUOTED && tag->tok != BK_TOK_PLAIN) {
        char q[200];
        tag_word(tag, q, sizeof q);
        return bk_fail(k, BLOBC_EINPUT, tpos, BK_AT_VALUE, NULL, 0,
                       "the tag \"%s\" of union %s is a string, got %s", u->tag_field, u->name, q);
    }
    for (uint32_t i = 0; i < u->nfields; i++) {
        const char *t = u->fields[i].tag;
        if (strlen(t) == tag->n && memcmp(t, tag->s, tag->n) == 0) return *out = &u->fields[i], BLOBC_OK;
    }
    return bk_unknown_tag(k, u, tag->s, tag->n, tpos);
}

/* The member of a union by tag that a node's tag names: the tag as
 * written (`!circle`), or, for a member tagged with a %TAG handle
 * (`!u!114`), the tag as the parser resolved it
 * (`tag:unity3d.com,2011:114`), which ends with the handle's suffix after
 * a punctuation character; the longest such suffix wins. */
static const blobc_field *yaml_tag_member(const blobc_type *u, const char *tag, size_t n) {
    const blobc_field *best = NULL;
    size_t best_len = 0;
    for (uint32_t i = 0; i < u->nfields; i++) {
        const char *mt = u->fields[i].tag;
        size_t ml = strlen(mt);
        if (ml == n && memcmp(mt, tag, n) == 0) return &u->fields[i];
        const char *bang = ml > 1 && mt[0] == '!' ? memchr(mt + 1, '!', ml - 1) : NULL;
        if (!bang) continue;
        const char *suf = bang + 1;
        size_t sl = ml - (size_t)(suf - mt);
        if (sl == 0 || sl >= n || memcmp(tag + n - sl, suf, sl) != 0) continue;
        unsigned char c = (unsigned char)tag[n - sl - 1];
        bool word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!word && sl > best_len) {
            best = &u->fields[i];
            best_len = sl;
        }
    }
    return best;
}

/* The member a union's mapping holds: by its tag field (the front end
 * looks ahead for it), or by the node's YAML tag. */
static blobc_status pick_member(bk *k, const blobc_type *u, const bk_pos *pos,
                                const blobc_field **out) {
    char names[300];
    if (u->by == BLOBC_UNION_BY_TAG) {
        *out = yaml_tag_member(u, k->node_tag, k->node_tag_len);
        return *out ? BLOBC_OK : bk_unknown_tag(k, u, k->node_tag, k->node_tag_len, pos);
    }
    if (!k->find_tag)
        return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                       "union %s is tagged by a field, which this input cannot look ahead for",
                       u->name);
    bk_scalar tag;
    bk_pos tpos;
    bool found;
    blobc_status st = k->find_tag(k, u->tag_field, &tag, &tpos, &found);
    if (st) return st;
    if (found) return tag_member(k, u, &tag, &tpos, out);
    if (u->default_member) return *out = &u->fields[u->default_member - 1], BLOBC_OK;
    bk_list_tags(u, names, sizeof names);
    return bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, NULL, 0,
                   "missing tag field \"%s\" of union %s (one of %s)", u->tag_field, u->name,
                   names);
}

blobc_status bk_open_union_gone(bk *k, const blobc_type *t, const bk_pos *pos) {
    bool wrapped = false;
    while ((t->kind == BLOBC_KIND_PTR && !t->ref) || t->kind == BLOBC_KIND_OPTIONAL) {
        t = t->elem;
        wrapped = true;
    }
    /* a union in place holds none for such a tag: nothing to undo there */
    if (!wrapped || t->kind != BLOBC_KIND_UNION || !(t->flags & BLOBC_STRUCT_OPEN) ||
        t->by == BLOBC_UNION_BY_KEY)
        return BLOBC_OK;
    const blobc_field *m;
    if (t->by == BLOBC_UNION_BY_FIELD || k->node_tag) return bk_soft(k, pick_member(k, t, pos, &m));
    /* the one-key form: the tag is the first key */
    bk_scalar key;
    bk_pos kpos;
    bool found = false;
    blobc_status st = k->find_tag ? k->find_tag(k, NULL, &key, &kpos, &found) : BLOBC_OK;
    if (st || !found) return st;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (strlen(t->fields[i].tag) == key.n && memcmp(t->fields[i].tag, key.s, key.n) == 0)
            return BLOBC_OK;
    return bk_unknown_tag(k, t, key.s, key.n, &kpos);
}

static blobc_status bk_push_tagged(bk *k, const bk_slot *s, const bk_pos *pos) {
    const blobc_type *u = s->type;
    const blobc_field *m;
    /* a node without a YAML tag (JSON has none): {"!tag": {...}}, the
     * one-key form with the tag as the key */
    if (u->by == BLOBC_UNION_BY_TAG && !k->node_tag) return bk_open_struct(k, s, pos);
    blobc_status st = pick_member(k, u, pos, &m);
    if (st) return bk_soft(k, st);
    blobc_st32(bk_ptr(k, s), (uint32_t)(m - u->fields) + 1);
    bk_slot ms = {m->type, s->ref, s->off + m->offset};
    if ((st = bk_deref(k, &ms, pos, NULL))) return st;
    if ((st = bk_push_struct(k, &ms, pos))) return st;
    if (u->by == BLOBC_UNION_BY_FIELD) bk_top(k)->tag_of = u;
    return BLOBC_OK;
}

/* ---- for a value stream, which names a union's member and gives a
 * map's entries as {key, value} ---- */

blobc_status bk_push_union_key(bk *k, const bk_slot *in, const bk_pos *pos) {
    bk_slot s = *in;
    blobc_status st = bk_unwrap(k, &s, true, pos);
    if (st) return st;
    return bk_open_struct(k, &s, pos);
}

void bk_unwrap_shared(bk *k, bk_slot *s, blobc_kind kind) {
    for (;;) {
        const blobc_type *t = s->type;
        if (t->kind == BLOBC_KIND_OPTIONAL) {
            bk_ptr(k, s)[blobc_optional_flag(t)] = 1;
            s->type = t->elem;
        } else if (t->kind == BLOBC_KIND_ANY && kind != BLOBC_KIND_PTR) {
            blobc_any_kind w = kind == BLOBC_KIND_STRING ? BLOBC_ANY_STRING
                               : kind == BLOBC_KIND_MAP  ? BLOBC_ANY_MAP
                                                         : BLOBC_ANY_LIST;
            blobc_st32(bk_ptr(k, s), w);
            s->type = w == BLOBC_ANY_STRING ? blobc_builtin_type(BLOBC_KIND_STRING)
                      : w == BLOBC_ANY_MAP  ? blobc_any_map_type()
                                            : blobc_any_list_type();
            s->off += BLOBC_ANY_BODY;
        } else {
            return;
        }
    }
}

/* ---- the entry points ---- */

blobc_status bk_push_struct(bk *k, const bk_slot *in, const bk_pos *pos) {
    bk_slot s = *in;
    blobc_status st = bk_unwrap(k, &s, true, pos);
    if (st) return st;
    if (s.type->kind == BLOBC_KIND_MAP) return bk_push_map(k, &s, pos);
    if (s.type->kind == BLOBC_KIND_UNION && s.type->by != BLOBC_UNION_BY_KEY)
        return bk_push_tagged(k, &s, pos);
    return bk_open_struct(k, &s, pos);
}

blobc_status bk_push_seq(bk *k, const bk_slot *in, uint32_t known, const bk_pos *pos) {
    bk_slot s = *in;
    blobc_status st = bk_unwrap(k, &s, false, pos);
    if (st) return st;
    return bk_open_seq(k, &s, known, pos);
}

blobc_status bk_key(bk *k, const char *key, size_t len, const bk_pos *pos, bk_slot *out) {
    bk_frame *f = bk_top(k);
    if (f->kind == BK_MAP) return bk_map_key(k, f, key, len, pos, out);
    /* a tagged union's member skips the tag, which picked it */
    if (f->tag_of && strlen(f->tag_of->tag_field) == len && !memchr(key, 0, len) &&
        memcmp(f->tag_of->tag_field, key, len) == 0)
        return bk_stop(k, BK_OUT_SKIP);
    return bk_struct_key(k, key, len, pos, out);
}

blobc_status bk_pop_struct(bk *k) {
    bk_frame *f = bk_top(k);
    if (f->kind == BK_MAP) return bk_pop_seq(k, &f->pos, NULL, NULL);
    return bk_close_struct(k);
}

/* ---- items that may be tagged ---- */

blobc_status bk_item_tagged(bk *k, const bk_pos *pos, bk_slot *out) {
    bool excluded = false;
    blobc_status st = bk_item_excluded(k, &excluded);
    if (!st && excluded) return bk_stop(k, BK_OUT_SKIP);
    if (st && !bk_kept(k, st)) return st;
    bool bad = st != BLOBC_OK;
    if ((st = bk_item(k, pos, out)) || !bad) return st;
    /* an item whose tags are wrong is an item all the same, but one
     * without a key of its own, since its mapping is skipped */
    bk_keyed_item_bad(k);
    return bk_stop(k, BK_OUT_KEPT);
}
