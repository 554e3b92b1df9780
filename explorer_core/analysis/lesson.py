"""The guided lesson: one sentence followed through the whole pipeline, one concept per step.

text → bytes → tokens → ids → one-hot → vector → + position → attention → pooled vector → cosine.
Each helper is a pure function over the real tokenizer and model the page passes in
(all-MiniLM-L6-v2) and returns a DataFrame or a frozen dataclass; the page only draws them. Where
a step exists elsewhere in the engine (the one-hot product, mean pooling) it is called, not
rewritten.

>>> char_frame("猫a")[["char", "code_point", "utf8"]].values.tolist()
[['猫', 'U+732B', 'e7 8c ab'], ['a', 'U+0061', '61']]
>>> round(cosine_parts(np.array([1.0, 0.0]), np.array([1.0, 1.0])).cosine, 4)
0.7071
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.tokenization.base import visible_whitespace

if TYPE_CHECKING:
    import torch

    from explorer_core.bert.model import BertModel

# subtle: torch is imported inside the helpers that run the model, not above: the lesson's first
# screens (text, bytes, tokens, ids) need none of it, and right after a server starts they are
# drawn while the warm-up is still importing torch (1-2 s) instead of after it.

STEPS = (
    "text", "bytes", "tokens", "ids", "onehot", "vector", "position", "attention", "layer",
    "pooled", "cosine", "why",
)  # fmt: skip
POSITION_STEP = STEPS.index("position") + 1  # from this step on, the model's positions matter
UNK = "[UNK]"


def char_frame(text: str) -> pd.DataFrame:
    """One row per character: position, the character (spaces made visible), its Unicode code
    point (U+XXXX and decimal), its UTF-8 bytes in hex and how many there are.

    A code point is the character's number in Unicode; UTF-8 writes numbers below 128 in one byte
    (ASCII), most European letters in two, Chinese characters in three and emoji in four.
    """
    chars = list(text)
    raw = [c.encode("utf-8") for c in chars]
    return pd.DataFrame(
        {
            "position": range(len(chars)),
            "char": [visible_whitespace(c) for c in chars],
            "code_point": [f"U+{ord(c):04X}" for c in chars],
            "decimal": [ord(c) for c in chars],
            "utf8": [r.hex(" ") for r in raw],
            "n_bytes": [len(r) for r in raw],
        }
    )


def byte_frame(text: str) -> pd.DataFrame:
    """One row per UTF-8 byte: its index, the character it belongs to, hex, decimal and binary.

    >>> byte_frame("é")[["char", "hex", "binary"]].values.tolist()
    [['é', 'c3', '11000011'], ['é', 'a9', '10101001']]
    """
    rows = []
    for position, char in enumerate(text):
        for byte in char.encode("utf-8"):
            rows.append((position, visible_whitespace(char), f"{byte:02x}", byte, f"{byte:08b}"))
    frame = pd.DataFrame(rows, columns=["char_position", "char", "hex", "decimal", "binary"])
    frame.insert(0, "byte", range(len(frame)))
    return frame


@dataclass(frozen=True)
class LessonTokens:
    """`[CLS] text [SEP]` as the model reads it: vocabulary strings, ids and what each covers."""

    tokens: tuple[str, ...]  # as the vocabulary writes them ("##mat", "[CLS]", "[UNK]")
    ids: tuple[int, ...]
    covers: tuple[str, ...]  # the characters of the text each token stands for ("" for specials)
    kinds: tuple[str, ...]  # "special", "word" (starts a word), "piece" (## continues), "unknown"

    @property
    def unknown(self) -> int:
        return self.kinds.count("unknown")

    @property
    def content(self) -> int:
        """Tokens that come from the text ([CLS] and [SEP] excluded)."""
        return len(self.tokens) - self.kinds.count("special")


def tokenize(tokenizer: Tokenizer, text: str) -> LessonTokens:
    """The text as BERT's input row: [CLS], the WordPiece tokens of `text`, [SEP].

    Worked example with bert-base-uncased's vocabulary: "The doormat." -> [CLS] the door ##mat .
    [SEP], ids 101 1996 2341 18900 1012 102 ("##mat" continues the word "door").
    """
    # subtle: [CLS]/[SEP] that a tokenizer adds itself are dropped; the row builder adds its own
    pieces = [t for t in tokenizer.explain(text) if not (t.special and t.start == t.end)]
    row = BertVocab.of(tokenizer).row_ids([t.id for t in pieces])
    kinds = ["unknown" if t.text == UNK else "piece" if t.text.startswith("##") else "word"
             for t in pieces]  # fmt: skip
    return LessonTokens(
        tokens=("[CLS]", *(t.text for t in pieces), "[SEP]"),
        ids=tuple(row),
        covers=("", *(text[t.start : t.end] for t in pieces), ""),
        kinds=("special", *kinds, "special"),
    )


def token_frame(row: LessonTokens) -> pd.DataFrame:
    """One row per token: position, token, the text it covers, its kind and its id."""
    return pd.DataFrame(
        {
            "position": range(len(row.tokens)),
            "token": list(row.tokens),
            "covers": [visible_whitespace(c) for c in row.covers],
            "kind": list(row.kinds),
            "id": list(row.ids),
        }
    )


@dataclass(frozen=True, eq=False)
class OneHotStep:
    """One token's one-hot row and the product one_hot × E, next to the row E[id] itself."""

    token_id: int
    vocab_size: int  # length of the one-hot row (rows of E)
    ones: int  # how many entries are 1 (always 1)
    product: np.ndarray  # (H,) one_hot × E
    row: np.ndarray  # (H,) E[id], the lookup
    max_gap: float  # largest |product − row|: 0.0, the product *is* the lookup


def one_hot_step(weight: torch.Tensor, token_id: int) -> OneHotStep:
    """Multiply the one-hot row of `token_id` by the embedding matrix `weight` (V × H)."""
    import torch

    from explorer_core.bert.embeddings import one_hot_lookup

    with torch.no_grad():
        one_hot, product = one_hot_lookup(torch.tensor([token_id]), weight.detach())
        row = weight.detach()[token_id]
    return OneHotStep(
        token_id=token_id,
        vocab_size=int(weight.shape[0]),
        ones=int(one_hot.sum()),
        product=product[0].double().numpy(),
        row=row.double().numpy(),
        max_gap=float((product[0] - row).abs().max()),
    )


@dataclass(frozen=True, eq=False)
class SentenceRun:
    """One pass of the model over `[CLS] text [SEP]`: what the last four steps show."""

    attentions: np.ndarray  # (L, heads, T, T) softmax weights, rows sum to 1 (float32: 512
    # tokens already make 6 × 12 × 512² numbers)
    last_hidden: np.ndarray  # (T, H) the last layer's vector of every token
    mean: np.ndarray  # (H,) mean pooling over the tokens ([CLS] and [SEP] included, as in ST);
    # an opened model: its own pooling, before Normalize (`analysis.lesson_opened.run_opened`)
    vector: np.ndarray  # (H,) mean / |mean|: the sentence vector, length 1 (an opened model's
    # pipeline may not normalise: then its sentence vector, `mean` itself)

    @property
    def length(self) -> float:
        """|mean| before normalising."""
        return float(np.linalg.norm(self.mean))


def check_length(ids: tuple[int, ...] | list[int], limit: int) -> None:
    """Raise ValueError when `[CLS] text [SEP]` needs more positions than the model has."""
    if len(ids) > limit:
        raise ValueError(f"{len(ids)} tokens do not fit the model's {limit} positions")


Pooler = Callable[["torch.Tensor", "torch.Tensor"], tuple["torch.Tensor", "torch.Tensor"]]


def run_sentence(
    model: BertModel, ids: tuple[int, ...] | list[int], pool: Pooler | None = None
) -> SentenceRun:
    """Run the encoder once (eval mode, no gradients) and pool the last layer by the mean.

    Sentence-transformers' all-MiniLM-L6-v2 does exactly this: mean over every token of the row
    (there is no padding in a single sentence), then divide by the length. `pool(hidden (1, T, H),
    mask (1, T))` -> (pooled, sentence vector), each (1, D), replaces it (an opened model's own).
    """
    import torch
    import torch.nn.functional as F

    from explorer_core.bert.pooling import mean_pool

    check_length(ids, model.config.max_tokens)
    input_ids = torch.tensor([list(ids)])  # (1, T)
    mask = torch.ones_like(input_ids)  # (1, T)
    # subtle: model.train(flag) would set one flag on every submodule; restore each one's own
    # (a cached model is shared by every session and must stay exactly as it was)
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            out = model(input_ids, mask, output_attentions=True)
    finally:
        for module, mode in modes:
            module.training = mode
    with torch.no_grad():
        if pool is None:
            mean = mean_pool(out.last_hidden_state, mask)  # (1, H)
            unit = F.normalize(mean, p=2, dim=-1)  # (1, H)
        else:
            mean, unit = pool(out.last_hidden_state, mask)  # (1, D) each
    return SentenceRun(
        attentions=torch.stack(out.attentions, dim=1)[0].float().numpy(),  # (L, heads, T, T)
        last_hidden=out.last_hidden_state[0].double().numpy(),
        mean=mean[0].double().numpy(),
        vector=unit[0].double().numpy(),
    )


@dataclass(frozen=True)
class CosineParts:
    """cos(u, v) = u·v / (|u| |v|), with every number of the formula."""

    dot: float
    norm_u: float
    norm_v: float
    cosine: float


def cosine_parts(u: np.ndarray, v: np.ndarray) -> CosineParts:
    """The cosine of two vectors and the numbers that make it (0 when either is all zeros).

    Worked example: u = [1, 0], v = [1, 1]: u·v = 1, |u| = 1, |v| = √2, cos = 1/√2 ≈ 0.7071.
    """
    u, v = np.asarray(u, dtype=float), np.asarray(v, dtype=float)
    if u.shape != v.shape or u.ndim != 1:
        raise ValueError(f"two vectors of the same length are needed, got {u.shape} and {v.shape}")
    dot, nu, nv = float(u @ v), float(np.linalg.norm(u)), float(np.linalg.norm(v))
    cosine = float(np.clip(dot / (nu * nv), -1.0, 1.0)) if nu and nv else 0.0
    return CosineParts(dot=dot, norm_u=nu, norm_v=nv, cosine=cosine)


def vector_frame(vector: np.ndarray | torch.Tensor) -> pd.DataFrame:
    """A vector as a two-column table, dimension and value, for a CSV download.

    >>> vector_frame(np.array([0.5, -1.0])).values.tolist()
    [[0.0, 0.5], [1.0, -1.0]]
    """
    values = np.asarray(vector.detach() if hasattr(vector, "detach") else vector, float)
    return pd.DataFrame({"dimension": range(len(values)), "value": values})


def stages_frame(stages: dict[str, torch.Tensor]) -> pd.DataFrame:
    """One token's stages (token, position, segment, sum, output), one column each, all dims."""
    columns = {name: vector.detach().double().numpy() for name, vector in stages.items()}
    width = len(next(iter(columns.values()))) if columns else 0
    return pd.DataFrame({"dimension": range(width), **columns})


def pooling_rows(
    run: SentenceRun, tokens: tuple[str, ...], dims: int, max_tokens: int = 24
) -> pd.DataFrame:
    """The last layer's first `dims` numbers per token, then their mean and the unit vector.

    A long sentence shows its first `max_tokens` tokens and a row "…" of NaN (a gap in a
    heatmap); the mean is always over every token.
    """
    dims = min(dims, run.last_hidden.shape[1])
    shown = run.last_hidden[:max_tokens, :dims]
    names = [f"{i} · {token}" for i, token in enumerate(tokens[:max_tokens])]
    if len(tokens) > max_tokens:
        shown = np.vstack([shown, np.full((1, dims), np.nan)])
        names.append("…")
    block = np.vstack([shown, run.mean[:dims], run.vector[:dims]])
    return pd.DataFrame(
        block, index=[*names, "mean", "unit"], columns=[f"d{d}" for d in range(dims)]
    )
