"""Cached data for the three Embed pages: pretrained MiniLM, fresh seeded tables, the tokenizers.

Every cached function takes plain arguments; models and tensors are cached as resources and treated
as read-only. `embedding_source` resolves the page's choice (fresh / trained / pretrained / taught:
MiniLM + 中文, taught here) into one `Source`: the tokenizer, the embedding module and a caption
label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st
import torch

from explorer_core.bert.config import BertConfig
from explorer_core.bert.embeddings import (
    BertEmbeddings,
    fresh_embeddings,
    load_pretrained_embeddings,
)
from explorer_core.bert.pretrained import PretrainedUnavailable, minilm_path
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Token, Tokenizer
from explorer_core.ui import settings
from explorer_core.ui.i18n import t
from explorer_core.ui.models import picker
from explorer_core.ui.models.labels import vocab_labels
from explorer_core.ui.models.sources import SourceUnavailable as models_unavailable
from explorer_core.ui.models.sources import opened_source
from explorer_core.ui.pretrained import minilm_tokenizer, taught
from explorer_core.ui.state import (
    SHARED_MODEL,
    SHARED_TOKENIZER,
    SHARED_TOKENIZER_NAME,
    URL_SEEDED,
    clamp_state,
    url_synced,
)
from explorer_core.ui.taught.views import NOT_BUILT, unavailable

SOURCES = settings.SOURCES  # fresh / trained / pretrained / taught / opened


class SourceUnavailable(RuntimeError):
    """The chosen model does not exist here (no trained model, MiniLM not installed, MiniLM + 中文
    not built on this install)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values  # a catalogue key the page shows with st.warning


@dataclass(frozen=True)
class Source:
    kind: str  # one of SOURCES
    tokenizer: Tokenizer
    embeddings: BertEmbeddings
    label: str  # for captions: "MiniLM (pretrained)", the trained model's label, ...


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_embeddings() -> BertEmbeddings:
    """MiniLM's embedding layer (word, position, segment, LayerNorm) from its safetensors file."""
    return load_pretrained_embeddings(minilm_path())


@st.cache_resource(max_entries=4, show_spinner=False)
def fresh_model(config: BertConfig, seed: int) -> BertEmbeddings:
    """A fresh, seeded embedding layer (same seed, same numbers)."""
    return fresh_embeddings(config, seed)


def current_tokenizer() -> tuple[Tokenizer, str]:
    """The tokenizer trained in the Tokenizer Lab, else MiniLM's WordPiece vocabulary."""
    shared = st.session_state.get(SHARED_TOKENIZER)
    if shared is not None:
        return shared, str(st.session_state.get(SHARED_TOKENIZER_NAME, shared.algo))
    try:
        return minilm_tokenizer(), t("emb.tokens.src.minilm_vocab")
    except (ImportError, PretrainedUnavailable) as err:
        raise SourceUnavailable("emb.tokens.src.no_tokenizer", error=str(err)) from err


def embedding_source(kind: str, *, dim: int = 64, seed: int = 0) -> Source:
    """Resolve the page's model choice; raises SourceUnavailable with a catalogue key."""
    if kind == "trained":
        shared = st.session_state.get(SHARED_MODEL)
        if shared is None:
            raise SourceUnavailable("emb.tokens.src.no_trained")
        return Source(kind, shared.tokenizer, shared.model.embeddings, str(shared.label))
    if kind == "pretrained":
        try:
            return Source(kind, minilm_tokenizer(), minilm_embeddings(), "all-MiniLM-L6-v2")
        except (ImportError, PretrainedUnavailable) as err:
            raise SourceUnavailable("emb.tokens.src.no_pretrained", error=str(err)) from err
    if kind == settings.OPENED:  # a model opened from this machine: its own tables
        try:
            opened = opened_source()
        except models_unavailable as err:
            raise SourceUnavailable(err.key, **err.values) from err
        return Source(kind, opened.tokenizer, opened.model.embeddings, opened.label)
    if kind == "taught":  # MiniLM's tables with the Chinese rows it was taught, its own vocabulary
        ckpt = taught()
        if ckpt is None:
            raise SourceUnavailable(NOT_BUILT)
        return Source(kind, ckpt.tokenizer, ckpt.model.embeddings, t("taught.name"))
    tokenizer, name = current_tokenizer()
    vocab = BertVocab.of(tokenizer)  # rows for every id, plus [PAD]/[CLS]/[SEP]/[MASK] if missing
    config = BertConfig(
        vocab_size=vocab.size,
        hidden_size=dim,
        num_attention_heads=1,
        intermediate_size=dim,
        pad_token_id=vocab.pad_id,
    )
    label = t("emb.tokens.src.fresh_label", seed=seed, name=name)
    return Source(kind, tokenizer, fresh_model(config, seed), label)


def tokens_of(tokenizer: Tokenizer, text: str) -> list[Token]:
    """The tokens of `text`, without specials the tokenizer adds by itself."""
    return [token for token in tokenizer.explain(text) if not token.special]


def encode_pair(
    tokenizer: Tokenizer, first: str, second: str
) -> tuple[list[str], list[int], list[int]]:
    """The pair as the model reads it -> (token labels, ids, segment ids).

    A model's own tokenizer (a tokenizer.json) lays the pair out with its own template, e.g.
    RoBERTa's `<s> A </s></s> B </s>` with segment 0 throughout. Other tokenizers get BERT's
    `[CLS] A [SEP] B [SEP]` with segments 0 and 1, special ids from `BertVocab` (the convention
    the Train page's models use): the tokenizer's own [CLS]/[SEP], or ids added after its
    vocabulary when it has none.
    """
    a, b = tokens_of(tokenizer, first), tokens_of(tokenizer, second)
    if hasattr(tokenizer, "encode_with_specials"):
        ids, types = tokenizer.encode_with_specials(first, second, limits=False)
        return template_labels(tokenizer, ids, [*a, *b]), ids, types
    rows = BertVocab.of(tokenizer).rows([[t.id for t in a]], [[t.id for t in b]])
    labels = ["[CLS]", *(t.display for t in a), "[SEP]", *(t.display for t in b), "[SEP]"]
    return labels, rows.input_ids[0].tolist(), rows.token_type_ids[0].tolist()


def template_labels(tokenizer: Tokenizer, ids: list[int], content: list[Token]) -> list[str]:
    """Labels of a template's ids: the text's own tokens in order, the template's specials by
    their vocabulary names (`<s>`, `</s>`, `[CLS]` ...)."""
    names = {i: s for s, i in tokenizer.vocab.items()}
    labels, rest = [], list(content)
    for token_id in ids:
        if rest and rest[0].id == token_id:
            labels.append(rest.pop(0).display)
        else:
            labels.append(names.get(token_id, f"#{token_id}"))
    return labels


@st.cache_data(max_entries=8, show_spinner=False)
def pretrained_position_table(length: int) -> torch.Tensor:
    """The first `length` rows of MiniLM's learned position table (at most 512)."""
    try:
        weight = minilm_embeddings().position_embeddings.weight
    except PretrainedUnavailable as err:
        raise SourceUnavailable("emb.tokens.src.no_pretrained", error=str(err)) from err
    return weight[: min(length, weight.shape[0])].detach().clone()


def id_labels(tokenizer: Tokenizer) -> dict[int, str]:
    """Id -> vocabulary string, built once per call (the tokenizer's own inverse is not cached);
    a byte-level BPE's entries decoded (" the", not "Ġthe": `ui.models.labels`)."""
    return vocab_labels(tokenizer)


def neighbour_exclusions(labels: dict[int, str], rows: int) -> torch.Tensor:
    """Rows that may not be shown as neighbours: BERT's [unused…] placeholders and [PAD]."""
    mask = torch.zeros(rows, dtype=torch.bool)
    for token_id, text in labels.items():
        if token_id < rows and (text.startswith("[unused") or text == "[PAD]"):
            mask[token_id] = True
    return mask


def pair_components(
    embeddings: BertEmbeddings, ids: list[int], segments: list[int]
) -> dict[str, torch.Tensor]:
    """token / position / segment / sum / output (each (1, T, H)) for one sentence pair."""
    types = torch.tensor([segments]) if embeddings.config.type_vocab_size > 0 else None
    with torch.no_grad():
        return embeddings.components(torch.tensor([ids]), types)


def family_notes(config: BertConfig) -> None:
    """One line for each part of BERT's sum this family does otherwise: no segments or one
    segment row, positions counted from an offset, rotary instead of a table, E -> H."""
    family = config.model_type
    if config.type_vocab_size == 0:
        st.info(t("emb.sum.no_segments"))
    elif config.type_vocab_size == 1:
        st.info(t("emb.sum.one_segment", family=family))
    if config.position_embedding_type == "learned" and config.first_position:
        st.info(t("emb.sum.offset", family=family, offset=config.first_position,
                  last=config.first_position - 1))  # fmt: skip
    elif config.position_embedding_type == "rotary":
        st.info(t("emb.sum.rotary", family=family))
    if config.embedding_size and config.embedding_size != config.hidden_size:
        st.info(t("emb.sum.projected", family=family, e=config.embedding_size,
                  h=config.hidden_size))  # fmt: skip


def pick_source(prefix: str) -> tuple[Source, str]:
    """The model picker the Embed pages share; returns the source and its caption line.

    Widgets: `<prefix>.source` (fresh / trained / pretrained / taught) and, for a fresh model, its
    seed `<prefix>.seed` and, when the page declares `<prefix>.dim`, its width (else 32). When the
    chosen model is not available it shows the catalogue's warning (for MiniLM + 中文: how to
    build it, with a link to the Train page) and stops the page. Width and seed are kept in the URL
    with their declared ranges (`settings.bind`); the page syncs the source.
    """
    kind = picker.pick_source(
        f"{prefix}.source", t("emb.tokens.source"), lambda s: t(f"emb.tokens.src.{s}"),
        settings.declared()[f"{prefix}.source"].value(),  # none selected: the page's default
    )  # fmt: skip
    dim, widths = 32, f"{prefix}.dim" in settings.declared()
    # subtle: one block in the same place whatever the source, so the page's elements below keep
    # their positions: when the fresh model's controls came and went, every chart and table after
    # them was mounted again in the browser instead of updated (a model-source change redrew all).
    holder = st.container()
    if kind == "fresh":
        columns = holder.columns(2 if widths else 1)
        if widths:
            dim = columns[0].select_slider(t("emb.tokens.dim"), **settings.bind(f"{prefix}.dim"))
        columns[-1].number_input(t("emb.tokens.seed"), **settings.bind(f"{prefix}.seed"))
    try:
        source = embedding_source(
            kind, dim=dim, seed=int(st.session_state.get(f"{prefix}.seed", 0))
        )
    except SourceUnavailable as err:
        unavailable(err.key, **err.values)
        st.stop()
    return source, t(f"emb.tokens.src.caption.{source.kind}", label=source.label)


def pick_token(key: str, label: str, names: Sequence[str], linked: bool = False) -> int:
    """A selectbox over token positions shown as "i: name"; its remembered choice is kept inside
    the current sentence (see `clamp_state`). Returns the chosen position (0 when none).

    With `linked`, the position is kept in the URL as `?key=3` (`state.url_synced`: the shown
    labels change with the sentence, the position does not); a link's position past the end of
    the sentence opens on its last token.
    """
    top = len(names) - 1
    if linked:
        clamp_url(key, top)
        url_synced(key, range(len(names)))
    clamp_state(key, 0, top)
    pick = st.selectbox(label, range(len(names)), key=key, format_func=lambda i: f"{i}: {names[i]}")
    return pick or 0


def clamp_url(key: str, top: int) -> None:
    """On the run that opens a link, bring a whole-number `?key=` into 0 .. top (like the
    layer and head of the Attention page), so `url_synced` accepts it."""
    wanted = st.query_params.get(key)
    if URL_SEEDED + key in st.session_state or wanted is None:
        return
    try:
        number = int(wanted)
    except ValueError:
        return
    st.query_params[key] = str(min(max(number, 0), top))
