"""The sentence vector as the model's authors pool it: sentence-transformers' steps, readably.

`read_pipeline` (in `pipeline`) says what to do; here it is done. Every pooling mode follows
sentence-transformers 6.2's ``Pooling`` on padded input, step for step:

- ``mean``: sum of the real token vectors / their count (reused from `explorer_core.bert.pooling`);
- ``mean_sqrt_len_tokens``: the same sum / sqrt(count), so longer texts get longer vectors;
- ``max``: the largest value of each feature over the real tokens (reused; an all-padding row
  gives zeros here where sentence-transformers gives -inf);
- ``cls``: the vector of the first *real* token (after left padding, after an excluded prompt);
- ``weightedmean``: token t (counted from 1 at the first real token) weighs t, so later tokens
  count more (SGPT's position-weighted mean);
- ``lasttoken``: the last real token's vector (decoder-style embedders; right padding).

Several modes are concatenated in order. ``include_prompt=False`` leaves the prompt's tokens out
of every mode (INSTRUCTOR-style models): ``prompt_length`` is the number of ids the prompt takes
at the start of each row, [CLS] included (see `prompt_length`). Then Dense layers, then Normalize.

Worked example (one row of three real tokens and one padding position, H = 1)::

    hidden = [[1], [2], [6], [100]], mask = [1, 1, 1, 0]
    mean 3, mean_sqrt_len 9/sqrt(3) = 5.196, max 6, cls 1, lasttoken 6,
    weightedmean (1*1 + 2*2 + 3*6) / (1 + 2 + 3) = 23/6 = 3.833
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file

from explorer_core.bert.pooling import max_pool, mean_pool
from explorer_core.models.pipeline import SentencePipeline, read_pipeline
from explorer_core.models.settings import ModelRefused

__all__ = [
    "SentencePipeline",
    "exclude_prompt",
    "finish",
    "load_dense",
    "pool",
    "prompt_length",
    "read_pipeline",
    "sentence_vectors",
]

ACTIVATIONS = {"tanh": torch.tanh, "identity": lambda x: x, "relu": F.relu, "gelu": F.gelu,
               "sigmoid": torch.sigmoid}  # fmt: skip
DenseWeights = tuple[tuple[torch.Tensor, torch.Tensor | None], ...]


def prompt_length(prompt_ids: Sequence[int], special_ids: Collection[int]) -> int:
    """How many ids a prompt takes at the start of a row: the prompt tokenised alone, special
    tokens included, less a trailing special token (the [SEP] that the sentence does not repeat).

    >>> prompt_length([101, 23032, 1024, 102], {0, 101, 102})  # [CLS] query : [SEP]
    3
    """
    length = len(prompt_ids)
    return length - 1 if length and prompt_ids[-1] in special_ids else length


def exclude_prompt(attention_mask: torch.Tensor, prompt_length: int) -> torch.Tensor:
    """A copy of the mask with each row's first ``prompt_length`` real positions set to 0.

    >>> exclude_prompt(torch.tensor([[1, 1, 1, 0], [0, 1, 1, 1]]), 2).tolist()
    [[0, 0, 1, 0], [0, 0, 0, 1]]
    """
    mask = attention_mask.clone()  # (B, T)
    first_real = attention_mask.to(torch.int32).argmax(dim=1)  # (B,) left padding per row
    if int(first_real.sum()) == 0:
        mask[:, :prompt_length] = 0  # no left padding anywhere
    else:
        positions = torch.arange(mask.size(1), device=mask.device).unsqueeze(0)  # (1, T)
        mask[positions < (first_real + prompt_length).unsqueeze(1)] = 0
    return mask


def _first_real(hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    first = mask.to(torch.int).argmax(dim=1)  # (B,) first position whose mask is 1
    index = first.view(-1, 1, 1).expand(-1, 1, hidden.size(-1))  # (B, 1, H)
    return hidden.gather(1, index).squeeze(1)  # (B, H)


def _last_real(hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    seq_len = hidden.size(1)
    found, from_end = mask.flip(1).max(dim=1)  # (B,) distance of the last 1 from the end
    # subtle: a row with no real token gathers position 0, which the mask then zeroes
    from_end = torch.where(found == 0, seq_len - 1, from_end)
    index = (seq_len - from_end - 1).view(-1, 1, 1).expand(-1, 1, hidden.size(-1))  # (B, 1, H)
    masked = hidden * mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, H)
    return masked.gather(1, index).squeeze(1)  # (B, H)


def _weighted_mean(hidden: torch.Tensor, mask: torch.Tensor, original: torch.Tensor):
    positions = torch.arange(1, hidden.size(1) + 1, dtype=hidden.dtype, device=hidden.device)
    # weights count from 1 at each row's first real token of the *original* mask, so leaving a
    # prompt out keeps the remaining tokens' weights
    start = original.to(torch.int32).argmax(dim=1).to(hidden.dtype)  # (B,)
    weights = positions.view(1, -1, 1) - start.view(-1, 1, 1)  # (B, T, 1)
    weighted = mask.unsqueeze(-1).to(hidden.dtype) * weights  # (B, T, 1)
    summed = (hidden * weighted).sum(dim=1)  # (B, H)
    return summed / weighted.sum(dim=1).clamp(min=1e-9)


def _one_mode(mode: str, hidden: torch.Tensor, mask: torch.Tensor, original: torch.Tensor):
    if mode == "mean":
        return mean_pool(hidden, mask)
    if mode == "mean_sqrt_len_tokens":
        summed = (hidden * mask.unsqueeze(-1).to(hidden.dtype)).sum(dim=1)  # (B, H)
        counts = mask.unsqueeze(-1).to(hidden.dtype).sum(dim=1).clamp(min=1e-9)  # (B, 1)
        return summed / torch.sqrt(counts)
    if mode == "max":
        return max_pool(hidden, mask)
    if mode == "cls":
        return _first_real(hidden, mask)
    if mode == "weightedmean":
        return _weighted_mean(hidden, mask, original)
    return _last_real(hidden, mask)  # "lasttoken"; SentencePipeline validated the name


def pool(
    pipeline: SentencePipeline,
    hidden: torch.Tensor,
    attention_mask: torch.Tensor,
    prompt_length: int = 0,
) -> torch.Tensor:
    """Sentence vectors (B, H * number of modes) from token vectors (B, T, H), as the pipeline's
    pooling says; the prompt's first ``prompt_length`` positions are left out when the pipeline's
    ``include_prompt`` is False."""
    if hidden.dim() != 3 or attention_mask.shape != hidden.shape[:2]:
        raise ValueError(
            f"expected hidden (B, T, H) and mask (B, T), got {tuple(hidden.shape)} and "
            f"{tuple(attention_mask.shape)}"
        )
    mask = attention_mask
    if prompt_length and not pipeline.include_prompt:
        mask = exclude_prompt(attention_mask, prompt_length)  # (B, T)
    vectors = [_one_mode(mode, hidden, mask, attention_mask) for mode in pipeline.pooling_modes]
    return torch.cat(vectors, dim=-1)  # (B, H * modes)


def load_dense(folder: Path, pipeline: SentencePipeline) -> DenseWeights:
    """(weight (out, in), bias (out,) or None) of each Dense step, read from its safetensors."""
    weights = []
    for layer in pipeline.dense:
        tensors = load_file(str(Path(folder) / layer.path / "model.safetensors"))
        weight, bias = tensors.get("linear.weight"), tensors.get("linear.bias")
        if weight is None or tuple(weight.shape) != (layer.out_features, layer.in_features):
            raise ModelRefused(f"the Dense step {layer.path} has no linear.weight of its size")
        weights.append((weight, bias if layer.bias else None))
    return tuple(weights)


def finish(
    pipeline: SentencePipeline, pooled: torch.Tensor, dense_weights: DenseWeights = ()
) -> torch.Tensor:
    """The pooled vectors (B, D) through the pipeline's Dense steps, then Normalize."""
    if len(dense_weights) != len(pipeline.dense):
        raise ValueError(f"the pipeline has {len(pipeline.dense)} Dense steps: use load_dense")
    vectors = pooled
    for layer, (weight, bias) in zip(pipeline.dense, dense_weights, strict=True):
        vectors = ACTIVATIONS[layer.activation](F.linear(vectors, weight, bias))  # (B, out)
    if pipeline.normalize:
        vectors = F.normalize(vectors, p=2, dim=-1)
    return vectors


def sentence_vectors(
    pipeline: SentencePipeline,
    hidden: torch.Tensor,
    attention_mask: torch.Tensor,
    prompt_length: int = 0,
    dense_weights: DenseWeights = (),
) -> torch.Tensor:
    """`pool`, then `finish`: what ``SentenceTransformer.encode`` returns for these tokens."""
    return finish(pipeline, pool(pipeline, hidden, attention_mask, prompt_length), dense_weights)
