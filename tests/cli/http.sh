# The shared HTTP cache, against a real nginx WebDAV server on a loopback
# port with a scratch root: a second machine (its own outputs, nothing
# local) gets the blob byte-identical from the server; a corrupted entry on
# the server is rejected and rebaked; a server that is down is a warning
# and the bake still succeeds. Skipped (and counted) without nginx.
. "$(dirname "$0")/lib.sh"
# Most inputs here are small: every one of them asks the server all the
# same, but where the size threshold itself is tested.
BLOBC_CACHE_SERVER_MIN=0
export BLOBC_CACHE_SERVER_MIN
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

# ---- Below a size per format, the server is not asked (nor loaded). ----
# requests: how many requests nginx has logged (a request is logged as it
# ends, which may come just after the client has its answer: give it time).
requests() {
    sleep 0.1
    wc -l <"$N/access.log" 2>/dev/null || echo 0
}
# asked NAME WANT CMD...: runs CMD (exit 0 expected) and checks whether it
# sent the server any request (WANT yes or no).
asked() {
    name=$1 want=$2
    shift 2
    before=$(requests)
    run "$@"
    after=$(requests)
    got=no
    [ "$after" -gt "$before" ] && got=yes
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC: $(head -c 300 "$T/err")"
    elif [ "$got" != "$want" ]; then fail "$name" "asked the server: $got ($before -> $after requests); $(head -c 300 "$T/err")"
    else pass "$name"; fi
}
# (a path of its own on the server: the checks after these count entries)
SURL=http://127.0.0.1:$PORT/size
mkdir -p "$T/size"
sed 's|^\$schema: .*|$schema: '"$TOP"'/schemas/level.schema|' "$S/level.yaml" >"$T/size/small.yaml"
# 300 KB of YAML (above 256K) and of JSON (below 2M): comments and white
# space, so that the bytes are what counts.
cp "$T/size/small.yaml" "$T/size/big.yaml"
i=0
while [ $i -lt 5000 ]; do echo "# padding to pass the size from which a server is asked, line $i"; i=$((i + 1)); done >>"$T/size/big.yaml"
sed 's|"\$schema": *"[^"]*"|"$schema": "'"$TOP"'/schemas/level.schema"|' "$S/level.json" >"$T/size/mid.json"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%60s\n", "" }' >>"$T/size/mid.json"
"$BLOBC" bake "$T/size/small.yaml" -o "$T/size/small_want.blob"
"$BLOBC" bake "$T/size/big.yaml" -o "$T/size/big_want.blob"
"$BLOBC" bake "$T/size/mid.json" -o "$T/size/mid_want.blob"
D="env -u BLOBC_CACHE_SERVER_MIN"
for k in 1 2; do
    asked "small_yaml_no_server_$k" no $D "$BLOBC" bake -v --cache "$SURL" "$T/size/small.yaml" -o "$T/size/s$k.blob"
done
grep -q ': baked ' "$T/err" && pass small_yaml_baked || fail small_yaml_baked "$(cat "$T/err")"
same_file small_yaml_output "$T/size/s2.blob" "$T/size/small_want.blob"
asked json_300k_no_server no $D "$BLOBC" bake --cache "$SURL" "$T/size/mid.json" -o "$T/size/m.blob"
same_file json_300k_output "$T/size/m.blob" "$T/size/mid_want.blob"
asked yaml_300k_server yes $D "$BLOBC" bake -v --cache "$SURL" "$T/size/big.yaml" -o "$T/size/b1.blob"
asked yaml_300k_server_hit yes $D "$BLOBC" bake -v --cache "$SURL" "$T/size/big.yaml" -o "$T/size/b2.blob"
grep -q ': cached ' "$T/err" && pass yaml_300k_cached || fail yaml_300k_cached "$(cat "$T/err")"
same_file yaml_300k_output "$T/size/b2.blob" "$T/size/big_want.blob"
# A batch: small inputs alone never ask; beside a big one, only the big
# one does (one GET, a hit).
asked batch_small_no_server no $D "$BLOBC" bake -j 1 --cache "$SURL" -o "$T/size/mixed" "$T/size/small.yaml" "$T/size/mid.json"
before=$(requests)
run $D "$BLOBC" bake -v -j 1 --cache "$SURL" -o "$T/size/mixed2" "$T/size/small.yaml" "$T/size/big.yaml"
[ "$RC" -eq 0 ] && [ $(($(requests) - before)) -eq 1 ] && grep -q 'big.yaml: cached' "$T/err" &&
    grep -q 'small.yaml: baked' "$T/err" && pass batch_mixed_one_request ||
    fail batch_mixed_one_request "rc $RC, $(($(requests) - before)) requests: $(cat "$T/err")"
# A local directory listed first is still used for a small input.
asked small_local_dir_put no $D "$BLOBC" bake -v --cache "$T/size/local $SURL" "$T/size/small.yaml" -o "$T/size/l1.blob"
asked small_local_dir_hit no $D "$BLOBC" bake -v --cache "$T/size/local $SURL" "$T/size/small.yaml" -o "$T/size/l2.blob"
grep -q ': cached ' "$T/err" && pass small_local_dir_cached || fail small_local_dir_cached "$(cat "$T/err")"
same_file small_local_dir_output "$T/size/l2.blob" "$T/size/small_want.blob"
# The setting moves the threshold: the option, the environment, per format.
asked min_option_lower yes $D "$BLOBC" bake --cache-server-min 1K --cache "$SURL" "$T/size/small.yaml" -o "$T/size/o1.blob"
asked min_env_lower yes env BLOBC_CACHE_SERVER_MIN=json=1K "$BLOBC" bake --cache "$SURL" "$T/size/mid.json" -o "$T/size/o2.blob"
asked min_option_higher no $D "$BLOBC" bake --cache-server-min yaml=1M --cache "$SURL" "$T/size/big.yaml" -o "$T/size/o3.blob"
asked min_option_over_env no env BLOBC_CACHE_SERVER_MIN=0 "$BLOBC" bake --cache-server-min 512K --cache "$SURL" "$T/size/big.yaml" -o "$T/size/o4.blob"
asked min_other_format_kept no $D "$BLOBC" bake --cache-server-min yaml=0 --cache "$SURL" "$T/size/mid.json" -o "$T/size/o5.blob"
# Bad values: a usage error naming the setting, nothing written.
for bad in 12Q yaml= toml=1K yaml=1K, 1K,,json=2M -1 "yaml=1K json=2M" ""; do
    expect_err "min_bad_option_$(printf %s "$bad" | tr -c 'a-zA-Z0-9' _)" 2 "invalid --cache-server-min '$bad'" \
        "$BLOBC" bake --cache-server-min "$bad" --cache "$SURL" "$T/size/small.yaml" -o "$T/size/bad.blob"
done
expect_err min_bad_env 2 "invalid BLOBC_CACHE_SERVER_MIN 'yaml=big'" \
    env BLOBC_CACHE_SERVER_MIN=yaml=big "$BLOBC" bake --cache "$SURL" "$T/size/small.yaml" -o "$T/size/bad.blob"
[ ! -e "$T/size/bad.blob" ] && pass min_bad_nothing_written || fail min_bad_nothing_written "bad.blob written"

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
