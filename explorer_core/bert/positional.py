"""How a Transformer learns word order: four position encodings with one small interface each.

- `SinusoidalPositionEncoding`: the fixed sin/cos table of "Attention Is All You Need"; it has no
  weights, so it extends to any length (extrapolation).
- `LearnedPositionEmbedding`: BERT's table of `max_len` trained rows; no row past `max_len`.
- `RelativePositionBias`: Shaw et al. (2018) as transformers' "relative_key": one trained vector per
  clipped distance j - i, turned into an attention bias query_i · r_(j-i) of shape (..., T, T).
- `RotaryPositionEmbedding` / `apply_rotary`: RoPE (Su et al., 2021) rotates each 2-D pair of a
  query or key by the angle position × θ_i, so q_m · k_n depends only on m - n.

The absolute encodings are added to the token vectors; the relative and rotary ones act inside
attention (the "bert" model imports them there).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


def _check_dim_base(dim: int, base: float) -> None:
    if not isinstance(dim, int) or dim < 2 or dim % 2:
        raise ValueError(
            f"the encoding width must be an even whole number of at least 2, got {dim}"
        )
    if base <= 1.0:
        raise ValueError(f"the frequency base must be greater than 1, got {base}")


def inverse_frequencies(dim: int, base: float = 10000.0) -> Tensor:
    """θ_i = base^(-2i/d) for i = 0 .. d/2 - 1 (radians per position), in float64.

    >>> inverse_frequencies(4, base=100.0).tolist()
    [1.0, 0.1]
    """
    _check_dim_base(dim, base)
    return base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)


def sinusoidal_table(length: int, dim: int, base: float = 10000.0) -> Tensor:
    """PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d)); (length, dim).

    Worked example, d = 4, base = 100: the frequencies are 100^(-0/4) = 1 and 100^(-2/4) = 0.1, so
    position 1 is [sin 1, cos 1, sin 0.1, cos 0.1] = [0.8415, 0.5403, 0.0998, 0.9950] and
    position 0 is [0, 1, 0, 1]. Computed in float64 and returned as float32.
    """
    if not isinstance(length, int) or length < 1:
        raise ValueError(
            f"the number of positions must be a whole number of at least 1, got {length}"
        )
    angles = torch.arange(length, dtype=torch.float64)[:, None] * inverse_frequencies(dim, base)
    table = torch.empty(length, dim, dtype=torch.float64)  # (L, d)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.float()


def _check_positions(position_ids: Tensor) -> None:
    if position_ids.numel() and int(position_ids.min()) < 0:
        raise ValueError("positions must be 0 or more")


class SinusoidalPositionEncoding(nn.Module):
    """The fixed sinusoidal table as a module: a non-trained buffer that grows on demand.

    `forward(position_ids)` with ids of shape (T,) or (B, T) returns (..., dim). A position past
    `max_len` simply makes the table longer: the formula has no trained rows to run out of.
    """

    def __init__(self, dim: int, base: float = 10000.0, max_len: int = 512) -> None:
        super().__init__()
        _check_dim_base(dim, base)
        self.dim, self.base = dim, float(base)
        self.register_buffer("table", sinusoidal_table(max_len, dim, base), persistent=False)

    @property
    def max_len(self) -> int:
        return self.table.shape[0]

    def forward(self, position_ids: Tensor) -> Tensor:
        _check_positions(position_ids)
        needed = int(position_ids.max()) + 1 if position_ids.numel() else 0
        if needed > self.max_len:  # extrapolation: extend the fixed table (double to amortise)
            length = max(needed, 2 * self.max_len)
            table = sinusoidal_table(length, self.dim, self.base)
            self.table = table.to(device=self.table.device, dtype=self.table.dtype)
        return self.table[position_ids]  # (..., d)


class LearnedPositionEmbedding(nn.Embedding):
    """BERT's learned absolute positions: an `nn.Embedding` of `max_len` rows, one per position.

    It *is* an `nn.Embedding` (weights load as `position_embeddings.weight`), with a readable error
    for a position it has no row for, where a plain embedding would raise an IndexError.
    """

    def __init__(self, max_len: int, dim: int, device: torch.device | str | None = None) -> None:
        super().__init__(max_len, dim, device=device)  # device: lets nn.utils.skip_init build it

    @property
    def max_len(self) -> int:
        return self.num_embeddings

    def forward(self, position_ids: Tensor) -> Tensor:
        _check_positions(position_ids)
        if position_ids.numel() and int(position_ids.max()) >= self.max_len:
            raise ValueError(
                f"position {int(position_ids.max())} is past the {self.max_len} positions this "
                f"learned table was trained for; a learned table cannot extrapolate"
            )
        return super().forward(position_ids)  # (..., d)


class RelativePositionBias(nn.Module):
    """Shaw-style relative positions: bias[i, j] = query_i · r[clip(j - i, -k, k) + k].

    `distance_embedding` holds 2k + 1 trained vectors of the head width. Distances farther than k
    share the edge rows. The bias is not divided by √d here: the attention adds it to q·k and scales
    both together, as transformers' "relative_key" does (einsum "bhld,lrd->bhlr").
    """

    def __init__(self, head_dim: int, clip: int) -> None:
        super().__init__()
        if clip < 1:
            raise ValueError(f"the relative clip window must be at least 1, got {clip}")
        self.head_dim, self.clip = head_dim, clip
        self.distance_embedding = nn.Embedding(2 * clip + 1, head_dim)

    def relative_positions(self, length: int, key_length: int | None = None) -> Tensor:
        """Row index into `distance_embedding` for each (query i, key j): clamp(j - i, ±k) + k.

        With k = 2 and T = 4: [[2, 3, 4, 4], [1, 2, 3, 4], [0, 1, 2, 3], [0, 0, 1, 2]].
        """
        key_length = length if key_length is None else key_length
        i = torch.arange(length, device=self.distance_embedding.weight.device)[:, None]
        j = torch.arange(key_length, device=self.distance_embedding.weight.device)[None, :]
        return torch.clamp(j - i, -self.clip, self.clip) + self.clip  # (T, T)

    def forward(self, query: Tensor) -> Tensor:
        """query (..., T, d) -> bias (..., T, T), e.g. (B, H, T, d) -> (B, H, T, T)."""
        if query.shape[-1] != self.head_dim:
            raise ValueError(f"query width {query.shape[-1]} != head width {self.head_dim}")
        table = self.distance_embedding(self.relative_positions(query.shape[-2]))  # (T, T, d)
        return torch.einsum("...ld,lrd->...lr", query, table.to(query.dtype))  # (..., T, T)


def _rotate_half(x: Tensor) -> Tensor:
    """Half-split pairing (GPT-NeoX, LLaMA in transformers): pair i is (x_i, x_(i + d/2))."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def _rotate_every_two(x: Tensor) -> Tensor:
    """Interleaved pairing (GPT-J, the RoFormer paper): pair i is (x_2i, x_(2i+1))."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def _widen(cos: Tensor, sin: Tensor, interleaved: bool) -> tuple[Tensor, Tensor]:
    """(..., T, d/2) angle tables -> (..., T, d): each pair's angle on both of its members."""
    if interleaved:
        return cos.repeat_interleave(2, dim=-1), sin.repeat_interleave(2, dim=-1)
    return torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)


def _rotate(x: Tensor, cos: Tensor, sin: Tensor, interleaved: bool) -> Tensor:
    """Rotate every pair of x by its angle; cos/sin are full width (..., T, d) (`_widen`)."""
    turned = _rotate_every_two(x) if interleaved else _rotate_half(x)
    return x * cos + turned * sin


def _broadcast_to(x: Tensor, table: Tensor, positions: Tensor) -> Tensor:
    """(B, T, d/2) per-example tables gain singleton dims so they broadcast over (B, ..., T, d)."""
    if positions.dim() == 2 and x.dim() > 3:
        shape = (table.shape[0],) + (1,) * (x.dim() - 3) + table.shape[1:]
        return table.reshape(shape)
    return table


def _default_positions(x: Tensor, positions: Tensor | None) -> Tensor:
    if x.shape[-1] % 2:
        raise ValueError(f"rotary positions need an even width, got {x.shape[-1]}")
    if positions is None:
        return torch.arange(x.shape[-2], device=x.device)
    _check_positions(positions)
    if positions.shape[-1] != x.shape[-2]:
        raise ValueError(f"{positions.shape[-1]} positions for a sequence of {x.shape[-2]}")
    return positions


def apply_rotary(
    x: Tensor, positions: Tensor | None, base: float = 10000.0, interleaved: bool = False
) -> Tensor:
    """Rotate each 2-D pair i of x (..., T, d) at position m by the angle m · θ_i.

    With d = 2 the single pair turns by m radians (θ_0 = 1): x = [1, 0] at m = 1 becomes
    [cos 1, sin 1] = [0.5403, 0.8415]. `positions` is (T,), (B, T) or None (0 .. T-1).
    """
    positions = _default_positions(x, positions)
    angles = positions.to(torch.float64)[..., None] * inverse_frequencies(x.shape[-1], base)
    cos = _broadcast_to(x, torch.cos(angles).to(x.dtype), positions)
    sin = _broadcast_to(x, torch.sin(angles).to(x.dtype), positions)
    return _rotate(x, *_widen(cos, sin, interleaved), interleaved)


class RotaryPositionEmbedding(nn.Module):
    """RoPE for one head width: cached cos/sin tables (grown on demand) for queries and keys."""

    def __init__(
        self, head_dim: int, base: float = 10000.0, interleaved: bool = False, max_len: int = 512
    ) -> None:
        super().__init__()
        _check_dim_base(head_dim, base)
        self.head_dim, self.base, self.interleaved = head_dim, float(base), interleaved
        self._build(max_len)

    def _build(self, length: int) -> None:
        old = getattr(self, "cos_cached", None)
        device = old.device if old is not None else None
        angles = torch.arange(length, dtype=torch.float64)[:, None] * inverse_frequencies(
            self.head_dim, self.base
        )  # (L, d/2)
        self.register_buffer("cos_cached", torch.cos(angles).float().to(device), persistent=False)
        self.register_buffer("sin_cached", torch.sin(angles).float().to(device), persistent=False)

    @property
    def max_len(self) -> int:
        return self.cos_cached.shape[0]

    def forward(
        self, q: Tensor, k: Tensor, positions: Tensor | None = None
    ) -> tuple[Tensor, Tensor]:
        """q, k (..., T, head_dim) -> (q_rot, k_rot), each pair turned by position × θ_i."""
        positions = _default_positions(q, positions)
        needed = int(positions.max()) + 1 if positions.numel() else 0
        if needed > self.max_len:  # a longer sequence arrived: grow the caches
            self._build(max(needed, 2 * self.max_len))
        cos = _broadcast_to(q, self.cos_cached[positions].to(q.dtype), positions)
        sin = _broadcast_to(q, self.sin_cached[positions].to(q.dtype), positions)
        cos, sin = _widen(cos, sin, self.interleaved)  # once for both queries and keys
        return _rotate(q, cos, sin, self.interleaved), _rotate(k, cos, sin, self.interleaved)
