# The shared HTTP cache, against a real nginx WebDAV server on a loopback
# port with a scratch root: a second machine (its own outputs, nothing
# local) gets the blob byte-identical from the server; a corrupted entry on
# the server is rejected and rebaked; a server that is down is a warning
# and the bake still succeeds. Skipped (and counted) without nginx.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples

# A server that takes the connection and never answers: the transfer is
# dropped after the low-speed window (5 s), with a warning, and the bake
# succeeds; the second input of the batch does not wait again.
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1]); sys.stdout.flush(); time.sleep(60)' >"$T/slow.port" &
SPID=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/slow.port" ] && break; sleep 0.1; done
mkdir -p "$T/slow"
cp "$S/level.yaml" "$T/slow/a.yaml"
cp "$S/level.yaml" "$T/slow/b.yaml"
sed -i 's|^\$schema: .*|$schema: '"$TOP"'/schemas/level.schema|' "$T/slow/a.yaml" "$T/slow/b.yaml"
start=$(date +%s)
expect_err http_slow 0 "warning: cache server" "$BLOBC" bake -j 1 --cache "http://127.0.0.1:$(cat "$T/slow.port")/c" \
    "$T/slow/a.yaml" "$T/slow/b.yaml"
took=$(($(date +%s) - start))
[ "$took" -le 12 ] && pass http_slow_bounded || fail http_slow_bounded "took $took s"
[ "$(grep -c warning "$T/err")" -eq 1 ] && pass http_slow_warns_once || fail http_slow_warns_once "$(cat "$T/err")"
[ -s "$T/slow/a.blob" ] && [ -s "$T/slow/b.blob" ] && pass http_slow_outputs || fail http_slow_outputs "missing"
kill $SPID 2>/dev/null
wait $SPID 2>/dev/null
else
    skip http_slow "python3 not installed"
fi

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ]; then
    skip http_cache "nginx not installed (make deps installs nginx-light)"
    exit 0
fi
if ! command -v curl >/dev/null 2>&1; then
    skip http_cache "curl not installed to see that nginx is up (make deps installs it)"
    exit 0
fi
N=$T/nginx
PORT=$(free_port 2>/dev/null || echo $((20000 + $$ % 20000)))
cd "$TOP" || exit 1
. tests/tools/nginx_cache.sh
nginx_cache_conf "$N" "$PORT"
"$NGINX" -p "$N" -c "$N/nginx.conf" -e "$N/error.log" >"$N/out" 2>&1 &
NPID=$!
trap 'kill $NPID 2>/dev/null; wait $NPID 2>/dev/null; rm -rf "$T"' EXIT
up=0
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then up=1; break; fi
    sleep 0.25
done
if [ $up = 0 ]; then
    fail nginx_started "nginx did not answer on 127.0.0.1:$PORT: $(cat "$N/error.log" "$N/out" 2>/dev/null | head -3)"
    exit 0
fi
URL=http://127.0.0.1:$PORT/blobc
"$BLOBC" bake "$S/level.yaml" -o "$T/want.blob"

# Machine one bakes and puts; machine two (fresh outputs) gets it.
expect http_miss 0 "$BLOBC" bake -v --cache "$URL" "$S/level.yaml" -o "$T/m1.blob"
grep -q ': baked ' "$T/err" && pass http_miss_baked || fail http_miss_baked "$(cat "$T/err")"
n=$(find "$N/root/blobc" -type f | wc -l)
[ "$n" -eq 1 ] && pass http_entry_stored || fail http_entry_stored "$n entries on the server"
entry=$(find "$N/root/blobc" -type f)
case "$entry" in
*/blobc/[0-9a-f][0-9a-f]/[0-9a-f]*) pass http_entry_layout ;;
*) fail http_entry_layout "$entry" ;;
esac
mkdir -p "$T/m2"
expect http_hit 0 env BLOBC_CACHE="$URL" "$BLOBC" bake -v "$S/level.yaml" -o "$T/m2/level.blob"
grep -q ': cached ' "$T/err" && pass http_hit_cached || fail http_hit_cached "$(cat "$T/err")"
same_file http_hit_identical "$T/m2/level.blob" "$T/want.blob"

# A corrupted entry on the server: rejected, rebaked, and put again.
printf 'garbage' | dd of="$entry" bs=1 seek=300 conv=notrunc 2>/dev/null
expect_err http_corrupt 0 "cache entry rejected" "$BLOBC" bake -v --cache "$URL" "$S/level.yaml" -o "$T/m3.blob"
grep -q ': baked ' "$T/err" && pass http_corrupt_baked || fail http_corrupt_baked "$(cat "$T/err")"
same_file http_corrupt_output "$T/m3.blob" "$T/want.blob"
expect http_repaired 0 "$BLOBC" bake -v --cache "$URL" "$S/level.yaml" -o "$T/m4.blob"
grep -q ': cached ' "$T/err" && pass http_repaired_cached || fail http_repaired_cached "$(cat "$T/err")"

# An error answer (a PUT the server refuses) is a warning, not a failure.
expect_err http_error_answer 0 "answered HTTP 405" "$BLOBC" bake --cache "http://127.0.0.1:$PORT/ro" \
    "$S/level.yaml" -o "$T/m5.blob"
same_file http_error_output "$T/m5.blob" "$T/want.blob"

# A batch on four threads, each with its own requests: every input is
# put, then every input comes back from the server byte-identical.
mkdir -p "$T/many" "$T/many1" "$T/many2"
i=0
while [ $i -lt 8 ]; do
    sed -e "s/^index: 3/index: $i/" -e 's|^\$schema: .*|$schema: '"$TOP"'/schemas/level.schema|' \
        "$S/level.yaml" >"$T/many/l$i.yaml"
    i=$((i + 1))
done
expect http_batch_put 0 "$BLOBC" bake -v -j 4 --cache "$URL" -o "$T/many1" "$T"/many/*.yaml
[ "$(grep -c ': baked ' "$T/err")" -eq 8 ] && pass http_batch_baked || fail http_batch_baked "$(cat "$T/err")"
expect http_batch_get 0 "$BLOBC" bake -v -j 4 --cache "$URL" -o "$T/many2" "$T"/many/*.yaml
[ "$(grep -c ': cached ' "$T/err")" -eq 8 ] && pass http_batch_cached || fail http_batch_cached "$(cat "$T/err")"
ok=0
for f in "$T"/many1/*.blob; do cmp -s "$f" "$T/many2/$(basename "$f")" && ok=$((ok + 1)); done
[ $ok -eq 8 ] && pass http_batch_identical || fail http_batch_identical "$ok of 8"

# A local directory in front of the server: a hit from the server is kept
# locally, and then found there even with the server gone.
mkdir -p "$T/m3"
expect http_layered 0 "$BLOBC" bake -v --cache "$T/local $URL" "$S/level.yaml" -o "$T/m3/level.blob"
grep -q ': cached ' "$T/err" && pass http_layered_cached || fail http_layered_cached "$(cat "$T/err")"
same_file http_layered_identical "$T/m3/level.blob" "$T/want.blob"
[ "$(find "$T/local" -path '*/[0-9a-f][0-9a-f]/*' -type f | wc -l)" -eq 1 ] && pass http_layered_kept_locally ||
    fail http_layered_kept_locally "$(find "$T/local" -type f)"
# The hit happened on the server: the directory counts a miss, not a hit.
expect http_layered_stats 0 "$BLOBC" cache stats "$T/local"
grep -q '^hits: 0$' "$T/out" && grep -q '^misses: 1$' "$T/out" && pass http_layered_counted_where_found ||
    fail http_layered_counted_where_found "$(tr '\n' ' ' <"$T/out")"

# The server goes down: a warning, the bake succeeds, one warning only
# for a whole batch (the server is not asked again).
kill $NPID 2>/dev/null
wait $NPID 2>/dev/null
mkdir -p "$T/down"
cp "$S/level.yaml" "$T/down/a.yaml"
cp "$S/level.yaml" "$T/down/b.yaml"
sed -i 's|^\$schema: .*|$schema: '"$TOP"'/schemas/level.schema|' "$T/down/a.yaml" "$T/down/b.yaml"
"$BLOBC" bake "$T/down/a.yaml" -o "$T/down/want.blob"
expect_err http_down 0 "warning: cache server" "$BLOBC" bake -j 1 --cache "$URL" "$T/down/a.yaml" "$T/down/b.yaml"
same_file http_down_output "$T/down/a.blob" "$T/down/want.blob"
[ "$(grep -c warning "$T/err")" -eq 1 ] && pass http_down_warns_once || fail http_down_warns_once "$(cat "$T/err")"
expect http_down_local_hit 0 "$BLOBC" bake -v --cache "$T/local $URL" "$S/level.yaml" -o "$T/m3/again.blob"
grep -q ': cached ' "$T/err" && ! grep -q warning "$T/err" && pass http_down_local_hit_quiet ||
    fail http_down_local_hit_quiet "$(cat "$T/err")"
expect http_local_hit_stats 0 "$BLOBC" cache stats "$T/local"
grep -q '^hits: 1$' "$T/out" && grep -q '^misses: 1$' "$T/out" && pass http_local_hit_counted ||
    fail http_local_hit_counted "$(tr '\n' ' ' <"$T/out")"
