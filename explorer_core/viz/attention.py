"""Frames and figures for the Attend pages: attention grids, one head, one cell, masks, MLM strips.

Inputs are numpy arrays and plain lists (the pages turn tensors into them); every figure has axis
titles, a colour bar with its range and hover values. Token labels carry their position ("3 · the")
because plotly merges equal category names, and a sentence often repeats a word.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer_core.bert.attention import CellArithmetic
from explorer_core.inputs.pairs import NspExample
from explorer_core.viz.common import CATEGORICAL, SEQUENTIAL, heatmap, style

NEG_THRESHOLD = -1e30  # a score below this was blocked by a mask (shown as −∞)


def token_labels(tokens: Sequence[str]) -> list[str]:
    """Unique axis labels: ["[CLS]", "the", "the"] -> ["0 · [CLS]", "1 · the", "2 · the"]."""
    return [f"{i} · {token}" for i, token in enumerate(tokens)]


def overview_figure(
    weights: np.ndarray, *, title: str, layer_title: str, head_title: str, value_title: str,
    query_title: str, key_title: str,
) -> go.Figure:  # fmt: skip
    """Small multiples: every head of every layer, weights (L, H, T, T) tiled into one heatmap.

    A blank row and column separate the tiles; hover names the layer, head, query and key.
    """
    layers, heads, length, _ = weights.shape
    step = length + 1
    tiles = np.pad(weights, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=np.nan)
    grid = tiles.transpose(0, 2, 1, 3).reshape(layers * step, heads * step)[:-1, :-1]
    rows, cols = np.arange(layers * step - 1), np.arange(heads * step - 1)
    info = np.stack(np.broadcast_arrays(  # per cell: layer, head, query, key (1-based L and H)
        rows[:, None] // step + 1, cols[None, :] // step + 1, rows[:, None] % step,
        cols[None, :] % step,
    ), axis=-1)  # fmt: skip
    trace = go.Heatmap(
        z=grid, customdata=info, colorscale=SEQUENTIAL, zmin=0.0, zmax=1.0,
        colorbar=dict(title=dict(text=value_title)), hoverongaps=False,
        hovertemplate=f"{layer_title} %{{customdata[0]}}, {head_title} %{{customdata[1]}}<br>"
        f"{query_title}: %{{customdata[2]}}, {key_title}: %{{customdata[3]}}<br>"
        + value_title + ": %{z:.3f}<extra></extra>",
    )  # fmt: skip
    fig = go.Figure(trace)
    centres = [i * step + (length - 1) / 2 for i in range(max(layers, heads))]
    fig.update_xaxes(
        tickvals=centres[:heads], ticktext=[str(h + 1) for h in range(heads)], showgrid=False
    )
    fig.update_yaxes(
        tickvals=centres[:layers], ticktext=[str(i + 1) for i in range(layers)],
        autorange="reversed", showgrid=False,
    )  # fmt: skip
    height = int(min(900, max(320, 90 * layers + 120)))
    return style(fig, title=title, x_title=head_title, y_title=layer_title, height=height)


def head_figure(
    weights: np.ndarray, labels: Sequence[str], *, title: str, query_title: str,
    key_title: str, value_title: str, segments: Sequence[int] | None = None,
) -> go.Figure:  # fmt: skip
    """One head's weights (T, T): queries down, keys across; A/B blocks outlined for a pair."""
    fig = heatmap(
        weights, x=labels, y=labels, title=title, x_title=key_title, y_title=query_title,
        value_title=value_title, zmin=0.0, zmax=1.0,
        text_format=".2f" if len(labels) <= 10 else None, height=max(420, 26 * len(labels) + 160),
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    if segments is not None and len(set(segments)) > 1:
        add_blocks(fig, segments)
    return fig


def add_click_targets(
    fig: go.Figure, labels: Sequence[str], selected: tuple[int, int] | None = None
) -> go.Figure:
    """Make every cell of a (T, T) token heatmap clickable; outline the `selected` (query, key).

    For figures with queries down and keys across (`head_figure`, `scores_figure`).

    # subtle: plotly reports no point for a click on a heatmap (Streamlit's selection stays
    # empty), so an invisible marker sits on each cell's centre: a click selects that marker, whose
    # x (key label) and y (query label) name the cell. Only the selected marker is drawn, as an
    # outline. hoverinfo "none" keeps the heatmap's own hover text.
    """
    size = len(labels)
    keys, queries = np.meshgrid(np.arange(size), np.arange(size))  # row-major: index q * T + k
    picked = [selected[0] * size + selected[1]] if selected is not None else None
    fig.add_trace(go.Scatter(
        x=[labels[k] for k in keys.ravel()], y=[labels[q] for q in queries.ravel()],
        mode="markers", hoverinfo="none", showlegend=False, selectedpoints=picked,
        marker=dict(symbol="square-open", size=18, color="#d55e00", opacity=0,
                    line=dict(width=3)),
        selected=dict(marker=dict(opacity=1)), unselected=dict(marker=dict(opacity=0)),
    ))  # fmt: skip
    fig.update_layout(clickmode="event+select", dragmode=False)
    # subtle: markers would widen the axes' autorange by their size; keep the heatmap's own cells
    fig.update_xaxes(range=[-0.5, size - 0.5], autorange=False)
    fig.update_yaxes(range=[size - 0.5, -0.5], autorange=False)  # queries down, as head_figure
    return fig


def add_blocks(fig: go.Figure, segments: Sequence[int]) -> None:
    """Outline the A×A, A×B, B×A and B×B blocks (segment 0 then 1) on a token heatmap."""
    split = next(i for i, s in enumerate(segments) if s == 1) - 0.5
    end = len(segments) - 0.5
    for x0, x1 in ((-0.5, split), (split, end)):
        for y0, y1 in ((-0.5, split), (split, end)):
            fig.add_shape(
                type="rect", x0=x0, x1=x1, y0=y0, y1=y1, xref="x", yref="y",
                line=dict(color=CATEGORICAL[5], width=2),
            )  # fmt: skip


def scores_figure(
    scores: np.ndarray, labels: Sequence[str], *, title: str, query_title: str,
    key_title: str, value_title: str,
) -> go.Figure:  # fmt: skip
    """Pre-softmax scores (T, T) on a diverging scale; masked cells blank, labelled −∞."""
    shown = np.where(scores < NEG_THRESHOLD, np.nan, scores)
    fig = heatmap(
        shown, x=labels, y=labels, title=title, x_title=key_title, y_title=query_title,
        value_title=value_title, diverging=True, height=max(420, 26 * len(labels) + 160),
    )  # fmt: skip
    fig.update_layout(plot_bgcolor="#BBBBBB")  # masked cells (NaN) show the grey background
    blocked = np.argwhere(scores < NEG_THRESHOLD)
    if len(labels) <= 12 and len(blocked):
        fig.add_trace(
            go.Scatter(
                x=[labels[k] for _, k in blocked], y=[labels[q] for q, _ in blocked],
                mode="text", text=["−∞"] * len(blocked), hoverinfo="skip", showlegend=False,
            )
        )  # fmt: skip
    if len(labels) <= 10:
        fig.update_traces(texttemplate="%{z:.2f}", selector=dict(type="heatmap"))
    fig.update_yaxes(autorange="reversed")
    return fig


def allowed_figure(
    allowed: np.ndarray, labels: Sequence[str], *, title: str, query_title: str,
    key_title: str, value_title: str,
) -> go.Figure:  # fmt: skip
    """The mask itself (T, T): 1 where a query may look at a key, 0 where it is blocked."""
    fig = heatmap(
        allowed.astype(float), x=labels, y=labels, title=title, x_title=key_title,
        y_title=query_title, value_title=value_title, zmin=0.0, zmax=1.0,
        height=max(380, 22 * len(labels) + 160),
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    return fig


def row_figure(
    cell: CellArithmetic, labels: Sequence[str], *, title: str, key_title: str,
    score_title: str, weight_title: str,
) -> go.Figure:  # fmt: skip
    """One query's row: each key's pre-softmax score and softmax weight; the chosen key marked."""
    scores = [s if s > NEG_THRESHOLD else None for s in cell.row_scores]
    colours = [CATEGORICAL[1] if k == cell.key else CATEGORICAL[0] for k in range(len(labels))]
    fig = go.Figure()
    fig.add_bar(
        x=list(labels), y=list(cell.row_weights), name=weight_title, marker_color=colours,
        hovertemplate=f"{key_title}: %{{x}}<br>{weight_title}: %{{y:.4f}}<extra></extra>",
    )  # fmt: skip
    fig.add_scatter(
        x=list(labels), y=scores, name=score_title, mode="markers+lines", yaxis="y2",
        marker=dict(color=CATEGORICAL[2]),
        hovertemplate=f"{key_title}: %{{x}}<br>{score_title}: %{{y:.4f}}<extra></extra>",
    )  # fmt: skip
    fig.update_layout(
        yaxis=dict(range=[0, 1]),
        yaxis2=dict(title=dict(text=score_title), overlaying="y", side="right"),
        legend=dict(orientation="h", y=-0.3),
    )
    return style(fig, title=title, x_title=key_title, y_title=weight_title, height=380)


def dot_product_frame(cell: CellArithmetic, columns: Sequence[str]) -> pd.DataFrame:
    """q_i, k_i and q_i × k_i for every dimension i of the head; their sum is q·k."""
    q, k = np.asarray(cell.q), np.asarray(cell.k)
    return pd.DataFrame({columns[0]: np.arange(len(q)), columns[1]: q, columns[2]: k,
                         columns[3]: q * k})  # fmt: skip


def block_frame(
    weights: np.ndarray, segments: Sequence[int], real: Sequence[bool], names: Sequence[str]
) -> pd.DataFrame:
    """Average share of attention that A queries and B queries give to A keys and B keys.

    Rows are query segments, columns key segments; each row sums to 1 over the real tokens.
    """
    seg, keep = np.asarray(segments), np.asarray(real, dtype=bool)
    table = {}
    for key_segment, key_name in enumerate(names):
        column = []
        for query_segment in range(len(names)):
            rows = weights[(seg == query_segment) & keep]
            column.append(float(rows[:, (seg == key_segment) & keep].sum(axis=1).mean()))
        table[key_name] = column
    return pd.DataFrame(table, index=list(names))


def kind_strip(
    tokens: Sequence[str], shown: Sequence[str], kinds: Sequence[int], names: Sequence[str],
    *, title: str, position_title: str, kind_title: str,
) -> go.Figure:  # fmt: skip
    """One coloured cell per token: its kind (names[code]); text = what the model sees."""
    palette = ("#DDDDDD", CATEGORICAL[0], CATEGORICAL[1], CATEGORICAL[2], "#888888")
    n = len(names)
    scale = []
    for code in range(n):  # a discrete scale: one flat band per kind
        scale += [[code / n, palette[code]], [(code + 1) / n, palette[code]]]
    hover = [f"{t} → {s}<br>{names[c]}" for t, s, c in zip(tokens, shown, kinds, strict=True)]
    trace = go.Heatmap(
        z=[list(kinds)], x=token_labels(tokens), y=[""], text=[list(shown)],
        texttemplate="%{text}", customdata=[hover], zmin=-0.5, zmax=n - 0.5, colorscale=scale,
        colorbar=dict(title=dict(text=kind_title), tickvals=list(range(n)), ticktext=list(names)),
        hovertemplate="%{x}<br>%{customdata}<extra></extra>", xgap=2,
    )  # fmt: skip
    fig = go.Figure(trace)
    return style(fig, title=title, x_title=position_title, y_title="", height=330)


def shares_figure(
    shares: dict[str, np.ndarray], expected: dict[str, float], names: dict[str, str], *,
    title: str, x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """Running share of each kind after each draw, with its expected value as a dashed line."""
    fig = go.Figure()
    for i, (kind, values) in enumerate(shares.items()):
        draws = np.arange(1, len(values) + 1)
        fig.add_scatter(
            x=draws, y=100 * np.asarray(values), name=names[kind], mode="lines",
            line=dict(color=CATEGORICAL[i]),
            hovertemplate=f"{x_title}: %{{x}}<br>{names[kind]}: %{{y:.2f}}%<extra></extra>",
        )  # fmt: skip
        fig.add_hline(y=100 * expected[kind], line=dict(color=CATEGORICAL[i], dash="dash"))
    fig.update_xaxes(type="log", dtick=1)  # one tick per power of ten
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=380)


def fmt_score(value: float) -> str:
    """A score for display; a masked one is −∞ (it is the dtype's most negative number)."""
    return "−∞" if value < NEG_THRESHOLD else f"{value:.4f}"


def cell_steps(cell: CellArithmetic) -> list[tuple[str, str]]:
    """(step name, shown value) for the metric row: q·k, scaled, mask, score, weight."""
    return [
        ("dot", f"{cell.dot:.4f}"),
        ("scaled", f"{cell.scaled:.4f}"),
        ("mask", "−∞" if cell.mask < NEG_THRESHOLD else f"{cell.mask:g}"),
        ("score", fmt_score(cell.score)),
        ("weight", f"{cell.weight:.4f}"),
    ]


def cell_numbers(cell: CellArithmetic, labels: Sequence[str]) -> dict[str, str]:
    """Every number of the worked formula, formatted, keyed for the catalogue text."""
    return {
        "q": labels[cell.query], "k": labels[cell.key], "d": str(cell.head_dim),
        "dot": f"{cell.dot:.4f}", "relative": f"{cell.relative:.4f}",
        "scale": f"{cell.scale:.4f}", "scaled": f"{cell.scaled:.4f}",
        "mask": "−∞" if cell.mask < NEG_THRESHOLD else f"{cell.mask:g}",
        "score": fmt_score(cell.score), "max": f"{cell.row_max:.4f}",
        "sum": f"{cell.row_sum_exp:.4f}", "weight": f"{cell.weight:.4f}",
    }  # fmt: skip


def batch_frame(
    tokens: Sequence[Sequence[str]], masks: Sequence[Sequence[int]], row_title: str
) -> pd.DataFrame:
    """The padded batch as a table: one row per sentence, one column per position."""
    frame = pd.DataFrame([list(row) for row in tokens])
    frame.index = [f"{row_title} {i + 1} ({sum(m)})" for i, m in enumerate(masks)]
    return frame


def mlm_frame(
    tokens: Sequence[str], shown: Sequence[str], kinds: Sequence[int], labels: Sequence[int],
    names: Sequence[str], columns: Sequence[str],
) -> pd.DataFrame:  # fmt: skip
    """Position, original token, what happened, what the model sees, the label (-100: no loss)."""
    return pd.DataFrame({
        columns[0]: range(len(tokens)), columns[1]: list(tokens),
        columns[2]: [names[k] for k in kinds], columns[3]: list(shown), columns[4]: list(labels),
    })  # fmt: skip


def layout_frame(rows: dict[str, Sequence[object]]) -> pd.DataFrame:
    """Rows named by field (tokens, input_ids, ...), one column per position."""
    frame = pd.DataFrame({name: list(values) for name, values in rows.items()}).T
    frame.columns = [str(i) for i in range(frame.shape[1])]
    return frame.astype(str)


def nsp_frame(
    examples: Sequence[NspExample], label_names: dict[int, str], columns: Sequence[str]
) -> pd.DataFrame:
    """Sentence A, sentence B and the NSP label of each example."""
    return pd.DataFrame({
        columns[0]: [ex.a for ex in examples], columns[1]: [ex.b for ex in examples],
        columns[2]: [f"{ex.label} ({label_names[ex.label]})" for ex in examples],
    })  # fmt: skip


def conventions_frame(rows: Sequence[Sequence[str]], columns: Sequence[str]) -> pd.DataFrame:
    """A plain text table (what, BERT, tutorial) indexed by its first column."""
    return pd.DataFrame([list(r) for r in rows], columns=list(columns)).set_index(columns[0])
