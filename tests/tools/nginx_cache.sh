# tests/tools/nginx_cache.sh - sourced by tests/cli/http.sh and bench/pipeline.sh:
# the configuration of a local nginx that serves as an HTTP cache (GET, and
# PUT with its directories created), run in the foreground by the caller.
#
# nginx_cache_conf DIR PORT : writes DIR/nginx.conf for a server on
# 127.0.0.1:PORT whose files live in DIR/root, every temporary and log file
# under DIR (no root needed; DIR/access.log has a line per request, written
# as each ends); /ro/ refuses PUT. Start it with
#     nginx -p DIR -c DIR/nginx.conf -e DIR/error.log
nginx_cache_conf() {
    mkdir -p "$1/root" "$1/tmp/body" "$1/tmp/proxy" "$1/tmp/fastcgi" "$1/tmp/uwsgi" "$1/tmp/scgi"
    cat >"$1/nginx.conf" <<CONF
daemon off;
master_process off;
pid $1/nginx.pid;
error_log $1/error.log;
events { worker_connections 64; }
http {
    access_log $1/access.log;
    client_body_temp_path $1/tmp/body;
    proxy_temp_path $1/tmp/proxy;
    fastcgi_temp_path $1/tmp/fastcgi;
    uwsgi_temp_path $1/tmp/uwsgi;
    scgi_temp_path $1/tmp/scgi;
    server {
        listen 127.0.0.1:$2;
        root $1/root;
        client_max_body_size 0;
        location / {
            dav_methods PUT;
            create_full_put_path on;
        }
        location /ro/ {
        }
    }
}
CONF
}
