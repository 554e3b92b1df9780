#!/usr/bin/env bash
# Set everything up and run the whole test suite, real-browser tests included.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k tokenizer`).
set -euo pipefail
cd "$(dirname "$0")/.."
# Browser tests need Debian's Chromium, and a CJK font so Chinese renders in screenshots;
# the classroom-server test (tests/test_cluster.py) needs Debian's nginx; the class store's tests
# (tests/postgres.py) start a private PostgreSQL from Debian's postgresql package. On a fresh
# machine apt installs them while pip fills the venv (both mostly wait on downloads and unpacking),
# and the tests start once both are done.
have_postgres() { compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null; }
apt_pid=""
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ] || [ ! -x /usr/sbin/nginx ] \
    || ! have_postgres; then
    if [ "$(id -u)" = 0 ]; then
        echo "Installing Debian's chromium, fonts-noto-cjk, nginx and postgresql for the tests..."
        apt_log="$(mktemp)"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
            fonts-noto-cjk nginx postgresql; } >"$apt_log" 2>&1 &
        apt_pid=$!
    else
        echo "warning: run 'sudo apt-get install -y chromium fonts-noto-cjk nginx postgresql'" \
            "for the browser, cluster and class-store tests" >&2
    fi
fi
source scripts/setup.sh requirements-dev.txt
if [ -n "$apt_pid" ] && ! wait "$apt_pid"; then
    tail -n 30 "$apt_log" >&2
    echo "error: apt-get could not install the test packages (its output is above)" >&2
    exit 1
fi
[ -z "$apt_pid" ] || rm -f "$apt_log"
# Three test processes on two cores (pytest-xdist): most of a serial run waits on servers, browsers and
# worker processes. --dist loadfile keeps each file (and its module fixtures: a server, nginx, a
# class database) in one process. Extra arguments go last, so `-n 0` runs serially again.
exec .venv/bin/python -m pytest -n "${EXPLORER_TEST_WORKERS:-3}" --dist loadfile --durations=25 "$@"
