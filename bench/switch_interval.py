"""Why app.py lowers Python's switch interval: how long the server's event loop waits for the lock.

Every session's script is a thread of the one Streamlit process, beside the event loop that answers
`/_stcore/health` and forwards messages. This measures the mechanism alone, no Streamlit: N busy
threads (sessions' scripts in the same second), and a probe that needs the interpreter lock ten
times in a row (about what one request costs the event loop, which gives the lock up at each wait
for the network). Printed: p50 / p95 / max seconds of the probe at the default interval (5 ms)
and at the app's (`explorer_core.ui.throttle.SWITCH_INTERVAL`), interleaved, and their ratio.

    python bench/switch_interval.py [--threads 30] [--samples 20]   # about two minutes

Measured 2026-11-24 on this 2-core machine, 30 threads: 5 ms 1.50 / 2.63 / 3.35 s and 1.30 /
2.91 / 3.64 s; 1 ms 0.34 / 0.63 / 0.83 s and 0.32 / 0.64 / 0.76 s (about 4.5x less waiting).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer_core.ui.throttle import SWITCH_INTERVAL  # noqa: E402

DEFAULT_INTERVAL = 0.005  # CPython's


def busy(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(1000):
            x += 1


def probe(interval: float, threads: int, samples: int) -> tuple[float, float, float]:
    """(p50, p95, max) seconds for ten lock acquisitions beside `threads` busy threads."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(interval)
    stop = threading.Event()
    workers = [threading.Thread(target=busy, args=(stop,)) for _ in range(threads)]
    for worker in workers:
        worker.start()
    waits = []
    try:
        for _ in range(samples):
            start = time.perf_counter()
            for _ in range(10):
                time.sleep(0)  # gives the lock up and waits to get it back
            waits.append(time.perf_counter() - start)
            time.sleep(0.02)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
        sys.setswitchinterval(before)
    waits.sort()
    return statistics.median(waits), waits[int(0.95 * (len(waits) - 1))], waits[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=30)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    results: dict[float, list[tuple[float, float, float]]] = {}
    for interval in (DEFAULT_INTERVAL, SWITCH_INTERVAL) * 2:  # interleaved
        results.setdefault(interval, []).append(probe(interval, args.threads, args.samples))
    for interval, runs in results.items():
        cells = "   ".join(" / ".join(f"{v:.2f}" for v in run) for run in runs)
        print(f"switch interval {interval * 1000:.0f} ms: p50 / p95 / max s   {cells}")
    p95 = {i: statistics.mean(r[1] for r in runs) for i, runs in results.items()}
    print(f"p95 ratio, {SWITCH_INTERVAL * 1000:.0f} ms / default: "
          f"{p95[SWITCH_INTERVAL] / p95[DEFAULT_INTERVAL]:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
