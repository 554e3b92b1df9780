# Sourced by serve_cluster.sh: a PostgreSQL that class mode's replicas share, started for the
# cluster and stopped with it. Needs RUN_DIR and REPLICAS; sets EXPLORER_CLASS_DB, CLASS_DB_DIR.
#   start_class_db   Debian's postgresql (installed when root), run unprivileged: as root the
#                    server runs as the postgres user (initdb refuses root). Data in
#                    RUN_DIR/postgres: a folder, or, when the postgres user cannot reach RUN_DIR
#                    (a parent closed to other users, e.g. /root or pytest's tmp), a link to a
#                    folder in ${TMPDIR:-/tmp} that stop_class_db deletes (with the link and
#                    the URL: nothing to reuse). Listens on 127.0.0.1:CLASS_DB_PORT (default: a
#                    free port) only, TCP only (no Unix socket), with a random password; the URL
#                    goes to RUN_DIR/class_db.url (owner-only). Started again with the same
#                    RUN_DIR, it reuses the data and the URL: the classes survive a restart.
#   stop_class_db    a fast shutdown (after the replicas, which hold connections to it).
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
CLASS_DB_DIR=""
CLASS_DB_TEMP=""  # the folder in /tmp that RUN_DIR/postgres links to, when it had to be made
AS_PG=()
FREE_PORT='import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'

hide_password() { sed -E 's#(://[^:/@]*):[^@]*@#\1:***@#' <<<"$1"; }

class_db_fail() {  # $1: what failed; $2: the log to show
    echo "error: the class database: $1; the end of $2:" >&2
    tail -n 20 "$2" >&2 || true
    exit 1
}

class_db_folder() {  # makes CLASS_DB_DIR, writable by the user the server runs as
    CLASS_DB_DIR="$RUN_DIR/postgres"
    if [ "$(id -u)" != 0 ]; then
        mkdir -p "$CLASS_DB_DIR"
        return
    fi
    AS_PG=(runuser -u postgres --)
    if [ ! -e "$CLASS_DB_DIR" ]; then
        chmod o+x "$RUN_DIR"
        mkdir "$CLASS_DB_DIR"
        chown postgres: "$CLASS_DB_DIR"
        if ! runuser -u postgres -- test -w "$CLASS_DB_DIR"; then
            rmdir "$CLASS_DB_DIR"
            CLASS_DB_TEMP="$(mktemp -d "${TMPDIR:-/tmp}/embedding-explorer-classes.XXXXXX")"
            chown postgres: "$CLASS_DB_TEMP"
            ln -s "$CLASS_DB_TEMP" "$CLASS_DB_DIR"
        fi
    fi
    if [ -L "$CLASS_DB_DIR" ]; then  # the server is given the real path: it cannot follow the link
        CLASS_DB_DIR="$(readlink -f "$CLASS_DB_DIR")"
    fi
    if ! runuser -u postgres -- test -w "$CLASS_DB_DIR/"; then
        echo "error: the postgres user cannot write $CLASS_DB_DIR; set EXPLORER_CLASS_DB" >&2
        exit 1
    fi
}

start_class_db() {
    if [ ! -x "$PG_BIN/pg_ctl" ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "error: $REPLICAS replicas share class mode's database: run 'sudo apt-get" \
                "install -y postgresql' first, or set EXPLORER_CLASS_DB" >&2
            exit 1
        fi
        echo "Installing Debian's postgresql for class mode..."
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    fi
    class_db_folder
    local data="$CLASS_DB_DIR/data" port password
    if [ -f "$data/PG_VERSION" ] && [ -f "$RUN_DIR/class_db.url" ]; then
        EXPLORER_CLASS_DB="$(<"$RUN_DIR/class_db.url")"  # a restart: same data, same URL
        port="${EXPLORER_CLASS_DB##*:}"
        port="${port%%/*}"
    elif [ -e "$data" ]; then
        echo "error: $data exists but $RUN_DIR/class_db.url does not: remove one or the other" >&2
        exit 1
    else
        port="${CLASS_DB_PORT:-$(.venv/bin/python -c "$FREE_PORT")}"
        password="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
        (umask 077 && printf '%s\n' "$password" >"$CLASS_DB_DIR/password")
        if [ "$(id -u)" = 0 ]; then chown postgres: "$CLASS_DB_DIR/password"; fi
        "${AS_PG[@]}" "$PG_BIN/initdb" -D "$data" -U postgres -E UTF8 --auth=scram-sha-256 \
            --pwfile="$CLASS_DB_DIR/password" >"$CLASS_DB_DIR/initdb.log" 2>&1 \
            || class_db_fail "initdb failed" "$CLASS_DB_DIR/initdb.log"
        rm -f "$CLASS_DB_DIR/password"
        EXPLORER_CLASS_DB="postgresql+psycopg://postgres:$password@127.0.0.1:$port/explorer"
    fi
    "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$data" -l "$CLASS_DB_DIR/server.log" -w start \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" >/dev/null \
        || class_db_fail "the server did not start" "$CLASS_DB_DIR/server.log"
    if [ -z "${password:-}" ]; then
        return  # reused: the database is there
    fi
    "${AS_PG[@]}" env PGPASSWORD="$password" "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" \
        -U postgres explorer 2>>"$CLASS_DB_DIR/server.log" \
        || class_db_fail "createdb failed" "$CLASS_DB_DIR/server.log"
    (umask 077 && printf '%s\n' "$EXPLORER_CLASS_DB" >"$RUN_DIR/class_db.url")
}

stop_class_db() {
    if [ -n "$CLASS_DB_DIR" ] && [ -f "$CLASS_DB_DIR/data/postmaster.pid" ]; then
        "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$CLASS_DB_DIR/data" -m fast -w stop >/dev/null 2>&1 \
            || true
    fi
    if [ -n "$CLASS_DB_TEMP" ]; then
        rm -rf "$CLASS_DB_TEMP" "$RUN_DIR/postgres" "$RUN_DIR/class_db.url"
    fi
}
