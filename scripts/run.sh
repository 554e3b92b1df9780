#!/usr/bin/env bash
# Set everything up and start Embedding Explorer on http://localhost:8501
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh requirements.txt
exec .venv/bin/python scripts/serve.py app.py --server.port "${PORT:-8501}" \
    --server.address "${ADDRESS:-localhost}" --browser.gatherUsageStats false "$@"
