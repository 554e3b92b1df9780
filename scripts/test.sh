#!/usr/bin/env bash
# Set everything up and run the whole test suite, real-browser tests included.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k tokenizer`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh requirements-dev.txt
# Browser tests need Debian's Chromium, and a CJK font so Chinese renders in screenshots;
# the classroom-server test (tests/test_cluster.py) needs Debian's nginx.
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ] || [ ! -x /usr/sbin/nginx ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "Installing Debian's chromium, fonts-noto-cjk and nginx for the browser tests..."
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk nginx >/dev/null
    else
        echo "warning: run 'sudo apt-get install -y chromium fonts-noto-cjk nginx' for the browser tests" >&2
    fi
fi
exec .venv/bin/python -m pytest "$@"
