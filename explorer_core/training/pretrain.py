"""MLM + NSP pre-training of a small BERT on a text corpus.

Each step draws a batch of sentence pairs from the corpus and builds BERT's inputs afresh (new
pairs and new masks every step, as RoBERTa's "dynamic masking"):

1. pairs: A is a random line; with probability 0.5 B is the line that follows it in the same text
   (IsNext, label 0), otherwise a random line of the corpus (NotNext, label 1). A line holding a
   tab, ``A<TAB>B``, is a ready-made IsNext pair (its two halves);
2. ``[CLS] A [SEP] B [SEP]`` with segment ids 0 / 1, cut to fit `max_length` as transformers'
   "longest_first" (`explorer_core.inputs.rows`);
3. MLM: `explorer_core.inputs.masking.mask_tokens` hides 15% of the non-special tokens (80/10/10);
   with ``whole_word=True`` `explorer_core.inputs.whole_word.mask_whole_words` chooses whole words
   instead (jieba's words in Chinese, a word and its ## pieces elsewhere).

The loss is MLM + NSP (`BertForPreTraining`). With ``nsp=False`` the rows are ``[CLS] A [SEP]``
and only MLM is trained.

In use (a sketch; the tests run the real thing)::

    result = pretrain(BertForPreTraining(config), tokenizer, builtin_corpus("en"),
                      PretrainConfig(steps=100))
    result.model.bert  -> the pre-trained encoder, ready for `finetune.finetune`
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from explorer_core.bert.heads import IGNORE_INDEX, BertForPreTraining
from explorer_core.inputs.masking import mask_tokens
from explorer_core.inputs.rows import BertRows, build_rows
from explorer_core.inputs.vocab import BertVocab
from explorer_core.inputs.whole_word import SPECIAL, mask_whole_words, text_word_starts
from explorer_core.tokenization import Tokenizer
from explorer_core.training.devices import module_device, world, wrap
from explorer_core.training.loop import (
    Callback,
    EvalRecord,
    Loop,
    LoopConfig,
    Snapshot,
    TrainResult,
)


@dataclass(frozen=True)
class PretrainConfig(LoopConfig):
    mlm_probability: float = 0.15  # BERT's share of tokens to predict
    nsp: bool = True  # also train next-sentence prediction on sentence pairs
    whole_word: bool = False  # choose whole words to mask (Chinese words need jieba)

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 < self.mlm_probability < 1.0:
            raise ValueError("mlm_probability must be between 0 and 1")


@dataclass(frozen=True)
class PairCorpus:
    """A tokenized corpus: id rows of every line, and which line may follow which."""

    lines: tuple[tuple[int, ...], ...]
    next_of: tuple[int, ...]  # index of the line that follows line i, or -1 (end of a text)
    starts: tuple[int, ...]  # lines that have a follower (candidates for A)
    word_starts: tuple[tuple[int, ...], ...] = ()  # per line: whole_word.word_starts codes


def corpus_lines(corpus: str | Sequence[str]) -> list[list[str]]:
    """Texts of the corpus (blocks separated by blank lines), each a list of its lines.

    >>> corpus_lines("a\\nb\\n\\nc\\td")
    [['a', 'b'], ['c', 'd']]
    """
    raw = corpus.splitlines() if isinstance(corpus, str) else list(corpus)
    texts: list[list[str]] = [[]]
    for line in raw:
        line = line.strip()
        if not line:
            if texts[-1]:
                texts.append([])
        elif "\t" in line:  # a ready-made pair is a text of two lines
            a, _, b = line.partition("\t")
            texts.extend([[a.strip(), b.strip()], []])
        else:
            texts[-1].append(line)
    return [t for t in texts if t]


def tokenize_corpus(
    tokenizer: Tokenizer, vocab: BertVocab, corpus: str | Sequence[str], whole_word: bool = False
) -> PairCorpus:
    """Encode every line once; link each line to the next line of the same text. `whole_word`
    also keeps each line's word starts (`whole_word.word_starts`; jieba for Chinese lines)."""
    lines: list[tuple[int, ...]] = []
    next_of: list[int] = []
    words: list[tuple[int, ...]] = []
    drop = (vocab.cls_id, vocab.sep_id, vocab.pad_id)  # as `BertVocab.content_ids`
    for text in corpus_lines(corpus):
        if whole_word:
            encoded = [text_word_starts(tokenizer, line, drop) for line in text]
        else:
            encoded = [(vocab.content_ids(tokenizer, line), []) for line in text]
        encoded = [(tuple(ids), tuple(codes)) for ids, codes in encoded if ids]
        for j, (row, codes) in enumerate(encoded):
            lines.append(row)
            words.append(codes)
            next_of.append(len(lines) if j + 1 < len(encoded) else -1)
    if not lines:
        raise ValueError("The pre-training corpus is empty: give at least a few lines of text")
    starts = tuple(i for i, n in enumerate(next_of) if n >= 0)
    return PairCorpus(tuple(lines), tuple(next_of), starts, tuple(words) if whole_word else ())


def draw_batch(
    corpus: PairCorpus, vocab: BertVocab, config: PretrainConfig, generator: torch.Generator
) -> dict[str, torch.Tensor]:
    """One batch of MLM(+NSP) inputs: input_ids, attention_mask, token_type_ids, labels, nsp."""
    use_nsp = config.nsp and bool(corpus.starts)
    pool = corpus.starts if use_nsp else tuple(range(len(corpus.lines)))
    picks = torch.randint(len(pool), (config.batch_size,), generator=generator).tolist()
    coins = torch.rand(config.batch_size, generator=generator).tolist()
    others = torch.randint(len(corpus.lines), (config.batch_size,), generator=generator).tolist()
    first, second, nsp = [], [], []
    for pick, coin, other in zip(picks, coins, others, strict=True):
        first.append(pool[pick])
        if use_nsp:
            is_next = coin < 0.5
            second.append(corpus.next_of[pool[pick]] if is_next else other)
            nsp.append(0 if is_next else 1)

    def layout(table: Sequence[Sequence[int]], cls_id: int, sep_id: int, pad_id: int) -> BertRows:
        return build_rows(
            [table[i] for i in first], [table[i] for i in second] if use_nsp else None,
            cls_id=cls_id, sep_id=sep_id, pad_id=pad_id, max_length=config.max_length,
        )  # fmt: skip

    rows = layout(corpus.lines, vocab.cls_id, vocab.sep_id, vocab.pad_id)  # = vocab.rows(...)
    ids, mask, types = rows.input_ids, rows.attention_mask, rows.token_type_ids  # (B, T) each
    if config.whole_word and corpus.word_starts:
        # subtle: the word codes are laid out by the same builder, so truncation cuts them alike
        codes = layout(corpus.word_starts, SPECIAL, SPECIAL, SPECIAL).input_ids
        masked = mask_whole_words(
            ids, codes, vocab_size=vocab.size, mask_id=vocab.mask_id, generator=generator,
            mlm_probability=config.mlm_probability,
        )  # fmt: skip
    else:
        masked = mask_tokens(
            ids, vocab_size=vocab.size, special_ids=vocab.special_ids, mask_id=vocab.mask_id,
            generator=generator, mlm_probability=config.mlm_probability,
        )  # fmt: skip
    labels = masked.labels
    if not bool((labels != -100).any()):  # subtle: a batch with nothing to predict has no loss
        labels = labels.clone()
        labels[0, 1] = ids[0, 1]  # predict the first real token (left unchanged) instead
    batch = {"input_ids": masked.input_ids, "attention_mask": mask, "token_type_ids": types}
    batch["labels"] = labels
    if use_nsp:
        batch["next_sentence_label"] = torch.tensor(nsp)
    return batch


def pretrain(
    model: BertForPreTraining,
    tokenizer: Tokenizer,
    corpus: str | Sequence[str],
    config: PretrainConfig | None = None,
    *,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
    on_snapshot: Snapshot | None = None,
) -> TrainResult:
    """Pre-train `model` in place with MLM (+ NSP); `result.model` is the same BertForPreTraining.

    Evaluation (every `config.eval_every` steps) reports the loss on one fixed batch that the
    training draws never reuse the generator of: `EvalRecord.dev_loss`.
    """
    config = config or PretrainConfig()
    vocab = BertVocab.of(tokenizer)
    if vocab.size > model.config.vocab_size:
        raise ValueError(
            f"The model has {model.config.vocab_size} ids; the tokenizer needs {vocab.size}"
        )
    data = tokenize_corpus(tokenizer, vocab, corpus, whole_word=config.whole_word)
    generator = torch.Generator().manual_seed(config.seed)
    held_out = draw_batch(data, vocab, config, torch.Generator().manual_seed(config.seed + 10_007))
    segments = model.config.type_vocab_size > 0
    device, ranks = module_device(model), world()
    trained = wrap(model)  # DistributedDataParallel under torchrun, else the model itself

    def forward(batch: dict[str, torch.Tensor], module: nn.Module) -> dict[str, torch.Tensor]:
        batch = {k: v.to(device) for k, v in batch.items()}
        out = module(
            batch["input_ids"], batch["attention_mask"],
            batch["token_type_ids"] if segments else None,
            labels=batch["labels"], next_sentence_label=batch.get("next_sentence_label"),
            masked_logits_only=True,
        )  # fmt: skip
        parts = {"loss": out.loss, "mlm_loss": out.mlm_loss}
        if out.nsp_loss is not None:
            parts["nsp_loss"] = out.nsp_loss
        return parts

    def step_fn(step: int) -> dict[str, torch.Tensor]:
        batch = draw_batch(data, vocab, config, generator)  # the global batch, alike on all ranks
        mine = {k: v[ranks.rank :: ranks.size] for k, v in batch.items()}
        parts = forward(mine, trained)
        if ranks.size == 1:
            return parts
        # subtle: each loss is a mean over this rank's masked tokens (MLM) or rows (NSP); DDP
        # averages over ranks, which is the global batch's mean only if every rank holds as many.
        # Weighting by (mine / global) · size makes the average exactly the global mean.
        masked = (batch["labels"] != IGNORE_INDEX).sum().item()
        weights = {"mlm_loss": (mine["labels"] != IGNORE_INDEX).sum().item() / masked,
                   "nsp_loss": len(mine["labels"]) / len(batch["labels"])}  # fmt: skip
        parts = {k: v * weights[k] * ranks.size for k, v in parts.items() if k != "loss"}
        return {"loss": sum(parts.values()), **parts}

    def eval_fn(step: int, seconds: float) -> EvalRecord:
        loss = float(forward(held_out, model)["loss"])  # the bare model: rank 0 alone evaluates
        return EvalRecord("pretrain", step, seconds, dev_loss=loss)

    loop = Loop(
        "pretrain", trained, config, step_fn, eval_fn, callback, stop, on_snapshot,
        encoder=model.bert,
    )  # fmt: skip
    return TrainResult(model=model, log=loop.run())
