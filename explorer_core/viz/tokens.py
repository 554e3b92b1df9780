"""Tokens -> coloured HTML spans, token tables and tokens-per-character comparisons. No streamlit.

The span view shows every token of a text in its own colour, with whitespace made visible
(· space, → tab, ↵ newline), special tokens boxed, text the tokenizer dropped (BERT drops spaces)
greyed out between the tokens, and bytes of a character cut between tokens as ⟨e4 bd⟩…
Hovering a token shows its id and its bytes.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer_core.tokenization.base import (
    Token,
    hex_bytes,
    is_cjk,
    token_label,
    visible_whitespace,
)
from explorer_core.viz.common import CATEGORICAL, style

# light tints that keep dark text readable; neighbours always differ
TINTS = ("#cfe3f3", "#fbe3b3", "#c9eadf", "#f2d5e6", "#d9ecfa", "#f7d2bf")
SPECIAL_STYLE = "background:#444;color:#fff;border-radius:3px;padding:1px 4px;margin:1px"
SPAN_STYLE = "background:{bg};color:#111;border-radius:3px;padding:1px 2px;margin:1px 1px"
GAP_STYLE = "color:#888;padding:0 1px"


def spans_html(tokens: Sequence[Token], text: str, *, id_word: str = "id") -> str:
    """The text as coloured token spans (inline HTML), each with an id/bytes tooltip."""
    parts: list[str] = []
    cursor = 0
    for index, token in enumerate(tokens):
        if token.start > cursor:  # characters no token covers (dropped whitespace)
            gap = html.escape(visible_whitespace(text[cursor : token.start]))
            parts.append(f'<span style="{GAP_STYLE}">{gap}</span>')
        tip = html.escape(f"{id_word} {token.id} · {hex_bytes(token.raw)}", quote=True)
        label = html.escape(token_label(token))
        look = SPECIAL_STYLE if token.special else SPAN_STYLE.format(bg=TINTS[index % len(TINTS)])
        parts.append(f'<span title="{tip}" style="{look}">{label}</span>')
        if "\n" in text[token.start : token.end]:
            parts.append("<br>")
        cursor = max(cursor, token.end)
    if cursor < len(text):
        rest = html.escape(visible_whitespace(text[cursor:]))
        parts.append(f'<span style="{GAP_STYLE}">{rest}</span>')
    body = "".join(parts)
    return f'<div style="line-height:2.1;font-size:1.05rem;word-break:break-all">{body}</div>'


def token_frame(tokens: Sequence[Token], counts: Mapping[int, int]) -> pd.DataFrame:
    """One row per token in order: position, token, id, bytes (hex), count in the corpus."""
    return pd.DataFrame(
        {
            "position": range(len(tokens)),
            "token": [token_label(t) for t in tokens],
            "id": [t.id for t in tokens],
            "bytes": [hex_bytes(t.raw) for t in tokens],
            "count": [counts.get(t.id, 0) for t in tokens],
        }
    )


@dataclass(frozen=True)
class ScriptCounts:
    """Tokens and characters of a text, Chinese characters and everything else apart."""

    tokens: int  # all tokens, specials included
    cjk_tokens: int  # tokens covering at least one Chinese character
    other_tokens: int  # tokens covering other (non-space) characters only
    cjk_chars: int
    other_chars: int  # non-space characters that are not Chinese


def script_counts(tokens: Sequence[Token], text: str) -> ScriptCounts:
    """Count tokens by the script of the characters they cover.

    >>> script_counts([Token(1, "hi", b"hi", 0, 2), Token(2, "你", "你".encode(), 3, 4)], "hi 你")
    ScriptCounts(tokens=2, cjk_tokens=1, other_tokens=1, cjk_chars=1, other_chars=2)
    """
    cjk_tokens = other_tokens = 0
    for token in tokens:
        covered = text[token.start : token.end]
        if any(is_cjk(c) for c in covered):
            cjk_tokens += 1
        elif covered.strip():
            other_tokens += 1
    cjk_chars = sum(1 for c in text if is_cjk(c))
    other_chars = sum(1 for c in text if not c.isspace() and not is_cjk(c))
    return ScriptCounts(len(tokens), cjk_tokens, other_tokens, cjk_chars, other_chars)


def comparison_frame(rows: Mapping[str, ScriptCounts]) -> pd.DataFrame:
    """Per tokenizer: tokens, and tokens per character (all, Chinese, other; NaN: no such chars)."""
    records = []
    for name, c in rows.items():
        chars = c.cjk_chars + c.other_chars
        records.append(
            {
                "tokenizer": name,
                "tokens": c.tokens,
                "per_char": c.tokens / chars if chars else float("nan"),
                "per_cjk_char": c.cjk_tokens / c.cjk_chars if c.cjk_chars else float("nan"),
                "per_other_char": c.other_tokens / c.other_chars if c.other_chars else float("nan"),
            }
        )
    return pd.DataFrame.from_records(records)


def comparison_figure(
    frame: pd.DataFrame,
    *,
    title: str,
    x_title: str,
    y_title: str,
    series: Mapping[str, str],
) -> go.Figure:
    """Grouped bars of tokens per character; `series` maps frame columns to legend names."""
    fig = go.Figure()
    for k, (column, name) in enumerate(series.items()):
        fig.add_bar(
            x=frame["tokenizer"],
            y=frame[column],
            name=name,
            marker_color=CATEGORICAL[k % len(CATEGORICAL)],
            text=[f"{v:.2f}" if v == v else "" for v in frame[column]],
            textposition="outside",
            hovertemplate=f"%{{x}}<br>{name}: %{{y:.3f}}<extra></extra>",
        )
    fig.update_layout(barmode="group", legend=dict(orientation="h", y=-0.25))
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=440)
