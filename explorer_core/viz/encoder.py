"""Figures of the Inside the encoder page: one layer's steps as strips, LayerNorm and GELU dot
plots, token × token and token × layer heatmaps, lines per layer. Numbers in, figures out: the
numbers come from `bert.trace` and `analysis.encoder`; texts come translated from the page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer_core.analysis.encoder import LogitLens, Neuron
from explorer_core.bert.trace import LayerTrace
from explorer_core.viz.common import (
    CATEGORICAL,
    DIVERGING,
    FONT,
    SEQUENTIAL,
    TITLE_TOP,
    heatmap,
    style,
)

STRIP_PX = 26  # height of one step's strip (px)
ROW_PX = 50  # one step's strip and its name above it: readable on a projector at 1280 × 720


@dataclass(frozen=True)
class Step:
    """One row of the flow: a catalogue name, the vector of the chosen token, its shape text."""

    name: str  # catalogue key of the step's name (translated by the page)
    vector: np.ndarray  # (width,)
    shape: str  # e.g. "1 × 384", "12 × 32"
    blocks: int = 1  # equal parts drawn apart (the heads' outputs side by side)


def flow_steps(layer: LayerTrace, token: int) -> list[Step]:
    """The steps of one layer for one token, in the layer's own order (post-LN or pre-LN).

    Names are catalogue keys ("enc.step.*"); vectors are the trace's rows for `token`.
    """
    heads, _, width = layer.head_contexts.shape
    hidden = layer.input.shape[1]
    inner = layer.ffn_pre_activation.shape[1]

    def row(tensor, name: str, shape: str | None = None) -> Step:  # noqa: ANN001 - a tensor
        vector = tensor[token].detach().numpy()
        return Step(name, vector, shape or f"1 × {vector.shape[0]}")

    heads_row = Step("enc.step.heads", layer.concat[token].detach().numpy(), f"{heads} × {width}",
                     blocks=heads)  # fmt: skip
    if layer.pre_norm:
        return [
            row(layer.input, "enc.step.input"),
            row(layer.ln1.after, "enc.step.no_ln" if layer.ln1.identity else "enc.step.ln_in"),
            heads_row, row(layer.attention_output, "enc.step.wo"),
            row(layer.attention_residual, "enc.step.res1"),
            row(layer.ln2.after, "enc.step.ln_ffn"), *ffn_rows(layer, row),
            row(layer.ffn_output, "enc.step.down"), row(layer.output, "enc.step.out"),
        ]  # fmt: skip
    gamma = Step("enc.step.gamma", layer.ln1.gamma.detach().numpy(), f"1 × {hidden}")
    beta = Step("enc.step.beta", layer.ln1.beta.detach().numpy(), f"1 × {hidden}")
    assert inner == layer.ffn_activation.shape[1]
    return [
        row(layer.input, "enc.step.input"), heads_row, row(layer.attention_output, "enc.step.wo"),
        row(layer.attention_residual, "enc.step.res1"), row(layer.ln1.after, "enc.step.ln1"),
        gamma, beta, *ffn_rows(layer, row), row(layer.ffn_output, "enc.step.down"),
        row(layer.ffn_residual, "enc.step.res2"), row(layer.output, "enc.step.ln2"),
    ]  # fmt: skip


def ffn_rows(layer: LayerTrace, row: Callable[..., Step]) -> list[Step]:
    """The feed-forward block's inside: up-projection and activation (GELU), or GeGLU's two
    halves of its up-projection, the activation of the input half, and its product with the
    gate (what W_2 reads)."""
    if layer.ffn_kind != "geglu":
        return [row(layer.ffn_pre_activation, "enc.step.up"),
                row(layer.ffn_activation, "enc.step.gelu")]  # fmt: skip
    return [row(layer.ffn_pre_activation, "enc.step.glu_in"), row(layer.ffn_gate, "enc.step.gate"),
            row(layer.ffn_activation, "enc.step.gelu"),
            row(layer.ffn_hidden, "enc.step.glu")]  # fmt: skip


def flow_figure(
    steps: Sequence[Step], names: Sequence[str], *, title: str, x_title: str, value_title: str,
    norm_title: str,
) -> go.Figure:  # fmt: skip
    """One strip per step, all on one x scale (so the feed-forward's expansion shows as width),
    each named above it with its shape and its length ‖v‖ (names above, not beside: the strips
    keep the chart's whole width, also in the guided lesson's narrow column).

    Each strip is coloured by value ÷ its own largest |value| (rows differ by orders of
    magnitude); hover gives the real value.
    # subtle: one heatmap whose shorter rows are padded with NaN, not one subplot per step:
    # twelve subplots cost ~0.3 s of plotly's validation per redraw (a token switch).
    """
    widest = max(step.vector.shape[0] for step in steps)
    real = np.full((len(steps), widest), np.nan, dtype=np.float32)  # float32: half the bytes
    for i, step in enumerate(steps):
        real[i, : step.vector.shape[0]] = step.vector
    peaks = np.nanmax(np.abs(real), axis=1, keepdims=True)
    labels = [f"{name} ({step.shape})" for name, step in zip(names, steps, strict=True)]
    fig = go.Figure(go.Heatmap(
        z=real / np.where(peaks > 0, peaks, np.float32(1)), customdata=real, y=labels,
        ygap=ROW_PX - STRIP_PX, colorscale=DIVERGING, zmin=-1, zmax=1, hoverongaps=False,
        colorbar=dict(title=dict(text=value_title, side="right"), len=0.7, thickness=14),
        hovertemplate=f"%{{y}}<br>{x_title} %{{x}}: %{{customdata:.4f}}<extra></extra>",
    ))  # fmt: skip
    norms = [float(np.linalg.norm(step.vector)) for step in steps]
    notes = [dict(text=f"{label}   <b>{norm_title} = {norm:.2f}</b>", x=0, xref="paper",
                  xanchor="left", y=label, yref="y", yanchor="bottom", yshift=STRIP_PX // 2,
                  showarrow=False) for label, norm in zip(labels, norms, strict=True)]  # fmt: skip
    cuts = [  # a black line between two heads' outputs
        dict(type="line", x0=float(x), x1=float(x), y0=i - 0.3, y1=i + 0.3,
             line=dict(color="black", width=2))
        for i, step in enumerate(steps) if step.blocks > 1
        for x in np.arange(1, step.blocks) * (step.vector.shape[0] // step.blocks) - 0.5
    ]  # fmt: skip
    fig.update_layout(
        title=dict(text=title, yref="container", y=1.0, yanchor="top", pad=dict(t=TITLE_TOP)),
        font=FONT, height=ROW_PX * len(steps) + 150, annotations=notes, shapes=cuts,
        margin=dict(l=10, r=90, t=TITLE_TOP + 60, b=60),
        xaxis=dict(title=x_title, range=[-0.5, widest - 0.5], showgrid=False, zeroline=False),
        yaxis=dict(autorange="reversed", showgrid=False, fixedrange=True, showticklabels=False),
    )  # fmt: skip
    return fig


def flow_frame(steps: Sequence[Step], names: Sequence[str]) -> pd.DataFrame:
    """The steps as a long table: step, dimension, value (for the CSV download)."""
    return pd.DataFrame([
        {"step": name, "dimension": d, "value": float(v)}
        for step, name in zip(steps, names, strict=True) for d, v in enumerate(step.vector)
    ])  # fmt: skip


def layer_record(layer: LayerTrace, tokens: Sequence[str]) -> dict:
    """Every intermediate of one layer (tokens × width lists), for the JSON download."""
    fields = (
        "input",
        "concat",
        "attention_output",
        "attention_residual",
        "attention_norm",
        "ffn_pre_activation",
        "ffn_activation",
        "ffn_output",
        "ffn_residual",
        "output",
    )
    record = {"layer": layer.layer + 1, "pre_norm": layer.pre_norm, "tokens": list(tokens)}
    record |= {name: getattr(layer, name).tolist() for name in fields}
    record["attention_weights"] = layer.attention_weights.tolist()
    for which in ("ln1", "ln2"):
        stats = getattr(layer, which)
        record[which] = {name: getattr(stats, name).tolist()
                         for name in ("mean", "std", "gamma", "beta")}  # fmt: skip
    return record


def dots_figure(
    before: np.ndarray, after: np.ndarray, *, title: str, x_title: str, y_title: str,
    colour: int = 0,
) -> go.Figure:  # fmt: skip
    """One token's vector before and after an element-wise step, one dot per dimension: for
    LayerNorm (before/after, per dimension) and for GELU (the feed-forward's inner neurons, whose
    dots draw the activation's own curve). `colour` picks from the categorical palette.
    # subtle: SVG markers (go.Scatter), not WebGL (go.Scattergl): without a GPU the browser draws
    # WebGL in software, and the two WebGL plots of a layer made most of Inside the encoder's
    # paint after a token or layer change; a few thousand SVG dots draw in a fraction of that."""
    fig = go.Figure(go.Scatter(
        x=before, y=after, mode="markers", customdata=np.arange(before.shape[0]),
        marker=dict(size=6, color=CATEGORICAL[colour], opacity=0.7),
        hovertemplate=f"#%{{customdata}}<br>{x_title}: %{{x:.4f}}<br>{y_title}: %{{y:.4f}}"
        "<extra></extra>",
    ))  # fmt: skip
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=380)


def neurons_frame(neurons: Sequence[Neuron], columns: Sequence[str]) -> pd.DataFrame:
    """The most active feed-forward neurons (analysis.encoder.top_neurons) as a table."""
    return pd.DataFrame({columns[0]: [n.index for n in neurons],
                         columns[1]: [round(n.pre, 4) for n in neurons],
                         columns[2]: [round(n.post, 4) for n in neurons]})  # fmt: skip


def matrix_figure(
    matrix: np.ndarray, labels: Sequence[str], *, title: str, x_title: str, y_title: str,
    value_title: str, zmax: float = 1.0, height: int | None = None,
) -> go.Figure:  # fmt: skip
    """A token × token matrix (rows: into, columns: from), 0 .. zmax."""
    fig = heatmap(
        matrix, x=labels, y=labels, title=title, x_title=x_title, y_title=y_title,
        value_title=value_title, zmin=0.0, zmax=zmax,
        text_format=".2f" if len(labels) <= 8 else None,
        height=height or max(420, 24 * len(labels) + 200),
    )  # fmt: skip
    fig.update_traces(textfont_size=13)
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(tickangle=-60)
    return fig


def mixing_figure(
    matrices: Sequence[np.ndarray], titles: Sequence[str], labels: Sequence[str], *, title: str,
    x_title: str, y_title: str, value_title: str,
) -> go.Figure:  # fmt: skip
    """Token × token matrices side by side (rows: into, columns: from) on one colour scale from 0
    to the largest value of any of them, the token names once on the left.

    # subtle: one heatmap, the panels separated by a NaN column (as the Attention page's
    # overview), not three subplots: make_subplots cost ~60 ms of a layer switch.
    """
    size, top = len(labels), float(max(np.max(m) for m in matrices)) or 1.0
    gap = np.full((size, 1), np.nan, dtype=np.float32)
    parts = [p for m in matrices for p in (np.asarray(m, dtype=np.float32), gap)][:-1]
    grid = np.concatenate(parts, axis=1)  # (T, n·T + n - 1)
    step = size + 1
    columns = [labels[c % step] if c % step < size else "" for c in range(grid.shape[1])]
    panel = [titles[c // step] for c in range(grid.shape[1])]
    fig = go.Figure(go.Heatmap(
        z=grid, y=list(labels), customdata=np.array([[f"{p} · {c}" for p, c in zip(
            panel, columns, strict=True)]] * size), colorscale=SEQUENTIAL, zmin=0.0, zmax=top,
        hoverongaps=False, colorbar=dict(title=dict(text=value_title)),
        hovertemplate=f"{y_title}: %{{y}}<br>{x_title}: %{{customdata}}<br>{value_title}: "
        "%{z:.3f}<extra></extra>",
    ))  # fmt: skip
    ticks = [c for c in range(grid.shape[1]) if c % step < size]
    notes = [dict(text=name, x=i * step + (size - 1) / 2, xref="x", y=1.0, yref="paper",
                  yanchor="bottom", showarrow=False, font=dict(size=15))
             for i, name in enumerate(titles)]  # fmt: skip
    fig.update_layout(
        title=dict(text=title, yref="container", y=1.0, yanchor="top", pad=dict(t=TITLE_TOP)),
        font=FONT, height=max(460, 26 * size + 260), annotations=notes,
        margin=dict(l=60, r=20, t=TITLE_TOP + 80, b=60),
        xaxis=dict(title=x_title, tickvals=ticks, ticktext=[columns[c] for c in ticks],
                   tickangle=-60, showgrid=False, zeroline=False),
        yaxis=dict(title=y_title, autorange="reversed", showgrid=False),
    )  # fmt: skip
    return fig


def grid_figure(
    grid: np.ndarray, labels: Sequence[str], *, title: str, x_title: str, y_title: str,
    value_title: str, zmin: float | None = 0.0, zmax: float | None = None,
) -> go.Figure:  # fmt: skip
    """A token × layer grid (T, L + 1): layer 0 is the embeddings. The colour scale runs from
    `zmin` to `zmax` (default: the largest value), never over the values' rounding noise alone
    (a post-LN model's norms are all √H give or take 1e-6)."""
    layers = list(range(grid.shape[1]))
    if zmin is not None and zmax is None:
        zmax = max(float(np.max(grid)), zmin + 1e-3)
    fig = heatmap(
        grid, x=layers, y=labels, title=title, x_title=x_title, y_title=y_title,
        value_title=value_title, zmin=zmin, zmax=zmax,
        text_format=".2f" if grid.size <= 120 and np.max(grid) >= 0.05 else None,
        height=max(380, 26 * len(labels) + 180),
    )  # fmt: skip
    fig.update_traces(textfont_size=13)  # plotly would shrink the numbers below readable
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(tickvals=layers, dtick=1)
    return fig


def lines_figure(
    series: dict[str, Sequence[float]], *, title: str, x_title: str, y_title: str,
    y_range: tuple[float, float] | None = None, dashed: Sequence[str] = (),
) -> go.Figure:  # fmt: skip
    """One line per series over the layers 0 .. L (markers on every layer)."""
    fig = go.Figure()
    for i, (name, values) in enumerate(series.items()):
        fig.add_trace(go.Scatter(
            x=list(range(len(values))), y=[float(v) for v in values], name=name,
            mode="lines+markers", line=dict(color=CATEGORICAL[i % len(CATEGORICAL)], width=3,
                                            dash="dash" if name in dashed else None),
            marker=dict(size=9),
            hovertemplate=f"{name}<br>{x_title} %{{x}}: %{{y:.4f}}<extra></extra>",
        ))  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=420)
    fig.update_xaxes(dtick=1)
    if y_range is not None:
        fig.update_yaxes(range=list(y_range))
    fig.update_layout(legend=dict(orientation="h", y=-0.25, yanchor="top", x=0))
    fig.update_layout(margin=dict(b=110))
    return fig


def grid_frame(grids: dict[str, np.ndarray], tokens: Sequence[str]) -> pd.DataFrame:
    """Token × layer grids as one long table: token, position, layer, one column per grid."""
    first = next(iter(grids.values()))
    rows = []
    for pos, token in enumerate(tokens):
        for layer in range(first.shape[1]):
            rows.append({"position": pos, "token": token, "layer": layer,
                         **{name: float(g[pos, layer]) for name, g in grids.items()}})  # fmt: skip
    return pd.DataFrame(rows)


def pooled_figure(
    pooled: np.ndarray, *, title: str, x_title: str, y_title: str, value_title: str
) -> go.Figure:
    """The pooled sentence vector (L + 1, H) as one strip per layer (0: embeddings)."""
    layers = list(range(pooled.shape[0]))
    fig = heatmap(pooled, x=list(range(pooled.shape[1])), y=layers, title=title,
                  x_title=x_title, y_title=y_title, value_title=value_title, diverging=True,
                  height=max(300, 40 * len(layers) + 160))  # fmt: skip
    fig.update_yaxes(autorange="reversed", tickvals=layers)
    return fig


def lens_frame(lens: LogitLens, labels: Sequence[str], layer_title: str) -> pd.DataFrame:
    """The logit lens as a table: one row per layer, one column per token, "word (prob)"."""
    words = lens.words or tuple(tuple(tuple(str(i) for i in tok) for tok in layer)
                                for layer in lens.ids.tolist())  # fmt: skip
    probs = lens.probs.tolist()
    rows = {
        layer: {label: f"{words[layer][pos][0]} ({probs[layer][pos][0]:.2f})"
                for pos, label in enumerate(labels)}
        for layer in range(len(words))
    }  # fmt: skip
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(layer_title)


def series_frame(series: dict[str, Sequence[float]], layer_title: str) -> pd.DataFrame:
    """Lines over the layers as a table: one row per layer, one column per line."""
    frame = pd.DataFrame({name: [float(v) for v in values] for name, values in series.items()})
    return frame.rename_axis(layer_title).reset_index()


def sentences_frame(
    sentences: Sequence[str], senses: Sequence[str] | None, title: str, sense_title: str
) -> pd.DataFrame:
    """The sentences of a many-contexts view, with their senses when the set names them."""
    frame = pd.DataFrame({title: list(sentences)})
    if senses is not None:
        frame.insert(0, sense_title, list(senses))
    return frame
