#!/usr/bin/env bash
# A classroom server: N copies ("replicas") of the app behind nginx, on one address.
#   bash scripts/serve_cluster.sh [N]      # N replicas (default 2); Ctrl-C stops everything
# Students open http://THIS-MACHINE:8501 (PORT). Each replica is a plain `streamlit run app.py`
# on 127.0.0.1:REPLICA_PORT+i; nginx (Debian's package, run unprivileged from
# deploy/nginx.conf.template) keeps each browser on one replica with a cookie and passes the
# websocket through. A replica that dies is restarted; nginx routes around it meanwhile.
# Settings (environment): PORT (8501), ADDRESS (0.0.0.0: every network interface),
# REPLICA_PORT (8511), RUN_DIR (a new temporary folder: nginx.conf, logs, pid), and
# MORE_SERVERS="host:port host:port": replicas on other machines, added to nginx's list
# (N may then be 0: this machine runs nginx only).
# Class mode keeps its classes in one database that every replica shares: EXPLORER_CLASS_DB (a
# SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host:5432/db) when set; else, with 2 or more
# replicas, a PostgreSQL this script starts for the cluster (Debian's postgresql package, run
# unprivileged, data in RUN_DIR/postgres, on 127.0.0.1:CLASS_DB_PORT, default a free port, with a
# random password; the URL is written to RUN_DIR/class_db.url, readable by its owner only; see
# scripts/class_db.sh); with one replica, that replica's own SQLite file.
# Training runs train on this machine's cores, each replica admitting its own; with
# EXPLORER_ENGINE=tcp://HOST:8786 they go to the workers of a training engine instead (Dask: see
# scripts/engine.sh and the README), and ENGINE_WORKERS=N starts one here for the cluster: a
# scheduler on 127.0.0.1:ENGINE_PORT (8786) and N workers (more join it from other machines with
# `bash scripts/engine.sh worker tcp://THIS-MACHINE:8786`; the scheduler listens on every
# interface, so keep its port to the class's machines).
set -euo pipefail
cd "$(dirname "$0")/.."
REPLICAS="${1:-2}"
ASKED="$REPLICAS"
MORE_SERVERS="${MORE_SERVERS:-}"
ENGINE_WORKERS="${ENGINE_WORKERS:-0}"
[[ "$ENGINE_WORKERS" =~ ^[0-9]{1,2}$ ]] || {
    echo "error: ENGINE_WORKERS must be a whole number from 0 to 99, got '$ENGINE_WORKERS'" >&2
    exit 2
}
replicas_error() {
    echo "error: the number of replicas must be a whole number from 1 to 99" \
        "(0 only with MORE_SERVERS), got '$ASKED'" >&2
    exit 2
}
[[ "$REPLICAS" =~ ^[0-9]{1,2}$ ]] || replicas_error
REPLICAS=$((10#$REPLICAS))  # "02" is 2
if [ "$REPLICAS" = 0 ] && [ -z "$MORE_SERVERS" ]; then replicas_error; fi
for server in $MORE_SERVERS; do
    if ! [[ "$server" =~ ^[A-Za-z0-9._-]+:[0-9]+$ ]]; then
        echo "error: MORE_SERVERS takes host:port entries separated by spaces, got '$server'" >&2
        exit 2
    fi
done
PORT="${PORT:-8501}"
ADDRESS="${ADDRESS:-0.0.0.0}"
REPLICA_PORT="${REPLICA_PORT:-8511}"
RUN_DIR="${RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/embedding-explorer-cluster.XXXXXX")}"
mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"  # nginx -p and -c want absolute paths

source scripts/setup.sh requirements.txt
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
if [ ! -x "$NGINX" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "Installing Debian's nginx..."
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
        NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
    else
        echo "error: nginx is missing: run 'sudo apt-get install -y nginx' first" >&2
        exit 1
    fi
fi

# Class mode's database (see the top): one for every replica, never a SQLite file per replica.
source scripts/class_db.sh

# One cookie secret for all replicas, so a browser moved to another replica keeps valid cookies.
STREAMLIT_SERVER_COOKIE_SECRET="${STREAMLIT_SERVER_COOKIE_SECRET:-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
export STREAMLIT_SERVER_COOKIE_SECRET

in_use() {  # $1: a port something on this machine already answers on
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
for port in "$PORT" $(seq "$REPLICA_PORT" $((REPLICA_PORT + REPLICAS - 1))); do
    if in_use "$port"; then
        echo "error: port $port is in use; choose others with PORT=... REPLICA_PORT=..." >&2
        exit 1
    fi
done

declare -a PIDS=()
NGINX_PID=""
declare -a ENGINE_PIDS=()

start_replica() {  # $1: replica index
    local port=$((REPLICA_PORT + $1))
    .venv/bin/streamlit run app.py --server.port "$port" --server.address 127.0.0.1 \
        --browser.gatherUsageStats false >>"$RUN_DIR/replica-$1.log" 2>&1 &
    PIDS[$1]=$!
}

stop_all() {
    trap - INT TERM EXIT
    echo "Stopping nginx and $REPLICAS replicas${CLASS_DB_DIR:+ and the class database}..."
    local pid
    for pid in $NGINX_PID "${PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for _ in $(seq 50); do  # up to 10 s for a clean exit, then no mercy
        local alive=0
        for pid in $NGINX_PID "${PIDS[@]}"; do
            if kill -0 "$pid" 2>/dev/null; then alive=1; fi
        done
        [ "$alive" = 0 ] && break
        sleep 0.2
    done
    for pid in $NGINX_PID "${PIDS[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
    done
    for pid in "${ENGINE_PIDS[@]}"; do  # after the replicas, whose runs it trains
        kill -TERM "$pid" 2>/dev/null || true
    done
    stop_class_db  # after the replicas, which hold connections to it
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all' EXIT

if [ -n "${EXPLORER_CLASS_DB:-}" ]; then
    CLASS_DB_SAYS="every replica uses EXPLORER_CLASS_DB ($(hide_password "$EXPLORER_CLASS_DB"))"
elif [ "$REPLICAS" -ge 2 ]; then
    start_class_db
    CLASS_DB_SAYS="a PostgreSQL for this cluster on ${EXPLORER_CLASS_DB##*@}, shared by all"
    CLASS_DB_SAYS+=" $REPLICAS replicas (data in $CLASS_DB_DIR; URL in $RUN_DIR/class_db.url)"
elif [ "$REPLICAS" = 1 ]; then
    CLASS_DB_SAYS="the replica's own SQLite file (one replica: nothing to share)"
fi
if [ -n "$MORE_SERVERS" ]; then
    case "${EXPLORER_CLASS_DB:-}" in
        "" | sqlite* | *@127.0.0.1[:/]* | *@localhost[:/]*)
            echo "warning: the replicas in MORE_SERVERS need EXPLORER_CLASS_DB set to one" \
                "PostgreSQL every machine reaches, or each machine keeps its own classes" >&2
            ;;
    esac
fi
if [ -n "${EXPLORER_CLASS_DB:-}" ]; then
    export EXPLORER_CLASS_DB
fi
[ "$REPLICAS" -ge 1 ] && echo "Class mode: $CLASS_DB_SAYS."

if [ "$ENGINE_WORKERS" -gt 0 ] && [ -z "${EXPLORER_ENGINE:-}" ]; then
    ENGINE_PORT="${ENGINE_PORT:-8786}"
    export EXPLORER_SETUP_DONE=1  # engine.sh: this script has set up the environment already
    bash scripts/engine.sh scheduler "$ENGINE_PORT" >>"$RUN_DIR/engine-scheduler.log" 2>&1 &
    ENGINE_PIDS+=($!)
    export EXPLORER_ENGINE="tcp://127.0.0.1:$ENGINE_PORT"
    for ((i = 0; i < ENGINE_WORKERS; i++)); do
        bash scripts/engine.sh worker "$EXPLORER_ENGINE" >>"$RUN_DIR/engine-worker-$i.log" 2>&1 &
        ENGINE_PIDS+=($!)
    done
fi
if [ -n "${EXPLORER_ENGINE:-}" ]; then
    export EXPLORER_ENGINE
    echo "Training: every replica sends its runs to the engine at $EXPLORER_ENGINE."
fi

upstreams=""
for ((i = 0; i < REPLICAS; i++)); do
    # max_fails=0: a failed request is retried on the next replica, but no replica is ever taken
    # out of the hash, so one hiccup does not move every session of a replica elsewhere
    upstreams+="        server 127.0.0.1:$((REPLICA_PORT + i)) max_fails=0;"$'\n'
    start_replica "$i"
done
for server in $MORE_SERVERS; do
    upstreams+="        server $server max_fails=0;"$'\n'
done
conf="$(<deploy/nginx.conf.template)"
conf="${conf//@RUN_DIR@/$RUN_DIR}"
conf="${conf//@LISTEN@/$ADDRESS:$PORT}"
conf="${conf//@UPSTREAM_SERVERS@/${upstreams%$'\n'}}"
printf '%s\n' "$conf" >"$RUN_DIR/nginx.conf"
"$NGINX" -t -q -c "$RUN_DIR/nginx.conf" -p "$RUN_DIR" 2>"$RUN_DIR/nginx-test.log" || {
    cat "$RUN_DIR/nginx-test.log" >&2
    exit 1
}
"$NGINX" -c "$RUN_DIR/nginx.conf" -p "$RUN_DIR" &
NGINX_PID=$!
echo "Embedding Explorer: $REPLICAS replicas from 127.0.0.1:$REPLICA_PORT${MORE_SERVERS:+ and $MORE_SERVERS}," \
    "nginx on http://$ADDRESS:$PORT (config and logs in $RUN_DIR). Ctrl-C stops everything."

declare -a RESTARTED=()
while true; do
    if ! kill -0 "$NGINX_PID" 2>/dev/null; then
        echo "error: nginx stopped; see $RUN_DIR/error.log" >&2
        exit 1
    fi
    if [ -n "$CLASS_DB_DIR" ] && [ ! -f "$CLASS_DB_DIR/data/postmaster.pid" ]; then
        echo "error: the class database stopped; see $CLASS_DB_DIR/server.log" >&2
        exit 1
    fi
    for ((i = 0; i < REPLICAS; i++)); do
        if ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
            now=$(date +%s)
            if [ $((now - ${RESTARTED[$i]:-0})) -ge 10 ]; then  # at most one restart per 10 s
                echo "replica $i (port $((REPLICA_PORT + i))) exited; restarting it" >&2
                RESTARTED[$i]=$now
                start_replica "$i"
            fi
        fi
    done
    sleep 2 &
    wait $! || true
done
