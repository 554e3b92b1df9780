"""Server-side clock for bench/page_latency.py: when a rerun request arrives, when its run ends.

The benchmark puts this folder first on the server's PYTHONPATH and names a file in
`EXPLORER_BENCH_TRACE`; Python imports `sitecustomize` at start-up, and this one wraps two methods
of Streamlit's `AppSession` to append one line per event to that file: `<time.monotonic()> rerun`
when a `rerun_script` message is handled, `<time.monotonic()> finished <status>` when the run's
`script_finished` message is queued for the browser. The monotonic clock is the benchmark's too.
Without the variable it does nothing; the app never imports it.
"""

from __future__ import annotations

import os
import time

PATH = os.environ.get("EXPLORER_BENCH_TRACE")


def _install(path: str) -> None:
    from streamlit.runtime import app_session

    log = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives with the server
    session = app_session.AppSession
    handle, enqueue = session.handle_backmsg, session._enqueue_forward_msg

    def handle_backmsg(self, msg):  # noqa: ANN001, ANN202
        if msg.WhichOneof("type") == "rerun_script":
            log.write(f"{time.monotonic():.6f} rerun\n")
        return handle(self, msg)

    def enqueue_forward_msg(self, msg):  # noqa: ANN001, ANN202
        if msg.WhichOneof("type") == "script_finished":
            log.write(f"{time.monotonic():.6f} finished {msg.script_finished}\n")
        return enqueue(self, msg)

    app_session.AppSession.handle_backmsg = handle_backmsg
    app_session.AppSession._enqueue_forward_msg = enqueue_forward_msg


if PATH:
    _install(PATH)
