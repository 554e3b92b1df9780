"""The comparison table and chart: Spearman per model and language on the same test pairs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from explorer_core.analysis.comparison import ComparisonRow
from explorer_core.viz.common import CATEGORICAL, FONT, TITLE_TOP


def comparison_frame(rows: Sequence[ComparisonRow], names: Mapping[str, str]) -> pd.DataFrame:
    """One row per model, one Spearman column per language (and its [UNK] share).

    >>> rows = [ComparisonRow("lexical", "en", 0.7, 80), ComparisonRow("trained", "en", 0.5, 80,
    ...         0.01)]
    >>> comparison_frame(rows, {"lexical": "Baseline", "trained": "Ours"})["en"].tolist()
    [0.7, 0.5]
    """
    table: dict[str, dict[str, object]] = {}
    for row in rows:
        entry = table.setdefault(row.model, {"model": names.get(row.model, row.model)})
        entry[row.lang] = row.spearman
        if row.unk_share is not None:
            entry[f"[UNK] {row.lang}"] = row.unk_share
    return pd.DataFrame(list(table.values()))


def comparison_figure(
    rows: Sequence[ComparisonRow],
    names: Mapping[str, str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    lang_names: Mapping[str, str],
) -> go.Figure:
    """Grouped bars: one group per model, one bar per language, Spearman on the y axis."""
    fig = go.Figure()
    models = list(dict.fromkeys(r.model for r in rows))
    langs = list(dict.fromkeys(r.lang for r in rows))
    for i, lang in enumerate(langs):
        by_model = {r.model: r for r in rows if r.lang == lang}
        fig.add_bar(
            x=[names.get(m, m) for m in models if m in by_model],
            y=[by_model[m].spearman for m in models if m in by_model],
            name=lang_names.get(lang, lang),
            marker_color=CATEGORICAL[i % len(CATEGORICAL)],
            text=[f"{by_model[m].spearman:.3f}" for m in models if m in by_model],
            textposition="outside",
            hovertemplate=f"%{{x}}<br>{lang_names.get(lang, lang)}: %{{y:.3f}}<extra></extra>",
        )
    fig.update_layout(
        barmode="group", title=title, font=FONT, height=380,
        margin=dict(t=TITLE_TOP + 40, l=60, r=20, b=60), legend=dict(orientation="h", y=1.08),
        xaxis_title=x_title, yaxis_title=y_title,
    )  # fmt: skip
    low = min([0.0, *(r.spearman for r in rows)])
    fig.update_yaxes(range=[low, 1.05])
    return fig
