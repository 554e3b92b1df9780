"""Tokenizer Lab helpers: step k in the URL, "which pair merges next?", and the lab's downloads.

Step k is kept in the URL (`?tok.train.k=`) by hand: the scrubber only exists after training, and
a link that carries k (with the built-in corpus) trains on opening, then shows step k.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from explorer_core.analysis import quiz
from explorer_core.files import export, tables
from explorer_core.tokenization import Tokenizer
from explorer_core.ui import quiz as ask
from explorer_core.ui.export import download, download_csv, download_json
from explorer_core.ui.i18n import t
from explorer_core.viz import tokenizer as viz

K_KEY = "tok.train.k"
LINKED_K = "tok.train.k_link"  # the k the last link box showed (None: no k from a link yet)
SEEDED = "tok.train.k_seeded"  # set once the session's first pass has read ?tok.train.k=
PAGE = "tok.train"
BPE_ALGOS = ("byte-bpe", "char-bpe")  # the ones with a merge list


def step_from_url() -> bool:
    """On the session's first pass, take a valid `?tok.train.k=` into st.session_state[K_KEY].

    Returns True on that pass when the URL carried k: the page then trains on its own (for the
    built-in corpus) and opens on step k.
    """
    if st.session_state.get(SEEDED):
        return False
    st.session_state[SEEDED] = True
    wanted = str(st.query_params.get(K_KEY, ""))
    if not wanted.isdigit():
        return False
    st.session_state[K_KEY] = int(wanted)
    return True


def keep_step_in_url(k: int, playing: bool) -> None:
    """Write step k to the URL; after a scrubber move, rerun the page so its link box shows k."""
    if st.query_params.get(K_KEY) != str(k):
        st.query_params[K_KEY] = str(k)
    if not playing and st.session_state.get(LINKED_K) != k:
        st.rerun()  # subtle: from inside the fragment; the link box lives outside it


def linked(keys: tuple[str, ...], slot: Any, defaults: dict[str, Any]) -> tuple:
    """share_link's (keys, slot, defaults) once a tokenizer exists: step k joins the link, even
    k = 0 (a link without k would not train on opening)."""
    st.session_state[LINKED_K] = st.session_state.get(K_KEY)
    return (*keys, K_KEY), slot, {k: v for k, v in defaults.items() if k != K_KEY}


def merge_question(tokenizer: Tokenizer, k: int, predicting: bool) -> bool:
    """Ask "which pair merges next?" at step k when predicting; True: show the answer views.

    The question is named by its step and candidates: the same candidates (same corpus and
    algorithm, any vocabulary size) are the same question, graded once.
    """
    rows = [(viz.piece(tokenizer, c.left), viz.piece(tokenizer, c.right), c.count)
            for c in tokenizer.candidates(k)]  # fmt: skip
    if not predicting or len(rows) < 2:
        return True
    question = quiz.merge_question(rows, k)
    return ask.merge_quiz(PAGE, f"{tokenizer.algo}|{k}|{rows}", question)


def merges_before(frame: pd.DataFrame, tokenizer: Tokenizer, k: int) -> pd.DataFrame:
    """The merge table without the merges from k + 1 on (they would give the answer away)."""
    if k >= len(tokenizer.merges):
        return frame
    return frame[frame["rank"] < tokenizer.merges[k].rank]


def lab_downloads(tokenizer: Tokenizer, trace: list, algo: str) -> None:
    """Vocab (JSON), merges.txt, merge table or trace (CSV), the curve (CSV), the folder (zip)."""
    stem = export.file_stem("tokenizer", algo, tokenizer.vocab_size)
    cols = st.columns(5)
    download_json(lambda: tables.vocab_record(tokenizer), f"{stem}-vocab",
                  "tok.train.dl.vocab", cols[0], label=t("tok.train.dl.vocab"))  # fmt: skip
    replayable = viz.is_replayable(tokenizer)
    table = (lambda: viz.merge_frame(tokenizer)) if replayable else (lambda: viz.trace_frame(trace))
    download_csv(table, f"{stem}-{'merges' if replayable else 'trace'}", "tok.train.dl.table",
                 cols[1], label=t("tok.train.dl.table"))  # fmt: skip
    if tokenizer.algo in BPE_ALGOS:
        download(t("tok.train.dl.merges"), lambda: tables.merges_text(tokenizer) or "",
                 f"{stem}-merges.txt", "text/plain", "tok.train.dl.merges", cols[2])  # fmt: skip
    if replayable:
        download_csv(lambda: viz.tokens_per_char_frame(tokenizer), f"{stem}-tokens-per-char",
                     "tok.train.dl.curve", cols[3], label=t("tok.train.dl.curve"))  # fmt: skip
    download(
        t("tok.train.dl.zip"), lambda: export.zip_bytes(tables.tokenizer_files(tokenizer)),
        f"{stem}.zip", "application/zip", "tok.train.dl.zip", cols[4],
        help=t("tok.train.dl.zip.help"),
    )  # fmt: skip
