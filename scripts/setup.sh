# Sourced by run.sh and test.sh: make .venv with Python 3.11 and install the given requirements file.
# Usage: source scripts/setup.sh requirements.txt
set -euo pipefail
PYTHON_BIN="${PYTHON_BIN:-$(command -v python3.11 || command -v python3)}"
if ! "$PYTHON_BIN" -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))'; then
    echo "error: Python 3.11 or newer is needed (found $("$PYTHON_BIN" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON_BIN" -m venv .venv
fi
# pip prints harmless "Location ... is ignored" warnings about local package indexes; hide them.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$1" 2>&1 \
    | { grep -v "is ignored: it is neither a file nor a directory" || true; }
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
