"""Session-scoped training results and cached data/models for the Train and Similarity pages.

The session's run itself (a worker process behind the server's admission queue) is handled by
`ui.training.run`; it lives in `st.session_state[RUN_KEY]`, never at module level (module state is
shared by every user of the server). `sync_run` moves a finished or stopped run's checkpoint into
`SHARED_MODEL`, once. Cached functions take plain arguments and return objects treated as
read-only.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import streamlit as st

from explorer_core.analysis.similarity import TextEncoder, pair_cosines
from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.inputs.datasets import (
    SentencePair,
    builtin_corpus,
    builtin_sts_pairs,
    load_sts_bytes,
    split_pairs,
)
from explorer_core.tokenization import Tokenizer, new_tokenizer
from explorer_core.training.checkpoint import (
    Checkpoint,
    checkpoint_from_zip,
    checkpoint_to_zip,
    save_checkpoint,
)
from explorer_core.training.choices import SharedModel
from explorer_core.ui.i18n import t
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer
from explorer_core.ui.state import SHARED_MODEL

RUN_KEY = "train.run"  # this session's TrainingRun (or absent)
PUBLISHED_KEY = "train.published"  # id of the run whose result is already in SHARED_MODEL
ZIP_SEEN_KEY = "train.zip_seen"  # file id of the last uploaded zip that was handled
SCORES_KEY = "train.scores"  # {(id(model), data key): split_scores rows}
PARTS_KEY = "train.parts"  # (data name, pairs by split) of the last run started in this session
FRESH_KEY = "sim.fresh"  # (id of the shared model, its before-training TextEncoder)


# ---- data and tokenizers ---------------------------------------------------------------------


@st.cache_data(max_entries=1, show_spinner=False)
def builtin_parts() -> dict[str, list[SentencePair]]:
    """The built-in bilingual pairs by split (train/dev/test)."""
    return split_pairs(builtin_sts_pairs())


@st.cache_data(max_entries=1, show_spinner=False)
def corpus_text() -> str:
    """The Tokenizer Lab's built-in corpus (English and Chinese), used for pre-training."""
    return builtin_corpus("mixed")


@st.cache_data(max_entries=4, show_spinner=False)
def uploaded_pairs(data: bytes, name: str) -> tuple[dict[str, list[SentencePair]], int, int]:
    """(pairs by split, used rows, malformed rows) of an uploaded file; ValueError if unusable.

    A file without a split column is divided 85/15 into train and dev (seeded).
    """
    result = load_sts_bytes(data, name)
    return split_pairs(result.pairs, seed=0), len(result.pairs), result.malformed


@st.cache_resource(max_entries=4, show_spinner=False)
def trained_tokenizer(algo: str, vocab_size: int, text: str) -> Tokenizer:
    """A tokenizer of `algo` trained on `text` (same inputs, same tokenizer; shared read-only)."""
    tokenizer = new_tokenizer(algo)
    tokenizer.train(text, vocab_size)
    return tokenizer


@st.cache_resource(max_entries=4, show_spinner=False)
def experiment_tokenizer(algo: str, vocab_size: int, text: str) -> Tokenizer:
    """A class experiment's tokenizer: `training.experiment.train_tokenizer`, the recipe of
    `experiment tokenizers` (char-BPE lowercased, as `train sts`), shared read-only."""
    from explorer_core.training.experiment import train_tokenizer

    return train_tokenizer(algo, vocab_size, text.split("\n"))


@st.cache_resource(max_entries=2, show_spinner=False)
def vocab_tokenizer(data: bytes, lowercase: bool, name: str = "vocab.txt") -> Tokenizer:
    """A WordPiece tokenizer from the bytes of an uploaded BERT `vocab.txt`."""
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "vocab.txt")
        path.write_bytes(data)
        try:
            return WordPieceTokenizer.from_vocab(path, lowercase=lowercase)
        except ValueError as err:  # name the upload, not the temporary copy
            raise ValueError(str(err).replace(str(path), name)) from None


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_encoder() -> TextEncoder:
    """Real all-MiniLM-L6-v2: our BertModel with its weights, its WordPiece vocabulary."""
    return TextEncoder(minilm_model(), minilm_tokenizer(), max_length=128)


def try_minilm() -> TextEncoder | None:
    """MiniLM, or None when its package is not installed."""
    try:
        return minilm_encoder()
    except (ImportError, PretrainedUnavailable):
        return None


# ---- the session's run ------------------------------------------------------------------------


def sync_run() -> bool:
    """Publish a finished/stopped run's model into SHARED_MODEL once; True when it just did."""
    run = st.session_state.get(RUN_KEY)
    if run is None or st.session_state.get(PUBLISHED_KEY) == id(run):
        return False
    ckpt = run.result()
    if ckpt is None:
        if run.status().state == "failed":
            st.session_state[PUBLISHED_KEY] = id(run)  # nothing to publish; the error is shown
        return False
    st.session_state[SHARED_MODEL] = SharedModel(ckpt, "trained", tuple(run.snapshots()))
    st.session_state[PUBLISHED_KEY] = id(run)
    return True


def shared_model() -> SharedModel | None:
    """The session's model (trained or uploaded), or None.

    Any object with the contract's `model`, `tokenizer` and `label` (see ui/state.py) is wrapped
    once into a SharedModel, so a model put there by other code works here too.
    """
    shared = st.session_state.get(SHARED_MODEL)
    if shared is None or isinstance(shared, SharedModel):
        return shared
    try:
        ckpt = Checkpoint(model=shared.model, tokenizer=shared.tokenizer, label=str(shared.label))
    except (AttributeError, ValueError):
        return None
    wrapped = SharedModel(ckpt, "trained")
    st.session_state[SHARED_MODEL] = wrapped
    return wrapped


def model_label(shared: SharedModel) -> str:
    """The model's caption in the page's language, rebuilt from its training log.

    An uploaded checkpoint keeps the label it was saved with.
    """
    log = shared.checkpoint.log
    if shared.source != "trained":
        return shared.label
    name = shared.label.split(",")[0]  # the preset's name, as training.run labels it
    parts = " + ".join(t(f"train.label.{phase}", n=len(part.steps)) for phase, part in log.items())
    # a trained model with no log was stopped before its first step
    stopped = not log or any(part.stop_reason == "stopped" for part in log.values())
    parts = parts or t("train.label.finetune", n=0)
    return t("train.label", name=name, parts=parts) + (t("train.label.stopped") if stopped else "")


def load_zip(data: bytes) -> SharedModel:
    """Load an uploaded checkpoint zip; ValueError (a sentence) leaves the session untouched."""
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = checkpoint_from_zip(data, Path(tmp, "checkpoint"))
    return SharedModel(ckpt, "uploaded")


def zip_bytes(shared: SharedModel) -> bytes:
    """The checkpoint as zip bytes, for the download button."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = save_checkpoint(shared.checkpoint, Path(tmp, "checkpoint"))
        return checkpoint_to_zip(folder)


# ---- encoders and cached similarity numbers for the Similarity page -----------------------------


def trained_encoder(shared: SharedModel) -> TextEncoder:
    return TextEncoder(shared.model, shared.tokenizer, shared.checkpoint.max_length)


def fresh_encoder(shared: SharedModel) -> TextEncoder | None:
    """The session's model as it was before training (its first snapshot), or None."""
    if not shared.snapshots or shared.snapshots[0].step != 0:
        return None
    memo = st.session_state.get(FRESH_KEY)
    if memo is None or memo[0] != id(shared):
        model = shared.snapshots[0].model()
        memo = (id(shared), TextEncoder(model, shared.tokenizer, shared.checkpoint.max_length))
        st.session_state[FRESH_KEY] = memo
    return memo[1]


@st.cache_data(max_entries=16, show_spinner=False)
def cached_embed(
    model_key: str, pooling: str, texts: tuple[str, ...], _encoder: TextEncoder
) -> np.ndarray:
    """Unit sentence vectors (N, H) of `texts`; `model_key` names the encoder for the cache."""
    return _encoder.embed(list(texts), pooling)


@st.cache_data(max_entries=16, show_spinner=False)
def cached_pair_cosines(
    model_key: str, pooling: str, pairs: tuple[tuple[str, str], ...], _encoder: TextEncoder
) -> np.ndarray:
    """Cosine (N,) of each sentence pair; `model_key` names the encoder for the cache."""
    return pair_cosines(_encoder, list(pairs), pooling)
