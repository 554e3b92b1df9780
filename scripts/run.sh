#!/usr/bin/env bash
# Set everything up and start Embedding Explorer on http://localhost:8501
# The app is Streamlit's standard start, `streamlit run app.py`; the flags only pick port and address.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh requirements.txt
exec .venv/bin/streamlit run app.py --server.port "${PORT:-8501}" \
    --server.address "${ADDRESS:-localhost}" --browser.gatherUsageStats false "$@"
