/*
 * depfile.c - the make/ninja depfile of a bake: "OUT: INPUT SCHEMA..." and
 * an empty rule per schema file, as gcc -MP writes.
 *
 * A depfile is read by GNU make (as a makefile) and by ninja (its own
 * parser, which follows gcc's escaping), and blobc cannot know which. Each
 * name is therefore written in the one spelling both read back as that
 * name, and a name without such a spelling is refused rather than written
 * so that one of them silently loses the dependency. The rules, each
 * checked against make 4.3 and ninja 1.11 (tests/cli/depfile.sh):
 *
 *  - a space is "\ ", with every backslash right before it doubled (make
 *    and ninja both read 2N+1 backslashes and a space as N and a space);
 *  - '#' is "\#", '$' is "$$", ':' is "\:" (make takes a bare colon for a
 *    second rule separator; ninja reads "\:" as ':');
 *  - any other backslash stands for itself in both;
 *  - refused: control characters (tab, newline: a separator for both) and
 *    DEL; " & ' * ? ; < > ^ ` | (ninja 1.11 ends a name there, and make
 *    reads ; | * ? as a recipe, order-only bar or wildcard); = (make reads
 *    a variable assignment); % (make reads a pattern); [ (a make wildcard);
 *    a leading ~ (make expands a home directory); a trailing backslash,
 *    colon or space, and a backslash before # : or $ (no spelling both read
 *    alike); a name ending in ')' whose first '(' is not its first byte
 *    (make reads an archive member).
 */
#include <stdio.h>
#include <string.h>

#include "blobc/bake.h"
#include "common/buffer.h"
#include "common/err.h"
#include "common/quote.h"

static bool refused_byte(unsigned char c) {
    return c < 0x20 || c == 0x7f || (c < 0x80 && strchr("\"&'*?;<>^`|=%[", c));
}

/* Why `name` has no spelling that make and ninja both read back, written
 * into why; false when it has one. */
static bool refusal(const char *name, char *why, size_t cap) {
    size_t n = strlen(name);
    const char *paren = strchr(name, '(');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        char q[BLOBC_QUOTE_BUF];
        if (refused_byte(c)) {
            blobc_quote(q, sizeof q, name + i, 1);
            snprintf(why, cap, "it holds %s", q);
            return true;
        }
        if (c == '\\' && i + 1 < n && strchr("#:$", name[i + 1])) {
            snprintf(why, cap, "it holds a backslash before '%c'", name[i + 1]);
            return true;
        }
    }
    if (name[0] == '~') snprintf(why, cap, "it starts with '~' (make reads a home directory)");
    else if (strchr("\\: ", name[n - 1]))
        snprintf(why, cap, "it ends in %s",
                 name[n - 1] == ' ' ? "a space" : name[n - 1] == ':' ? "':'" : "a backslash");
    else if (paren && paren != name && name[n - 1] == ')')
        snprintf(why, cap, "it ends in ')' after a '(' (make reads an archive member)");
    else return false;
    return true;
}

static bool put_name(blobc_buffer *b, const char *p) {
    bool ok = true;
    for (; *p; p++) {
        if (*p == '\\') {
            /* A run of backslashes is doubled (and one more added) only
             * when a space follows it. */
            size_t run = strspn(p, "\\");
            bool before_space = p[run] == ' ';
            for (size_t i = 0; i < (before_space ? 2 * run : run); i++) ok &= blobc_buf_putc(b, '\\');
            p += run - 1;
            continue;
        }
        if (*p == ' ' || *p == '#' || *p == ':') ok &= blobc_buf_putc(b, '\\');
        else if (*p == '$') ok &= blobc_buf_putc(b, '$');
        ok &= blobc_buf_putc(b, *p);
    }
    return ok;
}

static bool listed(const char *file) { return file && file[0]; }

blobc_status blobc_depfile(const char *output, const char *input, const blobc_schema *schema,
                           blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!output || !out) return blobc_err_arg(err, __func__, "output or out is NULL");
    return blobc_depfile_inputs(output, &input, 1, schema, NULL, 0, out, err);
}

/* The names of the rule in order: the output, the inputs, the schema's
 * files, the others. */
typedef struct rule {
    const char *output;
    const char *const *inputs;
    size_t ninputs;
    const blobc_schema *schema;
    size_t nfiles;
    const char *const *extra;
} rule;

static const char *rule_name(const rule *r, size_t i) {
    if (i == 0) return r->output;
    if (i <= r->ninputs) return r->inputs[i - 1] && strcmp(r->inputs[i - 1], "-") == 0 ? NULL : r->inputs[i - 1];
    if (i <= r->ninputs + r->nfiles) return blobc_schema_file(r->schema, i - 1 - r->ninputs);
    return r->extra[i - 1 - r->ninputs - r->nfiles];
}

blobc_status blobc_depfile_inputs(const char *output, const char *const *inputs, size_t ninputs,
                                  const blobc_schema *schema, const char *const *extra,
                                  size_t nextra, blobc_buffer *out, blobc_error *err) {
    blobc_error scratch;
    err = blobc_err_or(err, &scratch);
    if (!output || !out || (ninputs && !inputs) || (nextra && !extra))
        return blobc_err_arg(err, __func__, "output, out, inputs or extra is NULL");
    rule r = {output, inputs, ninputs, schema, schema ? blobc_schema_file_count(schema) : 0, extra};
    size_t total = 1 + ninputs + r.nfiles + nextra;
    /* Every name is checked before anything is written. */
    for (size_t i = 0; i < total; i++) {
        const char *name = rule_name(&r, i);
        char why[256];
        if (!listed(name) || !refusal(name, why, sizeof why)) continue;
        /* Quoted and escaped (cut short if long) when it holds a control
         * character; else as it is, like every path in a message. */
        char q[BLOBC_QUOTE_BUF];
        bool plain = true;
        for (const char *c = name; *c; c++) plain &= (unsigned char)*c >= 0x20 && *c != 0x7f;
        if (!plain) blobc_quote(q, sizeof q, name, strlen(name));
        return blobc_err(err, BLOBC_EIO,
                         "cannot list %s%s%s in a depfile: %s, and make and ninja cannot both "
                         "read such a name back (blobc(1), --depfile)",
                         plain ? "'" : "", plain ? name : q, plain ? "'" : "", why);
    }
    out->len = 0;
    bool ok = put_name(out, output) && blobc_buf_putc(out, ':');
    for (size_t i = 1; i <= ninputs; i++)
        if (listed(rule_name(&r, i))) ok = ok && blobc_buf_putc(out, ' ') && put_name(out, rule_name(&r, i));
    for (size_t i = 1 + ninputs; i < total; i++)
        if (listed(rule_name(&r, i)))
            ok = ok && blobc_buf_puts(out, " \\\n  ") && put_name(out, rule_name(&r, i));
    ok = ok && blobc_buf_putc(out, '\n');
    /* An empty rule for each file but the inputs, as gcc -MP writes: a
     * file that is gone is then no error of make's, just a reason to bake. */
    for (size_t i = 1 + ninputs; i < total; i++)
        if (listed(rule_name(&r, i)))
            ok = ok && blobc_buf_putc(out, '\n') && put_name(out, rule_name(&r, i)) && blobc_buf_puts(out, ":\n");
    if (!ok) {
        out->len = 0;
        return blobc_err_nomem(err);
    }
    return BLOBC_OK;
}
