"""bench/paint_profile.py: a page switch's main-thread time, bucketed by the script that spent it
(V8's sampling profile as the Chrome DevTools Protocol returns it)."""

from __future__ import annotations

import doctest

import pytest

from bench import paint_profile
from bench.paint_profile import bucket_times

STATIC = "http://127.0.0.1:8670/static/js/"


def frame(function: str, url: str = "") -> dict:
    return {"functionName": function, "url": url, "lineNumber": -1, "columnNumber": -1}


def profile(*samples: tuple[dict, int]) -> dict:
    """A profile with one node per sample (its top frame) and the sample's time in microseconds."""
    nodes = [{"id": 1, "callFrame": frame("(root)")}]
    nodes += [{"id": i + 2, "callFrame": top} for i, (top, _) in enumerate(samples)]
    return {"nodes": nodes, "samples": [i + 2 for i in range(len(samples))],
            "timeDeltas": [us for _, us in samples]}  # fmt: skip


def test_each_sample_counts_for_the_script_on_top_of_its_stack() -> None:
    spent = bucket_times(profile(
        (frame("L", STATIC + "PlotlyChart.D9Z0_fxz.js"), 300),
        (frame("Zs", STATIC + "DataFrame.-f9-1zS0.js"), 40),
        (frame("Ho", STATIC + "react-dom.Dzbslgj4.js"), 20),
        (frame("He", STATIC + "emotion-styled.browser.esm.DdOkyKg_.js"), 7),
        (frame("", STATIC + "StreamlitMarkdown.oOG-xoxw.js"), 5),
        (frame("t", STATIC + "index.DormvYxC.js"), 11),
        (frame("getBoundingClientRect"), 2),  # a DOM call with no script: the page's own code
        (frame("(program)"), 500),
        (frame("(garbage collector)"), 9),
        (frame("(idle)"), 10_000),
    ))  # fmt: skip
    assert spent == {"plotly": 300, "dataframe": 40, "react": 20, "emotion": 7, "markdown": 5,
                     "other JS": 13, "native": 500, "gc": 9}  # fmt: skip


def test_idle_time_is_not_the_page_s() -> None:
    assert sum(bucket_times(profile((frame("(idle)"), 900), (frame("(root)"), 5))).values()) == 0


def test_samples_and_their_times_must_pair() -> None:
    broken = profile((frame("(program)"), 1))
    broken["timeDeltas"].append(4)
    with pytest.raises(ValueError):
        bucket_times(broken)


def test_doctests() -> None:
    assert doctest.testmod(paint_profile).failed == 0
