"""The three objectives on one sentence (analysis.objectives) and their figures (viz.decoder)."""

from __future__ import annotations

import pytest

from explorer_core.analysis.objectives import (
    causal_visibility,
    mlm_choice,
    objective_rows,
)
from explorer_core.viz import decoder as viz

CLS, SEP, MASK = 1, 2, 3
SPECIALS = {0, CLS, SEP, MASK}
IDS = (CLS, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, SEP)  # 12 tokens, 10 ordinary


def rows(seed: int = 0, ids: tuple[int, ...] = IDS):
    return objective_rows(ids, vocab_size=99, special_ids=SPECIALS, mask_id=MASK, seed=seed)


def test_causal_lm_has_a_loss_everywhere_but_the_last_position_and_sees_the_past() -> None:
    """Position i predicts token i + 1: 11 of 12 positions; row i of the mask is i + 1 Trues."""
    _, causal, _ = rows()
    assert causal.loss == (True,) * 11 + (False,)
    assert causal.targets == (*IDS[1:], None)
    assert [sum(r) for r in causal.visible] == list(range(1, 13))
    assert causal.inputs == IDS


def test_mlm_marks_only_ordinary_tokens_and_each_sees_all() -> None:
    mlm, _, _ = rows()
    chosen = [i for i, c in enumerate(mlm.loss) if c]
    assert chosen and all(IDS[i] not in SPECIALS for i in chosen)
    assert mlm.loss_share < 0.5
    assert all(all(r) for r in mlm.visible)
    assert all(mlm.targets[i] == IDS[i] for i in chosen)
    assert all(mlm.targets[i] is None for i in range(len(IDS)) if i not in chosen)


def test_electra_has_a_loss_at_every_position_and_labels_the_replaced_ones() -> None:
    mlm, _, electra = rows()
    assert electra.loss == (True,) * len(IDS)
    for i, (seen, label) in enumerate(zip(electra.inputs, electra.targets, strict=True)):
        assert label == int(seen != IDS[i])
        if not mlm.loss[i]:
            assert seen == IDS[i]  # only the MLM positions were offered to the generator


def test_same_seed_same_rows_other_seed_other_positions() -> None:
    assert rows(5) == rows(5)
    assert any(rows(s)[0].loss != rows(0)[0].loss for s in range(1, 6))


def test_a_short_sentence_still_gets_one_mlm_position() -> None:
    """15% of one word is usually nothing: the draw then takes that word, masked."""
    for seed in range(20):
        inputs, chosen = mlm_choice((CLS, 42, SEP), vocab_size=99, special_ids=SPECIALS,
                                    mask_id=MASK, seed=seed)  # fmt: skip
        assert chosen[1] and not chosen[0] and not chosen[2]
        assert inputs[0] == CLS and inputs[2] == SEP


@pytest.mark.parametrize("ids", [(CLS, SEP), (7,)])
def test_bad_sentences_are_refused_with_a_sentence(ids: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="sentence"):
        rows(ids=ids)


def test_causal_visibility_is_lower_triangular() -> None:
    assert causal_visibility(2) == ((True, False), (True, True))


def test_objectives_figures_carry_the_rows_and_the_masks() -> None:
    found = rows()
    labels = [f"{i} · t{i}" for i in range(len(IDS))]
    texts = [["x" if c else "" for c in r.loss] for r in found]
    fig = viz.objectives_figure([r.loss for r in found], texts, labels, ["MLM", "CLM", "RTD"],
                                title="t", x_title="x", value_title="loss")  # fmt: skip
    assert fig.data[0].z[2].tolist() == [1.0] * len(IDS)
    vis = viz.visibility_figure([r.visible for r in found], labels, ["a", "b", "c"], title="t",
                                x_title="key", y_title="query", value_title="sees")  # fmt: skip
    assert len(vis.data) == 3 and sum(map(sum, vis.data[1].z)) == sum(range(1, 13))


def test_distribution_figure_greys_the_cut_tokens() -> None:
    fig = viz.distribution_figure(["a", "b", "c"], [0.5, 0.3, 0.2], [0.625, 0.375, 0.0],
                                  names={"raw": "raw", "kept": "kept", "cut": "cut"}, title="t",
                                  x_title="p")  # fmt: skip
    colours = fig.data[1].marker.color
    assert colours[2] == viz.CUT_COLOUR and colours[0] != viz.CUT_COLOUR
    assert list(fig.data[1].customdata) == ["kept", "kept", "cut"]


def test_loss_figure_draws_the_curve_and_both_reference_lines() -> None:
    from types import SimpleNamespace as R

    frame = viz.lm_loss_frame([R(step=s, seconds=s / 10, loss=6 - s / 10) for s in (1, 5, 9)])
    fig = viz.lm_loss_figure(frame, uniform=6.9, bigram=5.1,
                             names={"loss": "loss", "uniform": "ln V", "bigram": "bigram"},
                             title="t", x_title="step", y_title="nats")  # fmt: skip
    assert [d.name for d in fig.data] == ["loss", "ln V", "bigram"]
    assert list(fig.data[1].y) == [6.9, 6.9] and list(fig.data[2].y) == [5.1, 5.1]
