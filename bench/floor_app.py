"""The floor for bench/page_latency.py: a bare Streamlit multipage app that does about what a page
of ours does, and nothing else.

Six pages in `st.navigation`, each with a title, a paragraph, a segmented control, one 12x12
plotly heatmap (its values follow the control) and a table of the same numbers. No torch, no
model, no state of ours, no shell: what Streamlit, plotly and this machine cost by themselves.
`page_latency.py` writes it to a temporary folder, serves it the README's way and walks it with
the same browser, the same clicks and the same clock as the real app, in the same run, then
prints the app's figures as multiples of the floor's page-switch p95: a ratio that the machine's
load moves less than the milliseconds.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     app = write_floor_app(Path(folder))
    ...     sorted(p.name for p in (app.parent / "pages").iterdir())[:2], app.name
    (['floor_1.py', 'floor_2.py'], 'app.py')
"""

from __future__ import annotations

from pathlib import Path

PAGES = 6
VIEWS = ("rows", "columns", "diagonal")

APP = '''"""A bare multipage app, the floor of bench/page_latency.py (from bench/floor_app.py)."""

import streamlit as st

st.set_page_config(page_title="Floor", layout="wide")
pages = [
    st.Page(f"pages/floor_{i}.py", title=f"Floor {i}", url_path="" if i == 1 else f"floor-{i}",
            default=i == 1)
    for i in range(1, {pages} + 1)
]
st.navigation(pages).run()
'''

PAGE = '''"""Floor page {i}: title, paragraph, segmented control, a 12x12 heatmap and a table."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.title("Floor page {i}")
st.markdown(
    "A paragraph about the numbers below, as long as a lesson's introduction: the heatmap shows "
    "a 12 by 12 grid of numbers drawn from a seeded generator, and the table lists the same "
    "numbers, so the page sends one chart and one table to the browser after every change."
)
view = st.segmented_control("View", {views!r}, key="floor{i}.view", default={views[0]!r})
rng = np.random.default_rng({i} * 10 + {views!r}.index(view or {views[0]!r}))
z = rng.random((12, 12)).round(3)
fig = go.Figure(go.Heatmap(z=z, colorscale="Viridis", colorbar={{"title": "value"}}))
fig.update_layout(title=f"Page {i}: {{view}}", xaxis_title="column", yaxis_title="row",
                  height=420)
st.plotly_chart(fig, key="floor{i}.chart")
st.dataframe(pd.DataFrame(z, columns=[f"c{{j}}" for j in range(12)]), height=300)
'''


def write_floor_app(folder: Path) -> Path:
    """Write the floor app into `folder` (app.py and pages/floor_<i>.py); returns app.py."""
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    for i in range(1, PAGES + 1):
        text = PAGE.format(i=i, views=VIEWS)
        (folder / "pages" / f"floor_{i}.py").write_text(text, encoding="utf-8")
    app = folder / "app.py"
    app.write_text(APP.replace("{pages}", str(PAGES)), encoding="utf-8")
    return app


def url_paths() -> list[str]:
    """The floor's pages as `page_latency` visits them ("" is the first, at /)."""
    return ["" if i == 1 else f"floor-{i}" for i in range(1, PAGES + 1)]
