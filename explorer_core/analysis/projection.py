"""Looking at many vectors at once: a 2-D PCA map and nearest neighbours by cosine similarity.

Both are plain linear algebra on a (N, d) matrix of token vectors; the Token embeddings page draws
what they return. PCA here is the textbook one: centre the rows, take the SVD, project on the two
leading right-singular vectors (signs fixed so the largest loading of each axis is positive, making
the picture deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


@dataclass(frozen=True)
class PCA2D:
    coords: Tensor  # (N, 2) the rows projected on the two principal axes
    explained: Tensor  # (2,) share of the total variance each axis keeps, in [0, 1]
    components: Tensor  # (2, d) the unit principal axes
    mean: Tensor  # (d,) the centre that was subtracted


def pca_2d(vectors: Tensor) -> PCA2D:
    """Project the rows of `vectors` (N, d) on their two main directions of variance.

    Worked example: the points (-2, 0), (0, 0), (2, 0), (0, 1), (0, -1) vary most along x
    (variance 8/5) then y (2/5), so the axes are x and y and the shares are 0.8 and 0.2.
    """
    if vectors.dim() != 2 or vectors.shape[0] < 2 or vectors.shape[1] < 2:
        raise ValueError("a 2-D map needs at least two vectors of at least two numbers each")
    x = vectors.to(torch.float64)
    mean = x.mean(dim=0)
    centred = x - mean  # (N, d)
    _, s, vh = torch.linalg.svd(centred, full_matrices=False)
    components = vh[:2]  # (2, d)
    flip = torch.sign(components.gather(1, components.abs().argmax(dim=1, keepdim=True)))
    components = components * torch.where(flip == 0, 1.0, flip)
    variance = s**2
    total = variance.sum()
    explained = variance[:2] / total if total > 0 else torch.zeros(2, dtype=torch.float64)
    if explained.numel() < 2:
        explained = torch.cat([explained, torch.zeros(2 - explained.numel(), dtype=torch.float64)])
    return PCA2D(centred @ components.T, explained, components, mean)


def cosine_matrix(a: Tensor, b: Tensor) -> Tensor:
    """Cosine similarity of every row of a (N, d) with every row of b (M, d): (N, M).

    A zero vector (a [PAD] row) has cosine 0 with everything rather than NaN.
    """
    a_n = a / a.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    b_n = b / b.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    return a_n @ b_n.T


def cosine_neighbours(
    weight: Tensor, query_ids: list[int], k: int = 5, exclude: Tensor | None = None
) -> tuple[Tensor, Tensor]:
    """The k rows of `weight` (V, d) most cosine-similar to each query row: (ids, cosines) (n, k).

    The query row itself is never its own neighbour; `exclude` is an optional (V,) bool mask of rows
    that may not be neighbours (e.g. [unused] rows). Ties go to the smaller id (stable sort).

    >>> w = torch.tensor([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    >>> cosine_neighbours(w, [0], k=1)[0].tolist()
    [[1]]
    """
    if not 1 <= k < weight.shape[0]:
        raise ValueError(f"k must be between 1 and {weight.shape[0] - 1}, got {k}")
    if any(not 0 <= i < weight.shape[0] for i in query_ids):
        raise ValueError(f"a query id is outside the table of {weight.shape[0]} rows")
    sims = cosine_matrix(weight[query_ids].float(), weight.float())  # (n, V)
    sims[torch.arange(len(query_ids)), torch.tensor(query_ids, dtype=torch.long)] = -torch.inf
    if exclude is not None:
        sims[:, exclude] = -torch.inf
    order = torch.sort(sims, dim=1, descending=True, stable=True).indices[:, :k]  # (n, k)
    return order, sims.gather(1, order)


@dataclass(frozen=True)
class NeighbourhoodMap:
    point_ids: list[int]  # the sentence's distinct ids first, then their neighbours not yet listed
    in_sentence: list[bool]
    pca: PCA2D  # of the rows point_ids
    neighbour_ids: Tensor  # (n, k) for each distinct sentence id
    cosines: Tensor  # (n, k)


def neighbourhood_map(
    weight: Tensor, ids: list[int], k: int = 5, exclude: Tensor | None = None
) -> NeighbourhoodMap:
    """The distinct ids of a sentence, their k cosine neighbours in the whole table, and a 2-D PCA
    of all those rows together (so the map shows each token beside its neighbours)."""
    distinct = list(dict.fromkeys(ids))
    neighbour_ids, cosines = cosine_neighbours(weight, distinct, k, exclude)
    points = list(distinct)
    for nid in neighbour_ids.flatten().tolist():
        if nid not in points:
            points.append(nid)
    flags = [i < len(distinct) for i in range(len(points))]
    return NeighbourhoodMap(points, flags, pca_2d(weight[points].detach()), neighbour_ids, cosines)
