"""ModelMemory: one copy per model for the whole server, least recently used evicted first under
a byte budget, bytes per model reported."""

from __future__ import annotations

import threading

import torch

from explorer_core.models.memory import (
    ModelMemory,
    cache_budget_bytes,
    choose_evictions,
    parameter_bytes,
)


def test_eviction_order_worked_by_hand():
    """30 + 50 + 10 + 20 = 110 > 100: dropping a (30) leaves 80, which fits."""
    loaded = [("a", 30), ("b", 50), ("c", 10)]
    assert choose_evictions(loaded, budget=100, incoming=20) == ("a",)
    assert choose_evictions(loaded, budget=100, incoming=70) == ("a", "b")  # 160 -> 130 -> 80
    assert choose_evictions(loaded, budget=5, incoming=500) == ("a", "b", "c")
    assert choose_evictions([], budget=0, incoming=500) == ()


def test_parameter_bytes_counts_parameters_and_buffers():
    layer = torch.nn.BatchNorm1d(10)  # weight, bias (float32) + running mean/var + a count
    assert parameter_bytes(layer) == 4 * (10 + 10 + 10 + 10) + 8


def test_memory_loads_once_reports_bytes_and_evicts_the_least_recently_used():
    loads = []

    def loader(name, nbytes):
        def load():
            loads.append(name)
            return {"name": name, "bytes": nbytes}

        return load

    memory = ModelMemory(budget_bytes=100)
    size = lambda model: model["bytes"]  # noqa: E731
    a = memory.get("a", loader("a", 40), size)
    assert memory.get("a", loader("a", 40), size) is a  # one copy, loaded once
    memory.get("b", loader("b", 40), size)
    memory.get("a", loader("a", 40), size)  # a is now the most recently used
    memory.get("c", loader("c", 40), size)  # 120 > 100: b goes, not a
    assert memory.sizes() == {"a": 40, "c": 40}
    assert memory.total_bytes() == 80 and memory.evicted == ["b"]
    assert loads == ["a", "b", "c"]
    assert memory.drop("a") and not memory.drop("a")


def test_memory_shared_by_threads_loads_a_model_once():
    loads = []
    barrier = threading.Barrier(4)
    memory = ModelMemory(budget_bytes=10**9)

    def load():
        loads.append(1)
        return torch.nn.Linear(3, 5)

    def session():
        barrier.wait()
        memory.get("m", load)

    threads = [threading.Thread(target=session) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == [1] and memory.sizes() == {"m": 4 * (3 * 5 + 5)}


def test_budget_setting(monkeypatch):
    monkeypatch.delenv("EXPLORER_MODEL_MAX_MB", raising=False)
    monkeypatch.delenv("EXPLORER_MODEL_CACHE_MB", raising=False)
    assert cache_budget_bytes() == 3000 * 10**6  # twice the 1500 MB model limit
    monkeypatch.setenv("EXPLORER_MODEL_CACHE_MB", "800")
    assert cache_budget_bytes() == 800 * 10**6


def test_a_loaded_model_is_served_while_another_loads():
    memory = ModelMemory(budget_bytes=10**9)
    memory.get("small", lambda: "small model", size=len)
    started, release = threading.Event(), threading.Event()

    def slow_load():
        started.set()
        release.wait(10)
        return "big model"

    loader = threading.Thread(target=memory.get, args=("big", slow_load, len))
    loader.start()
    assert started.wait(10)
    assert memory.get("small", lambda: "reloaded", size=len) == "small model"  # no waiting
    release.set()
    loader.join(10)
    assert memory.sizes() == {"small": 11, "big": 9}
