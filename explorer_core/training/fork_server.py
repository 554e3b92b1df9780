"""Imported only inside the training fork server (`worker.worker_context` preloads it): the
training code, and workers that never re-run the parent's main script.

multiprocessing tells each new child which module was `__main__` in the parent at `start()`, and
the child runs that file again as `__mp_main__` before its target. Streamlit installs every page
script it runs as `sys.modules["__main__"]`, so a worker started from a page would run `app.py`
(or, in an AppTest, the page itself) in bare mode first: seconds of imports and warm-up at best,
at worst the page raising outside Streamlit and the worker exiting with code 1 before training.
Our workers' targets live in `explorer_core.training.worker`, importable by name, so the fork
server's children skip that step.
"""

from __future__ import annotations

from multiprocessing import spawn

import explorer_core.training.worker  # noqa: F401 - torch and the training code, imported once


def _keep_main(*_args: object) -> None:
    """The parent's `__main__` is not ours to run (see the module docstring)."""


spawn._fixup_main_from_path = _keep_main  # noqa: SLF001
spawn._fixup_main_from_name = _keep_main  # noqa: SLF001
