# Outputs and diagnostics a user can trust: the output rules (devices,
# FIFOs and links, an output that is an input), checked standard output,
# bounded reads of inputs that are not regular files, binary input, colour,
# no temporary file left by a signal, outputs known by identity, and the
# directories made for them.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
SCHEMA=schemas/level.schema

"$BLOBC" bake samples/level.yaml -o "$T/level.blob" || fail setup "cannot bake the sample"
cp "$T/level.blob" "$T/keep.blob"
cp "$SCHEMA" "$T/s.schema"

# ---- an output that is an input is refused before anything is written ----
expect_stderr dump_own_input 2 "$T/d.blob: error: refusing to overwrite input file '$T/d.blob'" \
    sh -c "cp '$T/level.blob' '$T/d.blob' && exec '$BLOBC' dump '$T/d.blob' -o '$T/d.blob'"
same_file dump_own_input_unchanged "$T/d.blob" "$T/keep.blob"
expect_stderr gen_own_input 2 "$T/s.schema: error: refusing to overwrite input file '$T/s.schema'" \
    "$BLOBC" gen c "$T/s.schema" -o "$T/s.schema"
same_file gen_own_input_unchanged "$T/s.schema" "$SCHEMA"
ln -s s.schema "$T/s.link"
expect_stderr gen_input_through_symlink 2 \
    "$T/s.link: error: refusing to overwrite input file '$T/s.schema' (the output '$T/s.link' is the same file)" \
    "$BLOBC" gen c "$T/s.schema" -o "$T/s.link"
ln "$T/d.blob" "$T/hard.blob"
expect_err dump_input_through_hard_link 2 "refusing to overwrite input file '$T/d.blob'" \
    "$BLOBC" dump "$T/d.blob" -o "$T/hard.blob"
expect_err dump_schema_is_input 2 "refusing to overwrite input file '$T/s.schema'" \
    "$BLOBC" dump -s "$T/s.schema" "$T/d.blob" -o "$T/s.schema"
same_file dump_schema_unchanged "$T/s.schema" "$SCHEMA"
# a file the schema imports is an input too, for every command that writes
mkdir -p "$T/imp"
printf 'struct C { x: u8; }\n' >"$T/imp/common.schema"
printf 'import "common.schema";\nstruct R { c: C; }\nroot R;\n' >"$T/imp/main.schema"
printf 'c: {x: 1}\n' >"$T/imp/d.yaml"
cp "$T/imp/common.schema" "$T/imp/keep.schema"
"$BLOBC" bake -s "$T/imp/main.schema" "$T/imp/d.yaml" -o "$T/imp/d.blob" || fail setup "cannot bake the import test"
I=$T/imp
imported() { # NAME ARGS...: blobc ARGS -o the imported file is refused
    name=imported_schema_is_input_$1
    shift
    expect_err "$name" 2 "refusing to overwrite input file '$I/common.schema'" "$BLOBC" "$@" -o "$I/common.schema"
    same_file "${name}_unchanged" "$I/common.schema" "$I/keep.schema"
    cp "$I/keep.schema" "$I/common.schema"
}
imported bake bake -s "$I/main.schema" "$I/d.yaml"
imported dump dump "$I/d.blob" -s "$I/main.schema"
imported html dump --html "$I/d.blob" -s "$I/main.schema"
imported size size "$I/d.blob" -s "$I/main.schema"
imported jsonschema gen jsonschema "$I/main.schema"
imported gen_c gen c "$I/main.schema"
imported upgrade upgrade "$I/d.blob" -s "$I/main.schema"

# ---- devices, FIFOs and links ----
if [ "$(id -u)" = 0 ]; then
    expect bake_to_dev_null 0 "$BLOBC" bake samples/level.yaml -o /dev/null
    if [ -c /dev/null ]; then pass dev_null_stays_a_device; else
        fail dev_null_stays_a_device "/dev/null is no longer a character device"
        rm -f /dev/null && mknod -m 666 /dev/null c 1 3
    fi
else
    skip bake_to_dev_null "needs root (a user cannot replace /dev/null anyway)"
fi
expect_err bake_to_dev_full 2 "cannot write '/dev/full': No space left on device" \
    "$BLOBC" bake samples/level.yaml -o /dev/full
if mkfifo "$T/fifo" 2>/dev/null; then
    cat "$T/fifo" >"$T/from_fifo" &
    reader=$!
    expect bake_to_fifo 0 "$BLOBC" bake samples/level.yaml -o "$T/fifo"
    wait $reader
    same_file fifo_reader_got_the_blob "$T/from_fifo" "$T/level.blob"
    if [ -p "$T/fifo" ]; then pass fifo_stays_a_fifo; else fail fifo_stays_a_fifo "replaced"; fi
else
    skip bake_to_fifo "mkfifo is not available here"
fi
echo old >"$T/target.blob"
ln -s target.blob "$T/link.blob"
expect bake_through_symlink 0 "$BLOBC" bake samples/level.yaml -o "$T/link.blob"
if [ -L "$T/link.blob" ]; then pass symlink_stays_a_link; else fail symlink_stays_a_link "replaced"; fi
same_file symlink_target_written "$T/target.blob" "$T/level.blob"
chmod 640 "$T/target.blob"
"$BLOBC" bake samples/level.yaml -o "$T/target.blob"
if windows_build; then
    skip replaced_file_keeps_mode "Windows files have no permission bits (a replacement takes the folder's inherited ACL)"
else
    case "$(ls -l "$T/target.blob")" in -rw-r-----*) pass replaced_file_keeps_mode ;;
    *) fail replaced_file_keeps_mode "$(ls -l "$T/target.blob")" ;; esac
fi

# A batch asks for each replaced output's permissions when it creates the
# new file, and sets them only where the umask takes bits away: every
# mode comes out as it was, whatever the umask and the order.
if windows_build; then
    skip batch_replaced_files_keep_modes "Windows files have no permission bits"
else
    mkdir -p "$T/modes/in" "$T/modes/out"
    modes="644 666 640 600 604 755 444 660 622"
    for m in $modes; do cp samples/level.yaml "$T/modes/in/m$m.yaml"; done
    for mask in 022 077 000; do
        "$BLOBC" bake -q -s "$SCHEMA" -o "$T/modes/out" "$T/modes/in"/*.yaml
        for m in $modes; do chmod "$m" "$T/modes/out/m$m.blob"; done
        (umask $mask && "$BLOBC" bake -q -j 2 -s "$SCHEMA" -o "$T/modes/out" "$T/modes/in"/*.yaml)
        got=$(for m in $modes; do stat -c %a "$T/modes/out/m$m.blob"; done | tr '\n' ' ')
        if [ "$got" = "$modes " ]; then pass "batch_replaced_files_keep_modes_umask_$mask"; else
            fail "batch_replaced_files_keep_modes_umask_$mask" "modes $got, expected $modes"; fi
    done
fi

# ---- every write to standard output is checked ----
FULL="blobc: error: cannot write standard output: No space left on device"
if windows_build; then
    skip help_to_dev_full "/dev/full is a Linux device; Wine reports its error as an I/O error"
elif [ -c /dev/full ]; then
    expect_stderr gen_to_dev_full 2 "$FULL" sh -c "exec '$BLOBC' gen c '$SCHEMA' >/dev/full"
    expect_stderr check_to_dev_full 2 "$FULL" sh -c "exec '$BLOBC' check '$SCHEMA' >/dev/full"
    expect_stderr verify_json_to_dev_full 2 "$FULL" \
        sh -c "exec '$BLOBC' verify --json '$T/level.blob' >/dev/full"
    expect_stderr verify_to_dev_full 2 "$FULL" sh -c "exec '$BLOBC' verify '$T/level.blob' >/dev/full"
    expect_stderr dump_to_dev_full 2 "$FULL" sh -c "exec '$BLOBC' dump '$T/level.blob' >/dev/full"
    expect_stderr help_to_dev_full 2 "$FULL" sh -c "exec '$BLOBC' bake --help >/dev/full"
else
    skip stdout_to_dev_full "no /dev/full here"
fi

# ---- bounded reading ----
if [ -c /dev/zero ]; then
    expect_stderr verify_dev_zero 1 "/dev/zero: offset 0x0: error: bad-magic: not a blob file (bad magic number)" \
        timeout 20 "$BLOBC" verify /dev/zero
    expect_stderr dump_dev_zero 1 "/dev/zero: offset 0x0: error: not a blob file (bad magic number)" \
        timeout 20 "$BLOBC" dump /dev/zero
    expect_stderr check_dev_zero 1 "/dev/zero: error: binary data at offset 0 (byte 0x00); expected schema text" \
        timeout 20 "$BLOBC" check /dev/zero
    expect_stderr bake_dev_zero 1 "/dev/zero: error: binary data at offset 0 (byte 0x00); expected YAML or JSON text" \
        timeout 20 "$BLOBC" bake -s "$SCHEMA" /dev/zero -o "$T/z.blob"
    printf '$schema: /dev/zero\nindex: 1\n' >"$T/zs.yaml"
    expect_stderr schema_dev_zero 1 "/dev/zero: error: binary data at offset 0 (byte 0x00); expected schema text" \
        timeout 20 "$BLOBC" bake "$T/zs.yaml" -o "$T/z.blob"
    expect_stderr raw_dump_dev_zero_limited 2 \
        "/dev/zero: error: input is larger than the maximum input size of 64 KiB (not a regular file, so read up to that limit; see --max-input)" \
        timeout 20 "$BLOBC" dump --raw -s "$SCHEMA" --max-input 64K /dev/zero
    expect_stderr json_pipe_then_zeros 1 "<stdin>: error: binary data at offset 7 (byte 0x00); expected YAML or JSON text" \
        timeout 20 sh -c "(printf '{\"a\": 1'; cat /dev/zero 2>/dev/null) | exec '$BLOBC' bake -s '$SCHEMA' - -o '$T/z.blob'"
    absent no_output_from_dev_zero "$T/z.blob"
else
    skip dev_zero "no /dev/zero here"
fi
# A pipe: text past --max-input is refused; a blob stops at its file size.
expect_stderr bake_pipe_over_limit 2 \
    "<stdin>: error: input is larger than the maximum input size of 1 KiB (not a regular file, so read up to that limit; see --max-input)" \
    sh -c "cat samples/level.yaml | exec '$BLOBC' bake --max-input=1K -s '$SCHEMA' - -o '$T/p.blob'"
expect bake_pipe_under_limit 0 sh -c "cd samples && cat level.yaml | exec '$BLOBC' bake --max-input 1M - -o '$T/p.blob'"
same_file bake_pipe_same_blob "$T/p.blob" "$T/level.blob"
expect verify_pipe_stops_at_file_size 0 \
    sh -c "(cat '$T/level.blob'; yes garbage | head -c 100000) | exec '$BLOBC' verify -"
expect_err max_input_bad_value 2 "invalid --max-input '12Q'" "$BLOBC" verify --max-input 12Q "$T/level.blob"
expect_err max_input_zero 2 "invalid --max-input '0'" "$BLOBC" check --max-input=0 "$SCHEMA"

# ---- binary input ----
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$T/image.yaml"
expect_stderr bake_binary 1 "$T/image.yaml: error: binary data at offset 0 (byte 0x89); expected YAML or JSON text" \
    "$BLOBC" bake -s "$SCHEMA" "$T/image.yaml" -o "$T/img.blob"
expect_stderr bake_blob_as_data 1 "$T/level.blob: error: binary data at offset 0 (byte 0x89); expected YAML or JSON text" \
    "$BLOBC" bake -s "$SCHEMA" "$T/level.blob" -o "$T/img.blob"
expect_stderr check_blob_as_schema 1 "$T/level.blob: error: binary data at offset 0 (byte 0x89); expected schema text" \
    "$BLOBC" check "$T/level.blob"

# ---- colour ----
printf 'struct A { x: float; }\n' >"$T/f.schema"
E=$(printf '\033')
expect_stderr color_always 1 "${E}[01m${E}[K$T/f.schema:1:15:${E}[m${E}[K ${E}[01;31m${E}[Kerror:${E}[m${E}[K unknown type 'float'; did you mean ${E}[01;32m${E}[K'f32'${E}[m${E}[K?
    struct A { x: float; }
                  ${E}[01;32m${E}[K^${E}[m${E}[K" "$BLOBC" check --color=always "$T/f.schema"
expect_stderr color_auto_not_a_terminal 1 "$T/f.schema:1:15: error: unknown type 'float'; did you mean 'f32'?
    struct A { x: float; }
                  ^" "$BLOBC" check "$T/f.schema"
expect_stderr color_never 1 "$T/f.schema:1:15: error: unknown type 'float'; did you mean 'f32'?
    struct A { x: float; }
                  ^" "$BLOBC" check --color=never "$T/f.schema"
run env NO_COLOR=1 "$BLOBC" check --color=always "$T/f.schema"
if grep -q "$E" "$T/err"; then pass always_beats_no_color; else fail always_beats_no_color "no colour"; fi
# CLICOLOR_FORCE colours a pipe (ninja's); NO_COLOR and --color=never win
run env CLICOLOR_FORCE=1 "$BLOBC" check "$T/f.schema"
grep -q "${E}\[01;31m" "$T/err" && pass clicolor_force_colours_a_pipe || fail clicolor_force_colours_a_pipe "$(head -c 200 "$T/err")"
run env CLICOLOR_FORCE=0 "$BLOBC" check "$T/f.schema"
grep -q "$E" "$T/err" && fail clicolor_force_0 "coloured" || pass clicolor_force_0
run env CLICOLOR_FORCE=1 NO_COLOR=1 "$BLOBC" check "$T/f.schema"
grep -q "$E" "$T/err" && fail no_color_beats_clicolor_force "coloured" || pass no_color_beats_clicolor_force
run env CLICOLOR_FORCE=1 "$BLOBC" check --color=never "$T/f.schema"
grep -q "$E" "$T/err" && fail never_beats_clicolor_force "coloured" || pass never_beats_clicolor_force
if windows_build; then
    skip no_color_on_terminal "Wine's console on a Unix terminal writes escape sequences of its own"
elif have_pty; then
    script -qec "NO_COLOR=1 '$BLOBC' check '$T/f.schema'" /dev/null >"$T/tty" 2>&1
    if grep -q "$E\[" "$T/tty"; then fail no_color_on_terminal "coloured"; else pass no_color_on_terminal; fi
    script -qec "TERM=xterm '$BLOBC' check '$T/f.schema'" /dev/null >"$T/tty" 2>&1
    if grep -q "$E\[01;31m" "$T/tty"; then pass auto_colours_a_terminal; else
        fail auto_colours_a_terminal "$(head -c 200 "$T/tty")"; fi
else
    skip color_on_terminal "no script(1) or no pseudo-terminal here to give blobc a terminal"
fi
expect_err color_bad_value 2 "invalid --color 'sometimes'" "$BLOBC" verify --color=sometimes "$T/level.blob"
expect_err color_on_bake 1 "${E}[01;31m" "$BLOBC" bake --color -s "$SCHEMA" "$T/image.yaml" -o "$T/img.blob"

# ---- one output under two spellings is one output ----
# Inputs whose outputs are one file, however spelled (./x, x//, a
# symbolic link to x, y/../x, an absolute path, a link at the output), are
# refused before anything is written.
mkdir -p "$T/id/x" "$T/id/o"
ln -s x "$T/id/y"
printf 'struct P { n: u32; }\nroot P;\n' >"$T/id/p.schema"
printf '$schema: ../p.schema\nn: 1\n' >"$T/id/x/a.yaml"
printf '{"$schema": "../p.schema", "n": 2}' >"$T/id/x/a.json"
for second in ./x/a.json x//a.json y/a.json y/../x/a.json "$T/id/x/a.json"; do
    label=$(printf '%s' "$second" | tr -c 'a-z' '_')
    expect_err "same_output_$label" 2 "inputs 'x/a.yaml' and '$second' would both be written to 'x/a.blob'" \
        sh -c 'cd "$0" && exec "$@"' "$T/id" "$BLOBC" bake x/a.yaml "$second"
    absent "same_output_${label}_nothing_written" "$T/id/x/a.blob"
done
cp "$T/id/x/a.json" "$T/id/x/b.json"
ln -s a.blob "$T/id/o/b.blob"
if windows_build; then
    skip same_output_through_link "a link to an output not written yet has no final path on Windows"
else
    expect_err same_output_through_link 2 "would both be written to '$T/id/o/a.blob' (also named '$T/id/o/b.blob')" \
        "$BLOBC" bake -o "$T/id/o" "$T/id/x/a.yaml" "$T/id/x/b.json"
fi
expect different_outputs_one_directory 0 "$BLOBC" bake "$T/id/x/a.yaml" "$T/id/y/b.json"

# ---- missing directories above an output are made ----
expect mkdir_for_output_file 0 "$BLOBC" bake samples/level.yaml -o "$T/mk/a/b/level.blob"
same_file mkdir_output_file_written "$T/mk/a/b/level.blob" "$T/level.blob"
expect mkdir_trailing_slash 0 "$BLOBC" bake samples/level.yaml -o "$T/mk/dir/"
same_file mkdir_trailing_slash_written "$T/mk/dir/level.blob" "$T/level.blob"
expect mkdir_for_batch 0 "$BLOBC" bake -o "$T/mk/batch" samples/level.yaml "$T/id/x/a.yaml"
[ -f "$T/mk/batch/level.blob" ] && [ -f "$T/mk/batch/a.blob" ] && pass mkdir_batch_written ||
    fail mkdir_batch_written "$(ls -R "$T/mk" 2>&1)"
expect mkdir_for_depfile 0 "$BLOBC" bake samples/level.yaml -o "$T/mk/d.blob" --depfile "$T/mk/deps/d.d"
[ -f "$T/mk/deps/d.d" ] && pass mkdir_depfile_written || fail mkdir_depfile_written "no depfile"
expect mkdir_for_dump 0 "$BLOBC" dump "$T/level.blob" -o "$T/mk/dump/level.yaml"
expect mkdir_for_gen 0 "$BLOBC" gen c "$SCHEMA" -o "$T/mk/gen/level.h"
expect_err mkdir_not_for_failed_bake 1 "error" "$BLOBC" bake -s "$SCHEMA" "$T/image.yaml" -o "$T/mk/failed/x.blob"
absent mkdir_failed_bake_makes_nothing "$T/mk/failed"
expect_err mkdir_file_in_the_way 2 "Not a directory" "$BLOBC" bake samples/level.yaml -o "$T/level.blob/x.blob"
expect_err mkdir_several_into_file 2 "-o '$T/level.blob' is not a directory" \
    "$BLOBC" bake -o "$T/level.blob" samples/level.yaml "$T/id/x/a.yaml"

# ---- a signal during a batch leaves no temporary file ----
# leftovers DIR: the hidden files in DIR.
leftovers() { ls -A "$1" | grep '^\.' ; }
mkdir -p "$T/sig/in" "$T/sig/out"
printf 'struct P { n: u32; name: string; }\nroot P;\n' >"$T/sig/p.schema"
i=0
# Enough inputs that a batch is still writing when the signal comes,
# however fast each bake is.
while [ $i -lt 600 ]; do printf 'n: %d\nname: x\n' $i >"$T/sig/in/a$i.yaml"; i=$((i + 1)); done
bake_all() { "$BLOBC" bake -q -j 2 -s "$T/sig/p.schema" -o "$T/sig/out" "$T/sig/in"/*.yaml; }
if "$BUILD/tools/tmpfile_probe" "$T/sig"; then
    bake_all
    # kills SIGNAL RUNS FRESH [PREFIX...] : RUNS batches, each ended by
    # SIGNAL once it has written a random number of its outputs, up to
    # half (FRESH: with no outputs there before). Sets $landed (batches the
    # signal ended) and $dirty (batches that left a hidden file; the names
    # kept in $T/left).
    kills() {
        sig=$1 runs=$2 fresh=$3
        shift 3
        landed=0 dirty=0
        : >"$T/left"
        for k in $(awk -v n="$runs" 'BEGIN { srand(); for (i = 0; i < n; i++) printf "%d ", 1 + int(rand() * 75) }'); do
            [ "$fresh" = fresh ] && rm -rf "$T/sig/out"
            "$@" "$BLOBC" bake -v -q -j 2 -s "$T/sig/p.schema" -o "$T/sig/out" "$T/sig/in"/*.yaml 2>"$T/written" &
            pid=$!
            # -v names each output once written; bounded if none comes.
            polls=0
            while [ $polls -lt 5000 ] && [ "$(wc -l <"$T/written")" -lt "$k" ]; do polls=$((polls + 1)); done
            kill -"$sig" $pid 2>/dev/null
            wait $pid 2>/dev/null
            [ $? -gt 128 ] && landed=$((landed + 1))
            if [ -d "$T/sig/out" ] && [ -n "$(leftovers "$T/sig/out")" ]; then
                dirty=$((dirty + 1))
                leftovers "$T/sig/out" >>"$T/left"
                [ "$sig" = KILL ] || rm -f "$T/sig/out"/.a*.blob.*
            fi
        done
    }
    for sig in TERM HUP INT; do
        prefix=""
        if [ $sig != TERM ]; then
            # A shell starts a background command with SIGINT ignored, and
            # under nohup SIGHUP is ignored too: blobc rightly keeps both.
            if env --default-signal=$sig true 2>/dev/null; then prefix="env --default-signal=$sig"; else
                skip signal_${sig}_leaves_nothing "env --default-signal is not available (coreutils 8.31)"
                continue
            fi
        fi
        bake_all
        # shellcheck disable=SC2086
        kills $sig 6 existing $prefix
        if [ $landed -eq 0 ]; then fail "signal_${sig}_leaves_nothing" "no signal landed mid-batch"
        elif [ $dirty -eq 0 ]; then pass "signal_${sig}_leaves_nothing"
        else fail "signal_${sig}_leaves_nothing" "$dirty of $landed batches left $(head -3 "$T/left")"; fi
    done
    # SIGKILL while replacing: only a .NAME.blobc-tmp caught between its two
    # system calls can be left, and the next write of NAME removes it.
    bake_all
    kills KILL 6 existing
    if [ $landed -eq 0 ]; then fail sigkill_leaves_only_fixed_temps "no signal landed mid-batch"
    elif grep -qv '^\..*\.blob\.blobc-tmp$' "$T/left"; then
        fail sigkill_leaves_only_fixed_temps "$(grep -v 'blobc-tmp$' "$T/left" | head -3)"
    else
        pass sigkill_leaves_only_fixed_temps
    fi
    bake_all
    if [ -z "$(leftovers "$T/sig/out")" ]; then pass sigkill_leftovers_removed_by_next_write; else
        fail sigkill_leftovers_removed_by_next_write "$(leftovers "$T/sig/out" | head -3)"; fi
    expect killed_batches_outputs_whole 0 "$BLOBC" verify -s "$T/sig/p.schema" "$T/sig/out"/*.blob
    # SIGKILL: a new output never has another name, so nothing is left.
    kills KILL 4 fresh
    if [ $landed -gt 0 ] && [ $dirty -eq 0 ]; then pass sigkill_new_outputs_leave_nothing; else
        fail sigkill_new_outputs_leave_nothing "$dirty of $landed batches left $(head -3 "$T/left")"; fi
else
    skip signals_leave_nothing "the file system of $T has no O_TMPFILE"
fi

# Under ninja, which reads a command's errors through a pipe: coloured
# with CLICOLOR_FORCE=1 (which ninja passes on and obeys itself).
if command -v ninja >/dev/null 2>&1; then
    mkdir -p "$T/nj"
    cp "$T/f.schema" "$T/nj/f.schema"
    printf 'rule check\n  command = %s check $in\nbuild f.ok: check f.schema\n' "$BLOBC" >"$T/nj/build.ninja"
    (cd "$T/nj" && CLICOLOR_FORCE=1 ninja >"$T/nj.out" 2>&1)
    grep -q "${E}\[01;31m${E}\[Kerror:" "$T/nj.out" && pass ninja_colours_with_clicolor_force ||
        fail ninja_colours_with_clicolor_force "$(head -c 300 "$T/nj.out")"
    (cd "$T/nj" && ninja >"$T/nj.out" 2>&1)
    grep -q "$E" "$T/nj.out" && fail ninja_plain_without "coloured" || pass ninja_plain_without
else
    skip ninja_colours_with_clicolor_force "ninja is not installed (make deps installs it)"
fi
