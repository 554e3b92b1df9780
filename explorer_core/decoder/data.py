"""What a decoder learns from: the built-in corpus, a byte-level BPE trained on it, token ids.

`prepare_lm(config)` reads the app's own running prose (`inputs.datasets.builtin_corpus`: the
Train page's corpus; "both" is its "mixed" one), keeps its last `heldout_fraction` (cut at a line
break) out of training, trains the app's byte-level BPE on the rest and tokenizes both parts. The
held-out ids are trimmed to whole evaluation windows, 1 + k × block_size ids, so the decoder and
the bigram line are scored on exactly the same k × block_size transitions.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.decoder.baselines import bigram_loss, uniform_loss
from explorer_core.decoder.config import LMTrainConfig
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer

CORPUS = {"en": "en", "zh": "zh", "both": "mixed"}  # our lang -> builtin_corpus's name


@dataclass(frozen=True, eq=False)
class LMData:
    tokenizer: ByteBPETokenizer
    train_ids: Tensor  # (N,) int64: the corpus's head, tokenized
    heldout_ids: Tensor  # (1 + k × block_size,) int64: the tail, whole windows only
    vocab_size: int  # rows of the model's embedding: the tokenizer's largest id + 1
    bigram_loss: float  # nats, over heldout_ids' transitions (decoder/baselines.py)
    uniform_loss: float  # ln vocab_size
    text_chars: int  # characters of the corpus used

    def heldout_windows(self, block_size: int) -> Tensor:
        """(k, block_size + 1): window i is ids[i·bs : (i+1)·bs + 1], so the windows' inputs and
        targets cover every held-out transition exactly once."""
        count = (len(self.heldout_ids) - 1) // block_size
        starts = torch.arange(count) * block_size
        return torch.stack([self.heldout_ids[s : s + block_size + 1] for s in starts.tolist()])


def split_text(text: str, fraction: float) -> tuple[str, str]:
    """(head, tail): the tail holds about `fraction` of the characters, cut after a line break.

    >>> split_text("one\\ntwo\\nthree\\nfour\\n", 0.3)
    ('one\\ntwo\\nthree\\n', 'four\\n')
    """
    cut = int(len(text) * (1 - fraction))
    newline = text.find("\n", cut)
    cut = newline + 1 if 0 <= newline < len(text) - 1 else cut
    return text[:cut], text[cut:]


def prepare_lm(config: LMTrainConfig, text: str | None = None) -> LMData:
    """Corpus (the built-in one for `config.lang`, or `text`), tokenizer, ids, baselines.

    Raises ValueError with a sentence for an empty corpus or one too short for a training batch
    and one held-out window of `config.block_size` tokens.
    """
    text = builtin_corpus(CORPUS[config.lang]) if text is None else text
    if not text.strip():
        raise ValueError("the corpus is empty: give some text to learn from")
    head, tail = split_text(text, config.heldout_fraction)
    if not head.strip() or not tail.strip():
        raise ValueError("the corpus is too short to keep a held-out part: give more lines")
    tokenizer = ByteBPETokenizer()
    tokenizer.train(head, config.vocab_size, trace=False)  # deterministic: ties broken by ids
    train, heldout = tokenizer.encode(head), tokenizer.encode(tail)
    need = config.block_size + 1
    if len(train) < need or len(heldout) < need:
        raise ValueError(
            f"the corpus is too short: {len(train)} training and {len(heldout)} held-out tokens, "
            f"and each part needs at least {need} (block_size + 1); give more text or a "
            "smaller block_size"
        )
    heldout = heldout[: 1 + (len(heldout) - 1) // config.block_size * config.block_size]
    vocab = max(tokenizer.token_bytes) + 1
    return LMData(
        tokenizer=tokenizer,
        train_ids=torch.tensor(train, dtype=torch.long),
        heldout_ids=torch.tensor(heldout, dtype=torch.long),
        vocab_size=vocab,
        bigram_loss=bigram_loss(train, heldout, vocab),
        uniform_loss=uniform_loss(vocab),
        text_chars=len(text),
    )
