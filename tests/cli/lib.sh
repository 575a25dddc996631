# Shared helpers for the CLI tests (sourced). Each check prints one
# "PASS name" or "FAIL name: why" line for tests/run.sh to count.
# $BLOBC is the binary under test; $TOP the source tree; every script gets
# a scratch directory $T that is removed on exit.
set -u
: "${BLOBC:=$(pwd)/build/blobc}"
: "${TOP:=$(pwd)}"
T=$(mktemp -d)
trap 'js_unchecked; rm -rf "$T"' EXIT
SUITE=$(basename "$0" .sh)

pass() { echo "PASS $SUITE.$1"; }
fail() { echo "FAIL $SUITE.$1: $2"; }
# skip NAME WHY : a check that cannot run here; counted and printed, never silent.
skip() { echo "SKIP $SUITE.$1: $2"; }
# True when $BLOBC is the Windows build run under Wine (make check-windows).
windows_build() { [ "${TARGET_OS:-}" = windows ]; }
# The compiler for programs that link $BUILD/libblobc.a: the host's for the
# Linux build, mingw-w64 for the Windows one, whose programs as_program
# then runs under Wine.
# (mingw-w64's signbit() converts to float in a branch it never takes,
# which -Wconversion would refuse.)
if windows_build; then
    LIB_CC="${CROSS:-x86_64-w64-mingw32-}gcc -Wno-float-conversion"
else
    LIB_CC=""
fi
# as_program PROG : after LIB_CC built PROG.exe, PROG starts it under Wine,
# its standard output without the CR that Windows' text mode puts before
# each "\n" (its exit status kept).
as_program() {
    windows_build && [ -f "$1.exe" ] || return 0
    printf '#!/bin/sh\n{ wine "%s.exe" "$@"; echo $? >"%s.rc"; } | tr -d "\\r"\nexit "$(cat "%s.rc")"\n' \
        "$1" "$1" "$1" >"$1"
    chmod +x "$1"
}

# same_as_reference NAME LANG SCHEMA FILE [GEN-ARGS...] : under make asan
# and make check-windows, REF_BLOBC is the plain Linux build, whose gen
# output make check compiles in the same run. When FILE (what $BLOBC's
# `gen LANG SCHEMA GEN-ARGS` wrote) is those bytes, a compiler here checks
# nothing new (a syntax check and C# are not instrumented, and a host
# compiler reads bytes, not the build that made them): passes NAME and
# returns 0. Returns 1, so that the caller compiles, without REF_BLOBC;
# fails NAME and returns 2 when the bytes differ.
same_as_reference() {
    [ -n "${REF_BLOBC:-}" ] && [ -x "$REF_BLOBC" ] || return 1
    _n=$1 _l=$2 _s=$3 _f=$4
    shift 4
    # gen cs writes a file per schema file beside FILE: each is compared
    # (a directory of its own: callers may run side by side)
    _d=$T/reference.$_n
    rm -rf "$_d" && mkdir -p "$_d"
    if ! "$REF_BLOBC" gen "$_l" "$_s" "$@" -o "$_d/${_f##*/}" 2>"$_d.err"; then
        fail "$_n" "the plain build's gen $_l $_s fails: $(head -c 300 "$_d.err")"
        return 2
    fi
    for _r in "$_d"/*; do
        if ! cmp -s "$_r" "${_f%/*}/${_r##*/}"; then
            fail "$_n" "gen $_l $_s: ${_r##*/} differs from the plain build's"
            return 2
        fi
    done
    pass "$_n"
}

# have_pty : script(1) can give a command a terminal here (a chroot or a
# container may have no /dev/pts, and script then fails at once).
have_pty() {
    command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1
}

# free_port : a free TCP port on 127.0.0.1 (python3).
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT : waits up to 10 s for a server to take connections on
# 127.0.0.1:PORT (python3); fails when none does.
wait_port() {
    for _ in $(seq 40); do
        python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" \
            2>/dev/null && return 0
        sleep 0.25
    done
    return 1
}

# run NAME CMD... : runs CMD, keeping stdout in $T/out, stderr in $T/err, exit code in $RC.
run() {
    "$@" >"$T/out" 2>"$T/err"
    RC=$?
}

# expect NAME WANT_RC CMD... : runs CMD and checks its exit code.
expect() {
    name=$1 want=$2
    shift 2
    run "$@"
    if [ "$RC" -eq "$want" ]; then pass "$name"; return 0; fi
    fail "$name" "exit $RC, want $want; stderr: $(head -c 400 "$T/err")"
    return 1
}

# rc_is NAME WANT_RC : after run, fails NAME unless the exit code is WANT_RC.
rc_is() {
    [ "$RC" -eq "$2" ] && return 0
    fail "$1" "exit $RC, want $2; stderr: $(head -c 400 "$T/err")"
    return 1
}

# expect_err NAME WANT_RC TEXT CMD... : exit code and a substring of stderr.
expect_err() {
    name=$1 want=$2 text=$3
    shift 3
    run "$@"
    rc_is "$name" "$want" || return 1
    if ! grep -qF -- "$text" "$T/err"; then
        fail "$name" "stderr lacks '$text'; got: $(head -c 400 "$T/err")"
        return 1
    fi
    pass "$name"
}

# expect_stderr NAME WANT_RC WANT CMD... : exit code and the whole stderr.
expect_stderr() {
    name=$1 want=$2 text=$3
    shift 3
    run "$@"
    rc_is "$name" "$want" || return 1
    if [ "$(cat "$T/err")" != "$text" ]; then
        fail "$name" "stderr '$(head -c 400 "$T/err")', want '$text'"
        return 1
    fi
    pass "$name"
}

# same_file NAME GOT WANT : byte-for-byte comparison.
same_file() {
    if cmp -s "$2" "$3"; then pass "$1"; else
        fail "$1" "$2 differs from $3 ($(cmp "$2" "$3" 2>&1 | head -1))"
    fi
}

# same_values NAME SCHEMA BLOB OUT EXIT MIN: OUT, the "path = value" lines
# a reader printed (exiting EXIT), holds exactly the values `dump --map`
# shows for BLOB (at least MIN of them; the header's left out).
same_values() {
    "$BLOBC" dump --map -s "$2" "$3" | cut -c72- | grep ' = ' | grep -v '^header\.' |
        sed 's/^\([^:]*\): [^=]* = /\1 = /' | LC_ALL=C sort >"$T/map.txt"
    LC_ALL=C sort "$4" >"$T/got.sorted"
    n=$(wc -l <"$T/map.txt" | tr -d ' ')
    if [ "$5" -eq 0 ] && [ "$n" -ge "$6" ] && cmp -s "$T/got.sorted" "$T/map.txt"; then
        pass "$1_$n"
    else
        fail "$1" "exit $5 $(head -c 300 "$T/err" 2>/dev/null); $(diff "$T/got.sorted" "$T/map.txt" | head -8)"
    fi
}

# The warnings that code using generated headers compiles without, as
# errors: GEN_WARN for C (and C compiled as C++), GEN_CXXWARN for C++.
GEN_WARN="-Wall -Wextra -Werror -pedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wundef"
GEN_CXXWARN="$GEN_WARN -Wold-style-cast -Wzero-as-null-pointer-constant"

# split_outputs LANG EXT : `gen LANG -o DIR/` writes one file per schema
# file. level.schema's go to $T/one/ (level.EXT and the common.EXT it
# imports, no dialogue.EXT), dialogue.schema's to $T/two/, and common.EXT
# is the same whichever schema imported it ($S: tests/data/split's schemas).
split_outputs() {
    mkdir -p "$T/one" "$T/two"
    expect gen_level_dir 0 "$BLOBC" gen "$1" "$S/level.schema" -o "$T/one/"
    expect gen_dialogue_dir 0 "$BLOBC" gen "$1" "$S/dialogue.schema" -o "$T/two/"
    [ -f "$T/one/level.$2" ] && [ -f "$T/one/common.$2" ] && [ ! -e "$T/one/dialogue.$2" ] &&
        pass files_named_after_schemas || fail files_named_after_schemas "$(ls "$T/one")"
    same_file imported_file_same_from_any_importer "$T/one/common.$2" "$T/two/common.$2"
}

# depfile_checks DEPFILE TARGET FILE... : the depfile's rule is for TARGET
# (depfile_target) and names every FILE as a prerequisite
# (depfile_lists_every_schema).
depfile_checks() {
    dep_d=$1 dep_t=$2
    shift 2
    head -1 "$dep_d" | grep -qF "$dep_t:" && pass depfile_target || fail depfile_target "$(head -1 "$dep_d")"
    for dep_f; do
        grep -qF "$dep_f" "$dep_d" || echo "$dep_f"
    done >"$T/missing"
    [ -s "$T/missing" ] && fail depfile_lists_every_schema "missing: $(cat "$T/missing")" ||
        pass depfile_lists_every_schema
}

# absent NAME PATH : a failed command left no output behind.
absent() {
    if [ -e "$2" ]; then fail "$1" "$2 exists"; else pass "$1"; fi
}

# js_agree NAME WANT_RC TEXT JSONSCHEMA SCHEMA DATA EDIT...: a real JSON
# Schema validator's verdict on DATA after the edits (exit WANT_RC, output
# holding TEXT), then bake's on the same edited data, which must agree
# (exit ${BAKE_RC:-WANT_RC}: set BAKE_RC where the JSON Schema is knowingly
# stricter). The case is recorded; js_flush, from the same directory,
# checks every recorded case with one Python process and reports each
# (a suite that exits with cases left unchecked fails).
JS_N=0
js_agree() {
    JS_N=$((JS_N + 1))
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "${BAKE_RC:-$2}" "$3" "$5" >>"$T/js.meta"
    js_case="$T/js-$JS_N.json	$4	$6"
    shift 6
    for e in "$@"; do js_case="$js_case	$e"; done
    printf '%s\n' "$js_case" >>"$T/js.cases"
}
js_flush() {
    [ -s "$T/js.cases" ] || return 0
    python3 "$TOP/tests/tools/jsonschema_check.py" --batch "$T/js.cases" >"$T/js.verdicts" 2>&1
    i=0
    while IFS='	' read -r name want bwant text sch; do
        i=$((i + 1))
        v=$(sed -n "${i}p" "$T/js.verdicts")
        rc=$(printf '%s\n' "$v" | cut -f1)
        if [ "$rc" != "$want" ] || ! printf '%s\n' "$v" | cut -f2- | grep -qF -- "$text"; then
            fail "$name" "validator exit ${rc:-none}, want $want: $(printf '%s' "${v:-$(head -c 300 "$T/js.verdicts")}" | head -c 300)"
            continue
        fi
        "$BLOBC" bake -s "$sch" "$T/js-$i.json" -o "$T/edited.blob" </dev/null >/dev/null 2>"$T/e"
        brc=$?
        if [ "$brc" -ne "$bwant" ]; then fail "$name" "bake exit $brc, want $bwant: $(head -c 300 "$T/e")"; continue; fi
        pass "$name"
    done <"$T/js.meta"
    rm -f "$T/js.meta" "$T/js.cases" "$T/js.verdicts" "$T"/js-*.json
    JS_N=0
}
# js_validator NAME JSONSCHEMA DATA : whether the real validator runs here
# (its exit 3: python3-jsonschema is missing, and NAME is skipped).
js_validator() {
    python3 "$TOP/tests/tools/jsonschema_check.py" "$2" "$3" >"$T/v.txt" 2>&1 || [ $? -ne 3 ] ||
        { skip "$1" "python3-jsonschema is not installed (make deps)"; return 1; }
}
js_unchecked() {
    [ ! -s "$T/js.cases" ] ||
        fail js_agree "$(wc -l <"$T/js.cases") cases recorded and never checked (js_flush)"
}

# find_compilers: CCS, the C compilers to try (the build's, gcc, clang) and
# CXXS, the C++ ones (g++, clang++), where installed, each once (cc is
# often gcc); fails without a C compiler, skips (counted) without C++.
find_compilers() {
    seen=""
    CCS=$(pick_installed "${CC:-cc}" gcc clang)
    seen=""
    CXXS=$(pick_installed g++ clang++)
    [ -n "$CCS" ] || fail c_compiler "no C compiler found"
    [ -n "$CXXS" ] || skip cxx_compiler "no C++ compiler (g++ or clang++): the C++ compiles are skipped"
}
pick_installed() {
    for c in "$@"; do
        path=$(command -v "$c" 2>/dev/null) || continue
        real=$(readlink -f "$path" 2>/dev/null || echo "$path")
        case " $seen " in *" $real "*) continue ;; esac
        seen="$seen $real"
        echo "$c"
    done
}
