# The HTTP cache against servers that misbehave (tests/tools/hostile_http.py,
# on a loopback port): whatever a server answers, a bake exits 0 with the
# right bytes and nothing else on stdout, in bounded time and memory, and no
# message shows a password. Skipped (and counted) without python3.
. "$(dirname "$0")/lib.sh"
# The inputs are small: every one of them asks the server all the same.
BLOBC_CACHE_SERVER_MIN=0
export BLOBC_CACHE_SERVER_MIN
S=$TOP/samples

if ! command -v python3 >/dev/null 2>&1; then
    skip http_hostile "python3 not installed (make deps installs it)"
    exit 0
fi
mkdir -p "$T/in" "$T/entries" "$T/o"
for i in a b c d; do
    sed 's|^\$schema: .*|$schema: '"$TOP"'/schemas/level.schema|' "$S/level.yaml" >"$T/in/$i.yaml"
done
IN=$T/in/a.yaml
"$BLOBC" bake "$IN" -o "$T/want.blob"
# The server's "good" entries: a directory cache holding this input's.
"$BLOBC" bake --cache "$T/entries" "$IN" -o "$T/o/seed.blob"

python3 "$TOP/tests/tools/hostile_http.py" "$T/port" "$T/log" "$T/entries" 2>"$T/server.err" &
SPID=$!
trap 'kill $SPID 2>/dev/null; wait $SPID 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
if [ ! -s "$T/port" ]; then
    fail hostile_server "the test server did not start: $(head -3 "$T/server.err")"
    exit 0
fi
URL=http://127.0.0.1:$(cat "$T/port")

# requests MODE: how many requests the server has had for MODE.
requests() { grep -c " /$1/" "$T/log"; }

# through NAME MODE WANT_ERR [ARGS...]: bakes $IN through URL/MODE (bounded
# by `timeout`), and checks exit 0, the blob byte for byte on stdout, that
# it was baked (not taken from the server), and stderr holding WANT_ERR.
# $took is the time in seconds.
through() {
    name=$1 mode=$2 want=$3
    shift 3
    start=$(date +%s)
    run timeout 60 "$BLOBC" bake -v --cache "$URL/$mode" "$@" "$IN" -o -
    took=$(($(date +%s) - start))
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC; stderr: $(head -c 400 "$T/err")"; return 1; fi
    if ! cmp -s "$T/out" "$T/want.blob"; then
        fail "$name" "stdout is not the blob ($(wc -c <"$T/out") bytes, want $(wc -c <"$T/want.blob")): $(cmp "$T/out" "$T/want.blob" 2>&1 | head -1)"
        return 1
    fi
    if ! grep -q ': baked -' "$T/err"; then fail "$name" "not baked: $(head -c 400 "$T/err")"; return 1; fi
    if ! grep -qF -- "$want" "$T/err"; then fail "$name" "stderr lacks '$want': $(head -c 400 "$T/err")"; return 1; fi
    pass "$name"
}

# ---- Nothing of an answer reaches stdout: every kind of answer with a
# body, to a GET and to a PUT (error pages, success pages, a redirect, a
# page without end), with the blob written to stdout.
through body_put_501 put-501 "PUT answered HTTP 501"
through body_put_405 put-405 "PUT answered HTTP 405"
through body_put_500 put-500 "PUT answered HTTP 500"
through body_put_201 put-201 ""
through body_put_200 put-200 ""
through body_get_500 get-500 "GET answered HTTP 500"
through body_get_201 get-201 "GET answered HTTP 201"
through body_get_200 get-200 "cache entry rejected (not a cache entry)"
through body_get_404 get-404 ""
through body_redirect redirect "GET answered HTTP 302"
through body_put_endless endlessput ""
rm -rf "$T/entries"/*/
through body_put_stored good ""
n=$(find "$T/entries" -path '*/[0-9a-f][0-9a-f]/*' -type f | wc -l)
[ "$n" -eq 1 ] && pass body_put_stored_entry || fail body_put_stored_entry "$n entries stored: $(tail -3 "$T/log")"
# The redirect went nowhere: the good entry was never asked for by it.
[ "$(grep -c '^GET /good/' "$T/log")" -eq 1 ] && pass redirect_not_followed ||
    fail redirect_not_followed "$(grep /good/ "$T/log")"
# A hit through a server that works, with its PUT answer pages, to stdout.
run "$BLOBC" bake -v --cache "$URL/good" "$IN" -o -
grep -q ': cached -' "$T/err" && cmp -s "$T/out" "$T/want.blob" && pass body_hit_stdout ||
    fail body_hit_stdout "rc $RC, $(wc -c <"$T/out") bytes: $(head -c 300 "$T/err")"
# python's own server: a 501 page to every PUT.
mkdir -p "$T/www"
PYPORT=$(free_port)
(cd "$T/www" && exec timeout 60 python3 -m http.server --bind 127.0.0.1 "$PYPORT") >/dev/null 2>&1 &
PYPID=$!
wait_port "$PYPORT"
run "$BLOBC" bake --cache "http://127.0.0.1:$PYPORT/c" "$IN" -o -
kill $PYPID 2>/dev/null
wait $PYPID 2>/dev/null
[ "$RC" -eq 0 ] && cmp -s "$T/out" "$T/want.blob" && grep -q 'PUT answered HTTP 501' "$T/err" &&
    pass body_python_http_server ||
    fail body_python_http_server "rc $RC, $(wc -c <"$T/out") bytes on stdout: $(head -c 300 "$T/err")"

# ---- Bounded memory and time, whatever an answer's length: each way an
# answer can be longer than its entry, or than memory allows.
rss() {
    name=$1 max_kib=$2 mode=$3 want=$4
    shift 4
    run python3 "$TOP/tests/tools/maxrss.py" "$T/rss" timeout 60 "$BLOBC" bake -v --cache "$URL/$mode" "$@" -o "$T/o"
    kib=$(cat "$T/rss" 2>/dev/null || echo 0)
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC: $(head -c 300 "$T/err")"; return; fi
    if [ "$kib" -gt "$max_kib" ]; then fail "$name" "peak RSS $kib KiB, want at most $max_kib"; return; fi
    if ! grep -qF -- "$want" "$T/err"; then fail "$name" "stderr lacks '$want': $(head -c 300 "$T/err")"; return; fi
    for f in "$@"; do
        case "$f" in *.yaml) ;; *) continue ;; esac
        cmp -s "$T/o/$(basename "$f" .yaml).blob" "$T/want.blob" || { fail "$name" "wrong output for $f"; return; }
    done
    pass "$name"
}
# A head declaring 2 GiB: refused at the head, before any of it is taken.
rss mem_declared_2g 65536 huge-2147483648 "past 512 MiB" "$IN"
# Four threads, each sent an entry declaring 400 MiB (and then sent it):
# the bound holds across threads, one such body at a time at most.
rss mem_threads 614400 huge-419430400 "" -j 4 "$T"/in/*.yaml
# A right head, then more than it declares, without end.
rss mem_endless 65536 endless "longer than its head says" "$IN"
rss mem_garbage 65536 garbage "cache entry rejected (not a cache entry)" "$IN"
rss mem_endless_404 65536 endless404 "" "$IN"
rss mem_huge_headers 65536 hugeheaders "got over 64 KiB of headers" "$IN"
# Content-Length against the head, and bodies cut short or padded.
through length_cl_long good-cllong "its Content-Length is"
through length_cl_cut good-clcut "its Content-Length is"
through length_cut good-cut "cache entry rejected (cut short)"
through length_extra good-extra "longer than its head says"

# ---- A slow server is asked once a run: slow before answering, in its
# headers, in an error page, in an entry's body, or in taking a PUT. Four
# inputs on one thread: one request (two for the PUT: its GET missed),
# one warning, about a second, every output right.
slow() {
    name=$1 mode=$2 want_requests=$3
    shift 3
    start=$(date +%s)
    run timeout 100 "$BLOBC" bake -j 1 --cache "$URL/$mode" -o "$T/o" "$@" "$T"/in/*.yaml
    took=$(($(date +%s) - start))
    n=$(requests "$mode")
    w=$(grep -c warning "$T/err")
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC: $(head -c 300 "$T/err")"; return; fi
    if [ "$n" -ne "$want_requests" ]; then fail "$name" "$n requests, want $want_requests ($took s)"; return; fi
    if [ "$w" -ne 1 ]; then fail "$name" "$w warnings: $(head -c 400 "$T/err")"; return; fi
    if ! grep -q ': too slow' "$T/err"; then fail "$name" "$(head -c 300 "$T/err")"; return; fi
    [ "$took" -le 4 ] || { fail "$name" "took $took s"; return; }
    for f in a b c d; do cmp -s "$T/o/$f.blob" "$T/want.blob" || { fail "$name" "wrong $f.blob"; return; }; done
    pass "$name"
}
slow slow_silence silent 1
slow slow_headers trickleheaders 1
slow slow_entry_body trickle200 1
slow slow_put slowput 2
# An error page trickled at 2 KiB/s is never read: four quick misses.
start=$(date +%s)
run timeout 100 "$BLOBC" bake -j 1 --cache "$URL/trickle404" -o "$T/o" "$T"/in/*.yaml
took=$(($(date +%s) - start))
[ "$RC" -eq 0 ] && [ "$took" -le 3 ] && pass slow_error_page_unread || fail slow_error_page_unread "rc $RC, $took s"
# On four threads at once: still one warning.
: >"$T/log"
run timeout 100 "$BLOBC" bake -j 4 --cache "$URL/silent" -o "$T/o" "$T"/in/*.yaml
[ "$RC" -eq 0 ] && [ "$(grep -c warning "$T/err")" -eq 1 ] && pass slow_threads_warn_once ||
    fail slow_threads_warn_once "rc $RC: $(cat "$T/err")"

# ---- Credentials never show: a password in the URL stays out of every
# message (a server down, error answers, a bad entry, a slow server, a
# cache list refused), yet reaches the server; ~/.netrc is read.
CRED=http://ci:s3cr3t@127.0.0.1:$(cat "$T/port")
: >"$T/log"
bad=
for spec in "$CRED/get-500" "$CRED/put-405" "$CRED/garbage" "$CRED/silent" "$CRED/redirect" \
    "$CRED/good-cut" "$CRED/hugeheaders" "http://ci:s3cr3t@127.0.0.1:1/c" "$T/l1 $T/l2 $T/l3 $T/l4 $CRED/good"; do
    run timeout 60 "$BLOBC" bake --cache "$spec" "$IN" -o "$T/o/cred.blob"
    if grep -q 's3cr3t' "$T/err" || ! grep -q warning "$T/err" || [ "$RC" -ne 0 ]; then
        bad="$spec: rc $RC: $(cat "$T/err")"
        break
    fi
done
[ -z "$bad" ] && pass secret_redacted || fail secret_redacted "$bad"
grep -q '^PUT /put-405/.* auth=ci:s3cr3t$' "$T/log" && pass secret_sent || fail secret_sent "$(head -3 "$T/log")"
# Escapes in the URL's user information are decoded.
run "$BLOBC" bake --cache "http://c%69:p%40ss%3Aw@127.0.0.1:$(cat "$T/port")/get-404" "$IN" -o "$T/o/cred.blob"
grep -q '^GET /get-404/.* auth=ci:p@ss:w$' "$T/log" && pass secret_decoded || fail secret_decoded "$(tail -2 "$T/log")"
mkdir -p "$T/home"
printf 'machine 127.0.0.1\nlogin ci\npassword fr0mnetrc\n' >"$T/home/.netrc"
chmod 600 "$T/home/.netrc"
run env HOME="$T/home" "$BLOBC" bake --cache "$URL/get-404" "$IN" -o "$T/o/cred.blob"
grep -q '^GET /get-404/.* auth=ci:fr0mnetrc$' "$T/log" && pass secret_netrc || fail secret_netrc "$(tail -2 "$T/log")"
