"""Cached lists of the models on this machine, and the class's pinned models.

The scan reads only small files (config.json, the safetensors headers, the card), so it is cached
for a short while (`SCAN_SECONDS`) and shared by every session: a model copied into an allowed
folder shows up within that time. A teacher pins the class's models in `.streamlit/secrets.toml`:

    [models]
    pinned = ["google-bert/bert-base-chinese", "/srv/models/our-finetuned-encoder"]

Pinned models come first in the list, and the server's warm-up opens them (`ui.warmup`), so no
student waits for the first load.
"""

from __future__ import annotations

import os

import streamlit as st

from explorer_core.models import catalog, settings
from explorer_core.ui.i18n import t

SCAN_SECONDS = 30


@st.cache_data(ttl=SCAN_SECONDS, max_entries=1, show_spinner=False)
def _scan() -> tuple[catalog.CatalogEntry, ...]:
    return catalog.scan()


def pinned() -> tuple[str, ...]:
    """The references `[models] pinned` names in the server's secrets (none without secrets)."""
    try:
        table = st.secrets.get("models", {})
    except (FileNotFoundError, OSError, ValueError):  # no secrets.toml, or an unreadable one
        return ()
    refs = table.get("pinned", ()) if hasattr(table, "get") else ()
    if isinstance(refs, str):
        refs = (refs,)
    return tuple(str(ref).strip() for ref in refs if str(ref).strip())


def catalog_entries() -> list[catalog.CatalogEntry]:
    """The openable models on this machine, pinned ones first, then by reference."""
    entries = [entry for entry in _scan() if not entry.refused]
    first = {ref: i for i, ref in enumerate(pinned())}
    return sorted(entries, key=lambda e: (first.get(e.reference, len(first)), e.reference.lower()))


def describe(entry: catalog.CatalogEntry) -> str:
    """One line for the list: "bert-base-chinese · BERT · 102M · zh"."""
    parts = [entry.reference, entry.family]
    if entry.parameters:
        parts.append(human_count(entry.parameters))
    if entry.languages:
        parts.append(", ".join(entry.languages[:4]) + ("…" if len(entry.languages) > 4 else ""))
    return " · ".join(parts)


def human_count(n: int) -> str:
    """A parameter count the way model cards write it.

    >>> human_count(22_713_216), human_count(1_250_000_000), human_count(950)
    ('22.7M', '1.25B', '950')
    """
    if n >= 1_000_000_000:
        return f"{n / 1e9:.3g}B"
    if n >= 1_000_000:
        return f"{n / 1e6:.3g}M"
    if n >= 1_000:
        return f"{n / 1e3:.3g}k"
    return str(n)


def allowed_dirs_text() -> str:
    """The folders a model may come from, for the picker's help."""
    return os.pathsep.join(str(root) for root in settings.allowed_roots())


def cut_line(tokenizer: object) -> str:
    """One line, in the UI language: our code cut the text, and which steps ran in tokenizers."""
    info = getattr(tokenizer, "file_info", None)
    if info is None:  # an old folder's vocab.txt: our WordPiece
        return t("models.cut.vocab_txt")
    line = t("models.cut.ours", kind=info.kind, steps="; ".join(info.ours))
    if info.theirs:
        line += " " + t("models.cut.theirs", steps="; ".join(info.theirs))
    return line
