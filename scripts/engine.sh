#!/usr/bin/env bash
# The training engine of a classroom server (Dask distributed): a scheduler, and workers on any
# machines that train the students' runs. See README, "Training runs on other machines".
#   bash scripts/engine.sh scheduler [PORT]           # one machine; PORT default 8786
#   bash scripts/engine.sh worker ADDRESS [THREADS]   # each training machine, ADDRESS e.g.
#                                                     # tcp://10.0.0.5:8786
# Then the app's replicas get EXPLORER_ENGINE=ADDRESS (serve_cluster.sh passes its environment
# on; or `[explorer] engine = "..."` in .streamlit/secrets.toml). A worker runs THREADS runs at
# once (default 1; a GPU worker can take several small runs), each with one torch thread
# (EXPLORER_TORCH_THREADS), and imports the training code at start (--preload), so the first run
# does not wait for torch. The scheduler and the workers need this project at the same
# version, set up like here (this script does it).
# The scheduler fails a task at once when its worker dies (allowed-failures 0): the student is
# told and presses Train again; a run is never silently started over on another worker.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
    echo "usage: bash scripts/engine.sh scheduler [PORT] | worker ADDRESS [THREADS]" >&2
    exit 2
}
MODE="${1:-}"
case "$MODE" in
    scheduler)
        PORT="${2:-8786}"
        [[ "$PORT" =~ ^[0-9]{1,5}$ ]] || usage
        ;;
    worker)
        ADDRESS="${2:-}"
        THREADS="${3:-1}"
        [ -n "$ADDRESS" ] && [[ "$THREADS" =~ ^[1-9][0-9]?$ ]] || usage
        ;;
    *) usage ;;
esac
if [ -z "${EXPLORER_SETUP_DONE:-}" ]; then  # serve_cluster.sh has done it for its engine
    source scripts/setup.sh requirements.txt
fi
export DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=0
# subtle: the scheduler unpickles each task (the training code's function and plan) too, so it
# also needs the project on its path, not only the workers
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
if [ "$MODE" = scheduler ]; then
    exec .venv/bin/dask scheduler --port "$PORT" --no-dashboard
fi
exec .venv/bin/dask worker "$ADDRESS" --nthreads "$THREADS" --memory-limit 0 --no-dashboard \
    --preload explorer_core.training.worker
