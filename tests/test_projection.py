"""PCA map and cosine neighbours against numpy's SVD, torch.pca_lowrank and brute force."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer_core.analysis.projection import (
    cosine_matrix,
    cosine_neighbours,
    neighbourhood_map,
    pca_2d,
)


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_pca_by_hand():
    """(-2,0), (0,0), (2,0), (0,1), (0,-1): variance 8/5 along x, 2/5 along y -> shares 0.8, 0.2."""
    points = torch.tensor([[-2.0, 0.0], [0.0, 0.0], [2.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    result = pca_2d(points)
    assert result.explained.tolist() == pytest.approx([0.8, 0.2])
    assert result.coords[:, 0].tolist() == pytest.approx([-2.0, 0.0, 2.0, 0.0, 0.0], abs=1e-12)
    assert result.coords[:, 1].abs().tolist() == pytest.approx([0, 0, 0, 1, 1], abs=1e-12)


def test_pca_matches_numpy_svd_and_pca_lowrank():
    x = torch.randn(40, 12, generator=_gen()) @ torch.randn(12, 12, generator=_gen(1))
    result = pca_2d(x)
    centred = x.double().numpy() - x.double().numpy().mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    ref = centred @ vt[:2].T
    ours = result.coords.numpy()
    for axis in range(2):  # the sign of a principal axis is arbitrary: compare up to sign
        sign = np.sign(ours[:, axis] @ ref[:, axis])
        np.testing.assert_allclose(ours[:, axis], sign * ref[:, axis], atol=1e-9)
    np.testing.assert_allclose(result.explained.numpy(), s[:2] ** 2 / (s**2).sum(), atol=1e-12)
    # q = full width: the randomised range finder then spans everything, so the answer is exact
    _, _, v = torch.pca_lowrank(x.double(), q=12, center=True, niter=4)
    for axis in range(2):
        cos = torch.dot(v[:, axis], result.components[axis]).abs().item()
        assert cos == pytest.approx(1.0, abs=1e-6)


def test_pca_is_deterministic_and_rejects_too_little():
    x = torch.randn(10, 5, generator=_gen(2))
    assert torch.equal(pca_2d(x).coords, pca_2d(x.clone()).coords)
    flipped = pca_2d(-x)  # signs are fixed by the largest loading, so the map is stable
    assert (
        flipped.components.gather(1, flipped.components.abs().argmax(1, keepdim=True)) > 0
    ).all()
    with pytest.raises(ValueError, match="at least two"):
        pca_2d(torch.randn(1, 5, generator=_gen(3)))


def test_cosine_neighbours_brute_force():
    weight = torch.randn(50, 8, generator=_gen(4))
    exclude = torch.zeros(50, dtype=torch.bool)
    exclude[[3, 7]] = True
    ids, sims = cosine_neighbours(weight, [0, 5], k=4, exclude=exclude)
    w = weight.double().numpy()
    w = w / np.linalg.norm(w, axis=1, keepdims=True)
    for row, q in enumerate([0, 5]):
        scores = w @ w[q]
        scores[[q, 3, 7]] = -np.inf
        expected = np.argsort(-scores, kind="stable")[:4]
        assert ids[row].tolist() == expected.tolist()
        np.testing.assert_allclose(sims[row].numpy(), scores[expected], atol=1e-6)
    with pytest.raises(ValueError, match="k must be"):
        cosine_neighbours(weight, [0], k=50)
    with pytest.raises(ValueError, match="outside the table"):
        cosine_neighbours(weight, [50])


def test_cosine_matrix_zero_row_and_worked_example():
    """cos([1, 0], [0.9, 0.1]) = 0.9 / √0.82 = 0.99388; a zero row gives 0, not NaN."""
    a = torch.tensor([[1.0, 0.0], [0.0, 0.0]])
    b = torch.tensor([[0.9, 0.1]])
    out = cosine_matrix(a, b)
    assert out[0, 0].item() == pytest.approx(0.9 / 0.82**0.5, abs=1e-6)
    assert out[1, 0].item() == 0.0


def test_neighbourhood_map_lists_sentence_first():
    weight = torch.randn(30, 6, generator=_gen(5))
    result = neighbourhood_map(weight, [4, 9, 4], k=3)
    assert result.point_ids[:2] == [4, 9] and result.in_sentence[:2] == [True, True]
    assert not any(result.in_sentence[2:])
    assert len(set(result.point_ids)) == len(result.point_ids)
    assert result.neighbour_ids.shape == (2, 3)
    assert result.pca.coords.shape == (len(result.point_ids), 2)
