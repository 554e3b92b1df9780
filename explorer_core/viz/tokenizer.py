"""Training traces -> tidy DataFrames and plotly figures for the "Train a tokenizer" page.

BPE tokenizers (byte-level and char-level) are *replayable*: they keep their merges, the candidate
pairs of every step and per-script token counts, so any step k redraws without retraining. The
other algorithms (WordPiece, Unigram, word-level) show their own trace as a table. No streamlit.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from explorer_core.tokenization.base import Tokenizer, display_bytes, visible_whitespace
from explorer_core.viz.common import CATEGORICAL, style

MAX_CURVE_POINTS = 600  # per line; a longer curve is thinned (the current k is always kept)
SCRIPTS = ("other", "cjk")  # TrainingStats group 0 / group 1
_PARTIAL = re.compile("(⟨[0-9a-f ]+⟩…)")


def is_replayable(tokenizer: Tokenizer) -> bool:
    """True for tokenizers whose merges can be replayed step by step (the BPE family)."""
    return all(hasattr(tokenizer, name) for name in ("merges", "candidates", "stats")) and bool(
        getattr(tokenizer, "stats", None)
    )


def piece(tokenizer: Tokenizer, part: Any) -> str:
    """Readable text of one side of a merge: an id (byte-level) or a string (char-level).

    Byte-level pieces that cut a character show their bytes: ⟨e4 bd⟩…; spaces show as "·".

    >>> from explorer_core.tokenization.byte_bpe import ByteBPETokenizer
    >>> tok = ByteBPETokenizer()
    >>> piece(tok, 32), piece(tok, 0xE4), piece(tok, "the</w>")
    ('·', '⟨e4⟩…', 'the</w>')
    """
    text = display_bytes(tokenizer.token_bytes[part]) if isinstance(part, int) else str(part)
    pieces = _PARTIAL.split(text)  # odd pieces are ⟨..⟩… marks: keep their spaces
    return "".join(p if i % 2 else visible_whitespace(p) for i, p in enumerate(pieces))


def merge_frame(tokenizer: Tokenizer, around: int | None = None, radius: int = 12) -> pd.DataFrame:
    """One row per merge: rank, left + right -> new token, its id and the pair count.

    With `around`, only the merges within `radius` ranks of it (a window for the page).
    """
    merges = tokenizer.merges
    lo, hi = 0, len(merges)
    if around is not None:
        lo, hi = max(0, around - radius), min(len(merges), around + radius + 1)
    rows = [
        {
            "rank": m.rank,
            "left": piece(tokenizer, m.left),
            "right": piece(tokenizer, m.right),
            "new token": piece(tokenizer, m.new_id)
            if hasattr(tokenizer, "token_bytes")
            else visible_whitespace(m.merged),
            "id": m.new_id,
            "count": m.count,
        }
        for m in merges[lo:hi]
    ]
    return pd.DataFrame(rows, columns=["rank", "left", "right", "new token", "id", "count"])


def candidate_frame(tokenizer: Tokenizer, step: int) -> pd.DataFrame:
    """The best pairs before merge `step`: place, pair, count and how far behind the winner."""
    rows = tokenizer.candidates(step)
    if not rows:
        return pd.DataFrame(columns=["place", "left", "right", "count", "behind"])
    best = rows[0].count
    return pd.DataFrame(
        [
            {
                "place": c.place + 1,
                "left": piece(tokenizer, c.left),
                "right": piece(tokenizer, c.right),
                "count": c.count,
                "behind": best - c.count,
            }
            for c in rows
        ]
    )


def tokens_per_char_frame(tokenizer: Tokenizer, k: int | None = None) -> pd.DataFrame:
    """Tokens per character of the training text after k merges, Chinese and the rest apart.

    Columns: k, script ("cjk" / "other"), tokens, chars, tokens_per_char. Curves longer than
    MAX_CURVE_POINTS are thinned evenly; the last step and `k` are always kept.
    """
    stats = tokenizer.stats
    curve = stats.tokens_after()
    total = len(curve) - 1
    stride = max(1, -(-len(curve) // MAX_CURVE_POINTS))
    steps = sorted({*range(0, len(curve), stride), total, *([k] if k is not None else [])})
    rows = []
    for step in steps:
        for group, script in enumerate(SCRIPTS):
            chars = stats.chars[group]
            if chars:
                tokens = curve[step][group]
                rows.append(
                    {"k": step, "script": script, "tokens": tokens, "chars": chars,
                     "tokens_per_char": tokens / chars}
                )  # fmt: skip
    return pd.DataFrame(rows, columns=["k", "script", "tokens", "chars", "tokens_per_char"])


def tokens_per_char_figure(
    frame: pd.DataFrame, k: int, labels: Mapping[str, str], *, title: str, x_title: str,
    y_title: str,
) -> go.Figure:  # fmt: skip
    """One line per script, and a marker at the current step k."""
    fig = go.Figure()
    for index, (script, part) in enumerate(frame.groupby("script", sort=False)):
        name = labels.get(str(script), str(script))
        colour = CATEGORICAL[index % len(CATEGORICAL)]
        fig.add_scatter(
            x=part["k"], y=part["tokens_per_char"], mode="lines", name=name,
            line=dict(color=colour, width=2.5),
            customdata=part[["tokens", "chars"]].to_numpy(),
            hovertemplate=f"{name}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:.3f}}"
            "<br>%{customdata[0]:,} / %{customdata[1]:,}<extra></extra>",
        )  # fmt: skip
        now = part[part["k"] == k]
        if not now.empty:
            fig.add_scatter(
                x=now["k"], y=now["tokens_per_char"], mode="markers", showlegend=False,
                marker=dict(color=colour, size=12, line=dict(color="#111", width=1)),
                hovertemplate=f"{name}, k = %{{x}}: %{{y:.3f}}<extra></extra>",
            )  # fmt: skip
    fig.add_vline(x=k, line=dict(color="#555", dash="dot", width=1))
    style(fig, title=title, x_title=x_title, y_title=y_title, height=360)
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return fig


def trace_frame(trace: list[Any], limit: int = 2000) -> pd.DataFrame:
    """Any algorithm's trace (a list of frozen dataclasses) as a table of its scalar fields."""
    rows = []
    for step in trace[:limit]:
        if dataclasses.is_dataclass(step):
            row = dataclasses.asdict(step)
        else:
            row = {"value": step}
        rows.append({k: _cell(v) for k, v in row.items()})
    return pd.DataFrame(rows)


def _cell(value: Any) -> Any:
    if isinstance(value, bytes):
        return display_bytes(value)
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)
