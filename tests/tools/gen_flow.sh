#!/bin/sh
# gen_flow.sh DEPTH ITEMS : writes to stdout a YAML document for the schema
# `struct M { a: *M; l: [u8]; } root M;` (named m.schema) whose value of
# `a` is DEPTH flow mappings nested around one flow list of ITEMS items:
#   a: {a: {a: ... {l: [1, 1, ...]} ... }}
# DEPTH 9000 and ITEMS 400000 is about 1.2 MB of hostile text that once
# cost libyaml minutes. Used by the tests and by bench/hostile.sh.
awk -v depth="$1" -v items="$2" 'BEGIN {
    printf "$schema: m.schema\na: "
    for (i = 0; i < depth; i++) printf "{a: "
    printf "{l: ["
    for (i = 0; i < items; i++) printf (i ? ", 1" : "1")
    printf "]}"
    for (i = 0; i < depth; i++) printf "}"
    printf "\n"
}'
