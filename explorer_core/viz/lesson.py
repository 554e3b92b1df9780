"""Figures of the guided lesson that no other page draws: token chips, the one-hot row, pooling.

The other steps reuse the figures of the pages that teach them in detail (`viz.embedding`,
`viz.attention`, `viz.training`). Texts come in as arguments; nothing here knows a language.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from explorer_core.viz.common import CATEGORICAL, heatmap, style
from explorer_core.viz.tokens import SPAN_STYLE, SPECIAL_STYLE, TINTS

UNKNOWN_STYLE = "background:#fff;color:#b00020;border:2px dashed #b00020;border-radius:3px;" \
    "padding:0 3px;margin:1px"  # fmt: skip


def chips_html(
    tokens: Sequence[str], kinds: Sequence[str], ids: Sequence[int] | None = None
) -> str:
    """The tokens as coloured chips in one line (specials dark, [UNK] dashed red), large type.

    With `ids`, each chip shows its id underneath (the "token → id" step).
    """
    parts = []
    for index, (token, kind) in enumerate(zip(tokens, kinds, strict=True)):
        if kind == "special":
            look = SPECIAL_STYLE
        elif kind == "unknown":
            look = UNKNOWN_STYLE
        else:
            look = SPAN_STYLE.format(bg=TINTS[index % len(TINTS)])
        label = html.escape(token)
        if ids is not None:
            label += f'<br><span style="font-size:0.75em;color:inherit">{int(ids[index])}</span>'
        parts.append(
            f'<span style="{look};display:inline-block;text-align:center;'
            f'margin:3px 4px">{label}</span>'
        )
    return f'<div style="font-size:1.35rem;line-height:2.2">{"".join(parts)}</div>'


def one_hot_figure(
    token_id: int, vocab_size: int, token: str, *, title: str, x_title: str, y_title: str
) -> go.Figure:
    """The one-hot row: 0 at every one of `vocab_size` places but one, a spike of 1 at `token_id`.

    Drawn as a line (not 30,522 bars) so it stays light in the browser and in an SVG export.
    """
    last = vocab_size - 1
    xs = [0, token_id, token_id, token_id, last]
    fig = go.Figure(
        go.Scatter(
            x=xs,
            y=[0, 0, 1, 0, 0],
            mode="lines",
            line=dict(color=CATEGORICAL[0], width=3),
            hoverinfo="skip",
            showlegend=False,
        )  # fmt: skip
    )
    fig.add_trace(
        go.Scatter(
            x=[token_id],
            y=[1],
            mode="markers+text",
            marker=dict(size=14, color=CATEGORICAL[5]),
            text=[f"{token} · {token_id}"],
            textposition=label_side(token_id, vocab_size),
            showlegend=False,
            hovertemplate=f"{x_title}: %{{x}}<br>{y_title}: %{{y}}<extra></extra>",
        )  # fmt: skip
    )
    style(fig, title=title, x_title=x_title, y_title=y_title, height=280)
    fig.update_xaxes(range=[-vocab_size * 0.01, last * 1.01])
    fig.update_yaxes(range=[-0.1, 1.35], tickvals=[0, 1])
    return fig


def label_side(index: int, size: int) -> str:
    """Where a marker's label stays inside the plot: right of it near the left edge, and so on.

    >>> label_side(100, 30522), label_side(15000, 30522), label_side(30000, 30522)
    ('top right', 'top center', 'top left')
    """
    if index < 0.2 * size:
        return "top right"
    return "top left" if index > 0.8 * size else "top center"


def pooling_figure(rows: pd.DataFrame, *, title: str, x_title: str, y_title: str,
                   value_title: str) -> go.Figure:  # fmt: skip
    """Heatmap of `lesson.pooling_rows`: each token's last-layer numbers, then mean and unit."""
    fig = heatmap(
        rows.to_numpy(), x=[int(c[1:]) for c in rows.columns], y=list(rows.index),
        diverging=True, title=title, x_title=x_title, y_title=y_title, value_title=value_title,
        text_format=".2f" if rows.shape[1] <= 12 else None,
        height=max(300, 26 * len(rows) + 140),
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    return fig


def wrap(text: str, width: int = 22, lines: int = 3) -> str:
    """Break a sentence into at most `lines` lines of about `width` characters (plotly's <br>).

    >>> wrap("The cat sat on the doormat.", 12)
    'The cat sat<br>on the<br>doormat.'
    >>> wrap("猫坐在垫子上。", 8)
    '猫坐在垫<br>子上。'
    """
    if " " not in text:  # Chinese: no spaces, characters twice as wide
        half = max(1, width // 2)
        out = [text[i : i + half] for i in range(0, len(text), half)]
    else:
        out, line = [], ""
        for word in text.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return "<br>".join(out[:lines]) + ("…" if len(out) > lines else "")


def cosine_figure(
    texts: Sequence[str], cosines: Sequence[float], *, title: str, x_title: str, y_title: str
) -> go.Figure:
    """Vertical bars: the cosine of each sentence with the followed one (itself first: 1)."""
    fig = go.Figure(
        go.Bar(
            x=[wrap(text) for text in texts],
            y=list(cosines),
            customdata=list(texts),
            marker=dict(color=[CATEGORICAL[i % len(CATEGORICAL)] for i in range(len(texts))]),
            text=[f"{c:.3f}" for c in cosines],
            textposition="outside",
            hovertemplate=f"%{{customdata}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
        )  # fmt: skip
    )
    style(fig, title=title, x_title=x_title, y_title=y_title, height=340)
    low = min(-0.25, min(cosines, default=0.0) - 0.15)  # room below 0 only when a cosine needs it
    ticks = [v for v in (-1, -0.5, 0, 0.5, 1) if v >= low]
    fig.update_yaxes(range=[max(-1.05, low), 1.2], tickvals=ticks, zeroline=True, zerolinewidth=2)
    fig.update_xaxes(automargin=True)
    return fig
