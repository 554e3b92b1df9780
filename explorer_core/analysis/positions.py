"""What the Position encodings page plots: similarity of positions under each scheme, RoPE's
rotation of one pair, its frequency spectrum and its long-range decay; and word order: the same
tokens in two orders, a bag before positions are added and two different inputs after.

Every function is computed with the encodings of `explorer_core.bert.positional`, so the page
shows the same numbers the model uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.bert.positional import (
    LearnedPositionEmbedding,
    RelativePositionBias,
    RotaryPositionEmbedding,
    apply_rotary,
    inverse_frequencies,
    sinusoidal_table,
)


def position_similarity(table: Tensor, normalise: bool = False) -> Tensor:
    """PE · PEᵀ: dot product of every position's vector with every other's, (L, d) -> (L, L).

    For the sinusoid, entry (m, n) = Σ_i cos((m - n) θ_i): it depends only on m - n.
    `normalise` scales each row to length 1 first (cosine similarity), so one long row (BERT's
    position 0) does not wash out the rest of the picture.
    """
    if normalise:
        table = table / table.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    return table @ table.T


def sinusoidal_similarity(length: int, dim: int, base: float) -> Tensor:
    """PE · PEᵀ of the sinusoidal table, divided by d/2 so the diagonal is exactly 1."""
    table = sinusoidal_table(length, dim, base).double()
    return (position_similarity(table) / (dim / 2)).float()


def relative_bias_matrix(length: int, clip: int, dim: int, seed: int) -> Tensor:
    """The position-only part of Shaw-style attention: q · r[clip(j - i)] for one fixed query q.

    The table r (2k+1, d) and q are drawn from N(0, 1) with `seed`, as a fresh model would start;
    the result (T, T) is constant along each diagonal and beyond ±k.
    """
    gen = torch.Generator().manual_seed(seed)
    bias = RelativePositionBias(dim, clip)
    with torch.no_grad():
        bias.distance_embedding.weight.copy_(torch.randn(2 * clip + 1, dim, generator=gen))
        query = torch.randn(dim, generator=gen).expand(length, dim) / math.sqrt(dim)
        return bias(query)  # (T, T)


def rope_score_matrix(length: int, dim: int, base: float, interleaved: bool = False) -> Tensor:
    """RoPE's position-only similarity: R_m u · R_n u / d for the all-ones vector u, (T, T).

    Equal to Σ_i 2cos((m - n) θ_i) / d, the same matrix as the sinusoid's PE · PEᵀ / (d/2).
    """
    ones = torch.ones(length, dim, dtype=torch.float64)
    rotated = apply_rotary(ones, torch.arange(length), base, interleaved)  # (T, d)
    return (rotated @ rotated.T / dim).float()


def rope_offset_curve(dim: int, base: float, max_offset: int) -> dict[str, Tensor]:
    """q·k against the offset m - n, for offsets 0 .. max_offset, and RoFormer's decay bound.

    "score": R_Δ u · R_0 u / d for the all-ones u (1 at Δ = 0, oscillating and shrinking after).
    "bound": the relative upper bound of the RoFormer paper (sec. 3.4.3),
    (1 / (d/2)) Σ_j |Σ_(k<j) e^(iΔθ_k)|, divided by its value at Δ = 0 so both curves start at 1;
    it decays as the offset grows.
    """
    if max_offset < 1:
        raise ValueError("the largest offset must be at least 1")
    offsets = torch.arange(max_offset + 1)
    ones = torch.ones(max_offset + 1, dim, dtype=torch.float64)
    rotated = apply_rotary(ones, offsets, base)  # (Δ, d)
    score = rotated @ apply_rotary(ones[:1], torch.tensor([0]), base)[0] / dim  # (Δ,)
    angles = offsets[:, None].double() * inverse_frequencies(dim, base)  # (Δ, d/2)
    partial = torch.cumsum(torch.polar(torch.ones_like(angles), angles), dim=1)  # S_1 .. S_(d/2)
    bound = partial.abs().mean(dim=1)
    bound = bound / bound[0]
    return {"offset": offsets, "score": score.float(), "bound": bound.float()}


def rope_pair_path(pair: int, dim: int, base: float, length: int) -> dict[str, Tensor]:
    """Where RoPE sends the pair `pair` of a vector whose pair is (1, 0), at positions 0 .. L-1.

    The point turns by θ_pair radians per position; (x, y) are read from `apply_rotary`'s output
    (half-split: the pair is dims (pair, pair + d/2)).
    """
    if not 0 <= pair < dim // 2:
        raise ValueError(f"pair must be between 0 and {dim // 2 - 1}, got {pair}")
    vector = torch.zeros(length, dim, dtype=torch.float64)
    vector[:, pair] = 1.0
    rotated = apply_rotary(vector, torch.arange(length), base)  # (L, d)
    theta = float(inverse_frequencies(dim, base)[pair])
    return {
        "position": torch.arange(length),
        "x": rotated[:, pair].float(),
        "y": rotated[:, pair + dim // 2].float(),
        "angle": (torch.arange(length, dtype=torch.float64) * theta).float(),
        "theta": torch.tensor(theta),
    }


def rope_spectrum(dim: int, base: float) -> dict[str, Tensor]:
    """θ_i (radians per position) and wavelength 2π/θ_i (positions per full turn) of each pair."""
    theta = inverse_frequencies(dim, base)
    return {"pair": torch.arange(dim // 2), "theta": theta, "wavelength": 2 * math.pi / theta}


def pairs_unseen_beyond(dim: int, base: float, trained_length: int) -> int:
    """How many pairs never completed one full turn within `trained_length` positions.

    Past that length those pairs reach angles the model never saw in training, which is why RoPE
    and the sinusoid need tricks (interpolation, a larger base) to stretch to longer inputs.
    """
    wavelength = rope_spectrum(dim, base)["wavelength"]
    return int((wavelength > trained_length).sum())


def rope_cos_table(length: int, dim: int, base: float) -> Tensor:
    """cos(m θ_i) for positions m < length and pairs i < d/2: the rotary module's own cache."""
    rope = RotaryPositionEmbedding(dim, base, max_len=length)
    return rope.cos_cached[:length].clone()  # (L, d/2)


def relative_distance_matrix(length: int, clip: int) -> Tensor:
    """clamp(j - i, -k, k) for every (query i, key j): the distance each bias row is chosen by."""
    rows = RelativePositionBias(1, clip).relative_positions(length)
    return rows - clip  # (T, T)


def learned_reaches(max_len: int, length: int) -> bool:
    """Whether a learned table of `max_len` rows can encode positions 0 .. length-1.

    Asks the real module (its random start drawn on a forked generator, so the caller's random
    state does not move): False when it raises.
    """
    # subtle: not nn.utils.skip_init: it builds the module on the meta device, whose first
    # normal_ imports torch._dynamo (1.1-1.6 s), and the Position encodings page's first visit
    # paid that on every fresh server.
    with torch.random.fork_rng(devices=[]):
        table = LearnedPositionEmbedding(max_len, 1)
    try:
        table(torch.arange(length))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class WordOrder:
    """Two orders of the same tokens, before and after positions are added (`word_order`)."""

    same_bag: bool  # the two id lists hold the same ids, as many times each
    bag_gap: float  # |Σ E[a] - Σ E[b]|: 0 when the bags are the same
    input_gap: float  # the largest |x_A[t] - x_B[t]| over positions t, x = E[id] + P[t]
    moved: tuple[tuple[int, int, int, float], ...]  # (id, position in A, in B, |P[i] - P[j]|)


def word_order(
    token_table: Tensor, position_table: Tensor, ids_a: list[int], ids_b: list[int],
    names_a: list[str] | None = None, names_b: list[str] | None = None,
) -> WordOrder:  # fmt: skip
    """Compare two token orders with token embeddings `token_table` (V, H) and position
    embeddings `position_table` (L, H).

    Token embeddings alone are a bag: "狗 咬 人" and "人 咬 狗" look up the same three rows, so any
    order-free view of them (their sum, their set) is the same. Adding P[t] makes each row depend
    on where it stands: a token that moved from position i to j differs by |P[i] - P[j]|.
    Matching: the k-th occurrence of a token in A goes with its k-th occurrence in B, tokens named
    by `names_a` / `names_b` when given (the text they cover: two [UNK]s are different characters).
    Worked example: ids [5, 6, 7] and [7, 6, 5]: same bag (gap 0); 5 moved 0 -> 2, 6 stayed, 7
    moved 2 -> 0, so `moved` lists (5, 0, 2, d), (6, 1, 1, 0.0), (7, 2, 0, d) with d = |P0 - P2|.
    """
    if not ids_a or not ids_b:
        raise ValueError("both orders need at least one token")
    if max(len(ids_a), len(ids_b)) > position_table.shape[0]:
        raise ValueError(
            f"at most {position_table.shape[0]} tokens: the model has no more positions"
        )
    token_a, token_b = token_table[ids_a].double(), token_table[ids_b].double()  # (Ta, H), (Tb, H)
    bag_gap = float((token_a.sum(0) - token_b.sum(0)).norm())
    positions = position_table.double()
    width = min(len(ids_a), len(ids_b))
    inputs_a = token_a[:width] + positions[:width]  # (T, H)
    inputs_b = token_b[:width] + positions[:width]
    input_gap = float((inputs_a - inputs_b).norm(dim=-1).max())
    keys_a, keys_b = names_a or ids_a, names_b or ids_b
    seen: dict[object, list[int]] = {}
    for j, key in enumerate(keys_b):
        seen.setdefault(key, []).append(j)
    moved = []
    for i, key in enumerate(keys_a):
        if seen.get(key):
            j = seen[key].pop(0)
            moved.append((ids_a[i], i, j, float((positions[i] - positions[j]).norm())))
    same = sorted(ids_a) == sorted(ids_b)
    return WordOrder(same, bag_gap, input_gap, tuple(moved))
