"""bench/page_compare.py: the before / after table of two page_latency runs compares each run's
figures as multiples of its own floor (the bare Streamlit app walked in the same run)."""

from __future__ import annotations

from bench.page_compare import compare, rows


def run(floor_ms: float, head_ms: float) -> dict:
    """A page_latency result with one change (the attention head) and the floor's switches."""
    return {
        "load_start": "1.00",
        "changes": {"attention": {"head": {"server": [50, 60], "painted": [head_ms] * 4}}},
        "switches": {"attention": [head_ms]},
        "cold": [{"start": 3000}],
        "floor": {"switches": {"": [floor_ms] * 3, "floor-2": [floor_ms] * 3}},
    }


def test_a_run_under_twice_the_load_compares_equal():
    """Old: floor 500 ms, head 1000 ms (2x); new: everything twice as slow (floor 1000, head
    2000, still 2x): new/old is 1.00, though the milliseconds doubled."""
    line = next(
        x for x in compare(run(500, 1000), run(1000, 2000)) if "head" in x and "painted" in x
    )
    assert line.split()[-1] == "1.00"
    assert "2.00 (2.00)" in line  # the multiple of the floor, p95 (p50)


def test_a_faster_page_reads_below_one():
    """Head 1000 -> 600 ms on the same floor (500 ms): 2.0x -> 1.2x the floor, new/old 0.60."""
    line = next(x for x in compare(run(500, 1000), run(500, 600)) if "head" in x and "painted" in x)
    assert line.split()[-1] == "0.60"


def test_rows_skip_what_was_not_measured():
    """A server time the trace did not log (None) is left out of its percentiles."""
    result = run(500, 1000)
    result["changes"]["attention"]["head"]["server"] = [None, 80]
    assert rows(result)[("/attention", "head", "server")] == {"n": 1, "p50": 80, "p95": 80}


def test_no_floor_no_multiples():
    result = run(500, 1000)
    del result["floor"]
    assert compare(result, run(500, 1000)) == [
        "one of the runs has no floor page switch: no multiples to compare"
    ]
