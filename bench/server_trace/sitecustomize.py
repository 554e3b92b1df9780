"""Server-side clock for bench/page_latency.py: when a rerun request arrives, when its run ends.

The benchmark puts this folder first on the server's PYTHONPATH and names a file in
`EXPLORER_BENCH_TRACE`; Python imports `sitecustomize` at start-up, and this one wraps two methods
of Streamlit's `AppSession` to append one line per event to that file: `<time.monotonic()> rerun`
when a `rerun_script` message is handled, `<time.monotonic()> finished <status>` when the run's
`script_finished` message is queued for the browser, and `<time> sizes {json}` after a run when
the opened models' bytes (`explorer_core.ui.models.sources.memory().sizes()`) changed. The
monotonic clock is the benchmark's too.
Without the variable it does nothing; the app never imports it.
"""

from __future__ import annotations

import json
import os
import sys
import time

PATH = os.environ.get("EXPLORER_BENCH_TRACE")


def _model_sizes() -> str | None:
    """The opened models' bytes as the server keeps them (`ui.models.sources.memory().sizes()`,
    the health figures), once the app has imported that module; None before."""
    sources = sys.modules.get("explorer_core.ui.models.sources")
    if sources is None:
        return None
    try:
        return json.dumps(sources.memory().sizes(), separators=(",", ":"))
    except Exception:  # noqa: BLE001 - a clock, not a check: the benchmark then computes them
        return None


def _install(path: str) -> None:
    from streamlit.runtime import app_session

    log = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives with the server
    session = app_session.AppSession
    handle, enqueue = session.handle_backmsg, session._enqueue_forward_msg

    def handle_backmsg(self, msg):  # noqa: ANN001, ANN202
        if msg.WhichOneof("type") == "rerun_script":
            log.write(f"{time.monotonic():.6f} rerun\n")
        return handle(self, msg)

    last_sizes = [None]

    def enqueue_forward_msg(self, msg):  # noqa: ANN001, ANN202
        if msg.WhichOneof("type") == "script_finished":
            log.write(f"{time.monotonic():.6f} finished {msg.script_finished}\n")
            sizes = _model_sizes()
            if sizes is not None and sizes != last_sizes[0]:
                last_sizes[0] = sizes
                log.write(f"{time.monotonic():.6f} sizes {sizes}\n")
        return enqueue(self, msg)

    app_session.AppSession.handle_backmsg = handle_backmsg
    app_session.AppSession._enqueue_forward_msg = enqueue_forward_msg


if PATH:
    _install(PATH)
