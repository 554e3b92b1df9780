"""bench/chart_mount.py: the app's chart changes replayed in plotly.js alone, four ways."""

from __future__ import annotations

import doctest
import re

from bench import chart_mount


def test_the_replay_page_loads_the_plotly_js_the_plotly_package_ships() -> None:
    path, version = chart_mount.plotly_js()
    assert path.is_file() and path.stat().st_size > 1_000_000
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert '<script src="plotly.min.js">' in chart_mount.REPLAY


def test_every_mode_is_replayed_and_streamlit_s_way_is_the_unit() -> None:
    assert chart_mount.MODES[0] == "streamlit"
    for mode in chart_mount.MODES:  # the page's switches read these names
        assert mode.startswith(("streamlit", "mount once", "in place"))
    assert 'mode.endsWith("margins set")' in chart_mount.REPLAY
    cells = chart_mount.row("p", dict.fromkeys(chart_mount.MODES, 50.0)).split()[1:]
    assert cells == ["50", "(1.00)"] * len(chart_mount.MODES)


def test_the_default_pages_each_have_a_main_change() -> None:
    from bench import page_latency

    mains = {spec.path for spec in page_latency.PAGES if any(c.main for c in spec.changes)}
    assert set(chart_mount.DEFAULT_PAGES) <= mains


def test_doctests() -> None:
    assert doctest.testmod(chart_mount).failed == 0
