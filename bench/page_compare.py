"""Before / after for bench/page_latency.py: two of its JSON files, one table per page.

    python bench/page_latency.py --compare OLD.json NEW.json

Each run's figures are divided by *its own* floor's page-switch p95 (the bare Streamlit app
walked in the same run, bench/floor_app.py), so two runs taken under different loads compare by
how far each page is from what Streamlit costs on that machine at that moment; the last column
is new / old of those multiples (below 1: faster). The milliseconds are printed too, but only
the multiples carry over from one run's load to another's.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

METRICS = ("server", "painted")


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile, as page_latency's: `percentile([1, 2, 3, 4], 0.5)` is 2."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def stats(values: list[float]) -> dict[str, float]:
    """p50 and p95 of the samples that were measured (a None is a run the server did not log).

    >>> stats([100, 200, None, 300])
    {'n': 3, 'p50': 200, 'p95': 300}
    >>> stats([None])
    {}
    """
    kept = [v for v in values if v is not None]
    if not kept:
        return {}
    return {"n": len(kept), "p50": statistics.median(kept), "p95": percentile(kept, 0.95)}


def floor_unit(result: dict) -> float | None:
    """The floor's page-switch p95 (ms) of one run: every multiple's unit."""
    floor = result.get("floor") or {}
    every = [ms for times in floor.get("switches", {}).values() for ms in times]
    return stats(every).get("p95")


def rows(result: dict) -> dict[tuple[str, str, str], dict[str, float]]:
    """{(page, row, metric): p50/p95 in ms} of one run: each change's server and painted times,
    each page's switch, all switches pooled and the cold start.

    >>> run = {"changes": {"attention": {"head": {"server": [90, 110], "painted": [400, 600]}}},
    ...        "switches": {"attention": [700, 900]}, "cold": [{"start": 3000}]}
    >>> sorted(rows(run))[:3]
    [('/attention', 'head', 'painted'), ('/attention', 'head', 'server'), ('/attention', 'page switch', 'painted')]
    >>> rows(run)[('all pages', 'page switch', 'painted')]['p95']
    900
    """  # noqa: E501 - a doctest's expected line
    out: dict[tuple[str, str, str], dict[str, float]] = {}
    for path, changes in result.get("changes", {}).items():
        for name, row in changes.items():
            for metric in METRICS:
                if row.get(metric):
                    out[(f"/{path}", name, metric)] = stats(row[metric])
        switch = result.get("switches", {}).get(path or "home")
        if switch:
            out[(f"/{path}", "page switch", "painted")] = stats(switch)
    every = [ms for times in result.get("switches", {}).values() for ms in times]
    if every:
        out[("all pages", "page switch", "painted")] = stats(every)
    cold = [c["start"] for c in result.get("cold", []) if "start" in c]
    if cold:
        out[("cold start", "first paint", "painted")] = stats(cold)
    return out


def compare(old: dict, new: dict) -> list[str]:
    """The lines of the before / after table of two page_latency results."""
    old_unit, new_unit = floor_unit(old), floor_unit(new)
    if not old_unit or not new_unit:
        return ["one of the runs has no floor page switch: no multiples to compare"]
    before, after = rows(old), rows(new)
    lines = [
        f"floor page-switch p95: old {old_unit:.0f} ms (load {old.get('load_start', '?')}),"
        f" new {new_unit:.0f} ms (load {new.get('load_start', '?')})",
        "ms: p50/p95; x floor: p95 / that run's floor page-switch p95 (p50 in brackets);"
        " new/old: of the x-floor p95 (below 1: faster)",
        f"{'page':<22} {'row':<16} {'metric':<8} {'old ms':>11} {'new ms':>11}"
        f" {'old x floor':>13} {'new x floor':>13} {'new/old':>8}",
    ]
    for key in sorted(before.keys() & after.keys()):
        was, now = before[key], after[key]
        if not was or not now:
            continue
        old_x, new_x = was["p95"] / old_unit, now["p95"] / new_unit
        lines.append(
            f"{key[0]:<22} {key[1]:<16} {key[2]:<8}"
            f" {was['p50']:5.0f}/{was['p95']:<5.0f} {now['p50']:5.0f}/{now['p95']:<5.0f}"
            f" {old_x:5.2f} ({was['p50'] / old_unit:4.2f})"
            f" {new_x:5.2f} ({now['p50'] / new_unit:4.2f})"
            f" {new_x / old_x:8.2f}"
        )
    for key in sorted(before.keys() ^ after.keys()):
        which = "old" if key in before else "new"
        lines.append(f"{key[0]:<22} {key[1]:<16} {key[2]:<8} only in the {which} run")
    return lines


def main(old_path: Path, new_path: Path) -> None:
    old = json.loads(old_path.read_text(encoding="utf-8"))
    new = json.loads(new_path.read_text(encoding="utf-8"))
    print(f"before: {old_path}\nafter:  {new_path}")
    print("\n".join(compare(old, new)))
