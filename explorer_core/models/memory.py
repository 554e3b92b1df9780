"""Keeping loaded models under a memory budget: one copy per model, shared by every session.

Two pieces:

- `choose_evictions`, a pure function: given the loaded models' bytes from least to most
  recently used, a budget and the bytes about to be added, which to drop (oldest first) so the
  total fits. A model larger than the whole budget still loads (the size check of `checks`
  already refused what is too big) and everything else makes room for it.
- `ModelMemory`, the server's one instance (``st.cache_resource`` creates it once per
  process): ``get(key, load)`` returns the cached model or loads it, evicting by
  `choose_evictions`; ``sizes()`` gives bytes per model for the health figures.

Worked example (budget 100; a 30, b 50 loaded, a used least recently; c of 40 arrives)::

    choose_evictions([("a", 30), ("b", 50)], budget=100, incoming=40) -> ("a",)
    (30 + 50 + 40 = 120 > 100; dropping a leaves 90)

# subtle: evicting drops the cache's reference only; a session still holding the model keeps
# it alive until it lets go, so memory falls when the last user is done, not at eviction.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from explorer_core.models.settings import max_model_bytes
from explorer_core.runtime import whole_number_setting


def parameter_bytes(model: Any) -> int:
    """Bytes of a torch module's parameters and buffers (what loading it costs in memory)."""
    tensors = [*model.parameters(), *model.buffers()]
    return sum(t.numel() * t.element_size() for t in tensors)


def cache_budget_bytes() -> int:
    """The loaded models' budget: ``EXPLORER_MODEL_CACHE_MB``, else twice EXPLORER_MODEL_MAX_MB."""
    default_mb = 2 * max_model_bytes() // 1_000_000
    return whole_number_setting("EXPLORER_MODEL_CACHE_MB", default_mb) * 1_000_000


def choose_evictions(
    loaded: Sequence[tuple[str, int]], budget: int, incoming: int = 0
) -> tuple[str, ...]:
    """Keys to evict, least recently used first, so that the kept bytes plus ``incoming`` fit
    ``budget`` (or nothing is left to evict).

    >>> choose_evictions([("a", 30), ("b", 50)], budget=100, incoming=40)
    ('a',)
    >>> choose_evictions([("a", 30), ("b", 50)], budget=100, incoming=0)
    ()
    >>> choose_evictions([("a", 30), ("b", 50)], budget=10, incoming=500)
    ('a', 'b')
    """
    total = sum(size for _, size in loaded) + incoming
    evicted = []
    for key, size in loaded:
        if total <= budget:
            break
        evicted.append(key)
        total -= size
    return tuple(evicted)


class ModelMemory:
    """Loaded models by key (`LocatedModel.cache_key`), least recently used evicted first when
    the budget is exceeded. Thread-safe. A model is loaded once even when several sessions ask at
    the same moment; loads run one at a time (on a small server, what memory wants), while a
    session asking for a model already loaded never waits for someone else's load."""

    def __init__(self, budget_bytes: int | None = None) -> None:
        self.budget_bytes = cache_budget_bytes() if budget_bytes is None else budget_bytes
        self._models: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()  # guards _models and evicted; held only for bookkeeping
        self._load_lock = threading.Lock()  # one load at a time
        self.evicted: list[str] = []  # every key evicted so far, oldest first (for the health page)

    def _cached(self, key: str) -> tuple[bool, Any]:
        with self._lock:
            if key not in self._models:
                return False, None
            self._models.move_to_end(key)
            return True, self._models[key][0]

    def get(self, key: str, load: Callable[[], Any], size: Callable[[Any], int] | None = None):
        """The model under ``key``, calling ``load()`` when it is not cached (its bytes measured
        by ``size``, `parameter_bytes` unless given)."""
        found, model = self._cached(key)
        if found:
            return model
        with self._load_lock:
            found, model = self._cached(key)  # loaded by another session while we waited
            if found:
                return model
            model = load()
            nbytes = (size or parameter_bytes)(model)
            with self._lock:
                loaded = [(k, b) for k, (_, b) in self._models.items()]
                for old in choose_evictions(loaded, self.budget_bytes, nbytes):
                    del self._models[old]
                    self.evicted.append(old)
                self._models[key] = (model, nbytes)
            return model

    def sizes(self) -> dict[str, int]:
        """Bytes per loaded model, least recently used first."""
        with self._lock:
            return {key: nbytes for key, (_, nbytes) in self._models.items()}

    def total_bytes(self) -> int:
        return sum(self.sizes().values())

    def drop(self, key: str) -> bool:
        """Forget one model (e.g. its files changed); whether it was loaded."""
        with self._lock:
            return self._models.pop(key, None) is not None
