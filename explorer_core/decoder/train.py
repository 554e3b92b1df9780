"""`train_lm`: a small GPT-2-shaped decoder trained in place on next-token prediction.

Every step: `batch_size` random windows of block_size + 1 training ids (a seeded generator),
inputs = window[:-1], targets = window[1:], the mean cross-entropy over every position, one AdamW
step (learning rate warmed up linearly, then constant; decay on matrices only). Every `eval_every`
steps (and at the start and the end) the held-out loss over the same transitions as the bigram
line (an `LMRecord`); every `sample_every` steps (and at the end) a seeded sample (an `LMSample`).

Same config, same seed, same step budget: the same losses and the same samples (a test says so).
A seconds budget stops at a step count that depends on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn

from explorer_core.bert.causal_lm import BertForCausalLM, decoder_config
from explorer_core.bert.config import BertConfig
from explorer_core.decoder.config import LMTrainConfig
from explorer_core.decoder.data import LMData, prepare_lm
from explorer_core.decoder.sampling import generate
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer
from explorer_core.training.loop import seeded


@dataclass(frozen=True)
class LMRecord:
    step: int  # optimiser steps taken before this evaluation
    seconds: float  # wall-clock since training began
    loss: float  # mean held-out next-token cross-entropy, nats


@dataclass(frozen=True)
class LMSample:
    step: int
    seconds: float
    text: str  # the prompt's continuation (the prompt itself not included)


@dataclass(eq=False)
class LMResult:
    model: BertForCausalLM  # in eval mode
    tokenizer: ByteBPETokenizer
    config: LMTrainConfig
    records: list[LMRecord] = field(default_factory=list)
    samples: list[LMSample] = field(default_factory=list)
    bigram_loss: float = 0.0
    uniform_loss: float = 0.0
    steps: int = 0
    seconds: float = 0.0


def model_config(config: LMTrainConfig, vocab_size: int) -> BertConfig:
    """The decoder's BertConfig: GPT-2's switches with the run's sizes (FFN 4 × hidden)."""
    return decoder_config(
        vocab_size=vocab_size, hidden_size=config.hidden_size,
        num_hidden_layers=config.num_hidden_layers,
        num_attention_heads=config.num_attention_heads,
        intermediate_size=4 * config.hidden_size, max_position_embeddings=config.block_size,
        hidden_dropout_prob=config.dropout, attention_probs_dropout_prob=config.dropout,
        scale_embedding=config.scale_embedding, tie_word_embeddings=config.tie_word_embeddings,
    )  # fmt: skip


def make_optimizer(model: nn.Module, config: LMTrainConfig) -> torch.optim.AdamW:
    """AdamW with weight decay on the matrices (2-D weights) only, as nanoGPT."""
    params = [p for p in model.parameters() if p.requires_grad]
    decay = [p for p in params if p.dim() >= 2]
    other = [p for p in params if p.dim() < 2]
    groups = [
        {"params": decay, "weight_decay": config.weight_decay},
        {"params": other, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=config.learning_rate, betas=(0.9, 0.95))


@torch.no_grad()
def heldout_loss(model: BertForCausalLM, data: LMData, block_size: int) -> float:
    """Mean next-token loss over every held-out transition (the bigram line's own)."""
    was_training = model.training
    model.eval()
    loss = model.loss(data.heldout_windows(block_size))  # every window holds bs transitions
    model.train(was_training)
    return float(loss)


def _batch(ids: torch.Tensor, config: LMTrainConfig, generator: torch.Generator) -> torch.Tensor:
    starts = torch.randint(0, len(ids) - config.block_size, (config.batch_size,),
                           generator=generator)  # fmt: skip
    return torch.stack([ids[s : s + config.block_size + 1] for s in starts.tolist()])  # (B, T+1)


def train_lm(
    config: LMTrainConfig,
    *,
    data: LMData | None = None,
    on_record: Callable[[LMRecord], None] | None = None,
    on_sample: Callable[[LMSample], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> LMResult:
    """Train a fresh decoder within the config's budget; see the module docstring."""
    data = prepare_lm(config) if data is None else data
    # subtle: dropout draws from torch's default generator; `seeded` forks and seeds it for this
    # run (as every training loop here does), so the run repeats and the caller's state is kept
    with seeded(config.seed):
        return _train(config, data, on_record, on_sample, should_stop)


def _train(
    config: LMTrainConfig,
    data: LMData,
    on_record: Callable[[LMRecord], None] | None,
    on_sample: Callable[[LMSample], None] | None,
    should_stop: Callable[[], bool] | None,
) -> LMResult:
    model = BertForCausalLM(model_config(config, data.vocab_size), seed=config.seed)
    optimizer = make_optimizer(model, config)
    generator = torch.Generator().manual_seed(config.seed)
    result = LMResult(model, data.tokenizer, config, bigram_loss=data.bigram_loss,
                      uniform_loss=data.uniform_loss)  # fmt: skip
    start, step = time.perf_counter(), 0

    def record() -> None:
        loss = heldout_loss(model, data, config.block_size)
        entry = LMRecord(step, time.perf_counter() - start, loss)
        result.records.append(entry)
        if on_record is not None:
            on_record(entry)

    def sample() -> None:
        model.eval()
        text = generate(model, data.tokenizer, config.prompt, max_new_tokens=config.sample_tokens,
                        top_k=20, seed=config.seed)  # fmt: skip
        model.train()
        entry = LMSample(step, time.perf_counter() - start, text)
        result.samples.append(entry)
        if on_sample is not None:
            on_sample(entry)

    record()
    model.train()
    while not _done(config, step, start, should_stop):
        for group in optimizer.param_groups:  # 1) linear warm-up, then constant
            group["lr"] = config.learning_rate * min(1.0, (step + 1) / max(1, config.warmup_steps))
        window = _batch(data.train_ids, config, generator)  # (B, T+1)
        loss = model.loss(window)  # 2) next-token cross-entropy over every position
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # 3) gradients, clipped so one odd batch cannot blow the model up
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()  # 4) AdamW
        step += 1
        if step % config.eval_every == 0:
            record()
        if step % config.sample_every == 0:
            sample()
    if result.records[-1].step != step:
        record()
    if not result.samples or result.samples[-1].step != step:
        sample()
    result.steps, result.seconds = step, time.perf_counter() - start
    result.model = model.eval()
    return result


def _done(
    config: LMTrainConfig, step: int, start: float, should_stop: Callable[[], bool] | None
) -> bool:
    if config.steps is not None and step >= config.steps:
        return True
    if config.seconds is not None and time.perf_counter() - start >= config.seconds:
        return True
    return should_stop is not None and bool(should_stop())
