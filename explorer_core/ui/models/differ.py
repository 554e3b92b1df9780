"""How encoders differ: the models on this machine side by side, switch by switch.

Each row is one model (MiniLM, MiniLM + 中文 once built, and every model the catalogue finds),
read from its config.json and tokenizer files only: no weights are loaded, the parameters are
counted on the meta device (`analysis.differ`). Below the table, one sentence per switch says what
it does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import streamlit as st

from explorer_core.analysis.differ import EncoderRow, encoder_row, vocab_kind
from explorer_core.bert.families import config_from_transformers
from explorer_core.ui.export import download_csv
from explorer_core.ui.i18n import t
from explorer_core.ui.models import calls

SWITCHES = ("positions", "segments", "embedding", "norm", "ffn", "sharing", "window", "pooling")


def _row(name: str, folder: Path) -> EncoderRow | None:
    from explorer_core.models.pipeline import read_pipeline

    try:
        config = config_from_transformers(json.loads((folder / "config.json").read_text("utf-8")))
        pipe = read_pipeline(folder)
        return encoder_row(name, config, vocab_kind(folder), pipe.pooling_mode, pipe.is_default,
                           pipe.normalize)  # fmt: skip
    except (OSError, ValueError, TypeError, KeyError):  # unreadable or unsupported: not listed
        return None


@st.cache_data(ttl=calls.SCAN_SECONDS, max_entries=2, show_spinner=False)
def rows() -> list[EncoderRow]:
    """MiniLM first, then MiniLM + 中文 when built, then the models on this machine."""
    from explorer_core.bert.pretrained import PretrainedUnavailable, minilm_path
    from explorer_core.training.taught_folder import built_folder

    found = []
    try:
        found.append(("all-MiniLM-L6-v2", minilm_path()))
    except (ImportError, PretrainedUnavailable):
        pass
    if (taught := built_folder()) is not None:  # its transformers folder (hf/), if exported
        found.append(("MiniLM + 中文", taught / "hf" if (taught / "hf").is_dir() else taught))
    found += [(short_name(entry.reference), entry.folder) for entry in calls.catalog_entries()]
    return [row for name, folder in found if (row := _row(name, folder)) is not None]


def short_name(reference: str) -> str:
    """A Hub name as it is; a folder by its own name (the path is in the model box).

    >>> short_name("BAAI/bge-small-zh-v1.5"), short_name("/srv/models/our-encoder")
    ('BAAI/bge-small-zh-v1.5', 'our-encoder')
    """
    return Path(reference).name if reference.startswith("/") else reference


def side_by_side(table: pd.DataFrame) -> pd.DataFrame:
    """The table turned so that each model is a column and each switch a row: a few models fit
    a projector's width, where seventeen columns of switches did not."""
    names, seen = [], {}
    for name in table.iloc[:, 0]:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    readable = table.iloc[:, 1:].map(lambda v: f"{v:,}" if isinstance(v, int) else str(v))
    turned = readable.T  # 11,918,592 rather than 11918592 (the CSV keeps the numbers)
    turned.columns = names
    return turned


def _pooling(row: EncoderRow) -> str:
    text = t("differ.pool.default", mode=row.pooling) if row.pooling_default else row.pooling
    return text + (t("differ.pool.normalised") if row.normalised else "")


def _positions(row: EncoderRow) -> str:
    s = row.switches
    if s.positions == "learned+offset":
        return t("differ.pos.offset", n=s.max_tokens, offset=s.position_offset)
    if s.positions.startswith("rotary"):
        bases = " / ".join(f"{b:,.0f}" for b in s.rope_bases)
        return t("differ.pos.rotary", bases=bases)
    if s.positions == "learned":
        return t("differ.pos.learned", n=s.max_tokens)
    return s.positions


def frame(found: list[EncoderRow]) -> pd.DataFrame:
    """The table, one model a row, with translated column names."""
    records = []
    for row in found:
        s, parts = row.switches, row.parameters
        records.append({
            t("differ.col.model"): row.name,
            t("differ.col.family"): s.family,
            t("differ.col.vocab"): f"{row.vocab_kind} · {row.vocab_size:,}",
            t("differ.col.size"): f"{s.layers} × {s.hidden} ({s.heads} {t('differ.heads')})",
            t("differ.col.positions"): _positions(row),
            t("differ.col.segments"): s.token_types,
            t("differ.col.embedding"): "=" if s.embedding_size == s.hidden
            else f"{s.embedding_size} → {s.hidden}",
            t("differ.col.norm"): ("pre-LN" if s.norm == "pre" else "post-LN")
            + ("" if s.norm_bias else t("differ.no_bias")),
            t("differ.col.ffn"): f"{s.ffn} · {s.intermediate}",
            t("differ.col.sharing"): t("differ.shared", n=s.layers) if s.shared_layers else "—",
            t("differ.col.window"): t("differ.window", w=s.window, n=s.global_every)
            if s.window is not None else "—",
            t("differ.col.max"): s.max_tokens,
            t("differ.col.p_emb"): parts["embeddings"],
            t("differ.col.p_attn"): parts["attention"],
            t("differ.col.p_ffn"): parts["feed_forward"],
            t("differ.col.p_other"): parts["other"],
            t("differ.col.pooling"): _pooling(row),
        })  # fmt: skip
    return pd.DataFrame.from_records(records)


def differ_view() -> None:
    """The side-by-side table, its CSV, and what each switch does."""
    st.subheader(t("differ.head"))
    found = rows()
    if not found:
        st.warning(t("models.none_here", dirs=calls.allowed_dirs_text()))
        return
    table = frame(found)
    turned = side_by_side(table)
    st.dataframe(turned, height=35 * len(turned) + 38)
    download_csv(table, "how-encoders-differ", "differ.dl", label=t("differ.dl"))
    st.caption(t("differ.caption", n=len(found)))
    st.markdown("\n".join(f"- **{t(f'differ.col.{name}')}**: {t(f'differ.what.{name}')}"
                          for name in SWITCHES))  # fmt: skip
