#!/usr/bin/env bash
# Set everything up and run the whole test suite, real-browser tests included.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k tokenizer`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh requirements-dev.txt
# Browser tests need Debian's Chromium, and a CJK font so Chinese renders in screenshots;
# the classroom-server test (tests/test_cluster.py) needs Debian's nginx; the class store's tests
# (tests/postgres.py) start a private PostgreSQL from Debian's postgresql package.
have_postgres() { compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null; }
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ] || [ ! -x /usr/sbin/nginx ] \
    || ! have_postgres; then
    if [ "$(id -u)" = 0 ]; then
        echo "Installing Debian's chromium, fonts-noto-cjk, nginx and postgresql for the tests..."
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk nginx \
            postgresql >/dev/null
    else
        echo "warning: run 'sudo apt-get install -y chromium fonts-noto-cjk nginx postgresql'" \
            "for the browser, cluster and class-store tests" >&2
    fi
fi
# Three test processes on two cores (pytest-xdist): most of a serial run waits on servers, browsers and
# worker processes. --dist loadfile keeps each file (and its module fixtures: a server, nginx, a
# class database) in one process. Extra arguments go last, so `-n 0` runs serially again.
exec .venv/bin/python -m pytest -n "${EXPLORER_TEST_WORKERS:-3}" --dist loadfile --durations=25 "$@"
