/*
 * tags.c - items tagged in data (`$tags: [dev]` on an item of a list
 * whose struct declares @tags(dev, test)) and `bake --exclude-tags`,
 * which leaves such items out (docs/AUTHORING.md, "Tags").
 *
 * An item is left out before anything of it is placed: the front end
 * asks, as the item's mapping opens, for its $tags read ahead (as a
 * union's tag field is), and skips the whole mapping when one of them is
 * excluded. So nothing of it reaches the blob, counts, keys or checks,
 * and the blob is the one the data without the item gives. Tags are
 * judged in every bake, excluding or not: a tag the struct does not
 * declare is an error, so a misspelt `$tags: [dve]` never slips into a
 * release.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bake/bake_internal.h"

static const blobc_type *tagged_struct(const blobc_type *t) {
    while (t->kind == BLOBC_KIND_OPTIONAL || (t->kind == BLOBC_KIND_PTR && !t->ref)) t = t->elem;
    return t->kind == BLOBC_KIND_STRUCT && t->ntags ? t : NULL;
}

const blobc_type *bk_tagged_items(const blobc_type *list) {
    return list->kind == BLOBC_KIND_ARRAY ? tagged_struct(list->elem) : NULL;
}

/* Whether the n bytes at s name tag `name`. */
static bool tag_is(const char *name, const char *s, size_t n) {
    return strlen(name) == n && memcmp(name, s, n) == 0;
}

blobc_status bk_tags_resolve(bk *k, const bk_pos *pos) {
    const blobc_bake_options *o = k->opts;
    k->excluding = o->nexclude_tags > 0;
    for (size_t i = 0, n = blobc_schema_count(k->schema); i < n && !k->schema_tags; i++) {
        const blobc_type *t = blobc_schema_at(k->schema, i);
        k->schema_tags = t->kind == BLOBC_KIND_STRUCT && t->ntags;
    }
    for (size_t e = 0; e < o->nexclude_tags; e++) {
        const char *want = o->exclude_tags[e];
        const char *names[BLOBC_MAX_TAGS];
        size_t nn = 0;
        bool known = false;
        for (size_t i = 0, n = blobc_schema_count(k->schema); i < n && !known; i++) {
            const blobc_type *t = blobc_schema_at(k->schema, i);
            for (uint32_t g = 0; t->kind == BLOBC_KIND_STRUCT && g < t->ntags && !known; g++) {
                known = strcmp(t->tags[g], want) == 0;
                if (nn < BLOBC_MAX_TAGS) names[nn++] = t->tags[g];
            }
        }
        if (known) continue;
        const char *best = bk_closest(want, strlen(want), names, nn);
        const char *file = blobc_schema_filename(k->schema);
        char q[200];
        bk_quote(q, sizeof q, want, strlen(want));
        (void)pos; /* the tag is the command line's, not the data's */
        return bk_fail(k, BLOBC_EINPUT, NULL, BK_AT_CONTAINER, NULL, 0,
                       "--exclude-tags %s: no struct of schema %s declares that tag in its "
                       "@tags%s%s%s",
                       q, file && file[0] ? file : "(embedded)", best ? "; did you mean \"" : "",
                       best ? best : "", best ? "\"?" : "");
    }
    return BLOBC_OK;
}

/* An error about a tag of the item about to be filled: its path is the
 * item's (counted as if it had begun) and "$tags". */
BLOBC_PRINTF(3, 4)
static blobc_status tag_fail(bk *k, const bk_pos *pos, const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bk_frame *f = bk_top(k);
    bool item = f && f->kind == BK_ARRAY && k->column == NULL;
    if (item) f->count++;
    blobc_status st = bk_fail(k, BLOBC_EINPUT, pos, BK_AT_VALUE, k->column ? NULL : "$tags",
                              k->column ? 0 : 5, "%s", msg);
    if (item) f->count--;
    return bk_soft(k, st);
}

blobc_status bk_tags_judge(bk *k, const blobc_type *st, const bk_scalar *tags,
                           const bk_pos *pos, uint32_t n, bool *excluded) {
    *excluded = false;
    for (uint32_t i = 0; i < n; i++) {
        const bk_scalar *v = &tags[i];
        char q[200];
        bk_quote(q, sizeof q, v->s, v->n);
        if (v->tok == BK_TOK_JNULL || v->tok == BK_TOK_JBOOL || v->n == 0)
            return tag_fail(k, &pos[i], "a tag is a name of struct %s's @tags, got %s", st->name,
                            v->n ? q : "nothing");
        uint32_t g = 0;
        while (g < st->ntags && !tag_is(st->tags[g], v->s, v->n)) g++;
        if (g == st->ntags) {
            char list[400];
            size_t at = 0;
            list[0] = '\0';
            for (uint32_t j = 0; j < st->ntags && at + 1 < sizeof list; j++)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", j ? ", " : "", st->tags[j]);
            const char *best = bk_closest(v->s, v->n, st->tags, st->ntags);
            return best ? tag_fail(k, &pos[i], "unknown tag %s of struct %s; did you mean \"%s\"?",
                                   q, st->name, best)
                        : tag_fail(k, &pos[i], "unknown tag %s of struct %s (its @tags: %s)", q,
                                   st->name, list);
        }
        for (size_t e = 0; e < k->opts->nexclude_tags; e++)
            if (strcmp(k->opts->exclude_tags[e], st->tags[g]) == 0) *excluded = true;
    }
    return BLOBC_OK;
}

blobc_status bk_item_excluded(bk *k, bool *out) {
    *out = false;
    k->tagged = NULL;
    bk_frame *f = bk_top(k);
    const blobc_type *st = f && f->kind == BK_ARRAY ? bk_tagged_items(f->type) : NULL;
    if (!st || !k->find_list) return BLOBC_OK;
    bk_scalar tags[BLOBC_MAX_TAGS];
    bk_pos at[BLOBC_MAX_TAGS], vpos;
    uint32_t n = 0;
    bool found = false;
    blobc_status s = k->find_list(k, "$tags", tags, at, BLOBC_MAX_TAGS, &n, &vpos, &found);
    if (s || !found) return s;
    if (n == UINT32_MAX)
        return tag_fail(k, &vpos, "$tags takes a tag name or a list of them (such as [dev, test])");
    if (n > BLOBC_MAX_TAGS)
        return tag_fail(k, &vpos, "$tags holds more than %u tags", (unsigned)BLOBC_MAX_TAGS);
    if ((s = bk_tags_judge(k, st, tags, at, n, out))) return s;
    if (!*out) k->tagged = st;
    return BLOBC_OK;
}

blobc_status bk_tags_key(bk *k, const bk_pos *pos) {
    const bk_frame *f = bk_top(k);
    if (f->tagged) return bk_stop(k, BK_OUT_SKIP);
    const char *name = f->type->name;
    blobc_status st =
        f->type->ntags
            ? bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, "$tags", 5,
                      "$tags marks an item of a list, and this %s is not one (only a list's "
                      "items can be left out)", name)
            : bk_fail(k, BLOBC_EINPUT, pos, BK_AT_CONTAINER, "$tags", 5,
                      "struct %s declares no @tags, so its items take no $tags (declare them: "
                      "@tags(dev, test) struct %s)", name, name);
    return bk_soft(k, st);
}
