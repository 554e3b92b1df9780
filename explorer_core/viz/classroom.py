"""Class mode's figure: how the class answered a poll, one bar per answer, the right one marked.

Labels are the page's own strings (tokens, pairs): plotly reads a few HTML tags in text, so every
label is escaped and shows literally.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from explorer_core.viz.common import CATEGORICAL, style

OTHER = "#9a9a9a"  # bars of the answers that are not right (once revealed: all but the right one)


def poll_figure(
    choices: Sequence[tuple[str, str]], counts: Mapping[str, int], *, right: Sequence[str] = (),
    title: str, x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """Bars of `counts` (answer value -> students) over `choices` ((value, label), in order, each
    shown even at 0), then any other answer given; the values in `right` are green once known.

    >>> fig = poll_figure([("0", "t + h"), ("1", "<b>e</b>")], {"1": 3}, right=["1"], title="T",
    ...                   x_title="x", y_title="y")
    >>> list(fig.data[0].y), list(fig.data[0].x)
    ([0, 3], ['t + h', '&lt;b&gt;e&lt;/b&gt;'])
    """
    values = [value for value, _ in choices]
    labels = {value: label for value, label in choices}
    values += [value for value in counts if value not in labels]
    colours = [CATEGORICAL[2] if value in right else (OTHER if right else CATEGORICAL[0])
               for value in values]  # fmt: skip
    fig = go.Figure(go.Bar(
        x=[html.escape(str(labels.get(value, value))) for value in values],
        y=[int(counts.get(value, 0)) for value in values], marker_color=colours,
        text=[int(counts.get(value, 0)) for value in values], textposition="outside",
        hovertemplate="%{x}: %{y}<extra></extra>",
    ))  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=320)
    top = max([int(c) for c in counts.values()] + [1])
    fig.update_yaxes(range=[0, top * 1.25], dtick=max(1, round(top / 5)))
    fig.update_xaxes(type="category")
    return fig
