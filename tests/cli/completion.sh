# blobc completion SHELL: bash's script completes through the real
# complete/compgen machinery (commands, subcommands, a command's options
# as its --help lists them, option values, file names); zsh's and fish's
# scripts are read by the shells themselves, when they are installed.
. "$(dirname "$0")/lib.sh"
"$BLOBC" completion bash >"$T/blobc.bash" || fail bash_script "exit $?"

# complete WORDS... : what bash's completion offers for the last word.
complete_words() {
    # the function the script registered for blobc, called as bash would
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        fn=$(complete -p blobc | sed "s/.* -F \([^ ]*\).*/\1/"); "$fn"; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$T/blobc.bash" "$@" 2>&1 | tr '\n' ' ' | sed 's/ $//'
}
offers() { # NAME WANT WORDS...
    name=$1 want=$2
    shift 2
    got=$(cd "$T" && complete_words "$@")
    [ "$got" = "$want" ] && pass "$name" || fail "$name" "offered '$got', want '$want'"
}
if ! command -v bash >/dev/null 2>&1; then
    skip bash_completion "bash is not installed"
else
    offers commands "bake" "$BLOBC" ba
    offers commands_c "check compat cache completion" "$BLOBC" c
    offers subcommands "c cpp cs" "$BLOBC" gen c
    offers cache_subcommands "prune" "$BLOBC" cache p
    offers bake_option "--exclude-tags" "$BLOBC" bake --exc
    offers bake_options_l "--lang" "$BLOBC" bake --la
    offers gen_option "--namespace" "$BLOBC" gen cpp --n
    offers gen_cs_options "--namespace --no-mathematics" "$BLOBC" gen cs --n
    offers common_option "--error-format" "$BLOBC" verify --error-f
    offers option_value "github" "$BLOBC" bake --error-format g
    offers input_values "csv" "$BLOBC" bake --input c
    mkdir -p "$T/dir"
    : >"$T/level.yaml"
    : >"$T/levels.json"
    offers file_names "levels.json level.yaml" "$BLOBC" bake lev
    # an option is offered once, though the help names it twice
    n=$(cd "$T" && complete_words "$BLOBC" gen c --h | wc -w)
    [ "$n" -eq 1 ] && pass options_once || fail options_once "$n words"
fi
for sh in zsh fish; do
    "$BLOBC" completion "$sh" >"$T/blobc.$sh" || fail "${sh}_script" "exit $?"
    if command -v "$sh" >/dev/null 2>&1; then
        expect "${sh}_reads_script" 0 "$sh" -n "$T/blobc.$sh"
    else
        skip "${sh}_reads_script" "$sh is not installed (make deps installs it)"
    fi
done
expect_err unknown_shell 2 "expected a shell: bash, zsh or fish, not tcsh" "$BLOBC" completion tcsh
