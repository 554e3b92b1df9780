"""A gate for tests/test_warmup.py: a module whose import waits on GATE holds its module lock."""

from __future__ import annotations

import threading

GATE = threading.Event()
