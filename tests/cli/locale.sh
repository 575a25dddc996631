# The library reads and writes numbers the same whatever LC_NUMERIC the
# program using it set: tests/tools/locale_bake.c under a German locale
# (decimal comma), built here with localedef, against the "C" locale.
. "$(dirname "$0")/lib.sh"
TOOL=$(cd "${BUILD:-build}" && pwd)/tools/locale_bake
if ! command -v localedef >/dev/null 2>&1 || [ ! -f /usr/share/i18n/locales/de_DE ]; then
    skip decimal_comma "localedef or the de_DE locale source is not installed"
    exit 0
fi
mkdir -p "$T/loc"
if ! localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >"$T/ld.log" 2>&1; then
    skip decimal_comma "localedef failed: $(head -c 200 "$T/ld.log")"
    exit 0
fi
expect c_locale 0 "$TOOL" C
cp "$T/out" "$T/c.out"
grep -q '^== program.s own 1.5: 1.5$' "$T/c.out" && pass c_locale_output ||
    fail c_locale_output "$(tail -3 "$T/c.out")"
# glibc keeps LOCPATH parsed for the life of the process, which
# LeakSanitizer (make asan) reports as a leak: not the library's.
echo 'leak:__argz_add_sep' >"$T/lsan.supp"
expect de_locale 0 env LOCPATH="$T/loc" LSAN_OPTIONS="suppressions=$T/lsan.supp" \
    "$TOOL" de_DE.UTF-8
# The program itself writes a comma: the locale took effect...
grep -q '^== program.s own 1.5: 1,5$' "$T/out" && pass de_locale_in_effect ||
    fail de_locale_in_effect "$(tail -3 "$T/out")"
# ... and the library's report, bakes and dumps are the same bytes.
grep -v '^== program' "$T/c.out" >"$T/c.lib"
grep -v '^== program' "$T/out" >"$T/de.lib"
same_file same_output_under_decimal_comma "$T/de.lib" "$T/c.lib"
grep -q '1500.0' "$T/c.lib" && grep -q 'c: 3.141592653589793' "$T/c.lib" && pass values_read ||
    fail values_read "$(head -20 "$T/c.lib")"
