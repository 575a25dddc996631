/*
 * driver.c - flatcc's generated code for bench/level.fbs as a benchmark
 * peer: the JSON parser (JSON to a FlatBuffers binary), the JSON printer
 * (binary to JSON) and the verifier, each in a whole process that reads
 * its input the way blobc does (slurp.h) and writes its output, so the
 * times compare with blobc's bake, dump --json and verify. bench/flatcc.sh
 * generates the code and builds this against flatcc's runtime.
 *
 *     driver parse LEVEL.json OUT.bin
 *     driver print LEVEL.bin          (JSON on stdout)
 *     driver verify LEVEL.bin
 */
#include "level_json_parser.h"
#include "level_json_printer.h"
#include "level_verifier.h"

#include "../slurp.h"

static int parse(const char *in, const char *out) {
    size_t len, size;
    unsigned char *text = slurp("flatcc parse", in, &len);
    flatcc_builder_t builder;
    flatcc_json_parser_t ctx;
    flatcc_builder_init(&builder);
    if (level_parse_json(&builder, &ctx, (const char *)text, len, 0)) {
        fprintf(stderr, "flatcc parse: %s:%d:%d: %s\n", in, ctx.line, (int)(ctx.error_loc - ctx.line_start) + 1,
                flatcc_json_parser_error_string(ctx.error));
        return 1;
    }
    void *bin = flatcc_builder_finalize_aligned_buffer(&builder, &size);
    FILE *f = fopen(out, "wb");
    if (!bin || !f || fwrite(bin, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "flatcc parse: %s: cannot write\n", out);
        return 2;
    }
    flatcc_builder_aligned_free(bin);
    flatcc_builder_clear(&builder);
    free(text);
    return 0;
}

static int print(const char *in) {
    size_t len;
    unsigned char *bin = slurp("flatcc print", in, &len);
    flatcc_json_printer_t ctx;
    flatcc_json_printer_init(&ctx, stdout);
    /* The layout of blobc dump --json: two-space indent, every field. */
    flatcc_json_printer_set_indent(&ctx, 2);
    flatcc_json_printer_set_force_default(&ctx, 1);
    if (level_print_json(&ctx, (const char *)bin, len) < 0 || flatcc_json_printer_get_error(&ctx)) {
        fprintf(stderr, "flatcc print: %s: cannot print\n", in);
        return 1;
    }
    flatcc_json_printer_flush(&ctx);
    flatcc_json_printer_clear(&ctx);
    free(bin);
    return fflush(stdout) == 0 ? 0 : 2;
}

static int verify(const char *in) {
    size_t len;
    unsigned char *bin = slurp("flatcc verify", in, &len);
    int rc = bench_Level_verify_as_root(bin, len);
    if (rc) {
        fprintf(stderr, "flatcc verify: %s: %s\n", in, flatcc_verify_error_string(rc));
        return 1;
    }
    free(bin);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "parse") == 0) return parse(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "print") == 0) return print(argv[2]);
    if (argc == 3 && strcmp(argv[1], "verify") == 0) return verify(argv[2]);
    fprintf(stderr, "usage: driver parse LEVEL.json OUT.bin | print LEVEL.bin | verify LEVEL.bin\n");
    return 2;
}
