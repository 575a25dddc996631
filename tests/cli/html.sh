# blobc dump --html: one self-contained page, checked in a real browser.
# Chromium renders the page headless: the DOM its script built has a row
# per field of `dump --map` (the same count, the same paths and values),
# links to offsets' targets, the treemap of `blobc size`; a screenshot is
# not blank. Strings and names from the blob are text, never markup (a
# blob holding </script> and <img onerror>); nothing is loaded from
# outside; a blob that fails verification gives the error and no page.
. "$(dirname "$0")/lib.sh"
S=$TOP/schemas
C=$TOP/tests/bad/blob

# --- what needs no browser ---
expect page 0 "$BLOBC" dump --html "$TOP/samples/level.blob" -o "$T/level.html"
head -c 15 "$T/level.html" | grep -q '^<!DOCTYPE html>' && pass page_doctype || fail page_doctype "$(head -c 80 "$T/level.html")"
# self-contained: no address of anything outside, no src or href at all
if grep -qiE 'https?://|(src|href)[[:space:]]*=' "$T/level.html"; then
    fail self_contained "$(grep -oiE '.{20}(https?://|(src|href) *=).{20}' "$T/level.html" | head -3)"
else
    pass self_contained
fi
expect_err html_bad 1 "bool byte is 2" "$BLOBC" dump --html "$C/bool_2.blob" -o "$T/bad.html"
absent html_bad_no_page "$T/bad.html"
expect_err html_map_exclusive 2 "--json, --map and --html are exclusive" "$BLOBC" dump --html --map "$TOP/samples/level.blob"

# a blob whose strings and schema name are markup
mkdir -p "$T/h"
# (Windows file names cannot hold < or >: there the name holds an &)
EVS='x<img src=q onerror=alert(2)>.schema' EVS_DOM='x&lt;img src=q onerror=alert(2)&gt;.schema'
windows_build && EVS='x&q=alert(2).schema' EVS_DOM='x&amp;q=alert(2).schema'
cp "$S/level.schema" "$T/h/$EVS"
evs_sed=$(printf '%s' "$EVS" | sed 's/&/\\&/g')
sed -e "s|^\\\$schema: .*|\$schema: \"$evs_sed\"|" \
    -e 's|^name: "Sunken Keep"|name: "</script><img src=x onerror=alert(1)><b>bold</b>"|' \
    "$TOP/samples/level.yaml" >"$T/h/evil.yaml"
expect evil_bake 0 "$BLOBC" bake "$T/h/evil.yaml" -o "$T/h/evil.blob"
expect evil_page 0 "$BLOBC" dump --html "$T/h/evil.blob" -o "$T/evil.html"
# the only </script> are the page's own two; no element from the data
[ "$(grep -o '</script>' "$T/evil.html" | wc -l)" -eq 2 ] && pass evil_script_closed ||
    fail evil_script_closed "$(grep -o '.\{30\}</script>' "$T/evil.html")"
grep -q '<img\|<b>' "$T/evil.html" && fail evil_no_markup "$(grep -o '.\{20\}<img.\{20\}' "$T/evil.html" | head -2)" ||
    pass evil_no_markup

# --- in the browser ---
if ! command -v chromium >/dev/null 2>&1; then
    skip browser "chromium not installed (make deps installs it)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    skip browser "python3 not installed (make deps installs it)"
    exit 0
fi
# chrome PAGE ARGS...: headless Chromium on PAGE with a profile of its own
chrome() {
    page=$1
    shift
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/profile" \
        "$@" "file://$page" 2>>"$T/chrome.err"
}
# rows PAGE MAP: the page's field rows against the map's lines that show
# bytes: as many, the same offsets and sizes, and the same path, type and
# value text (floats and string bytes are written differently)
cat >"$T/rows.py" <<'EOF'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
rows = re.findall(r'<div class="r ([^"]*)"[^>]*>(.*?)</div>', dom)
spans = lambda r: [(c, html.unescape(t)) for c, t in re.findall(r'<span class="([a-z]*)"[^>]*>(.*?)</span>', r)]
fields = [spans(r) for c, r in rows if " f" in " " + c]
want = [l for l in lines if re.match(r"0x[0-9a-f]{8} +[0-9]+  [0-9a-f]{2} ", l)]
assert len(fields) == len(want), ("field rows", len(fields), "map lines", len(want))
checked = 0
for f, m in zip(fields, want):
    d = dict(f[:3])
    assert d.get("o") == m[:10] and d.get("z") == m[10:19].strip(), (f, m)
    page, line = "".join(t for c, t in f[3:]), m[71:]
    if re.search(r": f(32|64) = |string bytes = |header.magic|NONZERO|^\.\.\.", line):
        continue
    assert page == line, (page, line)
    checked += 1
assert checked * 2 >= len(want), ("compared", checked, "of", len(want))
assert len(want) < 30 or 'data-to="' in dom, "no offset links"
print("ok", len(fields), checked)
EOF
# page_rows NAME BLOB [DUMP ARGS...]: the page of BLOB in Chromium against its map
page_rows() {
    name=$1 blob=$2
    shift 2
    if ! "$BLOBC" dump --html "$@" -o "$T/$name.html" "$blob" 2>"$T/err" ||
        ! "$BLOBC" dump --map "$@" "$blob" >"$T/$name.map" 2>>"$T/err"; then
        fail "$name" "dump: $(head -c 300 "$T/err")"
        return
    fi
    chrome "$T/$name.html" --window-size=1280,16000 --dump-dom >"$T/$name.dom"
    python3 "$T/rows.py" "$T/$name.dom" "$T/$name.map" >"$T/rows.out" 2>&1
    grep -q '^ok' "$T/rows.out" && pass "${name}_$(cut -d' ' -f2 "$T/rows.out")_rows" ||
        fail "$name" "$(tail -c 600 "$T/rows.out"; tail -c 300 "$T/chrome.err")"
}
page_rows level "$TOP/samples/level.blob"
grep -q 'class="tm"' "$T/level.dom" && grep -q '>rooms\[\]\.tags<' "$T/level.dom" && pass treemap ||
    fail treemap "no treemap cell rooms[].tags"
U=$TOP/tests/data/unity
if "$BLOBC" bake --format unity --unity-version 3 -s "$U/order.schema" "$U/order.yaml" -o "$T/order.unity" 2>"$T/err"; then
    page_rows unity "$T/order.unity" --format unity -s "$U/order.schema"
else
    fail unity "bake: $(head -c 300 "$T/err")"
fi
# references (&T) land on items: the map names the item, and so does the page
if "$BLOBC" bake "$TOP/tests/data/gamedata/game.yaml" -o "$T/game.blob" 2>"$T/err"; then
    page_rows refs "$T/game.blob"
else
    fail refs "bake: $(head -c 300 "$T/err")"
fi
# random schemas: unions (tagged by a field too), [T; N], nested arrays,
# pointers, shared payloads, keys and references: the first five seeds
# whose page Chromium draws whole at this size (under 800 rows) and whose
# schema has no map, optional or any, which the page does not yet list as
# --map does (an optional's rows depend on its presence, and the page
# counts each type's rows once)
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$TOP/$BUILD ;; esac
if [ -x "$B/tools/randgen" ]; then
    s=0 n=0
    while [ $n -lt 5 ] && [ $s -lt 200 ]; do
        s=$((s + 1))
        mkdir -p "$T/seed-$s"
        if ! "$B/tools/randgen" case "$s" "$T/seed-$s" >/dev/null 2>&1 ||
            ! "$BLOBC" bake "$T/seed-$s/t.yaml" -o "$T/seed-$s/t.blob" 2>"$T/err"; then
            fail "seed_$s" "randgen or bake: $(head -c 300 "$T/err")"
            continue
        fi
        grep -q '^forms=.*\(map\|opt\|any\)' "$T/seed-$s/info" && continue
        [ "$("$BLOBC" dump --map "$T/seed-$s/t.blob" | grep -c '^0x')" -lt 800 ] || continue
        page_rows "seed_$s" "$T/seed-$s/t.blob"
        n=$((n + 1))
    done
    [ $n -eq 5 ] || fail random_seeds "only $n seeds of 1..$s qualify"
else
    fail random "$B/tools/randgen is not built"
fi

chrome "$T/evil.html" --window-size=1280,6000 --dump-dom >"$T/evil.dom"
if grep -q '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;bold&lt;/b&gt;' "$T/evil.dom" &&
    grep -qF "$EVS_DOM" "$T/evil.dom" && ! grep -q '<img\|<b>bold' "$T/evil.dom"; then
    pass evil_dom_text
else
    fail evil_dom_text "$(grep -o '.\{40\}onerror.\{40\}' "$T/evil.dom" | head -3)"
fi

# a schema nested 10,000 structs deep (the deepest a type may nest inline):
# the page counts its rows without recursing (a browser's stack holds
# about ten thousand calls) and draws. The bake fills in every default
# walking the types with a stack of its own, so it, and every command on
# the way, runs in a quarter of a megabyte of stack (Linux: ulimit -s,
# which sets the library's threads' stacks too).
python3 - "$T/deep.schema" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(10000):
        f.write("struct S%d {\n    v: u8 = %d;\n%s}\n" % (i, i % 200, "    n: S%d;\n" % (i + 1) if i < 9999 else ""))
EOF
printf '$schema: deep.schema\n$type: S0\n' >"$T/deep.yaml"
small_stack() { if windows_build; then "$@"; else (ulimit -s 256 && exec "$@"); fi; }
if small_stack "$BLOBC" bake "$T/deep.yaml" -o "$T/deep.blob" 2>"$T/err" &&
    small_stack "$BLOBC" verify "$T/deep.blob" >/dev/null 2>>"$T/err" &&
    small_stack "$BLOBC" dump --html "$T/deep.blob" -o "$T/deep.html" 2>>"$T/err"; then
    chrome "$T/deep.html" --window-size=1280,2000 --dump-dom >"$T/deep.dom"
    # 10,000 structs and their v, the 14 header fields and the type section
    if grep -q '<b>S0</b><span>: 389020 bytes, 20015 rows' "$T/deep.dom" && grep -q 'data-build-ms=' "$T/deep.dom" &&
        grep -q '<span class="p">v</span><span class="t">: u8</span><span class="v"> = 0</span>' "$T/deep.dom"; then
        pass deep_schema_page
    else
        fail deep_schema_page "$(grep -o '<div id="title">.\{0,120\}' "$T/deep.dom"; grep -i 'uncaught' "$T/chrome.err" | tail -1)"
    fi
else
    fail deep_schema_page "$(head -c 300 "$T/err")"
fi
# one level more is refused where the schema says it
sed 's/^struct S9999 {$/struct S9999 {\n    n: S10000;/' "$T/deep.schema" >"$T/deeper.schema"
printf 'struct S10000 {\n    v: u8;\n}\n' >>"$T/deeper.schema"
printf '$schema: deeper.schema\n$type: S0\n' >"$T/deeper.yaml"
expect_stderr deeper_schema_refused 1 "$T/deeper.schema:1:8: error: struct S0 nests more than 10000 levels deep inline (structs and fixed arrays held in place); a value of it could not be written as text: hold a level by reference (*T) or in an array ([T])
    struct S0 {
           ^" "$BLOBC" bake "$T/deeper.yaml" -o "$T/deeper.blob"
if [ ! -e "$T/deeper.blob" ]; then pass deeper_schema_no_output; else fail deeper_schema_no_output "$T/deeper.blob written"; fi

# the screenshot: many colours, not a blank page
chrome "$T/level.html" --window-size=1000,700 --screenshot="$T/shot.png" >/dev/null
python3 - "$T/shot.png" >"$T/png.out" 2>&1 <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride, prev, colours = w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, stride, bpp * 2):
            colours.add(bytes(line[x:x + 3]))
    prev = line
assert len(colours) >= 12, ("colours", len(colours))
print("ok", w, h, len(colours))
EOF
grep -q '^ok' "$T/png.out" && pass screenshot_not_blank || fail screenshot_not_blank "$(tail -c 400 "$T/png.out")"
