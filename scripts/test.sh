#!/usr/bin/env bash
# Set everything up and run the whole test suite, real-browser tests included.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k tokenizer`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh requirements-dev.txt
# Browser tests need Debian's Chromium, and a CJK font so Chinese renders in screenshots.
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "Installing Debian's chromium and fonts-noto-cjk for the browser tests..."
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
    else
        echo "warning: run 'sudo apt-get install -y chromium fonts-noto-cjk' for the browser tests" >&2
    fi
fi
exec .venv/bin/python -m pytest "$@"
