"""Token embeddings and the embedding sum: tensors -> DataFrames -> plotly figures.

Figures take their texts (titles, axis titles) as arguments so the pages pass catalogue strings;
nothing here knows a language or a widget.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import torch

from explorer_core.analysis.projection import PCA2D
from explorer_core.bert.embeddings import one_hot_lookup
from explorer_core.viz.common import heatmap, plain_text, signed_bars, style


def one_hot_window(
    weight: torch.Tensor, token_id: int, labels: dict[int, str], *, radius: int = 3, dims: int = 8
) -> pd.DataFrame:
    """Rows id-radius .. id+radius of E, the one-hot entry of each, and the first `dims` numbers.

    `labels` maps a vocabulary row to its string. The one-hot column is 1 only on row `token_id`.
    """
    one_hot, _ = one_hot_lookup(torch.tensor([token_id]), weight)
    lo, hi = max(0, token_id - radius), min(weight.shape[0], token_id + radius + 1)
    rows = {
        "row": list(range(lo, hi)),
        "token": [labels.get(r, str(r)) for r in range(lo, hi)],
        "one_hot": one_hot[0, lo:hi].to(torch.int64).tolist(),
    }
    block = weight[lo:hi, :dims].detach().double().numpy()
    for d in range(block.shape[1]):
        rows[f"d{d}"] = block[:, d]
    return pd.DataFrame(rows)


def lookup_check(weight: torch.Tensor, ids: Sequence[int]) -> tuple[np.ndarray, float]:
    """The vectors one_hot(ids) × E and the largest |one_hot × E − E[ids]| (0 when exact)."""
    index = torch.tensor(list(ids), dtype=torch.long)
    _, vectors = one_hot_lookup(index, weight.detach())
    gap = float((vectors - weight.detach()[index]).abs().max()) if len(ids) else 0.0
    return vectors.double().numpy(), gap


def vector_bar(vector: np.ndarray, *, title: str, x_title: str, y_title: str) -> go.Figure:
    """One vector as bars, one per dimension: red above zero, blue below (`signed_bars`)."""
    hover = f"{x_title}: %{{x}}<br>{y_title}: %{{y:.4f}}<extra></extra>"
    fig = go.Figure(signed_bars(vector, hover))
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=320)


def matrix_figure(
    weight: torch.Tensor, ids: Sequence[int], labels: Sequence[str], **texts: str
) -> go.Figure:
    """Heatmap of E's rows for the given ids (one row per token, in sentence order) × dimensions."""
    rows = weight.detach()[list(ids)].double().numpy()
    names = [
        f"{i}: {label} ({token_id})"
        for i, (label, token_id) in enumerate(zip(labels, ids, strict=True))
    ]
    height = max(300, 28 * len(ids) + 140)
    return heatmap(
        rows, x=list(range(rows.shape[1])), y=names, diverging=True, height=height, **texts
    )


def pca_frame(
    pca: PCA2D,
    ids: Sequence[int],
    labels: Sequence[str],
    in_sentence: Sequence[bool],
    cosine: Sequence[float],
) -> pd.DataFrame:
    """One row per point of the PCA map: id, token, x, y, whether it is in the sentence, cosine."""
    coords = pca.coords.numpy()
    return pd.DataFrame(
        {
            "id": list(ids),
            "token": list(labels),
            "x": coords[:, 0],
            "y": coords[:, 1],
            "in_sentence": list(in_sentence),
            "cosine": list(cosine),
        }
    )


def _pca_points(
    part: pd.DataFrame,
    name: str,
    in_sentence: bool,
    titles: tuple[str, str, str],
    id_word: str = "id",
) -> go.Scatter:
    """One group of the PCA map: circles for the sentence's tokens, diamonds for neighbours."""
    return go.Scatter(
        x=part["x"],
        y=part["y"],
        mode="markers+text",
        name=name,
        text=plain_text(part["token"]),
        textposition="top center",
        textfont=dict(size=15 if in_sentence else 12),  # 12 px: still legible on a projector
        customdata=np.stack([part["id"], part["cosine"]], axis=1) if len(part) else None,
        marker=dict(
            size=12 if in_sentence else 9,
            symbol="circle" if in_sentence else "diamond",
            color=part["cosine"],
            colorscale="Viridis",
            cmin=-1,
            cmax=1,
            showscale=in_sentence,
            colorbar=dict(title=dict(text=titles[2])),
            line=dict(width=1, color="#333"),
        ),
        hovertemplate=f"%{{text}} ({id_word} %{{customdata[0]}})<br>"
        + "<br>".join(
            f"{label}: %{{{field}:.3f}}"
            for label, field in zip(titles, ("x", "y", "customdata[1]"), strict=True)
        )
        + "<extra></extra>",
    )


def pca_figure(
    frame: pd.DataFrame,
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_title: str,
    sentence_name: str,
    neighbour_name: str,
    id_word: str = "id",
) -> go.Figure:
    """Scatter of the PCA map: sentence tokens as circles, neighbours as diamonds, coloured by
    cosine similarity to the selected token (colour bar from -1 to 1)."""
    titles = (x_title, y_title, value_title)
    fig = go.Figure()
    for in_sentence, name in ((True, sentence_name), (False, neighbour_name)):
        part = frame[frame["in_sentence"] == in_sentence]
        fig.add_trace(_pca_points(part, name, in_sentence, titles, id_word))
    fig.update_layout(legend=dict(orientation="h", y=-0.2))
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=640)


def neighbour_frame(
    query_labels: Sequence[str],
    neighbour_ids: torch.Tensor,
    sims: torch.Tensor,
    id_label: dict[int, str],
) -> pd.DataFrame:
    """One row per (query token, rank): the neighbour, its id and the cosine similarity."""
    rows = []
    for q, label in enumerate(query_labels):
        for rank in range(neighbour_ids.shape[1]):
            nid = int(neighbour_ids[q, rank])
            rows.append(
                {
                    "token": label,
                    "rank": rank + 1,
                    "neighbour": id_label.get(nid, str(nid)),
                    "id": nid,
                    "cosine": round(float(sims[q, rank]), 4),
                }
            )
    return pd.DataFrame(rows)


def sum_table(
    labels: Sequence[str],
    ids: Sequence[int],
    segments: Sequence[int],
    parts: dict[str, torch.Tensor],
) -> pd.DataFrame:
    """Per token of a (1, T, H) batch: id, segment, position, each part's length, sum mean/std."""
    norms = {
        name: parts[name][0].norm(dim=-1).tolist()
        for name in ("token", "position", "segment", "sum", "output")
    }
    summed = parts["sum"][0]
    return pd.DataFrame(
        {
            "position": list(range(len(ids))),
            "token": list(labels),
            "id": list(ids),
            "segment": list(segments),
            **{f"|{k}|": v for k, v in norms.items()},
            "mean(sum)": summed.mean(dim=-1).tolist(),
            "std(sum)": summed.std(dim=-1, unbiased=False).tolist(),
        }
    )


def stage_figure(
    parts: dict[str, torch.Tensor],
    index: int,
    stage_names: dict[str, str],
    dims: int,
    **texts: str,
) -> go.Figure:
    """Heatmap with one row per stage (token, position, segment, sum, output) of one token,
    over its first `dims` dimensions, numbers written in the cells."""
    order = ("token", "position", "segment", "sum", "output")
    z = np.stack([parts[name][0, index, :dims].double().numpy() for name in order])
    fig = heatmap(
        z,
        x=list(range(z.shape[1])),
        y=[stage_names[n] for n in order],
        diverging=True,
        text_format=".3f" if dims <= 16 else None,
        height=340,
        **texts,
    )
    fig.update_yaxes(autorange="reversed")  # token on top, LayerNorm output at the bottom
    return fig
