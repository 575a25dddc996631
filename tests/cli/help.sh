# What the command line accepts is what --help and the man page say:
# every command and subcommand (as the CLI names them in its errors) is in
# `blobc --help`, has its own --help, a SYNOPSIS line and a section in
# man/blobc.1; every option of every command (the option tables in
# cmd/blobc/*.c) is in that command's --help and its part of the man page;
# every value an option takes (as its error lists them) is in both where
# the option is described; the man page has each section once and names
# every environment variable the CLI reads in ENVIRONMENT.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
MAN=$T/man
# The man page as a reader sees it: font changes and escapes gone.
sed -e 's/\\f[BIRP]//g' -e 's/\\(dq/"/g' -e 's/\\-/-/g' -e 's/\\(->/->/g' -e 's/\\e/\\/g' \
    man/blobc.1 >"$MAN"

# man_part CMD [SUB]: the SYNOPSIS lines and sections of a command (all of
# them for CMD alone: "gen" is gen c, gen cs and gen jsonschema).
man_part() {
    awk -v s="${1}${2:+ $2}" '
        index($0, ".B blobc " s) == 1 && (length($0) == length(".B blobc " s) ||
            substr($0, length(".B blobc " s) + 1, 1) == " ") { syn = 1 }
        syn { print; if ($0 ~ /^\.br/) syn = 0 }
        /^\.S[SH] / { sec = ($0 == ".SS " s || index($0, ".SS " s " ") == 1) }
        sec { print }' "$MAN"
}
# listed_in NAME TEXTFILE WORD...: each WORD is in TEXTFILE, as a word of
# its own ("--depfile" is not in "--depfiles", "-h" not in "--help")
listed_in() {
    name=$1 file=$2
    shift 2
    miss=""
    for w in "$@"; do grep -qE -- "(^|[^a-z0-9-])$w([^a-z0-9-]|\$)" "$file" || miss="$miss $w"; done
    [ -z "$miss" ] && pass "$name" || fail "$name" "missing:$miss"
}

# ---- commands and subcommands ----
# The commands: main.c's table, which the error for an unknown one names.
cmds=$(awk '/^} commands\[\] = \{/ { on = 1; next } on && /^};/ { exit } on' cmd/blobc/main.c |
    sed -n 's/^ *{"\([a-z]*\)",.*/\1/p' | uniq)
[ "$(echo $cmds | wc -w)" -ge 8 ] && pass commands_found || fail commands_found "main.c has: $cmds"
"$BLOBC" frobnicate 2>"$T/err"
[ "$(sed -n 's/.*(commands: \(.*\))$/\1/p' "$T/err" | tr -d ',')" = "$(echo $cmds)" ] &&
    pass unknown_command_names_them || fail unknown_command_names_them "$(cat "$T/err")"
"$BLOBC" --help >"$T/help"
# subs CMD: the subcommands CMD names when given an unknown one
subs() {
    "$BLOBC" "$1" zzzz "$T/none" 2>&1 | sed -n 's/.*(\(available: \|expected \)\([a-z, ]*\))$/\2/p' |
        sed 's/,\| or / /g'
}
for c in $cmds; do
    run "$BLOBC" "$c" --help
    [ "$RC" -eq 0 ] && head -1 "$T/out" | grep -q "^Usage: blobc $c" && pass "own_help_$c" ||
        fail "own_help_$c" "exit $RC: $(head -2 "$T/out")"
    cp "$T/out" "$T/help_$c"
    man_part "$c" >"$T/man_$c"
    grep -q "^\.B blobc $c" "$T/man_$c" && pass "man_synopsis_$c" || fail "man_synopsis_$c" "no .B blobc $c"
    grep -q "^\.SS $c" "$T/man_$c" && pass "man_section_$c" || fail "man_section_$c" "no .SS $c"
    s=$(subs "$c")
    if [ -z "$s" ]; then
        grep -q "^  $c " "$T/help" && pass "help_lists_$c" || fail "help_lists_$c" "not in blobc --help"
        continue
    fi
    for sub in $s; do
        grep -q "^  $c $sub " "$T/help" && pass "help_lists_${c}_$sub" ||
            fail "help_lists_${c}_$sub" "'$c $sub' not in blobc --help"
        grep -q "blobc $c $sub\b" "$T/help_$c" && pass "own_help_lists_${c}_$sub" ||
            fail "own_help_lists_${c}_$sub" "not in blobc $c --help"
        man_part "$c" "$sub" | grep -q "^\.B blobc $c $sub\b" && pass "man_synopsis_${c}_$sub" ||
            fail "man_synopsis_${c}_$sub" "no .B blobc $c $sub"
    done
done

# The words blobc itself takes instead of a command (--help, help, -V, ...).
words=$(grep -o 'strcmp(cmd, "[^"]*") == 0' cmd/blobc/main.c | sed 's/strcmp(cmd, "\(.*\)") == 0/\1/')
[ "$(echo $words | wc -w)" -ge 4 ] && pass main_words_found || fail main_words_found "$words"
sed -n '/^\.B blobc$/,/^\.PP/p' "$MAN" >"$T/man_main"
listed_in help_main_words "$T/help" $words
listed_in man_main_words "$T/man_main" $words

# ---- options: the option table of each command's file ----
# opts FILE: "long short" for each row ({"name", 'x', ...} or {"name", 0, ...})
opts() {
    { cat "$1"; grep -q READ_FORMAT_OPTS "$1" &&
        awk '/^#define READ_FORMAT_OPTS/ { on = 1 } on { print } on && !/\\$/ { exit }' cmd/blobc/cli.h; } |
        sed -n "s/.*{\"\([a-z-]*\)\", *\('\(.\)'\|0\),.*/\1 \3/p"
}
n=0
for f in cmd/blobc/*.c; do
    c=$(sed -n 's/^int cmd_\([a-z]*\)(.*/\1/p' "$f")
    [ -n "$c" ] || continue
    opts "$f" >"$T/opts"
    while read -r long short; do
        n=$((n + 1))
        want="--$long${short:+ -$short}"
        listed_in "help_${c}_$long" "$T/help_$c" $want
        listed_in "man_${c}_$long" "$T/man_$c" $want
    done <"$T/opts"
    # every command also takes the common options
    listed_in "help_${c}_common" "$T/help_$c" --color --max-input --help
done
[ "$n" -ge 35 ] && pass options_found || fail options_found "only $n options in cmd/blobc/*.c"
awk '/^\.SH COMMON OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$MAN" >"$T/man_common"
listed_in man_common_options "$T/man_common" --color --max-input

# ---- values: what an option's error says it expects ----
# values CMD OPTION: the words of "(expected a, b or c)" for a bad value
values() {
    "$BLOBC" "$1" "$2=zzzz" "$T/none" 2>&1 |
        sed -n 's/.*(expected \([a-z, ]*\))$/\1/p' | sed 's/,\| or / /g'
}
# described CMD OPTION: the help lines of OPTION (up to the next option)
# and the man lines that describe it (the tag after .TP, the SYNOPSIS word)
for c in bake dump verify; do
    v=$(values "$c" --format)
    [ -n "$v" ] && pass "format_values_$c" || fail "format_values_$c" "no '(expected ...)' for a bad --format"
    awk '/^  *--format/ { on = 1; print; next } on && /^  *-/ { on = 0 } on' "$T/help_$c" >"$T/desc"
    listed_in "help_format_values_$c" "$T/desc" $v
    # each place the man page gives --format's values
    awk 'prev ~ /^\.RB \[ --format$/ { print } /^\.TP/ { tp = 1; prev = $0; next }
         tp && /--format/ { print } { tp = 0; prev = $0 }' "$T/man_$c" >"$T/tags"
    k=0
    while read -r line; do
        k=$((k + 1))
        printf '%s\n' "$line" >"$T/tag"
        listed_in "man_format_values_${c}_$k" "$T/tag" $v
    done <"$T/tags"
    [ "$k" -ge 2 ] && pass "man_format_places_$c" || fail "man_format_places_$c" "found $k"
done
v=$(values check --color)
[ -n "$v" ] && listed_in help_color_values "$T/help_check" $v || fail help_color_values "no values"
listed_in man_color_values "$T/man_common" $v

# ---- the man page's sections, and the environment ----
dups=$(grep '^\.SH ' "$MAN" | sort | uniq -d | tr '\n' ';')
[ -z "$dups" ] && pass man_sections_once || fail man_sections_once "twice: $dups"
awk '/^\.SH ENVIRONMENT/ { on = 1; next } /^\.SH/ { on = 0 } on' "$MAN" >"$T/man_env"
vars=$(grep -oh 'getenv("[A-Z_]*")' cmd/blobc/*.c lib/*/*.c | sed 's/getenv("\(.*\)")/\1/' | sort -u)
[ -n "$vars" ] && listed_in man_environment "$T/man_env" $vars || fail man_environment "no getenv found"

# gen LANG --help is LANG's page: its usage first, none of the others'
# options; gen --help shows them all.
for lang in c cpp cs jsonschema; do
    run "$BLOBC" gen "$lang" --help
    first=$(head -1 "$T/out")
    case $lang in
    c) other="--namespace" ;;
    cpp) other="--prefix" ;;
    cs) other="--type TYPE" ;;
    jsonschema) other="--depfile" ;;
    esac
    [ "$RC" -eq 0 ] && [ "${first#Usage: blobc gen $lang SCHEMA}" != "$first" ] && ! grep -q -- "$other" "$T/out" &&
        grep -q -- '--error-format' "$T/out" && pass "gen_${lang}_own_page" || fail "gen_${lang}_own_page" "$(head -3 "$T/out")"
done
run "$BLOBC" gen --help
n=$(grep -c '^ *\(Usage: \)\{0,1\}blobc gen [a-z]* SCHEMA' "$T/out")
[ "$n" -eq 4 ] && pass gen_page_all || fail gen_page_all "$n usage lines"
