# Schemas are small: every way a schema is read (check, -s, $schema,
# import, compat's operands, standard input) stops at the first binary
# byte with an error that says where, and at 16 MiB of text (the schema
# bound, docs/SCHEMA.md), regular files included, so a device or an endless
# pipe costs neither memory nor time. And a data file that is no regular
# file is never read a second time to show an error's source line (a FIFO
# would block for good, /dev/zero read on to the input limit).
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
printf 'struct R { x: u8; }\nroot R;\n' >s.schema
printf 'x: 1\n' >d.yaml
MAX="16 MiB"
if [ -c /dev/zero ]; then
    printf 'import "/dev/zero";\nstruct R { x: u8; }\nroot R;\n' >imp.schema
    expect_stderr import_dev_zero 1 'imp.schema:1:8: error: cannot import "/dev/zero": binary data at offset 0 (byte 0x00); expected schema text
    import "/dev/zero";
           ^' timeout 20 "$BLOBC" check imp.schema
    expect_stderr compat_dev_zero 1 "/dev/zero: error: binary data at offset 0 (byte 0x00); expected schema text or a blob" \
        timeout 20 "$BLOBC" compat s.schema /dev/zero
    expect_stderr dash_s_dev_zero 1 "/dev/zero: error: binary data at offset 0 (byte 0x00); expected schema text" \
        timeout 20 "$BLOBC" bake -s /dev/zero d.yaml -o z.blob
else
    skip dev_zero "no /dev/zero here"
fi
expect_stderr check_stdin_endless 1 "<stdin>: error: text of more than $MAX; expected schema text (at most $MAX)" \
    timeout 20 sh -c "yes '//' | exec '$BLOBC' check -"
expect_stderr compat_stdin_endless 1 "<stdin>: error: text of more than $MAX; expected schema text or a blob (at most $MAX)" \
    timeout 20 sh -c "yes '//' | exec '$BLOBC' compat s.schema -"
expect_stderr dash_s_stdin_endless 1 "<stdin>: error: text of more than $MAX; expected schema text (at most $MAX)" \
    timeout 20 sh -c "yes '//' | exec '$BLOBC' bake -s - d.yaml -o z.blob"
if [ -e /dev/stdin ]; then
    printf 'import "/dev/stdin";\nstruct R { x: u8; }\nroot R;\n' >imp2.schema
    expect_err import_pipe_endless 1 "imp2.schema:1:8: error: cannot import \"/dev/stdin\": text of more than $MAX; expected schema text" \
        timeout 20 sh -c "yes '//' | exec '$BLOBC' check imp2.schema"
else
    skip import_pipe_endless "no /dev/stdin here"
fi
absent no_output_from_bad_schema z.blob
# compat still takes either from a pipe: schema text, or a blob
expect compat_stdin_schema 0 sh -c "exec '$BLOBC' compat s.schema - <s.schema"
"$BLOBC" bake -s s.schema d.yaml -o d.blob || fail setup "bake"
expect compat_stdin_blob 0 sh -c "exec '$BLOBC' compat s.schema - <d.blob"
expect_err compat_stdin_control_byte 1 "-:3:1: error: unexpected character byte 0x01" \
    sh -c "printf 'struct R { x: u8; }\nroot R;\n\001' | exec '$BLOBC' compat s.schema -"

# a regular file: exactly the bound is a schema, one byte more is refused
# before it is read
{ cat s.schema; head -c $((16 * 1048576 - 28)) /dev/zero | tr '\0' ' '; } >at.schema
expect schema_at_bound 0 "$BLOBC" check at.schema
printf ' ' >>at.schema
expect_stderr schema_over_bound 1 "at.schema: error: text of more than $MAX; expected schema text (at most $MAX)" \
    "$BLOBC" check at.schema
rm -f at.schema

# an error in data from a FIFO: reported without reading the FIFO again
if mkfifo ff 2>/dev/null; then
    expect_stderr fifo_error_no_reread 1 "ff:2:1: error: invalid YAML: did not find expected node content (while parsing a flow node at ff:2:1)" \
        timeout 20 sh -c "printf 'x: [\n' >ff & exec '$BLOBC' bake -s s.schema ff -o z.blob"
else
    skip fifo_error_no_reread "mkfifo is not allowed here"
fi
