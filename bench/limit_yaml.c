/*
 * limit_yaml.c - the YAML parsing floor for `blobc bake`: read the file and
 * pull every libyaml event, deleting each at once. No tree, no schema, no
 * output: a bake that parses YAML with libyaml must do at least this much.
 *
 *     limit_yaml FILE.yaml
 */
#include <yaml.h>

#include "slurp.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: limit_yaml FILE.yaml\n");
        return 2;
    }
    size_t len;
    unsigned char *text = slurp("limit_yaml", argv[1], &len);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(stderr, "limit_yaml: out of memory\n");
        return 2;
    }
    yaml_parser_set_input_string(&parser, text, len);
    unsigned long events = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            fprintf(stderr, "limit_yaml: %s:%lu:%lu: %s\n", argv[1],
                    (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1,
                    parser.problem ? parser.problem : "parse error");
            return 1;
        }
        yaml_event_type_t type = ev.type;
        yaml_event_delete(&ev);
        events++;
        if (type == YAML_STREAM_END_EVENT) break;
    }
    printf("%lu events\n", events);
    yaml_parser_delete(&parser);
    free(text);
    return 0;
}
