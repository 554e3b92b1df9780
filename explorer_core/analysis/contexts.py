"""One word, many contexts (Ethayarajh 2019, "How Contextual are Contextualized Word
Representations?"): the same word in 10-20 sentences, its vectors compared layer by layer.

- self-similarity: the mean cosine of the word's vectors over every pair of sentences. 1 would
  mean the layer gives the word one vector whatever the sentence (a static embedding).
- the anisotropy baseline: the mean cosine of random token pairs from the same sentences at that
  layer. Contextual vectors all point into a narrow cone, so even unrelated tokens score well
  above 0; self-similarity means something only next to this baseline.
- `standardize=True` z-scores every dimension over the set's tokens at that layer before the
  cosine: a few rogue dimensions with huge values dominate raw cosine (Timkey & van Schijndel
  2021), and standardising shows the similarity the other dimensions carry.

The word's vector in a sentence is the *mean of its subword tokens* (苹果 → 苹, 果; "playing" →
play, ##ing), at its first occurrence. Token pools for the baseline and the standardisation hold
every real token except [CLS] and [SEP] (never padding).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import torch
import torch.nn.functional as F
from torch import Tensor

from explorer_core.analysis.encoder import hidden_states
from explorer_core.bert.model import BertModel
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer

BUILTIN_FILE = "contexts.tsv"  # word <TAB> sense <TAB> sentence; lines starting with # are notes
BASELINE_PAIRS = 1000  # random token pairs per layer for the anisotropy baseline


@dataclass(frozen=True)
class ContextSet:
    """One word in many sentences, with the sense each sentence uses it in."""

    word: str
    sentences: tuple[str, ...]
    senses: tuple[str, ...]  # one label per sentence ("river", "money"; "fruit", "company")


def parse_context_sets(text: str) -> dict[str, ContextSet]:
    """{word: ContextSet} from `word<TAB>sense<TAB>sentence` lines, in the order of the file.

    >>> parse_context_sets("bank\\triver\\tThe bank of the river.")["bank"].senses
    ('river',)
    """
    rows: dict[str, list[tuple[str, str]]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise ValueError(f"line {number}: expected word<TAB>sense<TAB>sentence")
        word, sense, sentence = (p.strip() for p in parts)
        rows.setdefault(word, []).append((sense, sentence))
    return {
        word: ContextSet(word, tuple(s for _, s in pairs), tuple(sense for sense, _ in pairs))
        for word, pairs in rows.items()
    }


def builtin_context_sets() -> dict[str, ContextSet]:
    """The shipped sets: bank (river / money), 苹果 (fruit / company), 打 (电话 / 篮球 / 车)."""
    data = resources.files("explorer_core").joinpath("resources", BUILTIN_FILE).read_text("utf-8")
    return parse_context_sets(data)


def word_positions(tokenizer: Tokenizer, row: Sequence[int], word: str) -> list[int]:
    """The positions in `row` (ids with [CLS] ... [SEP]) of the word's subword tokens, at its
    first occurrence; [] when the word's tokens do not occur there in that order.

    Worked example: with [CLS] = 2, the = 5, bank = 7, [SEP] = 3 and "bank" -> [7], the row
    [2, 5, 7, 3] gives [2]. Only whole words count: "riverbank" (river, ##bank) holds neither
    "bank" (##bank is another id) nor "river" (a WordPiece continuation "##..." follows it).
    # subtle: a byte-level BPE (RoBERTa, ModernBERT) cuts a word after a space as " bank"
    # (Ġbank), another id than "bank" at the start of a text: both forms are looked for.
    """
    vocab = BertVocab.of(tokenizer)
    forms = [vocab.content_ids(tokenizer, word), vocab.content_ids(tokenizer, " " + word)]
    pieces = forms[0]
    if not pieces:
        raise ValueError(f"{word!r} gives no tokens")
    unknown = tokenizer.special_tokens.get("[UNK]")
    if unknown is not None and unknown in pieces:
        raise ValueError(f"{word!r} is unknown to this tokenizer ([UNK]): choose another model")
    ids = list(row)
    found = [_first(tokenizer, ids, form) for form in forms if form]
    found = [positions for positions in found if positions]
    return min(found) if found else []


def _first(tokenizer: Tokenizer, ids: list[int], pieces: list[int]) -> list[int]:
    """The positions of the first whole-word occurrence of `pieces` in `ids`, or []."""
    n = len(pieces)
    for start in range(len(ids) - n + 1):
        if ids[start : start + n] == pieces and not _continues(tokenizer, ids[start + n :]):
            return list(range(start, start + n))
    return []


def _continues(tokenizer: Tokenizer, rest: Sequence[int]) -> bool:
    """True when the next token continues the word (WordPiece's "##" pieces)."""
    if not rest:
        return False
    try:
        return tokenizer.id_to_token(rest[0]).startswith("##")
    except (KeyError, IndexError):  # an id the tokenizer does not know ([MASK] added after it)
        return False


@dataclass(frozen=True)
class ContextSimilarity:
    """Per layer (L + 1 rows, 0 = embeddings): the word's self-similarity and the baseline."""

    word: str
    self_similarity: Tensor  # (L + 1,) mean cosine over every pair of sentences
    baseline: Tensor  # (L + 1,) mean cosine of random token pairs (anisotropy)
    cosines: Tensor  # (L + 1, N, N) the word's cosine between sentences i and j
    within_sense: Tensor | None  # (L + 1,) mean over pairs of the same sense (None: no senses)
    across_senses: Tensor | None  # (L + 1,) mean over pairs of different senses
    positions: tuple[tuple[int, ...], ...]  # the word's token positions in each sentence
    standardized: bool


def _standardize(vectors: Tensor, pool: Tensor) -> Tensor:
    """z-score each dimension with the pool's mean and std.

    vectors (L + 1, N, H), pool (L + 1, P, H): one mean and std per layer and dimension.
    """
    mean, std = pool.mean(dim=1, keepdim=True), pool.std(dim=1, keepdim=True)
    return (vectors - mean) / std.clamp(min=1e-6)


def _pair_mean(cosines: Tensor, keep: Tensor) -> Tensor:
    """Mean of cosines (L + 1, N, N) over the pairs i < j where `keep` (N, N) is True."""
    chosen = keep.triu(diagonal=1)
    return cosines[:, chosen].mean(dim=-1)


def many_contexts(
    model: BertModel,
    tokenizer: Tokenizer,
    sentences: Sequence[str],
    word: str,
    *,
    senses: Sequence[str] | None = None,
    standardize: bool = False,
    seed: int = 0,
) -> ContextSimilarity:
    """Self-similarity of `word` across `sentences` per layer, against the anisotropy baseline
    (one batched forward pass). A sentence without the word raises ValueError naming it."""
    if len(sentences) < 2:
        raise ValueError("give at least two sentences to compare the word across")
    if senses is not None and len(senses) != len(sentences):
        raise ValueError(f"{len(senses)} senses for {len(sentences)} sentences")
    states, rows, mask = hidden_states(model, tokenizer, sentences)  # (L + 1, N, T, H), (N, T)
    vocab = BertVocab.of(tokenizer)
    positions = _find_word(tokenizer, sentences, rows, mask, word)
    words = torch.stack([states[:, n, list(p)].mean(dim=1) for n, p in enumerate(positions)], 1)
    real = mask.bool() & (rows != vocab.cls_id) & (rows != vocab.sep_id)  # (N, T)
    pool = states[:, real]  # (L + 1, P, H)
    if standardize:
        words, pool = _standardize(words, pool), _standardize(pool, pool)
    unit = F.normalize(words, dim=-1)  # (L + 1, N, H)
    cosines = unit @ unit.transpose(1, 2)  # (L + 1, N, N)
    everyone = torch.ones(len(sentences), len(sentences), dtype=torch.bool)
    within = across = None
    if senses is not None:
        same = torch.tensor([[a == b for b in senses] for a in senses])
        within, across = _pair_mean(cosines, same), _pair_mean(cosines, ~same)
    return ContextSimilarity(
        word=word,
        self_similarity=_pair_mean(cosines, everyone),
        baseline=_baseline(pool, seed),
        cosines=cosines,
        within_sense=within,
        across_senses=across,
        positions=tuple(positions),
        standardized=standardize,
    )


def _find_word(
    tokenizer: Tokenizer, sentences: Sequence[str], rows: Tensor, mask: Tensor, word: str
) -> list[tuple[int, ...]]:
    """The word's positions in every row; ValueError naming the first sentence without it."""
    positions = []
    for number, (sentence, row) in enumerate(zip(sentences, rows.tolist(), strict=True), 1):
        found = word_positions(tokenizer, row[: int(mask[number - 1].sum())], word)
        if not found:
            raise ValueError(f"{word!r} is not in sentence {number}: {sentence}")
        positions.append(tuple(found))
    return positions


def _baseline(pool: Tensor, seed: int) -> Tensor:
    """(L + 1,): the mean cosine of BASELINE_PAIRS random pairs of distinct tokens of the pool,
    the same pairs at every layer (drawn with a seeded generator)."""
    size = pool.shape[1]
    generator = torch.Generator().manual_seed(seed)
    first = torch.randint(0, size, (BASELINE_PAIRS,), generator=generator)
    # subtle: an offset in 1 .. size-1 never pairs a token with itself
    second = (first + torch.randint(1, size, (BASELINE_PAIRS,), generator=generator)) % size
    unit = F.normalize(pool, dim=-1)  # (L + 1, P, H)
    pairs = torch.einsum("lph,lph->lp", unit.index_select(1, first), unit.index_select(1, second))
    return pairs.mean(dim=-1)  # (L + 1,)
