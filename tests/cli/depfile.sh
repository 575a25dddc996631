# Depfile names under real make and ninja, one tiny project per special
# character: the output, the input and the schema (a dependency that only
# the depfile names) all carry it. Each project is built, built again (a
# no-op must bake nothing), then the schema is touched (exactly one bake).
# Every byte that no spelling carries through both tools is refused, with
# nothing written; the printable ASCII bytes are all covered, one of the
# two lists holding each.
. "$(dirname "$0")/lib.sh"
PATH=$(dirname "$BLOBC"):$PATH
export PATH
unset MAKEFLAGS MFLAGS MAKELEVEL

have_make=false have_ninja=false
command -v make >/dev/null 2>&1 && have_make=true
command -v ninja >/dev/null 2>&1 && have_ninja=true
$have_make || skip make_reads_depfiles "make not installed"
$have_ninja || skip ninja_reads_depfiles "ninja not installed (make deps installs ninja-build)"

printf 'struct P { v: u32; }\nroot P;\n' >"$T/base.schema"
later() { sleep 0.02; touch -- "$@"; }
bakes() { grep -c 'blobc bake' "$1"; }

# steps NAME TOOL DIR CMD... : first build bakes 1, a no-op 0, touching the
# schema 1, and a no-op again 0.
steps() {
    name=$1 tool=$2 dir=$3
    shift 3
    want="1 0 1 0" got=""
    for step in 1 2 3 4; do
        [ "$step" = 3 ] && later "$dir/$schema"
        (cd "$dir" && "$@") >"$dir/$tool.log" 2>&1
        got="$got${got:+ }$(bakes "$dir/$tool.log")"
    done
    if [ "$got" = "$want" ]; then pass "$name"; else
        fail "$name" "bakes per step: $got, want $want; last log: $(head -c 300 "$dir/$tool.log")"
    fi
}

# accepted LABEL PIECE : a project with PIECE in every name.
accepted() {
    label=$1 piece=$2
    d="$T/ok-$label"
    mkdir "$d"
    schema="s${piece}x.schema" in="n${piece}m.yaml" out="n${piece}m.blob"
    cp "$T/base.schema" "$d/$schema"
    printf '$schema: "%s"\nv: 1\n' "$(printf '%s' "$schema" | sed 's/\\/\\\\/g')" >"$d/$in"
    if $have_make; then
        printf '%%.blob: %%.yaml\n\tblobc bake '\''$<'\'' -o '\''$@'\'' --depfile dep.d\n-include dep.d\n' \
            >"$d/Makefile"
        steps "make_$label" make "$d" make -- "$out"
    fi
    if $have_ninja; then
        esc() { printf '%s' "$1" | sed 's/\$/$$/g; s/ /$ /g; s/:/$:/g'; }
        printf 'rule bake\n  command = blobc bake $in -o $out --depfile $out.d\n  depfile = $out.d\nbuild %s: bake %s\n' \
            "$(esc "$out")" "$(esc "$in")" >"$d/build.ninja"
        rm -f "$d/$out"
        steps "ninja_$label" ninja "$d" ninja
    fi
}

accepted space ' '
accepted two_spaces '  '
accepted hash '#'
accepted dollar '$'
accepted colon ':'
accepted backslash '\'
accepted backslash_space '\ '
accepted two_backslashes_space '\\ '
accepted bang '!'
accepted parens '(x)'
accepted plus '+'
accepted comma ','
accepted at '@'
accepted bracket_close ']'
accepted braces '{}'
accepted tilde '~'
accepted dot_dash '.-_'
accepted utf8 "$(printf '\303\251')"

# A leading space or colon, and a '(' first (not an archive member).
d="$T/ok-lead"
mkdir "$d"
n=0
for s in ' lead.schema' ':lead.schema' '(lead).schema'; do
    n=$((n + 1))
    printf 'struct P%d { v: u32; }\n' $n >"$d/$s"
done
printf 'import " lead.schema";\nimport ":lead.schema";\nimport "(lead).schema";\nstruct Q { p: P1; q: P2; r: P3; }\nroot Q;\n' >"$d/main.schema"
printf '$schema: main.schema\np: {v: 1}\nq: {v: 2}\nr: {v: 3}\n' >"$d/a.yaml"
# lead NAME TOOL CMD... : one bake, then per schema a no-op and a rebake.
lead() {
    name=$1 tool=$2
    shift 2
    rm -f "$d/a.blob"
    (cd "$d" && "$@") >"$d/$tool.log" 2>&1
    got=$(bakes "$d/$tool.log")
    for s in ' lead.schema' ':lead.schema' '(lead).schema'; do
        (cd "$d" && "$@") >"$d/$tool.log" 2>&1
        got="$got $(bakes "$d/$tool.log")"
        later "$d/$s"
        (cd "$d" && "$@") >"$d/$tool.log" 2>&1
        got="$got $(bakes "$d/$tool.log")"
    done
    if [ "$got" = "1 0 1 0 1 0 1" ]; then pass "$name"; else
        fail "$name" "bakes per step: $got; $(head -c 300 "$d/$tool.log")"; fi
}
if $have_make; then
    printf 'a.blob: a.yaml\n\tblobc bake $< --depfile a.d\n-include a.d\n' >"$d/Makefile"
    lead make_leading_space_colon_paren make make
fi
if $have_ninja; then
    printf 'rule bake\n  command = blobc bake $in --depfile a.d\n  depfile = a.d\nbuild a.blob: bake a.yaml\n' \
        >"$d/build.ninja"
    lead ninja_leading_space_colon_paren ninja ninja
fi

# refused LABEL NAME : a schema NAME (relative, as $schema names them) is
# refused, naming it, and nothing is written.
refused() {
    label=$1 name=$2
    d="$T/no-$label"
    mkdir "$d"
    cp "$T/base.schema" "$d/$name"
    printf 'v: 3\n' >"$d/in.yaml"
    expect_err "refuses_$label" 2 "cannot list" sh -c 'cd "$0" && exec "$@"' "$d" \
        "$BLOBC" bake -s "$name" in.yaml -o out.blob --depfile out.d
    if [ -e "$d/out.blob" ] || [ -e "$d/out.d" ]; then
        fail "refuses_${label}_writes_nothing" "$(ls "$d")"
    else
        pass "refuses_${label}_writes_nothing"
    fi
}
refused tab "$(printf 'a\tb')"
refused newline "$(printf 'a\nb')"
refused cr "$(printf 'a\rb')"
refused control "$(printf 'a\001b')"
refused del "$(printf 'a\177b')"
refused quote 'a"b'
refused apostrophe "a'b"
refused ampersand 'a&b'
refused star 'a*b'
refused question 'a?b'
refused semicolon 'a;b'
refused less 'a<b'
refused greater 'a>b'
refused caret 'a^b'
refused backquote 'a`b'
refused bar 'a|b'
refused equals 'a=b'
refused percent 'a%b'
refused bracket_open 'a[1]b'
refused leading_tilde '~a'
refused trailing_backslash 'a\'
refused trailing_colon 'a:'
refused trailing_space 'a '
refused backslash_hash 'a\#b'
refused backslash_colon 'a\:b'
refused backslash_dollar 'a\$b'
refused archive_member 'lib(member)'
expect_stderr refusal_says_why 2 \
    "out.d: error: cannot list 'a|b' in a depfile: it holds \"|\", and make and ninja cannot both read such a name back (blobc(1), --depfile)" \
    sh -c 'cd "$0" && exec "$@"' "$T/no-bar" "$BLOBC" bake -s 'a|b' in.yaml -o out.blob --depfile out.d
# The output and the input are names in the depfile too.
expect_err refuses_output_name 2 'cannot list' \
    "$BLOBC" bake -s "$T/base.schema" "$T/no-bar/in.yaml" -o "$T/no-bar/o;p.blob" --depfile "$T/no-bar/o.d"
absent refused_output_not_written "$T/no-bar/o;p.blob"
cp "$T/no-bar/in.yaml" "$T/no-bar/i=n.yaml"
expect_err refuses_input_name 2 'cannot list' \
    "$BLOBC" bake -s "$T/base.schema" "$T/no-bar/i=n.yaml" --depfiles
absent refused_input_not_baked "$T/no-bar/i=n.blob"

# A depfile that is the output, or an input, is refused before anything is
# written: the blob is never replaced by the depfile's text, and a failed
# bake leaves no output behind.
mkdir -p "$T/same"
cp "$T/no-bar/in.yaml" "$T/same/in.yaml"
expect_err depfile_is_output 2 "the output and the depfile of input '$T/same/in.yaml' would both be written to '$T/same/o.blob' (also named '$T/same/./o.blob')" \
    "$BLOBC" bake -s "$T/base.schema" "$T/same/in.yaml" -o "$T/same/o.blob" --depfile "$T/same/./o.blob"
absent depfile_is_output_nothing_written "$T/same/o.blob"
rm -f "$T/same/o.blob"
expect_err depfile_is_input 2 "refusing to overwrite input file '$T/same/in.yaml'" \
    "$BLOBC" bake -s "$T/base.schema" "$T/same/in.yaml" -o "$T/same/o.blob" --depfile "$T/same/in.yaml"
absent depfile_is_input_nothing_written "$T/same/o.blob"

# Every printable ASCII byte is in one list or the other.
covered=' #$:\!(x)+,@]{}~.-_"'"'"'&*?;<>^`|=%['
missing=""
for c in $(seq 33 126); do
    ch=$(printf "\\$(printf %03o "$c")")
    case "$ch" in [a-zA-Z0-9/]) continue ;; esac
    case "$covered" in *"$ch"*) ;; *) missing="$missing$ch" ;; esac
done
if [ -z "$missing" ]; then pass every_printable_byte_covered; else
    fail every_printable_byte_covered "not tested: $missing"; fi
