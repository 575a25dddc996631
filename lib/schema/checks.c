/*
 * checks.c - value checks in the schema: @range, @len, @match, @path and
 * @unique before a field, read by the parser and judged against the
 * field's type once names are resolved (a @range's bounds become numbers
 * of that type, a @match's pattern is compiled once, here, so a bad
 * pattern is a schema error at its place and not a failure per value).
 */
#include "common/judge.h"
#include "common/quote.h"
#include "common/regex.h"
#include "schema/parser_internal.h"

static const char *const check_names[] = {NULL, "range", "len", "match", "path", "unique"};

static blobc_check_kind named(const parser *p) {
    for (int k = BLOBC_CHECK_RANGE; k <= BLOBC_CHECK_UNIQUE; k++)
        if (tok_is(p, &p->tok, check_names[k])) return (blobc_check_kind)k;
    return 0;
}

bool blobc_check_named(const parser *p) { return named(p) != 0; }

/* A number for @range or @len, or nothing where a bound may be left out
 * (then *t is left with kind EOF). */
static blobc_status bound(parser *p, bool may_omit, blobc_token *t, const char *what) {
    memset(t, 0, sizeof *t);
    t->kind = BLOBC_TOK_EOF;
    if (may_omit && (p->tok.kind == BLOBC_TOK_COMMA || p->tok.kind == BLOBC_TOK_RPAREN))
        return BLOBC_OK;
    if (p->tok.kind != BLOBC_TOK_NUMBER) return unexpected(p, what);
    *t = p->tok;
    return next(p);
}

static blobc_status string_arg(parser *p, const char **out, const char *what) {
    if (p->tok.kind != BLOBC_TOK_STRING) return unexpected(p, what);
    if (memchr(p->tok.str, 0, p->tok.str_len))
        return blobc_schema_err(p->s, p->tok.pos, p->err, "%s cannot hold a NUL character", what);
    if (!(*out = blobc_arena_strndup(&p->s->arena, p->tok.str, p->tok.str_len)))
        return blobc_err_nomem(p->err);
    return next(p);
}

/* @len's counts: whole numbers, read now (they do not depend on the type). */
static blobc_status len_count(parser *p, const blobc_token *t, uint64_t *v) {
    char msg[160];
    if (!blobc_parse_int(tok_text(p, t), t->len, BLOBC_KIND_U32, BLOBC_SYNTAX_SCHEMA, v, msg, sizeof msg))
        return blobc_schema_err(p->s, t->pos, p->err, "@len: %s", msg);
    return BLOBC_OK;
}

/* The arguments after the name, into c (and the range's bounds into pc). */
static blobc_status parse_args(parser *p, blobc_check *c, pending_check *pc) {
    blobc_token a, b;
    switch (c->kind) {
    case BLOBC_CHECK_UNIQUE: return BLOBC_OK;
    case BLOBC_CHECK_RANGE:
        if (expect(p, BLOBC_TOK_LPAREN, "'(' after @range") ||
            bound(p, true, &pc->lo, "a number (or nothing) for @range's low bound") ||
            expect(p, BLOBC_TOK_COMMA, "',' between @range's bounds") ||
            bound(p, true, &pc->hi, "a number (or nothing) for @range's high bound"))
            return BLOBC_EINPUT;
        if (pc->lo.kind == BLOBC_TOK_EOF && pc->hi.kind == BLOBC_TOK_EOF)
            return blobc_schema_err(p->s, c->pos, p->err, "@range needs at least one bound");
        break;
    case BLOBC_CHECK_LEN:
        if (expect(p, BLOBC_TOK_LPAREN, "'(' after @len") ||
            bound(p, true, &a, "a count (or nothing) for @len") ||
            (a.kind != BLOBC_TOK_EOF && len_count(p, &a, &c->min)))
            return BLOBC_EINPUT;
        if (a.kind == BLOBC_TOK_EOF && p->tok.kind != BLOBC_TOK_COMMA)
            return unexpected(p, "a count for @len");
        c->max = c->min;
        if (p->tok.kind == BLOBC_TOK_COMMA) {
            c->max = UINT32_MAX;
            if (next(p) || bound(p, true, &b, "a count (or nothing) for @len's maximum")) return BLOBC_EINPUT;
            if (b.kind != BLOBC_TOK_EOF && len_count(p, &b, &c->max)) return BLOBC_EINPUT;
            if (c->max < c->min)
                return blobc_schema_err(p->s, b.pos, p->err, "@len's maximum %llu is below its "
                                        "minimum %llu", (unsigned long long)c->max,
                                        (unsigned long long)c->min);
        }
        break;
    case BLOBC_CHECK_MATCH:
        if (expect(p, BLOBC_TOK_LPAREN, "'(' after @match") ||
            string_arg(p, &c->arg, "a quoted pattern for @match"))
            return BLOBC_EINPUT;
        break;
    case BLOBC_CHECK_PATH:
        c->arg = "";
        if (expect(p, BLOBC_TOK_LPAREN, "'(' after @path")) return BLOBC_EINPUT;
        if (p->tok.kind != BLOBC_TOK_RPAREN &&
            string_arg(p, &c->arg, "a quoted directory for @path"))
            return BLOBC_EINPUT;
        if (p->tok.kind == BLOBC_TOK_COMMA &&
            (next(p) || string_arg(p, &c->ext, "a quoted file ending for @path (\".png\")")))
            return BLOBC_EINPUT;
        break;
    }
    return expect(p, BLOBC_TOK_RPAREN, "')' after the check's arguments");
}

blobc_status blobc_check_parse(parser *p, blobc_type *st, blobc_pos at) {
    blobc_check c;
    memset(&c, 0, sizeof c);
    c.kind = named(p);
    c.pos = at;
    for (size_t i = 0; i < p->nck; i++)
        if (p->ck[i].kind == c.kind)
            return blobc_schema_err(p->s, at, p->err, "@%s is given twice", check_names[c.kind]);
    if (!grow((void **)&p->ck, &p->ckcap, p->nck, sizeof *p->ck) ||
        !grow((void **)&p->pc, &p->pccap, p->npc, sizeof *p->pc))
        return blobc_err_nomem(p->err);
    pending_check *pc = &p->pc[p->npc];
    memset(pc, 0, sizeof *pc);
    pc->st = st;
    pc->index = (uint32_t)p->nfv;
    pc->which = (uint32_t)p->nck;
    if (next(p) || parse_args(p, &c, pc)) return BLOBC_EINPUT;
    p->ck[p->nck++] = c;
    p->npc++;
    return BLOBC_OK;
}

/* ---- against the field's type ---- */

/* The type a check looks at: through ?T, and for the checks of each
 * number or string, through one [T] or [T; N] (and a ?T inside). */
static const blobc_type *checked_type(const blobc_type *t, bool each) {
    if (t->kind == BLOBC_KIND_OPTIONAL) t = t->elem;
    if (each && (t->kind == BLOBC_KIND_ARRAY || t->kind == BLOBC_KIND_FIXED)) t = t->elem;
    if (each && t->kind == BLOBC_KIND_OPTIONAL) t = t->elem;
    return t;
}

static blobc_status range_bound(parser *p, const blobc_token *t, blobc_kind kind, uint64_t *bits,
                                double *f, bool *has) {
    *has = t->kind != BLOBC_TOK_EOF;
    if (!*has) return BLOBC_OK;
    char msg[160];
    bool ok = blobc_kind_is_integer(kind)
                  ? blobc_parse_int(tok_text(p, t), t->len, kind, BLOBC_SYNTAX_SCHEMA, bits, msg, sizeof msg)
                  : blobc_parse_float(tok_text(p, t), t->len, BLOBC_KIND_F64, BLOBC_SYNTAX_SCHEMA, f, msg,
                                      sizeof msg);
    if (!ok) return blobc_schema_err(p->s, t->pos, p->err, "@range on a %s: %s", blobc_kind_name(kind), msg);
    if (!blobc_kind_is_integer(kind) && *f != *f)
        return blobc_schema_err(p->s, t->pos, p->err, "@range's bound cannot be .nan");
    return BLOBC_OK;
}

static bool range_ordered(const blobc_check *c, blobc_kind kind) {
    if (!c->has_lo || !c->has_hi) return true;
    if (!blobc_kind_is_integer(kind)) return c->lo_f <= c->hi_f;
    return blobc_kind_is_signed(kind) ? (int64_t)c->lo <= (int64_t)c->hi : c->lo <= c->hi;
}

/* "@range(0, 100)", "@len(1, 32)", "@match(\"^a\")": how check and
 * messages write the check. */
static blobc_status spell(parser *p, const pending_check *pc, blobc_check *c) {
    blobc_buffer b = {0};
    bool ok = blobc_buf_printf(&b, "@%s", check_names[c->kind]);
    switch (c->kind) {
    case BLOBC_CHECK_RANGE:
        ok = ok && blobc_buf_printf(&b, "(%.*s, %.*s)", (int)pc->lo.len, pc->lo.len ? tok_text(p, &pc->lo) : "",
                                    (int)pc->hi.len, pc->hi.len ? tok_text(p, &pc->hi) : "");
        break;
    case BLOBC_CHECK_LEN:
        if (c->min == c->max) ok = ok && blobc_buf_printf(&b, "(%llu)", (unsigned long long)c->min);
        else if (c->min == 0) ok = ok && blobc_buf_printf(&b, "(, %llu)", (unsigned long long)c->max);
        else if (c->max == UINT32_MAX) ok = ok && blobc_buf_printf(&b, "(%llu, )", (unsigned long long)c->min);
        else ok = ok && blobc_buf_printf(&b, "(%llu, %llu)", (unsigned long long)c->min, (unsigned long long)c->max);
        break;
    case BLOBC_CHECK_MATCH:
    case BLOBC_CHECK_PATH:
        ok = ok && blobc_buf_putc(&b, '(') && blobc_buf_quoted(&b, (const uint8_t *)c->arg, strlen(c->arg), true);
        if (c->ext)
            ok = ok && blobc_buf_printf(&b, ", ") &&
                 blobc_buf_quoted(&b, (const uint8_t *)c->ext, strlen(c->ext), true);
        ok = ok && blobc_buf_putc(&b, ')');
        break;
    default: break;
    }
    c->text = ok ? blobc_arena_strndup(&p->s->arena, (const char *)b.data, b.len) : NULL;
    blobc_buffer_free(&b);
    return c->text ? BLOBC_OK : blobc_err_nomem(p->err);
}

/* What a check needs of its field's type, or the error saying so. */
static blobc_status judge(parser *p, const pending_check *pc, const blobc_field *f, blobc_check *c) {
    const blobc_type *each = checked_type(f->type, true), *own = checked_type(f->type, false);
    char spelled[200];
    blobc_type_spell(f->type, spelled, sizeof spelled);
    const char *need = NULL;
    switch (c->kind) {
    case BLOBC_CHECK_RANGE: {
        blobc_kind kind = each->kind;
        if (!blobc_kind_is_integer(kind) && kind != BLOBC_KIND_F32 && kind != BLOBC_KIND_F64) {
            need = "a number field (an integer or float, or a list of them)";
            break;
        }
        if (range_bound(p, &pc->lo, kind, &c->lo, &c->lo_f, &c->has_lo) ||
            range_bound(p, &pc->hi, kind, &c->hi, &c->hi_f, &c->has_hi))
            return BLOBC_EINPUT;
        if (!range_ordered(c, kind))
            return blobc_schema_err(p->s, c->pos, p->err, "@range's low bound is above its high bound");
        break;
    }
    case BLOBC_CHECK_LEN:
        if (own->kind != BLOBC_KIND_STRING && own->kind != BLOBC_KIND_ARRAY && own->kind != BLOBC_KIND_MAP)
            need = "a string, [T] or map field";
        break;
    case BLOBC_CHECK_MATCH:
    case BLOBC_CHECK_PATH:
        if (each->kind != BLOBC_KIND_STRING) need = "a string field (or a list of strings)";
        break;
    case BLOBC_CHECK_UNIQUE:
        if (own->kind != BLOBC_KIND_ARRAY ||
            (!blobc_kind_is_scalar(own->elem->kind) && own->elem->kind != BLOBC_KIND_ENUM &&
             own->elem->kind != BLOBC_KIND_STRING))
            need = "a list of numbers, enums or strings";
        break;
    }
    if (need)
        return blobc_schema_err(p->s, c->pos, p->err, "@%s needs %s; field '%s' is %s",
                                check_names[c->kind], need, f->name, spelled);
    return BLOBC_OK;
}

static blobc_status compile(parser *p, blobc_check *c) {
    char msg[200];
    size_t at;
    size_t n = strlen(c->arg);
    if (!blobc_utf8_valid((const uint8_t *)c->arg, n))
        return blobc_schema_err(p->s, c->pos, p->err, "@match: the pattern is not valid UTF-8");
    c->impl = blobc_regex_compile(c->arg, n, &p->s->arena, msg, sizeof msg, &at);
    if (c->impl) return BLOBC_OK;
    if (!msg[0]) return blobc_err_nomem(p->err);
    return blobc_schema_err(p->s, c->pos, p->err, "@match: %s (at byte %zu of the pattern)", msg, at);
}

/* Whether the field's default passes check c (a default that its own
 * field refuses is a mistake in the schema). @path is judged per bake,
 * against the files then: not here. */
static bool default_passes(const blobc_field *f, const blobc_check *c) {
    const blobc_default *d = &f->def;
    blobc_kind kind = f->type->kind;
    if (!d->present) return true;
    if (c->kind == BLOBC_CHECK_RANGE && blobc_kind_is_integer(kind))
        return blobc_judge_int_in_range(c, blobc_kind_is_signed(kind), d->bits);
    if (c->kind == BLOBC_CHECK_RANGE && (kind == BLOBC_KIND_F32 || kind == BLOBC_KIND_F64))
        return blobc_judge_float_in_range(c, d->f);
    if (kind != BLOBC_KIND_STRING || (c->kind != BLOBC_CHECK_LEN && c->kind != BLOBC_CHECK_MATCH)) return true;
    char msg[BLOBC_JUDGE_MSG];
    return blobc_judge_string(c, d->str, d->str_len, msg, sizeof msg) != 0;
}

blobc_status blobc_checks_resolve(parser *p) {
    for (size_t i = 0; i < p->npc; i++) {
        const pending_check *pc = &p->pc[i];
        const blobc_field *f = &pc->st->fields[pc->index];
        blobc_check *c = (blobc_check *)&f->checks[pc->which];
        if (judge(p, pc, f, c) || spell(p, pc, c)) return BLOBC_EINPUT;
        if (c->kind == BLOBC_CHECK_MATCH && compile(p, c)) return BLOBC_EINPUT;
        if (!default_passes(f, c))
            return blobc_schema_err(p->s, c->pos, p->err, "the default of field '%s' fails its own %s",
                                    f->name, c->text);
    }
    return BLOBC_OK;
}
