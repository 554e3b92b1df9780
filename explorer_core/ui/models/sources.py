"""The model sources every page with real numbers offers, resolved into one `ModelSource`.

A source is one of `SOURCES`: a fresh seeded small BERT (MiniLM's WordPiece vocabulary), the model
trained in this session (`st.session_state[SHARED_MODEL]`, see `explorer_core.ui.state`), the
real pretrained all-MiniLM-L6-v2, MiniLM + 中文 taught on this install (`ui.pretrained.taught`),
or a model opened from this machine (`OPENED`: a Hub name in the Hugging Face cache or a folder
under the allowed roots, `explorer_core.models`). The opened model's reference lives in
`st.session_state[REF_KEY]`, shared by every page, so a model picked once is the one every page
shows. Opened models are kept once per server, shared by every session, least recently used
first out under a byte budget (`models.memory.ModelMemory`); treat them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel
from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.files import taught_model
from explorer_core.inputs.vocab import BertVocab
from explorer_core.models.locate import locate
from explorer_core.models.memory import ModelMemory
from explorer_core.models.opened import OpenedModel, open_located
from explorer_core.models.settings import ModelRefused
from explorer_core.tokenization import Tokenizer
from explorer_core.ui import settings
from explorer_core.ui.i18n import t
from explorer_core.ui.models.labels import vocab_labels
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer, taught
from explorer_core.ui.state import SHARED_MODEL
from explorer_core.ui.taught.views import NOT_BUILT

SOURCES = settings.SOURCES  # fresh / trained / pretrained / taught / opened
OPENED = settings.OPENED
REF_KEY = settings.MODEL_REF  # the opened model's reference, shared by every page
FRESH_SEED = 0


class SourceUnavailable(RuntimeError):
    """The chosen model is not available; `key` is the catalogue message to show, `values` its
    fields (an opened model's refusal carries its one line as `reason`)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


@dataclass(frozen=True)
class ModelSource:
    kind: str  # one of SOURCES
    model: BertModel
    tokenizer: Tokenizer
    label: str  # for captions
    key: str  # cache key of this model (kind + identity)
    opened: OpenedModel | None = field(default=None)  # an opened model's pipeline and files


@st.cache_resource(max_entries=2, show_spinner=False)
def fresh_model(vocab_size: int, seed: int) -> BertModel:
    """A small untrained BERT: hidden 64, 2 layers, 4 heads, 128 positions, seeded."""
    config = BertConfig(
        vocab_size=vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, max_position_embeddings=128,
    )  # fmt: skip
    return BertModel(config, seed=seed).eval()


def snapshots() -> tuple:
    """The trained model's snapshots (first: before training, last: trained), if it has any."""
    return tuple(getattr(st.session_state.get(SHARED_MODEL), "snapshots", ()) or ())


@st.cache_resource(max_entries=4, show_spinner=False)
def snapshot_model(key: str, _snapshot) -> BertModel:  # noqa: ANN001 - a ModelSnapshot
    """The encoder as it was at one snapshot (built once per snapshot)."""
    return _snapshot.model()


def model_source(kind: str, snapshot: int | None = None) -> ModelSource:
    """Resolve the page's choice; raises SourceUnavailable with a catalogue key.

    `snapshot` picks one of the trained model's snapshots (see `snapshots()`); None: the model.
    """
    if kind == "trained":
        shared = st.session_state.get(SHARED_MODEL)
        if shared is None:
            raise SourceUnavailable("attn.src.no_trained")
        key = f"trained-{getattr(shared, 'uid', id(shared.model))}"
        snaps = snapshots()
        if snapshot is None or not 0 <= snapshot < len(snaps):
            return ModelSource(kind, shared.model, shared.tokenizer, str(shared.label), key)
        model = snapshot_model(f"{key}-{snapshot}", snaps[snapshot])
        label = f"{shared.label}; {snaps[snapshot].phase} {snaps[snapshot].step}"
        return ModelSource(kind, model, shared.tokenizer, label, f"{key}-{snapshot}")
    if kind == OPENED:
        return opened_source()
    if kind == "taught":
        ckpt = taught()
        if ckpt is None:
            raise SourceUnavailable(NOT_BUILT)
        key = f"taught-{taught_model.stamp()}"  # a rebuilt model is another model
        return ModelSource(kind, ckpt.model, ckpt.tokenizer, t("taught.name"), key)
    try:
        tokenizer = minilm_tokenizer()
        if kind == "pretrained":
            return ModelSource(kind, minilm_model(), tokenizer, "all-MiniLM-L6-v2", "minilm")
    except (ImportError, PretrainedUnavailable) as err:
        raise SourceUnavailable("attn.src.no_pretrained") from err
    model = fresh_model(BertVocab.of(tokenizer).size, FRESH_SEED)
    return ModelSource(kind, model, tokenizer, f"seed {FRESH_SEED}", f"fresh-{FRESH_SEED}")


@dataclass(frozen=True)
class Encoded:
    """A batch ready for the model, with the token strings for the axes."""

    tokens: list[list[str]]  # per row, padded with "[PAD]"
    input_ids: list[list[int]]
    token_type_ids: list[list[int]]
    attention_mask: list[list[int]]


def token_strings(tokenizer: Tokenizer, ids: list[int]) -> list[str]:
    """The tokens of a row: a model's own tokenizer names its specials itself (`<s>`, `</s>`);
    the app's own tokenizers get BERT's names for the special ids `BertVocab` gives them."""
    inverse = vocab_labels(tokenizer)  # a byte-level BPE's " the", not "Ġthe"
    if own_template(tokenizer):
        return [inverse.get(i, f"#{i}") for i in ids]
    vocab = BertVocab.of(tokenizer)
    names = {vocab.cls_id: "[CLS]", vocab.sep_id: "[SEP]", vocab.pad_id: "[PAD]",
             vocab.mask_id: "[MASK]"}  # fmt: skip
    return [names.get(i, inverse.get(i, f"#{i}")) for i in ids]


def own_template(tokenizer: Tokenizer) -> bool:
    """Whether the tokenizer lays rows out itself (a model's tokenizer.json: its template)."""
    return hasattr(tokenizer, "encode_with_specials")


def encode(tokenizer: Tokenizer, texts: list[str], pair: str | None = None) -> Encoded:
    """Rows of `texts` (padded to the longest), or one row of the pair: BERT's `[CLS] A [SEP]
    B [SEP]`, or a model's own template (RoBERTa's `<s> A </s></s> B </s>`)."""
    if own_template(tokenizer):
        return _templated(tokenizer, texts, pair)
    first, second = (texts, None) if pair is None else (texts[:1], [pair])
    batch = BertVocab.of(tokenizer).encode(tokenizer, first, second)
    rows, types, masks = (x.tolist() for x in (batch.input_ids, batch.token_type_ids,
                                               batch.attention_mask))  # fmt: skip
    return Encoded([token_strings(tokenizer, r) for r in rows], rows, types, masks)


def _templated(tokenizer: Tokenizer, texts: list[str], pair: str | None) -> Encoded:
    laid = [tokenizer.encode_with_specials(text, pair, limits=False)
            for text in (texts if pair is None else texts[:1])]  # fmt: skip
    width, pad = max(len(ids) for ids, _ in laid), BertVocab.of(tokenizer).pad_id
    rows = [ids + [pad] * (width - len(ids)) for ids, _ in laid]
    types = [kinds + [0] * (width - len(kinds)) for _, kinds in laid]
    masks = [[1] * len(ids) + [0] * (width - len(ids)) for ids, _ in laid]
    return Encoded([token_strings(tokenizer, r) for r in rows], rows, types, masks)


def batch_key(enc: Encoded) -> tuple[tuple, tuple, tuple]:
    """The batch as hashable tuples (ids, token types, mask): `run_attention`'s cache key."""
    return tuple(
        tuple(map(tuple, rows)) for rows in (enc.input_ids, enc.token_type_ids, enc.attention_mask)
    )


# ---- a model opened from this machine -------------------------------------------------------


@st.cache_resource(max_entries=1, show_spinner=False)
def memory() -> ModelMemory:
    """The server's opened models: one copy each for every session, least recently used out
    under the byte budget (EXPLORER_MODEL_CACHE_MB); its sizes are the health page's figures."""
    return ModelMemory()


def opened_model(ref: str) -> OpenedModel:
    """`ref` opened once per server (every session shares it); ModelRefused when it may not be.
    Locating is cheap (a few stat calls), so a model whose snapshot changed is another model."""
    located = locate(ref, allow_download=False)
    return memory().get(located.cache_key, lambda: open_located(ref, located),
                        lambda opened: opened.parameter_bytes)  # fmt: skip


def opened_source() -> ModelSource:
    """The opened model of this session (`REF_KEY`) as a source; SourceUnavailable when none was
    opened or it may not be opened (its one line as `reason`)."""
    ref = str(st.session_state.get(REF_KEY) or "").strip()
    if not ref:
        raise SourceUnavailable("models.none")
    try:
        opened = opened_model(ref)
    except (ModelRefused, ValueError, OSError) as err:
        raise SourceUnavailable("models.refused", reason=first_line(err)) from err
    return ModelSource(OPENED, opened.model, opened.tokenizer, opened.label, f"opened-{ref}",
                       opened)  # fmt: skip


def first_line(err: BaseException) -> str:
    """An error as the one line a page shows."""
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]
