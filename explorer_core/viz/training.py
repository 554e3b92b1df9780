"""Training and similarity charts: loss curves, dev Spearman, predicted vs gold, neighbour bars.

Frames first (tidy pandas), figures second (plotly, house style from `viz.common`). Every label
arrives as an argument so the pages can pass catalogue text in either language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from explorer_core.training.loop import EvalRecord, Record, TrainStep
from explorer_core.viz.common import CATEGORICAL, coloured_bars, style

LOSS_PARTS = ("mlm_loss", "nsp_loss", "sim_loss", "mnr_loss", "en_loss", "zh_loss")
MAX_POINTS = 400  # per curve; longer runs are thinned evenly (the last point always kept)


def _offsets(records: Sequence[Record]) -> dict[str, int]:
    """Steps to add per phase so pre-training and fine-tuning share one x axis."""
    pre = max((r.step for r in records if isinstance(r, TrainStep) and r.phase == "pretrain"),
              default=0)  # fmt: skip
    return {"pretrain": 0, "finetune": pre, "multilingual": 0}


def loss_frame(records: Sequence[Record]) -> pd.DataFrame:
    """Columns step (over the whole run), phase, part (mlm_loss, ...), value; one row per value.

    >>> rec = [TrainStep("pretrain", 1, 0.1, 1e-3, 7.5, mlm_loss=6.8, nsp_loss=0.7),
    ...        TrainStep("finetune", 1, 0.1, 1e-3, 0.2, sim_loss=0.2)]
    >>> loss_frame(rec)[["step", "part", "value"]].values.tolist()
    [[1, 'mlm_loss', 6.8], [1, 'nsp_loss', 0.7], [2, 'sim_loss', 0.2]]
    """
    offsets = _offsets(records)
    rows = []
    for r in records:
        if not isinstance(r, TrainStep):
            continue
        for part in LOSS_PARTS:
            value = getattr(r, part)
            if value is not None:
                rows.append((offsets[r.phase] + r.step, r.phase, part, float(value)))
    frame = pd.DataFrame(rows, columns=["step", "phase", "part", "value"])
    return _thin(frame)


def _thin(frame: pd.DataFrame) -> pd.DataFrame:
    parts = []
    for _, group in frame.groupby("part", sort=False):
        stride = max(1, -(-len(group) // MAX_POINTS))
        keep = group.iloc[::stride]
        if stride > 1 and keep.index[-1] != group.index[-1]:
            keep = pd.concat([keep, group.iloc[[-1]]])
        parts.append(keep)
    return pd.concat(parts) if parts else frame


def eval_frame(records: Sequence[Record]) -> pd.DataFrame:
    """Columns step (over the whole run), dev_spearman: the fine-tuning evaluations."""
    offsets = _offsets(records)
    rows = [
        (offsets[r.phase] + r.step, float(r.dev_spearman))
        for r in records
        if isinstance(r, EvalRecord) and r.dev_spearman is not None
    ]
    return pd.DataFrame(rows, columns=["step", "dev_spearman"])


def log_ticks(low: float, high: float) -> list[float]:
    """Round tick values for a log axis from `low` to `high`: denser when the range is narrow.

    >>> log_ticks(0.05, 0.3)
    [0.05, 0.07, 0.1, 0.15, 0.2, 0.3]
    >>> log_ticks(0.02, 8.0)
    [0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10]
    """
    steps = (1, 1.5, 2, 3, 4, 5, 7) if high <= 20 * max(low, 1e-12) else (1, 2, 5)
    ticks = [round(m * 10.0**e, 6) for e in range(-4, 3) for m in steps]
    ticks = [int(v) if v >= 1 and v == int(v) else v for v in ticks]
    below = [v for v in ticks if v <= low]
    above = [v for v in ticks if v >= high]
    start = below[-1] if below else ticks[0]
    end = above[0] if above else ticks[-1]
    return [v for v in ticks if start <= v <= end]


def loss_figure(
    frame: pd.DataFrame, names: Mapping[str, str], *, title: str, x_title: str, y_title: str
) -> go.Figure:
    """One line per loss part on a log axis (MLM ~7, NSP ~0.7, similarity ~0.05 fit together)."""
    fig = go.Figure()
    for i, part in enumerate(LOSS_PARTS):
        rows = frame[frame["part"] == part]
        if rows.empty:
            continue
        fig.add_scatter(
            x=rows["step"], y=rows["value"], mode="lines", name=names[part],
            line=dict(color=CATEGORICAL[i], width=2),
            hovertemplate=f"{names[part]}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:.4f}}"
            "<extra></extra>",
        )  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=360)
    ticks = log_ticks(float(frame["value"].min()), float(frame["value"].max()))
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(rangemode="tozero", tickformat="d")
    return fig


def eval_figure(
    frame: pd.DataFrame,
    *,
    baseline: float | None,
    title: str,
    x_title: str,
    y_title: str,
    model_name: str,
    baseline_name: str,
) -> go.Figure:
    """Dev Spearman at each evaluation, with the lexical baseline as a dashed line."""
    fig = go.Figure()
    fig.add_scatter(
        x=frame["step"], y=frame["dev_spearman"], mode="lines+markers", name=model_name,
        line=dict(color=CATEGORICAL[0], width=2),
        hovertemplate=f"{x_title}: %{{x}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
    )  # fmt: skip
    if baseline is not None:
        fig.add_scatter(
            x=[0, frame["step"].max() if len(frame) else 1],
            y=[baseline, baseline], mode="lines", name=baseline_name,
            line=dict(color=CATEGORICAL[1], dash="dash"),
            hovertemplate=f"{baseline_name}: %{{y:.3f}}<extra></extra>",
        )  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=360)
    fig.update_yaxes(range=[-1.0, 1.0])
    fig.update_xaxes(rangemode="tozero", tickformat="d")
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    return fig


LANG_MEASURES = ("dev_spearman_zh", "dev_spearman_en")  # a distillation's per-language curves


def distil_frame(records: Sequence[Record]) -> pd.DataFrame:
    """Columns step, measure (dev_spearman_zh, dev_spearman_en, unk_share), value: a
    distillation's evaluations (`training.multilingual`), one row per value.

    >>> rec = [EvalRecord("multilingual", 0, 0.0, dev_spearman_en=0.92, dev_spearman_zh=0.33,
    ...                   unk_share=0.0)]
    >>> distil_frame(rec).values.tolist()
    [[0, 'dev_spearman_zh', 0.33], [0, 'dev_spearman_en', 0.92], [0, 'unk_share', 0.0]]
    """
    rows = [
        (r.step, measure, float(getattr(r, measure)))
        for r in records
        if isinstance(r, EvalRecord)
        for measure in (*LANG_MEASURES, "unk_share")
        if getattr(r, measure) is not None
    ]
    return pd.DataFrame(rows, columns=["step", "measure", "value"])


def _before_line(fig: go.Figure, frame: pd.DataFrame, value: float, name: str, colour: str,
                 fmt: str) -> None:  # fmt: skip
    """A dashed horizontal line across the run: where the model stood before it was taught."""
    end = max(1, int(frame["step"].max())) if len(frame) else 1
    fig.add_scatter(
        x=[0, end], y=[value, value], mode="lines", name=name,
        line=dict(color=colour, dash="dash", width=1.5),
        hovertemplate=f"{name}: %{{y:{fmt}}}<extra></extra>",
    )  # fmt: skip


def language_figure(
    frame: pd.DataFrame, before: Mapping[str, float | None], names: Mapping[str, str], *,
    title: str, x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """Dev Spearman per language at each evaluation (solid), and the teacher's (MiniLM as it
    was) per language as dashed lines. `names` has a name per measure and per `before:<measure>`."""
    fig = go.Figure()
    for i, measure in enumerate(LANG_MEASURES):
        rows = frame[frame["measure"] == measure]
        colour = CATEGORICAL[i]
        fig.add_scatter(
            x=rows["step"], y=rows["value"], mode="lines+markers", name=names[measure],
            line=dict(color=colour, width=2),
            hovertemplate=f"{names[measure]}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:.3f}}"
            "<extra></extra>",
        )  # fmt: skip
        if before.get(measure) is not None:
            _before_line(fig, frame, before[measure], names[f"before:{measure}"], colour, ".3f")
    style(fig, title=title, x_title=x_title, y_title=y_title, height=380)
    values = [*frame.loc[frame["measure"].isin(LANG_MEASURES), "value"],
              *(v for v in before.values() if v is not None)]  # fmt: skip
    low = min(values, default=0.0)
    fig.update_yaxes(range=[min(0.0, low - 0.05), 1.0])
    fig.update_xaxes(rangemode="tozero", tickformat="d")
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    return fig


def unk_figure(
    frame: pd.DataFrame, before: float | None, *, name: str, before_name: str, title: str,
    x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """The [UNK] share of Chinese tokens (in %) at each evaluation, and before (dashed)."""
    rows = frame[frame["measure"] == "unk_share"]
    fig = go.Figure()
    fig.add_scatter(
        x=rows["step"], y=100 * rows["value"], mode="lines+markers", name=name,
        line=dict(color=CATEGORICAL[0], width=2),
        hovertemplate=f"{name}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:.2f}}%<extra></extra>",
    )  # fmt: skip
    if before is not None:
        _before_line(fig, frame, 100 * before, before_name, CATEGORICAL[1], ".1f")
    style(fig, title=title, x_title=x_title, y_title=y_title, height=380)
    fig.update_yaxes(range=[0, 100], ticksuffix="%")
    fig.update_xaxes(rangemode="tozero", tickformat="d")
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    return fig


def pairs_frame(
    s1: Sequence[str], s2: Sequence[str], gold: Sequence[float], cosines: Sequence[float]
) -> pd.DataFrame:
    """One row per pair: sentences, gold score, cosine, predicted score (5 cos) and its error."""
    frame = pd.DataFrame(
        {
            "sentence1": list(s1),
            "sentence2": list(s2),
            "gold": [float(g) for g in gold],
            "cosine": [float(c) for c in cosines],
        }
    )
    frame["predicted"] = (5.0 * frame["cosine"]).clip(0.0, 5.0)
    frame["error"] = frame["predicted"] - frame["gold"]
    return frame


def scatter_figure(
    frame: pd.DataFrame, *, title: str, x_title: str, y_title: str, error_title: str
) -> go.Figure:
    """Gold score (x) vs the model's cosine (y), coloured by error, sentences on hover.

    The dotted diagonal cos = score / 5 is where fine-tuning aims every pair.
    """
    bound = max(1.0, float(frame["error"].abs().max()) if len(frame) else 1.0)
    custom = frame[["sentence1", "sentence2", "predicted"]].values
    fig = go.Figure()
    fig.add_scatter(
        x=[0, 5], y=[0, 1], mode="lines", line=dict(color="#888888", dash="dot"),
        hoverinfo="skip", showlegend=False,
    )  # fmt: skip
    fig.add_scatter(
        x=frame["gold"], y=frame["cosine"], mode="markers", customdata=custom, showlegend=False,
        marker=dict(size=9, color=frame["error"], colorscale="RdBu_r", cmin=-bound, cmax=bound,
                    colorbar=dict(title=dict(text=error_title)), line=dict(width=0.5)),
        hovertemplate="%{customdata[0]}<br>%{customdata[1]}<br>"
        f"{x_title}: %{{x:.2f}}<br>{y_title}: %{{y:.3f}}<br>{error_title}: %{{marker.color:.2f}}"
        "<extra></extra>",
    )  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=460)
    fig.update_xaxes(range=[-0.2, 5.2])
    fig.update_yaxes(range=[-1.05, 1.05])
    return fig


def neighbours_figure(
    texts: Sequence[str], cosines: Sequence[float], *, title: str, x_title: str, y_title: str
) -> go.Figure:
    """Horizontal bars: the nearest sentences (best on top) and their cosine with the query."""
    short = [t if len(t) <= 48 else t[:45] + "…" for t in texts]
    marker, scale = coloured_bars(cosines, colorscale="Viridis", cmin=-1, cmax=1, title=x_title)
    fig = go.Figure(
        [
            go.Bar(
                x=list(cosines),
                y=short,
                orientation="h",
                customdata=list(texts),
                marker=marker,
                showlegend=False,
                hovertemplate=f"%{{customdata}}<br>{x_title}: %{{x:.3f}}<extra></extra>",
            ),
            scale,
        ]
    )
    height = max(300, 44 * len(texts) + 140)
    style(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_xaxes(range=[-1, 1])
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig
