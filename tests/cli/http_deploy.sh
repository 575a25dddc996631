# The nginx setup of docs/PIPELINE.md, run as the page gives it: its site
# configuration and its setup commands are read from the page (paths moved
# into a scratch directory, the port onto loopback), and nginx runs as a
# deployment does, a root master with workers as www-data. Anyone reads;
# only a writer with the password (from ~/.netrc) stores entries. Needs
# root (to start workers as www-data) and nginx; skipped and counted
# otherwise.
. "$(dirname "$0")/lib.sh"
# The inputs are small: every one of them asks the server all the same.
BLOBC_CACHE_SERVER_MIN=0
export BLOBC_CACHE_SERVER_MIN
S=$TOP/samples
DOC=$TOP/docs/PIPELINE.md

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ]; then
    skip http_deploy "nginx not installed (make deps installs nginx-light)"
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! id -u www-data >/dev/null 2>&1; then
    skip http_deploy "needs root and a www-data user to run nginx as deployed"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    skip http_deploy "python3 not installed (make deps installs it)"
    exit 0
fi

# doc_block MARKER: the indented code block after the page's comment
# naming MARKER, without its indentation.
doc_block() {
    awk -v m="$1" '
        index($0, m) { on = 1; next }
        on && /^ *$/ { if (seen) exit; next }
        on && /^       / { seen = 1; print substr($0, 8); next }
        on { exit }' "$DOC"
}
N=$T/nginx
PORT=$(free_port)
# The page's paths, moved here; the workers must reach them.
chmod 711 "$T"
mkdir -p "$N/etc/sites-available" "$N/tmp/body"
chmod 711 "$N"
chown www-data "$N/tmp/body"
moved() { sed -e "s|/srv/blobc-cache|$N/srv|g" -e "s|/etc/nginx|$N/etc|g" -e "s|listen 8080;|listen 127.0.0.1:$PORT;|"; }

doc_block "http_deploy.sh runs this configuration" | moved >"$N/etc/sites-available/blobc-cache"
doc_block "http_deploy.sh runs these commands" >"$T/setup.sh"
if ! grep -q 'server {' "$N/etc/sites-available/blobc-cache" || ! [ -s "$T/setup.sh" ]; then
    fail doc_setup_found "docs/PIPELINE.md has no marked nginx site or setup commands"
    exit 0
fi
pass doc_setup_found
# The password file, made as the page says but with a password given here
# (the page's openssl prompts for one).
PW=fr0m-netrc
HASH="{SHA}$(python3 -c 'import base64,hashlib,sys; print(base64.b64encode(hashlib.sha1(sys.argv[1].encode()).digest()).decode())' "$PW")"
sed 's|"$(openssl passwd -apr1)"|"$HASH"|' "$T/setup.sh" | moved >"$T/setup.run"
if ! HASH=$HASH sh -e "$T/setup.run" >"$T/setup.out" 2>&1; then
    fail doc_setup_runs "$(cat "$T/setup.run" "$T/setup.out")"
    exit 0
fi
pass doc_setup_runs

# Debian's nginx.conf, as far as it matters here: workers as www-data.
cat >"$N/nginx.conf" <<CONF
user www-data;
worker_processes 1;
daemon off;
pid $N/nginx.pid;
error_log $N/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $N/tmp/body;
    include $N/etc/sites-available/*;
}
CONF
"$NGINX" -t -p "$N" -c "$N/nginx.conf" -e "$N/error.log" >"$N/test.out" 2>&1 ||
    fail doc_config_valid "$(cat "$N/test.out")"
"$NGINX" -p "$N" -c "$N/nginx.conf" -e "$N/error.log" >"$N/out" 2>&1 &
NPID=$!
trap 'kill $NPID 2>/dev/null; wait $NPID 2>/dev/null; rm -rf "$T"' EXIT
if ! wait_port "$PORT"; then
    fail nginx_started "nginx did not answer on 127.0.0.1:$PORT: $(cat "$N/error.log" "$N/out" 2>/dev/null | head -3)"
    exit 0
fi
URL=http://127.0.0.1:$PORT/blobc
"$BLOBC" bake "$S/level.yaml" -o "$T/want.blob"
mkdir -p "$T/reader" "$T/writer"
printf 'machine 127.0.0.1\nlogin ci\npassword %s\n' "$PW" >"$T/writer/.netrc"
chmod 600 "$T/writer/.netrc"
entries() { find "$N/srv/blobc" -path '*/[0-9a-f][0-9a-f]/*' -type f 2>/dev/null | wc -l; }

# A reader without the password: a miss, and one warning that its PUT was
# refused; nothing stored.
expect_err deploy_reader_put_refused 0 "PUT answered HTTP 401" env HOME="$T/reader" \
    "$BLOBC" bake --cache "$URL" "$S/level.yaml" -o "$T/r1.blob"
[ "$(entries)" -eq 0 ] && pass deploy_reader_stores_nothing || fail deploy_reader_stores_nothing "$(entries) entries"
# The writer, with ~/.netrc: stored, quietly, in a file of www-data's.
expect_stderr deploy_writer_put 0 "" env HOME="$T/writer" \
    "$BLOBC" bake --cache "$URL" "$S/level.yaml" -o "$T/w1.blob"
entry=$(find "$N/srv/blobc" -path '*/[0-9a-f][0-9a-f]/*' -type f 2>/dev/null)
[ "$(entries)" -eq 1 ] && [ "$(stat -c %U "$entry")" = www-data ] && pass deploy_entry_stored ||
    fail deploy_entry_stored "$(entries) entries; $(tail -3 "$N/error.log")"
# Another machine reads it, with no password and no warning.
expect_stderr deploy_reader_get 0 "" env HOME="$T/reader" \
    "$BLOBC" bake -q --cache "$URL" "$S/level.yaml" -o "$T/r2.blob"
run env HOME="$T/reader" "$BLOBC" bake -v --cache "$URL" "$S/level.yaml" -o "$T/r3.blob"
grep -q ': cached ' "$T/err" && pass deploy_reader_cached || fail deploy_reader_cached "$(cat "$T/err")"
same_file deploy_reader_identical "$T/r3.blob" "$T/want.blob"
# The pruning the page gives.
expect deploy_prune 0 "$BLOBC" cache prune --max-size 50G "$N/srv/blobc"
